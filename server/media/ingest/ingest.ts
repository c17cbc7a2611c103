/**
 * Live ingest (docs/streams.md, "Ingest"): an ingest event's stream key, and nginx's hooks that put the event on air.
 *
 * An encoder publishes to INGEST_RTMP_URL/{stream key}. nginx's `on_publish` (a form POST: app, name = the key,
 * addr, clientid…) reaches `/ingest/on_publish` on the operator listener; the event whose current key it is, when it
 * is not cancelled nor finished, goes live (live_from, the first push only; live_until cleared) and the answer is a
 * 302 to `rtmp://127.0.0.1:{port}/hls/event-{id}`, which makes nginx relay the push into its `hls` application under
 * the event's name (its folder INGEST_HLS_DIR/event-{id}/); anything else is a 403 and nginx drops the push.
 * `on_publish_done` sets live_until to now plus the reconnect grace, so a push that comes back within it continues
 * the same live stream (and the same folder), and records the recording's length. Both tell every process
 * (`catalog_changed`). The key is a secret: it is never logged, and the hooks log the event id only.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { forgetEventJson, type Clock } from '../../catalog/events.js';
import { readBody } from '../../http/http.js';
import type { Logger } from '../../observability/log.js';
import type { ChannelDb } from '../../storage/db.js';
import { ingestFolder, readHlsFolder } from './hls-folder.js';

/** The notification a catalogue change sends (operator/operator-api.ts CATALOG_CHANGED): each process drops its cache. */
const CATALOG_CHANGED = 'catalog_changed';
/** A push that comes back within this many seconds of dropping continues the same live stream. */
export const RECONNECT_GRACE_SECONDS = 60;
/** nginx closes the last segment just after on_publish_done: the recording's length is read again this much later. */
const LAST_SEGMENT_MS = 3000;
/** How long past the grace an on-air folder may stand still before the watchdog ends its event, and how often it looks. */
const STALL_SECONDS = 30;
export const WATCH_INTERVAL_MS = 15_000;

/** Where ingest runs: what encoders are told, where nginx writes HLS, and the grace. */
export interface IngestOptions {
  /** INGEST_RTMP_URL: what encoders publish under (rtmp://ingest.example.com/live); the key follows it. */
  rtmpUrl: string;
  /** INGEST_HLS_DIR: nginx's hls_path. */
  hlsDir: string;
  /** INGEST_GRACE_SECONDS (default RECONNECT_GRACE_SECONDS). */
  graceSeconds?: number | undefined;
}

/** A new stream key: 24 random bytes, URL-safe (it ends an RTMP URL), so unguessable and in practice unique. */
export const newStreamKey = () => randomBytes(24).toString('base64url');

/**
 * Where nginx relays an accepted push: its own `hls` application on loopback, at INGEST_RTMP_URL's port (nginx
 * listens there on loopback too: nginx-rtmp.conf says so), under the event's name.
 */
export function relayUrl(rtmpUrl: string, eventId: number): string {
  const port = new URL(rtmpUrl).port || '1935';
  return `rtmp://127.0.0.1:${port}/hls/event-${eventId}`;
}

export interface IngestHooksContext {
  db: ChannelDb;
  clock(): Clock;
  ingest: IngestOptions;
  logger: Logger;
}

/**
 * nginx's hooks: answers `POST /ingest/on_publish` and `/ingest/on_publish_done` (true), leaves other paths alone
 * (false).
 */
