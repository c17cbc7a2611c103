/**
 * Clips: the contract's clip endpoints (`POST clip`, `clips/user`, `clips/event/{id}`, `events/with_clip`,
 * `shared-clip/{id}`, `clip/download/{id}`, `DELETE clip/{id}`), the Clip shape they answer, and what a signed
 * `clip-{id}` stream serves (the clip's own files, made by the job queue in clip-jobs.ts).
 *
 * Rules: making a clip needs the `clipping` capability and access to the event (paid events need an order, a pass
 * or a subscription); the event must be finished with a recording (the clip is cut from the recording, `start_time`
 * seconds into it) or live (cut from the live window: `start_time` is seconds since the scheduled start, at most
 * CLIP_LIVE_WINDOW_SECONDS before now and ending by now). Lengths CLIP_MIN_SECONDS..CLIP_MAX_SECONDS, 1..CLIP_MAX_TAGS
 * tags, a name of at most CLIP_NAME_MAX_LENGTH characters; each user may make CLIPS_PER_WINDOW clips per 10 minutes
 * (then 422, not 429: the client takes 429 for a global api-key error) and keep MAX_CLIPS_PER_USER.
 */
import {
  CLIP_LIVE_WINDOW_SECONDS,
  CLIP_MAX_SECONDS,
  CLIP_MAX_TAGS,
  CLIP_MIN_SECONDS,
  CLIP_NAME_MAX_LENGTH,
  CLIP_TAG_MAX_LENGTH,
  type StreamStatus,
} from '../../src/api/contract.js';
import { downloadName, viewerOf } from '../catalog/catalog-api.js';
import type { ClipJobs } from './clip-jobs.js';
import type { ChannelDb, Row } from '../storage/db.js';
import { eventStatus, findEvent, liveSpan, renderEvent, type CachedEvent } from '../catalog/events.js';
import { Checks, idOf, listWindow, refuse, textOrNull, type ApiRequest, type Handlers } from '../http/handler.js';
import { LIVE_LEAD } from '../media/hls.js';
import { HttpError } from '../http/http.js';
import { RateLimiter } from '../http/limits.js';
import { SEGMENT_SECONDS } from '../media/media.js';
import type { MediaServer, StreamTarget } from '../media/streams.js';
import type { IngestMedia } from '../media/ingest/recording.js';

/** Clips one user may make per CLIPS_WINDOW_MS, and keep in all. */
export const CLIPS_PER_WINDOW = 10;
export const CLIPS_WINDOW_MS = 10 * 60_000;
export const MAX_CLIPS_PER_USER = 100;
/**
 * Server-wide bounds, whoever asks: clips waiting for a cut (about a minute of work at two cuts at a time for
 * 10 s clips), and clips kept per channel (a 60 s clip's files are about 10 MB, so at most some 20 GB).
 */
export const MAX_CLIPS_WAITING = 100;
export const MAX_CLIPS_PER_CHANNEL = 2000;
export const BUSY_MESSAGE = 'Clip making is busy. Please try again in a few minutes.';
export const FULL_MESSAGE = 'This channel cannot keep more clips for now. Please try again later.';
/** How far past the server's "now" a live clip may end: the viewer's clock may run a little ahead. */
const LIVE_END_SLACK_SECONDS = 2;

/** The validation texts (the client checks the same before sending). */
export const CLIP_MESSAGES = {
  required: 'Field is required',
  /** An empty clip name: the spec's text for the clip form's input field. */
  name: 'Please fill in the input field',
  tags: 'Please select tag',
  outside: 'Your clip duration is longer than the end time',
  tooLong: `The clip can be at most ${CLIP_MAX_SECONDS} seconds long`,
  tooShort: `The clip must be at least ${CLIP_MIN_SECONDS} seconds long`,
} as const;

const NOT_FOUND = 'Clip not found.';

/** What the clip handlers need from the server. */
export interface ClipsContext {
  db: ChannelDb;
  jobs: ClipJobs;
  mediaServer: MediaServer;
  /** The recording's length in seconds (the test media's `main`). */
  recordingSeconds: number;
  /** Ingest events' own media (their HLS folders and recordings), when the server takes pushes. */
  ingest?: IngestMedia | undefined;
  /** The server clock (ms), for the limit of clips per user and window. */
  nowMs(): number;
}

