// Issue 14: following a folder live. window.showDirectoryPicker is stubbed to return a folder in
// the origin-private file system (a real FileSystemDirectoryHandle), and the tests write to files
// there from the page, as Claude Code would: line by line, a line in two halves, a result that
// arrives later, a subagent file appearing and growing, a turn ending, a file replaced.
import { expect, test, type Page } from '@playwright/test';
import { openApp, timelineSettled } from './helpers';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const ts = (s: number) => new Date(T0 + s * 1000).toISOString();
const SID = 'S1';
const user = (uuid: string, parent: string | null, s: number, content: unknown, extra: object = {}) =>
  JSON.stringify({ type: 'user', uuid, parentUuid: parent, sessionId: SID, timestamp: ts(s), message: { role: 'user', content }, ...extra }) + '\n';
const assistant = (uuid: string, parent: string, s: number, content: unknown[], stop: string | null, extra: object = {}) =>
  JSON.stringify({ type: 'assistant', uuid, parentUuid: parent, sessionId: SID, timestamp: ts(s), message: { id: `m-${uuid}`, role: 'assistant', model: 'claude', stop_reason: stop, content }, ...extra }) + '\n';
const result = (uuid: string, parent: string, s: number, id: string, text: string, extra: object = {}) =>
  user(uuid, parent, s, [{ type: 'tool_result', tool_use_id: id, content: text }], extra);
const bash = (id: string, command: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command } });

const MAIN = `proj/${SID}.jsonl`;

/** Stub the picker with an OPFS folder "proj" and give the page helpers to write into it. */
async function setup(page: Page, opts: { noApi?: boolean } = {}): Promise<void> {
  await page.addInitScript((noApi) => {
    const w = window as unknown as Record<string, unknown>;
    const proj = async () => (await navigator.storage.getDirectory()).getDirectoryHandle('proj', { create: true });
    if (noApi) delete w.showDirectoryPicker;
    else w.showDirectoryPicker = async () => proj();
    const fileOf = async (path: string) => {
      const parts = path.split('/').slice(1);
      let d = await proj();
      for (const p of parts.slice(0, -1)) d = await d.getDirectoryHandle(p, { create: true });
      return d.getFileHandle(parts[parts.length - 1], { create: true });
    };
    w.__opfs = {
      async reset() {
        const root = await navigator.storage.getDirectory();
        await root.removeEntry('proj', { recursive: true }).catch(() => undefined);
        await root.getDirectoryHandle('proj', { create: true });
      },
      async append(path: string, text: string) {
        const fh = await fileOf(path);
        const size = (await fh.getFile()).size;
        const wr = await fh.createWritable({ keepExistingData: true });
        await wr.seek(size);
        await wr.write(text);
        await wr.close();
      },
      async replace(path: string, text: string) {
        const wr = await (await fileOf(path)).createWritable({ keepExistingData: false });
        await wr.write(text);
        await wr.close();
      }
    };
  }, opts.noApi ?? false);
  await openApp(page);
  await page.evaluate(() => (window as unknown as { __opfs: { reset: () => Promise<void> } }).__opfs.reset());
}

const append = (page: Page, path: string, text: string) =>
  page.evaluate(([p, t]) => (window as unknown as { __opfs: { append: (p: string, t: string) => Promise<void> } }).__opfs.append(p, t), [path, text] as const);
const replace = (page: Page, path: string, text: string) =>
  page.evaluate(([p, t]) => (window as unknown as { __opfs: { replace: (p: string, t: string) => Promise<void> } }).__opfs.replace(p, t), [path, text] as const);
const updates = (page: Page) => page.evaluate(() => (window as unknown as { __loupe: { live: { stats: () => { updates: number } } } }).__loupe.live.stats().updates);

/** Appends and waits until the page applied an update that saw it (one poll later). */
async function write(page: Page, path: string, text: string): Promise<void> {
  const before = await updates(page);
  await append(page, path, text);
  await expect.poll(() => updates(page), { timeout: 10_000 }).toBeGreaterThan(before);
}

async function follow(page: Page): Promise<void> {
  await page.locator('[data-action="follow"]').click();
  await expect(page.locator('html')).toHaveAttribute('data-live', 'on');
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
}

