/**
 * Dev-only endpoints under /__dev/ for tests and demos; not part of the contract, not for production. They exist
 * only in dev mode (exposure.ts), answer only requests carrying this start's secret in the `X-Channel-Dev-Secret`
 * header (403 otherwise), and never send CORS headers, so no web page on another origin can call or read them:
 *
 *   GET    /__dev/outbox[?to=]                  the mail queue's emails (verification, password reset, account
 *          deletion, device linked, contact form, receipts...), newest first: { data: [{ id, channel_key, to, kind,
 *          language, subject, text, html, links: [url], reply_to, message_id, status: pending|sent|failed,
 *          attempts, queued_at, sent_at }] } (mail/outbox.ts); DELETE [?to=] clears them (all, or one address's;
 *          pending ones are then never sent). demo/site/outbox.html shows them.
 *   GET    /__dev/settings[?channel_key=demo]   a channel's stored settings; POST merges the JSON body into them
 *          (objects merge key by key: `{ "auth": { "remote_auth": 0 } }`); DELETE restores the fixture's
 *          settings
 *
 *   GET    /__dev/logs[?channel_key=]           log entries clients posted (POST /api/logs)
 *   GET    /__dev/media-requests[?since=&after=&stream=]   media requests received (path without signature,
 *          server time in ms, stream, kind, status); DELETE clears
 *   GET    /__dev/faults                        injected media faults; POST adds (body: see Faults in streams.ts);
 *          DELETE [?stream=] removes all, or one stream's
 *   GET    /__dev/beacons[?since=&after=]       Mux beacons received on POST /; DELETE clears
 *   GET    /__dev/datalake[?kind=&since=&after=]  analytics service calls received (every channel); DELETE clears
 *   GET    /__dev/analytics[?channel_key=demo&since=]  a channel's numbers (analytics-store.ts `summary`): sessions,
 *          page views (by page, recent), logins by method, API timings per endpoint (count, errors, median and 95th
 *          percentile), video views per event, tag-manager events by name, and per partner (null: none) sessions,
 *          page views, video views, orders, paid orders and paid amounts per currency ({ partner, sessions,
 *          page_views, video_views, orders, paid, revenue: { USD: 12.5 } }); demo/site/analytics.html shows them
 *   GET    /__dev/events[?channel_key=demo]     the fixture keys of a channel's events: { "free-live": 21, ... }
 *   POST   /__dev/events/{id or key}/start-in[?channel_key=demo]   { seconds, duration? }: the event now starts
 *          `seconds` from now (negative: started that long ago), lasting `duration` seconds (default its own), so
 *          a test can watch it go from upcoming to live
 *   POST   /__dev/events/{id or key}/reset[?channel_key=demo]      back to the fixture's schedule
 *   GET    /__dev/orders[?channel_key=demo&email=]   a channel's orders, newest first, settled as of now (payments.ts):
 *          the contract's Order plus { email, coupon, is_trial, card: { brand, last4 } | null, transactions:
 *          [{ id, status, amount, label }] }, e.g. to assert that no order of a declined card is paid
 *   GET    /__dev/gtag[?kind=&since=&after=]    what pages pushed to the tag-manager stand-in
 *          (demo/site/gtag-stand-in.js): { data: [{ id, at, kind, origin, body: { command, name, params, tag_id,
 *          page } }] }, kind being the gtag command (event, config, js, set, push); DELETE clears. The stand-in
 *          itself posts to POST /gtag-stand-in/collect (a text/plain JSON body, so no preflight), which like a
 *          real tag manager's collector needs no secret, only records (bounded), and exists in dev mode only
 * `since` is in the server clock's milliseconds (the `now` option of startServer; Date.now() by default).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_ANALYTICS_BODY, type Recorder } from '../analytics/analytics.js';
import { summary, type AnalyticsStore, type PartnerViewers } from '../analytics/analytics-store.js';
import type { ChannelDb } from '../storage/db.js';
import type { Clock } from '../catalog/events.js';
import { hasDevSecret } from '../app/exposure.js';
import { HttpError, readBody, sendJson as send } from '../http/http.js';
import { isObject, settingsProblems } from '../channel/settings-rules.js';
import { clearOutbox, listOutbox } from '../mail/outbox.js';
import type { PartnerSales } from '../commerce/payments.js';
import type { MediaServer } from '../media/streams.js';

export interface DevContext {
  /** This start's dev secret. */
  secret: string;
  /** Origins a script URL in settings may name. */
  scriptOrigins: readonly string[];
  db: ChannelDb;
  media: MediaServer;
  beacons: Recorder;
  /** What the channel's analytics service received (analytics-store.ts). */
  datalake: AnalyticsStore;
  /** Tag-manager pushes (POST /__dev/gtag from the stand-in script). */
  gtag: Recorder;
  clock(): Clock;
  /** A channel's orders for GET /__dev/orders (payments.ts). */
  orders(channelKey: string, email: string | null): Promise<unknown[]>;
  /** A channel's sales per partner since a time (server seconds), for GET /__dev/analytics (payments.ts). */
  partnerSales(channelKey: string, since: number): Promise<PartnerSales[]>;
  /** Reads a channel's changed settings again, in every process, and writes their stored copy (resolves once done). */
  settingsChanged(channelId: number): Promise<void>;
  /** Forgets an event's cached form, in every process, after its schedule changed. */
  eventChanged(id: number): Promise<void>;
}

