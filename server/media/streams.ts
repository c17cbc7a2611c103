/**
 * The media server: signed, short-lived playback URLs and the HLS and MP4 answers behind them, public preroll
 * media, and the hooks end-to-end tests use (fault injection, a log of the media requests received).
 *
 * URL shapes (all on the API origin):
 *   /media/s/{grant}/{stream}/master.m3u8                master playlist
 *   /media/s/{grant}/{stream}/{track}/index.m3u8         media playlist (track: 360p, 180p, subs-en, subs-fr)
 *   /media/s/{grant}/{stream}/{track}/{n}.ts             segment n (.vtt for subtitles)
 *   /media/s/{grant}/{stream}/thumbs/thumbnails.vtt      the thumbnails track (thumbnails.ts), and its
 *   /media/s/{grant}/{stream}/thumbs/sprite.jpg          sprite (events and library items), or for an ingest
 *   /media/s/{grant}/{stream}/thumbs/{n}.jpg             event its pictures (ingest/recording.ts)
 *   /media/s/{grant}/dl-{event}/download/{name}.mp4      a download
 *   /media/s/{grant}/clip-{id}/poster.jpg                a clip's poster
 *   /media/s/{grant}/clipdl-{id}/download/{name}.mp4     a clip's MP4 (only under its own download grant)
 *   /media/prerolls/{id}/master.m3u8 (and the same relative paths)  preroll media: public, never signed
 * `stream` is an event id, `vod-{id}` for a library item, `dl-{id}` for an event's download, `clip-{id}` for a
 * clip or `clipdl-{id}` for its download (whose files are its own, in the clip's folder: clips.ts). The grant is
 * `{expiry}.{viewer}.{signature}`: expiry in UNIX seconds; viewer a keyed digest (16 characters) of who asked,
 * the signed-in user or else the api key; signature an HMAC-SHA256 (base64url) with the server's secret of the
 * stream, the expiry, the viewer and the client address the URL was handed to. A URL therefore plays only for the
 * address it was issued to: one that leaks (into a log, an analytics beacon, a chat) is useless to anyone else. A
 * missing, wrong or expired grant, or one used from another address, is refused with 403 before anything else, for
 * every path under /media/s/.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { LIVE_LEAD, livePlaylist, masterPlaylist, segmentExtension, vodPlaylist } from './hls.js';
import { BoundedMap } from '../http/limits.js';
import { SEGMENT_SECONDS, segmentPath, type Asset, type MediaLibrary, type Track } from './media.js';
import { liveThumbnailsVtt, THUMBS_FOLDER, THUMBS_SPRITE, THUMBS_VTT } from './thumbnails.js';
import { sendFile } from '../http/files.js';
import {
  ingestAnswer,
  type MediaAnswer,
  ownThumbnail,
  PLAYLIST,
  refusal,
  type ThumbnailSource,
} from './ingest/answers.js';
import { CORS_HEADERS } from '../http/static.js';

/** The files of a stream kept apart from the library (a clip's): its folder, poster and MP4. */
export interface StreamFiles {
  /** The folder the asset's segment paths are relative to. */
  dir: string;
  /** The poster JPG, relative to dir. */
  poster: string;
  /**
   * The MP4 (relative to dir), its size, and the file name a download is saved as; only on a download stream id
   * (`clipdl-{id}`), never on a playback one, so a playback grant (a shared clip's) cannot fetch the file.
   */
  download?: { file: string; bytes: number; filename: string } | undefined;
}

export type { ThumbnailSource };

/** What a stream id plays at the moment of a request. */
export type StreamTarget =
  | { kind: 'live'; asset: Asset; startMs: number; thumbnails?: ThumbnailSource }
  | { kind: 'vod'; asset: Asset; files?: StreamFiles; thumbnails?: ThumbnailSource }
  /** A download: `file` (an ingest event's recording), else the generated media's MP4. */
  | { kind: 'download'; filename: string; file?: { path: string; bytes: number } }
  /** An ingest event's HLS folder (ingest/hls-folder.ts): live while its push lasts, then its recording. */
  | { kind: 'ingest'; dir: string; live: boolean; thumbnails?: ThumbnailSource }
  | { kind: 'refused'; status: number; message: string };

