/**
 * The reference channel server: the channel API of src/api/contract.ts over node:http, backed by SQLite (sql.js),
 * plus the keys host, stored settings, the media server (signed HLS and downloads of ffmpeg-made test video,
 * streams.ts), the analytics collectors (analytics.ts), dev endpoints for tests (dev.ts), the built bundle and the
 * demo pages. A second listener plays a third-party "CMS host" on another origin that serves only the demo pages,
 * to prove cross-origin embedding works.
 *
 * Accounts live in their own modules, whose handlers join the map below: auth.ts (sign-in, registration, social
 * sign-in, verification, reset, deletion, profile update, device linking and the TV's device-code routes),
 * account-data.ts (orders, transactions, clips), favourites.ts. Emails go to the outbox (mail.ts, GET /__dev/outbox,
 * demo/site/outbox.html); social providers are played by local stand-in pages (social.ts, /__social/...); the
 * site's account routes (/verify-email, /auth/login/google/callback, ...) serve demo/site/account.html on both
 * listeners; demo/site/tv.html plays a TV that shows a device code to link.
 *
 * Checkout and payments are payments.ts (pricing, coupons, purchases settling asynchronously, saved cards, trials,
 * unsubscribe, the customer portal), over a fake Stripe API and portal page under /__stripe/ (stripe.ts) that the
 * browser reaches through demo/site/stripe-test-double.js, served at /stripe-test-double.js and installed as
 * `window.Stripe`. A channel with a 'google-analytics' id gets `gtag_url`: the local tag-manager stand-in
 * (demo/site/gtag-stand-in.js), whose events are recorded at /__dev/gtag.
 *
 * `startServer` is used in-process by tests (port 0) and by demo/server/main.ts. It makes the test media first
 * (about 6 s on the first start, cached in demo/.media/ afterwards) and listens only once everything is ready.
 *
 * Exposure (exposure.ts). The server listens on 127.0.0.1 unless told otherwise, answers only requests whose Host
 * is one of its own names (400 otherwise), builds every absolute URL (media, emailed links, redirects, settings)
 * from its public origin and never from Host, and rate-limits every request per client address. Everything that
 * exists for the demo and the tests (demo pages, the CMS host listener, the outbox, the social and Stripe
 * stand-ins, the tag-manager stand-in, Mux beacon collection, `/__dev/`) exists only in dev mode, and `/__dev/`
 * also needs the per-start dev secret.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpoints, LogEntry, NO_KEY_MESSAGE, Settings, SOCIAL_PROVIDERS, type EndpointName } from '../../src/api/contract.js';
import { accountDataHandlers } from './account-data.js';
import { accessFor, bearer, userAccessJson, userByToken, userJson, type Access } from './accounts.js';
import { handleAnalytics, Recorder } from './analytics.js';
import { authHandlers, deviceRoutes } from './auth.js';
import { packageJson, prerollJson, subscriptionJson, vodItemJson } from './catalog.js';
import { ChannelDb, type Row } from './db.js';
import { handleDev, handleGtagCollect, isDevPath } from './dev.js';
import { eventListText, eventStatus, findEvent, listEvents, participantJson, renderEvent, warmEventJson, type Clock, type EventView, type MediaUrl } from './events.js';
import { favouriteHandlers } from './favourites.js';
import { eventFilterOf, listWindow, textOrNull as str, type ApiRequest, type Handler } from './handler.js';
import {
  allowedHostsFor,
  DEFAULT_SCRIPT_ORIGINS,
  hostAllowed,
  isLoopback,
  newDevSecret,
  publicOriginOf,
  type ServerMode,
} from './exposure.js';
import { addressKey, clientIp, decodePathPart, HttpError, readBody, requestUrl, sendJson, sendText } from './http.js';
import { RateLimiter } from './limits.js';
import { API_KEY_TOUCH_SECONDS, capApiKeys, capLogs, MAX_LOG_ENTRY_BYTES, prune } from './maintenance.js';
import { ensureMedia, type MediaLibrary } from './media.js';
import { handleSocial } from './social.js';
import { CORS_HEADERS, VENDOR_FILES, placeholderSvg, serveStatic, type StaticOptions } from './static.js';
import { createPayments } from './payments.js';
import { handleStripe } from './stripe.js';
import { MediaServer, type MediaViewer, type StreamTarget } from './streams.js';

/** The repository root (this file is demo/server/server.ts). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServerOptions {
  /** 'dev' adds the demo and the test stand-ins (see the file comment); default 'production'. */
  mode?: ServerMode;
  /** The interface to listen on; default 127.0.0.1 (loopback only). '0.0.0.0' listens on every interface. */
  host?: string;
  /**
   * The public origin clients reach this server at (behind a proxy, say `https://tv.example.com`): emailed links,
   * redirects, media URLs and the demo pages' bundle origin use it. Default `http://localhost:{port}`.
   */
  publicUrl?: string;
  /** More Host values to answer (`name:port`), besides the loopback names, the listening host and publicUrl's. */
  allowedHosts?: string[];
  /** Origins, besides Google's tag manager, a script URL in settings may name (https only). */
  scriptOrigins?: string[];
  /** The dev secret (dev mode); default a new random one per start. */
  devSecret?: string;
  /**
   * Dev mode lets anyone sign in as anyone, so it refuses to listen beyond loopback unless this says so
   * (CHANNEL_DEV_ON_NETWORK=1, for a test network of your own).
   */
  devOnNetwork?: boolean;
  /**
   * How many proxies of the operator's own stand in front of the server (TRUST_PROXY): the client address is then
   * read from X-Forwarded-For, as the outermost of them saw it. Default 0: the socket's address.
   */
  trustProxy?: number;
  /** API and bundle port; 0 picks a free one (tests). Default 8080. */
  port?: number;
  /** The "CMS host" port serving only demo/site; default port + 1, or a free one when port is 0. */
  hostPort?: number;
  /** Where channel.sqlite lives; default <repo>/.data. */
  dataDir?: string;
  /** New api keys per client address per 10 minutes before 429. Default 100. */
  apiKeyRateMax?: number;
  /** Requests per window per client IP, on every path, before 429. Default 600. */
  rateLimitMax?: number;
  /** That window, in ms. Default 10,000. */
  rateLimitWindowMs?: number;
  /** Repository root, to find dist/, demo/site/ and demo/fixtures/. */
  rootDir?: string;
  /** Demo pages folder (default <root>/demo/site); tests point it at a temp folder. */
  siteDir?: string;
  /** Built bundle folder (default <root>/dist). */
  distDir?: string;
  /** Wall clock in milliseconds; tests move it to see events go live and finish (and live playlists advance). */
  now?: () => number;
  /** Where the generated test media is cached (default <root>/demo/.media). */
  mediaDir?: string;
  /** Lifetime of signed playback and download URLs, in seconds (default 7200). */
  mediaTtlSeconds?: number;
  /** How long a purchase stays pending before the card's outcome settles it, in ms of the server clock (default 3000). */
  paymentSettleMs?: number;
}

