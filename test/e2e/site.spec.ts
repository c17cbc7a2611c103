// <channel-app> end to end: the whole site on the CMS host (a second origin), loaded by the script tag, against the
// reference server. Every route in English (channel demo, /site) and French (channel demo-fr, /site-fr) opened as
// a deep link, with axe; reloads, back and forward; every guard; a purchase from a watch page's paywall that comes
// back playing; a hostile CMS page that runs nothing; the 404; the collapsed menu at 375 px; the page views.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { devSecret, expect, test } from './fixtures';
import { BUNDLE_ORIGIN, HOST_ORIGIN } from './helpers';

const SITE = `${HOST_ORIGIN}/site`;
const SITE_FR = `${HOST_ORIGIN}/site-fr`;

let serial = 0;
const freshEmail = (tag: string) => `site-${tag}-${Date.now().toString(36)}-${process.pid}-${serial++}@example.com`;

/** The fixture keys of a channel's events, to their ids. */
async function eventIds(request: APIRequestContext, channel = 'demo'): Promise<Record<string, number>> {
  const answer = await request.get(`${BUNDLE_ORIGIN}/__dev/events?channel_key=${channel}`, {
    headers: { 'X-Channel-Dev-Secret': devSecret() },
  });
  return ((await answer.json()) as { data: Record<string, number> }).data;
}

/** A package id of the channel (for /select-package/{id}). */
async function packageId(request: APIRequestContext, channel = 'demo'): Promise<number> {
  const answer = await request.get(`${BUNDLE_ORIGIN}/api/packages?channel_key=${channel}`);
  return ((await answer.json()) as { data: { id: number }[] }).data[0]!.id;
}

/** Registers a viewer through the API and stores the sign-in where the site reads it. */
async function signedIn(page: Page, request: APIRequestContext, tag: string): Promise<string> {
  const key = (
    (await (await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: 'demo' } })).json()) as {
      data: { api_key: string };
    }
  ).data.api_key;
  const email = freshEmail(tag);
  const answer = await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/register`, {
    data: {
      api_key: key,
      email,
      password: 'site-pass-1',
      password_confirmation: 'site-pass-1',
      first_name: 'Sam',
      last_name: 'Site',
      terms: true,
    },
  });
  const token = ((await answer.json()) as { data: { token: string } }).data.token;
  await page.addInitScript(
    (value) => localStorage.setItem('rudy_token.demo', JSON.stringify({ v: value, e: Date.now() + 3_600_000 })),
    token,
  );
  return email;
}

const app = (page: Page): Locator => page.locator('channel-app');
const heading = (page: Page): Locator => app(page).locator('h1[part~="page-title"]');

/** Opens a site path as a deep link (a fresh page load) and waits for its page heading. */
async function open(page: Page, site: string, path: string): Promise<void> {
  await page.goto(`${site}${path}`);
  await expect(heading(page)).toHaveCount(1, { timeout: 15_000 });
}

/** The channel's seeded clipper and a library item: the ids of the library and share routes. */
const CLIPPERS: Record<string, [string, string]> = {
  demo: ['fan@example.com', 'fan-pass-1'],
  'demo-fr': ['supporter@sports-demo.example', 'demo-password'],
};
async function libraryAndShare(request: APIRequestContext, channel: string): Promise<[string, string]> {
  const key = (
    (await (await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: channel } })).json()) as {
      data: { api_key: string };
    }
  ).data.api_key;
  const items = (await (await request.get(`${BUNDLE_ORIGIN}/api/vod-media-items?limit=1&api_key=${key}`)).json()) as {
    data: { id: number }[];
  };
  const [email, password] = CLIPPERS[channel]!;
  const login = (await (
    await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/login`, { data: { api_key: key, email, password } })
  ).json()) as { data: { token: string } };
  const clips = (await (
    await request.get(`${BUNDLE_ORIGIN}/api/clips/user?api_key=${key}`, {
      headers: { Authorization: `Bearer ${login.data.token}` },
    })
  ).json()) as { data: { id: number; uuid: string; status: string }[] };
  const clip = clips.data.find((c) => c.status === 'done')!;
  return [`/watch_library/${items.data[0]!.id}`, `/share/${clip.id}/${clip.uuid}`];
}

