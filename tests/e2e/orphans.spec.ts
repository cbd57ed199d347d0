// Issue 24, part 1: `<project>/<sid>/subagents/` folders whose `<sid>.jsonl` is gone. Trees are
// generated for the run (gen-project.mjs --orphans), one small enough to be parsed whole and one
// big enough to be listed from the scan; both are picked through the real folder input. Each
// orphaned folder must be ONE session of its real project, marked "main transcript missing",
// whose subagents open under their (synthetic) calls with a timeline lane each.
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, openApp, pickFolder, stats } from './helpers';

interface Orphan { project: string; sid: string; subagents: number }
interface Listed { key: string; project: string; subagents: number; title: string; mainMissing: boolean }

const trees: Record<'small' | 'big', { dir: string; orphans: Orphan[]; projects: string[]; mains: number }> = {} as never;
const roots: string[] = [];

function generate(args: string[]) {
  const out = mkdtempSync(join(tmpdir(), 'loupe-orphans-'));
  roots.push(out);
  const dir = join(out, 'projects');
  execFileSync('node', [join(ROOT, '../shared/bench/gen-project.mjs'), ...args, '--out', dir]);
  const projects = readdirSync(dir).filter((p) => statSync(join(dir, p)).isDirectory());
  const orphans: Orphan[] = [];
  let mains = 0;
  for (const p of projects) {
    for (const name of readdirSync(join(dir, p))) {
      if (name.endsWith('.jsonl')) mains++;
      const subs = join(dir, p, name, 'subagents');
      if (existsSync(subs) && !existsSync(join(dir, p, `${name}.jsonl`))) {
        orphans.push({ project: p, sid: name, subagents: readdirSync(subs).filter((f) => f.endsWith('.jsonl')).length });
      }
    }
  }
  return { dir, orphans, projects, mains };
}

test.beforeAll(() => {
  // 10 sessions, 3 of them orphaned: parsed whole (a small drop).
  trees.small = generate(['--mb', '1', '--sessions', '10', '--projects', '2', '--seed', '5', '--orphans', '0.5']);
  // 30 sessions: listed from the scan, built when opened (the big-drop path).
  trees.big = generate(['--mb', '2', '--sessions', '30', '--projects', '3', '--seed', '5', '--orphans', '0.3']);
});

test.afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const listed = (page: Page) => page.evaluate(() => (window as unknown as { __loupe: { list: () => Listed[] } }).__loupe.list());
const main = (page: Page) => page.locator('main[data-session-key]');

for (const kind of ['small', 'big'] as const) {
  test(`${kind} drop: each orphaned subagent folder is one marked session of its real project, its subagents readable`, async ({ page }) => {
    const tree = trees[kind];
    expect(tree.orphans.length).toBeGreaterThan(0);
    await openApp(page);
    await pickFolder(page, tree.dir);

    // The projects count is the real projects': no project named after a subagents/ folder.
    const s = await stats(page);
    expect((s as unknown as { projects: number }).projects).toBe(tree.projects.length);
    expect(s.sessions).toBe(tree.mains + tree.orphans.length);
    const projectButtons = page.getByRole('navigation', { name: 'Projects' }).locator('button[data-project]');
    await expect(projectButtons).toHaveCount(tree.projects.length);
    for (const p of await projectButtons.evaluateAll((els) => els.map((e) => e.getAttribute('data-project') ?? ''))) expect(p).not.toMatch(/subagents/);

    // One entry per orphaned folder, marked, under its own project, with all its subagents.
    const list = await listed(page);
    expect(list.every((e) => !/subagents/.test(e.project))).toBe(true);
    const marked = list.filter((e) => e.mainMissing);
    expect(marked.map((e) => `${e.project.split('/').at(-1)} ${e.subagents}`).sort()).toEqual(tree.orphans.map((o) => `${o.project} ${o.subagents}`).sort());
    expect(marked.every((e) => !e.title.startsWith('Session '))).toBe(true); // titled from a subagent's prompt

    // The list shows the mark on the entry.
    const orphan = marked[0];
    await page.getByLabel('Filter sessions by title').fill(orphan.title);
    const entry = page.getByRole('navigation', { name: 'Sessions' }).locator(`button[data-session-key="${orphan.key}"]`);
    await expect(entry.locator('[data-main-missing]')).toHaveText('main transcript missing');

    // Opened: the header says so, every subagent has a lane, and a subagent's transcript reads.
    await entry.click();
    await expect(main(page)).toHaveAttribute('data-session-key', orphan.key);
    await expect(page.locator('header [data-main-missing]')).toBeVisible();
    if (kind === 'big') {
      // One session shown: its main lane and a lane per subagent, each bar from its call.
      await expect(page.locator('[data-lane-label]')).toHaveCount(1 + orphan.subagents);
      await expect(page.locator('rect[data-segment-id^="agent:"]')).toHaveCount(orphan.subagents);
    } else {
      // A full load's timeline has a lane per session: the orphan has its own.
      await expect(page.locator(`[data-lane-label="${orphan.key}"]`)).toBeVisible();
    }
    const delegation = page.locator('[data-row-kind=delegation]').first();
    await expect(delegation).toBeVisible();
    await delegation.locator('button[aria-expanded]').first().click();
    await expect(delegation.getByText('Subagent transcript')).toBeVisible();
    await expect(delegation.locator('.children [data-row-kind]').first()).toBeVisible();
  });
}
