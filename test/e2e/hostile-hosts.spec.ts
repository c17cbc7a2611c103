// Host pages that are hostile by accident: what old libraries and frameworks do to the globals we share with them.
// Each scenario loads real demo pages with the host's change made before our script runs, and checks that the
// elements still start, render and work, with no page error and no console error.
import { expect, test } from './fixtures';
import { BUNDLE_ORIGIN, cspViolations, expectEvents, HOST_ORIGIN, watchCsp } from './helpers';

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
    // JSON bodies, and get_api_key's form (src/lib/api-paths.ts FORM_TYPE), which no toJSON can touch.
    const sent = bodies.map((b) =>
      b.startsWith('{') ? (JSON.parse(b) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(b)),
    );
    expect(sent.find((b) => 'password' in b)?.email).toBe('viewer@example.com');
    expect(sent.find((b) => 'channel_key' in b)?.channel_key).toBe('demo');
    // The host's own methods are still there for the host.
    expect(await page.evaluate(() => JSON.stringify({ a: ['x'] }))).toBe('{"a":"[\\"x\\"]"}');
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});

test("tags inside a host component's open shadow roots load and render, also when the component fills its root later", async ({
  page,
}) => {
  await page.goto(`${BUNDLE_ORIGIN}/test-shadow.html`);
  await expectEvents(page.locator('host-card channel-schedule'));
  await expect(page.locator('host-card channel-player [part~="frame"]')).toBeVisible({ timeout: 10_000 });
});

test.describe('a host that wraps fetch', () => {
  test('before our script: the elements work and the host still sees every request', async ({ page }) => {
    await page.addInitScript(() => {
      const original = window.fetch.bind(window);
      const seen: string[] = ((window as unknown as { hostSeen: string[] }).hostSeen = []);
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        seen.push(String(input instanceof Request ? input.url : input));
        return original(input, init);
      };
    });
    await page.goto(`${HOST_ORIGIN}/cms.html`);
    await expectEvents(page.locator('channel-schedule'));
    expect(
      await page.evaluate(() =>
        (window as unknown as { hostSeen: string[] }).hostSeen.some((u) => u.includes('/api/events')),
      ),
    ).toBe(true);
  });

  test('after our script: a wrapper that delays every request changes nothing the viewer sees', async ({ page }) => {
    await page.goto(`${BUNDLE_ORIGIN}/test-single.html`);
    await expectEvents(page.locator('channel-schedule'));
    await page.evaluate(() => {
      const original = window.fetch.bind(window);
      window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return original(input, init);
      };
      document.body.append(Object.assign(document.createElement('channel-schedule'), { id: 'later' }));
      document.getElementById('later')!.setAttribute('kind', 'upcoming');
    });
    await expectEvents(page.locator('#later'));
  });
});

test('a frozen history (Object.freeze on history and History.prototype): the site still navigates', async ({
  page,
}) => {
  await page.addInitScript(() => {
    Object.freeze(History.prototype);
    Object.freeze(window.history);
  });
  await page.goto(`${BUNDLE_ORIGIN}/site/`);
  const app = page.locator('channel-app');
  await app.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Live' }).click();
  await expect(page).toHaveURL(`${BUNDLE_ORIGIN}/site/live`);
  await page.goBack();
  await expect(page).toHaveURL(`${BUNDLE_ORIGIN}/site/`);
});

test('a host i18next of its own (German, initialised first) leaves our texts in English and French', async ({
  page,
}) => {
  await page.addInitScript({ path: 'node_modules/i18next/dist/umd/i18next.min.js' });
  await page.addInitScript(() => {
    const host = (window as unknown as { i18next: { init(options: object): unknown } }).i18next;
    host.init({ lng: 'de', resources: { de: { translation: { 'schedule.titles.live': 'Jetzt live' } } } });
  });
  await page.goto(`${BUNDLE_ORIGIN}/test-single.html`);
  const schedule = page.locator('channel-schedule');
  await expectEvents(schedule);
  await expect(schedule.locator('[part~="title"]')).toHaveText('Live now');
  await schedule.evaluate((el) => el.setAttribute('lang', 'fr'));
  await expect(schedule.locator('[part~="title"]')).toHaveText('En direct');
  expect(await page.evaluate(() => (window as unknown as { i18next: { language: string } }).i18next.language)).toBe(
    'de',
  );
});

