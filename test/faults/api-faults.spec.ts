// The API fault matrix (issue 17 §1): every start-up and element call under every fault a channel's server or the
// network between can produce, on a page that holds just the element that makes the call. For each case: what the
// viewer reads (translated; Retry where it helps, never a blank element), how many requests went to that endpoint
// (one retry after 1 s for 5xx, network faults and timeouts, none for other 4xx, a 429 waited out once when its
// Retry-After asks for at most 10 s), how many `api_key_error` events fired, that what the viewer had (the chosen
// offer, the typed card, the pending order) is still there, and that Retry recovers once the fault is lifted.
// Faults come from Playwright's request interception (statuses, bodies, resets, a held request with the page's
// clock run forward 30 s) and, for a body that trickles or is cut short, from a fault proxy in front of the
// reference server (fault-proxy.ts). One case per fault kind runs in `npm test`; the rest are `@full`.
import type { APIRequestContext, Locator, Page, Route } from '@playwright/test';
import { en } from '../../src/i18n/en.js';
import { fr } from '../../src/i18n/fr.js';
import { favouritesEn } from '../../src/i18n/favourites-en.js';
import { playerEn } from '../../src/i18n/player-en.js';
import { checkoutEn } from '../../src/i18n/checkout-en.js';
import { checkoutFr } from '../../src/i18n/checkout-fr.js';
import { formsEn } from '../../src/i18n/forms-en.js';
import { formsFr } from '../../src/i18n/forms-fr.js';
import { libraryEn } from '../../src/i18n/library-en.js';
import { libraryFr } from '../../src/i18n/library-fr.js';
import { expect, test } from '../e2e/fixtures.js';
import { BUNDLE_ORIGIN, CARD_3DS, completeChallenge, demoEventIds, enterCard, registerViewer } from '../e2e/helpers.js';
import { startFaultProxy, type FaultProxy, type ProxyFault } from './fault-proxy.js';

// What the browser itself logs for the failures provoked here, and the session's one line when start-up fails.
test.use({
  allowConsoleErrors: [
    /Failed to load resource|net::ERR_|channel-elements: start-up failed|status of (4\d\d|5\d\d)|402 \(Payment Required\)/,
  ],
});
test.describe.configure({ timeout: 90_000 });

// ------------------------------------------------------------------ the faults

/** The kinds of failure the viewer is told about (the errors.* texts). */
type Kind = 'tooManyRequests' | 'technical' | 'timeout' | 'network' | 'invalidResponse';

interface Fault {
  name: string;
  kind: Kind;
  /** Requests to the endpoint before the viewer is told (first try plus the client's retries). */
  requests: number;
  /** An HTTP status answering the call (global calls fire `api_key_error` on it). */
  status?: number;
  /** How it is made: an answer, a reset, a held request, or the fault proxy. */
  how:
    | { by: 'answer'; status: number; body: string; contentType: string; headers?: Record<string, string> }
    | { by: 'reset' }
    | { by: 'hang' }
    | { by: 'proxy'; fault: ProxyFault };
}

const json = (status: number, body: unknown, headers?: Record<string, string>): Fault['how'] => ({
  by: 'answer',
  status,
  body: JSON.stringify(body),
  contentType: 'application/json',
  ...(headers ? { headers } : {}),
});

