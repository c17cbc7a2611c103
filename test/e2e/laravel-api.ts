/**
 * A second channel API for the end-to-end journeys (laravel.spec.ts), built to the spec (product-spec.md, section 7)
 * with a Laravel/MySQL back end's habits, and written apart from the reference server (nothing of server/ is
 * imported): what the elements must read from a channel that is not ours.
 *
 * Its habits, on every answer:
 * - records carry their timestamps (`created_at`, `updated_at`, `deleted_at`) and, where a relation lists them, a
 *   `pivot`; ids are numeric strings, so are decimal prices;
 * - booleans are 0/1 (or "0"/"1"), empty optional fields are null, an empty object is `[]` (PHP's `json_encode` of an
 *   empty array);
 * - the profile has no `email_verified` (the spec's User has none);
 * - every list has one malformed record (a name null, a list where a text belongs...), and paginated lists come in
 *   Laravel's envelope: `data`, `links` and `meta` (current_page, from, per_page, total...);
 * - `get_api_key` reads JSON only: a form body is refused with 422, as a Laravel FormRequest over `$request->json()`
 *   would;
 * - an order paid asynchronously: `created` until 2.5 s after `stripe/buy`, then `Paid`;
 * - CORS as Laravel's HandleCors middleware does it, for the host pages' origin only: a preflight (`OPTIONS` with
 *   Access-Control-Request-Method) is answered 204 with the method and headers asked for, and no cache (Laravel's
 *   `max_age` 0), every answer names the allowed origin; another origin gets no CORS headers (the browser refuses).
 *   The preflights it answered are listed at `GET /__preflights` for the journeys to check.
 *
 * It also serves, on a second port (another origin, as a channel's site is not its API's), the host pages the journeys
 * open (the bundle comes from the reference server's origin); from the API's origin, its own HLS media (made with
 * ffmpeg at start: a preroll and a recording) and the small part of Stripe's API that the Stripe.js test double
 * (demo/site/stripe-test-double.js, served from here too, as Stripe.js comes from Stripe's own origin) calls.
 *
 * Run: `node --import tsx test/e2e/laravel-api.ts` with LARAVEL_PORT, LARAVEL_HOST_PORT and BUNDLE_ORIGIN
 * (playwright.config.ts does).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const PORT = Number(process.env.LARAVEL_PORT ?? 8092);
const ORIGIN = `http://localhost:${PORT}`;
const HOST_PORT = Number(process.env.LARAVEL_HOST_PORT ?? PORT + 1);
/** The host pages' origin: the one origin the API's CORS allows. */
const HOST_ORIGIN = `http://localhost:${HOST_PORT}`;
const BUNDLE = process.env.BUNDLE_ORIGIN ?? 'http://localhost:8090';
/** The embed key of the page, and the channel key its keys file names. */
export const LARAVEL_EMBED_KEY = 'laravel-demo';
const CHANNEL_KEY = 'ck-laravel';

// ------------------------------------------------------------------ Laravel's habits

const STAMP = '2026-01-02T10:00:00.000000Z';
/** What Eloquent adds to every model it serializes. */
const stamps = { created_at: STAMP, updated_at: STAMP, deleted_at: null };
/** A pivot row of a many-to-many relation. */
const pivot = (a: string, b: string) => ({ pivot: { [a]: '1', [b]: '1', created_at: STAMP, updated_at: STAMP } });
const NOW = Math.floor(Date.now() / 1000);
const DAY = 86_400;

// ------------------------------------------------------------------ the channel's data

