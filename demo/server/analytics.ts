/**
 * Analytics the reference server collects instead of the real services, and records for tests:
 *
 * - Mux beacons (dev mode only: in production mux-embed sends them to Mux). mux-embed 5.19
 *   (node_modules/mux-embed/dist/mux.js) sends its beacons to
 *   `http://{beaconCollectionDomain}` when the domain is `localhost` or `localhost:{port}` (https otherwise), i.e.
 *   to the root path: `POST /` with `Content-Type: text/plain` and a JSON text body
 *   `{ metadata: { transmission_timestamp, rtt_ms? }, events: [ ... ] }` by fetch() (keepalive for small bodies),
 *   or by navigator.sendBeacon (also text/plain) when the page unloads. Event fields use Mux's short keys: `e` is
 *   the event name (viewstart, playing, ...), `ake` the env key, `xid` the view id. A text/plain POST is a "simple"
 *   request, so no preflight; the answer carries CORS headers so fetch() can read its status.
 * - The analytics service of the channel API under `/datalake/`: `GET hash/`, `POST session/`, `POST event/`,
 *   `POST video/event/`, `POST video/viewing/` (trailing slash optional). Bodies must be JSON objects with a
 *   `profile` (the channel's analytics key, settings 'yare-analytics'); `event/` also needs `event`. Answers are
 *   `{ data: { id } }`; `session/` adds `session_uuid`: the `session` id the client sent, or a new uuid.
 *
 * Both are kept in memory, bounded in entries and bytes (a body over MAX_ANALYTICS_BODY is refused with 413; past
 * the total, the oldest entries go), so a flood of beacons cannot exhaust the server.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readBody, sendJson } from './http.js';

/** The largest analytics body accepted (a mux-embed batch is a few kilobytes). */
export const MAX_ANALYTICS_BODY = 64 * 1024;

export interface Recorded {
  id: number;
  /** Server clock (ms) when it arrived. */
  at: number;
  /** For the datalake: hash, session, event, video-event or video-viewing; 'beacon' for Mux. */
  kind: string;
  /** The Origin header: which page sent it. */
  origin: string | null;
  body: Record<string, unknown>;
}

/** A bounded in-memory list of what was received, with the query the dev endpoints answer. */
export class Recorder {
  private entries: Array<Recorded & { bytes: number }> = [];
  private nextId = 1;
  private bytes = 0;

  /** At most `maxEntries` entries and `maxBytes` of bodies (as JSON); the oldest go first. */
  constructor(
    private readonly now: () => number,
    private readonly maxEntries = 5000,
    private readonly maxBytes = 8 * 1024 * 1024,
  ) {}

  add(kind: string, req: IncomingMessage, body: Record<string, unknown>): Recorded {
    const origin = req.headers.origin;
    const bytes = Buffer.byteLength(JSON.stringify(body)) + (origin?.length ?? 0);
    const entry = { id: this.nextId++, at: this.now(), kind, origin: origin ?? null, body, bytes };
    this.entries.push(entry);
    this.bytes += bytes;
    let drop = 0;
    while (
      drop < this.entries.length - 1 &&
      (this.entries.length - drop > this.maxEntries || this.bytes > this.maxBytes)
    ) {
      this.bytes -= this.entries[drop]!.bytes;
      drop++;
    }
    if (drop) this.entries.splice(0, drop);
    return entry;
  }

  /** What is held now: entries and bytes of bodies. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.length, bytes: this.bytes };
  }

  /** Entries at or after `since` (ms), after id `after`, of one kind; each filter optional. */
  query(params: URLSearchParams): Recorded[] {
    const since = params.get('since');
    const after = params.get('after');
    const kind = params.get('kind');
    return this.entries
      .filter(
        (e) =>
          (since === null || e.at >= Number(since)) &&
          (after === null || e.id > Number(after)) &&
          (kind === null || e.kind === kind),
      )
      .map(({ bytes: _bytes, ...entry }) => entry);
  }

  clear(): void {
    this.entries = [];
    this.bytes = 0;
  }
}

const DATALAKE_KINDS: Record<string, string> = {
  session: 'session',
  event: 'event',
  'video/event': 'video-event',
  'video/viewing': 'video-viewing',
};

/** Answers `POST /` (Mux beacons) and `/datalake/...`; false for other paths. */
export async function handleAnalytics(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  recorders: { beacons: Recorder | undefined; datalake: Recorder },
): Promise<boolean> {
  if (path === '/' && req.method === 'POST' && recorders.beacons) {
    const body = await readBody(req, MAX_ANALYTICS_BODY);
    if (!Array.isArray(body.events)) throw new HttpError(422, 'A beacon needs an events array.');
    const entry = recorders.beacons.add('beacon', req, body);
    sendJson(res, 200, { data: { id: entry.id } });
    return true;
  }
  const m = /^\/datalake\/(hash|session|event|video\/event|video\/viewing)\/?$/.exec(path);
  if (!m) return false;
  const name = m[1]!;
  if (name === 'hash') {
    if (req.method !== 'GET') throw new HttpError(405, 'Method not allowed.');
    sendJson(res, 200, { data: { hash: randomBytes(16).toString('hex') } });
    return true;
  }
  if (req.method !== 'POST') throw new HttpError(405, 'Method not allowed.');
  const body = await readBody(req, MAX_ANALYTICS_BODY);
  const errors: Record<string, string[]> = {};
  if (typeof body.profile !== 'string' || body.profile === '') errors.profile = ['The profile field is required.'];
  if (name === 'event' && (typeof body.event !== 'string' || body.event === ''))
    errors.event = ['The event field is required.'];
  if (Object.keys(errors).length) throw new HttpError(422, 'The given data was invalid.', errors);
  const entry = recorders.datalake.add(DATALAKE_KINDS[name]!, req, body);
  if (name === 'session') {
    // The session id the client sent (`session`), else a new one; later calls carry it as session_uuid.
    const uuid = typeof body.session === 'string' && body.session !== '' ? body.session : randomUUID();
    sendJson(res, 200, { data: { id: entry.id, session_uuid: uuid } });
  } else {
    sendJson(res, 200, { data: { id: entry.id } });
  }
  return true;
}