const FAULTS: Fault[] = [
  { name: '429', kind: 'tooManyRequests', requests: 1, status: 429, how: json(429, { message: 'Too Many Attempts.' }) },
  {
    name: '429 with Retry-After: 1',
    kind: 'tooManyRequests',
    requests: 2,
    status: 429,
    how: json(429, { message: 'Too Many Attempts.' }, { 'Retry-After': '1' }),
  },
  { name: '500', kind: 'technical', requests: 2, status: 500, how: json(500, { message: 'Server Error' }) },
  {
    name: '502',
    kind: 'technical',
    requests: 2,
    status: 502,
    how: { by: 'answer', status: 502, body: '<html><body>Bad Gateway</body></html>', contentType: 'text/html' },
  },
  { name: '503', kind: 'technical', requests: 2, status: 503, how: json(503, { message: 'Service Unavailable' }) },
  { name: 'a hang past 30 s', kind: 'timeout', requests: 2, how: { by: 'hang' } },
  { name: 'a connection reset', kind: 'network', requests: 2, how: { by: 'reset' } },
  { name: 'a truncated body', kind: 'network', requests: 2, how: { by: 'proxy', fault: 'truncated' } },
  {
    name: 'malformed JSON',
    kind: 'invalidResponse',
    requests: 1,
    how: { by: 'answer', status: 200, body: '{"data": [{"id": 1, "na', contentType: 'application/json' },
  },
  {
    name: 'an HTML page with status 200',
    kind: 'invalidResponse',
    requests: 1,
    how: {
      by: 'answer',
      status: 200,
      body: '<!doctype html><html><head><title>Maintenance</title></head><body><h1>Back soon</h1></body></html>',
      contentType: 'text/html',
    },
  },
  {
    name: 'JSON of the wrong shape',
    kind: 'invalidResponse',
    requests: 1,
    how: json(200, { data: 'not what was asked for', meta: { total: 'many' } }),
  },
  { name: 'a 10 MB body', kind: 'invalidResponse', requests: 1, how: { by: 'proxy', fault: 'huge' } },
  { name: 'a slow trickle', kind: 'timeout', requests: 2, how: { by: 'proxy', fault: 'trickle' } },
];

/** Beyond the 10 s the client waits out, a Retry-After fails the call at once (a few calls, not the whole table). */
const LONG_RETRY_AFTER: Fault = {
  name: '429 with Retry-After: 120',
  kind: 'tooManyRequests',
  requests: 1,
  status: 429,
  how: json(429, { message: 'Too Many Attempts.' }, { 'Retry-After': '120' }),
};

// ------------------------------------------------------------------ the calls

type Lang = 'en' | 'fr';

/** What a case has to work with. */
interface Ctx {
  page: Page;
  request: APIRequestContext;
  origin: string;
  ids: Record<string, number>;
  lang: Lang;
  /** The viewer's email when the call needs a signed-in viewer. */
  email?: string;
  /** The checkout's total before Pay. */
  total?: string;
}

interface Call {
  name: string;
  /** The requests of this call (on the API's path, whatever the origin); without a method, any method. */
  match(path: string, method?: string): boolean;
  signedIn?: boolean;
  /** A viewer of the case's own (one who buys): others share one per worker (the server allows 50 new accounts per address in 10 minutes). */
  freshViewer?: boolean;
  /** The page's body (one element) and any script it needs before the bundle. */
  body(ctx: Ctx): string;
  head?: string;
  /** The element where the viewer reads the outcome. */
  element: string;
  /** What the viewer does after the page loads for the call to go out (default: nothing). */
  act?(ctx: Ctx, element: Locator): Promise<void>;
  /**
   * How a failure shows: the start-up error screen (Reload), an error panel (`heading`, the reason, Try again),
   * a best-effort call the element does without (no message at all), or the checkout's own steps.
   */
  shows: 'startup' | 'panel' | 'without' | 'pay' | 'poll';
  heading?: Record<Lang, string>;
  /** The start-up's reason line when it is not the fault's own (the api key's NO_API_KEY). */
  reason?: Record<Lang, string>;
  /** Calls marked global fire `api_key_error` on a 4xx or 5xx, not only on a 429. */
  global?: boolean;
  /** The element works: the call's content is there. */
  works(element: Locator, ctx: Ctx): Promise<void>;
  /** What the viewer had is still there after the failure. */
  kept?(element: Locator, ctx: Ctx): Promise<void>;
}

const TEXTS = { en: { ...en, player: playerEn }, fr } as const;
const CHECKOUT = { en: checkoutEn, fr: checkoutFr } as const;

const eventLinks = (element: Locator) => element.locator('[part~="event-link"]');
/** A schedule that works: its first event's link shows. */
const scheduleWorks = (element: Locator) => expect(eventLinks(element).first()).toBeVisible({ timeout: 15_000 });
const playerWorks = async (element: Locator) => {
  await expect(element.locator('[part~="play"]')).toBeVisible({ timeout: 15_000 });
};
const noError = async (element: Locator) => {
  await expect(element.locator('[part~="error"]')).toHaveCount(0, { timeout: 15_000 });
};

/** The API path of a request, without the origin (the proxy's or the server's). */
const apiPath = (path: string) => path.split('?')[0]!;

const CARD = '4242 4242 4242 4242';