const categories = [
  {
    id: '1',
    name: 'Hockey',
    alias: null,
    parent_id: null,
    sport: 'hockey',
    gender: null,
    ...stamps,
    children: [
      {
        id: '2',
        name: 'U18 Hockey',
        alias: null,
        parent_id: '1',
        sport: 'hockey',
        gender: 'male',
        ...stamps,
        children: [],
      },
    ],
  },
  {
    id: '3',
    name: 'Basketball',
    alias: 'basketball',
    parent_id: null,
    sport: 'basketball',
    gender: null,
    ...stamps,
    children: [],
  },
  { id: null, name: 'Unnamed', children: 'none' },
];
const locations = [
  { id: '1', name: 'Harbor Arena', city: 'Boston', state: 'MA', time_zone: null, ...stamps },
  { id: '2', name: 'Lakefront Center', city: 'Chicago', state: 'IL', time_zone: 'America/Chicago', ...stamps },
  { id: 'x', name: null },
];
const team = (id: string, name: string, short: string, sport: string) => ({
  id,
  name,
  short_name: short,
  alias: null,
  images: [],
  color: null,
  properties: { gender: 'male', sport },
  participant_group_id: '21',
  children: null,
  ...stamps,
  ...pivot('event_id', 'participant_id'),
});
const participants = [
  team('11', 'Harbor Hawks', 'HAW', 'hockey'),
  team('12', 'Lakeside Owls', 'OWL', 'hockey'),
  team('13', 'River Foxes', 'FOX', 'basketball'),
  team('14', 'Hill Bears', 'BEA', 'basketball'),
  { id: '15', name: null, images: 'logo.png' },
];
const groups = [
  { id: '21', name: 'Northfield Academy', alias: null, image: null, properties: { division: 'I' }, ...stamps },
  { id: '22', name: 'Southgate College', alias: 'southgate', image: null, properties: [], ...stamps },
  { id: null, name: 'Nowhere' },
];
const groupProperties = [
  { name: 'division', values: ['I', 'II'] },
  { name: null, values: 'all' },
];

const media = (file: string) => `${ORIGIN}/media/${file}/index.m3u8`;

interface LaravelEvent {
  [field: string]: unknown;
  id: string;
  name: string | null;
  event_utc_ts: string | number;
  stream_status: string;
  type: string;
  event_category_id: string | null;
}
const event = (
  id: string,
  name: string,
  fields: Partial<LaravelEvent> & { home?: number; away?: number; location?: number },
): LaravelEvent => {
  const { home, away, location, ...rest } = fields;
  return {
    id,
    name,
    type: 'free',
    event_utc_ts: String(NOW + Number(id) * 3600),
    time_zone: null,
    has_access: 0,
    participants: home && away ? [participants[away - 11], participants[home - 11]] : [],
    home_team_id: home ? String(home) : null,
    location_id: location ? String(location) : null,
    location: location ? locations[location - 1] : null,
    event_category_id: '2',
    category: { id: '2', name: 'U18 Hockey', ...stamps },
    stream_status: 'upcoming',
    image: null,
    description: null,
    price: null,
    is_geo_blocked: '0',
    single_event_package_id: null,
    duration: null,
    has_recording: 1,
    media: [],
    ...stamps,
    ...rest,
  };
};
/** A basketball game's category. */
const basketball = { event_category_id: '3', category: { id: '3', name: 'Basketball', ...stamps } };
const events: LaravelEvent[] = [
  event('101', 'Hawks at Owls: the final', {
    home: 12,
    away: 11,
    location: 1,
    stream_status: 'finished',
    event_utc_ts: String(NOW - DAY),
    media: [{ type: 'vod', url: media('main'), ...stamps }],
  }),
  event('102', 'Championship night', {
    home: 11,
    away: 12,
    location: 2,
    type: 'paid',
    price: '9.99',
    single_event_package_id: '201',
    event_utc_ts: String(NOW + 2 * DAY),
  }),
  event('103', 'Foxes vs Bears', { home: 14, away: 13, ...basketball, event_utc_ts: String(NOW + 3 * DAY) }),
  event('104', 'Bears at Foxes', {
    home: 13,
    away: 14,
    ...basketball,
    stream_status: 'live',
    event_utc_ts: String(NOW - 600),
  }),
  event('105', 'Owls at Hawks', { home: 11, away: 12, location: 1, event_utc_ts: String(NOW + 4 * DAY) }),
  // The list's malformed record: no name, and its teams written as one text.
  { ...event('199', 'x', { event_utc_ts: String(NOW + DAY) }), name: null, participants: 'Hawks, Owls' },
];
const sportOf = (e: LaravelEvent) =>
  e.event_category_id === '3' ? 'basketball' : e.event_category_id === null ? undefined : 'hockey';