export interface RunningServer {
  mode: ServerMode;
  /** This start's dev secret (dev mode only): the `X-Channel-Dev-Secret` header of `/__dev/` calls. */
  devSecret: string | undefined;
  port: number;
  /** The address the API listener is bound to (127.0.0.1 unless `host` said otherwise). */
  address: string;
  /** Where the database (and in dev mode the `dev-secret` file) lives. */
  dataDir: string;
  /** The CMS host's port (dev mode only; 0 in production, where it does not run). */
  hostPort: number;
  /** The public origin (`http://localhost:{port}` unless publicUrl says otherwise): API, keys host and bundle. */
  origin: string;
  /** `http://localhost:{hostPort}`: the CMS host origin (dev mode only; '' in production). */
  hostOrigin: string;
  db: ChannelDb;
  /** The generated test media (durations, renditions, where the files are). */
  media: MediaLibrary;
  /** Closes both listeners and writes the database. */
  stop(): Promise<void>;
}

/**
 * Paths of the channel site's account routes (spec section 2) that emailed links and social callbacks open: both
 * listeners serve demo/site/account.html there, whose `<channel-profile>` reads the path and query to run the flow.
 */
const ACCOUNT_ROUTES = new Set([
  '/verify-email',
  '/password-reset',
  '/confirm-account-deletion',
  '/login',
  '/registration',
  '/verify-notice',
  '/password-reset-request',
  ...SOCIAL_PROVIDERS.map((provider) => `/auth/login/${provider}/callback`),
]);

/** Compiles `events/{id}`-style contract paths to matchers. */
function compilePath(path: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  // Contract paths hold only letters, '-', '/' and {name} placeholders, so no other escaping is needed.
  const source = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { regex: new RegExp(`^${source}$`), names };
}

/** The answer to a call an account with a temporary password may not make yet. */
const TEMPORARY_PASSWORD_LOCK = 'Choose a new password first: you signed in with a temporary password.';
/** What an account with a temporary password may still do (the server-side half of the lock of spec section 2). */
const TEMPORARY_PASSWORD_ALLOWS = new Set(['profile', 'userAccess', 'updateProfile', 'logout']);
/**
 * New api keys one client address may ask for per window, by default: a visitor needs one, each is a stored row,
 * and many viewers can share one address (a campus, a stadium's Wi-Fi). The table is capped anyway
 * (maintenance.ts); this keeps one address from churning everyone else's keys out of it.
 */
const API_KEYS_PER_ADDRESS = 100;
const API_KEYS_WINDOW_MS = 10 * 60_000;
/** How often expired rows are pruned (maintenance.ts). */
const PRUNE_INTERVAL_MS = 3600_000;
/** The demo pages' own assets, which the account routes' page needs in production too. */
const ACCOUNT_PAGE_ASSETS = new Set(['/demo.css', '/demo.js']);

/** A 429 with Retry-After when a limiter says to wait `seconds` (0: go on). */
function tooMany(seconds: number): void {
  if (seconds > 0) throw new HttpError(429, 'Too Many Attempts.', undefined, { 'Retry-After': String(seconds) });
}

/** The region-block message (spec section 1). */
const GEO_BLOCKED = 'This content is not available in your region.';

