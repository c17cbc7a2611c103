/**
 * What each of the two listeners answers, in order. The API/bundle listener: CORS preflights, the API (routes.ts),
 * the card processor's webhooks, the keys host and static settings, the media server, the library's pictures, the analytics collectors, in dev
 * mode the dev endpoints and stand-ins, placeholder art, then files: the site's account routes, the built bundle
 * and (in dev mode) the demo pages. The CMS host listener (dev mode only) serves the demo pages and nothing else. Every request is first
 * checked against the listener's own host names and counted against its address, and refused (422) when its path or
 * query holds a NUL character; every failure becomes a JSON error answer, and an unexpected one is logged by its code
 * and message only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { SOCIAL_PROVIDERS } from '../../src/api/contract.js';
import { handleAnalytics, type DatalakeContext, type Recorder } from '../analytics/analytics.js';
import { fixturePictures, servePlaceholderArt } from '../catalog/catalog-api.js';
import type { ChannelDb } from '../storage/db.js';
import { tokenHash } from '../accounts/accounts.js';
import { isDevPath } from '../dev/endpoints.js';
import { hostAllowed } from './exposure.js';
import { addressKey, errorSummary, HttpError, refuseNulInTarget, requestUrl, sendJson, tooMany } from '../http/http.js';
import type { SharedRateLimiter } from '../http/limits.js';
import type { ApiHandler } from './routes.js';
import {
  CORS_HEADERS,
  VENDOR_FILES,
  builtRelease,
  bundleCacheControl,
  serveStatic,
  type StaticOptions,
} from '../http/static.js';
import type { MediaServer } from '../media/streams.js';
import { join } from 'node:path';
import { discoveryLink, embedTarget, handleOembed, type OembedOptions } from '../channel/oembed.js';
import type { Origins, PathHandler } from '../http/types.js';
import { log } from '../observability/log.js';
import { requestIdOf } from '../observability/request-log.js';

/** The demo page where media-chrome drives the player (its controls' templates need inline styles). */
const MEDIA_CHROME_PAGE = '/media-chrome.html';

/**
 * Paths of the channel site's account routes that emailed links and social callbacks open: the account page, whose
 * `<channel-profile>` reads the path and query to run the flow (see serveAccountRoute for which page).
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

/**
 * The demo's `<channel-app>` sites (dev mode): every path under a site's base answers its page, so deep links and
 * reloads work; the site itself shows its 404 for paths it does not know. A channel's own server needs the same
 * rule for its site's base (docs/embedding.md: "Deep links need one rule on your server").
 */
const SITE_PAGES: readonly [base: string, page: string, channelKey: string][] = [
  ['/site-fr', '/site-fr.html', 'demo-fr'],
  ['/site', '/site.html', 'demo'],
];

/** The site page a path belongs to, if it is under a demo site's base. */
export function sitePageOf(path: string): string | undefined {
  return SITE_PAGES.find(([base]) => path === base || path.startsWith(`${base}/`))?.[1];
}

/** The demo pages' own assets that the account routes' page and the embed layout need in production too. */
const ACCOUNT_PAGE_ASSETS = new Set(['/demo.css', '/demo.js', '/embed.css']);