const packages = [
  {
    id: '201',
    name: 'Championship night pass',
    price: '9.99',
    base_price: null,
    service_fee: '0.50',
    weight: '1',
    period: null,
    description: null,
    event_categories: [],
    participants: [],
    is_team_pass: 0,
    type: 'single',
    offer: null,
    ...stamps,
  },
  {
    id: '202',
    name: 'Hockey season pass',
    price: '49.00',
    base_price: '59.00',
    service_fee: null,
    weight: '2',
    period: null,
    description: 'Every hockey game of the season.',
    event_categories: ['1', '2'],
    participants: [],
    is_team_pass: '0',
    type: 'category',
    offer: null,
    ...stamps,
  },
  { id: '203', name: null, price: 'free', event_categories: 'all' },
];
const subscriptions = [
  {
    id: '301',
    name: 'Monthly pass',
    price: '12.99',
    base_price: null,
    service_fee: null,
    weight: '0',
    period: 'month',
    description: null,
    offer: 'monthly',
    trial_period: null,
    ...stamps,
  },
  { id: '302', name: 'Annual pass', price: null, offer: 'annual' },
];
const slides = [
  {
    id: '1',
    title: 'The final, on demand',
    image: `${ORIGIN}/media/slide.svg`,
    link: null,
    slidable_type: null,
    slidable_id: null,
    ...stamps,
  },
  { id: null, title: 'A slide without its id' },
];
const menu = [
  { id: '1', name: 'Schedule', alias: null, url: '/schedule', custom_icon: null, type: 'link', items: [], ...stamps },
  { id: '2', name: 'Packages', alias: null, url: '/packages', custom_icon: null, type: 'link', items: [], ...stamps },
  { id: 'three', name: null },
];

/** The settings, with Laravel's nulls and empty arrays; `prerolls` has one malformed entry. */
const settings = {
  id: '1',
  name: 'Laravel Sports Network',
  language: null,
  currency: null,
  'google-analytics': null,
  'yare-analytics': null,
  auth: { remote_auth: '0' },
  prerolls: [
    {
      id: '1',
      url: media('ad'),
      weight: null,
      location_id: null,
      event_categories: [],
      for_vod: 1,
      for_live: '1',
      ...stamps,
    },
    { id: null, url: 42, weight: 'heavy' },
  ],
  preroll_options: [],
  static_blocks: [],
  logo: null,
  social: [],
  site_url: null,
  mux: null,
  stripe: { publishable_key: 'pk_test_laravel' },
  gtag_url: null,
  ...stamps,
};

// ------------------------------------------------------------------ accounts and orders (in memory)

interface Account {
  id: string;
  email: string;
  password: string;
  first_name: string;
  last_name: string;
}
const accounts = new Map<string, Account>();
const tokens = new Map<string, Account>();
const apiKeys = new Set<string>();
interface Order {
  id: string;
  account: string;
  type: string;
  productId: string;
  price: string;
  at: number;
}
const orders = new Map<string, Order>();
let nextOrder = 900;

/** The profile as a Laravel resource writes it: no email_verified, nulls, 0/1 and `[]`. */
const profile = (account: Account) => ({
  id: account.id,
  email: account.email,
  first_name: account.first_name,
  last_name: account.last_name,
  temporary_password: 0,
  gender: null,
  capabilities: ['watch'],
  trial_period_used: '0',
  featureCount: [],
  is_geo_blocked: 0,
  news: null,
  provider: null,
  has_password: null,
  ...stamps,
});

const orderJson = (order: Order) => {
  const paid = Date.now() - order.at > 2_500;
  return {
    id: order.id,
    type: order.type,
    status: paid ? 'Paid' : 'created',
    activity_status: paid ? 'Active' : null,
    product: {
      id: order.productId,
      name: null,
      event_category_id: null,
      participant_id: null,
      ...pivot('order_id', 'product_id'),
    },
    price: order.price,
    currency: null,
    reference: `LV-${order.id}`,
    created_at: new Date(order.at).toISOString(),
    expires_at: null,
    subscription_status: null,
    auto_renewal: null,
    error: null,
    updated_at: STAMP,
  };
};

// ------------------------------------------------------------------ answers

type Json = Record<string, unknown> | unknown[];
interface Answer {
  status: number;
  body: Json | string;
  type?: string;
}
const json = (body: Json, status = 200): Answer => ({ status, body });
const data = (value: unknown): Answer => json({ data: value });

