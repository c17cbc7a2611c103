// API failures as a viewer meets them: the events call fails, is retried once, then shows an error with Retry.
import { expect, test } from './fixtures';
import { eventLinks, expectEvents } from './helpers';

// The browser logs each failed fetch ("Failed to load resource: ... 500"); those are what this spec provokes.
test.use({ allowConsoleErrors: [/status of 500 \(Internal Server Error\)/] });

test('500 twice: one automatic retry, then the error with Retry, which loads the list', async ({ page }) => {
  let calls = 0;
  await page.route('**/api/events?*', async (route) => {
    calls++;
    if (calls <= 2)
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Server Error"}' });
    else await route.continue();
  });
  await page.goto('/test-single.html');
  const schedule = page.locator('channel-schedule');
  const error = schedule.locator('[part~="error"]');
  await expect(error).toBeVisible({ timeout: 10_000 });
  await expect(error).toHaveAttribute('role', 'alert');
  await expect(error).toContainText('The events could not be loaded.');
  // The client retried a 5xx exactly once on its own.
  expect(calls).toBe(2);
  await expect(eventLinks(schedule)).toHaveCount(0);

  await error.getByRole('button', { name: 'Try again' }).click();
  await expectEvents(schedule);
  expect(calls).toBe(3);
  await expect(error).toHaveCount(0);
});

test('a malformed JSON answer shows a clear message, not a blank element', async ({ page }) => {
  await page.route('**/api/events?*', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"data": [{"id": 1, "nam' }),
  );
  await page.goto('/test-single.html');
  const error = page.locator('channel-schedule [part~="error"]');
  await expect(error).toBeVisible({ timeout: 10_000 });
  await expect(error).toContainText('The channel sent data this page cannot read. Please try again later.');
  await expect(error.getByRole('button', { name: 'Try again' })).toBeVisible();
});

test('an answer that breaks the contract shows the same clear message', async ({ page }) => {
  await page.route('**/api/events?*', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ data: 'not a list', meta: {} }),
    }),
  );
  await page.goto('/test-single.html');
  await expect(page.locator('channel-schedule [part~="error"]')).toContainText(
    'The channel sent data this page cannot read.',
    {
      timeout: 10_000,
    },
  );
});