const row = (page: Page, uuid: string) => page.locator(`[data-atom-uuid="${uuid}"][data-row-kind]`).first();
const status = (page: Page) => page.locator('[data-live-status]');
const glyph = (page: Page, uuid: string) => row(page, uuid).locator('.glyph').first();

test('a session growing line by line shows each step: half lines, a late result, a subagent, the turn ending', async ({ page }) => {
  await setup(page);
  await append(page, MAIN, user('u1', null, 0, 'run the tests'));
  await follow(page);
  await expect(row(page, 'u1')).toBeVisible();
  await expect(page.locator('[data-now-edge]')).toBeAttached();

  // A line written in two halves shows only once whole.
  const call = assistant('a1', 'u1', 1, [bash('T1', 'npm test')], 'tool_use');
  await write(page, MAIN, call.slice(0, 40));
  await expect(row(page, 'a1')).toHaveCount(0);
  await write(page, MAIN, call.slice(40));
  await expect(glyph(page, 'a1')).toHaveAttribute('aria-label', 'running');
  await expect(status(page)).toHaveAttribute('data-live-status', 'running');
  await expect(status(page)).toContainText('Running Bash · npm test');

  // The result arrives later: done, in place.
  await write(page, MAIN, result('r1', 'a1', 3, 'T1', 'all green'));
  await expect(glyph(page, 'a1')).toHaveAttribute('aria-label', 'done');

  // A subagent is spawned, its file appears and grows inside the delegation row.
  await write(page, MAIN, assistant('a2', 'r1', 4, [{ type: 'tool_use', id: 'T2', name: 'Task', input: { description: 'Scan the repo', prompt: 'Scan the repo for TODOs', subagent_type: 'Explore' } }], 'tool_use'));
  await expect(status(page)).toHaveAttribute('data-live-status', 'subagent');
  const agent = `proj/${SID}/subagents/agent-abc.jsonl`;
  const sub = (line: string) => line.replace(/"sessionId":"S1"/, '"sessionId":"S1","isSidechain":true,"agentId":"abc"');
  await write(page, agent, sub(user('c1', null, 5, 'Scan the repo for TODOs')));
  const delegation = page.locator('[data-row-kind=delegation]').first();
  await expect(delegation).toContainText('0 steps');
  await write(page, agent, sub(assistant('c2', 'c1', 6, [{ type: 'tool_use', id: 'C1', name: 'Grep', input: { pattern: 'TODO' } }], 'tool_use')));
  await expect(delegation).toContainText('1 steps');
  await delegation.locator('button[aria-expanded]').first().click();
  await expect(delegation.locator('[data-atom-uuid="c2"]').first()).toBeAttached();

  // The subagent returns and the turn ends: everything settles, nothing claims to run.
  await write(page, MAIN, result('r2', 'a2', 8, 'T2', 'Found 3 TODOs', { toolUseResult: { agentId: 'abc', status: 'completed' } }));
  await write(page, MAIN, assistant('a3', 'r2', 9, [{ type: 'text', text: 'All done: tests pass.' }], 'end_turn'));
  await expect(row(page, 'a3')).toBeVisible();
  await expect(status(page)).toHaveAttribute('data-live-status', 'ended');
  await expect(page.locator('main .glyph-running')).toHaveCount(0);
});

test('rule: a call is running while its turn is open and unfinished once the turn is over', async ({ page }) => {
  await setup(page);
  await append(page, MAIN, user('u1', null, 0, 'go') + assistant('a1', 'u1', 1, [bash('T1', 'sleep 100')], 'tool_use'));
  await follow(page);
  await expect(glyph(page, 'a1')).toHaveAttribute('aria-label', 'running');
  const key = await row(page, 'a1').getAttribute('data-row-key');
  // The turn ends although the call never reported back.
  await write(page, MAIN, assistant('a2', 'a1', 5, [{ type: 'text', text: 'Giving up on that.' }], 'end_turn'));
  await expect(glyph(page, 'a1')).toHaveAttribute('aria-label', 'no result');
  expect(await row(page, 'a1').getAttribute('data-row-key')).toBe(key);
});