/** Laravel's paginator: `data`, `links` and `meta` for a page at `offset` of `limit`. */
function paginate(all: unknown[], url: URL): Answer {
  const limit = Math.max(1, Number(url.searchParams.get('limit') ?? 15));
  const offset = Math.max(0, Number(url.searchParams.get('offset') ?? 0));
  const page = all.slice(offset, offset + limit);
  const current = Math.floor(offset / limit) + 1;
  const last = Math.max(1, Math.ceil(all.length / limit));
  const at = (n: number) => `${ORIGIN}${url.pathname}?page=${n}`;
  return json({
    data: page,
    links: {
      first: at(1),
      last: at(last),
      prev: current > 1 ? at(current - 1) : null,
      next: current < last ? at(current + 1) : null,
    },
    meta: {
      current_page: current,
      from: page.length ? offset + 1 : null,
      last_page: last,
      path: `${ORIGIN}${url.pathname}`,
      per_page: limit,
      to: page.length ? offset + page.length : null,
      total: all.length,
    },
  });
}

/** `GET events` with the query filters the spec names. */
function eventList(url: URL): Answer {
  const q = url.searchParams;
  const status = q.get('stream_status');
  const sport = q.get('sport');
  const list = events.filter(
    (e) =>
      (!status || e.stream_status === status) &&
      (!sport || sportOf(e) === undefined || sportOf(e) === sport) &&
      (!q.get('category') || e.event_category_id === q.get('category') || e.event_category_id === null),
  );
  return paginate(list, url);
}

const NOT_FOUND = json({ message: 'Not Found' }, 404);
const UNAUTHENTICATED = json({ message: 'Unauthenticated.' }, 401);