/**
 * One row per partner (null: pages and orders of none) of what its pages brought: viewers from the analytics
 * records, sales from the orders. Partners with the most paid orders, then page views, first; no partner last.
 */
export function partnerTable(viewers: readonly PartnerViewers[], sales: readonly PartnerSales[]) {
  const rows = new Map<string | null, PartnerViewers & Omit<PartnerSales, 'partner'>>();
  const row = (partner: string | null) => {
    let found = rows.get(partner);
    if (!found)
      rows.set(
        partner,
        (found = { partner, sessions: 0, page_views: 0, video_views: 0, orders: 0, paid: 0, revenue: {} }),
      );
    return found;
  };
  for (const { partner, ...counts } of viewers) Object.assign(row(partner), counts);
  for (const { partner, ...counts } of sales) Object.assign(row(partner), counts);
  return [...rows.values()].sort(
    (a, b) =>
      Number(a.partner === null) - Number(b.partner === null) ||
      b.paid - a.paid ||
      b.page_views - a.page_views ||
      String(a.partner).localeCompare(String(b.partner)),
  );
}

const optionalNumber = (value: string | null) => (value === null || value === '' ? undefined : Number(value));

/** JSON answers of the dev endpoints: never readable by another origin, never stored (the outbox holds links). */
const sendJson = (res: ServerResponse, status: number, body: unknown) =>
  send(res, status, body, { 'Cache-Control': 'no-store' }, { cors: false });

/** Whether a path is one of the dev endpoints (answered with no CORS headers, even for errors). */
export const isDevPath = (path: string) => path === '/__dev' || path.startsWith('/__dev/');

/** Records a push of the tag-manager stand-in (`POST /gtag-stand-in/collect`); false for other paths. */
export async function handleGtagCollect(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  gtag: Recorder,
): Promise<boolean> {
  if (path !== '/gtag-stand-in/collect') return false;
  if (req.method !== 'POST') throw new HttpError(405, 'Method not allowed.');
  const body = await readBody(req, MAX_ANALYTICS_BODY);
  if (typeof body.command !== 'string' || body.command === '')
    throw new HttpError(422, 'A tag-manager push needs a command (event, config, js, set, push).');
  send(res, 201, { data: { id: gtag.add(body.command, req, body).id } });
  return true;
}