/** The clip fields of a valid request. */
interface ClipInput {
  name: string;
  tags: string[];
  start: number;
  duration: number;
}

/** A finite number from a JSON number or numeric string, else undefined. */
function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Checks name, tags, start and duration against the video's span [from, to] (seconds, in start_time's terms);
 * answers the clip or throws one 422 with every field's error.
 */
export function checkClip(body: Record<string, unknown>, from: number, to: number): ClipInput {
  const checks = new Checks(body);
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (name === '') checks.fail('name', CLIP_MESSAGES.name);
  else if (name.length > CLIP_NAME_MAX_LENGTH)
    checks.fail('name', `The name may be at most ${CLIP_NAME_MAX_LENGTH} characters long`);

  const given = Array.isArray(body.tags) ? body.tags : [];
  const tags = [...new Set(given.map((t) => (typeof t === 'string' ? t.trim() : '')))];
  if (tags.length === 0 || tags.includes('')) checks.fail('tags', CLIP_MESSAGES.tags);
  else if (tags.length > CLIP_MAX_TAGS) checks.fail('tags', `Choose at most ${CLIP_MAX_TAGS} tags`);
  else if (tags.some((t) => t.length > CLIP_TAG_MAX_LENGTH))
    checks.fail('tags', `A tag may be at most ${CLIP_TAG_MAX_LENGTH} characters long`);

  const start = numberOf(body.start_time);
  const duration = numberOf(body.duration);
  if (start === undefined) checks.fail('start_time', CLIP_MESSAGES.required);
  else if (start < from || start >= to) checks.fail('start_time', CLIP_MESSAGES.outside);
  if (duration === undefined) checks.fail('duration', CLIP_MESSAGES.required);
  else if (duration < CLIP_MIN_SECONDS) checks.fail('duration', CLIP_MESSAGES.tooShort);
  else if (duration > CLIP_MAX_SECONDS) checks.fail('duration', CLIP_MESSAGES.tooLong);
  else if (start !== undefined && !checks.has('start_time') && start + duration > to)
    checks.fail('duration', CLIP_MESSAGES.outside);
  checks.done();
  return { name, tags, start: start!, duration: duration! };
}

/** Clip rows with their event's name, image, start and geo-block, for clipJson. */
const CLIP_SELECT = `SELECT c.*, e.name AS event_name, e.image AS event_image, e.start_offset AS event_start,
  e.is_geo_blocked AS event_geo FROM clips c JOIN events e ON e.id = c.event_id`;

/**
 * A clip's stream ids: its id and its uuid, so a grant opens this clip only, never another that might one day have
 * the same id. `clip-{id}-{uuid}` plays it; `clipdl-{id}-{uuid}` also downloads its MP4.
 */
const clipStream = (row: Row, download = false) => `clip${download ? 'dl' : ''}-${String(row.id)}-${String(row.uuid)}`;

/** The clip's poster URL from its signed master URL (the grant signs the stream, not the file). */
const posterOf = (master: string) => master.replace(/master\.m3u8$/, 'poster.jpg');

/** A clip row (CLIP_SELECT) as the contract's Clip; media only when done, and only for a caller with streams. */
async function clipJson(r: ApiRequest, mediaServer: MediaServer, row: Row): Promise<Record<string, unknown>> {
  const status = String(row.status);
  const media: Array<{ type: string; url: string }> = [];
  if (status === 'done' && (await r.view()).streams && !row.event_geo) {
    const master = mediaServer.signedUrl(r.origin, clipStream(row), viewerOf(r, await r.access()));
    media.push({ type: 'vod', url: master }, { type: 'image', url: posterOf(master) });
  }
  return {
    id: Number(row.id),
    uuid: String(row.uuid),
    event_id: Number(row.event_id),
    name: String(row.name),
    start_time: Number(row.start_time),
    duration: Number(row.duration),
    tags: JSON.parse(String(row.tags_json)) as string[],
    status,
    progress: status === 'failed' ? null : Number(row.progress),
    source: String(row.source),
    created_at: Number(row.created_at),
    event: {
      id: Number(row.event_id),
      name: String(row.event_name),
      event_utc_ts: r.clock.anchor + Number(row.event_start),
      image: r.media(row.event_image),
    },
    media,
  };
}

