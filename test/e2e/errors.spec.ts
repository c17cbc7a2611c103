// API failures as a viewer meets them: the events call fails, is retried once, then shows an error with Retry.
import type { Locator, Page } from '@playwright/test';
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

// GET settings failing (spec section 7): the elements read the stored copy the server keeps under /storage/settings/.
test.describe('settings from their stored copy', () => {
  // One pattern: Playwright reads a list given to test.use as [value, options].
  test.use({
    allowConsoleErrors: [/status of 503 \(Service Unavailable\)|status of 404 \(Not Found\)|start-up failed/],
  });

  /** Makes every GET settings of the page answer 503 (the loader's early request and the client's own). */
  const failSettings = (page: Page) =>
    page.route('**/api/settings?*', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Service Unavailable"}' }),
    );

  /** Opens a page with GET settings failing; answers its schedule once the channel's copy was read and it lists events. */
  async function startsFromCopy(page: Page, path: string, channel: string, schedule: string): Promise<Locator> {
    await failSettings(page);
    const copy = page.waitForResponse((r) => new URL(r.url()).pathname === `/storage/settings/${channel}.json`);
    await page.goto(path);
    expect((await copy).status()).toBe(200);
    const list = page.locator(schedule);
    await expectEvents(list);
    await expect(list).not.toContainText('WHOOPS');
    return list;
  }

  test('English: the schedule starts with the copy', async ({ page }) => {
    await startsFromCopy(page, '/test-single.html', 'demo', 'channel-schedule');
  });

  test('French: demo-fr starts with its copy, its Canadian dollars included', async ({ page }) => {
    const upcoming = await startsFromCopy(page, '/french.html', 'demo-fr', 'channel-schedule[kind="upcoming"]');
    // The currency comes only from the settings: CAD here is the copy's.
    await expect(upcoming.locator('[part~="badge-paid"]').first()).toHaveText(/· CAD\s\$\d+,\d{2}$/);
  });

  test('no copy either: the start-up error, in each language, with Reload', async ({ page }) => {
    await failSettings(page);
    await page.route('**/storage/settings/*', (route) => route.fulfill({ status: 404, body: '{}' }));
    await page.goto('/test-single.html');
    const error = page.locator('channel-schedule [part~="error"]');
    await expect(error).toContainText(
      'WHOOPS! Apologies! Our service is currently experiencing technical difficulties',
      {
        timeout: 15_000,
      },
    );
    await expect(error.getByRole('button', { name: /Reload/ })).toBeVisible();
    await page.goto('/french.html');
    await expect(page.locator('channel-schedule[kind="live"] [part~="error"]')).toContainText('OUPS', {
      timeout: 15_000,
    });
  });
});
