// When code does not arrive: a tag's chunk that hangs past the 120 s chunk-load timeout (the spec's constant) leaves
// a clear console line, a log entry at the channel's logging endpoint and a message where the element would be;
// a site page whose chunk fails shows a panel with Retry under a menu that still works, and Retry loads it.
import type { APIRequestContext } from '@playwright/test';
import { devSecret, expect, test } from './fixtures';
import { BUNDLE_ORIGIN, HOST_ORIGIN } from './helpers';

/** A log entry as the server lists it (its fields, flattened). */
interface LogRow {
  service: string;
  message: string;
  status: number;
  url: string;
}

async function logs(request: APIRequestContext): Promise<LogRow[]> {
  const answer = await request.get(`${BUNDLE_ORIGIN}/__dev/logs?channel_key=demo`, {
    headers: { 'X-Channel-Dev-Secret': devSecret() },
  });
  return ((await answer.json()) as { data: LogRow[] }).data;
}

test.describe('a tag chunk that never arrives', () => {
  test.use({
    allowConsoleErrors: [
      /could not load <channel-schedule>: Error: the code of <channel-schedule> did not arrive within 120 s/,
    ],
  });

  test('after 120 s: a clear console error, a log entry and a message in the element', async ({ page, request }) => {
    const before = (await logs(request)).length;
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.clock.install();
    let asked = false;
    // The chunk is asked for and never answered.
    await page.route(/\/chunks\/channel-schedule-[\w-]{8}\.js$/, () => {
      asked = true;
    });
    await page.goto(`${HOST_ORIGIN}/cms.html`);
    await expect.poll(() => asked).toBe(true);
    // The page's clock also runs on its own: the wait began when the loader met the tag, before the table and the
    // shared chunk came (a few seconds on a busy machine), hence the margin.
    await page.clock.fastForward(115_000);
    await expect(page.locator('channel-schedule [data-channel-unloaded]')).toHaveCount(0);
    await page.clock.fastForward(6_000);
    const note = page.locator('channel-schedule [data-channel-unloaded]');
    await expect(note).toHaveText(
      'This part of the page could not be loaded. Check your connection and reload the page.',
    );
    await expect(note).toHaveAttribute('role', 'alert');
    expect(errors.join('\n')).toContain('did not arrive within 120 s');
    expect(errors.join('\n')).toMatch(/\/chunks\/channel-schedule-[\w-]{8}\.js/);
    await expect.poll(async () => (await logs(request)).slice(before).map((row) => row.service)).toContain('chunk');
    const entry = (await logs(request)).slice(before).find((row) => row.service === 'chunk')!;
    expect(entry).toMatchObject({ status: 0 });
    expect(entry.message).toContain('the code of <channel-schedule> did not arrive within 120 s');
  });
});

test.describe('a site page whose chunk fails', () => {
  test.use({ allowConsoleErrors: true });

  test('shows a panel with Retry under a working menu; Retry loads the page', async ({ page, request }) => {
    const before = (await logs(request)).length;
    await page.goto(`${HOST_ORIGIN}/site/`);
    const app = page.locator('channel-app');
    await expect(app.locator('h1[part~="page-title"]')).toHaveCount(1, { timeout: 15_000 });
    let blocked = true;
    await page.route(/\/chunks\/Faq-[^/]+\.js$/, (route) => (blocked ? route.abort() : route.continue()));
    await app.getByRole('link', { name: 'FAQ' }).first().click();
    const panel = app.locator('main [part~="error"]');
    await expect(panel).toContainText('This part could not be loaded. Check your connection and try again.');
    // The header and its menu still work.
    await expect(app.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
    await expect
      .poll(async () => (await logs(request)).slice(before).some((row) => row.service === 'chunk'))
      .toBe(true);
    blocked = false;
    await panel.getByRole('button', { name: 'Try again' }).click();
    await expect(app.locator('h1[part~="page-title"]')).toHaveText(/FAQ|Frequently/i, { timeout: 10_000 });
    await expect(panel).toHaveCount(0);
  });
});
