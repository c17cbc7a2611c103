/**
 * The API's routing table and the one path every `/api/` request takes: find the route (contract endpoints, plus
 * the calls this server answers that the contract does not list), resolve the channel from the right key (a
 * channel key on keyless calls, an api key on the rest), build the request as handlers see it (handler.ts), run
 * the handler and send its answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { endpoints, NO_KEY_MESSAGE, StoredSettings, type EndpointName } from '../../src/api/contract.js';
import { accessFor, bearer, userByToken, type Access } from '../accounts/accounts.js';
import { viewerOf } from '../catalog/catalog-api.js';
import type { Channels } from '../channel/channel-api.js';
import type { ChannelDb, Row } from '../storage/db.js';
import type { Clock, EventView } from '../catalog/events.js';
import { refuseUnsafeIds, type ApiRequest, type Handler, type ServerOnlyRoute } from '../http/handler.js';
import { decodePathPart, HttpError, readBody, refuseUnsafeValues, sendJson, sendText } from '../http/http.js';
import { BoundedMap } from '../http/limits.js';
import { API_KEY_TOUCH_SECONDS } from '../storage/maintenance.js';
import type { MuxAudience, MuxTokens } from '../media/sources/mux.js';
import type { MediaServer } from '../media/streams.js';
import type { Origins } from '../http/types.js';
import { nameRoute } from '../observability/request-log.js';

/** The answer to a call an account with a temporary password may not make yet. */
const TEMPORARY_PASSWORD_LOCK = 'Choose a new password first: you signed in with a temporary password.';
/** How long a process trusts an api key it has seen before asking the database again (wall clock). */
const API_KEY_CACHE_MS = 60_000;
/**
 * Answers that carry a token or a secret (a session, an api key, a TV's token, a card setup's client secret): sent
 * with `Cache-Control: no-store`, so no browser, proxy or CDN keeps a copy.
 */
const SECRET_ANSWERS = new Set([
  'login',
  'register',
  'socialStart',
  'socialLogin',
  'getApiKey',
  'deviceCode',
  'deviceCodeStatus',
  'setupIntent',
]);
/** What an account with a temporary password may still do (the server-side half of the lock). */
const TEMPORARY_PASSWORD_ALLOWS = new Set(['profile', 'userAccess', 'updateProfile', 'logout']);

/** What the API needs from the server around it. */
export interface ApiContext {
  db: ChannelDb;
  /** A handler for every contract endpoint. */
  handlers: Record<EndpointName, Handler>;
  /** Routes the contract does not list (the TV side of device linking). */
  serverOnly: ServerOnlyRoute[];
  clock(): Clock;
  origins: Origins;
  /** The client's address. */
  addressOf(req: IncomingMessage): string;
  channels: Pick<Channels, 'byKey' | 'media' | 'settingsOf'>;
  /** Signs the playback URLs of the events a request sees. */
  mediaServer: MediaServer;
  /** Mints the Mux playback tokens of signed Mux events (media/sources/mux.ts). */
  muxTokens: MuxTokens;
  /** The test recording's length in whole seconds (what a finished event's duration shows). */
  recordingSeconds: number;
  /** The server clock, ms. */
  nowMs(): number;
}

/** Runs one /api/ request; `apiPath` is the path after `/api/`, without trailing slashes. */
export type ApiHandler = (req: IncomingMessage, res: ServerResponse, url: URL, apiPath: string) => Promise<void>;

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

const noKey = (field: 'api_key' | 'channel_key') =>
  new HttpError(403, NO_KEY_MESSAGE, {
    [field]: [field === 'api_key' ? 'The api key is invalid.' : 'The channel key is invalid.'],
  });