test('rule: thinking shimmers only while it is the live edge, then settles in place', async ({ page }) => {
  await setup(page);
  await append(page, MAIN, user('u1', null, 0, 'why?'));
  await follow(page);
  await write(page, MAIN, assistant('a1', 'u1', 1, [{ type: 'thinking', thinking: 'Considering the options', signature: 's' }], null));
  const thought = row(page, 'a1');
  await expect(thought.locator('[data-thinking=live]')).toBeVisible();
  await expect(thought.locator('.thinking-shimmer')).toHaveText('Thinking…');
  await expect(status(page)).toHaveAttribute('data-live-status', 'thinking');
  const key = await thought.getAttribute('data-row-key');
  await write(page, MAIN, assistant('a2', 'a1', 3, [{ type: 'text', text: 'Because.' }], 'end_turn'));
  await expect(thought.locator('[data-thinking=settled]')).toBeVisible();
  await expect(page.locator('.thinking-shimmer')).toHaveCount(0);
  expect(await thought.getAttribute('data-row-key')).toBe(key);
});

test('rule: without a state log, a silent open turn reads "quiet", not running, and wakes on the next write', async ({ page }) => {
  await setup(page);
  await append(page, MAIN, user('u1', null, 0, 'go') + assistant('a1', 'u1', 1, [bash('T1', 'make')], 'tool_use'));
  await follow(page);
  await expect(glyph(page, 'a1')).toHaveAttribute('aria-label', 'running');
  await page.evaluate(() => (window as unknown as { __loupe: { live: { setQuietAfter: (ms: number) => void } } }).__loupe.live.setQuietAfter(1500));
  await expect(status(page)).toHaveAttribute('data-live-status', 'quiet', { timeout: 10_000 });
  await expect(status(page)).toContainText(/Quiet for \d+ min/);
  await expect(glyph(page, 'a1')).toHaveAttribute('aria-label', 'no result');
  await write(page, MAIN, result('r1', 'a1', 30, 'T1', 'built'));
  await write(page, MAIN, assistant('a2', 'r1', 31, [bash('T2', 'make install')], 'tool_use'));
  await expect(status(page)).toHaveAttribute('data-live-status', 'running');
  // Both calls are one run of tool work: the run is live again.
  await expect(glyph(page, 'a1')).toHaveAttribute('aria-label', 'running');
});

test('rule: with a state log, waiting and idle show live', async ({ page }) => {
  await setup(page);
  await append(page, MAIN, user('u1', null, 0, 'hi') + assistant('a1', 'u1', 1, [{ type: 'text', text: 'Hello.' }], 'end_turn'));
  await append(page, `proj/states/${SID}.jsonl`, JSON.stringify({ t: T0 / 1000, state: 'working' }) + '\n');
  await follow(page);
  await write(page, `proj/states/${SID}.jsonl`, JSON.stringify({ t: T0 / 1000 + 2, state: 'waiting' }) + '\n');
  await expect(status(page)).toHaveAttribute('data-live-status', 'waiting');
  await write(page, `proj/states/${SID}.jsonl`, JSON.stringify({ t: T0 / 1000 + 60, state: 'idle' }) + '\n');
  await expect(status(page)).toHaveAttribute('data-live-status', 'idle');
  await expect(status(page)).toContainText('Idle');
});