/** Whom a signed URL is for: `u:{user id}` or `k:{api key}`, at the client address that asked. */
export interface MediaViewer {
  identity: string;
  address: string;
}

/** The kinds of media request, as logged and as targeted by faults. */
export type MediaRequestKind = 'master' | 'playlist' | 'segment' | 'subtitles' | 'download' | 'thumbnails' | 'poster';

export interface MediaRequest {
  id: number;
  /** Server clock (ms) when it arrived. */
  at: number;
  method: string;
  stream: string;
  kind: MediaRequestKind | 'unknown';
  /** The path with the signature left out. */
  path: string;
  status: number;
}

/** An injected failure (or delay) for one stream's requests of some kinds. */
export interface Fault {
  stream: string;
  kinds: MediaRequestKind[];
  /** The status to answer instead, or null to only delay. */
  status: number | null;
  /** How many more requests it hits; null for all of them until cleared. */
  remaining: number | null;
  delayMs: number;
}

const MANIFEST_KINDS: MediaRequestKind[] = ['master', 'playlist'];

/**
 * Faults for end-to-end tests. `add` takes the body of `POST /__dev/faults`:
 *   { stream, manifest: 403 }        every playlist request of the stream answers 403 (until DELETE /__dev/faults)
 *   { stream, segment: 'once' }      the next video segment request answers 500, later ones work
 *   { stream, segment: 404, times: 3 }  the next three segment requests answer 404
 *   { stream, subtitles: 500 }       WebVTT segments fail
 *   { stream, delay_ms: 4000 }       video segments answer after 4 s (a stall), with `segment`/`manifest`: those
 * `stream` is an event id, `vod-{id}`, `dl-{id}` or `preroll-{id}`.
 */
export class Faults {
  private faults: Fault[] = [];

  add(body: Record<string, unknown>): Fault[] | string {
    const stream = body.stream;
    if ((typeof stream !== 'string' || stream === '') && typeof stream !== 'number')
      return 'stream is required (an event id, vod-{id}, dl-{id} or preroll-{id}).';
    const times = body.times === undefined ? undefined : Number(body.times);
    if (times !== undefined && !(Number.isInteger(times) && times > 0)) return 'times must be a positive integer.';
    const delayMs = body.delay_ms === undefined ? 0 : Number(body.delay_ms);
    if (!(Number.isInteger(delayMs) && delayMs >= 0 && delayMs <= 60_000))
      return 'delay_ms must be an integer from 0 to 60000.';
    const targets: Array<[string, MediaRequestKind[]]> = [
      ['manifest', MANIFEST_KINDS],
      ['segment', ['segment']],
      ['subtitles', ['subtitles']],
      ['download', ['download']],
    ];
    const added: Fault[] = [];
    for (const [field, kinds] of targets) {
      const value = body[field];
      if (value === undefined) continue;
      const once = value === 'once';
      const status = once ? 500 : Number(value);
      if (!(Number.isInteger(status) && status >= 400 && status <= 599))
        return `${field} must be 'once' or an HTTP error status (400-599).`;
      added.push({ stream: String(stream), kinds, status, remaining: once ? 1 : (times ?? null), delayMs });
    }
    if (added.length === 0) {
      if (delayMs === 0) return 'Give manifest, segment, subtitles, download or delay_ms.';
      added.push({ stream: String(stream), kinds: ['segment'], status: null, remaining: times ?? null, delayMs });
    }
    this.faults.push(...added);
    return added;
  }

