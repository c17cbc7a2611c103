// Element tests of <channel-player>: attributes in, requests out, what a viewer sees and the public events.
// The element runs against the unit tests' fake world (test/unit/helpers.ts): a fake fetch that answers the
// keys host and the channel API with contract-valid fixtures and records every request, a fake clock for the
// player's timers (start time, re-checks, retries), and a recording logger. Global events go through `window`,
// as on a real page. No real media is played: a stream URL only has to reach the <video>.
// Players of event 501 (live in most tests) say prefer-playback="native": by default a live stream plays through
// hls.js where the browser has Media Source Extensions (for its DVR window), and the fake world has no media server
// for hls.js; what is tested here is what reaches the <video>.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { Package, Subscription, User } from '../../src/api/contract.js';
import { setEnv } from '../../src/lib/env.js';
import { GIVE_UP_MS, RELOAD_EVERY_MS } from '../../src/media/playback.js';
import { RECHECK_MS, RECHECK_SLOW_MS, RECHECKS } from '../../src/stores/player.js';
import { resetSession } from '../../src/stores/session.js';
import { signIn } from '../../src/stores/sign-in.js';
import { start } from '../../elements/channel-player.js';
import { Deferred, flush, installWorld, ok, T0, teardown, until, type Reply, type World } from '../unit/helpers.js';
import { checked, wireEvent } from '../fixtures/contract.js';

const API = 'http://api.test/api';
const KEYS = 'http://api.test/keys';
const CHANNEL_KEY = 'ck-demo';
const API_KEY = 'ak-123';
const EVENT_ID = 501;
const LIVE_URL = 'https://media.test/live/501/master.m3u8?sig=live';
const VOD_URL = 'https://media.test/vod/501/master.m3u8?sig=vod';
const NOW_S = T0 / 1000;
/** Signed stream URLs as the reference server makes them (`/media/s/{expiry}.{viewer}.{signature}/{stream}/...`). */
const signed = (expiry: number, signature: string, kind = 'master') =>
  `https://media.test/media/s/${expiry}.v0.${signature}/501/${kind}.m3u8`;
const STALE_URL = signed(NOW_S + 600, 'c3RhbGUtc2lnbmF0dXJl');
const FRESH_URL = signed(NOW_S + 7200, 'ZnJlc2gtc2lnbmF0dXJl');
const EXPIRED = { status: 403, body: { message: 'The playback URL has expired.' } };
const BAD_SIGNATURE = { status: 403, body: { message: 'Invalid playback URL signature.' } };

// ------------------------------------------------------------------ fixtures (contract-valid)

/** An event as the channel sends it: by default free, live, started ten minutes ago, without streams. */
const event = (fields: Record<string, unknown> = {}) =>
  wireEvent({
    id: EVENT_ID,
    name: 'Spring Final',
    type: 'free',
    event_utc_ts: NOW_S - 600,
    time_zone: 'EST',
    stream_status: 'live',
    media: [],
    ...fields,
  });

const live = (url = LIVE_URL) => [{ type: 'live', url }];

const team = (id: number, name: string, short: string) => ({ id, name, short_name: short });

/** A paid hockey game the guest has no access to: no stream URL, a single-event pass, a category. */
const PAID = event({
  type: 'paid',
  has_access: false,
  price: 12.5,
  single_event_package_id: 900,
  event_category_id: 7,
  category: { id: 7, name: "Men's Hockey" },
  participants: [team(21, 'Northfield Huskies', 'NFU'), team(22, 'Lakeside State Lakers', 'LSU')],
  home_team_id: 21,
});
const PAID_TITLE = 'LSU @ NFU';
/** The same game once bought: the server now lists the signed stream. */
const PAID_UNLOCKED = event({ ...PAID, has_access: true, media: live() });

const PACKAGES = [
  // The single pass sells for the event's own price (12.50), not its list price.
  { id: 900, name: 'Final single pass', price: 3, type: 'single' },
  { id: 901, name: "Men's Hockey pass", price: 49, base_price: 59, type: 'category', event_categories: [7] },
  // Another category: must not be offered.
  { id: 902, name: 'Basketball pass', price: 39, type: 'category', event_categories: [2] },
  {
    id: 903,
    name: 'Huskies team pass',
    price: 25,
    type: 'team',
    is_team_pass: true,
    participants: [21, 99],
    event_categories: [7],
  },
].map((p) => checked(Package, p));

const SUBSCRIPTIONS = [
  { id: 32, name: 'All-access annual', price: 99, offer: 'annual', weight: 1, trial_period: 0 },
  { id: 31, name: 'All-access monthly', price: 9.99, offer: 'monthly', trial_period: 7 },
].map((s) => checked(Subscription, s));

