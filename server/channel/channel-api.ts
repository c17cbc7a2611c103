/**
 * The channel itself: who it is (channel keys, the keys host `/keys/{key}.json`), how it is set up (settings, also
 * as the static `/storage/settings/{key}.json`, colours, menu), its own content (pages, FAQ, slides, custom forms),
 * the start-up calls a client makes before anything else (api key, geo, the signed-in profile and access) and the
 * client log it posts to. The events and what is sold are catalog-api.ts. The stored copy of the settings is a file
 * per channel (settings-copy.ts), which this module writes and serves.
 *
 * Settings as stored are the channel's; settings as served are completed per server: stored media paths become
 * absolute on the public origin, in dev mode the stand-ins (Mux beacons, the tag manager) are filled in where the
 * channel names no real one, and the social networks offered are those this server can sign in with.
 */
import { randomBytes } from 'node:crypto';
import { LogEntry, type EndpointName } from '../../src/api/contract.js';
import { userAccessJson, userJson } from '../accounts/accounts.js';
import type { ChannelDb, Row } from '../storage/db.js';
import type { Clock, MediaUrl } from '../catalog/events.js';
import { textOrNull as str, type Handlers } from '../http/handler.js';
import { addressKey, decodePathPart, HttpError, sendJson, sendText, tooMany } from '../http/http.js';
import type { RateLimiter } from '../http/limits.js';
import type { SettingsCopies } from './settings-copy.js';
import { prerollJson } from '../catalog/catalog.js';
import { capApiKeys, MAX_LOG_ENTRY_BYTES } from '../storage/maintenance.js';
import type { Origins, PathHandler } from '../http/types.js';
import { log } from '../observability/log.js';

/** Answered to a log entry past its address's quota, or to a channel whose log store is full. */
export const LOG_QUOTA_MESSAGE = 'Too many log entries from this address. Please try again later.';
export const LOGS_FULL_MESSAGE = 'This channel cannot keep more log entries for now.';

/** What the channel handlers need from the server. */
export interface ChannelContext {
  db: ChannelDb;
  /** Dev mode: settings as served point at this server's stand-ins. */
  dev: boolean;
  clock(): Clock;
  origins: Origins;
  /** New api keys per client address (see getApiKey). */
  keyLimiter: RateLimiter;
  /** Client log entries per client address (maintenance.ts LOG_ENTRIES_PER_ADDRESS). */
  logLimiter: RateLimiter;
  /** Client log entries a channel keeps (maintenance.ts MAX_LOGS_PER_CHANNEL). */
  logsPerChannel: number;
  /** The stored copies of the settings (`/storage/settings/{key}.json`). */
  copies: SettingsCopies;
  /** Where sign-in with a social network goes, if this server has a provider for it for the channel (identity/). */
  socialEndpoint(provider: string, channelId: number): string | undefined;
}

/** The contract endpoints this module answers. */
export type ChannelEndpoint = Extract<
  EndpointName,
  | 'getApiKey'
  | 'settings'
  | 'menu'
  | 'pages'
  | 'page'
  | 'colors'
  | 'profile'
  | 'userAccess'
  | 'geo'
  | 'faq'
  | 'slides'
  | 'customForm'
  | 'log'
>;

/** The channel lookups the rest of the server shares, and this module's handlers. */
export interface Channels {
  /** Reads every channel and its settings into memory (at start; `reload` keeps them current). */
  load(): Promise<void>;
  /**
   * Reads one channel's settings again (every channel's without an id) and tells the other processes to, once the
   * change that called it is committed.
   */
  settingsChanged(channelId?: number): Promise<void>;
  /** The channel of a channel key, if the value is one. */
  byKey(key: unknown): Row | undefined;
  /** The key of the channel whose analytics key (settings 'yare-analytics') this is, if any. */
  channelOfAnalyticsKey(profile: string): string | undefined;
  /** Stored media paths ("/media/...") made absolute on the public origin, so pages on the CMS origin load them. */
  media: MediaUrl;
  /** A channel's settings as clients get them (a fresh object each call). */
  settingsOf(channelId: number): Record<string, unknown>;
  /** Writes the stored copy of a channel's settings (every channel's without an id): at start and on each change. */
  storeSettings(channelId?: number): Promise<void>;
  /** The sites a channel's social codes may go back to: its site_url, else this server; in dev also the CMS host. */
  sitesOf(channelId: number): string[];
  handlers: Handlers<ChannelEndpoint>;
  /** The keys host (`/keys/{key}.json`) and the static settings (`/storage/settings/{key}.json`). */
  handleFiles: PathHandler;
}