/** Every route of the table (and a channel page) as a viewer opens it; `{…}` are ids filled in from the server. */
const ROUTES = [
  '/',
  '/packages',
  '/vod_library',
  '/watch/{event}',
  '/watch_embed/{event}',
  '{library}',
  '{share}',
  '/upcoming',
  '/vod',
  '/live',
  '/schedule',
  '/login',
  '/registration',
  '/verify-notice',
  '/verify-email',
  '/password-reset-request',
  '/password-reset',
  '/profile',
  '/profile/transactions',
  '/profile/clips',
  '/profile/sessions/add',
  '/profile/edit',
  '/contacts',
  '/about',
  '/faq',
  '/buy',
  '/select-package/{package}',
  '/simulate',
  '/confirm-account-deletion',
  '/404',
  '/privacy_policy',
  '/terms_conditions',
];

const ROUTES_PER_TEST = 4;

/** The ids a channel's routes need, asked once per worker and channel. */
const routeIds = new Map<string, Promise<Record<string, string>>>();
async function idsOf(request: APIRequestContext, channel: string): Promise<Record<string, string>> {
  const ask = async () => {
    const [library, share] = await libraryAndShare(request, channel);
    return {
      event: String(Object.values(await eventIds(request, channel))[0]!),
      library,
      share,
      package: String(await packageId(request, channel)),
    };
  };
  let ids = routeIds.get(channel);
  if (!ids) {
    ids = ask();
    routeIds.set(channel, ids);
    ids.catch(() => routeIds.delete(channel));
  }
  return ids;
}

for (const [lang, site, channel, name] of [
  ['English', SITE, 'demo', 'Demo Sports Network'],
  ['French', SITE_FR, 'demo-fr', 'Réseau Sports Démo'],
] as const) {
  test.describe(`every route renders its page in ${lang}, named in the title, axe clean`, () => {
    // A few routes per test: short enough for a slow machine, and they share the page's cache.
    for (let i = 0; i < ROUTES.length; i += ROUTES_PER_TEST) {
      const group = ROUTES.slice(i, i + ROUTES_PER_TEST);
      test(group.join(' '), async ({ page, request, makeAxeBuilder }) => {
        test.setTimeout(60_000);
        const ids = await idsOf(request, channel);
        for (const route of group) {
          const path = route.replace(/\{(\w+)\}/g, (_, key: string) => ids[key]!);
          await open(page, site, path);
          await expect(heading(page), path).not.toHaveText('');
          await expect(page, path).toHaveTitle(new RegExp(name));
          if (lang === 'French') await expect(app(page).locator('[lang]').first(), path).toHaveAttribute('lang', 'fr');
          // The page's own content is in (not only the loader) before the audit.
          await expect(app(page).locator('[part~="loading"]'), path).toHaveCount(0, { timeout: 10_000 });
          const { violations } = await makeAxeBuilder().include('channel-app').analyze();
          expect(violations, `${path}: ${violations.map((v) => v.id).join(', ')}`).toEqual([]);
        }
      });
    }
  });
}