test('the host removes our elements while their requests are on the way: no error, nothing more asked', async ({
  page,
}) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/events?**', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${BUNDLE_ORIGIN}/test-single.html`);
  await expect.poll(() => page.locator('channel-schedule [part~="loading"]').count()).toBeGreaterThan(0);
  await page.evaluate(() => document.querySelector('channel-schedule')!.remove());
  const after: string[] = [];
  page.on('request', (r) => after.push(r.url()));
  release();
  await page.waitForTimeout(1_500);
  expect(after.filter((u) => u.includes('/api/'))).toEqual([]);
});

test('in a same-origin iframe, and with document.domain set by the host, the elements start', async ({ page }) => {
  await page.addInitScript(() => {
    try {
      document.domain = location.hostname;
    } catch {
      // Browsers that no longer let a page set it: nothing changes, which is the point.
    }
  });
  await page.goto(`${BUNDLE_ORIGIN}/test-single.html`);
  await expectEvents(page.locator('channel-schedule'));
  await page.evaluate(() => {
    const frame = document.createElement('iframe');
    frame.src = '/test-defer.html';
    frame.title = 'framed page';
    frame.style.width = '800px';
    frame.style.height = '600px';
    document.body.append(frame);
  });
  await expectEvents(page.frameLocator('iframe[title="framed page"]').locator('channel-schedule').first());
});

test.describe('Trusted Types enforced by the host (require-trusted-types-for script)', () => {
  // The reference server (dev mode) serves a page with Trusted Types enforced and the given trusted-types
  // directive when asked with ?trusted-types=...
  const ALLOWED = '?trusted-types=channel-elements';
  const REFUSED = "?trusted-types='none'";
  test.beforeEach(async ({ page }) => watchCsp(page));

  test('with our policy allowed: channel HTML, FAQ answers and structured data work, with no violation', async ({
    page,
  }) => {
    await page.goto(`${HOST_ORIGIN}/site/about${ALLOWED}`);
    const app = page.locator('channel-app');
    await expect(app.locator('.paragraph strong').first()).toHaveText('college sports', { timeout: 10_000 });
    await page.goto(`${HOST_ORIGIN}/site/faq${ALLOWED}`);
    await app.getByRole('button', { name: 'How do I watch a live game?' }).click();
    await expect(app.locator('.faq-answer strong').first()).toHaveText('Live');
    await page.goto(`${HOST_ORIGIN}/cms.html${ALLOWED}`);
    await expectEvents(page.locator('channel-schedule'));
    await expect(page.locator('head script[type="application/ld+json"]')).toHaveCount(1);
    expect(await cspViolations(page)).toEqual([]);
  });

  test.describe('and our policy refused', () => {
    // The browser itself reports each refusal as a console error: the page asked for exactly that.
    test.use({ allowConsoleErrors: [/TrustedTypePolicy|requires 'Trusted(HTML|Script|ScriptURL)' assignment/] });

    test('without it: the text still shows, no structured data, one console warning naming the policy', async ({
      page,
    }) => {
      const warnings: string[] = [];
      page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
      await page.goto(`${HOST_ORIGIN}/site/about${REFUSED}`);
      const app = page.locator('channel-app');
      await expect(app.locator('.paragraph').first()).toContainText('We stream college sports', { timeout: 10_000 });
      await expect(app.locator('.paragraph strong')).toHaveCount(0);
      expect(warnings.filter((w) => w.includes('"channel-elements"'))).toHaveLength(1);
      // The JSON-LD's builder is fetched after the events show: once it has come and run, nothing was written.
      const builder = page.waitForResponse((r) => /\/chunks\/structured-data-[^/]+\.js$/.test(r.url()));
      await page.goto(`${HOST_ORIGIN}/cms.html${REFUSED}`);
      await expectEvents(page.locator('channel-schedule'));
      await builder;
      await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
      await expect(page.locator('head script[type="application/ld+json"]')).toHaveCount(0);
    });
  });
});