/**
 * The paywall rows (kind, name, price, trial) a viewer of PAID sees, in English with the channel's euros; the
 * category pass's regular price struck through after its price.
 */
const OFFER_ROWS = [
  ['Single event pass', 'Final single pass', 'EUR €12.50'],
  ['Team pass', 'Huskies team pass', 'EUR €25.00'],
  ['Category pass', "Men's Hockey pass", 'EUR €49.00EUR €59.00'],
  ['Monthly subscription', 'All-access monthly', 'EUR €9.99 / month', '7-day free trial'],
  ['Annual subscription', 'All-access annual', 'EUR €99.00 / year'],
];

// ------------------------------------------------------------------ fake platform

let world: World;

const eventUrl = `${API}/events/${EVENT_ID}`;
/** Answers `GET events/501` with these replies in order (the last repeats). */
const serveEvent = (...replies: Reply[]) => world.server.on('GET', eventUrl, ...replies);
const eventCalls = () => world.server.to('GET', eventUrl);
const mediaCalls = () => world.server.requests.filter((r) => new URL(r.url).hostname === 'media.test');
const notFound = { status: 404, body: { message: 'Event not found' } };
const serverError = { status: 500, body: { message: 'Server Error' } };

function useFakePlatform(geoBlocked = false): void {
  resetSession();
  world = installWorld();
  // Page events (a purchase elsewhere on the page) travel through window, as in a browser.
  setEnv({ eventTarget: window });
  world.server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: CHANNEL_KEY, name: 'Demo' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: API_KEY }))
    .on('GET', `${API}/settings`, ok({ name: 'Demo', language: 'en', currency: 'EUR', auth: { remote_auth: 0 } }))
    .on('GET', `${API}/color-settings/web`, ok({ 'primary-color': '#1d4ed8' }))
    .on('GET', `${API}/geo`, ok({ country: 'Canada', country_code: 'CA', is_geo_blocked: geoBlocked }))
    .on('GET', `${API}/packages`, ok(PACKAGES))
    .on('GET', `${API}/subscriptions`, ok(SUBSCRIPTIONS))
    // A native player that fails asks for the playlist's status; it exists.
    .on('GET', LIVE_URL.split('?')[0]!, { raw: '#EXTM3U' })
    .on('GET', VOD_URL.split('?')[0]!, { raw: '#EXTM3U' });
}

// ------------------------------------------------------------------ DOM helpers

const root = (el: Element) => el.shadowRoot!;
const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => root(el).querySelector<T>(selector);
const $$ = <T extends Element = HTMLElement>(el: Element, selector: string) => [
  ...root(el).querySelectorAll<T>(selector),
];
const text = (el: Element) => root(el).textContent ?? '';
/** Whether a part is shown (assertions use this, not the node: chai's inspect of a React node can hang the page). */
const has = (el: Element, part: string) => $(el, `[part~="${part}"]`) !== null;
const partText = (el: Element, part: string) => $(el, `[part~="${part}"]`)?.textContent ?? null;
const video = (el: Element) => $<HTMLVideoElement>(el, 'video[part~="video"]');

/**
 * Watches for `part` appearing in the element's shadow root, even for a moment; `seen()` says whether it did.
 * (A refusal that is renewed must never flash the denied message.)
 */
function watchPart(el: Element, part: string): { seen(): boolean; stop(): void } {
  let seen = has(el, part);
  const selector = `[part~="${part}"]`;
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof Element && (node.matches(selector) || node.querySelector(selector))) seen = true;
      }
      if (record.type === 'attributes' && (record.target as Element).matches?.(selector)) seen = true;
    }
  });
  observer.observe(root(el), { subtree: true, childList: true, attributes: true, attributeFilter: ['part'] });
  return { seen: () => seen || has(el, part), stop: () => observer.disconnect() };
}

async function shows(el: Element, words: string): Promise<void> {
  await waitUntil(() => text(el).includes(words), `expected the element to show "${words}"; it shows "${text(el)}"`, {
    timeout: 4000,
  });
}
async function showsPart(el: Element, part: string): Promise<void> {
  await waitUntil(() => has(el, part), `expected part "${part}"; the element shows "${text(el)}"`, { timeout: 4000 });
}

/** The paywall's offers as rows of their texts (kind, name, price and trial, without the button). */
/** What a sighted viewer reads of each offer (words for screen readers left out, no-break spaces as spaces). */
const offerRows = (el: Element) =>
  $$(el, '[part~="offer"]').map((li) =>
    [...li.querySelectorAll('span:not(.sr-only)')].map((s) =>
      [...s.childNodes]
        .filter((n) => !(n instanceof Element && n.classList.contains('sr-only')))
        .map((n) => n.textContent)
        .join('')
        .replace(/[\u00a0\u202f]/g, ' '),
    ),
  );

