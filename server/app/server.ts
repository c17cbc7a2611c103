/* eslint-disable max-lines -- the server's assembly in start order (database, media, modules, listeners, stop), read as one */
/**
 * The reference channel server: the channel API of src/api/contract.ts over node:http, backed by PostgreSQL (db.ts),
 * plus the keys host, stored settings, the media server (signed HLS and downloads of ffmpeg-made test video,
 * streams.ts), the analytics collectors (analytics.ts), dev endpoints for tests (dev/endpoints.ts), the built bundle and the
 * demo pages. A second listener plays a third-party "CMS host" on another origin that serves only the demo pages,
 * to prove cross-origin embedding works.
 *
 * This file only assembles the server: it opens the database, makes the media, builds each module with what it
 * needs, and listens and stops. The API is one module per area, whose handlers join one map: channel-api.ts (keys,
 * settings, site content, start-up calls, the client log), catalog-api.ts (events and what is sold around them),
 * library-api.ts (the video-on-demand library), auth.ts (sign-in, registration, social sign-in, verification,
 * reset, deletion, profile update, device linking and the TV's device-code routes), account-data.ts (orders,
 * transactions), clips.ts (clips, cut by the job queue of clip-jobs.ts), favourites.ts and payments.ts.
 * routes.ts routes `/api/` requests over that map; listeners.ts says what each listener answers, in which order. Emails go
 * through the mail queue (mail/queue.ts: SMTP, or in dev mode the outbox, GET /__dev/outbox, demo/site/outbox.html); social providers are played by local stand-in pages (dev/social.ts, /__social/...); the
 * site's account routes (/verify-email, /auth/login/google/callback, ...) serve demo/site/account.html on both
 * listeners (production: server/pages/account.html, for the channel the link names); demo/site/tv.html plays a TV
 * that shows a device code to link.
 *
 * Checkout and payments are payments.ts (pricing, coupons, purchases, saved cards, trials, unsubscribe, the
 * customer portal) through the channel's card processor (Stripe, services.ts), settled by its verified webhooks and
 * a reconciliation (webhooks.ts). In dev mode, without a Stripe key, the processor is the Stripe double
 * (dev/stripe.ts) on a loopback port of its own, also mounted under /__stripe/ for the browser, which reaches it
 * through demo/site/stripe-test-double.js (Stripe.js's double, served at /stripe-test-double.js and installed as
 * `window.Stripe`). A channel with a 'google-analytics' id gets `gtag_url`: the local tag-manager stand-in
 * (demo/site/gtag-stand-in.js), whose events are recorded at /__dev/gtag.
 *
 * `startServer` is used in-process by tests (port 0) and by server/main.ts. It makes the test media and the
 * library's pictures first (10 to 15 s on the first start, cached in server/.media/ afterwards), gives the seeded
 * done clips their files and listens only once everything is ready; the clip queue resumes the unfinished clips.
 *
 * Exposure (exposure.ts). The server listens on 127.0.0.1 unless told otherwise, answers only requests whose Host
 * is one of its own names (400 otherwise), builds every absolute URL (media, emailed links, redirects, settings)
 * from its public origin and never from Host, and rate-limits every request per client address. Everything that
 * exists for the demo and the tests (demo pages, the CMS host listener, the outbox, the social and Stripe
 * stand-ins, the tag-manager stand-in, Mux beacon collection, `/__dev/`) exists only in dev mode, and `/__dev/`
 * also needs the per-start dev secret.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EndpointName, SocialProvider } from '../../src/api/contract.js';
import type { IdentityProviders } from '../identity/provider.js';
import { accountDataHandlers } from '../commerce/account-data.js';
import { DATALAKE_PER_MINUTE, Recorder } from '../analytics/analytics.js';
import { AnalyticsStore, type StoreLimits } from '../analytics/analytics-store.js';
import { authHandlers, deviceRoutes } from '../accounts/auth.js';
import { catalogHandlers, streamResolver } from '../catalog/catalog-api.js';
import { ClipJobs } from '../clips/clip-jobs.js';
import { clipHandlers, clipStreams } from '../clips/clips.js';
import { createChannels } from '../channel/channel-api.js';
import { settingsCopies } from '../channel/settings-copy.js';
import { ChannelDb, privateTree } from '../storage/db.js';
import { lockDataDir, StartRefused, type DataDirLock } from '../storage/data-dir.js';
import { handleDev, handleGtagCollect } from '../dev/endpoints.js';
import { clockAnchor, forgetEventJson, warmEventJson, type Clock } from '../catalog/events.js';
import {
  allowedHostsFor,
  DEFAULT_SCRIPT_ORIGINS,
  isLoopback,
  newDevSecret,
  publicOriginOf,
  type ServerMode,
} from './exposure.js';
import { favouriteHandlers } from '../accounts/favourites.js';
import type { ApiRequest, Handler } from '../http/handler.js';
import { addressKey, clientIp, errorSummary, tooMany } from '../http/http.js';
import { FORM_SUBMISSIONS_PER_ADDRESS, FORM_SUBMISSIONS_WINDOW_MS, submitForm } from '../channel/forms.js';
import { pruneLimits, RateLimiter, SharedRateLimiter } from '../http/limits.js';
import { createListeners } from './listeners.js';
import { LOG_ENTRIES_PER_ADDRESS, LOG_QUOTA_WINDOW_MS, MAX_LOGS_PER_CHANNEL, prune } from '../storage/maintenance.js';
import { loadFixtures } from '../fixtures/fixtures.js';
import { libraryHandlers } from '../catalog/library-api.js';
import {
  ensureLibraryMedia,
  libraryAssetPaths,
  libraryMediaHandler,
  type LibraryMedia,
} from '../media/library-media.js';
import { librarySpecs } from '../fixtures/library-seed.js';
import type { MediaLibrary } from '../media/media.js';
import { chooseServices, chooseStreamSource, chooseStripe, type ServiceChoice } from './services.js';
import { watchChannelSecrets } from '../channel/secrets.js';
import { MuxTokens } from '../media/sources/mux.js';
import { brandsOf } from '../mail/brand.js';
import type { GoogleOptions } from '../identity/google.js';
import type { FacebookOptions } from '../identity/facebook.js';
import { socialHandlers } from '../accounts/social-sign-in.js';
import { createPayments } from '../commerce/payments.js';
import { onPaymentApplied } from '../commerce/settlement.js';
import { paymentEmails } from '../mail/receipts.js';
import { createApi } from './routes.js';
import { CATALOG_CHANGED, operatorListener } from '../operator/operator-api.js';
import { ingestHooks, WATCH_INTERVAL_MS, type IngestOptions } from '../media/ingest/ingest.js';
import { uploadsHandler } from '../operator/uploads.js';
import { seedDatabase } from '../fixtures/seed.js';
import { importSqlite } from '../storage/sqlite-import.js';
import { handleSocial } from '../dev/social.js';
import type { StripeDouble } from '../dev/stripe.js';
import { stripeDevEndpoints, stripeMount } from '../dev/stripe-dev.js';
import { createPaymentEvents, RECONCILE_GRACE_MS, webhookPath } from '../commerce/webhooks.js';
import type { StripeAccount } from '../commerce/providers/stripe.js';
import { MediaServer } from '../media/streams.js';
import { IngestMedia } from '../media/ingest/recording.js';
import { log, type Logger } from '../observability/log.js';
import { createMetrics } from '../observability/metrics.js';
import { observedServerOptions, observeRequests, type ObservedListener } from '../observability/request-log.js';
import { drainListener, listenOperations, type Operations, type Phase } from './operations.js';
import type { Origins, PathHandler } from '../http/types.js';
/** The repository root (this file is server/app/server.ts). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** How `startServer` runs: every field is optional, the defaults suit `npm start`. */
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
   * Dev mode runs only on a database it seeded itself (the demo's, which it empties and seeds again when the
   * fixtures change); this runs it on any other as it is, dropping and seeding nothing (CHANNEL_DEV_KEEP_DATA=1).
   */
  devKeepData?: boolean;
  /**
   * How many proxies of the operator's own stand in front of the server (TRUST_PROXY): the client address is then
   * read from X-Forwarded-For, as the outermost of them saw it. Default 0: the socket's address.
   */
  trustProxy?: number;
  /** API and bundle port; 0 picks a free one (tests). Default 8080. */
  port?: number;
  /** The "CMS host" port serving only demo/site; default port + 1, or a free one when port is 0. */
  hostPort?: number;
  /** The server's own files: the embedded database (pgdata/), the stored settings, clips, the dev secret; default <repo>/.data. */
  dataDir?: string;
  /** A PostgreSQL server to keep the data in instead of the embedded one (`DATABASE_URL`). */
  databaseUrl?: string;
  /** Connections per process to that server (`DATABASE_POOL_SIZE`, default 10). */
  databasePoolSize?: number;
  /** Where clips' files go (`CLIPS_DIR`): shared by every process of one channel server; default DATA_DIR/clips. */
  clipsDir?: string;
  /** How long a clip job is held without news before another process takes it over (ms; tests shorten it). */
  clipLeaseMs?: number;
  /**
   * Seeds the fixtures (server/fixtures/*.json) into an empty database in production mode too (the tests' servers;
   * dev mode always does). Without it a production start on an empty database leaves it empty: a channel comes in by
   * the command line (`channel-server channel create` or `import`).
   */
  seedFixtures?: boolean;
  /** Tests: ready-made embedded databases to start from (db.ts OpenOptions.templates). */
  databaseTemplates?: string;
  /** New api keys per client address per 10 minutes before 429. Default 100. */
  apiKeyRateMax?: number;
  /** New accounts per client address per 10 minutes before registration is refused. Default 50. */
  registrationRateMax?: number;
  /** Emailed links (reset, verification, deletion) per client address per hour before they are held. Default 20. */
  emailRateMax?: number;
  /** Requests per window per client IP, on every path, before 429. Default 600. */
  rateLimitMax?: number;
  /** That window, in ms. Default 10,000. */
  rateLimitWindowMs?: number;
  /** Repository root, to find dist/, demo/site/ and server/fixtures/. */
  rootDir?: string;
  /** Demo pages folder (default <root>/demo/site); tests point it at a temp folder. */
  siteDir?: string;
  /** Built bundle folder (default <root>/dist). */
  distDir?: string;
  /** Wall clock in milliseconds; tests move it to see events go live and finish (and live playlists advance). */
  now?: () => number;
  /** Where the generated test media is cached (default <root>/server/.media). */
  mediaDir?: string;
  /** Lifetime of signed playback and download URLs, in seconds (default 7200). */
  mediaTtlSeconds?: number;
  /**
   * The Stripe account the channels without their own charge through (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET,
   * STRIPE_API_URL). Without one, production answers those channels' card calls 503, and dev mode runs a Stripe
   * double of its own.
   */
  stripe?: StripeAccount | undefined;
  /** STRIPE_API_URL (tests): the Stripe double the channels' own test keys are sent to as well. */
  stripeApiUrl?: string | undefined;
  /** Clip jobs (ffmpeg cuts) at once, 1 or 2 (CLIP_CONCURRENCY; default 2). */
  clipConcurrency?: number;
  /** How long a clip may take from its request to done (ms); default CLIP_TIME_LIMIT_SECONDS (tests shorten it). */
  clipTimeLimitMs?: number;
  /** Datalake calls per client address per minute (analytics.ts, default DATALAKE_PER_MINUTE). */
  analyticsRateMax?: number;
  /** Client log entries per client address per hour (default LOG_ENTRIES_PER_ADDRESS, maintenance.ts). */
  logRateMax?: number;
  /** Client log entries a channel keeps (default MAX_LOGS_PER_CHANNEL); a full channel refuses new ones. */
  logsPerChannel?: number;
  /** The analytics store's bounds (analytics-store.ts; tests make them small). */
  analyticsLimits?: StoreLimits;
  /** Statements slower than this many ms are logged (SLOW_QUERY_MS). */
  slowQueryMs?: number | undefined;
  /**
   * The operations listener's port (health, readiness, metrics: operations.ts; METRICS_PORT); 0 picks a free one.
   * Without it there is none (in-process tests).
   */
  metricsPort?: number | undefined;
  /** Its interface (METRICS_HOST); default 127.0.0.1. */
  metricsHost?: string | undefined;
  /**
   * The operator API's listener port (operator/operator-api.ts; OPERATOR_PORT); 0 picks a free one. Without it there
   * is none.
   */
  operatorPort?: number | undefined;
  /** Its interface (OPERATOR_HOST); default 127.0.0.1 (loopback: the API changes the catalogue and secrets). */
  operatorHost?: string | undefined;
  /**
   * Live ingest (INGEST_RTMP_URL, INGEST_HLS_DIR, INGEST_GRACE_SECONDS; media/ingest/): nginx's hooks on the operator
   * listener, ingest events' HLS folders, their stream keys. Without it an ingest event plays nothing.
   */
  ingest?: IngestOptions | undefined;
  /** Where this server's request log goes; default the process's logger (observability/log.ts). */
  logger?: Logger | undefined;
  /** The mail service (SMTP_URL): without it dev mode records emails in the outbox, production sends none. */
  smtpUrl?: string | undefined;
  /** The sender's address (MAIL_FROM); needed with smtpUrl. */
  mailFrom?: string | undefined;
  /** How long an email being sent is held without news from its process (MAIL_LEASE_MS; default a minute). */
  mailLeaseMs?: number | undefined;
  /** Tests: the mail queue's first retry wait (ms; default a minute). */
  mailRetryMs?: number | undefined;
  /**
   * Google sign-in (GOOGLE_ISSUER_URL, and GOOGLE_CLIENT_SECRET for the channels without their own); a channel with
   * neither its own secret nor the server's gets dev mode's stand-in, or none.
   */
  google?: GoogleOptions | undefined;
  /** Facebook sign-in (FACEBOOK_GRAPH_URL, FACEBOOK_AUTHORIZE_URL, FACEBOOK_APP_SECRET); likewise. */
  facebook?: FacebookOptions | undefined;
}