/** The Payment Element's card number field, in English or French. */
const CARD_NUMBER = /^(Card number|Numéro de carte)$/;

/** From the summary to the card step, a card typed into the (light DOM) Payment Element, then Pay. */
async function payWithCard(ctx: Ctx, checkout: Locator, card = CARD): Promise<void> {
  await expect(checkout.locator('[part~="total"]').first()).toBeVisible({ timeout: 15_000 });
  ctx.total = (await checkout.locator('[part~="total"]').first().innerText()).replace(/^\D*/, '').trim();
  await enterCard(checkout, card);
  await checkout.locator('[part~="pay"]').click();
}

/**
 * Pays with a card that asks for 3-D Secure and completes the bank's challenge: the order is not paid in stripe/buy's
 * answer, so the checkout polls it until Stripe's webhook has paid it.
 */
async function payThroughChallenge(ctx: Ctx, checkout: Locator): Promise<void> {
  await payWithCard(ctx, checkout, CARD_3DS);
  await completeChallenge(ctx.page);
}

/** The chosen offer is still the one on screen. */
async function offerKept(checkout: Locator, ctx: Ctx): Promise<void> {
  await expect(checkout).toContainText(TEXTS[ctx.lang].player.paywall.event);
}

const schedule = (): string => '<channel-schedule kind="live"></channel-schedule>';
const player = (ctx: Ctx): string => `<channel-player event-id="${ctx.ids['free-live']}"></channel-player>`;
const profile = (section: string) => (): string => `<channel-profile section="${section}"></channel-profile>`;
const checkout = (ctx: Ctx): string => `<channel-checkout event-id="${ctx.ids['paid-live']}"></channel-checkout>`;
const STRIPE = '<script src="/stripe-test-double.js"></script>';