async function paywallLoaded(el: Element): Promise<void> {
  await waitUntil(
    () => offerRows(el).length === OFFER_ROWS.length,
    `expected the offers; the element shows "${text(el)}"`,
    {
      timeout: 4000,
    },
  );
}

/** Runs `act` and returns the events of `type` that reached the document meanwhile. */
function fired(type: 'channel-purchase-request' | 'channel-login-request', act: () => void): CustomEvent[] {
  const seen: CustomEvent[] = [];
  const on = (e: Event) => seen.push(e as CustomEvent);
  document.addEventListener(type, on);
  try {
    act();
  } finally {
    document.removeEventListener(type, on);
  }
  return seen;
}

/** Presses the big Play button and waits until the <video> was given `url`. */
async function pressPlay(el: Element, url: string): Promise<void> {
  $<HTMLButtonElement>(el, 'button[part~="play"]')!.click();
  await waitUntil(() => video(el)?.getAttribute('src') === url, `expected the video to load ${url}`, { timeout: 4000 });
}

/** Waits until the <video> was given `url`. */
async function loads(el: Element, url: string): Promise<void> {
  await waitUntil(() => video(el)?.getAttribute('src') === url, `expected the video to load ${url}`, { timeout: 4000 });
}

/**
 * The stream of the video is refused as the reference server refuses a stale grant: its playlist now answers
 * `reply` (403), and the video reports an error (the native engine's; the player asks the playlist why).
 * `played` first shows a frame, as a stream that was playing has.
 */
function refuse(el: Element, url: string, reply: Reply, played = true): void {
  world.server.on('GET', url, reply);
  if (played) video(el)!.dispatchEvent(new Event('loadeddata'));
  video(el)!.dispatchEvent(new Event('error'));
}

/** Advances the fake clock until the player has made `count` event requests in all. */
async function advanceTo(count: number, ms: number): Promise<void> {
  await world.advance(ms);
  await until(() => eventCalls().length === count, `event request #${count}`);
}

// ------------------------------------------------------------------ tests

