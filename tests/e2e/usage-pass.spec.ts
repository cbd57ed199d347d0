// The usage pass in the browser: a listed drop's whole cost is known (history().usageReady) before
// the index has read the sessions whole, and it is the same cost the index then gives. A call
// whose usage fields are not numbers is named in the history's details, counted as 0. The scan
// read the transcripts up to 256 KB whole, once, on its lanes, and the usage pass priced them from that read.
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, dropFolder, openApp } from './helpers';
import { WHOLE_MAX } from '../../src/lib/view/history/file-pass';

let TREE = '';
let transcripts = 0;
test.beforeAll(() => {
  const out = mkdtempSync(join(tmpdir(), 'loupe-usage-pass-'));
  TREE = join(out, 'projects');
  execFileSync('node', [join(ROOT, '../shared/bench/gen-project.mjs'), '--mb', '2', '--sessions', '30', '--projects', '2', '--seed', '9', '--out', TREE]);
  // One session's last line: a call whose input tokens are a string.
  const project = join(TREE, readdirSync(TREE).sort()[0]);
  const file = join(project, readdirSync(project).filter((f) => f.endsWith('.jsonl')).sort()[0]);
  const bad = { type: 'assistant', uuid: 'bad-usage-1', parentUuid: null, sessionId: 'x', requestId: 'req_bad_usage', timestamp: '2026-10-01T09:00:00.000Z', message: { id: 'msg_bad_usage', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'x' }], usage: { input_tokens: 'many', output_tokens: 7 } } };
  appendFileSync(file, JSON.stringify(bad) + '\n');
  // The scan reads whole the transcripts up to WHOLE_MAX (the tree has bigger ones too).
  const sizes = execFileSync('find', [TREE, '-name', '*.jsonl', '-printf', '%s\\n'], { encoding: 'utf8' }).trim().split('\n').map(Number);
  transcripts = sizes.filter((n) => n <= WHOLE_MAX).length;
  expect(transcripts).toBeGreaterThan(0);
  expect(transcripts).toBeLessThan(sizes.length);
});
test.afterAll(() => rmSync(join(TREE, '..'), { recursive: true, force: true }));

type Status = { listed: number; indexed: number; ready: boolean; usageReady?: boolean; usageMs?: number; calls: number };
type Total = { input: number; output: number; cacheRead: number; cacheWrite: number; messages: number };
const loupe = (page: Page) => page.evaluate(() => (window as unknown as { __loupe: { history: () => Promise<Status> } }).__loupe.history());
const total = (page: Page) => page.evaluate(async () => ((await (window as unknown as { __loupe: { historyUsage: (q: object) => Promise<{ total: Total }> } }).__loupe.historyUsage({ by: 'day', timezone: 'UTC' })).total));

test('a listed drop\'s cost is complete before the index is, and the index agrees; a usage field that is not a number is named', async ({ page }) => {
  await openApp(page);
  await dropFolder(page, TREE);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect.poll(async () => (await loupe(page)).usageReady, { timeout: 60_000 }).toBe(true);
  const early = await loupe(page);
  expect(early.listed).toBe(30);
  // The scan read every transcript up to WHOLE_MAX whole on its lanes (worker/scan-lanes.ts) and priced it there.
  const scan = await page.evaluate(() => (window as unknown as { __loupe: { scanStats: () => Promise<{ whole: number; files: number }> } }).__loupe.scanStats());
  expect(scan.whole).toBe(transcripts);
  expect(early.usageMs).toBeGreaterThan(0);
  const before = await total(page);
  expect(before.messages).toBeGreaterThan(100);
  await expect.poll(async () => (await loupe(page)).ready, { timeout: 120_000 }).toBe(true);
  expect(await total(page)).toEqual(before);
  // The call with a string for input tokens counts (its output tokens too), named with its line.
  const issue = page.locator('[data-history-failures] [data-usage-issue]');
  await expect(issue).toHaveCount(1);
  await expect(issue).toContainText('input_tokens "many" is not a token count');
});