/** A started server: where it listens, its database and media, and how to stop it. */
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
  /** The library's generated pictures (thumbnails and previews by item key). */
  libraryMedia: LibraryMedia;
  /** The clip job queue (tests queue a clip of their own making with it). */
  clips: ClipJobs;
  /** The operations listener's port (0 when there is none). */
  metricsPort: number;
  /** The operator API listener's port (0 when there is none). */
  operatorPort: number;
  /** Where the server is in its life: readiness answers 503 unless 'ready'. */
  phase(): Phase;
  /** Reads back now the payments that should have been settled (the reconciliation's run; tests call it). */
  reconcile(): Promise<void>;
  /** Dev mode's Stripe double, when it runs one (no Stripe key of its own). */
  stripeDouble: StripeDouble | undefined;
  /** Live ingest's watchdog, run now (it runs every WATCH_INTERVAL_MS by itself): for tests. */
  ingestWatch: (() => Promise<void>) | undefined;
  /**
   * Stops: readiness turns 503, the listeners accept nothing new, requests in flight get `drainMs` (default 0) to
   * finish, clip jobs hand back their leases, the database closes, then the operations listener.
   */
  stop(options?: { drainMs?: number }): Promise<void>;
}

/**
 * New api keys one client address may ask for per window, by default: a visitor needs one, each is a stored row,
 * and many viewers can share one address (a campus, a stadium's Wi-Fi). The table is capped anyway
 * (maintenance.ts); this keeps one address from churning everyone else's keys out of it.
 */