/** Builds the routing table once and answers the API's requests with it. */
export function createApi(ctx: ApiContext): ApiHandler {
  const { db, channels, mediaServer, origins } = ctx;
  const routes = [
    ...(Object.keys(endpoints) as EndpointName[]).map((name) => ({
      ...endpoints[name],
      name: name as string,
      handler: ctx.handlers[name],
    })),
    // Calls this server answers that the contract does not list: the TV side of device linking.
    ...ctx.serverOnly,
  ]
    .map((route) => ({ ...route, ...compilePath(route.path) }))
    // Fixed paths first, so `events/favorite` is not taken for `events/{id}` (sort is stable: the rest keep order).
    .sort((a, b) => a.names.length - b.names.length);

  /**
   * The channel of an api key, from a short-lived cache of keys seen (every keyed call names one; the database is
   * asked at most once a minute per key, and once for calls that ask at the same time). A key in use is kept: its
   * last use is written at most once an hour, and idle ones are pruned (maintenance.ts); a pruned key (by this
   * process or another) is refused here a minute later at most. A key this process issues is in the cache from the
   * start: a new visitor's first keyed calls (geo or the profile, the player's event) follow its `get_api_key` at
   * once.
   */
  const keys = new BoundedMap<string, { channel: Row; checkedAt: number }>(50_000);
  const lookups = new Map<string, Promise<Row | undefined>>();
  function keyChannel(apiKey: string): Promise<Row | undefined> {
    const known = keys.get(apiKey);
    if (known && Date.now() - known.checkedAt < API_KEY_CACHE_MS) return Promise.resolve(known.channel);
    let lookup = lookups.get(apiKey);
    if (!lookup) {
      lookup = lookUpKey(apiKey).finally(() => lookups.delete(apiKey));
      lookups.set(apiKey, lookup);
    }
    return lookup;
  }
  async function lookUpKey(apiKey: string): Promise<Row | undefined> {
    const seconds = ctx.clock().now;
    const channel = await db.get(
      'SELECT c.id, c.channel_key, c.name, k.last_used_at FROM api_keys k JOIN channels c ON c.id = k.channel_id WHERE k.api_key = ?',
      [apiKey],
    );
    if (!channel) {
      keys.delete(apiKey);
      return undefined;
    }
    if (Number(channel.last_used_at) < seconds - API_KEY_TOUCH_SECONDS) {
      await db.run('UPDATE api_keys SET last_used_at = ? WHERE api_key = ?', [seconds, apiKey]);
      channel.last_used_at = seconds;
    }
    keys.set(apiKey, { channel, checkedAt: Date.now() });
    return channel;
  }

  return async (req, res, url, apiPath) => {
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
    nameRoute(req, route.name);

    const body = await readBody(req);
    const query = url.searchParams;
    refuseUnsafeIds(params, query);
    // NUL characters were refused as the body was read; the API's numbers name rows or count things, never beyond.
    refuseUnsafeValues(body, true);
    // Keys travel in the query on GET and DELETE, in the body otherwise.
    const fromBody = method !== 'GET' && method !== 'DELETE';
    const keyOf = (name: string): unknown => (fromBody ? body[name] : (query.get(name) ?? undefined));

    let channel: Row | undefined;
    const apiKey = route.keyless ? undefined : keyOf('api_key');
    if (route.keyless) {
      let key = keyOf('channel_key');
      // A log entry names its channel itself; accept that when the poster did not add channel_key.
      if (key === undefined && route.name === 'log') key = body.channel;
      channel = channels.byKey(key);
      if (!channel) throw noKey('channel_key');
    } else {
      channel = typeof apiKey === 'string' && apiKey !== '' ? await keyChannel(apiKey) : undefined;
      if (!channel) throw noKey('api_key');
    }

    const channelId = Number(channel.id);
    const origin = origins.bundle;
    const now = ctx.clock();
    let access: Promise<Access> | undefined;
    let view: Promise<EventView> | undefined;
    let settings: StoredSettings | undefined;
    // The bearer token's user, looked up once per request (access and user both need it).
    let tokenUser: Promise<Row | undefined> | undefined;
    const userOfToken = () =>
      (tokenUser ??= (async () => {
        const user = await userByToken(db, channelId, bearer(req.headers.authorization), now.now, ctx.nowMs());
        // Nothing falls due on a timer any more (payments are settled by the processor's webhooks): not the API's.
        if (user) delete user.payment_due;
        return user;
      })());
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
      ip: ctx.addressOf(req),
      origin,
      media: channels.media,
      clock: now,
      settings: () => (settings ??= StoredSettings.parse(channels.settingsOf(channelId))),
      // A missing, unknown or expired token is a guest: public calls still answer, user() answers 401. So is an
      // account that must still replace its temporary password: it has no rights until it does.
      access: () =>
        (access ??= (async () => {
          const user = await userOfToken();
          return accessFor(db, user?.temporary_password ? undefined : user, now.now);
        })()),
      user: async () => {
        const user = await userOfToken();
        if (!user) throw new HttpError(401, 'Unauthenticated.');
        // The browser keeps such an account on its edit screen; the server holds the same line for any client.
        if (user.temporary_password && !TEMPORARY_PASSWORD_ALLOWS.has(route.name))
          throw new HttpError(403, TEMPORARY_PASSWORD_LOCK);
        return user;
      },
      view: () =>
        (view ??= (async () => {
          const access = await r.access();
          return {
            clock: now,
            origin,
            canWatch: access.canWatch,
            streams: !access.user?.is_geo_blocked,
            streamUrl: (stream: string) => mediaServer.signedUrl(origin, stream, viewerOf(r, access)),
            recordingSeconds: ctx.recordingSeconds,
            muxToken: (channelId: number, playbackId: string, aud: MuxAudience) =>
              ctx.muxTokens.token(channelId, playbackId, aud),
          };
        })()),
    };
    const result = await route.handler(r);
    if (route.name === 'getApiKey') {
      const issued = (result as { data?: { api_key?: unknown } }).data?.api_key;
      if (typeof issued === 'string')
        keys.set(issued, { channel: { ...channel, last_used_at: now.now }, checkedAt: Date.now() });
    }
    const headers: Record<string, string> = SECRET_ANSWERS.has(route.name) ? { 'Cache-Control': 'no-store' } : {};
    if ('raw' in result && (typeof result.raw === 'string' || Buffer.isBuffer(result.raw)))
      sendText(res, 200, result.raw, headers);
    else if ('status' in result && 'body' in result) sendJson(res, Number(result.status ?? 200), result.body, headers);
    else sendJson(res, 200, result, headers);
  };
}
