// Element tests of <channel-schedule>: attributes in, requests out, what a viewer sees and the public event.
// The element runs against a fake fetch (setEnv) that answers the keys host and the channel API with
// contract-valid fixtures and records every request, so each test can assert what went over the wire.
import { expect, fixture, html, nextFrame, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { Event as ChannelEvent, EventCategory, EventLocation } from '../../src/api/contract.js';
import { EventList } from '../../src/api/contract.js';
import { env, setEnv, resetEnv, type Environment } from '../../src/lib/env.js';
import { ExpiringStorage, MemoryStorage } from '../../src/lib/storage.js';
import { $user, getClient, resetSession } from '../../src/stores/session.js';
import { signInWithToken } from '../../src/stores/sign-in.js';
import { entitlementsChanged } from '../../src/stores/commerce/entitlements.js';
import { start } from '../../elements/channel-schedule.js';
import { createRoot } from 'react-dom/client';
import { ScheduleView, SCHEDULE_DEFAULTS } from '../../src/components/schedule/index.js';
import { ElementShell } from '../../src/components/ui/shell.js';
import type { OpenRequest, ViewHost } from '../../src/components/ui/view.js';

// Mocha globals (web-test-runner's default framework); tsconfig types only list node.
declare function describe(name: string, body: () => void): void;
declare const it: {
  (name: string, body: () => void | Promise<void>): void;
  skip(name: string, body: () => void | Promise<void>): void;
};
declare function before(body: () => void | Promise<void>): void;
declare function beforeEach(body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;

const API = 'http://api.test/api';
const KEYS = 'http://api.test/keys';
const CHANNEL_KEY = 'ck-demo';
const API_KEY = 'ak-123';

// ------------------------------------------------------------------ fixtures (contract-valid)

/** 2030-03-02T00:00:00Z: a Saturday evening in New York, the pinned time zone. */
const T0 = Date.UTC(2030, 2, 2, 0, 0, 0) / 1000;

const participant = (id: number, name: string, short: string) => ({
  id,
  name,
  short_name: short,
  alias: name.toLowerCase().replace(/\W+/g, '-'),
  images: { logo: null },
  color: '#123456',
  properties: { gender: 'male', sport: 'hockey' },
  participant_group_id: 1,
});

/** Two participants, the home team listed FIRST: the title must still read "away @ home". */
const LIVE_FREE = {
  id: 101,
  name: 'Lakeside State Lakers at Northfield Huskies',
  type: 'free',
  event_utc_ts: T0,
  time_zone: 'EST',
  has_access: false,
  participants: [participant(11, 'Northfield Huskies', 'NFU'), participant(12, 'Lakeside State Lakers', 'LSU')],
  home_team_id: 11,
  location: { id: 1, name: 'Harbor Arena', city: 'Boston', state: 'MA', time_zone: 'EST' },
  category: { id: 7, name: "Men's Hockey" },
  stream_status: 'live',
  price: null,
};
/** A single-name event (no participants), paid with a price. */
const PAID = {
  id: 102,
  name: 'Spring Swimming Gala',
  type: 'paid',
  event_utc_ts: T0 + 86_400,
  time_zone: 'EST',
  has_access: 0,
  participants: [],
  stream_status: 'upcoming',
  price: 9.99,
};
/** A paid event the viewer already has access to. */
const PURCHASED = {
  id: 103,
  name: 'Championship Final',
  type: 'paid',
  event_utc_ts: T0 + 2 * 86_400,
  time_zone: 'EST',
  has_access: 1,
  participants: [],
  stream_status: 'upcoming',
  price: 4.5,
};
const ALL_EVENTS = [LIVE_FREE, PAID, PURCHASED];

const CATEGORIES: EventCategory[] = [
  {
    id: 1,
    name: 'Basketball',
    sport: 'basketball',
    children: [{ id: 2, name: "Men's Basketball", sport: 'basketball', gender: 'male' }],
  },
  {
    id: 6,
    name: 'Hockey',
    sport: 'hockey',
    children: [{ id: 7, name: "Men's Hockey", sport: 'hockey', gender: 'male' }],
  },
];
const LOCATIONS: EventLocation[] = [
  { id: 1, name: 'Harbor Arena', city: 'Boston', state: 'MA', time_zone: 'EST' },
  { id: 2, name: 'Lakefront Center', city: 'Chicago', state: 'IL', time_zone: 'CST' },
];

const eventList = (events: unknown[]) => ({ data: events, meta: { total: events.length, offset: 0, limit: 50 } });

// The fixtures must satisfy the contract themselves, or a test could pass against data no server sends.
const checked = EventList.safeParse(eventList(ALL_EVENTS));
if (!checked.success) throw new Error(`test fixtures break the contract: ${JSON.stringify(checked.error.issues)}`);
const _typed: ChannelEvent[] = checked.data.data;
void _typed;

// ------------------------------------------------------------------ fake platform

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

let requests: URL[] = [];
let eventsAnswer: (url: URL, n: number) => Response | Promise<Response>;
let logged: { level: string; text: string }[] = [];

// Accounts and favourites: the profile answers a bearer token; favourites live here and follow POST and DELETE.
type Fav = { id: number; favoritable_id: number; favoritable_type: string; name: string | null };
const USER = { id: 7, email: 'fan@example.com', first_name: 'Fan' };
/** What `GET profile` answers for a token (a test may make it an account with a temporary password). */
let profileUser: Record<string, unknown> = USER;
const GROUPS = [{ id: 1, name: 'Northfield University', alias: 'northfield', image: null }];
const KIND_OF: Record<string, 'participant' | 'participant_group' | 'event_category'> = {
  participant: 'participant',
  group: 'participant_group',
  category: 'event_category',
};
let favs: {
  participant: Fav[];
  participant_group: Fav[];
  event_category: Fav[];
  favorite_event: unknown[];
  event_location: unknown[];
};
let nextFavourite = 500;
let favouriteEventsAnswer: (url: URL) => Response;
/** Every request with its method, JSON body and Authorization header. */
let wire: { method: string; url: URL; body: unknown; auth: string | null }[] = [];
const sent = (method: string, pathname: string) =>
  wire.filter((r) => r.method === method && r.url.pathname === pathname);
const favouriteEventRequests = () => requests.filter((u) => u.pathname === '/api/events/favorite');

const eventRequests = () => requests.filter((u) => u.pathname === '/api/events');
const lastEvents = () => {
  const list = eventRequests();
  const last = list[list.length - 1];
  if (!last) throw new Error('no /api/events request was made');
  return last.searchParams;
};

const fakeFetch: Environment['fetch'] = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  requests.push(url);
  const method = (init?.method ?? 'GET').toUpperCase();
  const auth = new Headers(init?.headers).get('authorization');
  // JSON bodies, and get_api_key's form.
  const text = typeof init?.body === 'string' ? init.body : undefined;
  const body = text?.startsWith('{')
    ? (JSON.parse(text) as Record<string, unknown>)
    : text === undefined
      ? undefined
      : Object.fromEntries(new URLSearchParams(text));
  wire.push({ method, url, body, auth });
  if (method === 'DELETE' && url.pathname.startsWith('/api/favorite/')) {
    const id = Number(url.pathname.split('/').pop());
    for (const kind of Object.values(KIND_OF)) favs[kind] = favs[kind].filter((f) => f.id !== id);
    return json({ data: { message: 'Removed' } });
  }
  switch (url.pathname) {
    case '/api/profile':
      return auth ? json({ data: profileUser }) : json({ message: 'Unauthenticated.' }, 401);
    case '/api/favorites':
      return auth ? json({ data: favs }) : json({ message: 'Unauthenticated.' }, 401);
    case '/api/favorite': {
      const type = String(body?.favoritable_type);
      const favourite: Fav = {
        id: nextFavourite++,
        favoritable_id: Number(body?.favoritable_id),
        favoritable_type: type,
        name: null,
      };
      favs[KIND_OF[type]!].push(favourite);
      return json({ data: favourite });
    }
    case '/api/events/favorite':
      return auth ? favouriteEventsAnswer(url) : json({ message: 'Unauthenticated.' }, 401);
    case '/api/participant-groups':
      return json({ data: GROUPS });
    case `/keys/demo.json`:
      return json({ channel_key: CHANNEL_KEY, name: 'Demo' });
    case '/api/get_api_key':
      return json({ data: { api_key: API_KEY } });
    case '/api/settings':
      return json({ data: { name: 'Demo', language: 'en', currency: 'USD', auth: { remote_auth: 0 } } });
    case '/api/color-settings/web':
      return json({ data: { 'primary-color': '#1d4ed8', 'body-text-color': '#1b2430' } });
    case '/api/geo':
      return json({ data: { country: 'United States', country_code: 'US', is_geo_blocked: false } });
    case '/api/events':
      return eventsAnswer(url, eventRequests().length);
    case '/api/events-categories':
      return json({ data: CATEGORIES });
    case '/api/events-locations':
      return json({ data: LOCATIONS });
    case '/api/participant-group-properties':
      return json({
        data: [
          { name: 'conference', values: ['Atlantic', 'Great Lakes'] },
          { name: 'division', values: ['I', 'II'] },
          // A property named like one of the list's own filters cannot be offered (its query name is taken).
          { name: 'state', values: ['MA'] },
        ],
      });
    case '/api/logs':
      return json({});
    default:
      return json({ message: `not faked: ${url.pathname}` }, 404);
  }
};

/** A manual clock for the client's timers (retry delay, request timeout), advanced by the test. */
class ManualClock {
  now = 1_900_000_000_000;
  #next = 1;
  readonly #timers = new Map<number, { at: number; fn: () => void }>();
  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.now + ms, fn });
    return id;
  };
  clearTimeout = (id: unknown): void => {
    this.#timers.delete(id as number);
  };
  /** Moves time forward, running due timers in order (and letting promises settle between them). */
  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
      await settle();
    }
    this.now = end;
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

