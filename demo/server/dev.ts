/**
 * Dev-only endpoints under /__dev/ for tests and demos; not part of the contract, not for production:
 *
 *   GET    /__dev/logs[?channel_key=]           log entries clients posted (POST /api/logs)
 *   GET    /__dev/media-requests[?since=&after=&stream=]   media requests received (path without signature,
 *          server time in ms, stream, kind, status); DELETE clears
 *   GET    /__dev/faults                        injected media faults; POST adds (body: see Faults in streams.ts);
 *          DELETE [?stream=] removes all, or one stream's
 *   GET    /__dev/beacons[?since=&after=]       Mux beacons received on POST /; DELETE clears
 *   GET    /__dev/datalake[?kind=&since=&after=]  analytics service calls received; DELETE clears
 *   GET    /__dev/events[?channel_key=demo]     the fixture keys of a channel's events: { "free-live": 21, ... }
 *   POST   /__dev/events/{id or key}/start-in[?channel_key=demo]   { seconds, duration? }: the event now starts
 *          `seconds` from now (negative: started that long ago), lasting `duration` seconds (default its own), so
 *          a test can watch it go from upcoming to live
 *   POST   /__dev/events/{id or key}/reset[?channel_key=demo]      back to the fixture's schedule
 * `since` is in the server clock's milliseconds (the `now` option of startServer; Date.now() by default).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Recorder } from './analytics.js';
import type { ChannelDb } from './db.js';
import { forgetEventJson, type Clock } from './events.js';
import { HttpError, readBody, sendJson } from './http.js';
import type { MediaServer } from './streams.js';

export interface DevContext {
  db: ChannelDb;
  media: MediaServer;
  beacons: Recorder;
  datalake: Recorder;
  clock(): Clock;
}

const optionalNumber = (value: string | null) => (value === null || value === '' ? undefined : Number(value));

/** Answers a /__dev/ request; false when the path is not one of them. */
export async function handleDev(req: IncomingMessage, res: ServerResponse, url: URL, ctx: DevContext): Promise<boolean> {
  const path = url.pathname.replace(/\/+$/, '');
  const method = req.method ?? 'GET';
  const query = url.searchParams;
  const recorder = path === '/__dev/beacons' ? ctx.beacons : path === '/__dev/datalake' ? ctx.datalake : undefined;
  if (recorder) {
    if (method === 'DELETE') recorder.clear();
    sendJson(res, 200, { data: method === 'DELETE' ? [] : recorder.query(query) });
    return true;
  }
  if (path === '/__dev/media-requests') {
    if (method === 'DELETE') ctx.media.requests.clear();
    const filter = { since: optionalNumber(query.get('since')), after: optionalNumber(query.get('after')), stream: query.get('stream') ?? undefined };
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
  if (path === '/__dev/logs') {
    sendJson(res, 200, { data: logs(ctx.db, query.get('channel_key')) });
    return true;
  }
  if (path === '/__dev/events' && method === 'GET') {
    const rows = ctx.db.all('SELECT e.key, e.id FROM events e JOIN channels c ON c.id = e.channel_id WHERE c.channel_key = ? AND e.key IS NOT NULL ORDER BY e.id', [
      query.get('channel_key') ?? 'demo',
    ]);
    sendJson(res, 200, { data: Object.fromEntries(rows.map((row) => [String(row.key), Number(row.id)])) });
    return true;
  }
  const m = /^\/__dev\/events\/([\w-]+)\/(start-in|reset)$/.exec(path);
  if (m && method === 'POST') {
    const id = eventId(ctx.db, m[1]!, query.get('channel_key') ?? 'demo');
    const body = await readBody(req);
    sendJson(res, 200, { data: m[2] === 'reset' ? reset(ctx, id) : startIn(ctx, id, body) });
    return true;
  }
  if (path.startsWith('/__dev/')) throw new HttpError(404, 'Not found.');
  return false;
}

function logs(db: ChannelDb, key: string | null) {
  const rows = key
    ? db.all(
        'SELECT l.id, l.received_at, l.entry_json, c.channel_key FROM logs l LEFT JOIN channels c ON c.id = l.channel_id WHERE c.channel_key = ? ORDER BY l.id',
        [key],
      )
    : db.all('SELECT l.id, l.received_at, l.entry_json, c.channel_key FROM logs l LEFT JOIN channels c ON c.id = l.channel_id ORDER BY l.id');
  return rows.map((row) => ({
    id: Number(row.id),
    received_at: Number(row.received_at),
    channel_key: row.channel_key === null ? null : String(row.channel_key),
    ...(JSON.parse(String(row.entry_json)) as object),
  }));
}

/** An event id, or the id of a fixture key in a channel; 404 when neither. */
function eventId(db: ChannelDb, ref: string, channelKey: string): number {
  const row = /^\d+$/.test(ref)
    ? db.get('SELECT id FROM events WHERE id = ?', [Number(ref)])
    : db.get('SELECT e.id FROM events e JOIN channels c ON c.id = e.channel_id WHERE c.channel_key = ? AND e.key = ?', [channelKey, ref]);
  if (!row) throw new HttpError(404, 'Event not found.');
  return Number(row.id);
}

/** The schedule of an event as the dev endpoints answer it. */
function schedule(ctx: DevContext, id: number) {
  const row = ctx.db.get('SELECT start_offset, duration FROM events WHERE id = ?', [id]);
  if (!row) throw new HttpError(404, 'Event not found.');
  const { anchor, now } = ctx.clock();
  const start = anchor + Number(row.start_offset);
  const end = start + Number(row.duration);
  return { id, event_utc_ts: start, duration: Number(row.duration), stream_status: now < start ? 'upcoming' : now < end ? 'live' : 'finished' };
}

/** Moves an event's start (the original schedule is kept in event_reschedules for reset). */
function startIn(ctx: DevContext, id: number, body: Record<string, unknown>) {
  const seconds = Number(body.seconds);
  const duration = body.duration === undefined ? undefined : Number(body.duration);
  if (!Number.isInteger(seconds)) throw new HttpError(422, 'seconds must be an integer (negative: started that long ago).');
  if (duration !== undefined && !(Number.isInteger(duration) && duration > 0)) throw new HttpError(422, 'duration must be a positive integer.');
  const { anchor, now } = ctx.clock();
  ctx.db.run('INSERT OR IGNORE INTO event_reschedules (event_id, start_offset, duration) SELECT id, start_offset, duration FROM events WHERE id = ?', [id]);
  ctx.db.run('UPDATE events SET start_offset = ?, duration = coalesce(?, duration) WHERE id = ?', [now - anchor + seconds, duration ?? null, id]);
  forgetEventJson(ctx.db, id);
  return schedule(ctx, id);
}

function reset(ctx: DevContext, id: number) {
  ctx.db.run(
    `UPDATE events SET start_offset = (SELECT start_offset FROM event_reschedules WHERE event_id = events.id),
       duration = (SELECT duration FROM event_reschedules WHERE event_id = events.id)
     WHERE id = ? AND EXISTS (SELECT 1 FROM event_reschedules WHERE event_id = events.id)`,
    [id],
  );
  ctx.db.run('DELETE FROM event_reschedules WHERE event_id = ?', [id]);
  forgetEventJson(ctx.db, id);
  return schedule(ctx, id);
}
