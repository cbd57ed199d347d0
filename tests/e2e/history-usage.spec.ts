// Issue 22: history usage in the browser, on the history fixture (fixtures/history/README.md:
// a rewound branch, a resumed copy, a subagent file and an inline sidechain). The page runs in
// Tokyo time, so the browser's zone and UTC give different days.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, dropFolder, openApp } from './helpers';

const TREE = join(ROOT, 'fixtures/history/claude/projects');

test.use({ timezoneId: 'Asia/Tokyo' });

type Row = { key: string; input: number; output: number; cacheRead: number; cacheWrite: number; costUsd: number; messages: number; unpricedMessages: number; sessionKey?: string };
type Report = { rows: Row[]; total: Row; priceSourceDate: string };
type Loupe = {
  history?: () => unknown;
  historyUsage: (q: Record<string, unknown>) => Promise<Report>;
  exportHistory: (f: 'csv' | 'parquet') => Promise<unknown>;
  list: () => { key: string }[];
  open: (key: string) => Promise<void>;
  usage: () => Promise<{ input: number; output: number; cacheRead: number; cacheWrite: number; costUsd: number }>;
};

const ask = (page: Page, q: Record<string, unknown>) => page.evaluate((query) => (window as unknown as { __loupe: Loupe }).__loupe.historyUsage(query), q);

async function dropTree(page: Page) {
  await openApp(page);
  await dropFolder(page, TREE);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  // The history index (when the app has one) must have read every listed session first.
  await page.waitForFunction(async () => {
    const l = (window as unknown as { __loupe: Loupe }).__loupe;
    if (!l.history) return true;
    const s = (await l.history()) as { ready?: boolean; listed?: number } | null;
    // Ready over every session the page lists (a listing that is still arriving is ready early).
    return !!s?.ready && s.listed === l.list().length;
  });
  // And its report holds every call of the tree (fixtures/history/README.md: 15).
  await expect.poll(async () => (await ask(page, { by: 'harness' })).total.messages).toBe(15);
}


test('historyUsage by day adds up to the sessions\' own usage, rewound branches and copies counted once', async ({ page }) => {
  await dropTree(page);
  // Polled: the index may start over once after a load settles (a new listing), and reads again.
  await expect.poll(async () => (await ask(page, { by: 'day', timezone: 'UTC' })).rows.map((r) => [r.key, r.input, r.output])).toEqual([
    ['2026-03-02', 455, 4150],
    ['2026-03-03', 1325, 725]
  ]);
  const utc = await ask(page, { by: 'day', timezone: 'UTC' });
  expect(utc.total).toMatchObject({ input: 1780, output: 4875, cacheRead: 76300, cacheWrite: 8100, messages: 15, unpricedMessages: 1 });
  // Each listed session's own usage (the usage panel's figures, rewound branches included).
  const keys = await page.evaluate(() => (window as unknown as { __loupe: Loupe }).__loupe.list().map((e) => e.key));
  expect(keys).toHaveLength(3);
  const sum = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0 };
  for (const key of keys) {
    const u = await page.evaluate(async (k) => {
      const l = (window as unknown as { __loupe: Loupe }).__loupe;
      await l.open(k);
      return l.usage();
    }, key);
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += u[k];
  }
  expect(sum).toMatchObject({ input: utc.total.input, output: utc.total.output, cacheRead: utc.total.cacheRead, cacheWrite: utc.total.cacheWrite });
  expect(sum.costUsd).toBeCloseTo(utc.total.costUsd, 9);
  // The browser's zone by default: in Tokyo the resumed session's first day moves to 03-03.
  await expect.poll(async () => (await ask(page, { by: 'day' })).rows.map((r) => [r.key, r.messages])).toEqual([
    ['2026-03-02', 4],
    ['2026-03-03', 11]
  ]);
  await expect.poll(async () => (await ask(page, { by: 'block' })).rows.map((r) => r.key)).toEqual(['2026-03-02T09:00:00.000Z', '2026-03-02T22:00:00.000Z', '2026-03-03T08:00:00.000Z', '2026-03-03T13:00:00.000Z']);
  await expect.poll(async () => (await ask(page, { by: 'session' })).rows.map((r) => r.key).sort()).toEqual(['11111111-0000-4000-8000-00000000re01', '22222222-0000-4000-8000-00000000rs01', '22222222-0000-4000-8000-00000000rs02', '33333333-0000-4000-8000-00000000sa01']);
});