test('deep links survive a reload; back and forward move between pages without reloading the document', async ({
  page,
}) => {
  await open(page, SITE, '/faq');
  await page.reload();
  await expect(heading(page)).toHaveText('FAQ');
  // A marker on the window: gone if a click reloaded the document.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  await app(page).getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Live' }).click();
  await expect(page).toHaveURL(`${SITE}/live`);
  await expect(heading(page)).toHaveText('Live');
  await expect(heading(page)).toBeFocused();
  await app(page).locator('[part~="footer"]').getByRole('link', { name: 'Contacts' }).click();
  await expect(page).toHaveURL(`${SITE}/contacts`);
  await page.goBack();
  await expect(page).toHaveURL(`${SITE}/live`);
  await expect(heading(page)).toHaveText('Live');
  await page.goForward();
  await expect(heading(page)).toHaveText('Contacts');
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  // An event card opens its watch page in the app.
  await app(page)
    .locator('[part~="header"]')
    .getByRole('link', { name: /Schedule/ })
    .click();
  const card = app(page).locator('[part~="event-link"]').first();
  await expect(card, 'cards link to their watch page').toHaveAttribute('href', /^\/site\/watch\/\d+$/);
  await card.click();
  await expect(page).toHaveURL(new RegExp(`${SITE}/watch/\\d+$`));
  await expect(app(page).locator('[part~="player"]')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
});

test('a modified click is left to the browser (a new tab), a plain one stays in the app', async ({ page, context }) => {
  await open(page, SITE, '/');
  const link = app(page).locator('[part~="footer"]').getByRole('link', { name: 'FAQ' });
  const opened = context.waitForEvent('page');
  await link.click({ modifiers: ['ControlOrMeta'] });
  const tab = await opened;
  await expect(tab).toHaveURL(`${SITE}/faq`);
  await tab.close();
  await expect(page).toHaveURL(`${SITE}/`);
});

test('unknown paths and non-digit ids redirect to /404, which links home', async ({ page }) => {
  for (const path of ['/nowhere', '/watch/abc', '/select-package/x1', '/profile/nope']) {
    await open(page, SITE, path);
    await expect(page).toHaveURL(`${SITE}/404`);
    await expect(app(page)).toContainText('Looks like we lose this page');
  }
  await app(page).getByRole('link', { name: 'Go to Home page' }).click();
  await expect(page).toHaveURL(`${SITE}/`);
});

test('a French channel\'s site on a CMS page left in English (<html lang="en">) speaks French', async ({ page }) => {
  // The French site's host page made a CMS left in WordPress's default language, before our script runs: its
  // <html lang="fr"> says "en" as soon as it is parsed. (A document fulfilled by the test instead may not load
  // scripts from localhost: Chromium's private network rules.)
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.documentElement) return;
      document.documentElement.lang = 'en';
      observer.disconnect();
    }).observe(document, { childList: true });
  });
  await open(page, SITE_FR, '/nowhere');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(app(page)).toContainText('On dirait que nous avons perdu cette page');
  await expect(app(page).locator('[part~="sign-in"]')).toHaveText('Se connecter');
  await expect(app(page).getByRole('combobox', { name: 'Langue' })).toHaveValue('fr');
  const footer = app(page).locator('[part~="footer"]');
  await expect(footer.getByRole('link', { name: 'À propos' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Nous joindre' })).toBeVisible();
});

test('a channel page from the pages list opens by its own path', async ({ page }) => {
  await open(page, SITE, '/partners');
  await expect(heading(page)).not.toHaveText('');
  await expect(app(page).locator('main')).toContainText(/contact/i);
});

test.describe('hostile CMS content', () => {
  // Chromium reports an inline handler as a policy violation as soon as it is parsed, even into the inert document
  // DOMPurify sanitizes in, where nothing runs: those reports are expected; a handler that ran would call pwn().
  test.use({ allowConsoleErrors: [/Executing inline event handler violates/] });

  test('a CMS page whose blocks carry scripts, handlers and javascript: links shows their text and runs nothing', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      (window as unknown as { pwned: string[] }).pwned = [];
      (window as unknown as { pwn: (why: string) => void }).pwn = (why) =>
        (window as unknown as { pwned: string[] }).pwned.push(why);
    });
    await page.route('**/api/pages/partners?*', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          data: {
            id: 99,
            name: 'Partners',
            url: '/partners',
            blocks: [
              { type: 'paragraph', html: '<p>Visible text<script>pwn("script")</script></p>' },
              { type: 'paragraph', html: '<img src="x" onerror="pwn(\'onerror\')" alt="broken">' },
              { type: 'paragraph', html: '<a href="javascript:pwn(\'href\')">Click me</a>' },
              {
                type: 'paragraph',
                html: '<svg onload="pwn(\'svg\')"><circle r="1"/></svg><b onclick="pwn(\'b\')">Bold</b>',
              },
              {
                type: 'paragraph',
                html: '<iframe src="javascript:pwn(\'iframe\')"></iframe><form action="javascript:pwn(1)"><button>Go</button></form>',
              },
            ],
          },
        }),
      }),
    );
    await open(page, SITE, '/partners');
    const main = app(page).locator('main');
    await expect(main).toContainText('Visible text');
    await expect(main).toContainText('Click me');
    await main.getByText('Click me').click();
    await main.getByText('Bold').click();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { pwned: string[] }).pwned)).toEqual([]);
    expect(await main.locator('script, iframe, form, [onerror], [onclick], svg').count()).toBe(0);
  });
});

