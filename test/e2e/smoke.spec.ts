// Smoke: every demo page opens without page errors or console errors, and every tag it uses gets defined.
import { expect, test } from './fixtures';
import { DEMO_PAGES, HOST_ORIGIN, expectSettled, undefinedTags, usedTags } from './helpers';

/** Pages with a test of their own below, or that only make sense on the other origin. */
const SPECIAL = new Set(['misconfigured.html', 'cms.html']);

test.describe('smoke: every demo page', () => {
  test('the demo site has the pages the specs expect', () => {
    for (const page of [
      'index.html',
      'schedule.html',
      'player.html',
      'checkout.html',
      'profile.html',
      'app.html',
      'french.html',
      'dynamic.html',
      'cms.html',
      'misconfigured.html',
    ]) {
      expect(DEMO_PAGES).toContain(page);
    }
  });

  for (const file of DEMO_PAGES.filter((f) => !SPECIAL.has(f))) {
    test(`${file} opens with every tag defined`, async ({ page }) => {
      const response = await page.goto(`/${file}`);
      expect(response?.status()).toBe(200);
      const tags = await usedTags(page);
      if (tags.length === 0) return; // index.html, dynamic.html: no element until the visitor acts
      await expect.poll(() => undefinedTags(page), { timeout: 10_000 }).toEqual([]);
      await expectSettled(page);
      await expect(page.locator('[part~="error"]')).toHaveCount(0);
    });
  }

  test('cms.html on the other origin opens with every tag defined', async ({ page }) => {
    await page.goto(`${HOST_ORIGIN}/cms.html`);
    expect(await usedTags(page)).toEqual(['channel-schedule']);
    await expect.poll(() => undefinedTags(page), { timeout: 10_000 }).toEqual([]);
    await expectSettled(page);
    await expect(page.locator('[part~="error"]')).toHaveCount(0);
  });

  test('index.html links the CMS page to the other origin', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#cms-link')).toHaveAttribute('href', `${HOST_ORIGIN}/cms.html`);
  });
});

test.describe('at phone width (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const file of DEMO_PAGES.filter((f) => !SPECIAL.has(f))) {
    test(`${file} is no wider than the screen`, async ({ page }) => {
      await page.goto(`/${file}`);
      if ((await usedTags(page)).length > 0) {
        await expect.poll(() => undefinedTags(page), { timeout: 10_000 }).toEqual([]);
        await expectSettled(page);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  }
});

test.describe('misconfigured.html (no data-channel-key)', () => {
  test.use({ allowConsoleErrors: [/data-channel-key/] });

  test('shows the configuration error in the element and names data-channel-key in the console', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto('/misconfigured.html');
    await expect.poll(() => undefinedTags(page), { timeout: 10_000 }).toEqual([]);
    const error = page.locator('channel-schedule [part~="error"]');
    await expect(error).toBeVisible();
    await expect(error).toHaveAttribute('role', 'alert');
    await expect(error).toContainText(
      'This element is not set up: the page must give a channel key (data-channel-key).',
    );
    await expect(page.locator('channel-schedule [part~="event-link"]')).toHaveCount(0);
    expect(errors.some((e) => e.includes('data-channel-key'))).toBe(true);
    // Nothing but the configuration problem went wrong (no failed requests: nothing was asked of the API).
    expect(errors.every((e) => e.includes('data-channel-key'))).toBe(true);
  });
});