test('the dashboard draws, switches to UTC, drills from a day to its sessions and opens one', async ({ page }) => {
  await dropTree(page);
  await page.locator('[data-action=usage]').click();
  await page.locator('[data-action=history-usage]').click();
  const dash = page.locator('[data-history-usage]');
  await expect(dash.locator('[data-chart=history-cost-by-day] [data-day]')).toHaveCount(2);
  await expect(dash.locator('[data-chart=history-blocks] rect[data-block]')).toHaveCount(4);
  // Drawn a step per frame: the last step says so, with every table there.
  await expect(dash).toHaveAttribute('data-drawn', '');
  await expect(dash.locator('[data-table]')).toHaveCount(5); // one agent: no harness table
  await expect(dash.locator('[data-history-total]')).toContainText('unpriced');
  await expect(dash.locator('[data-history-total]')).toContainText('Asia/Tokyo');
  const firstDay = dash.locator('[data-table=history-days] tr[data-row-key="2026-03-02"] td').nth(1);
  await expect(firstDay).toHaveText('4');
  await dash.locator('[data-action=history-tz-utc]').click();
  await expect(dash.locator('[data-history-total]')).toContainText('UTC');
  await expect(firstDay).toHaveText('6');
  // A filter: one project.
  const project = dash.locator('select[data-filter=project]');
  const rewindProject = await project.locator('option', { hasText: '-work-rewind' }).getAttribute('value');
  await project.selectOption(rewindProject!);
  await expect(dash.locator('[data-history-total]')).toContainText('4 calls');
  await project.selectOption('');
  await expect(dash.locator('[data-history-total]')).toContainText('15 calls');
  // A day's bar: its cost in its name and in the tip under the pointer; a click opens its sessions.
  const bar = dash.locator('[data-chart=history-cost-by-day] [data-day="2026-03-02"]');
  await expect(bar).toHaveAttribute('aria-label', /^2026-03-02: /);
  await bar.hover();
  await expect(dash.locator('[data-chart=history-cost-by-day] [data-chart-tip]')).toHaveText((await bar.getAttribute('aria-label'))!);
  await bar.click();
  const daySessions = dash.locator('[data-table=history-day-sessions] tbody tr');
  await expect(daySessions).toHaveCount(2);
  await dash.locator('[data-action=history-day-back]').click();
  await expect(daySessions).toHaveCount(0);
  // A day → its sessions from the table (the rewound one and the resumed session's first file).
  await dash.locator('[data-table=history-days] [data-open="2026-03-02"]').click();
  await expect(daySessions).toHaveCount(2);
  await expect(dash.locator('[data-table=history-day-sessions]')).toContainText('Add a health endpoint · 11111111');
  // A session → the session.
  const target = (await ask(page, { by: 'session', timezone: 'UTC' })).rows.find((r) => r.key.endsWith('re01'))!;
  await dash.locator('[data-table=history-day-sessions] [data-open="11111111-0000-4000-8000-00000000re01"]').click();
  await expect(page.locator('main[data-session-key]')).toHaveAttribute('data-session-key', target.sessionKey!);
  // The session's own panel shows the rewound part apart.
  await page.getByRole('tab', { name: 'Session', exact: true }).click();
  await expect(page.locator('[data-usage-rewound]')).toContainText('of which on rewound branches');
});

test('the CSV download holds one row per billed call with session, project and harness', async ({ page }) => {
  await dropTree(page);
  await page.locator('[data-action=usage]').click();
  await page.locator('[data-action=history-usage]').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-action="export-history"]').click()]);
  expect(download.suggestedFilename()).toMatch(/^loupe-calls-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync((await download.path())!, 'utf8');
  const [head, ...rows] = text.trimEnd().split('\r\n');
  const cols = head.split(',');
  expect(cols).toEqual(expect.arrayContaining(['call_id', 'time', 'session_id', 'project', 'harness', 'model', 'input_tokens', 'output_tokens', 'cost_usd', 'on_path']));
  expect(rows).toHaveLength(15);
  const at = (name: string) => cols.indexOf(name);
  const cells = rows.map((r) => r.split(','));
  expect(cells.reduce((n, c) => n + Number(c[at('output_tokens')]), 0)).toBe(4875);
  expect(new Set(cells.map((c) => c[at('harness')]))).toEqual(new Set(['claude-code']));
  expect(new Set(cells.map((c) => c[at('project')].split('/').pop()))).toEqual(new Set(['-work-rewind', '-work-resume', '-work-agents']));
  expect(cells.filter((c) => c[at('on_path')] === 'false').map((c) => c[at('call_id')]).sort()).toEqual(['msg_rw2:req_msg_rw2', 'msg_rw3:req_msg_rw3']);
  expect(cells.filter((c) => c[at('cost_usd')] === '')).toHaveLength(1); // the unpriced model: empty, never 0
  // The automation hook starts the same download, Parquet too.
  const [pq] = await Promise.all([page.waitForEvent('download'), page.evaluate(() => (window as unknown as { __loupe: Loupe }).__loupe.exportHistory('parquet'))]);
  expect(pq.suggestedFilename()).toMatch(/\.parquet$/);
  const bytes = readFileSync((await pq.path())!);
  expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
});

test('axe finds no serious or critical issue on the history dashboard, light and dark', async ({ page }) => {
  await dropTree(page);
  await page.locator('[data-action=usage]').click();
  await page.locator('[data-action=history-usage]').click();
  await expect(page.locator('[data-chart=history-cost-by-day] [data-day]')).toHaveCount(2);
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    const results = await new AxeBuilder({ page }).include('[data-history-usage]').analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${theme} ${v.id}: ${v.nodes.length} nodes: ${v.nodes[0]?.target}`)).toEqual([]);
  }
});