test('the view follows the live edge at the bottom, stays put when scrolled up, and offers a jump', async ({ page }) => {
  await setup(page);
  let text = '';
  let parent: string | null = null;
  for (let i = 0; i < 40; i++) {
    text += user(`u${i}`, parent, i * 10, `Question number ${i}: ${'please explain this in detail. '.repeat(4)}`);
    text += assistant(`a${i}`, `u${i}`, i * 10 + 1, [{ type: 'text', text: `Answer ${i}.\n\n${'A long paragraph of explanation. '.repeat(12)}` }], 'end_turn');
    parent = `a${i}`;
  }
  await append(page, MAIN, text);
  await follow(page);
  const viewport = page.locator('main .chat-viewport');
  const atBottom = () => viewport.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 30);
  await expect(row(page, 'a39')).toBeVisible();
  await expect.poll(atBottom).toBe(true);

  // At the bottom: a new turn scrolls into view.
  await write(page, MAIN, user('u40', 'a39', 500, 'One more?') + assistant('a40', 'u40', 501, [{ type: 'text', text: 'Sure.' }], 'end_turn'));
  await expect(row(page, 'a40')).toBeVisible();
  await expect.poll(atBottom).toBe(true);

  // Scrolled up: new rows do not move what the reader looks at; a chip counts them.
  await viewport.evaluate((el) => el.scrollTo(0, el.scrollHeight / 3));
  await expect(page.locator('[data-slot][data-placeholder="1"]')).toHaveCount(0);
  const probe = () => viewport.evaluate((el) => {
    const top = el.getBoundingClientRect().top;
    const first = [...el.querySelectorAll<HTMLElement>('[data-row-key]')].find((r) => r.getBoundingClientRect().bottom > top + 1);
    return first ? { key: first.dataset.rowKey, y: Math.round(first.getBoundingClientRect().top) } : null;
  });
  // The rows at the new position are drawn (not only the ones left from the bottom): the first
  // row under the viewport's top is on screen. Probed before that, a CI run read a row 5,900 px down.
  const onScreen = async () => {
    const p = await probe();
    const box = await viewport.boundingBox();
    return !!p && !!box && p.y < box.y + box.height;
  };
  await expect.poll(onScreen).toBe(true);
  const before = await probe();
  await write(page, MAIN, user('u41', 'a40', 600, 'And another') + assistant('a41', 'u41', 601, [{ type: 'text', text: 'Here.' }], 'end_turn'));
  const chip = page.locator('[data-live-chip]');
  await expect(chip).toContainText(/\d+ new — jump to live/);
  expect(await probe()).toEqual(before);
  expect(await atBottom()).toBe(false);
  await chip.click();
  await expect(row(page, 'a41')).toBeVisible();
  await expect.poll(atBottom).toBe(true);
  await expect(chip).toHaveCount(0);
});

test('a file replaced by a shorter one is read again, with a notice', async ({ page }) => {
  await setup(page);
  await append(page, MAIN, user('u1', null, 0, 'first version') + assistant('a1', 'u1', 1, [{ type: 'text', text: 'old reply' }], 'end_turn') + user('u2', 'a1', 2, 'more') + assistant('a2', 'u2', 3, [{ type: 'text', text: 'old again' }], 'end_turn'));
  await follow(page);
  await expect(row(page, 'a2')).toBeVisible();
  const before = await updates(page);
  await replace(page, MAIN, user('x1', null, 10, 'rewritten'));
  await expect.poll(() => updates(page), { timeout: 10_000 }).toBeGreaterThan(before);
  await expect(page.locator('[data-live-notice]')).toContainText('got shorter');
  await expect(row(page, 'x1')).toBeVisible();
  await expect(row(page, 'a2')).toHaveCount(0);
});

test('a new session appears in the session list, marked as the one being written', async ({ page }) => {
  await setup(page);
  await append(page, MAIN, user('u1', null, 0, 'first session') + assistant('a1', 'u1', 1, [{ type: 'text', text: 'ok' }], 'end_turn'));
  await follow(page);
  const second = (user('v1', null, 100, 'second session')).replace(/"sessionId":"S1"/, '"sessionId":"S2"');
  await write(page, 'proj/S2.jsonl', second);
  await expect(page.locator('nav.sessions [data-session-key]')).toHaveCount(2);
  await expect(page.locator('nav.sessions [data-live-active]')).toHaveAttribute('data-session-key', 'S2-live');
});

test('a reload offers "Resume following", which follows the same folder again', async ({ page }) => {
  await setup(page);
  await append(page, MAIN, user('u1', null, 0, 'keep watching'));
  await follow(page);
  await expect(row(page, 'u1')).toBeVisible();
  await page.reload();
  const resume = page.locator('[data-action="resume-follow"]');
  await expect(resume).toBeVisible();
  await resume.click();
  await expect(page.locator('html')).toHaveAttribute('data-live', 'on');
  await expect(row(page, 'u1')).toBeVisible();
  // Stopping leaves the session open, no longer live.
  await page.locator('[data-action="stop-follow"]').click();
  await expect(page.locator('html')).not.toHaveAttribute('data-live', 'on');
  await expect(row(page, 'u1')).toBeVisible();
  await expect(page.locator('[data-live-status]')).toHaveCount(0);
});

