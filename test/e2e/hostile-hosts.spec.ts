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