  /** Drops the faults of one stream, or all. */
  clear(stream?: string): void {
    this.faults = stream === undefined ? [] : this.faults.filter((f) => f.stream !== stream);
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** The fault that hits this request, counted; undefined when none does. */
  take(stream: string, kind: MediaRequestKind): Fault | undefined {
    const fault = this.faults.find((f) => f.stream === stream && f.kinds.includes(kind));
    if (!fault) return undefined;
    if (fault.remaining !== null && --fault.remaining <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
    return fault;
  }
}

/** The last media requests, newest last (bounded). */
export class MediaRequestLog {
  private entries: MediaRequest[] = [];
  private nextId = 1;

  add(entry: Omit<MediaRequest, 'id'>): void {
    this.entries.push({ id: this.nextId++, ...entry });
    if (this.entries.length > 5000) this.entries.splice(0, 1000);
  }

  /** Requests at or after `since` (server ms), after the id `after`, of one stream; each filter optional. */
  query(filter: { since?: number; after?: number; stream?: string }): MediaRequest[] {
    return this.entries.filter(
      (e) =>
        (filter.since === undefined || e.at >= filter.since) &&
        (filter.after === undefined || e.id > filter.after) &&
        (filter.stream === undefined || e.stream === filter.stream),
    );
  }

  clear(): void {
    this.entries = [];
  }
}

export interface MediaServerOptions {
  library: MediaLibrary;
  /** The HMAC key of playback URLs. */
  secret: string;
  /** The client address a request counts as (the one URLs are bound to). */
  addressOf(req: IncomingMessage): string;
  /** Whether to keep the log of media requests (`requests`, for the dev endpoints). */
  logRequests?: boolean;
  /** How long a playback URL lives; default two hours. */
  ttlSeconds?: number;
  /** Wall clock, ms. */
  now: () => number;
  /** What a signed stream id plays now (read per request: an event goes live, finishes, is rescheduled). */
  resolve(stream: string): Promise<StreamTarget>;
  /** The media of a preroll id, if there is such a preroll. */
  preroll(id: number): Promise<Asset | undefined>;
}

export class MediaServer {
  readonly faults = new Faults();
  readonly requests = new MediaRequestLog();
  private readonly ttl: number;
  /** Signatures by what they sign: expiries are rounded up to the minute, so lists reuse them. Bounded. */
  private readonly signatures = new BoundedMap<string, string>(50_000);

  constructor(private readonly options: MediaServerOptions) {
    this.ttl = options.ttlSeconds ?? 2 * 3600;
  }

  /** How long a signed URL holds (before its rounding up to the minute). */
  get ttlSeconds(): number {
    return this.ttl;
  }

  private hmac(stream: string, expiry: number, viewer: string, address: string): string {
    return createHmac('sha256', this.options.secret)
      .update(`media:${stream}.${expiry}.${viewer}.${address}`)
      .digest('base64url');
  }

  /** The viewer part of a grant: a keyed digest of the identity, so the URL names nobody. */
  private viewerTag(identity: string): string {
    return createHmac('sha256', this.options.secret).update(`viewer:${identity}`).digest('base64url').slice(0, 16);
  }

  /** The signature for URLs this server hands out (cached: checks of what clients send use hmac()). */
  private sign(stream: string, expiry: number, viewer: string, address: string): string {
    const key = `${stream}.${expiry}.${viewer}.${address}`;
    let signature = this.signatures.get(key);
    if (!signature) {
      signature = this.hmac(stream, expiry, viewer, address);
      this.signatures.set(key, signature);
    }
    return signature;
  }

  /**
   * A playback URL for `stream` on `origin`, valid for the TTL (rounded up to the minute), for one viewer (`u:{id}`
   * or `k:{api key}`) at one client address.
   */
  signedUrl(origin: string, stream: string, to: MediaViewer, file = 'master.m3u8'): string {
    const expiry = Math.ceil((Math.floor(this.options.now() / 1000) + this.ttl) / 60) * 60;
    const viewer = this.viewerTag(to.identity);
    const grant = `${expiry}.${viewer}.${this.sign(stream, expiry, viewer, to.address)}`;
    return new URL(`/media/s/${grant}/${stream}/${file}`, origin).href;
  }

  /** Why a grant does not open this stream for this address, or undefined when it does. */
  private check(grant: string, stream: string, address: string): string | undefined {
    const m = /^(\d{1,12})\.([\w-]{16})\.([\w-]{43})$/.exec(grant);
    if (!m) return 'Invalid playback URL.';
    const [, expiry, viewer, signature] = m as unknown as [string, string, string, string];
    const expected = Buffer.from(this.hmac(stream, Number(expiry), viewer, address));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'Invalid playback URL signature.';
    if (Number(expiry) * 1000 <= this.options.now()) return 'The playback URL has expired.';
    return undefined;
  }

  /** Serves `path` when it is a media path (answers true), else leaves the request alone (false). */
  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    let stream: string;
    let rest: string;
    let logPath = path;
    let answer: MediaAnswer | undefined;
    const signed = /^\/media\/s\/([^/]*)\/([^/]+)\/(.+)$/.exec(path);
    const preroll = /^\/media\/prerolls\/(\d+)\/(.+)$/.exec(path);
    if (signed) {
      stream = signed[2]!;
      rest = signed[3]!;
      logPath = `/media/s/-/${stream}/${rest}`;
      const problem = this.check(signed[1]!, stream, this.options.addressOf(req));
      if (problem) answer = refusal(403, problem);
    } else if (preroll) {
      stream = `preroll-${preroll[1]}`;
      rest = preroll[2]!;
    } else if (path.startsWith('/media/s/')) {
      stream = '';
      rest = '';
      logPath = '/media/s/-';
      answer = refusal(403, 'Invalid playback URL.');
    } else {
      return false;
    }

    const kind = classify(rest);
    if (!answer && req.method !== 'GET' && req.method !== 'HEAD') answer = refusal(405, 'Method not allowed.');
    if (!answer && kind === 'unknown') answer = refusal(404, 'Not found.');
    if (!answer && kind !== 'unknown') {
      const fault = this.faults.take(stream, kind);
      if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault?.status) answer = { ...refusal(fault.status, 'Injected fault.'), headers: { 'X-Injected-Fault': '1' } };
    }
    if (!answer && kind !== 'unknown') {
      const target: StreamTarget = preroll
        ? await this.prerollTarget(Number(preroll[1]))
        : await this.options.resolve(stream);
      answer = await this.answer(target, kind, rest);
    }
    if (this.options.logRequests)
      this.requests.add({
        at: this.options.now(),
        method: req.method ?? 'GET',
        stream,
        kind,
        path: logPath,
        status: answer!.status,
      });
    send(req, res, answer!);
    return true;
  }