describe('<channel-player>', () => {
  before(() => {
    teardown();
    start({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://api.test/channel-elements.js');
  });
  beforeEach(() => useFakePlatform());
  afterEach(() => teardown());

  describe('attributes', () => {
    it('bad event-id and prefer-playback: translated notices, console warnings, nothing to play, no request', async () => {
      const el = await fixture(html`<channel-player event-id="abc" prefer-playback="flash"></channel-player>`);
      await shows(el, 'Nothing to play: give this player an event-id or a vod-id.');
      expect($$(el, '[part~="notice"]').map((n) => n.textContent)).to.deep.equal([
        'Ignored event-id="abc": digits only.',
        'Ignored prefer-playback="flash": native or mse.',
      ]);
      expect(world.lines.warn).to.include.members([
        '<channel-player>: ignored event-id="abc"; expected digits only.',
        '<channel-player>: ignored prefer-playback="flash"; expected native or mse.',
      ]);
      await flush();
      expect(world.server.requests.filter((r) => r.path.startsWith(`${API}/events`))).to.have.length(0);
      expect(video(el)).to.equal(null);
    });

    it('a bad prefer-playback next to a valid event-id is ignored and the event still loads', async () => {
      serveEvent(ok(event({ media: live() })));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="flash"></channel-player>`);
      await waitUntil(() => video(el), 'the video');
      expect(partText(el, 'notice')).to.equal('Ignored prefer-playback="flash": native or mse.');
      expect(eventCalls()).to.have.length(1);
    });

    it('embed: no header or title, only the stage; autoplay gives the video its stream at once', async () => {
      serveEvent(ok(event({ media: live() })));
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" embed autoplay></channel-player>`,
      );
      await waitUntil(() => video(el)?.getAttribute('src') === LIVE_URL, 'the stream in the video');
      expect(has(el, 'header')).to.equal(false);
      expect(has(el, 'title')).to.equal(false);
      expect(has(el, 'stage')).to.equal(true);
      expect(has(el, 'play'), 'no Play button with autoplay').to.equal(false);
      expect(video(el)!.getAttribute('aria-label')).to.equal('Spring Final');
      // The preroll list came with the settings: no call of its own (the spec has none).
      expect(world.server.to('GET', `${API}/prerolls`)).to.have.length(0);
    });
    it('autoplay added after the Play button showed starts the stream without a click', async () => {
      serveEvent(ok(event({ media: live() })));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await showsPart(el, 'play');
      expect(video(el)?.getAttribute('src') ?? null, 'nothing loads before autoplay').to.equal(null);
      el.setAttribute('autoplay', '');
      el.setAttribute('muted', '');
      await waitUntil(() => video(el)?.getAttribute('src') === LIVE_URL, 'the stream in the video', { timeout: 4000 });
      expect(has(el, 'play')).to.equal(false);
      expect(eventCalls(), 'the same event, not loaded again').to.have.length(1);
    });
    it("the browser's controls appear with the stream's first frame, not before", async () => {
      serveEvent(ok(event({ media: live() })));
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay muted></channel-player>`,
      );
      await waitUntil(() => video(el)?.getAttribute('src') === LIVE_URL, 'the stream in the video');
      expect(video(el)!.controls, 'no controls while the stream starts').to.equal(false);
      video(el)!.dispatchEvent(new Event('loadeddata'));
      await waitUntil(() => video(el)!.controls, 'the controls once a frame is there', { timeout: 4000 });
    });
  });

  describe('paywall', () => {
    beforeEach(() => serveEvent(ok(PAID)));

    it('lists the single pass at the event price, the passes covering it and the subscriptions, in the channel currency', async () => {
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await paywallLoaded(el);
      expect(partText(el, 'title')).to.equal(PAID_TITLE);
      expect($(el, '[part~="paywall"] h3')?.textContent).to.equal('Get a pass to watch');
      expect(text(el)).to.contain('This event needs a pass. Choose one of these:');
      expect(offerRows(el)).to.deep.equal(OFFER_ROWS);
      expect(text(el)).not.to.contain('Basketball pass');
      expect($$(el, '[part~="offer-button"]').map((b) => [b.textContent, b.getAttribute('aria-label')])).to.deep.equal(
        OFFER_ROWS.map(([, name]) => ['Choose', `Buy ${name}`]),
      );
      // Offers come from the keyless catalogues; no stream was asked for.
      for (const path of ['packages', 'subscriptions']) {
        const [call, ...more] = world.server.to('GET', `${API}/${path}`);
        expect(more, path).to.have.length(0);
        expect(call?.query, path).to.deep.equal({ no_limit: '1', channel_key: CHANNEL_KEY });
      }
      expect(video(el)).to.equal(null);
      expect(mediaCalls()).to.have.length(0);
    });

    it('choosing an offer fires channel-purchase-request with ids only', async () => {
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await paywallLoaded(el);
      const buttons = $$<HTMLButtonElement>(el, '[part~="offer-button"]');
      const requests = [0, 2, 4].flatMap((i) => fired('channel-purchase-request', () => buttons[i]!.click()));
      expect(requests).to.have.length(3);
      for (const e of requests) {
        expect(e.bubbles && e.composed, 'bubbles out of the shadow root').to.equal(true);
        expect(e.target === el, 'fired by the element').to.equal(true);
        expect(JSON.stringify(e.detail)).not.to.match(new RegExp(`${API_KEY}|${CHANNEL_KEY}|price|token`, 'i'));
      }
      // JSON drops the undefined packageId of non-event offers: the detail holds exactly these keys.
      expect(requests.map((e) => JSON.parse(JSON.stringify(e.detail)))).to.deep.equal([
        { eventId: EVENT_ID, offer: { type: 'event', id: EVENT_ID, packageId: 900 } },
        { eventId: EVENT_ID, offer: { type: 'package', id: 901 } },
        { eventId: EVENT_ID, offer: { type: 'subscription', id: 32 } },
      ]);
    });

    it('lang="fr" shows the paywall in French', async () => {
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" lang="fr"></channel-player>`,
      );
      await paywallLoaded(el);
      expect($(el, '[part~="paywall"] h3')?.textContent).to.equal('Obtenez un passe pour regarder');
      expect(text(el)).to.contain('Cet événement nécessite un passe. Choisissez parmi ceux-ci :');
      expect(partText(el, 'badge')).to.equal('En direct');
      const rows = offerRows(el);
      expect(rows.map((r) => r[0])).to.deep.equal([
        'Passe pour cet événement',
        "Passe d'équipe",
        'Passe de catégorie',
        'Abonnement mensuel',
        'Abonnement annuel',
      ]);
      expect(rows[0]![2]).to.equal('EUR €12,50');
      expect(rows[2]![2]).to.equal('EUR €49,00EUR €59,00');
      expect(rows[3]![2]).to.equal('EUR €9,99 / mois');
      expect(rows[3]![3]).to.equal("7 jours d'essai gratuit");
      expect(rows[4]![2]).to.equal('EUR €99,00 / an');
      // Screen readers hear the struck price in words.
      expect(
        $$(el, '[part~="offer-price"]')[2]!
          .querySelector('.sr-only')!
          .textContent!.replace(/\u00a0/g, ' '),
      ).to.equal(', prix normal EUR €59,00');
      expect($(el, '[part~="offer-button"]')?.textContent).to.equal('Choisir');
      expect($(el, '[part~="offer-button"]')?.getAttribute('aria-label')).to.equal('Acheter Final single pass');
    });

    it('passes an a11y audit', async () => {
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await paywallLoaded(el);
      await expect(el).shadowDom.to.be.accessible();
    });

    it('a purchase elsewhere on the page unlocks the player without a reload', async () => {
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await paywallLoaded(el);
      serveEvent(ok(PAID_UNLOCKED));
      window.dispatchEvent(new CustomEvent('channel-purchase-complete'));
      await waitUntil(() => !has(el, 'paywall') && video(el), 'the video instead of the paywall', { timeout: 4000 });
      expect(eventCalls()).to.have.length(2);
      expect(video(el)!.getAttribute('aria-label')).to.equal(PAID_TITLE);
      expect($(el, '[part~="play"]')?.getAttribute('aria-label')).to.equal(`Play ${PAID_TITLE}`);
      await pressPlay(el, LIVE_URL);
      // The preroll list came with the settings: no call of its own (the spec has none).
      expect(world.server.to('GET', `${API}/prerolls`)).to.have.length(0);
    });

    it('the Retry of a failed offers load loads the offers again', async () => {
      world.server.on('GET', `${API}/packages`, serverError);
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await until(() => world.server.to('GET', `${API}/packages`).length === 1, 'the packages request');
      await world.advance(1_000); // the client's single retry
      await shows(el, 'The passes could not be loaded.');
      world.server.on('GET', `${API}/packages`, ok(PACKAGES));
      $<HTMLButtonElement>(el, '[part~="paywall"] button')!.click();
      await paywallLoaded(el);
    });

    it('a page event while the offers load does not leave them loading', async () => {
      const packages = new Deferred();
      world.server.on('GET', `${API}/packages`, packages);
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await shows(el, 'Loading passes…');
      window.dispatchEvent(new CustomEvent('channel-purchase-complete'));
      await until(() => eventCalls().length === 2, 'the reload');
      packages.resolve(ok(PACKAGES));
      await paywallLoaded(el);
    });
  });

  describe('sign-in', () => {
    it('register-only as a guest asks to sign in; the button fires channel-login-request', async () => {
      serveEvent(ok(event({ type: 'register' })));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await showsPart(el, 'sign-in');
      expect($(el, '[part~="sign-in"] h3')?.textContent).to.equal('Sign in to watch');
      expect(text(el)).to.contain('This event is free for registered viewers.');
      const button = $<HTMLButtonElement>(el, '[part~="sign-in-button"]')!;
      expect(button.textContent).to.equal('Sign in to watch');
      const [request, ...more] = fired('channel-login-request', () => button.click());
      expect(more).to.have.length(0);
      expect(request!.bubbles && request!.composed, 'bubbles out of the shadow root').to.equal(true);
      expect(request!.detail).to.deep.equal({ reason: 'watch', eventId: EVENT_ID });
      expect(video(el)).to.equal(null);
    });
  });

  describe('the watch right', () => {
    /** Signs in an account with a subscription's access but no `watch` right (the channel withdrew it). */
    const withheld = () => {
      signIn({
        token: 'tok-withheld',
        user: User.parse({ id: 9, email: 'held@example.test', capabilities: ['download', 'vod_media_access'] }),
      });
      world.server.on('GET', `${API}/profile`, ok({ id: 9, email: 'held@example.test', capabilities: ['download'] }));
    };

    it('an account without it is told so instead of a paywall or the stream, and nothing plays', async () => {
      withheld();
      serveEvent(ok(event({ type: 'paid', has_access: true, media: live() })));
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay></channel-player>`,
      );
      await showsPart(el, 'no-watch');
      expect(partText(el, 'no-watch')).to.equal(
        'Your account cannot watch videos at the moment. Please contact the channel.',
      );
      expect(has(el, 'paywall'), 'buying would not help: no paywall').to.equal(false);
      expect(video(el)).to.equal(null);
      expect(mediaCalls()).to.have.length(0);
      await expect(el).shadowDom.to.be.accessible();
    });

    it('a free event still plays for it; in French the message is French', async () => {
      withheld();
      serveEvent(ok(event({ type: 'free', media: live() })));
      const free = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await waitUntil(() => video(free) || has(free, 'play'), 'the free event playable', { timeout: 4000 });
      expect(has(free, 'no-watch')).to.equal(false);
      free.remove();
      // Another event (the first answer is kept by the client's cache): a sign-up event the account may not watch.
      world.server.on(
        'GET',
        `${API}/events/502`,
        ok(event({ id: 502, type: 'register', has_access: true, media: live() })),
      );
      const fr = await fixture(
        html`<channel-player event-id="502" prefer-playback="native" lang="fr"></channel-player>`,
      );
      await showsPart(fr, 'no-watch');
      expect(partText(fr, 'no-watch')).to.equal(
        'Votre compte ne peut pas regarder de vidéos pour le moment. Veuillez contacter la chaîne.',
      );
    });
  });

  describe('upcoming', () => {
    const startsAt = NOW_S + 90;
    const upcoming = event({ stream_status: 'upcoming', event_utc_ts: startsAt });

    it('counts down, re-checks at the start time and plays once the event is live', async () => {
      serveEvent(ok(upcoming));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await showsPart(el, 'countdown-clock');
      expect(partText(el, 'countdown-clock')).to.equal('00:01:30');
      expect(text(el)).to.contain('Starts in');
      expect(partText(el, 'badge')).to.equal('Upcoming');

      await world.advance(89_000);
      await shows(el, '00:00:01');
      expect(eventCalls(), 'no re-check before the start').to.have.length(1);

      serveEvent(ok(event({ event_utc_ts: startsAt, media: live() })));
      await advanceTo(2, 1_500);
      await waitUntil(() => video(el), 'the video', { timeout: 4000 });
      expect(partText(el, 'badge-live')).to.equal('Live');
      expect(video(el)!.getAttribute('aria-label')).to.equal('Spring Final');
      expect(video(el)!.hasAttribute('src'), 'nothing loads before Play').to.equal(false);
      await pressPlay(el, LIVE_URL);
    });

    it(`re-checks every ${RECHECK_MS / 1000} s ${RECHECKS} times, then once a minute while the event stays upcoming, and plays once it is live`, async () => {
      serveEvent(ok(upcoming));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await showsPart(el, 'countdown-clock');
      // The load at the start time, then RECHECKS re-checks RECHECK_MS apart.
      await advanceTo(2, 90_500);
      await shows(el, 'Starting soon… the stream begins by itself.');
      for (let n = 1; n <= RECHECKS; n++) await advanceTo(2 + n, RECHECK_MS);
      // Then once a minute (an encoder late by half an hour still starts the stream by itself).
      await world.advance(RECHECK_SLOW_MS - 1000);
      await flush();
      expect(eventCalls()).to.have.length(2 + RECHECKS);
      await advanceTo(3 + RECHECKS, 1000);
      serveEvent(ok(event({ event_utc_ts: startsAt, media: live() })));
      await advanceTo(4 + RECHECKS, RECHECK_SLOW_MS);
      await waitUntil(() => video(el), 'the video', { timeout: 4000 });
      expect(partText(el, 'badge-live')).to.equal('Live');
    });

    it('removing the element stops the re-checks', async () => {
      serveEvent(ok(upcoming));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await showsPart(el, 'countdown-clock');
      await advanceTo(2, 90_500);
      await advanceTo(3, RECHECK_MS);
      el.remove();
      await world.advance(RECHECK_MS * 10);
      await flush();
      expect(eventCalls()).to.have.length(3);
    });

    it('a failed re-check does not end the re-checks', async () => {
      serveEvent(ok(upcoming));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await showsPart(el, 'countdown-clock');
      serveEvent(serverError, serverError, ok(event({ event_utc_ts: startsAt, media: live() })));
      await advanceTo(2, 90_500);
      await advanceTo(3, 1_000); // the client's single retry, which fails too
      await advanceTo(4, RECHECK_MS);
      await waitUntil(() => video(el), 'the video', { timeout: 4000 });
    });
  });

  describe('region', () => {
    it('a geo-blocked guest (geo answer) is told so, and no stream is requested', async () => {
      useFakePlatform(true);
      serveEvent(ok(event({ media: live() })));
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay></channel-player>`,
      );
      await showsPart(el, 'geo-blocked');
      expect(partText(el, 'geo-blocked')).to.equal('The content is not available in your region');
      expect($(el, '[part~="geo-blocked"]')?.getAttribute('role')).to.equal('alert');
      await flush();
      expect(video(el)).to.equal(null);
      // No stream and no preroll media (the preroll list itself is fetched alongside the event, before access is known).
      expect(mediaCalls()).to.have.length(0);
    });

    it('an event flagged is_geo_blocked is told so, and no stream is requested', async () => {
      serveEvent(ok(event({ is_geo_blocked: true, media: live() })));
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay></channel-player>`,
      );
      await shows(el, 'The content is not available in your region');
      await flush();
      expect(video(el)).to.equal(null);
      expect(mediaCalls()).to.have.length(0);
    });
  });

  describe('a stream refused mid-play (signed URLs are bound to the client address and expire after 2 h)', () => {
    beforeEach(() => {
      // The playlists exist until a test refuses them (the native engine fails on media.test and asks why).
      world.server.on('GET', STALE_URL, { raw: '#EXTM3U' }).on('GET', FRESH_URL, { raw: '#EXTM3U' });
    });

    it('a live stream refused after playing reloads the event quietly and plays the freshly signed URL, never saying "refused"', async () => {
      serveEvent(ok(event({ media: live(STALE_URL) })), ok(event({ media: live(FRESH_URL) })));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native" muted></channel-player>`);
      await showsPart(el, 'play');
      await pressPlay(el, STALE_URL);
      const denied = watchPart(el, 'denied');
      refuse(el, STALE_URL, EXPIRED);
      await until(() => eventCalls().length === 2, 'the event asked for again');
      // The viewer pressed Play once: the fresh URL starts by itself.
      await loads(el, FRESH_URL);
      await flush();
      expect(denied.seen(), 'the denied message never showed').to.equal(false);
      expect(text(el)).not.to.contain('Access to this stream was refused.');
      expect(has(el, 'play'), 'no Play button again').to.equal(false);
      denied.stop();
    });

    it('the fresh URL refused as well (same episode): "Access to this stream was refused.", and no more reloads', async () => {
      serveEvent(ok(event({ media: live(STALE_URL) })), ok(event({ media: live(FRESH_URL) })));
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay muted></channel-player>`,
      );
      await loads(el, STALE_URL);
      refuse(el, STALE_URL, BAD_SIGNATURE);
      await loads(el, FRESH_URL);
      // The fresh URL even shows a frame before it is refused: the allowance is spent all the same.
      refuse(el, FRESH_URL, BAD_SIGNATURE);
      await showsPart(el, 'denied');
      expect(partText(el, 'denied')).to.equal('Access to this stream was refused.Try again');
      expect($(el, '[part~="denied"]')?.getAttribute('role')).to.equal('alert');
      await world.advance(GIVE_UP_MS * 2);
      video(el)!.dispatchEvent(new Event('error'));
      await world.advance(GIVE_UP_MS * 2);
      expect(eventCalls(), 'one reload per refusal episode').to.have.length(2);
      expect(has(el, 'denied')).to.equal(true);
    });

    it('a stream refused at its first load (no access) says so at once, without asking for the event again', async () => {
      serveEvent(ok(event({ media: live(STALE_URL) })), ok(event({ media: live(FRESH_URL) })));
      world.server.on('GET', STALE_URL, EXPIRED);
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay muted></channel-player>`,
      );
      await loads(el, STALE_URL);
      video(el)!.dispatchEvent(new Event('error'));
      await showsPart(el, 'denied');
      expect(partText(el, 'denied')).to.equal('Access to this stream was refused.Try again');
      await world.advance(GIVE_UP_MS);
      expect(eventCalls()).to.have.length(1);
      expect(video(el)!.getAttribute('src')).to.equal(STALE_URL);
    });

    it('a finished event refused mid-play resumes the freshly signed recording where it stopped', async () => {
      const staleVod = signed(NOW_S + 600, 'c3RhbGUtdm9k', 'vod');
      const freshVod = signed(NOW_S + 7200, 'ZnJlc2gtdm9k', 'vod');
      world.server.on('GET', staleVod, { raw: '#EXTM3U' }).on('GET', freshVod, { raw: '#EXTM3U' });
      const finished = (url: string) => event({ stream_status: 'finished', media: [{ type: 'vod', url }] });
      serveEvent(ok(finished(staleVod)), ok(finished(freshVod)));
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay muted></channel-player>`,
      );
      await loads(el, staleVod);
      // Records the player's seeks (a video without media keeps a position it is given, but never moves).
      const v = video(el)!;
      const seeks: number[] = [];
      const position = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'currentTime')!;
      Object.defineProperty(v, 'currentTime', {
        configurable: true,
        get: () => position.get!.call(v) as number,
        set: (at: number) => {
          seeks.push(at);
          position.set!.call(v, at);
        },
      });
      v.currentTime = 42; // where the viewer was when the grant went stale
      seeks.length = 0;
      refuse(el, staleVod, EXPIRED);
      await loads(el, freshVod);
      expect(eventCalls()).to.have.length(2);
      expect(seeks, 'no seek before the new source knows its duration').to.deep.equal([]);
      v.dispatchEvent(new Event('loadedmetadata'));
      v.dispatchEvent(new Event('loadedmetadata'));
      expect(seeks, 'then one seek to where the stale one stopped').to.deep.equal([42]);
      expect(has(el, 'denied')).to.equal(false);
    });

    it('Retry after the live stream was lost loads a fresh event and plays its new URL', async () => {
      serveEvent(ok(event({ media: live(STALE_URL) })), ok(event({ media: live(FRESH_URL) })));
      const el = await fixture(
        html`<channel-player event-id="501" prefer-playback="native" autoplay muted></channel-player>`,
      );
      await loads(el, STALE_URL);
      // Lost (the playlist is still there, the media is not): reconnect attempts until it gives up.
      video(el)!.dispatchEvent(new Event('error'));
      await showsPart(el, 'reconnecting');
      await world.advance(GIVE_UP_MS + RELOAD_EVERY_MS);
      await showsPart(el, 'retry');
      expect(text(el)).to.contain('The live stream was lost.');
      expect(eventCalls()).to.have.length(1);
      $<HTMLButtonElement>(el, '[part~="retry"]')!.click();
      await until(() => eventCalls().length === 2, 'the event asked for again');
      await loads(el, FRESH_URL);
      expect(has(el, 'retry')).to.equal(false);
    });
  });

  describe('other states', () => {
    it('finished without a recording says so', async () => {
      serveEvent(ok(event({ stream_status: 'finished', has_recording: false })));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await showsPart(el, 'no-recording');
      expect(partText(el, 'no-recording')).to.equal('This event has finished and no recording is available.');
      expect(partText(el, 'badge')).to.equal('On demand');
      expect(video(el)).to.equal(null);
    });

    it('a finished event with a recording plays its vod stream', async () => {
      serveEvent(ok(event({ stream_status: 'finished', media: [{ type: 'vod', url: VOD_URL }, ...live()] })));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await waitUntil(() => video(el), 'the video', { timeout: 4000 });
      await pressPlay(el, VOD_URL);
    });

    it('an event whose stream is an embeddable page plays it in a sandboxed frame; play() cannot drive it', async () => {
      const EMBED = 'https://embed.example/e/501?autoplay=1';
      serveEvent(ok(event({ media: [{ type: 'embedded', url: EMBED }] })));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await showsPart(el, 'embedded');
      const frame = $<HTMLIFrameElement>(el, '[part~="embedded"]')!;
      expect(frame.getAttribute('src')).to.equal(EMBED);
      expect(frame.title).to.equal('Spring Final');
      expect([...frame.sandbox].sort()).to.deep.equal(
        [
          'allow-popups',
          'allow-popups-to-escape-sandbox',
          'allow-presentation',
          'allow-same-origin',
          'allow-scripts',
        ].sort(),
      );
      expect(frame.sandbox.contains('allow-top-navigation'), 'it cannot navigate the host page').to.equal(false);
      expect(video(el)).to.equal(null);
      expect(await (el as HTMLElement & { play(): Promise<void> }).play().catch((e: DOMException) => e.name)).to.equal(
        'NotAllowedError',
      );
      await expect(el).shadowDom.to.be.accessible();
    });

    it('the access rules hold for an embeddable page: the paywall first', async () => {
      serveEvent(ok(event({ ...PAID, media: [{ type: 'embedded', url: 'https://embed.example/e/501' }] })));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await paywallLoaded(el);
      expect(has(el, 'embedded')).to.equal(false);
    });

    it('an embeddable page that is not an http(s) URL is no stream: unavailable', async () => {
      serveEvent(ok(event({ media: [{ type: 'embedded', url: 'javascript:alert(1)' }] })));
      const other = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await waitUntil(() => (partText(other, 'message') ?? '') !== '', 'a message');
      expect(has(other, 'embedded')).to.equal(false);
      expect(partText(other, 'message')).to.contain('not available');
    });

    it('a 404 event: "This video could not be found." without Retry', async () => {
      serveEvent(notFound);
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await showsPart(el, 'error');
      expect($(el, '[part~="error"] p')?.textContent).to.equal('This video could not be found.');
      expect($(el, '[part~="error"]')?.getAttribute('role')).to.equal('alert');
      expect(has(el, 'retry')).to.equal(false);
      await world.advance(5_000);
      expect(eventCalls(), 'a 404 is not retried').to.have.length(1);
    });

    it('a 500: the load error with Retry, which requests the event again', async () => {
      serveEvent(serverError, serverError, ok(event({ media: live() })));
      const el = await fixture(html`<channel-player event-id="501" prefer-playback="native"></channel-player>`);
      await until(() => eventCalls().length === 1, 'the first attempt');
      await advanceTo(2, 1_000); // the client's single retry
      await showsPart(el, 'retry');
      expect($(el, '[part~="error"] p')?.textContent).to.equal('The video could not be loaded.');
      expect(partText(el, 'retry')).to.equal('Try again');
      $<HTMLButtonElement>(el, '[part~="retry"]')!.click();
      await waitUntil(() => video(el), 'the video after Retry', { timeout: 4000 });
      expect(eventCalls()).to.have.length(3);
    });
  });
});