test('without the File System Access API, following says so in one sentence and files still open', async ({ page }) => {
  await setup(page, { noApi: true });
  await page.locator('[data-action="follow"]').click();
  await expect(page.locator('[data-live-notice]')).toContainText('cannot follow a folder');
  await expect(page.locator('html')).not.toHaveAttribute('data-live', 'on');
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({ name: 'S1.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(user('u1', null, 0, 'dropped anyway')) });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  await expect(row(page, 'u1')).toBeVisible();
});

test('rule: a run of tool work settles in place: the reader’s open choice holds, nothing above moves', async ({ page }) => {
  await setup(page);
  await append(page, MAIN, user('u1', null, 0, 'build it') + assistant('a1', 'u1', 1, [bash('T1', 'make')], 'tool_use') + result('r1', 'a1', 2, 'T1', 'ok') + assistant('a2', 'r1', 3, [bash('T2', 'make test')], 'tool_use'));
  await follow(page);
  const group = page.locator('[data-row-kind=tool-group]').first();
  await expect(group).toBeVisible();
  const key = await group.getAttribute('data-row-key');
  const head = group.locator('button[aria-expanded]').first();
  await head.click();
  await expect(head).toHaveAttribute('aria-expanded', 'true');
  await timelineSettled(page);
  const top = await page.locator('[data-atom-uuid="u1"][data-row-kind]').evaluate((el) => el.getBoundingClientRect().top);
  // More work joins the run, then the turn ends: same row, still open, still where it was.
  await write(page, MAIN, result('r2', 'a2', 4, 'T2', 'passed') + assistant('a3', 'r2', 5, [bash('T3', 'make install')], 'tool_use'));
  await expect(group.locator('[data-row-kind=tool]')).toHaveCount(3);
  await write(page, MAIN, result('r3', 'a3', 6, 'T3', 'installed') + assistant('a4', 'r3', 7, [{ type: 'text', text: 'Built, tested, installed.' }], 'end_turn'));
  await expect(status(page)).toHaveAttribute('data-live-status', 'ended');
  await expect(page.locator(`[data-row-key="${key}"] button[aria-expanded]`).first()).toHaveAttribute('aria-expanded', 'true');
  expect(await page.locator('[data-atom-uuid="u1"][data-row-kind]').evaluate((el) => el.getBoundingClientRect().top)).toBe(top);
  await expect(page.locator('main .glyph-running')).toHaveCount(0);
});

test('a followed session of 300 segments keeps its timeline bars through a refresh', async ({ page }) => {
  // Over the 50 elements a new big timeline draws in its first task (TimelineView.detailLimit): a
  // refresh of the same session must not drop the rest and draw them again.
  const turns = 300;
  await setup(page);
  let text = '';
  for (let i = 1; i <= turns; i++) {
    text += user(`u${i}`, i === 1 ? null : `a${i - 1}`, i * 60, `question ${i}`);
    text += assistant(`a${i}`, `u${i}`, i * 60 + 20, [{ type: 'text', text: `answer ${i}` }], 'end_turn');
  }
  await append(page, MAIN, text);
  await follow(page);
  const bars = page.locator('.timeline rect.bar[data-bar-index]');
  await expect(page.locator('.timeline[data-drawn]')).toHaveAttribute('data-detail', 'elements');
  await expect(bars).toHaveCount(turns);
  // Count every bar element taken out of the page from here on.
  await page.evaluate(() => {
    const w = window as unknown as { __barsRemoved: number };
    w.__barsRemoved = 0;
    new MutationObserver((list) => {
      for (const m of list) for (const n of m.removedNodes) if (n instanceof Element && n.matches('rect.bar[data-bar-index]')) w.__barsRemoved++;
    }).observe(document.querySelector('.timeline svg')!, { childList: true, subtree: true });
  });
  await write(page, MAIN, user(`u${turns + 1}`, `a${turns}`, (turns + 1) * 60, 'one more question'));
  await write(page, MAIN, assistant(`a${turns + 1}`, `u${turns + 1}`, (turns + 1) * 60 + 20, [{ type: 'text', text: 'one more answer' }], 'end_turn'));
  await expect(bars).toHaveCount(turns + 1);
  await expect(page.locator('.timeline[data-drawn]')).toBeAttached();
  expect(await page.evaluate(() => (window as unknown as { __barsRemoved: number }).__barsRemoved)).toBe(0);
});
