// Issue 24 part 2: rewound branches. A dropped session with a rewind inside a rewind shows a
// fold per rewind point ("Rewound here — …"), opens the abandoned rows read-only with the nested
// fold inside, marks the rewind points on the timeline, finds text on a branch (flagged, the
// landing opens the folds) and exports with or without the branches.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dropFolder, openApp, ROOT } from './helpers';

const FIXTURE = join(ROOT, 'fixtures/model/rewind-nested');
const folds = (page: Page) => page.locator('main [data-row-kind=branch]');

async function open(page: Page): Promise<void> {
  await openApp(page);
  await dropFolder(page, FIXTURE);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
}

test('a fold per rewind point opens the abandoned rows, with the nested fold inside', async ({ page }) => {
  await open(page);
  await expect(folds(page)).toHaveCount(2);
  const outer = folds(page).first();
  await expect(outer.getByRole('button', { name: /Rewound here/ })).toHaveText(/^\s*↶\s*Rewound here — 6 messages, 2 tool calls, \$\d+\.\d+\s*\(show\)\s*$/);
  await expect(folds(page).nth(1)).toContainText(/Rewound here — 2 messages, 0 tool calls, \$\d+\.\d+\s*\(show\)/);
  // closed: nothing of the branch is drawn
  await expect(page.locator('main').getByText('quokkafold')).toHaveCount(0);
  // the fold sits between the first reply and the kept prompt
  const order = await page.locator('main [data-row-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-row-kind')));
  expect(order.slice(0, 4)).toEqual(['user', 'assistant', 'branch', 'user']);

  await outer.getByRole('button', { name: /Rewound here/ }).click();
  const body = outer.locator('[data-branch-body]');
  await expect(body).toBeVisible();
  await expect(outer.locator('[data-branch-label]').first()).toBeVisible();
  await expect(body.locator('[data-row-kind=user]').first()).toContainText('Add retries around the login call.');
  await expect(body.getByText('Retries added with a quokkafold backoff.')).toBeVisible();
  await expect(body.getByText('All twelve tests pass.')).toBeVisible();
  const nested = body.locator('[data-row-kind=branch]');
  await expect(nested).toHaveCount(1);
  await expect(nested).toContainText(/Rewound here — 2 messages, 0 tool calls, \$\d+\.\d+\s*\(show\)/);
  await expect(body.getByText(/platypine/)).toHaveCount(0);
  await nested.getByRole('button', { name: /Rewound here/ }).click();
  await expect(nested.getByText('Exponential backoff written, with a platypine cap.')).toBeVisible();
  await expect(outer.getByRole('button', { name: /Rewound here/ }).first()).toContainText('(hide)');

  // the timeline marks both rewind points, named like the fold
  await expect(page.locator('[data-timeline-rewind]')).toHaveCount(2);
  await expect(page.locator('[data-timeline-rewind="u2"] title')).toHaveText(/^Rewound here — 6 messages, 2 tool calls/);
});

test('search finds text on a rewound branch, says so, and the landing opens the folds', async ({ page }) => {
  await open(page);
  await page.locator('input[type=search]').fill('platypine');
  await expect(page.locator('[data-search-count]')).toHaveText(/^1 result/);
  const hit = page.locator('[data-search-hit]');
  await expect(hit.locator('[data-search-rewound]')).toHaveText('on a rewound branch');
  await page.locator('input[type=search]').press('Enter');
  await expect(page.locator('main').getByText('Exponential backoff written, with a platypine cap.')).toBeVisible();
  await expect(page.locator('main [data-search-landed]')).toContainText('platypine');
  // the hit is inside the nested fold, inside the outer one
  await expect(folds(page).first().locator('[data-row-kind=branch] [data-search-landed]')).toHaveCount(1);
});

test('exports carry the branches, or leave them out on request', async ({ page }) => {
  await open(page);
  const md = (branches: boolean) =>
    page.evaluate((b) => (window as unknown as { __loupe: { exportText: (f: string, o: object) => Promise<string | null> } }).__loupe.exportText('markdown', { branches: b }), branches);
  const withBranches = await md(true);
  expect(withBranches).toContain('Rewound here — 6 messages, 2 tool calls');
  expect(withBranches).toContain('quokkafold');
  const without = await md(false);
  expect(without).not.toContain('quokkafold');
  expect(without).toContain('Mock the clock in the login test instead.');
});

test('the export dialog\'s checkbox leaves the branches out of the download', async ({ page }) => {
  await open(page);
  await page.locator('[data-action="export"]').click();
  const dialog = page.locator('[data-dialog="share"]');
  await dialog.locator('input[name="export-format"][value="markdown"]').check();
  const download = async () => {
    const [d] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-action="download"]').click()]);
    return readFileSync((await d.path()) as string, 'utf8');
  };
  const box = dialog.locator('[data-export-branches]');
  await expect(box).toBeChecked();
  expect(await download()).toContain('platypine');
  await box.uncheck();
  const without = await download();
  expect(without).not.toContain('platypine');
  expect(without).not.toContain('Rewound here');
  expect(without).toContain('Mock the clock in the login test instead.');
});