function useFakePlatform(extra: Partial<Environment> = {}): void {
  resetSession();
  requests = [];
  logged = [];
  wire = [];
  favs = { participant: [], participant_group: [], event_category: [], favorite_event: [], event_location: [] };
  favouriteEventsAnswer = () => json(eventList([]));
  eventsAnswer = () => json(eventList(ALL_EVENTS));
  profileUser = USER;
  setEnv({
    fetch: fakeFetch,
    storage: new ExpiringStorage(
      () => new MemoryStorage(),
      () => Date.now(),
    ),
    logger: {
      error: (...a: unknown[]) => logged.push({ level: 'error', text: a.join(' ') }),
      warn: (...a: unknown[]) => logged.push({ level: 'warn', text: a.join(' ') }),
      info: () => undefined,
    },
    ...extra,
  });
}

// ------------------------------------------------------------------ DOM helpers

type Schedule = HTMLElement & { shadowRoot: ShadowRoot };

const root = (el: Element) => (el as Schedule).shadowRoot;
const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => root(el).querySelector<T>(selector);
const $$ = <T extends Element = HTMLElement>(el: Element, selector: string) => [
  ...root(el).querySelectorAll<T>(selector),
];
const text = (el: Element) => root(el).textContent ?? '';
/** The outer HTML of a match, or null: assertions print this instead of the node (chai's inspect of a React-managed node can hang the page). */
const html$ = (el: Element, selector: string) => root(el).querySelector(selector)?.outerHTML ?? null;
const links = (el: Element) => $$<HTMLAnchorElement>(el, '[part~="event-link"]');

/** An events answer that pages through `all` by the request's offset and limit. */
const paged = (all: unknown[]) => (url: URL) => {
  const offset = Number(url.searchParams.get('offset'));
  const limit = Number(url.searchParams.get('limit'));
  return json({ data: all.slice(offset, offset + limit), meta: { total: all.length, offset, limit } });
};

/**
 * Scrolls the page from the top of the list to its end, a viewport at a time, and returns the hrefs of every
 * event link seen on the way (the list renders only the cards near the viewport).
 */
async function scrollThrough(el: Element): Promise<string[]> {
  const seen = new Set<string>();
  window.scrollTo(0, 0);
  for (let i = 0; i < 2000; i++) {
    await nextFrame();
    await nextFrame();
    for (const a of links(el)) seen.add(a.getAttribute('href') ?? '');
    const atEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    if (atEnd && !html$(el, '[part~="more"]')) break;
    window.scrollBy(0, window.innerHeight / 2);
  }
  window.scrollTo(0, 0);
  return [...seen];
}

async function loaded(el: Element, count = ALL_EVENTS.length): Promise<void> {
  await waitUntil(() => links(el).length === count, `expected ${count} event links`, { timeout: 4000 });
}
async function shows(el: Element, words: string): Promise<void> {
  await waitUntil(() => text(el).includes(words), `expected the element to show "${words}"; it shows "${text(el)}"`, {
    timeout: 4000,
  });
}