/** The API's routes (under /api). */
function api(
  method: string,
  route: string,
  url: URL,
  body: Record<string, unknown>,
  account: Account | undefined,
): Answer {
  const key = String(url.searchParams.get('api_key') ?? body.api_key ?? '');
  const keyless = url.searchParams.get('channel_key') ?? body.channel_key;
  if (method === 'GET' && route === 'settings') return data(settings);
  if (method === 'GET' && route === 'color-settings/web') return data([]);
  if (method === 'GET' && route === 'menu') return data(menu);
  if (method === 'GET' && route === 'pages') return data([]);
  if (method === 'GET' && route === 'slides/web') return data(slides);
  if (method === 'GET' && route === 'events-locations') return data(locations);
  if (method === 'GET' && route === 'participants') return data(participants);
  if (method === 'GET' && route === 'participant-groups') return data(groups);
  if (method === 'GET' && route === 'packages') return data(packages);
  if (method === 'GET' && route === 'subscriptions') return data(subscriptions);
  if (method === 'POST' && route === 'logs') return json({ data: { id: String(Date.now()) } }, 201);
  let m = /^packages\/(\d+)$/.exec(route);
  if (method === 'GET' && m)
    return packages.find((p) => p.id === m![1]) ? data(packages.find((p) => p.id === m![1])) : NOT_FOUND;
  m = /^subscriptions\/(\d+)$/.exec(route);
  if (method === 'GET' && m) {
    const found = subscriptions.find((s) => s.id === m![1]);
    return found ? data(found) : NOT_FOUND;
  }
  if (keyless !== undefined && keyless !== CHANNEL_KEY)
    return json({ message: 'No chanel or api key found.', errors: { channel_key: ['Unknown channel.'] } }, 400);
  // Every other call needs the api key.
  if (!apiKeys.has(key))
    return json({ message: 'No chanel or api key found.', errors: { api_key: ['The api key is invalid.'] } }, 400);
  if (method === 'GET' && route === 'geo')
    return data({ country: 'Canada', country_code: 'CA', ip: '127.0.0.1', is_geo_blocked: 0 });
  if (method === 'GET' && route === 'events') return eventList(url);
  if (method === 'GET' && route === 'events-categories') return data(categories);
  if (method === 'GET' && route === 'participant-group-properties') return data(groupProperties);
  if (method === 'GET' && route === 'events-for-homepage')
    return data({
      live: events.filter((e) => e.stream_status === 'live' || e.id === '199'),
      upcoming: events.filter((e) => e.stream_status === 'upcoming'),
      finished: events.filter((e) => e.stream_status === 'finished' || e.id === '199'),
    });
  m = /^events\/(\d+)$/.exec(route);
  if (method === 'GET' && m) {
    const found = events.find((e) => e.id === m![1] && e.name);
    if (!found) return NOT_FOUND;
    const owned = account && [...orders.values()].some((o) => o.account === account.id && o.productId === found.id);
    return data({ ...found, has_access: found.type === 'free' || owned ? 1 : 0 });
  }
  if (method === 'POST' && route === 'v2/auth/login') {
    const found = accounts.get(String(body.email ?? '').toLowerCase());
    if (!found || found.password !== body.password)
      return json({ message: 'Invalid email or password. Please try again.' }, 422);
    return session(found);
  }
  if (method === 'POST' && route === 'v2/auth/register') {
    const email = String(body.email ?? '').toLowerCase();
    if (accounts.has(email))
      return json(
        { message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } },
        422,
      );
    const created = {
      id: String(accounts.size + 500),
      email,
      password: String(body.password ?? ''),
      first_name: String(body.first_name ?? ''),
      last_name: String(body.last_name ?? ''),
    };
    accounts.set(email, created);
    return session(created);
  }
  // The viewer's own calls.
  if (!account) return UNAUTHENTICATED;
  if (method === 'GET' && route === 'profile') return data(profile(account));
  if (method === 'POST' && route === 'auth/logout') return data({ message: 'Logged out.' });
  if (method === 'GET' && route === 'user/access') return data({ capabilities: ['watch'], featureCount: [] });
  if (method === 'GET' && route === 'favorites') return data([]);
  if (method === 'GET' && (route === 'events/favorite' || route === 'events/with_clip')) return paginate([], url);
  if (method === 'GET' && route === 'clips/user') return data([]);
  if (method === 'GET' && route === 'stripe/list-cards') return data([]);
  if (method === 'GET' && route === 'orders') return paginate(mine(account).map(orderJson), url);
  m = /^orders\/(\d+)$/.exec(route);
  if (method === 'GET' && m) {
    const found = orders.get(m[1]!);
    return found && found.account === account.id ? data(orderJson(found)) : NOT_FOUND;
  }
  if (method === 'GET' && route === 'pricing') return pricing(url);
  if (method === 'POST' && route === 'stripe/buy') {
    // What pays: the Payment Element's confirmation token (ctoken_…), or a saved card's id.
    if (!/^(ctoken|pm)_\w+$/.test(String(body.confirmation_token ?? body.payment_method ?? '')))
      return json({ message: 'The confirmation token field is required.' }, 422);
    const priced = pricing(url, body);
    if (priced.status !== 200) return priced;
    const order: Order = {
      id: String(nextOrder++),
      account: account.id,
      type: String(body.type),
      productId: String(body.type === 'event' ? body.id : body.id),
      price: String((priced.body as { data: { total: string } }).data.total),
      at: Date.now(),
    };
    orders.set(order.id, order);
    return data({ order: orderJson(order) });
  }
  return NOT_FOUND;
}

const mine = (account: Account) => [...orders.values()].filter((o) => o.account === account.id);

function session(account: Account): Answer {
  const token = randomBytes(16).toString('hex');
  tokens.set(token, account);
  return data({ token, token_type: 'Bearer', user: profile(account) });
}

/** `GET pricing` (and the price `stripe/buy` charges): decimals as strings, 0/1 flags, nulls. */
function pricing(url: URL, body: Record<string, unknown> = {}): Answer {
  const get = (name: string) => String(body[name] ?? url.searchParams.get(name) ?? '');
  const type = get('type');
  const id = get('id');
  const offer =
    type === 'event'
      ? packages.find((p) => p.id === get('single_event_package_id'))
      : type === 'package'
        ? packages.find((p) => p.id === id)
        : subscriptions.find((s) => s.id === id);
  if (!offer || !offer.price || Number.isNaN(Number(offer.price))) return json({ message: 'Product not found.' }, 404);
  const name = type === 'event' ? (events.find((e) => e.id === id)?.name ?? offer.name) : offer.name;
  const fee = 'service_fee' in offer && offer.service_fee ? offer.service_fee : '0';
  return data({
    type,
    id,
    name,
    price: offer.price,
    base_price: null,
    service_fee: fee,
    discount: '0.00',
    total: (Number(offer.price) + Number(fee)).toFixed(2),
    currency: 'USD',
    coupon: null,
    offer: 'offer' in offer ? offer.offer : null,
    trial_period: null,
    participant_id: null,
    purchased: 0,
  });
}