export function ingestHooks(ctx: IngestHooksContext) {
  const { db, ingest, logger } = ctx;
  const grace = ingest.graceSeconds ?? RECONNECT_GRACE_SECONDS;
  /**
   * The event each accepted push is for and the key it used, by nginx's client id: its end still finds the event
   * after a rotation of the key. An end must name the push's key, so nobody ends a live event without it.
   */
  const pushes = new Map<string, { id: number; key: string; seq: number }>();
  let accepted = 0;
  const rel = () => {
    const { anchor, now } = ctx.clock();
    return Math.floor(now - anchor);
  };
  const changed = async () => {
    forgetEventJson(db);
    await db.notify(CATALOG_CHANGED, '');
  };
  /** Records the recording's length so far (the schedule shows it once the event is finished). */
  const recordLength = async (id: number) => {
    const folder = await readHlsFolder(ingestFolder(ingest.hlsDir, id));
    if (!folder) return;
    await db.run('UPDATE events SET recording_seconds = ? WHERE id = ?', [
      Math.round(folder.duration * 1000) / 1000,
      id,
    ]);
    await changed();
  };

  async function onPublish(form: Map<string, string>): Promise<{ status: number; location?: string }> {
    const key = form.get('name') ?? '';
    if (form.get('app') !== 'live' || !key) return { status: 403 };
    const row = await db.get(
      `SELECT id, cancelled_at, live_until FROM events WHERE ingest_key = ? AND stream_source = 'ingest'`,
      [key],
    );
    const now = rel();
    if (!row || row.cancelled_at !== null || (row.live_until !== null && Number(row.live_until) <= now)) {
      logger.warn(
        { event: row ? Number(row.id) : null },
        row
          ? 'ingest: a push for a cancelled or finished event was refused'
          : 'ingest: a push with an unknown key was refused',
      );
      return { status: 403 };
    }
    const id = Number(row.id);
    await db.run('UPDATE events SET live_from = coalesce(live_from, ?), live_until = NULL WHERE id = ?', [now, id]);
    await changed();
    const client = form.get('clientid');
    if (client) pushes.set(client, { id, key, seq: ++accepted });
    if (pushes.size > 1000) pushes.delete(pushes.keys().next().value!);
    logger.info({ event: id }, 'ingest: a push started');
    return { status: 302, location: relayUrl(ingest.rtmpUrl, id) };
  }

  async function onPublishDone(form: Map<string, string>): Promise<void> {
    const client = form.get('clientid') ?? '';
    const key = form.get('name') ?? '';
    const row = key
      ? await db.get(`SELECT id FROM events WHERE ingest_key = ? AND stream_source = 'ingest'`, [key])
      : undefined;
    const push = pushes.get(client);
    if (push?.key === key) pushes.delete(client);
    const id = push?.key === key ? push.id : row ? Number(row.id) : undefined;
    if (id === undefined) return;
    // Another push of the event is still on: an encoder that came back before nginx noticed its old connection had
    // gone (the old push's end comes after the new one began), or a second encoder on the same key, which nginx
    // accepts through on_publish and then drops ("already publishing"): neither end stops the push still on air.
    if ([...pushes.values()].some((other) => other.id === id)) return;
    await endPush(id);
  }

  /** The event's push has ended: live until the grace is over, its recording's length read now and just after. */
  async function endPush(id: number, at = rel() + grace): Promise<void> {
    const changes = await db.run(
      'UPDATE events SET live_until = ? WHERE id = ? AND live_from IS NOT NULL AND live_until IS NULL',
      [at, id],
    );
    if (!changes) return;
    logger.info({ event: id, graceSeconds: grace }, 'ingest: a push ended');
    await recordLength(id);
    setTimeout(() => {
      recordLength(id).catch((error: unknown) => logger.error({ err: error }, 'ingest: reading a recording failed'));
    }, LAST_SEGMENT_MS).unref();
  }

  /**
   * The watchdog: an ingest event on air whose folder has not grown for the grace plus STALL_SECONDS has lost its
   * push without nginx saying so (nginx stopped or crashed, or its on_publish_done found no channel server to call):
   * it ends there, as if its push had ended when the folder last grew (a push on air writes a segment every few
   * seconds). Any process may do it; the update is conditional, so one does.
   */
  async function watch(): Promise<void> {
    const rows = await db.all(
      `SELECT id, live_from FROM events
       WHERE stream_source = 'ingest' AND live_from IS NOT NULL AND live_until IS NULL AND cancelled_at IS NULL`,
    );
    const { anchor, now } = ctx.clock();
    for (const row of rows) {
      const id = Number(row.id);
      const grown = statSync(join(ingestFolder(ingest.hlsDir, id), 'index.m3u8'), { throwIfNoEntry: false });
      const last = grown ? Math.floor(grown.mtimeMs / 1000) - anchor : Number(row.live_from);
      if (now - anchor - last < grace + STALL_SECONDS) continue;
      logger.warn({ event: id }, 'ingest: a push stopped without nginx saying so; the event ends');
      for (const [client, push] of pushes) if (push.id === id) pushes.delete(client);
      await endPush(id, last + grace);
    }
  }

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (path !== '/ingest/on_publish' && path !== '/ingest/on_publish_done') return false;
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return true;
    }
    // nginx posts a form (app, name, addr, clientid, call…); anything unreadable is refused like a wrong key.
    const body = await readBody(req).catch(() => ({}));
    const form = new Map(Object.entries(body).map(([name, value]) => [name, typeof value === 'string' ? value : '']));
    if (path === '/ingest/on_publish') {
      const answer = await onPublish(form);
      res.writeHead(answer.status, answer.location ? { Location: answer.location } : {}).end();
    } else {
      await onPublishDone(form);
      res.writeHead(200).end();
    }
    return true;
  };
  return Object.assign(handle, { watch });
}