const CALLS: Call[] = [
  {
    name: 'keys (the channel key file)',
    match: (path) => apiPath(path) === '/keys/demo.json',
    body: schedule,
    element: 'channel-schedule',
    shows: 'startup',
    works: scheduleWorks,
  },
  {
    name: 'api key',
    match: (path, method = 'POST') => method === 'POST' && apiPath(path) === '/api/get_api_key',
    body: schedule,
    element: 'channel-schedule',
    shows: 'startup',
    reason: { en: en.errors.noApiKey, fr: fr.errors.noApiKey },
    global: true,
    works: scheduleWorks,
  },
  {
    name: 'settings',
    match: (path) => apiPath(path) === '/api/settings',
    body: schedule,
    element: 'channel-schedule',
    // Their stored copy stands in (spec section 7).
    shows: 'without',
    global: true,
    works: scheduleWorks,
  },
  {
    name: 'colours',
    match: (path) => apiPath(path) === '/api/color-settings/web',
    body: schedule,
    element: 'channel-schedule',
    // The default colours stand in: a failing or unreadable colours call never stops the start-up, and is not a
    // global call (only its 429 fires api_key_error: src/stores/session.ts, issue 48).
    shows: 'without',
    works: scheduleWorks,
  },
  {
    name: 'profile',
    match: (path) => apiPath(path) === '/api/profile',
    signedIn: true,
    body: profile('orders'),
    element: 'channel-profile',
    shows: 'panel',
    heading: { en: formsEn.account.loadError, fr: formsFr.account.loadError },
    global: true,
    works: (element, ctx) => expect(element).toContainText(ctx.email!, { timeout: 15_000 }),
    // Not the sign-in form: the sign-in is kept.
    kept: (element) => expect(element.getByLabel('Password')).toHaveCount(0),
  },
  {
    name: 'geo',
    match: (path) => apiPath(path) === '/api/geo',
    body: player,
    element: 'channel-player',
    // Best effort: without it nobody is blocked.
    shows: 'without',
    works: playerWorks,
  },
  {
    name: 'events',
    match: (path) => apiPath(path) === '/api/events',
    body: schedule,
    element: 'channel-schedule',
    shows: 'panel',
    heading: { en: en.schedule.loadError, fr: fr.schedule.loadError },
    works: scheduleWorks,
  },
  {
    name: 'event',
    match: (path) => /^\/api\/events\/\d+$/.test(apiPath(path)),
    body: player,
    element: 'channel-player',
    shows: 'panel',
    heading: { en: playerEn.loadError, fr: fr.player.loadError },
    works: playerWorks,
  },
  {
    name: 'packages',
    match: (path) => apiPath(path) === '/api/packages',
    body: () => '<channel-checkout></channel-checkout>',
    head: STRIPE,
    element: 'channel-checkout',
    shows: 'panel',
    heading: { en: checkoutEn.offers.error, fr: checkoutFr.offers.error },
    works: (element) => expect(element.locator('[part~="offer"]').first()).toBeVisible({ timeout: 15_000 }),
  },
  {
    name: 'orders',
    match: (path) => apiPath(path) === '/api/orders',
    signedIn: true,
    body: profile('orders'),
    element: 'channel-profile',
    shows: 'panel',
    heading: { en: formsEn.account.list.loadError, fr: formsFr.account.list.loadError },
    works: noError,
  },
  {
    name: 'pricing',
    match: (path) => apiPath(path) === '/api/pricing',
    signedIn: true,
    body: checkout,
    head: STRIPE,
    element: 'channel-checkout',
    shows: 'panel',
    heading: { en: checkoutEn.summary.error, fr: checkoutFr.summary.error },
    works: (element) => expect(element.locator('[part~="total"]').first()).toBeVisible({ timeout: 15_000 }),
    kept: offerKept,
  },
  {
    name: 'stripe/buy',
    match: (path, method = 'POST') => method === 'POST' && apiPath(path) === '/api/stripe/buy',
    signedIn: true,
    body: checkout,
    head: STRIPE,
    element: 'channel-checkout',
    freshViewer: true,
    act: payWithCard,
    shows: 'pay',
    works: (element) => expect(element.locator('[part~="success"]')).toBeVisible({ timeout: 30_000 }),
    kept: async (element, ctx) => {
      // Still the payment step of the chosen offer, at its price.
      await expect(element.locator('[part~="payment"]')).toContainText(ctx.total!);
      // The typed card is still in its field.
      await expect(ctx.page.locator('channel-checkout [slot="card"]').getByLabel(CARD_NUMBER)).toHaveValue(CARD);
    },
  },
  {
    name: 'order polling',
    match: (path) => /^\/api\/orders\/\d+$/.test(apiPath(path)),
    signedIn: true,
    body: checkout,
    head: STRIPE,
    element: 'channel-checkout',
    freshViewer: true,
    act: payThroughChallenge,
    shows: 'poll',
    works: (element) => expect(element.locator('[part~="success"]')).toBeVisible({ timeout: 30_000 }),
    // The pending order is still followed: its reference shows, and a reload would pick it up (stored attempt).
    kept: async (element, ctx) => {
      await expect(element).toContainText(/\w/);
      const stored = await ctx.page.evaluate(() =>
        Object.keys(localStorage).filter((k) => k.startsWith('rudy_') && localStorage.getItem(k)?.includes('"order"')),
      );
      expect(stored.length, 'the pending order is stored for a reload').toBeGreaterThan(0);
    },
  },
  {
    name: 'favourites',
    match: (path) => apiPath(path) === '/api/favorites',
    signedIn: true,
    body: profile('favourites'),
    element: 'channel-profile',
    shows: 'panel',
    heading: { en: favouritesEn.loadError, fr: fr.favourites.loadError },
    works: noError,
  },
  {
    name: 'clips',
    match: (path) => apiPath(path) === '/api/clips/user',
    signedIn: true,
    body: profile('clips'),
    element: 'channel-profile',
    shows: 'panel',
    heading: { en: formsEn.account.list.loadError, fr: formsFr.account.list.loadError },
    works: noError,
  },
  {
    name: 'library',
    match: (path) => apiPath(path) === '/api/vod-media-rails',
    body: () => '<channel-schedule kind="library"></channel-schedule>',
    element: 'channel-schedule',
    shows: 'panel',
    heading: { en: libraryEn.loadError, fr: libraryFr.loadError },
    works: (element) => expect(element.locator('[part~="library-rail"]').first()).toBeVisible({ timeout: 15_000 }),
  },
];

// ------------------------------------------------------------------ one case

const PAGE_PATH = '/__faults/page.html';

function html(ctx: Ctx, call: Call): string {
  return `<!doctype html><html lang="${ctx.lang}"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>API fault</title>${call.head ?? ''}
<script src="/channel-elements.js" data-channel-key="demo" async></script></head>
<body><main>${call.body(ctx)}</main></body></html>`;
}