/** A download's file name from the event name: "Bayshore Pelicans @ Mountain View Rams" -> bayshore-pelicans-at-... */
function downloadName(eventName: string): string {
  const slug = eventName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/@/g, ' at ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'event'}.mp4`;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const rootDir = options.rootDir ?? REPO_ROOT;
  const dataDir = options.dataDir ?? join(rootDir, '.data');
  const siteDir = options.siteDir ?? join(rootDir, 'demo', 'site');
  const distDir = options.distDir ?? join(rootDir, 'dist');
  const nowMs = options.now ?? Date.now;
  const mode: ServerMode = options.mode ?? 'production';
  const dev = mode === 'dev';
  const listenHost = options.host ?? '127.0.0.1';
  const configuredOrigin = options.publicUrl ? publicOriginOf(options.publicUrl) : undefined;
  if (dev && !isLoopback(listenHost) && !options.devOnNetwork) {
    throw new Error(
      `Dev mode (CHANNEL_DEV=1) lets anyone sign in as anyone, so it listens on loopback only, not on HOST=${listenHost}. ` +
        'Set CHANNEL_DEV_ON_NETWORK=1 as well to expose it on a network of your own.',
    );
  }
  const devSecret = dev ? (options.devSecret ?? newDevSecret()) : undefined;
  const scriptOrigins = [...DEFAULT_SCRIPT_ORIGINS, ...(options.scriptOrigins ?? []).map((o) => publicOriginOf(o))];
  /** The client's address (limits count its IPv4 address or IPv6 /64: `addressKey`). */
  const addressOf = (req: IncomingMessage) => clientIp(req, options.trustProxy ?? 0);
  // The media comes from ffmpeg child processes, so seeding a fresh database meanwhile is not slowed by it.
  const [db, library] = await Promise.all([
    ChannelDb.open(dataDir, join(rootDir, 'demo', 'fixtures'), Math.floor(nowMs() / 1000)),
    ensureMedia(options.mediaDir ?? join(rootDir, 'demo', '.media')),
  ]);

  // Event offsets count from this moment: after a restart, "live now" seed events are live again.
  const anchor = Math.floor(nowMs() / 1000);
  const clock = (): Clock => ({ anchor, now: Math.floor(nowMs() / 1000) });
  const limiter = new RateLimiter(options.rateLimitMax ?? 600, options.rateLimitWindowMs ?? 10_000, nowMs);
  const keyLimiter = new RateLimiter(options.apiKeyRateMax ?? API_KEYS_PER_ADDRESS, API_KEYS_WINDOW_MS, nowMs);
  let keysIssued = 0;
  const recordingSeconds = Math.round(library.main.duration);

  // Playback URLs and email verification links are signed with per-database secrets, so they survive a restart.
  const secret = (name: string) => {
    db.run('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)', [name, randomBytes(32).toString('hex')]);
    return String(db.get('SELECT value FROM meta WHERE key = ?', [name])!.value);
  };
  const mediaServer = new MediaServer({
    library,
    secret: secret('media_secret'),
    addressOf: (req) => addressKey(addressOf(req)),
    // The log of media requests is for the dev endpoints; production keeps none.
    logRequests: dev,
    ttlSeconds: options.mediaTtlSeconds,
    now: nowMs,
    resolve: (stream) => resolveStream(stream),
    preroll: (id) => {
      const row = db.get('SELECT media FROM prerolls WHERE id = ?', [id]);
      return row ? library.prerolls[String(row.media)] : undefined;
    },
  });
  // Mux beacons come here only in dev mode (production sends them to Mux); the datalake is the channel's own.
  const beacons = dev ? new Recorder(nowMs) : undefined;
  const datalake = new Recorder(nowMs);
  const gtag = new Recorder(nowMs);

  /** What a signed stream id plays now: read per request, as events go live, finish or are rescheduled. */
  function resolveStream(stream: string): StreamTarget {
    const [, kind, id] = /^(?:(vod|dl)-)?(\d+)$/.exec(stream) ?? [];
    if (kind === 'vod') {
      return db.get('SELECT 1 AS ok FROM vod_items WHERE id = ?', [Number(id)])
        ? { kind: 'vod', asset: library.main }
        : { kind: 'refused', status: 404, message: 'Video not found.' };
    }
    const row = id ? db.get('SELECT name, start_offset, duration, has_recording, is_geo_blocked FROM events WHERE id = ?', [Number(id)]) : undefined;
    if (!row) return { kind: 'refused', status: 404, message: 'Stream not found.' };
    if (row.is_geo_blocked) return { kind: 'refused', status: 403, message: GEO_BLOCKED };
    const { now } = clock();
    const start = anchor + Number(row.start_offset);
    const finished = now >= start + Number(row.duration);
    if (now < start) return { kind: 'refused', status: 404, message: 'The stream has not started yet.' };
    if (finished && !row.has_recording) return { kind: 'refused', status: 404, message: 'This event has no recording.' };
    if (kind === 'dl') return finished ? { kind: 'download', filename: downloadName(String(row.name)) } : { kind: 'refused', status: 404, message: 'The event has not finished.' };
    return finished ? { kind: 'vod', asset: library.main } : { kind: 'live', asset: library.main, startMs: start * 1000 };
  }

  // Known once listening; the HTML placeholder, CSP and absolute media URLs all need the real API port. The
  // public origin is the bundle origin: every absolute URL is built from it, never from a request's Host header.
  let bundleOrigin = '';
  let cmsOrigin = '';
  let mainHosts = new Set<string>();
  let cmsHosts = new Set<string>();

  /** Stored media paths ("/media/...") become absolute on this server so pages on the CMS origin load them. */
  const media: MediaUrl = (value) => {
    if (value === null || value === undefined) return null;
    const text = String(value);
    return /^\/(?!\/)/.test(text) ? new URL(text, bundleOrigin).href : text;
  };

  /** A channel's settings as stored (a fresh copy: callers may change it). */
  const storedSettings = (channelId: number): Record<string, unknown> =>
    JSON.parse(String(db.get('SELECT json FROM settings WHERE channel_id = ?', [channelId])?.json ?? '{}')) as Record<string, unknown>;

  /** The sites a channel's social codes may go back to: its site_url, else this server; in dev also the CMS host. */
  const sitesOf = (channelId: number): string[] => {
    const site = storedSettings(channelId).site_url;
    const own = typeof site === 'string' && site.trim() !== '' ? [site.trim()] : [bundleOrigin];
    return dev ? [...own, cmsOrigin] : own;
  };

  const channelByKey = (key: unknown): Row | undefined =>
    typeof key === 'string' && key !== '' ? db.get('SELECT id, channel_key, name FROM channels WHERE channel_key = ?', [key]) : undefined;

  /** A channel's settings as clients get them: absolute media URLs, and in dev mode the stand-ins filled in. */
  const settingsOf = (channelId: number): Record<string, unknown> => {
    const settings = storedSettings(channelId);
    if (typeof settings.logo === 'string') settings.logo = media(settings.logo);
    const mux = settings.mux as { env_key?: string; beacon_domain?: string | null } | null | undefined;
    // In dev mode Mux beacons come back to this server (POST /, analytics.ts) unless the channel names another
    // domain; in production mux-embed sends them to Mux. mux-embed uses http:// only for `localhost(:port)` hosts,
    // so 127.0.0.1 and [::1] are named localhost.
    if (dev && mux && !mux.beacon_domain) mux.beacon_domain = new URL(bundleOrigin).host.replace(/^(127\.0\.0\.1|\[::1\])(?=:|$)/, 'localhost');
    // Social sign-in goes to the channel's real provider when its settings name one; in dev mode, to this server's
    // stand-in authorize pages otherwise. A provider with nowhere to go is not offered.
    const social = settings.social as Record<string, { authorize_url?: string | null }> | null | undefined;
    for (const [provider, client] of Object.entries(social ?? {})) {
      if (!client.authorize_url && dev) client.authorize_url = new URL(`/__social/${encodeURIComponent(provider)}/authorize`, bundleOrigin).href;
      if (!client.authorize_url) delete social![provider];
    }
    // The tag manager is this server's stand-in in dev mode (it records what is pushed, GET /__dev/gtag) unless
    // one is named; in production the client loads Google's.
    const tagId = settings['google-analytics'];
    if (dev && typeof tagId === 'string' && tagId !== '' && !settings.gtag_url) {
      const url = new URL('/gtag-stand-in.js', bundleOrigin);
      url.searchParams.set('id', tagId);
      settings.gtag_url = url.href;
    }
    return settings;
  };

  /** Pagination of the keyless lists (participants, packages, subscriptions): `no_limit=1` answers all. */
  const listPage = (query: URLSearchParams, table: string, channelId: number, order: string) => {
    const total = Number(db.get(`SELECT count(*) AS n FROM ${table} WHERE channel_id = ?`, [channelId])?.n ?? 0);
    const { meta, sqlLimit } = listWindow(query, total);
    const rows = db.all(`SELECT * FROM ${table} WHERE channel_id = ? ORDER BY ${order} LIMIT ? OFFSET ?`, [channelId, sqlLimit, meta.offset]);
    return { rows, meta };
  };

  /** A row of the channel by id from a path parameter, or a 404 with `message`. */
  const rowById = (table: string, channelId: number, id: string, message: string): Row => {
    const row = /^\d+$/.test(id) ? db.get(`SELECT * FROM ${table} WHERE channel_id = ? AND id = ?`, [channelId, Number(id)]) : undefined;
    if (!row) throw new HttpError(404, message);
    return row;
  };

  const noKey = (field: 'api_key' | 'channel_key') =>
    new HttpError(403, NO_KEY_MESSAGE, {
      [field]: [field === 'api_key' ? 'The api key is invalid.' : 'The channel key is invalid.'],
    });

  /** The event of the path's `{id}` in the caller's channel, or a 404. */
  const eventOf = (r: ApiRequest) => {
    const id = r.params.id!;
    const event = /^\d+$/.test(id) ? findEvent(db, r.channelId, Number(id), r.clock, r.origin) : undefined;
    if (!event) throw new HttpError(404, 'Event not found.');
    return event;
  };

  /** Whom a signed media URL is for: the signed-in user, else the api key; at the address that asked. */
  const viewerOf = (r: ApiRequest): MediaViewer => {
    const user = r.access().user;
    return { identity: user ? `u:${String(user.id)}` : `k:${r.apiKey ?? ''}`, address: addressKey(r.ip) };
  };

  // ------------------------------------------------------------------ API handlers, by contract endpoint name
  const authContext = { db, verifySecret: secret('verify_secret') };
  const payments = createPayments({
    db,
    nowMs,
    settleMs: options.paymentSettleMs ?? 3000,
    knownOrigins: () => (dev ? [bundleOrigin, cmsOrigin] : [bundleOrigin]),
    testPayments: dev,
  });
  const stripeContext = { db, nowMs, fingerprintSecret: secret('card_fingerprint_secret'), bundleOrigin: () => bundleOrigin };
  const handlers: Record<EndpointName, Handler> = {
    ...authHandlers(authContext),
    ...payments.handlers,
    ...accountDataHandlers(db),
    ...favouriteHandlers(db),
    getApiKey: ({ channelId, ip }) => {
      // Each key is a stored row: one address gets a few per window (a visitor keeps theirs), and the total is
      // capped (maintenance.ts), least recently used first.
      tooMany(keyLimiter.hit(addressKey(ip)));
      // Random, unguessable, and stored so any later keyed call can map it back to the channel.
      const apiKey = randomBytes(24).toString('hex');
      const now = clock().now;
      db.run('INSERT INTO api_keys (api_key, channel_id, created_at, last_used_at) VALUES (?, ?, ?, ?)', [apiKey, channelId, now, now]);
      if (++keysIssued % 100 === 0) capApiKeys(db);
      return { data: { api_key: apiKey } };
    },
    settings: ({ channelId }) => ({ data: settingsOf(channelId) }),
    menu: ({ channelId, media }) => {
      const rows = db.all('SELECT * FROM menu WHERE channel_id = ? ORDER BY parent_id IS NOT NULL, position', [channelId]);
      const item = (row: Row) => ({
        id: Number(row.id),
        name: String(row.name),
        alias: str(row.alias),
        url: str(row.url),
        custom_icon: media(row.custom_icon),
        type: String(row.type),
      });
      return {
        data: rows
          .filter((row) => row.parent_id === null)
          .map((row) => {
            const children = rows.filter((child) => child.parent_id === row.id).map(item);
            return { ...item(row), ...(children.length || row.type === 'group' ? { items: children } : {}) };
          }),
      };
    },
    pages: ({ channelId }) => ({
      data: db
        .all('SELECT id, name, alt_name, url FROM pages WHERE channel_id = ? ORDER BY position', [channelId])
        .map((row) => ({ id: Number(row.id), name: String(row.name), alt_name: str(row.alt_name), url: String(row.url) })),
    }),
    page: ({ channelId, params, media }) => {
      const alias = params.alias!.replace(/\//g, '');
      const row = db.get('SELECT * FROM pages WHERE channel_id = ? AND alias = ?', [channelId, alias]);
      if (!row) throw new HttpError(404, 'Page not found.');
      const blocks = (JSON.parse(String(row.blocks_json)) as Array<Record<string, unknown>>).map((block) =>
        block.type === 'image' ? { ...block, url: media(block.url as string) } : block,
      );
      return { data: { id: Number(row.id), name: String(row.name), url: String(row.url), blocks } };
    },
    colors: ({ channelId }) => ({
      data: Object.fromEntries(
        db.all('SELECT name, value FROM colors WHERE channel_id = ? ORDER BY name', [channelId]).map((r) => [r.name, r.value]),
      ),
    }),
    profile: (r) => ({ data: userJson(r.user()) }),
    userAccess: (r) => ({ data: userAccessJson(r.user()) }),
    geo: ({ ip }) => ({ data: { country: 'United States', country_code: 'US', ip, is_geo_blocked: false } }),
    // Spliced as text: the events come serialised from a cache (see listEventsJson).
    events: (r) => ({ raw: eventListText(db, r.channelId, eventFilterOf(r.query), r.view()) }),
    event: (r) => ({ raw: `{"data":${renderEvent(eventOf(r), r.view())}}` }),
    downloadEvent: (r) => {
      const event = eventOf(r);
      const user = r.user();
      const view = r.view();
      if (!r.access().capabilities.has('download')) throw new HttpError(403, 'Your account cannot download videos.');
      if (!view.canWatch(event)) throw new HttpError(403, 'You do not have access to this event.');
      if (event.geoBlocked || !view.streams) throw new HttpError(403, GEO_BLOCKED);
      if (eventStatus(event, r.clock) !== 'finished' || !event.hasRecording) {
        throw new HttpError(422, 'Only a finished event with a recording can be downloaded.');
      }
      db.run('UPDATE users SET downloads_count = downloads_count + 1, updated_at = ? WHERE id = ?', [r.clock.now, user.id!]);
      const filename = downloadName(String(db.get('SELECT name FROM events WHERE id = ?', [event.id])!.name));
      return { data: { url: mediaServer.signedUrl(r.origin, `dl-${event.id}`, viewerOf(r), `download/${filename}`), filename } };
    },
    vodItem: (r) => {
      const row = rowById('vod_items', r.channelId, r.params.id!, 'Video not found.');
      const access = r.access().canWatchVod(String(row.type));
      const stream = access && r.view().streams ? mediaServer.signedUrl(r.origin, `vod-${row.id}`, viewerOf(r)) : undefined;
      return { data: vodItemJson(row, r.media, access, stream, recordingSeconds) };
    },
    prerolls: ({ channelId, origin }) => ({
      data: db.all('SELECT * FROM prerolls WHERE channel_id = ? ORDER BY position', [channelId]).map((row) => prerollJson(db, row, origin)),
    }),
    packages: ({ channelId, query }) => {
      const { rows, meta } = listPage(query, 'packages', channelId, 'position, id');
      return { data: rows.map((row) => packageJson(db, row)), meta };
    },
    package: ({ channelId, params }) => ({ data: packageJson(db, rowById('packages', channelId, params.id!, 'Package not found.')) }),
    subscriptions: ({ channelId, query }) => {
      const { rows, meta } = listPage(query, 'subscriptions', channelId, 'position, id');
      return { data: rows.map(subscriptionJson), meta };
    },
    subscription: ({ channelId, params }) => ({
      data: subscriptionJson(rowById('subscriptions', channelId, params.id!, 'Subscription not found.')),
    }),
    eventCategories: ({ channelId }) => {
      const rows = db.all('SELECT * FROM categories WHERE channel_id = ? ORDER BY position, id', [channelId]);
      const node = (row: Row): Record<string, unknown> => ({
        id: Number(row.id),
        name: String(row.name),
        alias: str(row.alias),
        parent_id: row.parent_id === null ? null : Number(row.parent_id),
        sport: str(row.sport),
        gender: str(row.gender),
        children: rows.filter((child) => child.parent_id === row.id).map(node),
      });
      return { data: rows.filter((row) => row.parent_id === null).map(node) };
    },
    homepageEvents: (r) => {
      const kind = (status: 'live' | 'upcoming' | 'finished') => listEvents(db, r.channelId, { status, offset: 0, limit: 10 }, r.view());
      return { data: { live: kind('live'), upcoming: kind('upcoming'), finished: kind('finished') } };
    },
    eventLocations: ({ channelId }) => ({
      data: db
        .all('SELECT * FROM locations WHERE channel_id = ? ORDER BY name', [channelId])
        .map((row) => ({
          id: Number(row.id),
          name: String(row.name),
          city: str(row.city),
          state: str(row.state),
          time_zone: str(row.time_zone),
        })),
    }),
    participants: ({ channelId, query, media }) => {
      const { rows, meta } = listPage(query, 'participants', channelId, 'name, id');
      return { data: rows.map((row) => participantJson(row, media)), meta };
    },
    participantGroups: ({ channelId, media }) => ({
      data: db
        .all('SELECT * FROM participant_groups WHERE channel_id = ? ORDER BY name', [channelId])
        .map((row) => ({ id: Number(row.id), name: String(row.name), alias: str(row.alias), image: media(row.image) })),
    }),
    groupProperties: ({ channelId }) => {
      // Derived from the schools' own properties, so a new school's conference shows up without extra data.
      const values = new Map<string, Set<string>>();
      for (const row of db.all('SELECT properties_json FROM participant_groups WHERE channel_id = ? ORDER BY id', [channelId])) {
        for (const [name, value] of Object.entries(JSON.parse(String(row.properties_json)) as Record<string, unknown>)) {
          if (value === null || value === undefined) continue;
          if (!values.has(name)) values.set(name, new Set());
          values.get(name)!.add(String(value));
        }
      }
      return { data: [...values].map(([name, set]) => ({ name, values: [...set].sort() })) };
    },
    faq: ({ channelId }) => ({
      data: db
        .all('SELECT id, question, answer FROM faq WHERE channel_id = ? ORDER BY position', [channelId])
        .map((row) => ({ id: Number(row.id), question: String(row.question), answer: String(row.answer) })),
    }),
    slides: ({ channelId, query, media }) => {
      const type = query.get('type');
      // Untyped slides belong to main (spec section 3), so `type=main` includes them.
      const rows = db.all(
        type
          ? "SELECT * FROM slides WHERE channel_id = ? AND coalesce(slidable_type, 'main') = ? ORDER BY position"
          : 'SELECT * FROM slides WHERE channel_id = ? ORDER BY position',
        type ? [channelId, type] : [channelId],
      );
      return {
        data: rows.map((row) => ({
          id: Number(row.id),
          title: str(row.title),
          image: media(row.image),
          link: str(row.link),
          // Untyped slides are main slides; say so rather than leave the client to guess from null.
          slidable_type: str(row.slidable_type) ?? 'main',
          slidable_id: row.slidable_id === null ? null : Number(row.slidable_id),
        })),
      };
    },
    customForm: ({ channelId, params }) => {
      const row = db.get('SELECT * FROM custom_forms WHERE channel_id = ? AND alias = ?', [channelId, params.alias!]);
      if (!row) throw new HttpError(404, 'Form not found.');
      return { data: { alias: String(row.alias), name: String(row.name), fields: JSON.parse(String(row.fields_json)) } };
    },
    log: ({ channelId, body, ip }) => {
      const parsed = LogEntry.safeParse(body);
      if (!parsed.success) {
        const errors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues) {
          const field = String(issue.path[0] ?? 'body');
          (errors[field] ??= []).push(`The ${field} field is required or invalid.`);
        }
        throw new HttpError(422, 'The given data was invalid.', errors);
      }
      const entry = JSON.stringify(parsed.data);
      if (Buffer.byteLength(entry) > MAX_LOG_ENTRY_BYTES) throw new HttpError(413, `A log entry may hold at most ${MAX_LOG_ENTRY_BYTES / 1024} KB.`);
      const id = db.run('INSERT INTO logs (channel_id, received_at, ip, entry_json) VALUES (?, ?, ?, ?)', [channelId, clock().now, ip, entry]);
      capLogs(db, channelId);
      return { status: 201, body: { data: { id } } };
    },
  };

  const routes = [
    ...(Object.keys(endpoints) as EndpointName[]).map((name) => ({ name, ...endpoints[name], handler: handlers[name] })),
    // Calls this server answers that the contract does not list: the TV side of device linking.
    ...deviceRoutes(authContext),
  ]
    .map((route) => ({ ...route, ...compilePath(route.path) }))
    // Fixed paths first, so `events/favorite` is not taken for `events/{id}` (sort is stable: the rest keep order).
    .sort((a, b) => a.names.length - b.names.length);

  /** Runs one /api/ request: route, resolve the channel from the right key, call the handler. */
  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, apiPath: string): Promise<void> {
    const method = req.method ?? 'GET';
    let route: (typeof routes)[number] | undefined;
    let params: Record<string, string> = {};
    for (const candidate of routes) {
      const m = candidate.regex.exec(apiPath);
      if (!m || candidate.method !== method) continue;
      route = candidate;
      params = Object.fromEntries(candidate.names.map((n, i) => [n, decodePathPart(m[i + 1] ?? '')]));
      break;
    }
    if (!route) throw new HttpError(404, 'Not found.');

    const body = await readBody(req);
    const query = url.searchParams;
    // Keys travel in the query on GET and DELETE, in the body otherwise (spec section 7).
    const fromBody = method !== 'GET' && method !== 'DELETE';
    const keyOf = (name: string): unknown => (fromBody ? body[name] : (query.get(name) ?? undefined));

    let channel: Row | undefined;
    const apiKey = route.keyless ? undefined : keyOf('api_key');
    if (route.keyless) {
      let key = keyOf('channel_key');
      // A log entry names its channel itself; accept that when the poster did not add channel_key.
      if (key === undefined && route.name === 'log') key = body.channel;
      channel = channelByKey(key);
      if (!channel) throw noKey('channel_key');
    } else {
      channel =
        typeof apiKey === 'string' && apiKey !== ''
          ? db.get('SELECT c.id, c.channel_key, c.name, k.last_used_at FROM api_keys k JOIN channels c ON c.id = k.channel_id WHERE k.api_key = ?', [
              apiKey,
            ])
          : undefined;
      if (!channel) throw noKey('api_key');
      // Keys in use are kept; idle ones are pruned (maintenance.ts). Written at most once an hour per key.
      const seconds = clock().now;
      if (Number(channel.last_used_at) < seconds - API_KEY_TOUCH_SECONDS) db.run('UPDATE api_keys SET last_used_at = ? WHERE api_key = ?', [seconds, apiKey as string]);
    }

    const channelId = Number(channel.id);
    const origin = bundleOrigin;
    const now = clock();
    let access: Access | undefined;
    let view: EventView | undefined;
    let settings: Settings | undefined;
    // The bearer token's user, looked up once per request (access and user both need it).
    let tokenUser: { row: Row | undefined } | undefined;
    const userOfToken = () => (tokenUser ??= { row: userByToken(db, channelId, bearer(req.headers.authorization), now.now) }).row;
    const r: ApiRequest = {
      req,
      method,
      url,
      query,
      body,
      params,
      channelId,
      channelKey: String(channel.channel_key),
      apiKey: typeof apiKey === 'string' ? apiKey : undefined,
      ip: addressOf(req),
      origin,
      media,
      clock: now,
      settings: () => (settings ??= Settings.parse(settingsOf(channelId))),
      // A missing, unknown or expired token is a guest: public calls still answer, user() answers 401. So is an
      // account that must still replace its temporary password: it has no rights until it does.
      access: () => {
        if (access) return access;
        const user = userOfToken();
        return (access = accessFor(db, user?.temporary_password ? undefined : user, now.now));
      },
      user: () => {
        const user = userOfToken();
        if (!user) throw new HttpError(401, 'Unauthenticated.');
        // The browser keeps such an account on its edit screen; the server holds the same line for any client.
        if (user.temporary_password && !TEMPORARY_PASSWORD_ALLOWS.has(route.name)) throw new HttpError(403, TEMPORARY_PASSWORD_LOCK);
        return user;
      },
      view: () =>
        (view ??= {
          clock: now,
          origin,
          canWatch: r.access().canWatch,
          streams: !r.access().user?.is_geo_blocked,
          streamUrl: (stream) => mediaServer.signedUrl(origin, stream, viewerOf(r)),
          recordingSeconds,
        }),
    };
    // Purchases, cancellations and renewals that fell due are settled before anything reads orders or access.
    payments.settle();
    const result = await route.handler(r);
    if ('raw' in result && typeof result.raw === 'string') sendText(res, 200, result.raw);
    else if ('status' in result && 'body' in result) sendJson(res, Number(result.status ?? 200), result.body);
    else sendJson(res, 200, result);
  }

  /** The fixture keys of the seeded events, to their ids, per channel: the demo pages' `%DEMO_EVENTS%`. */
  const demoEvents: Record<string, Record<string, number>> = {};
  for (const row of db.all('SELECT c.channel_key, e.key, e.id FROM events e JOIN channels c ON c.id = e.channel_id WHERE e.key IS NOT NULL ORDER BY e.id')) {
    (demoEvents[String(row.channel_key)] ??= {})[String(row.key)] = Number(row.id);
  }
  const placeholders = { '%DEMO_EVENTS%': JSON.stringify(demoEvents) };
  const pageOptions = (extra: Partial<StaticOptions> = {}): StaticOptions => ({ bundleOrigin, placeholders, ...extra });

  /** The site's account routes (emailed links, social callbacks) all open the account page. */
  const serveAccountRoute = (req: IncomingMessage, res: ServerResponse, path: string) =>
    ACCOUNT_ROUTES.has(path.replace(/\/+$/, '')) ? serveStatic(req, res, siteDir, '/account.html', pageOptions()) : Promise.resolve(false);

  /** Refuses a request whose Host is not one of this listener's names, and counts it against its address. */
  const admit = (req: IncomingMessage, hosts: ReadonlySet<string>) => {
    if (!hostAllowed(req, hosts)) throw new HttpError(400, 'Unknown Host header: this server answers only its own names (PUBLIC_URL, ALLOWED_HOSTS).');
    tooMany(limiter.hit(addressKey(addressOf(req))));
  };

  /** The API/bundle listener. */
  async function handleMain(req: IncomingMessage, res: ServerResponse): Promise<void> {
    admit(req, mainHosts);
    const url = requestUrl(req);
    const path = url.pathname;
    if (req.method === 'OPTIONS') {
      // Preflight for cross-origin API calls with Authorization or JSON bodies; never for the dev endpoints.
      if (isDevPath(path)) throw new HttpError(404, 'Not found.');
      res.writeHead(204, { ...CORS_HEADERS, 'Content-Length': '0' });
      res.end();
      return;
    }
    if (path.startsWith('/api/') || path === '/api') {
      await handleApi(req, res, url, path.slice('/api/'.length).replace(/\/+$/, ''));
      return;
    }
    let m = /^\/keys\/([^/]+)\.json$/.exec(path);
    if (m) {
      const channel = channelByKey(decodePathPart(m[1]!));
      if (!channel) throw new HttpError(404, 'Unknown embed key.');
      sendJson(res, 200, { channel_key: String(channel.channel_key), name: String(channel.name) });
      return;
    }
    m = /^\/storage\/settings\/([^/]+)\.json$/.exec(path);
    if (m) {
      const channel = channelByKey(decodePathPart(m[1]!));
      if (!channel) throw new HttpError(404, 'Not found.');
      sendJson(res, 200, settingsOf(Number(channel.id)));
      return;
    }
    if (await mediaServer.handle(req, res, path)) return;
    if (await handleAnalytics(req, res, path, { beacons, datalake })) return;
    if (dev) {
      const devContext = { secret: devSecret!, scriptOrigins, db, media: mediaServer, beacons: beacons!, datalake, gtag, clock, orders: payments.devOrders };
      if (await handleDev(req, res, url, devContext)) return;
      if (await handleGtagCollect(req, res, path, gtag)) return;
      if (await handleStripe(req, res, url, stripeContext)) return;
      if (await handleSocial(req, res, url, { db, now: () => clock().now, bundleOrigin: () => bundleOrigin, sites: sitesOf })) return;
    }
    m = /^\/media\/(logos|art)\/([\w-]+)\.svg$/.exec(path);
    if (m) {
      const slug = m[2]!;
      const group = m[1] === 'logos' ? db.get('SELECT name FROM participant_groups WHERE alias = ? LIMIT 1', [slug]) : undefined;
      const color = m[1] === 'logos' ? db.get('SELECT color FROM participants p JOIN participant_groups g ON g.id = p.group_id WHERE g.alias = ? LIMIT 1', [slug]) : undefined;
      const label = group ? String(group.name) : slug.replace(/-/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
      const svg = placeholderSvg(m[1] === 'logos' ? 'logo' : 'art', slug, label, color?.color ? String(color.color) : undefined);
      res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-cache', ...CORS_HEADERS });
      res.end(svg);
      return;
    }
    // Only files from here on: any other method finds nothing (404, like a path that does not exist).
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(404, 'Not found.');
    if (await serveAccountRoute(req, res, path)) return;
    // The bundle first (cross-origin importable), then the demo pages; "/" is the demo's index page.
    if (path !== '/' && existsSync(distDir) && (await serveStatic(req, res, distDir, path, { bundleOrigin, cors: true }))) return;
    // In production only the account routes' page and its two assets come from demo/site: the rest is the demo.
    if (!dev && ACCOUNT_PAGE_ASSETS.has(path) && (await serveStatic(req, res, siteDir, path, pageOptions()))) return;
    if (dev) {
      const vendor = VENDOR_FILES[path];
      if (vendor && (await serveStatic(req, res, rootDir, `/${vendor}`, pageOptions()))) return;
      if (await serveStatic(req, res, siteDir, path, pageOptions({ noPolicy: path.startsWith('/bench/') }))) return;
    }
    throw new HttpError(404, 'Not found.');
  }

  /** The CMS host listener (dev mode only): only demo/site, nothing else. */
  async function handleHost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    admit(req, cmsHosts);
    const url = requestUrl(req);
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'Method not allowed.');
    if (await serveAccountRoute(req, res, url.pathname)) return;
    if (await serveStatic(req, res, siteDir, url.pathname, pageOptions())) return;
    throw new HttpError(404, 'Not found.');
  }

  /** Wraps a handler so every failure becomes a JSON error answer instead of a hung or crashed request. */
  const wrap = (handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) => (req: IncomingMessage, res: ServerResponse) => {
    handler(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // The dev endpoints' errors are no more readable from other origins than their answers.
      let cors = true;
      try {
        cors = !isDevPath(requestUrl(req).pathname);
      } catch {
        /* an unparsable target: answered 400 like any other error */
      }
      if (error instanceof HttpError) {
        sendJson(res, error.status, { message: error.message, ...(error.errors ? { errors: error.errors } : {}) }, error.headers, { cors });
      } else if (error instanceof URIError) {
        sendJson(res, 400, { message: 'Malformed URL: a percent escape is invalid.' }, {}, { cors });
      } else {
        console.error('[channel-server]', error);
        sendJson(res, 500, { message: 'Server Error' }, {}, { cors });
      }
    });
  };

  const main = createServer(wrap(handleMain));
  const host = dev ? createServer(wrap(handleHost)) : undefined;
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(port, listenHost, () => {
        server.off('error', reject);
        resolveListen((server.address() as AddressInfo).port);
      });
    });

  const fail = async (error: unknown): Promise<never> => {
    main.close();
    host?.close();
    payments.stop();
    await db.close();
    throw error;
  };
  const port = await listen(main, options.port ?? 8080).catch(fail);
  bundleOrigin = configuredOrigin ?? `http://localhost:${port}`;
  mainHosts = allowedHostsFor(port, listenHost, bundleOrigin, options.allowedHosts);
  let hostPort = 0;
  if (host) {
    hostPort = await listen(host, options.hostPort ?? (options.port === 0 ? 0 : port + 1)).catch(fail);
    cmsOrigin = `http://localhost:${hostPort}`;
    cmsHosts = allowedHostsFor(hostPort, listenHost, undefined, []);
  }

  // Dev mode: the secret goes where the demo's developer and the tests can read it, and nowhere else.
  const secretFile = join(dataDir, 'dev-secret');
  if (devSecret) {
    rmSync(secretFile, { force: true }); // a file left by an earlier start may have looser permissions
    writeFileSync(secretFile, `${devSecret}\n`, { mode: 0o600 });
  }

  // Forget what expired while the server was down, then every hour.
  prune(db, clock().now);
  const pruneTimer = setInterval(() => prune(db, clock().now), PRUNE_INTERVAL_MS);
  pruneTimer.unref();

  // Serialise the events once for the usual origin now rather than inside the first big request.
  warmEventJson(db, clock(), bundleOrigin);

  const close = (server: Server) =>
    new Promise<void>((resolveClose) => {
      server.close(() => resolveClose());
      server.closeAllConnections(); // keep-alive sockets would otherwise hold stop() open
    });

  let stopped: Promise<void> | undefined;
  return {
    mode,
    devSecret,
    address: (main.address() as AddressInfo).address,
    dataDir,
    port,
    hostPort,
    origin: bundleOrigin,
    hostOrigin: cmsOrigin,
    db,
    media: library,
    stop() {
      stopped ??= Promise.all([close(main), host ? close(host) : undefined]).then(async () => {
        clearInterval(pruneTimer);
        payments.stop();
        if (devSecret) rmSync(secretFile, { force: true });
        await db.close();
      });
      return stopped;
    },
  };
}
