// Issue 11: usage, cost and context — the panel, its charts and window.__loupe.usage(), on the
// hand-computed usage fixture (fixtures/usage/README.md has the sums).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { CORPUS, ROOT, openApp, pickFiles, pickFolder } from './helpers';

const PROJECT = join(ROOT, 'fixtures/usage/project');

async function openPanel(page: Page) {
  await openApp(page);
  await pickFolder(page, PROJECT);
  await page.locator('[data-action=usage]').click();
  await expect(page.locator('[data-usage-panel] [data-chart=context]')).toBeVisible();
}

test('window.__loupe.usage() gives the hand-computed totals, subagent included', async ({ page }) => {
  await openPanel(page);
  const u = await page.evaluate(() => (window as unknown as { __loupe: { usage: () => Promise<Record<string, unknown>> } }).__loupe.usage());
  expect(u).toMatchObject({ input: 1495, output: 385, cacheRead: 11200, cacheWrite: 8300, unpricedMessages: 1, priceSourceDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  expect(u.costUsd as number).toBeCloseTo(0.040575, 9);
  expect((u.models as Record<string, unknown>)['acme-coder-1']).toEqual({ messages: 1, input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, costUsd: 0 });
  await expect(page.locator('[data-usage-cost]')).toHaveText('≥ $0.04 (1 message unpriced)');
  await expect(page.locator('[data-usage-panel]')).toContainText(`prices as of ${u.priceSourceDate}`);
});

test('an unpriced model is labelled, never shown as $0', async ({ page }) => {
  await openPanel(page);
  const row = page.locator('[data-chart=cost-by-model] li[data-unpriced]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('acme-coder-1');
  await expect(row).toContainText('unpriced');
  await expect(row).not.toContainText('$0');
});

test('clicking a point of the context chart lands on that reply in the chat', async ({ page }) => {
  await openPanel(page);
  const svg = page.locator('[data-chart=context] svg');
  const box = (await svg.boundingBox())!;
  // The right edge is the last call of the session: msg_07, line a7.
  await page.mouse.move(box.x + box.width - 12, box.y + box.height / 2);
  await expect(page.locator('[data-chart=context] [data-chart-tip]')).toContainText('Turn 4 · 5.0k tokens in context');
  await page.mouse.click(box.x + box.width - 12, box.y + box.height / 2);
  await expect(page).toHaveURL(/a=a7/);
  await expect(page.locator('[data-atom-uuid="a7"]')).toBeInViewport();
});

test('the context chart works from the keyboard', async ({ page }) => {
  await openPanel(page);
  await page.locator('[data-chart=context] [role=application]').focus();
  await page.keyboard.press('Home');
  await expect(page.locator('[data-chart=context] [data-chart-tip]')).toContainText('Turn 1 · 3.1k tokens in context');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/a=a1a/);
});

test('figures open what they count; the timeline tooltip gains cost and tokens', async ({ page }) => {
  await openPanel(page);
  await page.locator('[data-chart=cost-by-tool] button', { hasText: 'Read' }).click();
  await expect(page).toHaveURL(/a=a2/);
  await expect(page.locator('[data-chart=cost-by-tool]')).toContainText('1 failed (100%)');
  await page.locator('[data-segment-id][data-bar-index]').first().hover();
  await expect(page.getByRole('tooltip')).toContainText(/\$0\.0\d+ · [\d.]+k tokens · prices as of \d{4}-\d{2}-\d{2}/);
  await page.getByRole('tab', { name: 'All loaded sessions' }).click();
  await expect(page.locator('[data-chart=sessions-by-cost]')).toContainText('≥ $0.04 (1 message unpriced)');
  await expect(page.locator('[data-chart=cost-by-day]')).toContainText('2026-01-10');
});

test('axe finds no serious or critical issue on the usage panel, light and dark', async ({ page }) => {
  await openPanel(page);
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    const results = await new AxeBuilder({ page }).include('[data-usage-panel]').analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${theme} ${v.id}: ${v.nodes.length} nodes: ${v.nodes[0]?.target}`)).toEqual([]);
  }
});

test('a corpus session: Loupe’s totals equal an independent hand count (fixtures/usage/hand-count.py)', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, join(ROOT, 'fixtures/corpus/claude-code-log/test/test_data/real_projects/-experiments-worktrees'));
  const u = await page.evaluate(() => (window as unknown as { __loupe: { usage: () => Promise<Record<string, unknown>> } }).__loupe.usage());
  expect(u).toMatchObject({ input: 2546, output: 53458, cacheRead: 2455695, cacheWrite: 398573, unpricedMessages: 0 });
  expect(u.costUsd as number).toBeCloseTo(5.451318, 6);
  expect((u.models as Record<string, { messages: number }>)['claude-opus-4-7'].messages).toBe(83);
});

test('session list entries show each session’s cost and tokens', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [join(PROJECT, 'a1b2c3d4-0000-4000-8000-00000000u5a9.jsonl'), join(CORPUS, 'session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl')]);
  const entries = page.locator('nav[aria-label=Sessions] [data-session-usage]');
  await expect(entries).toHaveCount(2);
  // Without its subagent transcript the fixture session is its main transcript alone: $0.03849 + one unpriced reply.
  await expect(entries.filter({ hasText: 'unpriced' })).toHaveText(/^≥ \$0\.04 \(1 message unpriced\) · [\d.]+k tokens$/);
  await expect(page.locator('nav[aria-label=Sessions]')).toContainText(/Costs at prices as of \d{4}-\d{2}-\d{2}\./);
});
