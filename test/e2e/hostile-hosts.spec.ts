// Host pages that are hostile by accident: what old libraries and frameworks do to the globals we share with them.
// Each scenario loads real demo pages with the host's change made before our script runs, and checks that the
// elements still start, render and work, with no page error and no console error.
import { expect, test } from './fixtures';
import { BUNDLE_ORIGIN, expectEvents, HOST_ORIGIN } from './helpers';

test.describe('Object.prototype with an enumerable property (Object.prototype.polluted = "yes")', () => {
  // The wrong password below: the server's refusal is a 422.
  test.use({ allowConsoleErrors: [/status of 422/] });

  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      (Object.prototype as Record<string, unknown>).polluted = 'yes';
    });
  });

  test('the schedule, player, profile and checkout start and work on the checkout page', async ({ page }) => {
    await page.goto(`${BUNDLE_ORIGIN}/checkout.html?package=1`);
    await expectEvents(page.locator('#checkout-schedule'));
    await expect(page.locator('#account [part~="sign-in"]')).toBeVisible({ timeout: 10_000 });
    await expect(page.locator('#checkout [part~="summary"], #checkout [part~="sign-in"]').first()).toBeVisible();
    await expect(page.locator('#checkout-player [part~="frame"]')).toBeVisible();
    await expect(page.locator('[part~="error"]')).toHaveCount(0);
    // A form still validates and talks to the server: a wrong password gets the server's message.
    const form = page.locator('#account [part~="sign-in"]');
    await form.getByLabel(/^Email/).fill('viewer@example.com');
    await form.getByLabel(/^Password/).fill('wrong-password-1');
    await form.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.locator('#account [role="alert"]').first()).toBeVisible({ timeout: 10_000 });
  });

  test('the schedule on the cross-origin CMS page and the whole site start', async ({ page }) => {
    await page.goto(`${HOST_ORIGIN}/cms.html`);
    await expectEvents(page.locator('channel-schedule'));
    await page.goto(`${BUNDLE_ORIGIN}/site/`);
    await expect(page.locator('channel-app [part~="frame"]').first()).toBeVisible({ timeout: 10_000 });
    await expect(page.locator('channel-app [part~="error"]')).toHaveCount(0);
  });
});

test('Prototype.js-style toJSON on arrays and strings: the elements start (the api-key request keeps its channel key) and a sign-in reaches the server as sent', async ({
  browser,
}) => {
  // A context of its own: Playwright's page bindings (the parts probe of the other tests) serialize their arguments
  // with the page's JSON.stringify, which this host breaks for them too; errors are watched here instead.
  const context = await browser.newContext();
  await context.addInitScript(() => {
    // As Prototype.js 1.6 did: JSON.stringify then turns arrays into strings and quotes strings twice.
    (Array.prototype as { toJSON?: unknown }).toJSON = function (this: unknown[]) {
      return `[${this.map((v) => JSON.stringify(v)).join(', ')}]`;
    };
    (String.prototype as { toJSON?: unknown }).toJSON = function (this: string) {
      return `"${this}"`;
    };
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (m) => m.type() === 'error' && !/status of 422/.test(m.text()) && problems.push(m.text()));
  const bodies: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && r.url().includes('/api/') && bodies.push(r.postData() ?? ''));
  try {
    await page.goto(`${BUNDLE_ORIGIN}/checkout.html?package=1`);
    await expectEvents(page.locator('#checkout-schedule'));
    const form = page.locator('#account [part~="sign-in"]');
    await form.getByLabel(/^Email/).fill('viewer@example.com');
    await form.getByLabel(/^Password/).fill('wrong-password-1');
    await form.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.locator('#account [role="alert"]').first()).toBeVisible({ timeout: 10_000 });
    const sent = bodies.map((b) => JSON.parse(b) as Record<string, unknown>);
    expect(sent.find((b) => 'password' in b)?.email).toBe('viewer@example.com');
    expect(sent.find((b) => 'channel_key' in b)?.channel_key).toBe('demo');
    // The host's own methods are still there for the host.
    expect(await page.evaluate(() => JSON.stringify({ a: ['x'] }))).toBe('{"a":"[\\"x\\"]"}');
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});