// ------------------------------------------------------------------ host pages

const page = (title: string, lang: string, body: string, stripe = false) => `<!doctype html>
<html lang="${lang === 'fr' ? 'fr' : 'en'}">
<head>
  <meta charset="utf-8">
  <link rel="icon" href="data:,">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  ${stripe ? `<script src="${ORIGIN}/stripe-test-double.js"></script>` : ''}
  <script src="${BUNDLE}/channel-elements.js" data-channel-key="${LARAVEL_EMBED_KEY}" data-api-url="${ORIGIN}/api"
    data-keys-url="${ORIGIN}/keys" data-lang="${lang === 'fr' ? 'fr' : 'en'}" async></script>
</head>
<body>
${body}
</body>
</html>`;

function hostPage(url: URL): Answer | undefined {
  const lang = url.searchParams.get('lang') ?? 'en';
  if (url.pathname === '/schedule.html')
    return {
      status: 200,
      type: 'text/html',
      body: page('Schedule', lang, '<channel-schedule kind="all" show-filters></channel-schedule>'),
    };
  if (url.pathname === '/player.html')
    return {
      status: 200,
      type: 'text/html',
      body: page(
        'Player',
        lang,
        `<channel-player event-id="${url.searchParams.get('event') ?? '101'}"></channel-player>`,
      ),
    };
  // The whole site under /site (every path answers this page), its language in the address of its first page.
  if (url.pathname === '/site' || url.pathname.startsWith('/site/'))
    return {
      status: 200,
      type: 'text/html',
      body: page('Laravel Sports Network', lang, '<channel-app base="/site"></channel-app>', true),
    };
  return undefined;
}

// ------------------------------------------------------------------ media (ffmpeg) and Stripe's API

const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laravel-media-'));
for (const [name, seconds, source] of [
  ['ad', 3, 'testsrc2'],
  ['main', 8, 'smptebars'],
] as const) {
  const out = path.join(mediaDir, name);
  fs.mkdirSync(out);
  // A short stream in 2 s segments, small enough to make in a moment.
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `${source}=size=320x180:rate=25`,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '50',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-f',
    'hls',
    '-hls_time',
    '2',
    '-hls_playlist_type',
    'vod',
    path.join(out, 'index.m3u8'),
  ]);
}
process.on('exit', () => fs.rmSync(mediaDir, { recursive: true, force: true }));