/** Answers a /__dev/ request; false when the path is not one of them. */
export async function handleDev(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: DevContext,
): Promise<boolean> {
  const path = url.pathname.replace(/\/+$/, '');
  if (!isDevPath(path)) return false;
  if (!hasDevSecret(req, ctx.secret)) {
    throw new HttpError(
      403,
      "The dev endpoints need this start's dev secret in the X-Channel-Dev-Secret header (the server prints it, and writes it to DATA_DIR/dev-secret).",
    );
  }
  const method = req.method ?? 'GET';
  const query = url.searchParams;
  if (path === '/__dev/analytics' && method === 'GET') {
    const channel = query.get('channel_key') ?? 'demo';
    const row = await ctx.db.get(
      'SELECT s.json FROM settings s JOIN channels c ON c.id = s.channel_id WHERE c.channel_key = ?',
      [channel],
    );
    if (!row) throw new HttpError(404, `No channel "${channel}".`);
    const settings = JSON.parse(String(row.json)) as Record<string, unknown>;
    const since = optionalNumber(query.get('since')) ?? 0;
    const tagId = settings['google-analytics'];
    const tagEvents = ctx.gtag
      .query(new URLSearchParams({ kind: 'event', since: String(since) }))
      .filter((r) => typeof tagId === 'string' && r.body.tag_id === tagId)
      .map((r) => String(r.body.name ?? '?'));
    const numbers = summary(await ctx.datalake.records(channel, since), tagEvents);
    sendJson(res, 200, {
      data: {
        channel_key: channel,
        profile: settings['yare-analytics'] ?? null,
        tag_id: tagId ?? null,
        stored: await ctx.datalake.size(channel),
        ...numbers,
        partners: partnerTable(numbers.partners, await ctx.partnerSales(channel, Math.floor(since / 1000))),
      },
    });
    return true;
  }
  if (path === '/__dev/beacons') {
    if (method === 'DELETE') ctx.beacons.clear();
    sendJson(res, 200, { data: method === 'DELETE' ? [] : ctx.beacons.query(query) });
    return true;
  }
  if (path === '/__dev/datalake') {
    if (method === 'DELETE') await ctx.datalake.clear();
    sendJson(res, 200, { data: method === 'DELETE' ? [] : await ctx.datalake.query(query) });
    return true;
  }
  if (path === '/__dev/gtag') {
    if (method === 'DELETE') ctx.gtag.clear();
    sendJson(res, 200, { data: method === 'DELETE' ? [] : ctx.gtag.query(query) });
    return true;
  }
  if (path === '/__dev/orders' && method === 'GET') {
    sendJson(res, 200, { data: await ctx.orders(query.get('channel_key') ?? 'demo', query.get('email') || null) });
    return true;
  }
  if (path === '/__dev/media-requests') {
    if (method === 'DELETE') ctx.media.requests.clear();
    const filter = {
      since: optionalNumber(query.get('since')),
      after: optionalNumber(query.get('after')),
      stream: query.get('stream') ?? undefined,
    };
    sendJson(res, 200, { data: method === 'DELETE' ? [] : ctx.media.requests.query(filter) });
    return true;
  }
  if (path === '/__dev/faults') {
    if (method === 'POST') {
      const added = ctx.media.faults.add(await readBody(req));
      if (typeof added === 'string') throw new HttpError(422, added);
      sendJson(res, 201, { data: added });
      return true;
    }
    if (method === 'DELETE') ctx.media.faults.clear(query.get('stream') ?? undefined);
    sendJson(res, 200, { data: ctx.media.faults.list() });
    return true;
  }
  if (path === '/__dev/outbox') {
    if (method === 'DELETE') await clearOutbox(ctx.db, query.get('to'));
    sendJson(res, 200, { data: method === 'DELETE' ? [] : await listOutbox(ctx.db, query.get('to')) });
    return true;
  }
  if (path === '/__dev/settings') {
    sendJson(res, 200, { data: await settings(ctx, method, query.get('channel_key') ?? 'demo', req) });
    return true;
  }
  if (path === '/__dev/logs') {
    sendJson(res, 200, { data: await logs(ctx.db, query.get('channel_key')) });
    return true;
  }
  if (path === '/__dev/events' && method === 'GET') {
    const rows = await ctx.db.all(
      'SELECT e.key, e.id FROM events e JOIN channels c ON c.id = e.channel_id WHERE c.channel_key = ? AND e.key IS NOT NULL ORDER BY e.id',
      [query.get('channel_key') ?? 'demo'],
    );
    sendJson(res, 200, { data: Object.fromEntries(rows.map((row) => [String(row.key), Number(row.id)])) });
    return true;
  }
  const m = /^\/__dev\/events\/([\w-]+)\/(start-in|reset)$/.exec(path);
  if (m && method === 'POST') {
    const id = await eventId(ctx.db, m[1]!, query.get('channel_key') ?? 'demo');
    const body = await readBody(req);
    sendJson(res, 200, { data: m[2] === 'reset' ? await reset(ctx, id) : await startIn(ctx, id, body) });
    return true;
  }
  throw new HttpError(404, 'Not found.');
}

/**
 * Reads, merges into (POST) or restores (DELETE) a channel's stored settings; answers them. A merge whose result
 * breaks the URL rules of settings-rules.ts (a script from an origin not allowed, a site_url that is not http(s))
 * is refused with 422 and nothing is stored.
 */
async function settings(ctx: DevContext, method: string, channelKey: string, req: IncomingMessage): Promise<unknown> {
  const { db } = ctx;
  const patch = method === 'POST' ? await readBody(req) : undefined;
  // The row is locked from its read to its write, so two changes at once (in one process or two) both count.
  const { json, channelId } = await db.transaction(async () => {
    const row = await db.get(
      `SELECT s.channel_id, s.json, s.fixture_json FROM settings s JOIN channels c ON c.id = s.channel_id
       WHERE c.channel_key = ? FOR UPDATE OF s`,
      [channelKey],
    );
    if (!row) throw new HttpError(404, 'Channel not found.');
    let json = String(row.json);
    if (patch) {
      const merged = merge(JSON.parse(json), patch);
      const problems = settingsProblems(merged, ctx.scriptOrigins);
      if (Object.keys(problems).length) throw new HttpError(422, 'These settings cannot be stored.', problems);
      json = JSON.stringify(merged);
    } else if (method === 'DELETE') json = String(row.fixture_json);
    if (method === 'POST' || method === 'DELETE')
      await db.run('UPDATE settings SET json = ? WHERE channel_id = ?', [json, row.channel_id!]);
    return { json, channelId: Number(row.channel_id) };
  });
  if (method === 'POST' || method === 'DELETE') await ctx.settingsChanged(channelId);
  return JSON.parse(json);
}