/** What the listeners answer with. */
export interface ListenerContext {
  /** Dev mode: the demo pages, the stand-ins and the CMS host. */
  dev: boolean;
  /** Repository root (the vendor files the demo pages load come from under it). */
  rootDir: string;
  /** The demo pages. */
  siteDir: string;
  /** The built bundle. */
  distDir: string;
  db: ChannelDb;
  origins: Origins;
  /** Each listener's own Host names: filled in once it is bound. */
  hosts: { main: ReadonlySet<string>; cms: ReadonlySet<string> };
  /** Requests per client address, on every path. */
  limiter: SharedRateLimiter;
  /** The client's address. */
  addressOf(req: IncomingMessage): string;
  api: ApiHandler;
  /** The keys host and the static settings (channel-api.ts). */
  channelFiles: PathHandler;
  media: MediaServer;
  /** The library's public pictures, /media/library/ (library-media.ts). */
  libraryFiles(req: IncomingMessage, res: ServerResponse, path: string): boolean;
  /** Images the operator API uploaded, /media/uploads/ (operator/uploads.ts). */
  uploads(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
  analytics: { beacons: Recorder | undefined; datalake: DatalakeContext };
  /** The card processor's webhooks (`POST /stripe/webhooks/{channel key}`, commerce/webhooks.ts). */
  webhooks: PathHandler;
  /** Dev mode only: the dev endpoints and the stand-ins (tag manager, Stripe, social providers), tried in order. */
  standIns: PathHandler[];
}

/** Wraps a handler so every failure becomes a JSON error answer instead of a hung or crashed request. */
const wrap =
  (handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>): RequestListener =>
  (req, res) => {
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
        sendJson(
          res,
          error.status,
          { message: error.message, ...(error.errors ? { errors: error.errors } : {}) },
          error.headers,
          { cors },
        );
      } else if (error instanceof URIError) {
        sendJson(res, 400, { message: 'Malformed URL: a percent escape is invalid.' }, {}, { cors });
      } else {
        // The code and message only: the error object of a failed statement holds its values (emails, hashes).
        log().error({ reqId: requestIdOf(req), err: error }, `a request failed: ${errorSummary(error)}`);
        sendJson(res, 500, { message: 'Server Error' }, {}, { cors });
      }
    });
  };

/** What a page request asked for (dev mode): see withPageRequest. */
const pageRequest = new AsyncLocalStorage<{ trustedTypes: string | undefined }>();

/** Where the CMS host serves the framework host apps (test/hosts). */
const HOSTS_PATH = '/hosts/';