async function choose(select: HTMLSelectElement, value: string): Promise<void> {
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

function selectLabelled(el: Element, label: string): HTMLSelectElement {
  const found = $$<HTMLLabelElement>(el, 'form[role="search"] label').find((l) => l.textContent?.startsWith(label));
  const select = found?.querySelector('select');
  if (!select) throw new Error(`no filter labelled ${label}`);
  return select;
}

// An element created and given a property before its class is defined (the host page ran first, our chunk
// loaded later): it is upgraded when a test connects it, after start() has defined the tag.
const early = document.createElement('channel-schedule') as HTMLElement & { kind?: string };
early.kind = 'vod';

// ------------------------------------------------------------------ tests

describe('<channel-schedule>', () => {
  before(() => {
    resetEnv();
    start({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://api.test/channel-elements.js');
  });
  beforeEach(() => useFakePlatform());
  afterEach(() => resetEnv());

  it('is defined once, even when started twice', () => {
    const first = customElements.get('channel-schedule');
    expect(first).to.be.a('function');
    start({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://api.test/channel-elements.js');
    expect(customElements.get('channel-schedule')).to.equal(first);
  });

  describe('cards', () => {
    it('renders one card per event, linking to /watch/{id}', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      expect(links(el).map((a) => a.getAttribute('href'))).to.deep.equal(['/watch/101', '/watch/102', '/watch/103']);
      expect($(el, '[part~="title"]')?.textContent).to.equal('Upcoming events');
      expect($(el, '[part~="count"]')?.textContent).to.equal('3 events');
      // The keyed call went out with the api key from get_api_key, the keyless ones with the channel key.
      expect(lastEvents().get('api_key')).to.equal(API_KEY);
      expect(requests.find((u) => u.pathname === '/api/settings')?.searchParams.get('channel_key')).to.equal(
        CHANNEL_KEY,
      );
    });

    it('fills a custom watch-url template', async () => {
      const el = await fixture(
        html`<channel-schedule watch-url="https://tv.example/game?e={id}&src=embed"></channel-schedule>`,
      );
      await loaded(el);
      expect(links(el)[0]!.getAttribute('href')).to.equal('https://tv.example/game?e=101&src=embed');
    });

    it('fills a relative watch-url template', async () => {
      const el = await fixture(html`<channel-schedule watch-url="/games/{id}/live"></channel-schedule>`);
      await loaded(el);
      expect(links(el)[0]!.getAttribute('href')).to.equal('/games/101/live');
      expect(html$(el, '[part~="notice"]')).to.equal(null);
    });

    // Regression: a shape check once refused relative templates with a dot or a query only.
    it('accepts relative templates such as watch.html?id={id} and ?event={id}', async () => {
      const el = await fixture(html`<channel-schedule watch-url="watch.html?id={id}"></channel-schedule>`);
      await loaded(el);
      expect(html$(el, '[part~="notice"]')).to.equal(null);
      expect(links(el)[0]!.getAttribute('href')).to.equal('watch.html?id=101');
      el.setAttribute('watch-url', '?event={id}');
      await waitUntil(() => links(el)[0]?.getAttribute('href') === '?event=101', 'query-only template');
      expect(html$(el, '[part~="notice"]')).to.equal(null);
    });

    it('refuses a javascript: watch-url with a notice and keeps the default links', async () => {
      const el = await fixture(html`<channel-schedule watch-url="javascript:alert(1)"></channel-schedule>`);
      await loaded(el);
      expect(links(el)[0]!.getAttribute('href')).to.equal('/watch/101');
      expect($(el, '[part~="notice"]')?.textContent).to.contain('watch-url="javascript:alert(1)"');
    });

    it('titles two-participant events "away @ home" with short names, others by their name', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      const names = $$(el, '[part~="event-name"]').map((n) => n.textContent);
      expect(names).to.deep.equal(['LSU @ NFU', 'Spring Swimming Gala', 'Championship Final']);
    });

    it('shows live, free, paid with its price, and purchased badges', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      const cards = $$(el, '[part~="event"]');
      const badges = (card: Element) =>
        [...card.querySelectorAll('[part~="badge"]')].map((b) => [b.getAttribute('part'), b.textContent]);
      expect(badges(cards[0]!)).to.deep.equal([
        ['badge badge-live', 'Live'],
        ['badge badge-free', 'Free'],
      ]);
      // The price in the spec's form: the currency code, its sign and the amount.
      expect(badges(cards[1]!)).to.deep.equal([['badge badge-paid', 'Paid · USD $9.99']]);
      // has_access on a paid event: purchased, and no price.
      expect(badges(cards[2]!)).to.deep.equal([['badge badge-purchased', 'Purchased']]);
    });

    it('pictures: the event’s own, else a match’s logos away @ home in their colours, the live badge over it', async () => {
      const withLogos = {
        ...LIVE_FREE,
        participants: [
          { ...LIVE_FREE.participants[0]!, images: { logo: 'https://cdn.test/nfu.png' } },
          { ...LIVE_FREE.participants[1]!, color: 'red; background: url(https://evil.test/x)' },
        ],
      };
      const pictured = {
        ...PAID,
        image: 'https://cdn.test/gala.jpg',
        media: [
          { type: 'preview', url: 'https://cdn.test/gala-preview.mp4' },
          { type: 'preview_alt', url: 'https://cdn.test/gala-preview.webm' },
        ],
      };
      eventsAnswer = () => json(eventList([withLogos, pictured, { ...PURCHASED, image: 'javascript:alert(1)' }]));
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      const [match, gala, unsafe] = $$(el, '[part~="event-picture"]');
      // Away (the Lakers, by their short name: no logo) @ home (the Huskies' logo). The title under it names them:
      // the logos' alt is empty, so a screen reader does not hear the teams twice.
      const teams = [...match!.querySelectorAll('[part~="event-team-logo"]')];
      expect(teams.map((t) => t.querySelector('img')?.getAttribute('src') ?? t.textContent)).to.deep.equal([
        'LSU',
        'https://cdn.test/nfu.png',
      ]);
      expect(teams[1]!.querySelector('img')!.getAttribute('alt')).to.equal('');
      expect(match!.querySelector('.at')!.getAttribute('aria-hidden')).to.equal('true');
      // Only a plain hex colour reaches the style.
      expect((teams[1] as HTMLElement).style.getPropertyValue('--_team')).to.equal('#123456');
      expect((teams[0] as HTMLElement).getAttribute('style')).to.equal(null);
      expect(match!.querySelector('[part~="badge-live"]'), 'the live badge over the picture').to.not.equal(null);
      const img = gala!.querySelector('img')!;
      expect([img.getAttribute('src'), img.getAttribute('alt'), img.getAttribute('loading')]).to.deep.equal([
        'https://cdn.test/gala.jpg',
        '',
        'eager',
      ]);
      expect(unsafe!.querySelector('img'), 'a javascript: picture is none').to.equal(null);
      // Space is kept whatever loads: every card's picture box has the same 16:9 shape.
      const box = gala!.getBoundingClientRect();
      expect(Math.abs(box.width / box.height - 16 / 9)).to.be.below(0.05);
      expect(unsafe!.getBoundingClientRect().height).to.be.closeTo(box.height, 1);
      // Pointing at the card plays its preview, muted and silent for screen readers; leaving stops it.
      const card = links(el)[1]!;
      card.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, relatedTarget: document.body }));
      await waitUntil(() => gala!.querySelector('video'), 'the preview');
      const video = gala!.querySelector('video')!;
      expect([...video.querySelectorAll('source')].map((s) => s.getAttribute('src'))).to.deep.equal([
        'https://cdn.test/gala-preview.mp4',
        'https://cdn.test/gala-preview.webm',
      ]);
      expect([video.muted, video.getAttribute('aria-hidden'), video.getAttribute('controlslist')]).to.deep.equal([
        true,
        'true',
        'nodownload noremoteplayback',
      ]);
      card.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, relatedTarget: document.body }));
      await waitUntil(() => !gala!.querySelector('video'), 'the preview gone');
      // Focus plays it too.
      card.focus();
      await waitUntil(() => gala!.querySelector('video'), 'the preview on focus');
      card.blur();
      await expect(el).shadowDom.to.be.accessible();
    });

    it('shows the time in the viewer zone with a <time datetime>', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      const time = $(el, '[part~="event"] time')!;
      expect(time.getAttribute('datetime')).to.equal('2030-03-02T00:00:00.000Z');
      expect(time.textContent).to.equal('Fri, Mar 1 · 7:00 PM EST');
    });
  });

  describe('attributes to the request', () => {
    const kinds: [string, string | null][] = [
      ['live', 'live'],
      ['upcoming', 'upcoming'],
      ['vod', 'finished'],
      ['all', null],
    ];
    for (const [kind, status] of kinds) {
      it(`kind="${kind}" asks for stream_status=${String(status)}`, async () => {
        const el = await fixture(html`<channel-schedule kind=${kind}></channel-schedule>`);
        await loaded(el);
        expect(lastEvents().get('stream_status')).to.equal(status);
      });
    }

    it('puts sport, gender, city, state, team, school and category into the query', async () => {
      const el = await fixture(
        html`<channel-schedule
          sport="hockey"
          gender="women"
          city="Boston"
          state="MA"
          team="northfield-m-hockey"
          school="northfield"
          category="male-hockey"
          limit="7"
        ></channel-schedule>`,
      );
      await loaded(el);
      const q = lastEvents();
      expect(Object.fromEntries([...q].filter(([k]) => k !== 'api_key'))).to.deep.equal({
        stream_status: 'upcoming',
        category: 'male-hockey',
        team: 'northfield-m-hockey',
        school: 'northfield',
        sport: 'hockey',
        gender: 'female',
        city: 'Boston',
        state: 'MA',
        offset: '0',
        limit: '7',
      });
    });

    it('re-queries when an attribute changes, and resets it when removed', async () => {
      const el = await fixture(html`<channel-schedule sport="hockey"></channel-schedule>`);
      await loaded(el);
      expect(eventRequests()).to.have.length(1);
      expect(lastEvents().get('sport')).to.equal('hockey');

      el.setAttribute('sport', 'soccer');
      await waitUntil(() => eventRequests().length === 2, 'a change re-queries');
      expect(lastEvents().get('sport')).to.equal('soccer');
      await loaded(el);

      el.removeAttribute('sport');
      await waitUntil(() => eventRequests().length === 3, 'a removal re-queries');
      expect(lastEvents().has('sport')).to.equal(false);

      el.setAttribute('kind', 'live');
      await waitUntil(() => eventRequests().length === 4, 'kind re-queries');
      expect(lastEvents().get('stream_status')).to.equal('live');
      await waitUntil(() => $(el, '[part~="title"]')?.textContent === 'Live now', 'the title follows kind');
    });
  });

  describe('properties', () => {
    it('a property reflects to its attribute and re-queries; reading it gives the value back', async () => {
      const el = (await fixture(html`<channel-schedule></channel-schedule>`)) as HTMLElement & {
        kind?: string;
        sport?: string;
      };
      await loaded(el);
      el.kind = 'live';
      expect(el.getAttribute('kind')).to.equal('live');
      expect(el.kind).to.equal('live');
      await waitUntil(() => eventRequests().length === 2, 'the property re-queries');
      expect(lastEvents().get('stream_status')).to.equal('live');
      await loaded(el);

      el.sport = 'hockey';
      await waitUntil(() => eventRequests().length === 3, 'a second property re-queries');
      expect(lastEvents().get('sport')).to.equal('hockey');
      expect(lastEvents().get('stream_status')).to.equal('live');
    });

    it('a property set before the tag was defined is applied on upgrade', async () => {
      expect(Object.prototype.hasOwnProperty.call(early, 'kind'), 'an own property shadows the accessor').to.equal(
        true,
      );
      const wrap = await fixture(html`<div></div>`);
      wrap.append(early);
      expect(Object.prototype.hasOwnProperty.call(early, 'kind'), 'moved onto the real accessor').to.equal(false);
      expect(early.kind).to.equal('vod');
      await loaded(early);
      expect(lastEvents().get('stream_status')).to.equal('finished');
      expect($(early, '[part~="title"]')?.textContent).to.equal('On demand');
    });
  });

  describe('pages', () => {
    it('"Show more events" reveals the rest, then fetches further pages of 50, each offset once', async () => {
      const many = Array.from({ length: 120 }, (_, i) => ({ ...PAID, id: 1000 + i, name: `Event ${i + 1}` }));
      eventsAnswer = paged(many);
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await waitUntil(() => links(el).length >= 24, 'the first events');
      // Press "Show more" (the end of the list may also load more by itself when it scrolls into view).
      for (let i = 0; i < 10 && html$(el, '[part~="more"]'); i++) {
        const before = eventRequests().length;
        const more = $<HTMLButtonElement>(el, '[part~="more"]')!;
        expect(more.textContent).to.equal('Show more events');
        more.click();
        await waitUntil(
          () => eventRequests().length > before || !html$(el, '[part~="more"]'),
          'a request after Show more',
        );
        await waitUntil(() => !$<HTMLButtonElement>(el, '[part~="more"]')?.disabled, 'the page arrives');
      }
      expect(eventRequests().map((u) => [u.searchParams.get('offset'), u.searchParams.get('limit')])).to.deep.equal([
        ['0', '50'],
        ['50', '50'],
        ['100', '50'],
      ]);
      expect($(el, '[part~="count"]')?.textContent).to.equal('120 events');
      expect(html$(el, '[part~="more"]')).to.equal(null);
      // Scrolling through the list reaches every event once.
      expect(await scrollThrough(el)).to.have.length(120);
    });

    it('keeps only the cards near the viewport in the DOM, and every event reachable by scrolling', async () => {
      const many = Array.from({ length: 600 }, (_, i) => ({ ...PAID, id: 5000 + i, name: `Event ${i + 1}` }));
      eventsAnswer = paged(many);
      const el = await fixture(html`<channel-schedule limit="600"></channel-schedule>`);
      await waitUntil(() => links(el).length >= 12, 'the first events');
      const seen = await scrollThrough(el);
      expect(seen).to.have.length(600);
      expect(links(el).length, 'cards in the DOM at the end').to.be.below(200);
      expect(eventRequests()).to.have.length(12);
    });

    it('keeps the focused card when the page scrolls away from it', async () => {
      const many = Array.from({ length: 300 }, (_, i) => ({ ...PAID, id: 7000 + i, name: `Event ${i + 1}` }));
      eventsAnswer = paged(many);
      const el = await fixture(html`<channel-schedule limit="300"></channel-schedule>`);
      await waitUntil(() => links(el).length >= 12, 'the first events');
      links(el)[0]!.focus();
      await scrollThrough(el);
      expect(el.shadowRoot!.activeElement?.querySelector('[part~="event-name"]')?.textContent).to.equal('Event 1');
    });

    it('limit fetches that many at once and offers no more', async () => {
      const many = Array.from({ length: 30 }, (_, i) => ({ ...PAID, id: 2000 + i, name: `Event ${i + 1}` }));
      eventsAnswer = (url) => {
        const limit = Number(url.searchParams.get('limit'));
        return json({ data: many.slice(0, limit), meta: { total: many.length, offset: 0, limit } });
      };
      const el = await fixture(html`<channel-schedule limit="5"></channel-schedule>`);
      await loaded(el, 5);
      expect(lastEvents().get('limit')).to.equal('5');
      expect($(el, '[part~="count"]')?.textContent).to.equal('5 events');
      expect(html$(el, '[part~="more"]')).to.equal(null);
      expect(eventRequests()).to.have.length(1);
    });
  });

  describe('views', () => {
    it('view="table" renders a table with a row per event', async () => {
      const el = await fixture(html`<channel-schedule view="table"></channel-schedule>`);
      await loaded(el);
      const table = $<HTMLTableElement>(el, 'table[part~="table"]');
      expect(Boolean(table), 'a table').to.equal(true);
      expect($$(el, 'thead th').map((th) => th.textContent)).to.deep.equal([
        'Event',
        'Date',
        'Time',
        'Access',
        'Actions',
      ]);
      expect($$(el, 'tbody tr[part~="row"]')).to.have.length(3);
      expect(html$(el, 'ul[part~="list"]')).to.equal(null);
      expect($$(el, 'tbody a').map((a) => a.getAttribute('href'))).to.deep.equal([
        '/watch/101',
        '/watch/102',
        '/watch/103',
      ]);
    });

    it('layout="list" renders the list layout, grid by default', async () => {
      const grid = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(grid);
      expect($(grid, '[part~="schedule"]')!.className).to.equal('grid');

      const list = await fixture(html`<channel-schedule layout="list"></channel-schedule>`);
      await loaded(list);
      expect($(list, '[part~="schedule"]')!.className).to.equal('list');
      // The picture's column, then the time, the name and the badges.
      expect(getComputedStyle($(list, '[part~="card"]')!).gridTemplateColumns.split(' ')).to.have.length(4);
    });
  });

  describe('filters', () => {
    it('an empty show-filters attribute shows the filters, and choosing one re-queries', async () => {
      const el = await fixture(html`<channel-schedule show-filters></channel-schedule>`);
      await loaded(el);
      const form = $(el, 'form[role="search"][part~="filters"]');
      expect(Boolean(form), 'the filter form').to.equal(true);
      expect(form!.getAttribute('aria-label')).to.equal('Filter events');
      // Its styles came with its code: the filters sit in a row.
      expect(getComputedStyle(form!).display).to.equal('flex');
      // Then one per school property, once the channel's list of them is in (see below).
      await waitUntil(() => $$(el, 'form label').length === 6, 'the filters');
      expect(
        $$(el, 'form label')
          .map((l) => l.firstChild?.textContent)
          .slice(0, 4),
      ).to.deep.equal(['Gender', 'Sport', 'City', 'State']);

      await choose(selectLabelled(el, 'Gender'), 'female');
      await waitUntil(() => eventRequests().length === 2, 'choosing a gender re-queries');
      expect(lastEvents().get('gender')).to.equal('female');

      // Sports and cities come from the catalogues.
      await waitUntil(() => selectLabelled(el, 'Sport').querySelector('option[value="hockey"]'), 'sports listed');
      await choose(selectLabelled(el, 'Sport'), 'hockey');
      await waitUntil(() => eventRequests().length === 3, 'choosing a sport re-queries');
      expect(lastEvents().get('sport')).to.equal('hockey');
      expect(lastEvents().get('gender')).to.equal('female');

      await waitUntil(() => selectLabelled(el, 'City').querySelector('option[value="Chicago"]'), 'cities listed');
      await choose(selectLabelled(el, 'City'), 'Chicago');
      await waitUntil(() => eventRequests().length === 4, 'choosing a city re-queries');
      expect(lastEvents().get('city')).to.equal('Chicago');
    });

    it("offers the schools' properties (participant-group-properties) and asks for the one chosen by its name", async () => {
      const el = await fixture(html`<channel-schedule show-filters></channel-schedule>`);
      await loaded(el);
      await waitUntil(() => $$(el, 'form label').length === 6, 'the property filters');
      expect($$(el, 'form label').map((l) => l.firstChild?.textContent)).to.deep.equal([
        'Gender',
        'Sport',
        'City',
        'State',
        'Conference',
        'Division',
      ]);
      await choose(selectLabelled(el, 'Conference'), 'Great Lakes');
      await waitUntil(() => lastEvents().get('conference') === 'Great Lakes', 'the conference asked for');
      await choose(selectLabelled(el, 'Division'), 'II');
      await waitUntil(() => lastEvents().get('division') === 'II', 'the division too');
      expect(lastEvents().get('conference')).to.equal('Great Lakes');
      // Clear filters drops them.
      $$<HTMLButtonElement>(el, 'form button')
        .find((b) => b.textContent === 'Clear filters')!
        .click();
      await waitUntil(() => selectLabelled(el, 'Conference').value === '', 'cleared');
      expect(selectLabelled(el, 'Division').value).to.equal('');
      await loaded(el);
      await expect(el).shadowDom.to.be.accessible();
    });

    it('names the property filters in French', async () => {
      const el = await fixture(html`<channel-schedule show-filters lang="fr"></channel-schedule>`);
      await loaded(el);
      await waitUntil(() => $$(el, 'form label').length === 6, 'the property filters');
      expect(
        $$(el, 'form label')
          .map((l) => l.firstChild?.textContent)
          .slice(4),
      ).to.deep.equal(['Conférence', 'Division']);
    });

    it('show-filters added later as an empty attribute shows the filters; removing it hides them', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      expect(html$(el, 'form[role="search"]')).to.equal(null);
      el.setAttribute('show-filters', '');
      await waitUntil(() => $(el, 'form[role="search"]'), 'filters shown');
      el.removeAttribute('show-filters');
      await waitUntil(() => !$(el, 'form[role="search"]'), 'filters hidden');
    });

    it('show-filters="false" and no attribute show no filters', async () => {
      const off = await fixture(html`<channel-schedule show-filters="false"></channel-schedule>`);
      await loaded(off);
      expect(html$(off, 'form[role="search"]')).to.equal(null);
    });

    it('"All" overrides a filter given by attribute, and filtered-empty says so', async () => {
      eventsAnswer = (url) => json(eventList(url.searchParams.get('city') === 'Chicago' ? [] : ALL_EVENTS));
      const el = await fixture(html`<channel-schedule show-filters city="Chicago"></channel-schedule>`);
      await shows(el, 'No events match these filters.');
      expect(selectLabelled(el, 'City').value).to.equal('Chicago');
      await choose(selectLabelled(el, 'City'), '');
      await loaded(el);
      expect(lastEvents().has('city')).to.equal(false);
    });
  });

  describe('calendar', () => {
    /** Friday 1 March 2030, noon in New York (the pinned zone); the fixtures start that evening and the two after. */
    const NOW = Date.UTC(2030, 2, 1, 17);
    /** A New York midnight as UNIX seconds: EST (UTC-5) until 10 March 2030, EDT (UTC-4) from then. */
    const nyMidnight = (month: number, day: number, offsetHours: number) =>
      Date.UTC(2030, month, day, offsetHours) / 1000;
    /** An events API that honours start_date and end_date (UNIX seconds, both ends included). */
    const byDates = (url: URL) => {
      const from = Number(url.searchParams.get('start_date') ?? -Infinity);
      const to = Number(url.searchParams.get('end_date') ?? Infinity);
      return json(eventList(ALL_EVENTS.filter((e) => e.event_utc_ts >= from && e.event_utc_ts <= to)));
    };
    const radios = (el: Element) => $$<HTMLButtonElement>(el, '[part~="calendar"] [role="radio"]');
    const checked = (el: Element) => radios(el).find((r) => r.getAttribute('aria-checked') === 'true');
    const names = (el: Element) => $$(el, '[part~="calendar-day"]').map((b) => b.getAttribute('aria-label'));
    const hrefs = (el: Element) => links(el).map((a) => a.getAttribute('href'));
    /** Waits until the list shows exactly these events. */
    async function lists(el: Element, expected: string[]): Promise<void> {
      await waitUntil(() => JSON.stringify(hrefs(el)) === JSON.stringify(expected), `expected ${expected.join(', ')}`, {
        timeout: 4000,
      });
    }
    const dates = () => [lastEvents().get('start_date'), lastEvents().get('end_date')];

    beforeEach(() => {
      useFakePlatform({ now: () => NOW });
      eventsAnswer = byDates;
    });

    it("show-calendar: a week strip from today in the viewer's zone; a day lists its events through start_date and end_date", async () => {
      const el = await fixture(html`<channel-schedule kind="all" show-calendar></channel-schedule>`);
      await loaded(el);
      const calendar = $(el, '[part~="calendar"]')!;
      expect(calendar.getAttribute('role')).to.equal('group');
      expect(calendar.getAttribute('aria-label')).to.equal('Calendar');
      expect($(el, '[role="radiogroup"]')!.getAttribute('aria-label')).to.equal('Day');
      expect(checked(el)?.textContent).to.equal('All days');
      // Its styles came with its code: each day is a touch target at least 44 px tall.
      expect(getComputedStyle(radios(el)[1]!).minHeight).to.equal('44px');
      expect(names(el)).to.deep.equal([
        'Today, Friday, March 1, 2030',
        'Saturday, March 2, 2030',
        'Sunday, March 3, 2030',
        'Monday, March 4, 2030',
        'Tuesday, March 5, 2030',
        'Wednesday, March 6, 2030',
        'Thursday, March 7, 2030',
      ]);
      expect($$(el, '[part~="calendar-day"]')[1]!.textContent).to.equal('Sat2');
      expect($$(el, '[aria-current="date"]').map((b) => b.dataset.day)).to.deep.equal(['2030-03-01']);
      expect(dates(), 'all days: no dates sent').to.deep.equal([null, null]);

      // Saturday: from its New York midnight, the spec's 86,400 s (end_date is the last second of them).
      $$<HTMLButtonElement>(el, '[part~="calendar-day"]')[1]!.click();
      await lists(el, ['/watch/102']);
      expect(dates()).to.deep.equal([String(nyMidnight(2, 2, 5)), String(nyMidnight(2, 2, 5) + 86_399)]);
      expect(checked(el)?.dataset.day).to.equal('2030-03-02');
      expect($(el, '[part~="count"]')?.textContent).to.equal('1 event');
      // Friday's evening game (00:00 UTC on Saturday) is Friday's in New York.
      $$<HTMLButtonElement>(el, '[part~="calendar-day"]')[0]!.click();
      await lists(el, ['/watch/101']);
      await expect(el).shadowDom.to.be.accessible();

      // A day with nothing: says which day.
      $$<HTMLButtonElement>(el, '[part~="calendar-day"]')[4]!.click();
      await shows(el, 'No events on Tuesday, March 5, 2030.');

      // The next week; 10 March is the day New York's clocks go forward: its window starts at midnight EST, the
      // next day's at midnight EDT.
      $<HTMLButtonElement>(el, '[part~="calendar-next"]')!.click();
      await waitUntil(() => names(el)[0] === 'Friday, March 8, 2030', 'the next week');
      $<HTMLButtonElement>(el, '[data-day="2030-03-10"]')!.click();
      await waitUntil(() => dates()[0] === String(nyMidnight(2, 10, 5)), 'the DST day');
      $<HTMLButtonElement>(el, '[data-day="2030-03-11"]')!.click();
      await waitUntil(() => dates()[0] === String(nyMidnight(2, 11, 4)), 'the day after');
      expect(dates()[1]).to.equal(String(nyMidnight(2, 11, 4) + 86_399));
      $<HTMLButtonElement>(el, '[part~="calendar-previous"]')!.click();
      await waitUntil(() => names(el)[0] === 'Today, Friday, March 1, 2030', 'back to this week');

      // "All days" again: every event (the first answer, from the client's 60 s cache of that same request).
      $<HTMLButtonElement>(el, '[part~="calendar-all"]')!.click();
      await lists(el, ['/watch/101', '/watch/102', '/watch/103']);
      expect(checked(el)?.textContent).to.equal('All days');
    });

    it('by keyboard: one Tab stop, the arrows choose the next or previous day (across weeks), Home all days', async () => {
      const el = await fixture(html`<channel-schedule kind="all" show-calendar></channel-schedule>`);
      await loaded(el);
      const active = () => root(el).activeElement as HTMLElement | null;
      expect(radios(el).map((r) => r.tabIndex)).to.deep.equal([0, -1, -1, -1, -1, -1, -1, -1]);
      checked(el)!.focus();
      await sendKeys({ press: 'ArrowRight' });
      await lists(el, ['/watch/101']);
      expect(active()?.dataset.day).to.equal('2030-03-01');
      expect(active()?.getAttribute('aria-checked')).to.equal('true');
      expect(radios(el).filter((r) => r.tabIndex === 0)).to.deep.equal([active()]);
      await sendKeys({ press: 'ArrowRight' });
      await lists(el, ['/watch/102']);
      await sendKeys({ press: 'End' });
      await waitUntil(() => active()?.dataset.day === '2030-03-07', 'End: the strip’s last day');
      // Past the end of the strip: the next week, its first day chosen and focused.
      await sendKeys({ press: 'ArrowRight' });
      await waitUntil(() => active()?.dataset.day === '2030-03-08', 'the next week');
      expect(names(el)[0]).to.equal('Friday, March 8, 2030');
      await sendKeys({ press: 'ArrowLeft' });
      await waitUntil(() => active()?.dataset.day === '2030-03-07', 'back across the week');
      await sendKeys({ press: 'Home' });
      await lists(el, ['/watch/101', '/watch/102', '/watch/103']);
      expect(active()?.textContent).to.equal('All days');
    });

    it('day="…" without show-calendar lists that day only and says which; today; a bad day is ignored with a notice', async () => {
      const el = await fixture(html`<channel-schedule kind="all" day="2030-03-02"></channel-schedule>`);
      await lists(el, ['/watch/102']);
      expect(dates()).to.deep.equal([String(nyMidnight(2, 2, 5)), String(nyMidnight(2, 2, 5) + 86_399)]);
      expect($(el, '[part~="day"]')?.textContent).to.equal('Saturday, March 2, 2030');
      expect(html$(el, '[part~="calendar"]')).to.equal(null);
      el.setAttribute('day', 'today');
      await lists(el, ['/watch/101']);
      el.setAttribute('day', '2030-02-30');
      await lists(el, ['/watch/101', '/watch/102', '/watch/103']);
      expect(dates()).to.deep.equal([null, null]);
      expect($(el, '[part~="notice"]')?.textContent).to.contain(
        'Ignored day="2030-02-30": a day written YYYY-MM-DD, or today.',
      );
    });

    it('day with show-calendar is its first choice; on-demand events show the week ending on it', async () => {
      const el = await fixture(html`<channel-schedule kind="vod" show-calendar day="2030-02-20"></channel-schedule>`);
      await waitUntil(() => checked(el)?.dataset.day === '2030-02-20', 'the day chosen');
      expect($$(el, '[part~="calendar-day"]').map((b) => b.dataset.day)).to.deep.equal([
        '2030-02-14',
        '2030-02-15',
        '2030-02-16',
        '2030-02-17',
        '2030-02-18',
        '2030-02-19',
        '2030-02-20',
      ]);
      expect(lastEvents().get('stream_status')).to.equal('finished');
      expect(dates()).to.deep.equal([String(nyMidnight(1, 20, 5)), String(nyMidnight(1, 20, 5) + 86_399)]);
    });

    it('fits a 390 px phone', async () => {
      const el = await fixture(
        html`<channel-schedule kind="all" show-calendar style="width: 390px"></channel-schedule>`,
      );
      await loaded(el);
      const box = el.getBoundingClientRect();
      const calendar = $(el, '[part~="calendar"]')!;
      expect(calendar.scrollWidth).to.be.at.most(calendar.clientWidth);
      for (const button of $$(el, '[part~="calendar"] button'))
        expect(button.getBoundingClientRect().right, button.textContent!).to.be.at.most(box.right + 0.5);
    });

    it('speaks French: its labels, the days in French, the empty day', async () => {
      const el = await fixture(html`<channel-schedule kind="all" show-calendar lang="fr"></channel-schedule>`);
      await loaded(el);
      expect($(el, '[part~="calendar"]')!.getAttribute('aria-label')).to.equal('Calendrier');
      expect(checked(el)?.textContent).to.equal('Tous les jours');
      expect(names(el).slice(0, 2)).to.deep.equal(["Aujourd'hui, vendredi 1 mars 2030", 'samedi 2 mars 2030']);
      expect($$(el, '[part~="calendar-day"]')[1]!.textContent).to.equal('sam.2');
      expect($(el, '[part~="calendar-next"]')!.getAttribute('aria-label')).to.equal('Semaine suivante');
      expect($(el, '[part~="calendar-previous"]')!.getAttribute('aria-label')).to.equal('Semaine précédente');
      $$<HTMLButtonElement>(el, '[part~="calendar-day"]')[3]!.click();
      await shows(el, 'Aucun événement le lundi 4 mars 2030.');
      await expect(el).shadowDom.to.be.accessible();
    });
  });

  describe('channel-event-select', () => {
    /** Clicks a link, records the event and whether the click was prevented, and never lets the test page navigate. */
    async function clickFirst(el: Element, cancel: boolean) {
      const seen: CustomEvent[] = [];
      let clickPrevented: boolean | undefined;
      const onSelect = (e: Event) => {
        seen.push(e as CustomEvent);
        if (cancel) e.preventDefault();
      };
      const onClick = (e: MouseEvent) => {
        clickPrevented = e.defaultPrevented;
        e.preventDefault();
      };
      document.addEventListener('channel-event-select', onSelect);
      window.addEventListener('click', onClick);
      try {
        links(el)[1]!.click();
      } finally {
        document.removeEventListener('channel-event-select', onSelect);
        window.removeEventListener('click', onClick);
      }
      return { seen, clickPrevented };
    }

    it('bubbles out of the shadow root, composed and cancelable, with detail.id', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      const { seen, clickPrevented } = await clickFirst(el, false);
      expect(seen).to.have.length(1);
      const e = seen[0]!;
      expect(e.type).to.equal('channel-event-select');
      expect(e.bubbles).to.equal(true);
      expect(e.composed).to.equal(true);
      expect(e.cancelable).to.equal(true);
      expect(e.target === el, 'the event target is the element').to.equal(true);
      expect(e.detail).to.deep.equal({ id: 102 });
      // Not cancelled: the link is followed.
      expect(clickPrevented).to.equal(false);
    });

    it('preventDefault() on it keeps the link from being followed', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      const { seen, clickPrevented } = await clickFirst(el, true);
      expect(seen).to.have.length(1);
      expect(clickPrevented).to.equal(true);
    });
  });

  describe('ScheduleView without the tag', () => {
    /** A view host that records what the view asks and answers "handled" (a router would navigate). */
    function recordingHost() {
      const opened: OpenRequest[] = [];
      const emitted: Event[] = [];
      const host: ViewHost = {
        open: (request) => {
          opened.push(request);
          return false;
        },
        emit: (event) => {
          emitted.push(event);
          return true;
        },
        reveal: () => undefined,
        attachLight: () => () => undefined,
      };
      return { host, opened, emitted };
    }

    it('renders in a plain React root; an event link and a guest star ask the given host, and no DOM event is fired', async () => {
      const { host, opened, emitted } = recordingHost();
      const container = document.createElement('div');
      document.body.append(container);
      const fired: string[] = [];
      const onPublic = (e: Event) => fired.push(e.type);
      const publicEvents = ['channel-event-select', 'channel-login-request'];
      for (const type of publicEvents) window.addEventListener(type, onPublic, true);
      const react = createRoot(container);
      try {
        react.render(
          <ElementShell container={container} lang="en" css="" viewHost={host}>
            {() => <ScheduleView options={{ ...SCHEDULE_DEFAULTS, kind: 'all' }} />}
          </ElementShell>,
        );
        const viewLinks = () => [...container.querySelectorAll<HTMLAnchorElement>('[part~="event-link"]')];
        await waitUntil(() => viewLinks().length === 3, 'three event links', { timeout: 4000 });
        expect(lastEvents().has('stream_status'), 'kind "all" asks every status').to.equal(false);

        const click = new MouseEvent('click', { bubbles: true, cancelable: true, composed: true });
        viewLinks()[1]!.dispatchEvent(click);
        expect(opened).to.deep.equal([{ to: 'event', id: 102 }]);
        expect(click.defaultPrevented, 'the host handled it: the link is not followed').to.equal(true);

        container.querySelector<HTMLButtonElement>('[part~="favourite"]')!.click();
        expect(opened[1]).to.deep.equal({ to: 'sign-in', reason: 'favourite', eventId: 101 });
        await waitUntil(() => container.querySelector('[part~="toast"]'), 'the sign-in toast');
        expect(fired, 'no public DOM event').to.deep.equal([]);
        expect(emitted).to.deep.equal([]);
      } finally {
        for (const type of publicEvents) window.removeEventListener(type, onPublic, true);
        react.unmount();
        container.remove();
      }
    });
  });

  describe('purchases', () => {
    it('a purchase (entitlements changed) fetches the list again, and paid badges turn purchased', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      expect(eventRequests()).to.have.length(1);
      eventsAnswer = () => json(eventList([LIVE_FREE, { ...PAID, has_access: 1 }, PURCHASED]));
      // What a paid order in our checkout does: no answer cached before it is reused, and the version moves.
      getClient().clearCache();
      entitlementsChanged();
      await waitUntil(() => eventRequests().length === 2, 'the events again');
      await waitUntil(() => $$(el, '[part~="badge-purchased"]').length === 2, 'two purchased badges', {
        timeout: 4000,
      });
    });

    it('a sign-in or sign-out the host page reports fetches nothing (the list follows the user store for those)', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      expect(eventRequests()).to.have.length(1);
      // Nothing cached either way: what goes over the wire is what the schedule asked for.
      getClient().clearCache();
      window.dispatchEvent(new CustomEvent('channel-login', { detail: { method: 'password' }, bubbles: true }));
      window.dispatchEvent(new CustomEvent('channel-logout', { detail: {}, bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(eventRequests()).to.have.length(1);
      window.dispatchEvent(new CustomEvent('channel-purchase-complete', { detail: { orderId: 1 }, bubbles: true }));
      await waitUntil(() => eventRequests().length === 2, 'a host-reported purchase fetches the list again');
    });
  });

  describe('bad attribute values', () => {
    it('kind="bogus" shows a notice, warns in English, and renders the default kind', async () => {
      const el = await fixture(html`<channel-schedule kind="bogus"></channel-schedule>`);
      await loaded(el);
      expect($(el, '[part~="notice"]')?.textContent).to.equal(
        'Ignored kind="bogus": live, upcoming, vod, all, library.',
      );
      expect($(el, '[part~="title"]')?.textContent).to.equal('Upcoming events');
      expect(lastEvents().get('stream_status')).to.equal('upcoming');
      expect(logged).to.deep.include({
        level: 'warn',
        text: '<channel-schedule>: ignored kind="bogus"; expected live, upcoming, vod, all, library.',
      });
    });

    it('limit="-3" shows a notice and fetches the default page', async () => {
      const el = await fixture(html`<channel-schedule limit="-3"></channel-schedule>`);
      await loaded(el);
      expect($(el, '[part~="notice"]')?.textContent).to.equal('Ignored limit="-3": 1 to 5000.');
      expect(lastEvents().get('limit')).to.equal('50');
    });
  });

  describe('states', () => {
    it('empty: says there is nothing for this kind', async () => {
      eventsAnswer = () => json(eventList([]));
      const el = await fixture(html`<channel-schedule kind="live"></channel-schedule>`);
      await shows(el, 'No events are live right now.');
      expect(html$(el, '[part~="empty"]')).to.be.a('string');
      expect(links(el)).to.have.length(0);
      await expect(el).shadowDom.to.be.accessible();
    });

    it('error: retries a 5xx once after 1 s, then shows Try again, which refetches', async () => {
      const clock = new ManualClock();
      useFakePlatform({ setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout, now: () => clock.now });
      let fail = true;
      eventsAnswer = () => (fail ? json({ message: 'Server Error' }, 500) : json(eventList(ALL_EVENTS)));
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await waitUntil(() => eventRequests().length === 1, 'the first attempt');
      await clock.advance(999);
      expect(eventRequests(), 'no second attempt before 1 s').to.have.length(1);
      await clock.advance(1);
      await waitUntil(() => eventRequests().length === 2, 'the retry after 1 s');
      await shows(el, 'The events could not be loaded.');
      await clock.advance(60_000);
      expect(eventRequests(), 'exactly one retry').to.have.length(2);

      const error = $(el, '[part~="error"]')!;
      expect(error.getAttribute('role')).to.equal('alert');
      expect(error.textContent).to.contain('Oops! We are currently experiencing technical difficulties');
      const retry = [...error.querySelectorAll('button')].find((b) => b.textContent === 'Try again');
      expect(Boolean(retry), 'a Try again button').to.equal(true);

      fail = false;
      retry!.click();
      await loaded(el);
      expect(eventRequests()).to.have.length(3);
    });

    it('error state passes an a11y audit', async () => {
      eventsAnswer = () => json({ message: 'Unprocessable' }, 422);
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await shows(el, 'The events could not be loaded.');
      await expect(el).shadowDom.to.be.accessible();
    });

    it('a malformed events answer shows a clear message, not a blank element', async () => {
      eventsAnswer = () =>
        json({ data: { id: 1, name: 'a record where the list belongs' }, meta: { total: 1, offset: 0, limit: 50 } });
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await shows(el, 'The channel sent data this page cannot read. Please try again later.');
      expect($(el, '[part~="error"] button')?.textContent).to.equal('Try again');
    });

    it('one record it cannot read costs that record only: the others show, it is reported once, never shown', async () => {
      const broken = { id: 150, name: null, participants: 'Hawks, Owls', event_utc_ts: T0, stream_status: 'live' };
      // As another back end writes them: numeric strings, 0/1, nulls, [] for empty objects, fields we do not know.
      const laravel = { ...PAID, id: '102', event_utc_ts: String(PAID.event_utc_ts), price: '9.99', location: [] };
      eventsAnswer = () => json(eventList([LIVE_FREE, broken, laravel, { ...PURCHASED, pivot: { package_id: 1 } }]));
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await shows(el, 'Spring Swimming Gala');
      await shows(el, 'Championship Final');
      expect($(el, '[part~="error"]'), 'no error shown').to.equal(null);
      const links = [...el.shadowRoot!.querySelectorAll('[part~="event-link"]')];
      expect(links, 'the three readable events').to.have.length(3);
      await waitUntil(() => wire.some((r) => r.url.pathname === '/api/logs'), 'the report');
      const logs = wire.filter((r) => r.url.pathname === '/api/logs');
      expect(logs).to.have.length(1);
      expect(logs[0]!.body).to.deep.include({
        service: 'events',
        message: 'events: left out a record it cannot read (id 150, field data.1.name)',
      });
    });

    it('a non-JSON events answer shows the same clear message', async () => {
      eventsAnswer = () => new Response('<html>oops</html>', { status: 200, headers: { 'Content-Type': 'text/html' } });
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await shows(el, 'The channel sent data this page cannot read. Please try again later.');
    });

    it('loaded state passes an a11y audit', async () => {
      const el = await fixture(html`<channel-schedule show-filters></channel-schedule>`);
      await loaded(el);
      await expect(el).shadowDom.to.be.accessible();
    });

    it('table view passes an a11y audit', async () => {
      const el = await fixture(html`<channel-schedule view="table"></channel-schedule>`);
      await loaded(el);
      await expect(el).shadowDom.to.be.accessible();
    });
  });

  describe('favourites', () => {
    it('a guest pressing the star is asked to log in', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      const star = $<HTMLButtonElement>(el, '[part~="favourite"]')!;
      expect(star.getAttribute('aria-label')).to.equal('Add LSU @ NFU to favourites');
      expect(star.getAttribute('aria-pressed')).to.equal('false');
      star.click();
      await waitUntil(() => $(el, '[part~="toast"]'), 'a toast');
      expect($(el, '[part~="toast"]')!.textContent).to.contain('Please log in to start favouriting');
      expect($(el, '[part~="toasts"]')!.getAttribute('role')).to.equal('status');
    });

    /** A signed-in visitor: the token is in storage, so start-up loads the profile. */
    const asMember = () => env().storage.set('token.demo', 'tok-fan');
    // A signed-in viewer's star comes a moment after the list (its own chunk): null until then.
    const starOf = (el: Element) => $<HTMLButtonElement>(el, '[part~="favourite"]') as HTMLButtonElement;
    const popover = (el: Element) => $(el, '[part~="favourite-popover"]');
    const toggles = (el: Element) => $$<HTMLButtonElement>(el, '[part~="favourite-toggle"]');
    const toggleNamed = (el: Element, name: string) => {
      const found = toggles(el).find((b) => b.querySelector('.toggle-name')?.textContent === name);
      if (!found)
        throw new Error(
          `no toggle named ${name}; toggles: ${toggles(el)
            .map((b) => b.textContent)
            .join(', ')}`,
        );
      return found;
    };
    /** Waits for the signed-in star (a disclosure button) of the first card. */
    const memberStar = async (el: Element) => {
      await waitUntil(() => starOf(el)?.hasAttribute('aria-expanded'), 'the signed-in star');
      return starOf(el);
    };

    it('a guest pressing the star fires channel-login-request (reason favourite), bubbling and composed', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      const seen: CustomEvent[] = [];
      const onRequest = (e: Event) => seen.push(e as CustomEvent);
      document.addEventListener('channel-login-request', onRequest);
      try {
        starOf(el).click();
      } finally {
        document.removeEventListener('channel-login-request', onRequest);
      }
      expect(seen).to.have.length(1);
      expect(seen[0]!.detail).to.deep.equal({ reason: 'favourite', eventId: 101 });
      expect(seen[0]!.bubbles && seen[0]!.composed, 'bubbles and composed').to.equal(true);
      expect(seen[0]!.target === el, 'fired from the element').to.equal(true);
      expect(sent('GET', '/api/favorites'), 'a guest loads no favourites').to.have.length(0);
    });

    it('signed in: the star opens Follow toggles; toggling a team posts it and the star shows following', async () => {
      asMember();
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      const star = await memberStar(el);
      expect(star.getAttribute('aria-expanded')).to.equal('false');
      expect(star.getAttribute('aria-label')).to.equal('Add LSU @ NFU to favourites');
      expect(star.textContent).to.equal('☆');
      star.click();
      await waitUntil(() => toggles(el).length === 4, 'two teams, their school and the sport');
      expect(star.getAttribute('aria-expanded')).to.equal('true');
      expect(star.getAttribute('aria-controls')).to.equal(popover(el)!.id);
      expect(popover(el)!.getAttribute('role')).to.equal('group');
      // Its styles came with its code: it floats over the cards, and each toggle is a full-width row.
      expect(getComputedStyle(popover(el)!).position).to.equal('absolute');
      expect(getComputedStyle(toggles(el)[0]!).display).to.equal('flex');
      expect(root(el).getElementById(popover(el)!.getAttribute('aria-labelledby')!)?.textContent).to.equal('Follow');
      expect(
        toggles(el).map((b) => [
          b.querySelector('.toggle-name')?.textContent,
          b.querySelector('.toggle-kind')?.textContent,
          b.getAttribute('aria-pressed'),
        ]),
      ).to.deep.equal([
        ['Northfield Huskies', 'Team', 'false'],
        ['Lakeside State Lakers', 'Team', 'false'],
        ['Northfield University', 'School', 'false'],
        ["Men's Hockey", 'Sport', 'false'],
      ]);

      toggleNamed(el, 'Lakeside State Lakers').click();
      await waitUntil(
        () => toggleNamed(el, 'Lakeside State Lakers').getAttribute('aria-pressed') === 'true',
        'the toggle pressed',
      );
      const [post, ...more] = sent('POST', '/api/favorite');
      expect(more).to.have.length(0);
      expect(post!.body).to.deep.equal({ favoritable_id: 12, favoritable_type: 'participant', api_key: API_KEY });
      expect(post!.auth).to.equal('Bearer tok-fan');
      // Reloaded after the add.
      await waitUntil(() => sent('GET', '/api/favorites').length === 2, 'the reload');
      expect(wire.indexOf(sent('GET', '/api/favorites')[1]!)).to.be.above(wire.indexOf(post!));
      expect(star.getAttribute('aria-label')).to.equal('Following LSU @ NFU: change favourites');
      expect(star.textContent).to.equal('★');
      expect(star.getAttribute('part')).to.equal('favourite favourite-following');
      // Only the event with that team is followed.
      expect($$(el, '[part~="favourite"]').map((b) => b.textContent)).to.deep.equal(['★', '☆', '☆']);

      toggleNamed(el, 'Lakeside State Lakers').click();
      await waitUntil(() => sent('DELETE', '/api/favorite/500').length === 1, 'the delete');
      await waitUntil(() => star.textContent === '☆', 'the star no longer following');
      expect(toggleNamed(el, 'Lakeside State Lakers').getAttribute('aria-pressed')).to.equal('false');
      expect(star.getAttribute('aria-label')).to.equal('Add LSU @ NFU to favourites'); // The list itself was fetched once: the viewer was known from the stored token before it went out.
      expect(eventRequests()).to.have.length(1);
    });

    it('a favourite school or sport also fills the star, in the table view too', async () => {
      asMember();
      favs.event_category = [{ id: 90, favoritable_id: 7, favoritable_type: 'category', name: "Men's Hockey" }];
      const el = await fixture(html`<channel-schedule view="table"></channel-schedule>`);
      await loaded(el);
      await waitUntil(() => starOf(el)?.textContent === '★', 'the followed sport fills the star');
      expect($$(el, 'td [part~="favourite"]').map((b) => b.textContent)).to.deep.equal(['★', '☆', '☆']);
      starOf(el).click();
      await waitUntil(() => toggles(el).length === 4, 'the toggles');
      expect(toggleNamed(el, "Men's Hockey").getAttribute('aria-pressed')).to.equal('true');
      await expect(el).shadowDom.to.be.accessible();
    });

    it('keyboard: Escape closes the popover and gives the focus back to the star; a press outside closes it', async () => {
      asMember();
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      const star = await memberStar(el);
      star.focus();
      star.click();
      await waitUntil(() => toggles(el).length === 4, 'the toggles');
      // Toggles follow the star in the focus order, as real buttons.
      const first = toggles(el)[0]!;
      expect(first.tagName).to.equal('BUTTON');
      expect(first.tabIndex).to.equal(0);
      expect(
        Boolean(star.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING),
        'after the star',
      ).to.equal(true);
      first.focus();
      first.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
      await waitUntil(() => !popover(el), 'closed by Escape');
      expect(root(el).activeElement === star, 'the star has the focus again').to.equal(true);
      expect(star.getAttribute('aria-expanded')).to.equal('false');
      expect(star.hasAttribute('aria-controls')).to.equal(false);

      star.click();
      await waitUntil(() => popover(el), 'open again');
      document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, composed: true }));
      await waitUntil(() => !popover(el), 'closed by a press outside');
    });

    it('the open popover passes an a11y audit', async () => {
      asMember();
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      (await memberStar(el)).click();
      await waitUntil(() => toggles(el).length === 4, 'the toggles');
      await expect(el).shadowDom.to.be.accessible();
    });

    it('signing in elsewhere on the page turns the stars into Follow buttons and reloads the events', async () => {
      favs.participant = [{ id: 91, favoritable_id: 11, favoritable_type: 'participant', name: 'Northfield Huskies' }];
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      expect(starOf(el).hasAttribute('aria-expanded')).to.equal(false);
      await signInWithToken('tok-fan');
      await waitUntil(() => starOf(el)?.textContent === '★', 'the followed team fills the star');
      expect(starOf(el).hasAttribute('aria-expanded')).to.equal(true);
      // Access badges depend on the viewer: the list is fetched again, with the token.
      await waitUntil(() => eventRequests().length === 2, 'the events again');
      expect(wire.filter((r) => r.url.pathname === '/api/events').map((r) => r.auth)).to.deep.equal([
        null,
        'Bearer tok-fan',
      ]);
    });
  });

  describe('favourites attribute', () => {
    const asMember = () => env().storage.set('token.demo', 'tok-fan');
    const lastFavouriteQuery = () => {
      const list = favouriteEventRequests();
      return Object.fromEntries([...list[list.length - 1]!.searchParams].filter(([k]) => k !== 'api_key'));
    };

    it('asks GET events/favorite with the schedule parameters, empty values dropped, and shows only those events (here by favorites, the spelling of earlier versions)', async () => {
      asMember();
      favs.participant = [{ id: 91, favoritable_id: 11, favoritable_type: 'participant', name: 'Northfield Huskies' }];
      favouriteEventsAnswer = () => json(eventList([LIVE_FREE]));
      const el = await fixture(html`<channel-schedule favorites kind="live" city="" sport=" "></channel-schedule>`);
      await loaded(el, 1);
      expect(favouriteEventRequests()).to.have.length(1);
      expect(lastFavouriteQuery()).to.deep.equal({ stream_status: 'live', offset: '0', limit: '50' });
      expect(favouriteEventRequests()[0]!.searchParams.get('api_key')).to.equal(API_KEY);
      expect(sent('GET', '/api/events/favorite')[0]!.auth).to.equal('Bearer tok-fan');
      expect(eventRequests(), 'never the full list').to.have.length(0);
      expect(links(el).map((a) => a.getAttribute('href'))).to.deep.equal(['/watch/101']);
      expect($(el, '[part~="title"]')?.textContent).to.equal('Live now: your favourites');
      await waitUntil(() => starOf(el)?.textContent === '★', 'its star is filled');

      el.setAttribute('kind', 'all');
      await waitUntil(() => favouriteEventRequests().length === 2, 'kind re-queries');
      expect(lastFavouriteQuery()).to.deep.equal({ offset: '0', limit: '50' });
    });

    const starOf = (el: Element) => $<HTMLButtonElement>(el, '[part~="favourite"]')!;

    it('reloads when a favourite changes', async () => {
      asMember();
      favs.participant = [{ id: 91, favoritable_id: 11, favoritable_type: 'participant', name: 'Northfield Huskies' }];
      favouriteEventsAnswer = () => json(eventList(favs.participant.length ? [LIVE_FREE] : []));
      const el = await fixture(html`<channel-schedule favourites></channel-schedule>`);
      await loaded(el, 1);
      await waitUntil(() => $(el, '[part~="favourite"]'), 'the star (its own chunk)');
      starOf(el).click();
      await waitUntil(() => $$(el, '[part~="favourite-toggle"]').length === 4, 'the toggles');
      $$<HTMLButtonElement>(el, '[part~="favourite-toggle"]')[0]!.click();
      await waitUntil(() => sent('DELETE', '/api/favorite/91').length === 1, 'the delete');
      await waitUntil(() => favouriteEventRequests().length === 2, 'the list again');
      await shows(el, 'You have no favourites yet.');
    });

    it('no favourites, or none with events: says so', async () => {
      asMember();
      const el = await fixture(html`<channel-schedule favourites></channel-schedule>`);
      await shows(el, 'You have no favourites yet. Follow teams, schools or sports with the star of any event.');
      expect(html$(el, '[part~="empty"]')).to.be.a('string');

      resetSession();
      useFakePlatform();
      asMember();
      favs.participant_group = [
        { id: 92, favoritable_id: 1, favoritable_type: 'group', name: 'Northfield University' },
      ];
      const other = await fixture(html`<channel-schedule favourites lang="fr"></channel-schedule>`);
      await shows(other, "Aucun de vos favoris n'a d'événement ici.");
    });

    it('a guest sees a sign-in prompt (nothing fetched) whose button fires channel-login-request; signing in loads', async () => {
      favouriteEventsAnswer = () => json(eventList([LIVE_FREE]));
      const el = await fixture(html`<channel-schedule favourites></channel-schedule>`);
      await shows(el, "Sign in to see your favourites' events");
      const prompt = $(el, '[part~="sign-in"]')!;
      const button = prompt.querySelector('button')!;
      expect(button.textContent).to.equal('Sign in');
      const seen: CustomEvent[] = [];
      const onRequest = (e: Event) => seen.push(e as CustomEvent);
      document.addEventListener('channel-login-request', onRequest);
      try {
        button.click();
      } finally {
        document.removeEventListener('channel-login-request', onRequest);
      }
      expect(seen.map((e) => e.detail)).to.deep.equal([{ reason: 'favourite' }]);
      expect(favouriteEventRequests()).to.have.length(0);
      expect(eventRequests()).to.have.length(0);
      await expect(el).shadowDom.to.be.accessible();

      await signInWithToken('tok-fan');
      await loaded(el, 1);
      expect(favouriteEventRequests()).to.have.length(1);
      expect(html$(el, '[part~="sign-in"]')).to.equal(null);
    });

    it('an account with a temporary password is told to replace it first (nothing fetched); once replaced, the list loads', async () => {
      asMember();
      profileUser = { ...USER, temporary_password: true };
      favouriteEventsAnswer = () => json(eventList([LIVE_FREE]));
      const el = await fixture(html`<channel-schedule favourites></channel-schedule>`);
      await shows(el, 'You signed in with a temporary password. Choose a new password in your profile first.');
      expect($(el, '[part~="temporary-password"]')).to.not.equal(null);
      expect(favouriteEventRequests(), 'the server would refuse it').to.have.length(0);
      expect(sent('GET', '/api/favorites'), 'no favourites either').to.have.length(0);
      await expect(el).shadowDom.to.be.accessible();

      // The profile saves a new password: the same user, unlocked.
      $user.set({ ...$user.get()!, temporary_password: false });
      await loaded(el, 1);
      expect(favouriteEventRequests()).to.have.length(1);
    });

    it('pages like the normal list', async () => {
      asMember();
      const many = Array.from({ length: 70 }, (_, i) => ({ ...PAID, id: 3000 + i, name: `Event ${i + 1}` }));
      favouriteEventsAnswer = paged(many);
      const el = await fixture(html`<channel-schedule favourites></channel-schedule>`);
      await waitUntil(() => links(el).length >= 12, 'the first events');
      $<HTMLButtonElement>(el, '[part~="more"]')!.click();
      await waitUntil(() => favouriteEventRequests().length === 2, 'the second page');
      await waitUntil(() => !html$(el, '[part~="more"]'), 'everything loaded');
      expect(
        favouriteEventRequests().map((u) => [u.searchParams.get('offset'), u.searchParams.get('limit')]),
      ).to.deep.equal([
        ['0', '50'],
        ['50', '50'],
      ]);
      expect($(el, '[part~="count"]')?.textContent).to.equal('70 events');
    });
  });

  describe('language', () => {
    it('lang="fr" renders French', async () => {
      const el = await fixture(html`<channel-schedule lang="fr"></channel-schedule>`);
      await loaded(el);
      expect($(el, '[part~="title"]')?.textContent).to.equal('Événements à venir');
      expect($(el, '[part~="frame"]')?.getAttribute('lang')).to.equal('fr');
      expect($(el, '[part~="badge-live"]')?.textContent).to.equal('En direct');
      // The channel currency (USD) in the spec's form, with French digits.
      expect($(el, '[part~="badge-paid"]')?.textContent).to.equal('Payant · USD $9,99');
    });

    it('takes the language of the nearest [lang] ancestor', async () => {
      const wrap = await fixture(
        html`<div lang="fr-CA">
          <section><channel-schedule kind="live"></channel-schedule></section>
        </div>`,
      );
      const el = wrap.querySelector('channel-schedule')!;
      await loaded(el);
      expect($(el, '[part~="title"]')?.textContent).to.equal('En direct');
    });

    it('follows a lang attribute set after render', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      el.setAttribute('lang', 'fr');
      await waitUntil(() => $(el, '[part~="title"]')?.textContent === 'Événements à venir', 'French after the change');
      el.removeAttribute('lang');
      await waitUntil(() => $(el, '[part~="title"]')?.textContent === 'Upcoming events', 'English again');
    });

    it('its own lang wins over an ancestor', async () => {
      const wrap = await fixture(html`<div lang="fr"><channel-schedule lang="en"></channel-schedule></div>`);
      const el = wrap.querySelector('channel-schedule')!;
      await loaded(el);
      expect($(el, '[part~="title"]')?.textContent).to.equal('Upcoming events');
    });
  });

  describe('keyboard', () => {
    it('card links and stars are focusable links and buttons', async () => {
      const el = await fixture(html`<channel-schedule></channel-schedule>`);
      await loaded(el);
      const link = links(el)[0]!;
      expect(link.tagName).to.equal('A');
      expect(link.hasAttribute('href')).to.equal(true);
      expect(link.tabIndex).to.equal(0);
      link.focus();
      expect(root(el).activeElement === link, 'the link has focus').to.equal(true);

      const star = $<HTMLButtonElement>(el, '[part~="favourite"]')!;
      expect(star.tagName).to.equal('BUTTON');
      expect(star.type).to.equal('button');
      expect(star.tabIndex).to.equal(0);
      star.focus();
      expect(root(el).activeElement === star, 'the star has focus').to.equal(true);
      // The star is outside the link (no interactive element nested in another).
      expect(link.contains(star)).to.equal(false);
    });
  });
});