/** `patch` merged into `base`: objects key by key, anything else (arrays too) replaced. */
function merge(base: unknown, patch: unknown): unknown {
  if (!isObject(base) || !isObject(patch)) return patch;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) out[key] = merge(base[key], value);
  return out;
}

async function logs(db: ChannelDb, key: string | null) {
  const rows = key
    ? await db.all(
        'SELECT l.id, l.received_at, l.entry_json, c.channel_key FROM logs l LEFT JOIN channels c ON c.id = l.channel_id WHERE c.channel_key = ? ORDER BY l.id',
        [key],
      )
    : await db.all(
        'SELECT l.id, l.received_at, l.entry_json, c.channel_key FROM logs l LEFT JOIN channels c ON c.id = l.channel_id ORDER BY l.id',
      );
  return rows.map((row) => ({
    id: Number(row.id),
    received_at: Number(row.received_at),
    channel_key: row.channel_key === null ? null : String(row.channel_key),
    ...(JSON.parse(String(row.entry_json)) as object),
  }));
}

/** An event id, or the id of a fixture key in a channel; 404 when neither. */
async function eventId(db: ChannelDb, ref: string, channelKey: string): Promise<number> {
  const row = /^\d+$/.test(ref)
    ? await db.get('SELECT id FROM events WHERE id = ?', [Number(ref)])
    : await db.get(
        'SELECT e.id FROM events e JOIN channels c ON c.id = e.channel_id WHERE c.channel_key = ? AND e.key = ?',
        [channelKey, ref],
      );
  if (!row) throw new HttpError(404, 'Event not found.');
  return Number(row.id);
}

/** The schedule of an event as the dev endpoints answer it. */
async function schedule(ctx: DevContext, id: number) {
  const row = await ctx.db.get('SELECT start_offset, duration FROM events WHERE id = ?', [id]);
  if (!row) throw new HttpError(404, 'Event not found.');
  const { anchor, now } = ctx.clock();
  const start = anchor + Number(row.start_offset);
  const end = start + Number(row.duration);
  return {
    id,
    event_utc_ts: start,
    duration: Number(row.duration),
    stream_status: now < start ? 'upcoming' : now < end ? 'live' : 'finished',
  };
}

/** Moves an event's start (the original schedule is kept in event_reschedules for reset). */
async function startIn(ctx: DevContext, id: number, body: Record<string, unknown>) {
  const seconds = Number(body.seconds);
  const duration = body.duration === undefined ? undefined : Number(body.duration);
  if (!Number.isInteger(seconds))
    throw new HttpError(422, 'seconds must be an integer (negative: started that long ago).');
  if (duration !== undefined && !(Number.isInteger(duration) && duration > 0))
    throw new HttpError(422, 'duration must be a positive integer.');
  const { anchor, now } = ctx.clock();
  await ctx.db.run(
    `INSERT INTO event_reschedules (event_id, start_offset, duration) SELECT id, start_offset, duration FROM events WHERE id = ?
     ON CONFLICT (event_id) DO NOTHING`,
    [id],
  );
  await ctx.db.run('UPDATE events SET start_offset = ?, duration = coalesce(?::bigint, duration) WHERE id = ?', [
    now - anchor + seconds,
    duration ?? null,
    id,
  ]);
  await ctx.eventChanged(id);
  return schedule(ctx, id);
}

async function reset(ctx: DevContext, id: number) {
  await ctx.db.run(
    `UPDATE events SET start_offset = (SELECT start_offset FROM event_reschedules WHERE event_id = events.id),
       duration = (SELECT duration FROM event_reschedules WHERE event_id = events.id)
     WHERE id = ? AND EXISTS (SELECT 1 FROM event_reschedules WHERE event_id = events.id)`,
    [id],
  );
  await ctx.db.run('DELETE FROM event_reschedules WHERE event_id = ?', [id]);
  await ctx.eventChanged(id);
  return schedule(ctx, id);
}