test('guards: a guest from login to /buy goes back; a signed-in viewer leaves the auth pages; no device linking without remote auth', async ({
  page,
  request,
}) => {
  await open(page, SITE, '/login');
  await page.evaluate(() => {
    history.pushState(null, '', '/site/buy');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(`${SITE}/login`);
  await open(page, SITE_FR, '/profile/sessions/add');
  await expect(page).toHaveURL(`${SITE_FR}/profile`);

  // A stored sign-in that loads on an auth page goes to the home page, as the spec says (not to the last page).
  await signedIn(page, request, 'guards');
  await open(page, SITE, '/faq');
  for (const path of ['/login', '/registration', '/password-reset-request']) {
    await open(page, SITE, path);
    await expect(page, `${path} is closed to a signed-in viewer`).toHaveURL(`${SITE}/`);
  }
  // And so does a link to one, followed in the site.
  await open(page, SITE, '/faq');
  await page.evaluate(() => {
    history.pushState(null, '', '/site/login');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(`${SITE}/`);
});

test('a temporary password holds the viewer on /profile/edit', async ({ page, request }) => {
  await signedIn(page, request, 'temp');
  // The profile says the password is temporary (as after a password handed out by support).
  await page.route('**/api/profile?*', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: Record<string, unknown> };
    await route.fulfill({ response, json: { data: { ...body.data, temporary_password: true } } });
  });
  await open(page, SITE, '/schedule');
  await expect(page).toHaveURL(`${SITE}/profile/edit`);
  await app(page).locator('[part~="footer"]').getByRole('link', { name: 'FAQ' }).click();
  await expect(page).toHaveURL(`${SITE}/profile/edit`);
});

test('sign-in returns to the last page; a purchase from a watch page’s paywall comes back to it, playing', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const ids = await eventIds(request);
  const email = freshEmail('buy');
  await open(page, SITE, '/registration');
  const form = app(page).locator('form');
  await form.getByLabel('First name').fill('Pat');
  await form.getByLabel('Last name').fill('Payer');
  await form.getByLabel(/^Email/).fill(email);
  await form.getByLabel(/^Password/).fill('site-pass-1');
  await form.getByLabel(/^Confirm password/).fill('site-pass-1');
  await form.getByLabel(/terms/).check();
  await form.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(`${SITE}/verify-notice`);
  await app(page).locator('[part~="sign-out"]').click();
  await expect(app(page).locator('[part~="sign-in"]').first()).toBeVisible();

  await open(page, SITE, `/watch/${ids['paid-live']}`);
  await app(page).locator('[part~="header"] [part~="sign-in"]').click();
  await expect(page).toHaveURL(`${SITE}/login`);
  const signIn = app(page).locator('form');
  await signIn.getByLabel(/^Email/).fill(email);
  await signIn.getByLabel(/^Password/).fill('site-pass-1');
  await signIn.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${SITE}/watch/${ids['paid-live']}`);

  await app(page).locator('[part~="offer-button"]').first().click();
  await expect(page).toHaveURL(new RegExp(`${SITE}/buy\\?event_id=${ids['paid-live']}`));
  await app(page).locator('[part~="continue"]').click();
  const field = page.locator('channel-app [slot="card"]');
  await field.getByLabel('Card number').fill('4242 4242 4242 4242');
  await field.getByLabel(/^Expiry/).fill('12 / 34');
  await field.getByLabel('CVC').fill('123');
  await app(page).locator('[part~="pay"]').click();
  await expect(page).toHaveURL(`${SITE}/watch/${ids['paid-live']}`, { timeout: 30_000 });
  await expect
    .poll(
      () =>
        app(page)
          .locator('video')
          .evaluate((v: HTMLVideoElement) => v.currentTime),
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0.5);
});

test('at 375 px the menu folds into a button that opens it', async ({ page, makeAxeBuilder }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await open(page, SITE, '/');
  const toggle = app(page).locator('[part~="menu-button"]');
  const nav = app(page).getByRole('navigation', { name: 'Main menu' });
  await expect(toggle).toBeVisible();
  await expect(nav).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('link', { name: 'Live' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect((await makeAxeBuilder().include('channel-app').analyze()).violations).toEqual([]);
  await nav.getByRole('link', { name: 'Live' }).click();
  await expect(heading(page)).toHaveText('Live');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

test('each navigation sends a page view to the tag manager and visit_page to the analytics service, with trk', async ({
  page,
  request,
}) => {
  const since = Date.now() - 1000;
  const headers = { 'X-Channel-Dev-Secret': devSecret() };
  await open(page, SITE, '/?trk=spring-mail');
  await app(page).getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Live' }).click();
  await expect(heading(page)).toHaveText('Live');
  await expect
    .poll(async () => {
      const answer = await request.get(`${BUNDLE_ORIGIN}/__dev/datalake?kind=event&since=${since}`, { headers });
      const rows = ((await answer.json()) as { data: { body: { event?: string; page?: string; trk?: string } }[] })
        .data;
      return rows.filter((r) => r.body.event === 'visit_page').map((r) => `${r.body.page}|${r.body.trk ?? ''}`);
    })
    .toEqual(expect.arrayContaining(['/|spring-mail', '/live|spring-mail']));
  await expect
    .poll(async () => {
      const answer = await request.get(`${BUNDLE_ORIGIN}/__dev/gtag?kind=event&since=${since}`, { headers });
      const rows = ((await answer.json()) as { data: { body: { name?: string } }[] }).data;
      return rows.filter((r) => r.body.name === 'page_view').length;
    })
    .toBeGreaterThanOrEqual(2);
});

test('/schedule?day= opens the calendar on that day: its events only, in English and French', async ({ page }) => {
  // A day a few days ahead in New York (the pinned zone), where the seed has upcoming events every day or two.
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(Date.now() + 2 * 86_400_000);
  const asked = page.waitForRequest(
    (r) => new URL(r.url()).pathname === '/api/events' && new URL(r.url()).searchParams.has('start_date'),
  );
  await open(page, SITE, `/schedule?day=${day}`);
  const params = new URL((await asked).url()).searchParams;
  expect(Number(params.get('end_date')) - Number(params.get('start_date'))).toBe(86_399);
  const calendar = app(page).getByRole('group', { name: 'Calendar' });
  await expect(calendar.locator(`[data-day="${day}"]`)).toHaveAttribute('aria-checked', 'true');
  await expect(app(page).locator('[part~="loading"]')).toHaveCount(0);
  for (const at of await app(page)
    .locator('[part~="event"] time[datetime]')
    .evaluateAll((nodes) => nodes.map((n) => Date.parse(n.getAttribute('datetime')!))))
    expect(new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(at)).toBe(day);
  await open(page, SITE_FR, `/schedule?day=${day}`);
  await expect(app(page).getByRole('group', { name: 'Calendrier' }).locator(`[data-day="${day}"]`)).toHaveAttribute(
    'aria-checked',
    'true',
  );
  // /live has none: live events are today's.
  await open(page, SITE, '/live');
  await expect(app(page).locator('[part~="calendar"]')).toHaveCount(0);
});