/** An event's ingest key and URL, as the operator API and the command line give them. */
export interface IngestKeyAnswer {
  rtmp_url: string;
  stream_key: string;
}

/**
 * The stream key of an ingest event of a channel: made on first ask, a new one when `rotate` (the old one is then
 * refused at the next push). Answers undefined when there is no such event, `not_ingest` when its stream is of
 * another source.
 */
export async function ingestKeyOf(
  db: ChannelDb,
  channelId: number,
  eventId: number,
  rotate: boolean,
): Promise<{ key: string; made: boolean } | 'not_ingest' | undefined> {
  const row = await db.get('SELECT stream_source, ingest_key FROM events WHERE channel_id = ? AND id = ?', [
    channelId,
    eventId,
  ]);
  if (!row) return undefined;
  if (row.stream_source !== 'ingest') return 'not_ingest';
  if (row.ingest_key !== null && !rotate) return { key: String(row.ingest_key), made: false };
  const key = newStreamKey();
  await db.run('UPDATE events SET ingest_key = ? WHERE id = ?', [key, eventId]);
  return { key, made: true };
}

/**
 * Clears an ingest event's push (an encoder's test an hour before the game made it live, then finished): it is
 * upcoming again, its folder and what was made from it go, and its next push starts a new recording. Refused while
 * it is on air (pushing, or within the reconnect grace). Answers what stood in the way, or 'reset'.
 */
export async function resetIngest(
  db: ChannelDb,
  channelId: number,
  eventId: number,
  rel: number,
  hlsDir: string,
): Promise<'reset' | 'not_ingest' | 'on_air' | undefined> {
  const row = await db.get(
    'SELECT stream_source, live_from, live_until FROM events WHERE channel_id = ? AND id = ? FOR UPDATE',
    [channelId, eventId],
  );
  if (!row) return undefined;
  if (row.stream_source !== 'ingest') return 'not_ingest';
  if (row.live_from !== null && (row.live_until === null || Number(row.live_until) > rel)) return 'on_air';
  await db.run('UPDATE events SET live_from = NULL, live_until = NULL, recording_seconds = NULL WHERE id = ?', [
    eventId,
  ]);
  // nginx's folder: it continues a folder it finds (hls_continuous), so the old push would stay in the new one.
  rmSync(ingestFolder(hlsDir, eventId), { recursive: true, force: true });
  return 'reset';
}