/** Counts `api_key_error` events on the page's window. */
async function watchKeyErrors(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __keyErrors: number };
    w.__keyErrors = 0;
    window.addEventListener('api_key_error', () => w.__keyErrors++);
  });
}
const keyErrors = (page: Page) => page.evaluate(() => (window as unknown as { __keyErrors: number }).__keyErrors);

/** The viewer the calls that buy nothing share in this worker. */
let shared: Awaited<ReturnType<typeof registerViewer>> | undefined;
/** The seeded events' ids (the same for the whole run). */
let ids: Record<string, number> | undefined;

async function runCase(
  { page, request }: { page: Page; request: APIRequestContext },
  call: Call,
  fault: Fault,
  lang: Lang,
): Promise<void> {
  ids ??= await demoEventIds(request);
  const ctx: Ctx = { page, request, origin: BUNDLE_ORIGIN, ids, lang };
  if (call.signedIn) {
    const viewer = call.freshViewer
      ? await registerViewer(request, 'faults')
      : (shared ??= await registerViewer(request, 'faults'));
    ctx.email = viewer.email;
    await page.addInitScript(
      (value) => localStorage.setItem('rudy_token.demo', JSON.stringify({ v: value, e: Date.now() + 3_600_000 })),
      viewer.token,
    );
  }
  await watchKeyErrors(page);
  // The page's clock runs as usual until a case moves it forward (the 30 s timeout, the Reload countdown).
  await page.clock.install();

  let proxy: FaultProxy | undefined;
  let faulting = true;
  let hits = 0;
  if (fault.how.by === 'proxy') {
    proxy = await startFaultProxy(BUNDLE_ORIGIN, fault.how.fault, call.match);
    ctx.origin = proxy.origin;
  } else {
    const how = fault.how;
    await page.route(
      (url) => call.match(url.pathname + url.search),
      async (route: Route) => {
        const req = route.request();
        const url = new URL(req.url());
        if (!faulting || !call.match(url.pathname + url.search, req.method()) || req.method() === 'OPTIONS') {
          return route.fallback();
        }
        hits++;
        if (how.by === 'reset') return route.abort('connectionreset');
        // A held request: never answered (the client's own timer gives up on it).
        if (how.by === 'hang') return;
        return route.fulfill({
          status: how.status,
          contentType: how.contentType,
          body: how.body,
          ...(how.headers ? { headers: how.headers } : {}),
        });
      },
    );
  }
  const count = () => (proxy ? proxy.hits() : hits);
  const lift = () => {
    faulting = false;
    proxy?.lift();
  };

  try {
    // The proxy serves the page itself: a page Playwright fulfils has no address, and Chromium then keeps it
    // from the reference server's media on the loopback address.
    if (proxy) proxy.serve(PAGE_PATH, html(ctx, call));
    else {
      await page.route(`${ctx.origin}${PAGE_PATH}`, (route) =>
        route.fulfill({ contentType: 'text/html', body: html(ctx, call) }),
      );
    }
    await page.goto(`${ctx.origin}${PAGE_PATH}`);
    const element = page.locator(call.element).first();
    if (call.act) await call.act(ctx, element);

    if (fault.kind === 'timeout') {
      // Each attempt waits 30 s on the page's clock: the first, then (after the 1 s retry delay) the second.
      for (let attempt = 1; attempt <= fault.requests; attempt++) {
        await expect.poll(count, { timeout: 15_000 }).toBe(attempt);
        // The first request may be the loader's, sent while the element's code loads; the element adopts it under
        // its own 30 s timer, which exists only once that code has run. Moving the clock before would leave the
        // timer to run its 30 s in real time (seen on a loaded machine).
        await expect
          .poll(() => page.evaluate((tag) => customElements.get(tag) !== undefined, call.element), { timeout: 15_000 })
          .toBe(true);
        if (proxy) {
          // The trickle has started: the headers are in and the body is on its way.
          const now = proxy.written();
          await expect.poll(() => proxy!.written(), { timeout: 5_000 }).toBeGreaterThan(now + 2);
        } else {
          await page.waitForTimeout(300);
        }
        await page.clock.fastForward(30_000);
      }
    }

    // What the viewer reads.
    const t = TEXTS[lang];
    const reason = t.errors[fault.kind];
    switch (call.shows) {
      case 'startup':
        await expect(element).toContainText(t.errors.startup, { timeout: 20_000 });
        // A server failure's own line would only repeat the headline's technical difficulties.
        if (call.reason) await expect(element).toContainText(call.reason[lang]);
        else if (fault.kind !== 'technical') await expect(element).toContainText(reason);
        await expect(element.getByRole('button', { name: t.common.reload })).toBeVisible();
        break;
      case 'panel':
        await expect(element).toContainText(call.heading![lang], { timeout: 20_000 });
        await expect(element).toContainText(reason);
        await expect(element.getByRole('button', { name: t.common.retry })).toBeVisible();
        break;
      case 'without':
        await call.works(element, ctx);
        await noError(element);
        break;
      case 'pay':
        await expect(element.locator('[part~="pay-error"]')).toContainText(
          `${CHECKOUT[lang].errors.request} ${reason}`,
          { timeout: 20_000 },
        );
        break;
      case 'poll':
        await expect(element.locator('[part~="error"]')).toContainText(CHECKOUT[lang].pollError.title, {
          timeout: 30_000,
        });
        await expect(element).toContainText(reason);
        break;
    }
    // Never blank: the element's shadow root has something to read.
    expect((await element.evaluate((e) => e.shadowRoot?.textContent ?? '')).trim()).not.toBe('');

    // How many requests went out: none more after a while (a retry would come 1 s later on the page's clock).
    expect(count(), 'requests to the endpoint').toBe(fault.requests);
    await page.clock.runFor(1_100);
    await page.waitForTimeout(150);
    expect(count(), 'requests to the endpoint, a moment later').toBe(fault.requests);
    const fired = fault.status === 429 || (call.global && fault.status !== undefined) ? 1 : 0;
    expect(await keyErrors(page), 'api_key_error events').toBe(fired);

    // Nothing the viewer had is lost.
    await call.kept?.(element, ctx);

    // Lifted, the element recovers: by Retry where it offers one (after the Reload countdown of a key error).
    lift();
    switch (call.shows) {
      case 'startup':
        if (fired) await page.clock.fastForward(61_000);
        await element.getByRole('button', { name: t.common.reload }).click();
        break;
      case 'panel':
      case 'poll':
        await element.getByRole('button', { name: t.common.retry }).click();
        break;
      case 'pay':
        await element.locator('[part~="pay"]').click();
        break;
      case 'without':
        break;
    }
    await call.works(element, ctx);
  } finally {
    await proxy?.close();
  }
}