/**
 * Where a new clip of `event` may lie, in start_time's terms, and where its cut starts in the recording: a finished
 * event's recording from 0 to its length; a live event's last CLIP_LIVE_WINDOW_SECONDS (no earlier than the live
 * window's first segment) up to now. The live stream at t seconds after the scheduled start plays recording offset
 * (t + LIVE_LEAD * SEGMENT_SECONDS) mod length (hls.ts: segment n covers start + (n - LIVE_LEAD) segments).
 */
function spanOf(r: ApiRequest, event: CachedEvent, recordingSeconds: number, ingest: IngestMedia | undefined) {
  // A url or mux event streams from elsewhere: there is nothing here to cut (the elements translate the text).
  if (event.source === 'url' || event.source === 'mux')
    throw refuse('event_id', 'This event has no recording on this server: clips are cut from recordings kept here.');
  const status = eventStatus(event, r.clock);
  if (status === 'upcoming')
    throw refuse('event_id', 'The event has not started yet: clips can be made once it is live.');
  if (event.source === 'ingest') return ingestSpanOf(r, event, status, ingest);
  if (status === 'finished') {
    if (!event.hasRecording) throw refuse('event_id', 'This event has no recording.');
    return { source: 'vod' as const, from: 0, to: recordingSeconds, offset: (start: number) => start };
  }
  // Seconds since it went live: its schedule's start, or an ingest event's first push (liveSpan).
  const since = r.clock.now - (r.clock.anchor + liveSpan(event).from);
  const lead = LIVE_LEAD * SEGMENT_SECONDS;
  return {
    source: 'live' as const,
    from: Math.max(-lead, since - CLIP_LIVE_WINDOW_SECONDS),
    to: since + LIVE_END_SLACK_SECONDS,
    offset: (start: number) => (((start + lead) % recordingSeconds) + recordingSeconds) % recordingSeconds,
  };
}

/**
 * spanOf() for an ingest event, whose media is its push's HLS folder: the asset offset is a position in the folder's
 * playlist, which is the recording's timeline too. Finished: the recording, from 0 to its length. Live: start_time
 * on the event's clock as for any live event, the newest segment's end taken as now (as the thumbnails track and the
 * player's own live clock do), back to the folder's first segment or CLIP_LIVE_WINDOW_SECONDS.
 */
function ingestSpanOf(r: ApiRequest, event: CachedEvent, status: StreamStatus, ingest: IngestMedia | undefined) {
  const playlist = ingest?.playlist(event.id);
  if (!playlist?.segments.length) throw refuse('event_id', 'This event has no recording.');
  if (status === 'finished') {
    const length = event.recordingSeconds ?? playlist.duration;
    return { source: 'vod' as const, from: 0, to: length, offset: (start: number) => start };
  }
  const edge = r.clock.now - (r.clock.anchor + event.start);
  const first = edge - playlist.duration;
  return {
    source: 'live' as const,
    from: Math.max(first, edge - CLIP_LIVE_WINDOW_SECONDS),
    to: edge + LIVE_END_SLACK_SECONDS,
    offset: (start: number) => Math.max(0, start - first),
  };
}

/**
 * What a signed clip stream serves: `clip-{id}` the done clip's playback (HLS and poster), `clipdl-{id}` also its MP4,
 * signed only by `clip/download/{id}` (owner, `download_clip`, counted): a shared clip's playback grant cannot
 * fetch the file. Undefined for other stream ids.
 */
export function clipStreams(db: ChannelDb, jobs: ClipJobs): (stream: string) => Promise<StreamTarget> | undefined {
  return (stream) => {
    const m = /^clip(dl)?-(\d{1,15})-([0-9a-f-]{36})$/.exec(stream);
    if (!m) return /^clip(dl)?-/.test(stream) ? Promise.resolve(refused) : undefined;
    return (async (): Promise<StreamTarget> => {
      const downloadable = m[1] === 'dl';
      const id = Number(m[2]);
      const row = await db.get('SELECT name, status FROM clips WHERE id = ? AND uuid = ?', [id, m[3]!]);
      if (!row) return refused;
      const files = row.status === 'done' ? jobs.files(id) : undefined;
      if (!files) return { kind: 'refused', status: 404, message: 'The clip is not ready yet.' };
      return {
        kind: 'vod',
        asset: files.asset,
        files: {
          dir: files.dir,
          poster: files.poster,
          download: downloadable ? { ...files.mp4, filename: downloadName(String(row.name), 'clip') } : undefined,
        },
      };
    })();
  };
}