/** The two listeners' request handlers (the CMS host's is only used in dev mode). */
export async function createListeners(ctx: ListenerContext): Promise<{ main: RequestListener; host: RequestListener }> {
  const { dev, db, origins, siteDir, distDir } = ctx;

  /** The fixture keys of the seeded events, to their ids, per channel: the demo pages' `%DEMO_EVENTS%`. */
  const demoEvents: Record<string, Record<string, number>> = {};
  for (const row of await db.all(
    'SELECT c.channel_key, e.key, e.id FROM events e JOIN channels c ON c.id = e.channel_id WHERE e.key IS NOT NULL ORDER BY e.id',
  )) {
    (demoEvents[String(row.channel_key)] ??= {})[String(row.key)] = Number(row.id);
  }
  const placeholders = { '%DEMO_EVENTS%': JSON.stringify(demoEvents) };
  /** Production draws only the placeholder pictures the fixtures name (see servePlaceholderArt). */
  const pictures = dev ? undefined : fixturePictures(join(ctx.rootDir, 'server', 'fixtures'));
  /**
   * Pages that pin the release (a partner's payment page) name its loader and `integrity` value: read from the
   * build's dist/integrity.json on each page, so a rebuild is picked up; before a build, the alias and no hash.
   */
  const releasePlaceholders = () => {
    const release = builtRelease(distDir);
    return {
      '%LOADER_FILE%': release?.loader ?? 'channel-elements.js',
      '%LOADER_INTEGRITY%': release?.integrity ?? '',
    };
  };
  const pageOptions = (
    extra: { placeholders?: Record<string, string> } & Omit<Partial<StaticOptions>, 'placeholders'> = {},
  ): StaticOptions => ({
    bundleOrigin: origins.bundle,
    trustedTypes: pageRequest.getStore()?.trustedTypes,
    ...extra,
    placeholders: () => ({ ...placeholders, ...releasePlaceholders(), ...extra.placeholders }),
  });

  /** The server's own page templates (the account page, the embed layout): not demo pages. */
  const pagesDir = join(ctx.rootDir, 'server', 'pages');

  /**
   * The channel an account route's page is for, in production: the link's `channel_key` (emailed links to this
   * server carry it), else the channel of the sign-in a social callback's `state` names (accounts/social-sign-in.ts),
   * else the server's only channel. A key no channel has, or none on a server of several channels, is a 404 saying so.
   */
  async function accountChannel(url: URL): Promise<string> {
    const named = url.searchParams.get('channel_key');
    if (named !== null) {
      const row = await db.get('SELECT channel_key FROM channels WHERE channel_key = ?', [named]);
      if (!row) throw new HttpError(404, 'Not found: this server has no channel with the key the link names.');
      return String(row.channel_key);
    }
    const state = url.searchParams.get('state');
    if (state) {
      const row = await db.get(
        'SELECT c.channel_key FROM social_attempts a JOIN channels c ON c.id = a.channel_id WHERE a.state_hash = ?',
        [tokenHash(state)],
      );
      if (row) return String(row.channel_key);
    }
    const channels = await db.all('SELECT channel_key FROM channels ORDER BY id LIMIT 2');
    if (channels.length === 1) return String(channels[0]!.channel_key);
    throw new HttpError(
      404,
      'Not found: this server has several channels, and the link names none (its channel_key is missing).',
    );
  }

  /**
   * The site's account routes (emailed links, social callbacks) all open the account page: in dev mode the demo's
   * (demo/site/account.html: the demo channel, a link to the outbox), in production server/pages/account.html for
   * the channel the link names (accountChannel), with nothing of the demo's.
   */
  const serveAccountRoute = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (!ACCOUNT_ROUTES.has(url.pathname.replace(/\/+$/, ''))) return false;
    if (dev) return serveStatic(req, res, siteDir, '/account.html', pageOptions());
    const channelKey = await accountChannel(url);
    return serveStatic(
      req,
      res,
      pagesDir,
      '/account.html',
      pageOptions({ placeholders: { '%CHANNEL_KEY%': channelKey } }),
    );
  };

  /** oEmbed for the demo sites' watch pages (oembed.ts), on either listener's origin. */
  const oembed: OembedOptions = {
    db,
    // Read when asked: the origins are known once the listeners are bound.
    get siteOrigins() {
      return [origins.bundle, origins.cms].filter(Boolean);
    },
    sites: dev ? SITE_PAGES.map(([base, , channelKey]) => ({ base, channelKey })) : [],
    get embedOrigin() {
      return origins.bundle;
    },
  };

  /** Dev mode: the demo sites' pages for every path under their bases (a watch page with its oEmbed link). */
  const serveSitePage = (req: IncomingMessage, res: ServerResponse, path: string, origin: string) => {
    const page = dev ? sitePageOf(path) : undefined;
    const headExtra = discoveryLink(oembed, origin, path);
    return page ? serveStatic(req, res, siteDir, page, pageOptions({ headExtra })) : Promise.resolve(false);
  };

  /** The embed layout oEmbed's iframes show: the player alone, for any origin to frame (a template, not a demo page). */
  const hostsDir = join(ctx.rootDir, 'demo', '.hosts');
  const serveEmbed = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const target = await embedTarget(db, url);
    if (target === undefined) return false;
    if (target === 'not-found') throw new HttpError(404, 'Not found.');
    const embedPlaceholders = { ...placeholders, '%EVENT_ID%': target.eventId, '%CHANNEL_KEY%': target.channelKey };
    return serveStatic(
      req,
      res,
      pagesDir,
      '/embed.html',
      pageOptions({ placeholders: embedPlaceholders, frameable: true }),
    );
  };

  /** Refuses a request whose Host is not one of this listener's names, and counts it against its address. */
  const admit = async (req: IncomingMessage, hosts: ReadonlySet<string>) => {
    if (!hostAllowed(req, hosts))
      throw new HttpError(
        400,
        'Unknown Host header: this server answers only its own names (PUBLIC_URL, ALLOWED_HOSTS).',
      );
    tooMany(await ctx.limiter.hit(addressKey(ctx.addressOf(req))));
  };

  async function handleMain(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await admit(req, ctx.hosts.main);
    const url = requestUrl(req);
    refuseNulInTarget(url);
    const path = url.pathname;
    if (req.method === 'OPTIONS') {
      // Preflight for cross-origin API calls with Authorization or JSON bodies; never for the dev endpoints.
      if (isDevPath(path)) throw new HttpError(404, 'Not found.');
      res.writeHead(204, { ...CORS_HEADERS, 'Content-Length': '0' });
      res.end();
      return;
    }
    if (path.startsWith('/api/') || path === '/api') {
      await ctx.api(req, res, url, path.slice('/api/'.length).replace(/\/+$/, ''));
      return;
    }
    if (await ctx.webhooks(req, res, url)) return;
    if (await ctx.channelFiles(req, res, url)) return;
    if (await ctx.uploads(req, res, path)) return;
    if (await ctx.media.handle(req, res, path)) return;
    if (ctx.libraryFiles(req, res, path)) return;
    if (await handleAnalytics(req, res, url, ctx.analytics)) return;
    if (await handleOembed(oembed, req, res, url)) return;
    for (const standIn of ctx.standIns) if (await standIn(req, res, url)) return;
    if (await servePlaceholderArt(db, res, path, pictures)) return;
    // Only files from here on: any other method finds nothing (404, like a path that does not exist).
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(404, 'Not found.');
    if (await serveAccountRoute(req, res, url)) return;
    if (await serveEmbed(req, res, url)) return;
    if (await serveSitePage(req, res, path, origins.bundle)) return;
    // The bundle first (cross-origin importable), then the demo pages; "/" is the demo's index page.
    if (
      path !== '/' &&
      existsSync(distDir) &&
      (await serveStatic(req, res, distDir, path, {
        bundleOrigin: origins.bundle,
        cors: true,
        sourceMaps: true,
        // Production: what a CDN should keep (static.ts). Dev rebuilds under the same names: always fresh there.
        cacheControl: dev ? undefined : bundleCacheControl(path),
      }))
    )
      return;
    // In production only the account routes' page and its two assets come from demo/site: the rest is the demo.
    if (!dev && ACCOUNT_PAGE_ASSETS.has(path) && (await serveStatic(req, res, siteDir, path, pageOptions()))) return;
    if (dev) {
      const vendor = VENDOR_FILES[path];
      if (vendor && (await serveStatic(req, res, ctx.rootDir, `/${vendor}`, pageOptions()))) return;
      const options = pageOptions({ noPolicy: path.startsWith('/bench/'), inlineStyles: path === MEDIA_CHROME_PAGE });
      if (await serveStatic(req, res, siteDir, path, options)) return;
    }
    throw new HttpError(404, 'Not found.');
  }

  async function handleHost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await admit(req, ctx.hosts.cms);
    const url = requestUrl(req);
    refuseNulInTarget(url);
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'Method not allowed.');
    if (await serveAccountRoute(req, res, url)) return;
    if (await serveSitePage(req, res, url.pathname, origins.cms)) return;
    // The framework host apps the end-to-end tests drive (test/hosts, built into demo/.hosts by `npm run build:hosts`).
    if (url.pathname.startsWith(HOSTS_PATH)) {
      if (await serveStatic(req, res, hostsDir, url.pathname.slice(HOSTS_PATH.length - 1), pageOptions())) return;
      throw new HttpError(404, 'Not found: the host apps are built by `npm run build:hosts`.');
    }
    // The dev vendor files (the peers the benchmark and the media-chrome page load) from the CMS host too.
    const vendor = VENDOR_FILES[url.pathname];
    if (vendor && (await serveStatic(req, res, ctx.rootDir, `/${vendor}`, pageOptions()))) return;
    const options = pageOptions({
      // Benchmark pages compare us with players that need no policy; ours is proven under it by the other pages.
      noPolicy: url.pathname.startsWith('/bench/'),
      inlineStyles: url.pathname === MEDIA_CHROME_PAGE,
    });
    if (await serveStatic(req, res, siteDir, url.pathname, options)) return;
    throw new HttpError(404, 'Not found.');
  }

  /**
   * Dev mode: a page asked for with `?trusted-types=<names>` is served with Trusted Types enforced and that
   * directive (names, quoted keywords such as 'none'), so the tests can be a host page that enforces them.
   */
  const withPageRequest =
    (handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) =>
    async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      // Production asks for none: its requests skip the context's cost.
      if (!dev) return handler(req, res);
      const asked = requestUrl(req).searchParams.get('trusted-types');
      const trustedTypes = asked && /^[\w\-' ]{1,100}$/.test(asked) ? asked : undefined;
      return pageRequest.run({ trustedTypes }, () => handler(req, res));
    };

  return { main: wrap(withPageRequest(handleMain)), host: wrap(withPageRequest(handleHost)) };
}