// ------------------------------------------------------------------ the matrix

/** The cases `npm test` runs: each fault once, each call at least once, spread over the table. */
function fast(callIndex: number, faultIndex: number): boolean {
  return (callIndex + faultIndex * 3) % CALLS.length === 0;
}

CALLS.forEach((call, c) => {
  test.describe(call.name, () => {
    FAULTS.forEach((fault, f) => {
      test(`${call.name} under ${fault.name}`, fast(c, f) ? {} : { tag: '@full' }, async ({ page, request }) => {
        await runCase({ page, request }, call, fault, 'en');
      });
    });
  });
});

// French: the same texts in the viewer's language, one case per way a failure shows.
const FRENCH: [string, string][] = [
  ['events', '500'],
  ['event', 'a connection reset'],
  ['api key', '429'],
  ['pricing', 'malformed JSON'],
  ['stripe/buy', '503'],
  ['profile', 'a hang past 30 s'],
];
test.describe('a Retry-After beyond 10 s', () => {
  for (const name of ['events', 'api key', 'stripe/buy']) {
    const call = CALLS.find((x) => x.name === name)!;
    test(`${call.name} under ${LONG_RETRY_AFTER.name}`, { tag: '@full' }, async ({ page, request }) => {
      await runCase({ page, request }, call, LONG_RETRY_AFTER, 'en');
    });
  }
});

test.describe('in French', () => {
  for (const [callName, faultName] of FRENCH) {
    const call = CALLS.find((x) => x.name === callName)!;
    const fault = FAULTS.find((x) => x.name === faultName)!;
    test(`${call.name} under ${fault.name} (fr)`, { tag: '@full' }, async ({ page, request }) => {
      await runCase({ page, request }, call, fault, 'fr');
    });
  }
});