const SLIDE = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="540"><rect width="100%" height="100%" fill="#123"/></svg>`;

function mediaFile(url: URL): Answer | undefined {
  if (url.pathname === '/media/slide.svg') return { status: 200, type: 'image/svg+xml', body: SLIDE };
  const m = /^\/media\/(ad|main)\/([\w.]+)$/.exec(url.pathname);
  if (!m) return undefined;
  const file = path.join(mediaDir, m[1]!, m[2]!);
  if (!fs.existsSync(file)) return NOT_FOUND;
  const type = file.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t';
  return { status: 200, type, body: fs.readFileSync(file).toString('latin1') };
}

const stripeDouble = fs.readFileSync(
  path.join(import.meta.dirname, '..', '..', 'demo', 'site', 'stripe-test-double.js'),
  'utf8',
);

/**
 * `POST /__stripe/v1/confirmation_tokens` for the test double (what Stripe.js's createConfirmationToken calls with the
 * Payment Element's card): 4242 4242 4242 4242 only.
 */
function stripeApi(body: Record<string, unknown>): Answer {
  const number = String(body['payment_method_data[card][number]'] ?? '').replace(/\s/g, '');
  if (number !== '4242424242424242')
    return json({ error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } }, 402);
  return json({
    id: `ctoken_${randomBytes(6).toString('hex')}`,
    object: 'confirmation_token',
    payment_method_preview: { type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 } },
  });
}

// ------------------------------------------------------------------ the server

async function readBody(req: http.IncomingMessage): Promise<{ raw: string; json: boolean }> {
  let raw = '';
  for await (const chunk of req) raw += String(chunk);
  return { raw, json: /application\/json/.test(req.headers['content-type'] ?? '') };
}

/** The preflights answered (method and path asked for, the headers asked for), for the journeys to check. */
const preflights: { method: string; path: string; headers: string }[] = [];

/** CORS headers as Laravel's HandleCors writes them on an answer: for the host pages' origin only. */
const corsHeaders = (req: http.IncomingMessage): Record<string, string> =>
  req.headers.origin === HOST_ORIGIN ? { 'Access-Control-Allow-Origin': HOST_ORIGIN, Vary: 'Origin' } : {};

/** A preflight's answer (HandleCors): 204, the method and headers asked for, allowed for the host pages' origin. */
function preflight(req: http.IncomingMessage, res: http.ServerResponse): void {
  const method = String(req.headers['access-control-request-method']);
  const headers = String(req.headers['access-control-request-headers'] ?? '');
  if (req.headers.origin === HOST_ORIGIN) preflights.push({ method, path: req.url ?? '', headers });
  res.writeHead(204, {
    ...corsHeaders(req),
    ...(req.headers.origin === HOST_ORIGIN && {
      'Access-Control-Allow-Methods': method,
      'Access-Control-Allow-Headers': headers,
    }),
    Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  });
  res.end();
}

async function answer(req: http.IncomingMessage): Promise<Answer> {
  const url = new URL(req.url ?? '/', ORIGIN);
  const method = req.method ?? 'GET';
  if (url.pathname === '/__preflights') return json(preflights);
  const media = mediaFile(url);
  if (media) return media;
  if (url.pathname === '/stripe-test-double.js') return { status: 200, type: 'text/javascript', body: stripeDouble };
  if (url.pathname === `/keys/${LARAVEL_EMBED_KEY}.json`)
    return json({ channel_key: CHANNEL_KEY, name: 'Laravel Sports Network', ...stamps });
  if (url.pathname === `/storage/settings/${CHANNEL_KEY}.json`) return json(settings);
  const { raw, json: isJson } = await readBody(req);
  if (url.pathname === '/__stripe/v1/confirmation_tokens')
    return stripeApi(Object.fromEntries(new URLSearchParams(raw)));
  if (!url.pathname.startsWith('/api/')) return NOT_FOUND;
  const route = url.pathname.slice('/api/'.length);
  let body: Record<string, unknown> = {};
  if (raw && isJson) body = JSON.parse(raw) as Record<string, unknown>;
  if (route === 'get_api_key' && method === 'POST') {
    // A FormRequest reading JSON only: a form body has no channel_key for it.
    if (body.channel_key !== CHANNEL_KEY)
      return json(
        {
          message: 'The channel key field is required.',
          errors: { channel_key: ['The channel key field is required.'] },
        },
        422,
      );
    const key = randomBytes(12).toString('hex');
    apiKeys.add(key);
    return data({ api_key: key, ...stamps });
  }
  const token = /^Bearer (\w+)$/.exec(req.headers.authorization ?? '')?.[1];
  return api(method, route, url, body, token ? tokens.get(token) : undefined);
}

/** Writes `a` with the headers every answer of the API carries (and the CORS ones for `req`'s origin). */
function send(req: http.IncomingMessage, res: http.ServerResponse, a: Answer): void {
  const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
  res.writeHead(a.status, {
    'Content-Type': a.type ?? 'application/json',
    'Cache-Control': 'no-store',
    ...corsHeaders(req),
  });
  res.end(typeof a.body === 'string' && a.type === 'video/mp2t' ? Buffer.from(text, 'latin1') : text);
}

// The API, its media, keys file and Stripe's stand-in.
http
  .createServer((req, res) => {
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) return preflight(req, res);
    answer(req).then(
      (a) => send(req, res, a),
      (error: unknown) => send(req, res, json({ message: 'Server Error', exception: String(error) }, 500)),
    );
  })
  .listen(PORT, () => console.log(`laravel-api: ${ORIGIN}`));

// The host pages, on an origin of their own.
http
  .createServer((req, res) => send(req, res, hostPage(new URL(req.url ?? '/', HOST_ORIGIN)) ?? NOT_FOUND))
  .listen(HOST_PORT, () => console.log(`laravel-api's host pages: ${HOST_ORIGIN}`));