/** Builds the channel lookups and handlers over one database. */
export function createChannels(ctx: ChannelContext): Channels {
  const { db, dev, origins } = ctx;
  // Every 100th key issued trims the table (maintenance.ts); a counter is cheaper than counting rows per key.
  let keysIssued = 0;
  // Channels and their stored settings, read on every request, are kept in memory: a change (the dev settings
  // endpoint) reloads them here and, through a notification, in every other process.
  const byKeyCache = new Map<string, Row>();
  const settingsCache = new Map<number, string>();
  /** Analytics keys (settings 'yare-analytics') to their channel's key. */
  const analyticsKeys = new Map<string, string>();

  const media: MediaUrl = (value) => {
    if (value === null || value === undefined) return null;
    const text = String(value);
    return /^\/(?!\/)/.test(text) ? new URL(text, origins.bundle).href : text;
  };

  /** Each channel's prerolls as the settings give them, read with the settings. */
  const prerollCache = new Map<number, Record<string, unknown>[]>();

  /** A channel's settings as stored (a fresh copy: callers may change it). */
  const storedSettings = (channelId: number): Record<string, unknown> =>
    JSON.parse(settingsCache.get(channelId) ?? '{}') as Record<string, unknown>;

  async function reload(channelId?: number): Promise<void> {
    if (channelId === undefined) {
      const channels = await db.all('SELECT id, channel_key, name FROM channels ORDER BY id');
      byKeyCache.clear();
      for (const channel of channels) byKeyCache.set(String(channel.channel_key), channel);
    }
    const rows =
      channelId === undefined
        ? await db.all('SELECT channel_id, json FROM settings')
        : await db.all('SELECT channel_id, json FROM settings WHERE channel_id = ?', [channelId]);
    for (const row of rows) settingsCache.set(Number(row.channel_id), String(row.json));
    // The prerolls, which the settings carry as the spec puts them, are read with them (their URLs as paths, on this
    // server's origin when served): built apart, then put in place at once, so no request (nor an overlapping reload)
    // ever sees a list half read.
    const prerolls =
      channelId === undefined
        ? await db.all('SELECT * FROM prerolls ORDER BY channel_id, position')
        : await db.all('SELECT * FROM prerolls WHERE channel_id = ? ORDER BY position', [channelId]);
    const lists = new Map<number, Record<string, unknown>[]>();
    for (const row of prerolls) {
      const list = lists.get(Number(row.channel_id)) ?? [];
      list.push(await prerollJson(db, row, ''));
      lists.set(Number(row.channel_id), list);
    }
    if (channelId === undefined) prerollCache.clear();
    else prerollCache.delete(channelId);
    for (const [id, list] of lists) prerollCache.set(id, list);
    analyticsKeys.clear();
    for (const channel of byKeyCache.values()) {
      const key = storedSettings(Number(channel.id))['yare-analytics'];
      if (typeof key === 'string' && key !== '') analyticsKeys.set(key, String(channel.channel_key));
    }
  }

  async function load(): Promise<void> {
    await reload();
    /** Another process changed them (or this one: reading them twice is harmless); the stored copies follow. */
    const changed = (channelId?: number) => {
      reload(channelId)
        .then(() => storeSettings(channelId))
        .catch((error: unknown) => {
          // A stop closed the database while the reload read it: nothing is served from these copies any more.
          if (!db.isClosed) log().error({ err: error }, 'could not read the changed settings');
        });
    };
    await db.listen(
      'channel_settings',
      (payload) => {
        const id = Number(payload);
        changed(payload === '' || !Number.isInteger(id) ? undefined : id);
      },
      // Notifications may have been missed (the listener's connection was lost): every channel is read again.
      () => changed(),
    );
  }

  async function settingsChanged(channelId?: number): Promise<void> {
    await reload(channelId);
    await db.notify('channel_settings', channelId === undefined ? '' : String(channelId));
  }

  const sitesOf = (channelId: number): string[] => {
    const site = storedSettings(channelId).site_url;
    const own = typeof site === 'string' && site.trim() !== '' ? [site.trim()] : [origins.bundle];
    return dev ? [...own, origins.cms] : own;
  };

  const byKey = (key: unknown): Row | undefined =>
    typeof key === 'string' && key !== '' ? byKeyCache.get(key) : undefined;

  const channelOfAnalyticsKey = (profile: string): string | undefined => analyticsKeys.get(profile);

  const settingsOf = (channelId: number): Record<string, unknown> => {
    const settings = storedSettings(channelId);
    // Settings stored before the list came here kept the switch and the suppression under `prerolls`.
    const older = settings.prerolls;
    if (older && typeof older === 'object' && !Array.isArray(older) && settings.preroll_options == null)
      settings.preroll_options = older;
    settings.prerolls = (prerollCache.get(channelId) ?? []).map((p) => ({ ...p, url: media(p.url) }));
    if (typeof settings.logo === 'string') settings.logo = media(settings.logo);
    const mux = settings.mux as { env_key?: string; beacon_domain?: string | null } | null | undefined;
    // In dev mode Mux beacons come back to this server (POST /, analytics.ts) unless the channel names another
    // domain; in production mux-embed sends them to Mux. mux-embed uses http:// only for `localhost(:port)` hosts,
    // so 127.0.0.1 and [::1] are named localhost.
    if (dev && mux && !mux.beacon_domain)
      mux.beacon_domain = new URL(origins.bundle).host.replace(/^(127\.0\.0\.1|\[::1\])(?=:|$)/, 'localhost');
    // A social network is offered when the channel names its client id and this server has a provider for it (the
    // real one when the channel's own secret or the server's is set, in dev mode else the stand-in); `authorize_url` says where sign-in goes, and
    // the client starts it with `POST v2/auth/social/{provider}/start` (accounts/social-sign-in.ts).
    const social = settings.social as Record<string, { authorize_url?: string | null }> | null | undefined;
    for (const [provider, client] of Object.entries(social ?? {})) {
      const endpoint = ctx.socialEndpoint(provider, channelId);
      if (endpoint) client.authorize_url = endpoint;
      else delete social![provider];
    }
    // The tag manager is this server's stand-in in dev mode (it records what is pushed, GET /__dev/gtag) unless
    // one is named; in production the client loads Google's.
    const tagId = settings['google-analytics'];
    if (dev && typeof tagId === 'string' && tagId !== '' && !settings.gtag_url) {
      const url = new URL('/gtag-stand-in.js', origins.bundle);
      url.searchParams.set('id', tagId);
      settings.gtag_url = url.href;
    }
    return settings;
  };

  const handlers: Handlers<ChannelEndpoint> = {
    getApiKey: async ({ channelId, ip }) => {
      // Each key is a stored row: one address gets a few per window (a visitor keeps theirs), and the total is
      // capped (maintenance.ts), least recently used first.
      // Random, unguessable, and stored so any later keyed call can map it back to the channel; counted and stored
      // in one statement.
      const apiKey = randomBytes(24).toString('hex');
      const now = ctx.clock().now;
      const made = await ctx.keyLimiter.hitAndWrite(
        addressKey(ip),
        `INSERT INTO api_keys (api_key, channel_id, created_at, last_used_at)
         SELECT ?, ?::bigint, ?::bigint, ?::bigint FROM allowed RETURNING api_key`,
        [apiKey, channelId, now, now],
      );
      if ('wait' in made) tooMany(made.wait);
      if (++keysIssued % 100 === 0) await capApiKeys(db);
      return { data: { api_key: apiKey } };
    },
    settings: async ({ channelId }) => ({ data: settingsOf(channelId) }),
    menu: async ({ channelId, media }) => {
      const rows = await db.all('SELECT * FROM menu WHERE channel_id = ? ORDER BY parent_id IS NOT NULL, position', [
        channelId,
      ]);
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
    pages: async ({ channelId }) => ({
      data: (
        await db.all('SELECT id, name, alt_name, url FROM pages WHERE channel_id = ? ORDER BY position', [channelId])
      ).map((row) => ({
        id: Number(row.id),
        name: String(row.name),
        alt_name: str(row.alt_name),
        url: String(row.url),
      })),
    }),
    page: async ({ channelId, params, media }) => {
      const alias = params.alias!.replace(/\//g, '');
      const row = await db.get('SELECT * FROM pages WHERE channel_id = ? AND alias = ?', [channelId, alias]);
      if (!row) throw new HttpError(404, 'Page not found.');
      const blocks = (JSON.parse(String(row.blocks_json)) as Array<Record<string, unknown>>).map((block) =>
        block.type === 'image' ? { ...block, url: media(block.url as string) } : block,
      );
      return { data: { id: Number(row.id), name: String(row.name), url: String(row.url), blocks } };
    },
    colors: async ({ channelId }) => ({
      data: Object.fromEntries(
        (
          await db.all('SELECT name, value FROM colors WHERE channel_id = ? ORDER BY name COLLATE "C"', [channelId])
        ).map((r) => [r.name, r.value]),
      ),
    }),
    profile: async (r) => ({ data: userJson(await r.user()) }),
    userAccess: async (r) => ({ data: userAccessJson(await r.user()) }),
    geo: async ({ ip }) => ({ data: { country: 'United States', country_code: 'US', ip, is_geo_blocked: false } }),
    faq: async ({ channelId }) => ({
      data: (
        await db.all('SELECT id, question, answer FROM faq WHERE channel_id = ? ORDER BY position', [channelId])
      ).map((row) => ({ id: Number(row.id), question: String(row.question), answer: String(row.answer) })),
    }),
    slides: async ({ channelId, query, media }) => {
      const type = query.get('type');
      // Untyped slides belong to main, so `type=main` includes them.
      const rows = await db.all(
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
    customForm: async ({ channelId, params }) => {
      const row = await db.get('SELECT * FROM custom_forms WHERE channel_id = ? AND alias = ?', [
        channelId,
        params.alias!,
      ]);
      if (!row) throw new HttpError(404, 'Form not found.');
      return {
        data: { alias: String(row.alias), name: String(row.name), fields: JSON.parse(String(row.fields_json)) },
      };
    },
    log: async ({ channelId, body, ip }) => {
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
      if (Buffer.byteLength(entry) > MAX_LOG_ENTRY_BYTES)
        throw new HttpError(413, `A log entry may hold at most ${MAX_LOG_ENTRY_BYTES / 1024} KB.`);
      // The address's quota, then the channel's room: refused past either (the client drops the entry, never
      // retries), so one sender cannot push out anyone else's reports. The lock makes the count and the insert one
      // step for every process; a refusal rolls back the quota's count with it.
      const id = await db.transaction(async () => {
        const wait = await ctx.logLimiter.hit(addressKey(ip));
        if (wait > 0) throw new HttpError(429, LOG_QUOTA_MESSAGE, undefined, { 'Retry-After': String(wait) });
        await db.run('SELECT pg_advisory_xact_lock(hashtext(?))', [`logs|${channelId}`]);
        const row = await db.get(
          `INSERT INTO logs (channel_id, received_at, ip, entry_json)
           SELECT ?, ?, ?, ? WHERE (SELECT count(*) FROM logs WHERE channel_id = ?) < ? RETURNING id`,
          [channelId, ctx.clock().now, ip, entry, channelId, ctx.logsPerChannel],
        );
        if (!row) throw new HttpError(429, LOGS_FULL_MESSAGE);
        return Number(row.id);
      });
      return { status: 201, body: { data: { id } } };
    },
  };

  const handleFiles: PathHandler = async (_req, res, url) => {
    const path = url.pathname;
    let m = /^\/keys\/([^/]+)\.json$/.exec(path);
    if (m) {
      const channel = byKey(decodePathPart(m[1]!));
      if (!channel) throw new HttpError(404, 'Unknown embed key.');
      sendJson(res, 200, { channel_key: String(channel.channel_key), name: String(channel.name) });
      return true;
    }
    m = /^\/storage\/settings\/([^/]+)\.json$/.exec(path);
    if (m) {
      const channel = byKey(decodePathPart(m[1]!));
      if (!channel) throw new HttpError(404, 'Not found.');
      // The file, as written at start and on each change; a channel added since is written first.
      const key = String(channel.channel_key);
      let text = await ctx.copies.read(key);
      if (text === undefined) {
        await storeSettings(Number(channel.id));
        text = (await ctx.copies.read(key)) ?? '';
      }
      // Production: kept a minute by browsers and CDNs (the spec's store cache); dev mode: always fresh.
      sendText(res, 200, text, { 'Cache-Control': dev ? 'no-cache' : 'public, max-age=60' });
      return true;
    }
    return false;
  };

  async function storeSettings(channelId?: number): Promise<void> {
    const rows =
      channelId === undefined
        ? await db.all('SELECT id, channel_key FROM channels ORDER BY id')
        : await db.all('SELECT id, channel_key FROM channels WHERE id = ?', [channelId]);
    await Promise.all(rows.map((row) => ctx.copies.write(String(row.channel_key), settingsOf(Number(row.id)))));
  }

  return {
    load,
    settingsChanged,
    byKey,
    channelOfAnalyticsKey,
    media,
    settingsOf,
    storeSettings,
    sitesOf,
    handlers,
    handleFiles,
  };
}