  private async prerollTarget(id: number): Promise<StreamTarget> {
    const asset = await this.options.preroll(id);
    return asset ? { kind: 'vod', asset } : { kind: 'refused', status: 404, message: 'Preroll not found.' };
  }

  private async answer(target: StreamTarget, kind: MediaRequestKind, rest: string): Promise<MediaAnswer> {
    if (target.kind === 'refused') return refusal(target.status, target.message);
    if (target.kind === 'ingest') return ingestAnswer(target, kind, rest);
    if (target.kind === 'download') {
      if (kind !== 'download') return refusal(404, 'Not found.');
      const { file, bytes } = target.file
        ? { file: target.file.path, bytes: target.file.bytes }
        : {
            file: join(this.options.library.dir, this.options.library.download.file),
            bytes: this.options.library.download.bytes,
          };
      return {
        status: 200,
        type: 'video/mp4',
        body: { file, bytes },
        headers: { 'Content-Disposition': `attachment; filename="${target.filename}"` },
      };
    }
    const files = target.kind === 'vod' ? target.files : undefined;
    if (kind === 'poster' || kind === 'download') {
      if (!files) return refusal(404, 'Not found.');
      if (kind === 'poster')
        return { status: 200, type: 'image/jpeg', body: await readFile(join(files.dir, files.poster)) };
      if (!files.download) return refusal(404, 'Not found.');
      const { file, bytes, filename } = files.download;
      const headers = { 'Content-Disposition': `attachment; filename="${filename}"` };
      return { status: 200, type: 'video/mp4', body: { file: join(files.dir, file), bytes }, headers };
    }
    const { asset } = target;
    if (kind === 'thumbnails') {
      const name = rest.slice(THUMBS_FOLDER.length + 1);
      if (target.thumbnails) return ownThumbnail(target.thumbnails, name);
      if (!asset.thumbnails || (name !== THUMBS_VTT && name !== THUMBS_SPRITE)) return refusal(404, 'Not found.');
      const type = name === THUMBS_VTT ? 'text/vtt; charset=utf-8' : 'image/jpeg';
      // A live event's cues are on the event's clock (see thumbnails.ts); a recording's are its positions.
      if (name === THUMBS_VTT && target.kind === 'live')
        return { status: 200, type, body: liveThumbnailsVtt(asset.duration, LIVE_LEAD * SEGMENT_SECONDS) };
      const data = await readFile(join(this.options.library.dir, asset.thumbnails.folder, name));
      return { status: 200, type, body: data };
    }
    const live = target.kind === 'live';
    const noCache = { 'Cache-Control': 'no-cache' };
    if (kind === 'master') return { status: 200, type: PLAYLIST, body: masterPlaylist(asset), headers: noCache };
    const [trackName, file] = rest.split('/') as [string, string];
    const track: Track | undefined = [...asset.renditions, ...asset.subtitles].find((t) => t.name === trackName);
    if (!track) return refusal(404, 'Not found.');
    if (kind === 'playlist') {
      const now = this.options.now();
      const body = target.kind === 'live' ? livePlaylist(track, target.startMs, now) : vodPlaylist(track);
      return { status: 200, type: PLAYLIST, body, headers: noCache };
    }
    const m = /^(\d{1,9})\.(ts|vtt)$/.exec(file);
    const n = Number(m?.[1]);
    if (!m || m[2] !== segmentExtension(track) || (!live && n >= track.segments.length))
      return refusal(404, 'Not found.');
    const index = n % track.segments.length;
    const data = await readFile(join(files?.dir ?? this.options.library.dir, segmentPath(asset, track, index)));
    return {
      status: 200,
      type: m[2] === 'ts' ? 'video/mp2t' : 'text/vtt; charset=utf-8',
      body: data,
      headers: noCache,
    };
  }
}

