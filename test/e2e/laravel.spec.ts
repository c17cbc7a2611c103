// The main journeys against a second channel API built to the spec with a Laravel/MySQL back end's habits
// (test/e2e/laravel-api.ts: timestamps and pivots, 0/1, nulls, `[]` for empty objects, numeric-string ids, one
// malformed record in each list, Laravel's pagination envelope, get_api_key read as JSON only, CORS for the host pages'
// origin only), each at a desktop width in English and at a phone's in French, the host pages on an origin of their own
// (every call cross-origin, preflighted where the browser must): the schedule and its filters, the player with a
// preroll, the whole site's home and packages, registration with the verification notice and sign-in, a purchase up
// to the order poll.
import type { APIRequestContext, Locator, Page, Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { enterCard } from './helpers';
import { E2E_LARAVEL_HOST_PORT, E2E_LARAVEL_PORT } from './ports';

/** The second API's origin. */
const LARAVEL = `http://localhost:${E2E_LARAVEL_PORT}`;
const API = `${LARAVEL}/api`;
/** Its host pages' origin: another one, as a channel's site is not its API's. */
const HOST = `http://localhost:${E2E_LARAVEL_HOST_PORT}`;

/** The two ways each journey is taken: the width and the language. */
const WAYS = [
  { name: 'desktop, English', lang: 'en', viewport: { width: 1280, height: 800 } },
  { name: 'phone, French', lang: 'fr', viewport: { width: 390, height: 844 } },
] as const;

/** What the journeys read, in each language. */
const TEXT = {
  en: {
    sport: 'Sport',
    clear: 'Clear filters',
    register: 'Register',
    password: 'Password',
    confirmation: 'Confirm password',
    terms: /I accept the terms/,
    notice: 'Check your email',
    signIn: 'Sign in',
    paid: 'Payment successful',
  },
  fr: {
    sport: 'Sport',
    clear: 'Effacer les filtres',
    register: "S'inscrire",
    password: 'Mot de passe',
    confirmation: 'Confirmez le mot de passe',
    terms: /J'accepte les conditions/,
    notice: 'Consultez vos e-mails',
    signIn: 'Se connecter',
    paid: 'Paiement réussi',
  },
} as const;

let serial = 0;
const freshEmail = (tag: string) => `laravel-${tag}-${Date.now().toString(36)}-${process.pid}-${serial++}@example.com`;

/** The POSTs of get_api_key the page made, with their body types: a form refused, then JSON. */
function apiKeyCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url() === `${API}/get_api_key`) calls.push(r.headers()['content-type'] ?? '');
  });
  return calls;
}

/** The reports of records left out, posted to the API's logging endpoint. */
function leftOut(page: Page): string[] {
  const lines: string[] = [];
  page.on('request', (r: Request) => {
    if (r.url() !== `${API}/logs` || r.method() !== 'POST') return;
    const body = r.postDataJSON() as { message?: string };
    if (body.message?.includes('left out')) lines.push(body.message);
  });
  return lines;
}

/**
 * Sends a request from the page and waits until it was seen: the page's requests are seen in the order it sends them,
 * so every one it sent before (a report of a record left out) has been seen by then.
 */
async function sentAfterAll(page: Page): Promise<void> {
  const marker = `${LARAVEL}/__preflights?after=${Date.now()}`;
  const seen = page.waitForRequest(marker);
  await page.evaluate((url) => fetch(url).then(() => undefined), marker);
  await seen;
}

/** An account on the second API (registered through it), its sign-in stored before the page loads. */
async function signedIn(page: Page, request: APIRequestContext): Promise<string> {
  const key = await request.post(`${API}/get_api_key`, { data: { channel_key: 'ck-laravel' } });
  const apiKey = ((await key.json()) as { data: { api_key: string } }).data.api_key;
  const email = freshEmail('buyer');
  const answer = await request.post(`${API}/v2/auth/register`, {
    data: { api_key: apiKey, email, password: 'buyer-pass-1', password_confirmation: 'buyer-pass-1', terms: 1 },
  });
  const token = ((await answer.json()) as { data: { token: string } }).data.token;
  await page.addInitScript((value) => {
    localStorage.setItem('rudy_token.laravel-demo', JSON.stringify({ v: value, e: Date.now() + 3_600_000 }));
  }, token);
  return email;
}

const app = (page: Page): Locator => page.locator('channel-app');

// The API's malformed records are reported to its logging endpoint (201), and its refusal of get_api_key's form (422)
// is what makes the client send JSON: both show in the console as failed loads only for the 422.
test.use({ allowConsoleErrors: [/status of 422/] });

