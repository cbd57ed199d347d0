import { expect, test } from '@playwright/test';

test('the start page boots into the empty state', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-state', 'empty');
});
