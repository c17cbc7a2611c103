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
 * - The analytics service of the channel API under `/datalake/`: `GET hash/?profile=`, `POST session/`,
 *   `POST event/`, `POST video/event/`, `POST video/viewing/` (trailing slash optional). Bodies are JSON (whatever
 *   their label: browsers send text/plain to avoid preflights, and beacons can send nothing else), checked with
 *   the contract's schemas (src/api/analytics-schemas.ts): a bad one is a 422 with field errors. The `profile` must
 *   be one channel's analytics key (settings 'yare-analytics'); what arrives is stored for that channel
 *   (analytics-store.ts: in the database, bounded per sender and per channel, expired by age). A session without an `ip` gets the request's address. Answers are
 *   `{ data: { id } }`; `session/` adds `session_uuid`, the `session` hash the client sent. Each address may make
 *   DATALAKE_PER_MINUTE calls a minute (429 with Retry-After past that).
 *
 * Beacons are kept in memory, bounded in entries and bytes; every body over MAX_ANALYTICS_BODY is refused with
 * 413, so a flood cannot exhaust the server.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as z from 'zod/mini';
import { DatalakeEvent, DatalakeSession, DatalakeVideoEvent, DatalakeVideoViewing } from '../../src/api/contract.js';
import type { AnalyticsStore, Recorded } from './analytics-store.js';
import { addressKey, HttpError, readBody, sendJson, tooMany } from '../http/http.js';
import type { SharedRateLimiter } from '../http/limits.js';

/** The largest analytics body accepted (a mux-embed batch, or 50 tracked API calls, is a few kilobytes). */
export const MAX_ANALYTICS_BODY = 64 * 1024;
/** Datalake calls per client address per minute (a page makes a handful; a flood is refused). */
export const DATALAKE_PER_MINUTE = 600;

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

/** The contract's schema of each datalake body. */
const DATALAKE_BODIES: Record<string, z.ZodMiniType> = {
  session: DatalakeSession,
  event: DatalakeEvent,
  'video/event': DatalakeVideoEvent,
  'video/viewing': DatalakeVideoViewing,
};

/** What the datalake needs besides the request. */
export interface DatalakeContext {
  store: AnalyticsStore;
  /** The channel whose analytics key (settings 'yare-analytics') this is, if any. */
  channelOfProfile(profile: string): string | undefined;
  /** Requests per client address. */
  limiter: SharedRateLimiter;
  /** The client's address. */
  addressOf(req: IncomingMessage): string;
}

/** A body's problems as field errors: `{ field: ['The field field is required.'] }` (or `is invalid.`). */
function fieldErrors(
  raw: Record<string, unknown>,
  issues: readonly { path: PropertyKey[] }[],
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.') || 'body';
    const top = issue.path[0];
    const missing = top !== undefined && (raw[String(top)] === undefined || raw[String(top)] === null);
    const message = missing ? `The ${field} field is required.` : `The ${field} field is invalid.`;
    const list = (errors[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return errors;
}

/** Answers `POST /` (Mux beacons) and `/datalake/...`; false for other paths. */
export async function handleAnalytics(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  recorders: { beacons: Recorder | undefined; datalake: DatalakeContext },
): Promise<boolean> {
  const path = url.pathname;
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
  const datalake = recorders.datalake;
  tooMany(await datalake.limiter.hit(addressKey(datalake.addressOf(req))));
  const channelOf = (profile: unknown): string => {
    const channel = typeof profile === 'string' && profile !== '' ? datalake.channelOfProfile(profile) : undefined;
    if (!channel)
      throw new HttpError(422, 'The given data was invalid.', {
        profile: [profile ? 'The selected profile is invalid.' : 'The profile field is required.'],
      });
    return channel;
  };
  if (name === 'hash') {
    if (req.method !== 'GET') throw new HttpError(405, 'Method not allowed.');
    channelOf(url.searchParams.get('profile'));
    sendJson(res, 200, { data: { hash: randomBytes(16).toString('hex') } });
    return true;
  }
  if (req.method !== 'POST') throw new HttpError(405, 'Method not allowed.');
  const raw = await readBody(req, MAX_ANALYTICS_BODY);
  const parsed = DATALAKE_BODIES[name]!.safeParse(raw);
  if (!parsed.success) throw new HttpError(422, 'The given data was invalid.', fieldErrors(raw, parsed.error.issues));
  const body = parsed.data as Record<string, unknown>;
  const channel = channelOf(body.profile);
  // The session's address as the geo service saw it, else the request's own.
  if (name === 'session' && !body.ip) body.ip = datalake.addressOf(req);
  const id = await datalake.store.add(
    channel,
    DATALAKE_KINDS[name]!,
    req.headers.origin ?? null,
    body,
    addressKey(datalake.addressOf(req)),
  );
  if (name === 'session') {
    sendJson(res, 200, { data: { id, session_uuid: String(body.session) } });
  } else {
    sendJson(res, 200, { data: { id } });
  }
  return true;
}