/** A clip stream id that names no clip (or not this clip's uuid). */
const refused: StreamTarget = { kind: 'refused', status: 404, message: NOT_FOUND };

type ClipEndpoint =
  'createClip' | 'userClips' | 'eventClips' | 'eventsWithClip' | 'sharedClip' | 'clipDownload' | 'deleteClip';

/** The contract's clip handlers. */
export function clipHandlers(ctx: ClipsContext): Handlers<ClipEndpoint> {
  const { db, jobs, mediaServer, recordingSeconds, ingest } = ctx;
  const limiter = new RateLimiter(db, 'clips', CLIPS_PER_WINDOW, CLIPS_WINDOW_MS, ctx.nowMs);

  /** One of the caller's clips by the path's id (with its event), or 404: another's clip is as unknown as none. */
  const ownClip = async (r: ApiRequest): Promise<Row> => {
    const user = await r.user();
    const id = idOf(r.params.id);
    const row =
      id === undefined ? undefined : await db.get(`${CLIP_SELECT} WHERE c.id = ? AND c.user_id = ?`, [id, user.id!]);
    if (!row) throw new HttpError(404, NOT_FOUND);
    return row;
  };

  /** The caller's clips matching `where`, newest first. */
  const clipsOf = async (r: ApiRequest, where = '', params: number[] = []) => {
    const rows = await db.all(`${CLIP_SELECT} WHERE c.user_id = ? ${where} ORDER BY c.created_at DESC, c.id DESC`, [
      (await r.user()).id!,
      ...params,
    ]);
    return Promise.all(rows.map((row) => clipJson(r, mediaServer, row)));
  };

  return {
    createClip: async (r) => {
      const user = await r.user();
      const access = await r.access();
      if (!access.capabilities.has('clipping')) throw new HttpError(403, 'Your account cannot make clips.');
      const eventId = idOf(r.body.event_id);
      if (eventId === undefined) throw refuse('event_id', CLIP_MESSAGES.required);
      const event = await findEvent(db, r.channelId, eventId, r.clock, r.origin);
      if (!event) throw new HttpError(404, 'Event not found.');
      const view = await r.view();
      if (!view.canWatch(event)) throw new HttpError(403, 'You do not have access to this event.');
      if (event.geoBlocked || !view.streams) throw new HttpError(403, 'This content is not available in your region.');
      const span = spanOf(r, event, recordingSeconds, ingest);
      const clip = checkClip(r.body, span.from, span.to);
      const kept = Number((await db.get('SELECT count(*) AS n FROM clips WHERE user_id = ?', [user.id!]))?.n ?? 0);
      if (kept >= MAX_CLIPS_PER_USER)
        throw new HttpError(422, `You can keep at most ${MAX_CLIPS_PER_USER} clips. Delete some to make new ones.`);
      if ((await jobs.waitingCount()) >= MAX_CLIPS_WAITING) throw new HttpError(422, BUSY_MESSAGE);
      const inChannel = Number(
        (
          await db.get('SELECT count(*) AS n FROM clips c JOIN users u ON u.id = c.user_id WHERE u.channel_id = ?', [
            r.channelId,
          ])
        )?.n ?? 0,
      );
      if (inChannel >= MAX_CLIPS_PER_CHANNEL) throw new HttpError(422, FULL_MESSAGE);
      const wait = await limiter.hit(String(user.id));
      if (wait > 0) {
        const minutes = Math.max(1, Math.ceil(wait / 60));
        throw new HttpError(
          422,
          `You have made too many clips. Please try again in ${minutes} minute${minutes > 1 ? 's' : ''}.`,
        );
      }
      const now = r.clock.now;
      // Answered as stored (queued), read inside the transaction: once it commits, the queue (of any process) may
      // take the clip up at once, so a read after the commit could already see it processing.
      const stored = await db.transaction(async () => {
        await db.run('UPDATE users SET clips_count = clips_count + 1, updated_at = ? WHERE id = ?', [now, user.id!]);
        const id = await db.insert(
          `INSERT INTO clips (user_id, event_id, uuid, name, start_time, duration, tags_json, status, progress, source,
             asset_offset, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?, ?)`,
          [
            user.id!,
            event.id,
            crypto.randomUUID(),
            clip.name,
            clip.start,
            clip.duration,
            JSON.stringify(clip.tags),
            span.source,
            span.offset(clip.start),
            now,
            now,
          ],
        );
        return (await db.get(`${CLIP_SELECT} WHERE c.id = ?`, [id]))!;
      });
      const data = await clipJson(r, mediaServer, stored);
      jobs.wake();
      return { status: 201, body: { data } };
    },
    userClips: async (r) => ({ data: await clipsOf(r) }),
    eventClips: async (r) => {
      const id = idOf(r.params.id);
      await r.user();
      if (id === undefined || !(await findEvent(db, r.channelId, id, r.clock, r.origin)))
        throw new HttpError(404, 'Event not found.');
      return { data: await clipsOf(r, 'AND c.event_id = ?', [id]) };
    },
    eventsWithClip: async (r) => {
      const user = await r.user();
      // A cancelled event is not listed (findEvent), so neither is it counted.
      const where =
        'FROM clips c JOIN events e ON e.id = c.event_id WHERE c.user_id = ? AND e.channel_id = ? AND e.cancelled_at IS NULL';
      const total = Number(
        (await db.get(`SELECT count(DISTINCT c.event_id) AS n ${where}`, [user.id!, r.channelId]))?.n ?? 0,
      );
      // Paginated like the events list, `no_limit=1` for all of them.
      const { meta, sqlLimit } = listWindow(r.query, total);
      // The events most recently clipped first.
      const ids = (
        await db.all(
          `SELECT c.event_id AS id ${where} GROUP BY c.event_id ORDER BY max(c.created_at) DESC, max(c.id) DESC LIMIT ? OFFSET ?`,
          [user.id!, r.channelId, sqlLimit, meta.offset],
        )
      ).map((row) => Number(row.id));
      const view = await r.view();
      const events: string[] = [];
      for (const id of ids) {
        const event = await findEvent(db, r.channelId, id, r.clock, r.origin);
        if (event) events.push(renderEvent(event, view));
      }
      return { raw: `{"data":[${events.join(',')}],"meta":${JSON.stringify(meta)}}` };
    },
    sharedClip: async (r) => {
      const id = idOf(r.params.id);
      const uuid = r.query.get('uuid') ?? '';
      const row =
        id === undefined || uuid === ''
          ? undefined
          : await db.get(`${CLIP_SELECT} WHERE c.id = ? AND e.channel_id = ?`, [id, r.channelId]);
      if (!row || row.uuid !== uuid) throw new HttpError(404, NOT_FOUND);
      return { data: await clipJson(r, mediaServer, row) };
    },
    clipDownload: async (r) => {
      const row = await ownClip(r);
      const access = await r.access();
      if (!access.capabilities.has('download_clip')) throw new HttpError(403, 'Your account cannot download clips.');
      if (row.status !== 'done' || !jobs.files(Number(row.id))) throw new HttpError(422, 'The clip is not ready yet.');
      if (!(await r.view()).streams || row.event_geo)
        throw new HttpError(403, 'This content is not available in your region.');
      await db.run('UPDATE users SET downloads_count = downloads_count + 1, updated_at = ? WHERE id = ?', [
        r.clock.now,
        Number(row.user_id),
      ]);
      const filename = downloadName(String(row.name), 'clip');
      const url = mediaServer.signedUrl(r.origin, clipStream(row, true), viewerOf(r, access), `download/${filename}`);
      return { data: { url, filename } };
    },
    deleteClip: async (r) => {
      const row = await ownClip(r);
      await db.run('DELETE FROM clips WHERE id = ?', [Number(row.id)]);
      await jobs.remove(Number(row.id));
      return { data: { message: `The clip "${textOrNull(row.name) ?? ''}" was deleted.` } };
    },
  };
}