for (const way of WAYS) {
  test.describe(`against a Laravel-style API, ${way.name}`, () => {
    test.use({ viewport: way.viewport, locale: way.lang === 'fr' ? 'fr-CA' : 'en-US' });
    const text = TEXT[way.lang];

    test('the schedule, from another origin: every readable event shows, the malformed one is reported once however often it comes; filters narrow it and Clear filters clears it', async ({
      page,
      request,
      makeAxeBuilder,
    }) => {
      const keys = apiKeyCalls(page);
      const reports = leftOut(page);
      await page.goto(`${HOST}/schedule.html?lang=${way.lang}`);
      expect(new URL(page.url()).origin, 'the host page is not on the API’s origin').not.toBe(LARAVEL);
      const schedule = page.locator('channel-schedule');
      const links = schedule.locator('[part~="event-link"]');
      await expect(links).toHaveCount(5, { timeout: 15_000 });
      // Two teams read by their short names, away at home.
      await expect(schedule).toContainText('FOX @ BEA');
      // The count is what shows (the server counts its malformed record too), and nothing more to load.
      await expect(schedule).toContainText(way.lang === 'fr' ? '5 événements' : '5 events');
      await expect(schedule.locator('[part~="more"]')).toHaveCount(0);
      await expect(schedule.locator('[part~="error"]')).toHaveCount(0);
      // The form was refused (422), the same call went again as JSON: across origins, after a preflight the API
      // allowed; so did the reports' JSON posts.
      expect(keys).toEqual(['application/x-www-form-urlencoded', 'application/json']);
      await expect
        .poll(() => reports)
        .toContain('events: left out a record it cannot read (id 199, field data.5.name)');
      const preflights = (await (await request.get(`${LARAVEL}/__preflights`)).json()) as { path: string }[];
      expect(preflights.map((p) => p.path)).toEqual(
        expect.arrayContaining(['/api/get_api_key', expect.stringMatching(/^\/api\/logs/)]),
      );
      // The API's CORS is real: another origin is not allowed.
      const elsewhere = await request.get(`${API}/settings?channel_key=ck-laravel`, {
        headers: { Origin: 'http://elsewhere.test' },
      });
      expect(elsewhere.headers()['access-control-allow-origin']).toBeUndefined();

      // Hockey's answer (not a cached one: another address) lists the malformed record again, at another place.
      const sport = schedule.getByRole('combobox', { name: text.sport, exact: true });
      const hockey = page.waitForResponse(
        (r) => r.url().startsWith(`${API}/events?`) && r.url().includes('sport=hockey'),
      );
      await sport.selectOption('hockey');
      // (What it answered, asked again: the page's copy of a body is not kept for the test to read.)
      const again = (await (await request.get((await hockey).url())).json()) as { data: { id: string }[] };
      expect(again.data.map((e) => e.id)).toEqual(['101', '102', '105', '199']);
      await expect(links).toHaveCount(3);
      const narrowed = page.waitForRequest(
        (r) => r.url().startsWith(`${API}/events?`) && r.url().includes('sport=basketball'),
      );
      await sport.selectOption('basketball');
      await narrowed;
      await expect(links).toHaveCount(2);
      await expect(schedule).toContainText('BEA @ FOX');
      await schedule.getByRole('button', { name: text.clear }).click();
      await expect(links).toHaveCount(5);
      // Every report the answers could make was sent as they were read, before they showed: a request the page sends
      // now is seen after them.
      await sentAfterAll(page);
      expect(
        reports.filter((line) => line.includes('id 199')),
        'reported once',
      ).toEqual(['events: left out a record it cannot read (id 199, field data.5.name)']);
      expect((await makeAxeBuilder().include('channel-schedule').analyze()).violations).toEqual([]);
    });

    test('the player: the channel’s preroll (read one by one from its settings) plays first, then the recording', async ({
      page,
    }) => {
      const reports = leftOut(page);
      await page.goto(`${HOST}/player.html?event=101&lang=${way.lang}`);
      const player = page.locator('channel-player');
      await player.locator('[part~="play"]').click({ timeout: 15_000 });
      await expect(player.locator('[part~="ad-label"]')).toBeVisible({ timeout: 15_000 });
      const video = player.locator('video').first();
      await expect.poll(() => video.getAttribute('src'), { timeout: 10_000 }).toContain('/media/ad/');
      // The three-second advert ends; the recording plays.
      await expect
        .poll(() => player.locator('video').first().getAttribute('src'), { timeout: 30_000 })
        .toContain('/media/main/');
      await expect(player.locator('[part~="ad-label"]')).toHaveCount(0);
      // The settings' malformed preroll was left out and reported, once.
      await sentAfterAll(page);
      expect(reports.filter((line) => line.startsWith('settings:'))).toEqual([
        'settings: left out a record it cannot read (field data.prerolls.1.id)',
      ]);
      await expect
        .poll(
          () =>
            player
              .locator('video')
              .first()
              .evaluate((v: HTMLVideoElement) => v.currentTime),
          { timeout: 20_000 },
        )
        .toBeGreaterThan(0.5);
    });

    test('the whole site: the home’s slide and lists, then the packages, the malformed ones left out', async ({
      page,
    }) => {
      await page.goto(`${HOST}/site/?lang=${way.lang}`);
      await expect(app(page).locator('[part~="slide"]').first()).toBeVisible({ timeout: 15_000 });
      await expect(app(page).locator('[part~="event-link"]').first()).toBeVisible({ timeout: 15_000 });
      await expect(app(page)).toContainText('BEA @ FOX');
      await page.goto(`${HOST}/site/packages?lang=${way.lang}`);
      await expect(app(page)).toContainText('Hockey season pass', { timeout: 15_000 });
      await expect(app(page)).toContainText('Monthly pass');
      // Two offers of each kind, one unreadable: one card each (a single-event pass is sold from its event).
      await expect(app(page).getByRole('button', { name: way.lang === 'fr' ? 'Choisir' : 'Choose' })).toHaveCount(2);
      // Prices written as strings ("49.00"), read as amounts, in the channel's currency (null: USD).
      await expect(app(page)).toContainText(/USD \$49[.,]00/);
    });

    test('registration shows the verification notice (the profile does not say verified); sign-in after sign-out', async ({
      page,
      makeAxeBuilder,
    }) => {
      const email = freshEmail('register');
      await page.goto(`${HOST}/site/registration?lang=${way.lang}`);
      const form = app(page).locator('[part~="register"] form, form').first();
      await expect(form).toBeVisible({ timeout: 15_000 });
      await form.locator('input[autocomplete="given-name"]').fill('Lara');
      await form.locator('input[autocomplete="family-name"]').fill('Vell');
      await form.locator('input[autocomplete="email"]').fill(email);
      await form.getByLabel(text.password, { exact: true }).fill('lara-pass-1');
      await form.getByLabel(text.confirmation, { exact: true }).fill('lara-pass-1');
      await form.getByLabel(text.terms).check();
      await form.getByRole('button', { name: text.register, exact: true }).click();
      await expect(page).toHaveURL(`${HOST}/site/verify-notice`);
      await expect(app(page).locator('[part~="verify-notice"]')).toContainText(text.notice);
      await expect(app(page).locator('[part~="verify-notice"]')).toContainText(email);
      expect((await makeAxeBuilder().include('channel-app').analyze()).violations).toEqual([]);

      // On a phone, signing out is in the menu.
      const signOut = app(page).locator('[part~="sign-out"]').first();
      if (!(await signOut.isVisible())) await app(page).getByRole('button', { name: 'Menu' }).click();
      await signOut.click();
      await expect
        .poll(() => page.evaluate(() => localStorage.getItem('rudy_token.laravel-demo')), { timeout: 10_000 })
        .toBeNull();
      await page.goto(`${HOST}/site/login?lang=${way.lang}`);
      const signIn = app(page).locator('form').first();
      await signIn.locator('input[autocomplete="email"]').fill(email);
      await signIn.locator('input[autocomplete="current-password"]').fill('lara-pass-1');
      await signIn.getByRole('button', { name: text.signIn, exact: true }).click();
      await expect(page).toHaveURL(`${HOST}/site/`);
      await expect(app(page).locator('[part~="header"] [part~="sign-in"]')).toHaveCount(0);
    });

    test('a purchase: the pass priced from strings, paid by card, the order polled until Paid', async ({
      page,
      request,
    }) => {
      test.setTimeout(60_000);
      await signedIn(page, request);
      const polls: string[] = [];
      page.on('request', (r) => {
        if (/\/api\/orders\/\d+\?/.test(r.url())) polls.push(r.url());
      });
      await page.goto(`${HOST}/site/buy?event_id=102&single_event_package_id=201&lang=${way.lang}`);
      const checkout = app(page);
      await expect(checkout.locator('[part~="total"]').first()).toContainText(/10[.,]49/, { timeout: 15_000 });
      await enterCard(checkout, '4242 4242 4242 4242');
      await checkout.locator('[part~="pay"]').click();
      await expect(checkout.locator('[part~="success"]')).toContainText(text.paid, { timeout: 20_000 });
      // `created` first, then `Paid` 2.5 s after the purchase: polled every 2 s until then.
      expect(polls.length).toBeGreaterThanOrEqual(2);
    });
  });
}