/** What a path under a stream asks for. */
function classify(rest: string): MediaRequestKind | 'unknown' {
  if (rest === 'master.m3u8') return 'master';
  if (/^[\w-]+\/index\.m3u8$/.test(rest)) return 'playlist';
  if (/^[\w-]+\/\d+\.ts$/.test(rest)) return 'segment';
  if (/^[\w-]+\/\d+\.vtt$/.test(rest)) return 'subtitles';
  if (/^download\/[\w.-]+\.mp4$/.test(rest)) return 'download';
  if (rest === `${THUMBS_FOLDER}/${THUMBS_VTT}` || rest === `${THUMBS_FOLDER}/${THUMBS_SPRITE}`) return 'thumbnails';
  if (new RegExp(`^${THUMBS_FOLDER}/\\d{1,12}\\.jpg$`).test(rest)) return 'thumbnails';
  if (rest === 'poster.jpg') return 'poster';
  return 'unknown';
}

function send(req: IncomingMessage, res: ServerResponse, answer: MediaAnswer): void {
  const headers = {
    'Content-Type': answer.type,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    ...CORS_HEADERS,
    ...answer.headers,
  };
  // A file (a download): its ETag, ranges and HEAD from files.ts, so a download that broke off resumes.
  if (typeof answer.body === 'object' && !Buffer.isBuffer(answer.body) && answer.status === 200) {
    sendFile(req, res, answer.body.file, headers);
    return;
  }
  const body = answer.body as string | Buffer;
  res.writeHead(answer.status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