const API_KEYS_PER_ADDRESS = 100;
const API_KEYS_WINDOW_MS = 10 * 60_000;
/** How often expired rows are pruned (maintenance.ts). */
const PRUNE_INTERVAL_MS = 3600_000;
/** The longest window of a shared limit: windows and attempts older than this are forgotten. */
const LONGEST_LIMIT_WINDOW_MS = 3600_000;

/**
 * Opens the database, makes the test media, wires the modules together and listens; see the file comment. DATA_DIR
 * is held for the server's life (data-dir.ts): a start refused or failed gives it back, and so does `stop()`.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? join(options.rootDir ?? REPO_ROOT, '.data');
  // The server's files are its own (keys, password hashes, clips): private whatever the umask it was started with.
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = lockDataDir(dataDir, Boolean(options.databaseUrl));
  // What a failed start must close before it gives DATA_DIR back (an open embedded database above all).
  const opened: Array<() => Promise<void>> = [];
  try {
    return await assemble(options, dataDir, lock, opened);
  } catch (error) {
    for (const close of opened.reverse()) await close().catch(() => undefined);
    lock.release();
    throw error;
  }
}

/** startServer's work once DATA_DIR is held. */
async function assemble(
  options: ServerOptions,
  dataDir: string,
  lock: DataDirLock,
  opened: Array<() => Promise<void>>,
): Promise<RunningServer> {
  const rootDir = options.rootDir ?? REPO_ROOT;
  // The operations listener answers from the first moment (readiness 503 while starting) to the last of a stop.
  let phase: Phase = 'starting';
  const started: { db?: ChannelDb } = {};
  const metrics = createMetrics();
  const logger = options.logger ?? log();
  let operations: Operations | undefined;
  if (options.metricsPort !== undefined) {
    operations = await listenOperations(options.metricsHost ?? '127.0.0.1', options.metricsPort, {
      phase: () => phase,
      db: () => started.db,
      registry: metrics.registry,
    });
    opened.push(() => operations!.close());
  }
  const siteDir = options.siteDir ?? join(rootDir, 'demo', 'site');
  const distDir = options.distDir ?? join(rootDir, 'dist');
  const nowMs = options.now ?? Date.now;
  const mode: ServerMode = options.mode ?? 'production';
  const dev = mode === 'dev';
  const listenHost = options.host ?? '127.0.0.1';
  const configuredOrigin = options.publicUrl ? publicOriginOf(options.publicUrl) : undefined;
  if (dev && !isLoopback(listenHost) && !options.devOnNetwork) {
    throw new StartRefused(
      `Dev mode (CHANNEL_DEV=1) lets anyone sign in as anyone, so it listens on loopback only, not on HOST=${listenHost}. ` +
        'Set CHANNEL_DEV_ON_NETWORK=1 as well to expose it on a network of your own.',
    );
  }
  const devSecret = dev ? (options.devSecret ?? newDevSecret()) : undefined;
  const scriptOrigins = [...DEFAULT_SCRIPT_ORIGINS, ...(options.scriptOrigins ?? []).map((o) => publicOriginOf(o))];
  /** The client's address (limits count its IPv4 address or IPv6 /64: `addressKey`). */
  const addressOf = (req: IncomingMessage) => clientIp(req, options.trustProxy ?? 0);
  const fixturesDir = join(rootDir, 'server', 'fixtures');
  const seededAt = Math.floor(nowMs() / 1000);
  privateTree(dataDir);
  // The media comes from ffmpeg child processes, so seeding a fresh database meanwhile is not slowed by it.
  const mediaDir = options.mediaDir ?? join(rootDir, 'server', '.media');
  const opening = ChannelDb.open({
    dataDir,
    databaseUrl: options.databaseUrl,
    poolSize: options.databasePoolSize,
    slowQueryMs: options.slowQueryMs,
    fixturesDir,
    // Only dev mode and the tests seed the fixtures; a production start on an empty database leaves it empty. But
    // for the SQLite era's data (sqlite-import.ts), which lands on the channels those fixtures made, as it did then.
    seed:
      dev || options.seedFixtures || existsSync(join(dataDir, 'channel.sqlite'))
        ? (fresh) => seedDatabase(fresh, fixturesDir, seededAt)
        : undefined,
    dev,
    keepData: options.devKeepData,
    serves: true,
    // Seeded data is dated from the seeding day (library items, accounts): a template of the same day serves.
    templates: options.databaseTemplates
      ? { dir: options.databaseTemplates, key: String(Math.floor(seededAt / 86400)) }
      : undefined,
  });
  // Closed by a failed start, even when the media fails first (closing a closed database does nothing).
  opened.push(async () => (await opening.catch(() => undefined))?.close());
  const [db, library, libraryMedia] = await Promise.all([
    opening,
    chooseStreamSource({ dev, mediaDir }).prepare(),
    ensureLibraryMedia(mediaDir, librarySpecs(loadFixtures(fixturesDir))),
  ]);
  started.db = db;
  const clipsDir = options.clipsDir ?? join(dataDir, 'clips');
  // A channel that ran the SQLite-era server: what its visitors did comes over once (sqlite-import.ts), before
  // anything reads the secrets, settings or clips. A failed import stops the start: nothing half-imported is served.
  await importSqlite(db, join(dataDir, 'channel.sqlite'), (message) => logger.info(message), clipsDir).catch(
    async (error: unknown) => {
      await db.close();
      throw error;
    },
  );
  if (!dev && !(await db.get('SELECT 1 AS one FROM channels LIMIT 1')))
    logger.warn(
      'this database has no channel yet: create one with `npx channel-server channel create --key KEY --name NAME` ' +
        'or load a channel file with `npx channel-server import FILE` (docs/operating.md)',
    );
  const ingest = options.ingest ? new IngestMedia(options.ingest.hlsDir, dataDir) : undefined;
  const clipJobs = new ClipJobs({
    db,
    // An ingest event's clips are cut from its own media: its recording once finished, its segments while live.
    inputOf:
      ingest &&
      (async (eventId, offset, duration) => {
        const row = await db.get('SELECT stream_source, live_until FROM events WHERE id = ?', [eventId]);
        if (row?.stream_source !== 'ingest') return undefined;
        const finished = row.live_until !== null && clock().now - anchor >= Number(row.live_until);
        return ingest.clipInput(eventId, offset, duration, finished);
      }),
    library,
    clipsDir,
    nowMs,
    concurrency: options.clipConcurrency,
    timeLimitMs: options.clipTimeLimitMs,
    leaseMs: options.clipLeaseMs,
  });

  // A production start fixes a seeded database's event clock, once (db.ts fixEventClock): operator writes and
  // every process then agree on when an event is. Dev mode keeps its demo live at each start instead.
  if (!dev && (await db.fixEventClock(Math.floor(nowMs() / 1000))))
    logger.info('the events are now timed in UTC (meta event_clock): they stay where they are at this start');
  // Event offsets count from this moment on a seeded database (after a restart, "live now" seed events are live
  // again), from 1970 on a production one (events.ts clockAnchor).
  const anchor = await clockAnchor(db, Math.floor(nowMs() / 1000));
  const clock = (): Clock => ({ anchor, now: Math.floor(nowMs() / 1000) });
  const recordingSeconds = Math.round(library.main.duration);
  // Known once listening; the HTML placeholder, CSP and absolute media URLs all need the real API port.
  const origins: Origins = { bundle: '', cms: '' };
  const hosts = { main: new Set<string>(), cms: new Set<string>() };

  // Playback URLs and email verification links are signed with per-database secrets, so they survive a restart and
  // every process signs alike (the first to start makes them).
  const secret = async (name: string) => {
    await db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [
      name,
      randomBytes(32).toString('hex'),
    ]);
    return String((await db.get('SELECT value FROM meta WHERE key = ?', [name]))!.value);
  };
  const clipStream = clipStreams(db, clipJobs);
  const eventStream = streamResolver(db, library, clock, () => origins.bundle, ingest);
  const mediaServer = new MediaServer({
    library,
    secret: await secret('media_secret'),
    addressOf: (req) => addressKey(addressOf(req)),
    // The log of media requests is for the dev endpoints; production keeps none.
    logRequests: dev,
    ttlSeconds: options.mediaTtlSeconds,
    now: nowMs,
    resolve: (stream) => clipStream(stream) ?? eventStream(stream),
    preroll: async (id) => {
      const row = await db.get('SELECT media FROM prerolls WHERE id = ?', [id]);
      return row ? library.prerolls[String(row.media)] : undefined;
    },
  });
  // Mux beacons come here only in dev mode (production sends them to Mux); the datalake is the channel's own.
  const beacons = dev ? new Recorder(nowMs) : undefined;
  // The channel's analytics service: what arrives is stored per channel (analytics-store.ts).
  const analyticsStore = new AnalyticsStore(db, nowMs, options.analyticsLimits);
  const gtag = new Recorder(nowMs);

  // ------------------------------------------------------------------ the API, one module per area
  /** Social sign-in's providers of each channel, once chosen below (the settings served name where each goes). */
  let identity: (channelId: number) => IdentityProviders = () => ({});
  const channels = createChannels({
    db,
    dev,
    clock,
    origins,
    keyLimiter: new RateLimiter(
      db,
      'api-keys',
      options.apiKeyRateMax ?? API_KEYS_PER_ADDRESS,
      API_KEYS_WINDOW_MS,
      nowMs,
    ),
    logLimiter: new RateLimiter(db, 'logs', options.logRateMax ?? LOG_ENTRIES_PER_ADDRESS, LOG_QUOTA_WINDOW_MS, nowMs),
    logsPerChannel: options.logsPerChannel ?? MAX_LOGS_PER_CHANNEL,
    copies: settingsCopies(join(dataDir, 'storage', 'settings')),
    socialEndpoint: (provider, channelId) => identity(channelId)[provider as SocialProvider]?.endpoint(),
  });
  await channels.load();
  /** The channel whose analytics key this is (settings 'yare-analytics'), from the channels' settings in memory. */
  const channelOfProfile = (profile: string): string | undefined => channels.channelOfAnalyticsKey(profile);
  const datalakeLimiter = new SharedRateLimiter(
    db,
    'datalake',
    options.analyticsRateMax ?? DATALAKE_PER_MINUTE,
    60_000,
    nowMs,
  );
  const datalake = {
    store: analyticsStore,
    channelOfProfile,
    limiter: datalakeLimiter,
    addressOf: (req: IncomingMessage) => addressOf(req),
  };
  const serviceChoice: ServiceChoice = {
    dev,
    mediaDir,
    stripe: options.stripe,
    stripeApiUrl: options.stripeApiUrl,
    publishableKeyOf: (channelKey) => {
      const channel = channels.byKey(channelKey);
      const stripe = channel ? (channels.settingsOf(Number(channel.id)).stripe as { publishable_key?: unknown }) : null;
      return typeof stripe?.publishable_key === 'string' ? stripe.publishable_key : undefined;
    },
    nowMs,
    origin: () => origins.bundle,
    google: options.google,
    facebook: options.facebook,
    mail: {
      smtpUrl: options.smtpUrl,
      from: options.mailFrom ?? `no-reply@${configuredOrigin ? new URL(configuredOrigin).hostname : 'localhost'}`,
      brandOf: brandsOf(db, channels.settingsOf),
      nowMs,
      retryMs: options.mailRetryMs,
      leaseMs: options.mailLeaseMs,
      failed: (reason) => metrics.emailFailed(reason),
    },
  };
  const stripe = await chooseStripe(serviceChoice, dataDir);
  opened.push(async () => stripe.double?.close());
  // Each channel's own secrets, in memory, read again on every process when they change (channel/secrets.ts).
  const secrets = await watchChannelSecrets(db, (error) =>
    logger.error({ err: error }, "could not read a channel's changed secrets"),
  );
  const services = chooseServices(serviceChoice, db, stripe.account, secrets);
  // Signed Mux events' playback tokens, with the channel's own signing key; a page of events lists a signed Mux
  // event's stream only when its channel has one, so every rendered page is forgotten when a channel's secrets change.
  const muxTokens = new MuxTokens(
    (channelId) => {
      const own = secrets.ofId(channelId);
      return own.mux_signing_key_id && own.mux_signing_private_key
        ? { keyId: own.mux_signing_key_id, privateKey: own.mux_signing_private_key }
        : undefined;
    },
    mediaServer.ttlSeconds,
    nowMs,
  );
  secrets.onChange(() => forgetEventJson(db));
  identity = services.identity;
  if (!dev && !options.smtpUrl)
    logger.warn('no SMTP_URL: emails are queued but none is sent (each fails after 24 hours); see docs/server.md');
  const authContext = {
    db,
    mailer: services.mailer,
    verifySecret: await secret('verify_secret'),
    registrationsPerAddress: options.registrationRateMax,
    emailsPerAddress: options.emailRateMax,
    removeClip: (id: number) => clipJobs.remove(id),
  };
  // Receipts and renewal notices are queued with the payment events they tell of, whoever applies them.
  onPaymentApplied(
    db,
    paymentEmails({
      db,
      mailer: services.mailer,
      settingsOf: channels.settingsOf,
      origin: () => origins.bundle,
      nowMs,
    }),
  );
  const payments = createPayments({
    db,
    nowMs,
    knownOrigins: () => (dev ? [origins.bundle, origins.cms] : [origins.bundle]),
    providers: services.payments,
  });
  // The processor's webhooks, and the reconciliation that reads back what they should have said.
  const paymentEvents = createPaymentEvents({
    db,
    nowMs,
    providers: services.payments,
    channelOf: (key) => {
      const channel = channels.byKey(key);
      return channel ? { id: Number(channel.id), key: String(channel.channel_key) } : undefined;
    },
  });
  // The limit every request passes (listeners.ts); a big page of events counts as more (catalog-api.ts).
  const requestLimiter = new SharedRateLimiter(
    db,
    'requests',
    options.rateLimitMax ?? 600,
    options.rateLimitWindowMs ?? 10_000,
    nowMs,
  );
  /** Counts a big page of events as `hits` more requests of its caller (catalog-api.ts, favourites.ts). */
  const charge = async (r: ApiRequest, hits: number) => tooMany(await requestLimiter.hit(addressKey(r.ip), hits));
  const handlers: Record<EndpointName, Handler> = {
    ...authHandlers(authContext),
    ...socialHandlers({ db, identity: services.identity, sitesOf: channels.sitesOf }),
    ...payments.handlers,
    ...accountDataHandlers(db),
    ...favouriteHandlers(db, charge),
    ...channels.handlers,
    ...catalogHandlers({
      db,
      mediaServer,
      charge,
    }),
    ...libraryHandlers({
      db,
      mediaServer,
      muxTokens,
      recordingSeconds,
      assets: (key) => (libraryMedia.files[key] ? libraryAssetPaths(key) : undefined),
    }),
    ...clipHandlers({ db, jobs: clipJobs, mediaServer, recordingSeconds, ingest, nowMs }),
    submitForm: submitForm(
      db,
      new RateLimiter(db, 'forms', FORM_SUBMISSIONS_PER_ADDRESS, FORM_SUBMISSIONS_WINDOW_MS, nowMs),
      services.mailer,
    ),
  };
  const api = createApi({
    db,
    handlers,
    serverOnly: deviceRoutes(authContext),
    clock,
    origins,
    addressOf,
    channels,
    mediaServer,
    muxTokens,
    recordingSeconds,
    nowMs,
  });

  // The operator API changed a channel's catalogue (in this process or another): every cached event is forgotten.
  await db.listen(
    CATALOG_CHANGED,
    () => forgetEventJson(db),
    () => forgetEventJson(db),
  );
  // An event's schedule changed (the dev endpoints): every process forgets its cached form; all of them when
  // notifications may have been missed.
  await db.listen(
    'event_changed',
    (payload) => forgetEventJson(db, Number(payload) || undefined),
    () => forgetEventJson(db),
  );

  // ------------------------------------------------------------------ dev mode's endpoints and stand-ins
  const standIns: PathHandler[] = [];
  if (dev) {
    const devContext = {
      secret: devSecret!,
      scriptOrigins,
      db,
      media: mediaServer,
      beacons: beacons!,
      datalake: analyticsStore,
      gtag,
      clock,
      orders: payments.devOrders,
      partnerSales: payments.partnerSales,
      settingsChanged: async (channelId: number) => {
        await channels.settingsChanged(channelId);
        await channels.storeSettings(channelId);
      },
      eventChanged: async (id: number) => {
        forgetEventJson(db, id);
        await db.notify('event_changed', String(id));
      },
    };
    const socialContext = { db, now: () => clock().now, bundleOrigin: () => origins.bundle, sites: channels.sitesOf };
    standIns.push(
      // Before handleDev, which answers 404 for every /__dev/ path it does not know (/__dev/stripe/* among them).
      ...(stripe.double ? [stripeDevEndpoints(stripe.double, devSecret!), stripeMount(stripe.double)] : []),
      (req, res, url) => handleDev(req, res, url, devContext),
      (req, res, url) => handleGtagCollect(req, res, url.pathname, gtag),
      (req, res, url) => handleSocial(req, res, url, socialContext),
    );
  }

  const listeners = await createListeners({
    dev,
    rootDir,
    siteDir,
    distDir,
    db,
    origins,
    hosts,
    limiter: requestLimiter,
    addressOf,
    api,
    channelFiles: channels.handleFiles,
    media: mediaServer,
    libraryFiles: libraryMediaHandler(libraryMedia),
    uploads: uploadsHandler(db),
    analytics: { beacons, datalake },
    webhooks: paymentEvents.handleWebhook,
    standIns,
  });
  // Every request is logged and measured (observability/request-log.ts); while draining, no answer keeps its
  // connection (no keep-alive into a closed server), whether it came before the drain began or after.
  const draining = () => phase === 'draining';
  const observed = (listener: RequestListener, name: 'main' | 'cms' | 'operator'): ObservedListener =>
    observeRequests(listener, { logger, metrics, listener: name, draining });
  const main = createServer(observedServerOptions, observed(listeners.main, 'main'));
  // nginx's hooks for live ingest (media/ingest/ingest.ts), on the operator listener; its watchdog starts below.
  const ingestHandler = options.ingest && ingestHooks({ db, clock, ingest: options.ingest, logger });
  // The operator API (operator/operator-api.ts) on its own listener, when asked for: loopback unless told otherwise.
  const operatorServer =
    options.operatorPort === undefined
      ? undefined
      : createServer(
          observedServerOptions,
          observed(
            withIngestHooks(
              operatorListener({
                db,
                nowMs,
                clock,
                scriptOrigins,
                channels,
                payments: services.payments,
                logger,
                ingestRtmpUrl: options.ingest?.rtmpUrl,
                ingestHlsDir: options.ingest?.hlsDir,
                discardIngestMedia: ingest && ((eventId) => ingest.discard(eventId)),
              }),
              ingestHandler,
              logger,
            ),
            'operator',
          ),
        );
  const host = dev ? createServer(observedServerOptions, observed(listeners.host, 'cms')) : undefined;
  metrics.watch({
    pool: () => db.poolState(),
    clipQueue: async () => {
      const row = await db.get(
        "SELECT count(*) FILTER (WHERE status = 'queued') AS queued, count(*) FILTER (WHERE status = 'processing') AS processing FROM clips",
      );
      return { queued: Number(row?.queued ?? 0), processing: Number(row?.processing ?? 0) };
    },
    pendingEmails: () => services.mailer.pending(),
    // How long past the moment a webhook should have come the oldest order still being paid has waited.
    settlementLag: async () => {
      const due = nowMs() - RECONCILE_GRACE_MS;
      const row = await db.get(
        "SELECT min(payment_attempt_at) AS since FROM orders WHERE status = 'created' AND payment_attempt_at <= ?",
        [due],
      );
      return row?.since === null || row?.since === undefined ? 0 : (due - Number(row.since)) / 1000;
    },
  });
  // Idle keep-alive connections stay open longer than a client or a proxy in front waits before reusing one (60 s
  // is the usual load balancer's), so a reused connection is never one the server is closing at that moment (the
  // client would see ECONNRESET). Node's default is 5 s.
  for (const server of [main, host, operatorServer]) {
    if (!server) continue;
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(port, listenHost, () => {
        server.off('error', reject);
        resolveListen((server.address() as AddressInfo).port);
      });
    });

  const timers: NodeJS.Timeout[] = [];
  const fail = async (error: unknown): Promise<never> => {
    phase = 'draining';
    await clipJobs.stop();
    await services.mailer.stop();
    main.close();
    host?.close();
    operatorServer?.close();
    await paymentEvents.stop();
    await stripe.double?.close();
    requestLimiter.stop();
    datalakeLimiter.stop();
    for (const timer of timers) clearInterval(timer);
    await db.close();
    throw error;
  };
  // Seeded done clips get their files before anyone can ask for them (cached: instant after the first start).
  await clipJobs.start().catch(fail);
  // Emails queued before this start (by a process that stopped or died) go now; new ones as they are queued.
  await services.mailer.start().catch(fail);
  const port = await listen(main, options.port ?? 8080).catch(fail);
  origins.bundle = configuredOrigin ?? `http://localhost:${port}`;
  hosts.main = allowedHostsFor(port, listenHost, origins.bundle, options.allowedHosts);
  let hostPort = 0;
  if (host) {
    hostPort = await listen(host, options.hostPort ?? (options.port === 0 ? 0 : port + 1)).catch(fail);
    origins.cms = `http://localhost:${hostPort}`;
    hosts.cms = allowedHostsFor(hostPort, listenHost, undefined, []);
  }
  let operatorPort = 0;
  if (operatorServer)
    operatorPort = await new Promise<number>((resolveListen, reject) => {
      operatorServer.once('error', reject);
      operatorServer.listen(options.operatorPort, options.operatorHost ?? '127.0.0.1', () => {
        operatorServer.off('error', reject);
        resolveListen((operatorServer.address() as AddressInfo).port);
      });
    }).catch(fail);
  // The stored copies of the settings, as this start serves them (its origin, its mode's stand-ins).
  await channels.storeSettings().catch(fail);

  // Dev mode: the secret goes where the demo's developer and the tests can read it, and nowhere else.
  const secretFile = join(dataDir, 'dev-secret');
  if (devSecret) {
    rmSync(secretFile, { force: true }); // a file left by an earlier start may have looser permissions
    writeFileSync(secretFile, `${devSecret}\n`, { mode: 0o600 });
  }

  // Forget what expired while the server was down, then every hour (any process may: each statement is idempotent).
  const maintain = async () => {
    await prune(db, clock().now);
    await pruneLimits(db, nowMs(), LONGEST_LIMIT_WINDOW_MS);
    await analyticsStore.prune();
    await services.mailer.prune();
    // The embedded database has no autovacuum: the planner's statistics are brought up to date here.
    if (db.kind === 'pglite') await db.analyze();
  };
  await maintain().catch(fail);
  const pruneTimer = setInterval(() => {
    maintain().catch((error: unknown) => logger.error({ err: error }, `pruning failed: ${errorSummary(error)}`));
  }, PRUNE_INTERVAL_MS);
  pruneTimer.unref();
  timers.push(pruneTimer);
  if (ingestHandler) {
    const watchdog = setInterval(() => {
      ingestHandler.watch().catch((error: unknown) => logger.error({ err: error }, 'ingest: the watchdog failed'));
    }, WATCH_INTERVAL_MS);
    watchdog.unref();
    timers.push(watchdog);
  }

  // Serialise the events once for the usual origin now rather than inside the first big request.
  await warmEventJson(db, clock(), origins.bundle).catch(fail);

  // Dev mode's Stripe double sends every channel's events to that channel's endpoint here, as Stripe would.
  if (stripe.double && stripe.account) {
    for (const row of await db.all('SELECT channel_key FROM channels ORDER BY id'))
      stripe.double.addEndpoint(
        `${origins.bundle}${webhookPath(String(row.channel_key))}`,
        stripe.account.webhookSecret,
      );
  }
  // What should have been settled while no process listened: read back now (without holding up the start), then
  // every few minutes.
  paymentEvents.start().catch((error: unknown) => logger.error({ err: error }, 'the payments reconciliation failed'));

  phase = 'ready';
  let stopped: Promise<void> | undefined;
  return {
    mode,
    devSecret,
    address: (main.address() as AddressInfo).address,
    dataDir,
    port,
    hostPort,
    origin: origins.bundle,
    hostOrigin: origins.cms,
    db,
    media: library,
    libraryMedia,
    clips: clipJobs,
    metricsPort: operations?.port ?? 0,
    operatorPort,
    phase: () => phase,
    reconcile: () => paymentEvents.reconcile(),
    stripeDouble: stripe.double,
    ingestWatch: ingestHandler?.watch,
    stop(stopOptions = {}) {
      // Readiness says 503 first; then the listeners drain while the clip jobs hand back their leases.
      phase = 'draining';
      const drainMs = stopOptions.drainMs ?? 0;
      stopped ??= Promise.all([
        drainListener(main, drainMs),
        host ? drainListener(host, drainMs) : undefined,
        operatorServer ? drainListener(operatorServer, drainMs) : undefined,
        clipJobs.stop(),
        services.mailer.stop(),
      ]).then(async () => {
        for (const timer of timers) clearInterval(timer);
        await paymentEvents.stop();
        await stripe.double?.close();
        requestLimiter.stop();
        datalakeLimiter.stop();
        if (devSecret) rmSync(secretFile, { force: true });
        await db.close();
        await operations?.close();
        lock.release();
        logger.flush();
      });
      return stopped;
    },
  };
}

/**
 * The operator listener with nginx's ingest hooks in front (`/ingest/on_publish`, `/ingest/on_publish_done`:
 * media/ingest/ingest.ts): loopback by default, like the operator API, since only nginx calls them.
 */
function withIngestHooks(
  operatorApi: RequestListener,
  hooks: ReturnType<typeof ingestHooks> | undefined,
  logger: Logger,
): RequestListener {
  if (!hooks) return operatorApi;
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (!path.startsWith('/ingest/')) {
      operatorApi(req, res);
      return;
    }
    hooks(req, res, path).then(
      (answered) => {
        if (!answered) res.writeHead(404).end();
      },
      (error: unknown) => {
        logger.error({ err: error }, `ingest hook: ${errorSummary(error)}`);
        // A failed hook refuses the push (nginx drops it) rather than letting an unchecked one through.
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
  };
}
