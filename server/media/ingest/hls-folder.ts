/**
 * An ingest event's HLS folder as nginx's RTMP module writes it (server/media/ingest/nginx-rtmp.conf):
 * INGEST_HLS_DIR/event-{id}/index.m3u8 and its segments `{n}.ts`. This module reads it (parseNginxPlaylist,
 * readHlsFolder, readHlsFolderSync) and writes what viewers get from it (ingestMasterPlaylist, ingestMediaPlaylist):
 * the media server (streams.ts) serves them under its signed URLs, and the recording's thumbnails, MP4 and clips
 * (recording.ts) read the same folder through the same reader.
 *
 * nginx keeps every segment of the event in its playlist (hls_playlist_length 12h, hls_cleanup off) and continues
 * the folder and its numbering when a push comes back (hls_continuous on), with `#EXT-X-DISCONTINUITY` before the
 * first segment of each push.
 *
 * Every viewer polls the media playlist every couple of seconds, and a three-hour game has thousands of segments: a
 * folder is parsed once per version of its index.m3u8 (its inode, size and mtime, read from the open file so that
 * the text and its version agree) and kept in a bounded map, with the media playlists rendered from it. Only the
 * master playlist needs the segments' sizes; they are counted once per new segment, incrementally.
 */
import { closeSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** One segment of the folder's playlist. */
export interface HlsSegment {
  /** Its file name in the folder (`17.ts`). */
  file: string;
  /** Seconds, from its EXTINF. */
  duration: number;
  /** Where it starts in the playlist (the sum of the durations before it). */
  start: number;
  /** A `#EXT-X-DISCONTINUITY` precedes it (the push began or came back). */
  discontinuity: boolean;
}

/** An event's folder as its playlist says: its segments in order and their total length. */
export interface HlsFolder {
  dir: string;
  mediaSequence: number;
  /** nginx's `#EXT-X-TARGETDURATION`, if it wrote one. */
  targetDuration: number | undefined;
  segments: HlsSegment[];
  /** The sum of the segments' EXTINF, seconds (the recording's length, once finished). */
  duration: number;
  /** It has `#EXT-X-ENDLIST`. */
  ended: boolean;
}

/** What a playlist's text says, before the folder is looked at. */
export type NginxPlaylist = Omit<HlsFolder, 'dir'>;

/** A segment file name nginx writes and we serve: digits and `.ts`, nothing that could leave the folder. */
export const SEGMENT_FILE = /^\d{1,12}\.ts$/;

/** What a finished event without segments answers, for its playlists, download and clips alike. */
export const NO_RECORDING = 'This event has no recording.';

/** The folder of an ingest event under INGEST_HLS_DIR (the `hls` application's stream name is `event-{id}`). */
export const ingestFolder = (hlsDir: string, eventId: number) => join(hlsDir, `event-${eventId}`);

/** Parses nginx's index.m3u8: segments in order (names checked) with their starts, the media sequence, the end. */
export function parseNginxPlaylist(text: string): NginxPlaylist {
  let mediaSequence = 0;
  let targetDuration: number | undefined;
  let duration: number | undefined;
  let discontinuity = false;
  let ended = false;
  let start = 0;
  const segments: HlsSegment[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) mediaSequence = Number(line.slice(22)) || 0;
    else if (line.startsWith('#EXT-X-TARGETDURATION:')) {
      const value = Number(line.slice(22));
      targetDuration = Number.isFinite(value) && value > 0 ? value : undefined;
    } else if (line === '#EXT-X-DISCONTINUITY') discontinuity = true;
    else if (line === '#EXT-X-ENDLIST') ended = true;
    else if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice(8));
    else if (!line.startsWith('#')) {
      // A line that is not a segment of ours (another name, a path) is skipped with its EXTINF: never served.
      if (SEGMENT_FILE.test(line) && duration !== undefined && Number.isFinite(duration) && duration > 0) {
        segments.push({ file: line, duration, start, discontinuity });
        start += duration;
      }
      duration = undefined;
      discontinuity = false;
    }
  }
  return { mediaSequence, targetDuration, segments, duration: start, ended };
}

/** The sizes of a folder's segments, counted once per segment (the master playlist's bit rates). */
interface Sizes {
  /** How many of the playlist's first segments are counted. */
  counted: number;
  seconds: number;
  bytes: number;
  /** The highest bit rate of a counted segment. */
  peak: number;
}

/** A folder as read at one version of its index.m3u8. */
interface Cached {
  version: string;
  folder: HlsFolder;
  sizes: Sizes;
  /** The media playlists rendered from it (live and finished). */
  media: Map<boolean, string>;
}

/** At most this many folders are kept (the least recently asked goes first). */
export const FOLDER_CACHE_SIZE = 64;
const cache = new Map<string, Cached>();

const versionOf = (s: Stats) => `${s.ino}:${s.size}:${s.mtimeMs}`;
const noSizes = (): Sizes => ({ counted: 0, seconds: 0, bytes: 0, peak: 0 });

/** Keeps a newly read version; the counted sizes go on when the old segments are still the first ones. */
function remember(dir: string, version: string, text: string): HlsFolder {
  const old = cache.get(dir);
  const folder: HlsFolder = { dir, ...parseNginxPlaylist(text) };
  let sizes = noSizes();
  if (old) {
    const a = old.folder.segments;
    const b = folder.segments;
    const same = (i: number) => a[i]!.file === b[i]?.file && a[i]!.duration === b[i]?.duration;
    let i = 0;
    while (i < old.sizes.counted && same(i)) i++;
    if (i === old.sizes.counted) sizes = old.sizes;
  }
  cache.delete(dir);
  cache.set(dir, { version, folder, sizes, media: new Map() });
  while (cache.size > FOLDER_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return folder;
}

/** The cached folder if its playlist is still at `version` (and marks it recently asked). */
function cached(dir: string, version: string): Cached | undefined {
  const entry = cache.get(dir);
  if (entry?.version !== version) return undefined;
  cache.delete(dir);
  cache.set(dir, entry);
  return entry;
}

/** Forgets a folder (an event's ingest state was reset): the next read starts afresh. */
export function forgetHlsFolder(dir: string): void {
  cache.delete(dir);
}

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Reads an event's folder; undefined while nginx has written no playlist there (no push yet). */
export async function readHlsFolder(dir: string): Promise<HlsFolder | undefined> {
  let handle;
  try {
    handle = await open(join(dir, 'index.m3u8'), 'r');
  } catch (error) {
    if (!missing(error)) throw error;
    cache.delete(dir);
    return undefined;
  }
  try {
    const version = versionOf(await handle.stat());
    return cached(dir, version)?.folder ?? remember(dir, version, await handle.readFile('utf8'));
  } finally {
    await handle.close();
  }
}

/** readHlsFolder() for synchronous callers (the clip span check, the thumbnails track): the same cache. */
export function readHlsFolderSync(dir: string): HlsFolder | undefined {
  let fd: number;
  try {
    fd = openSync(join(dir, 'index.m3u8'), 'r');
  } catch (error) {
    if (!missing(error)) throw error;
    cache.delete(dir);
    return undefined;
  }
  try {
    const version = versionOf(fstatSync(fd));
    return cached(dir, version)?.folder ?? remember(dir, version, readFileSync(fd, 'utf8'));
  } finally {
    closeSync(fd);
  }
}

/** The one variant's folder name in our URLs (`/media/s/{grant}/{event}/source/index.m3u8`). */
export const INGEST_TRACK = 'source';
/** A player needs a BANDWIDTH before any segment exists: a 720p encoder's usual rate. */
const DEFAULT_BANDWIDTH = 3_000_000;

/**
 * The master playlist: one variant, the encoder's own, its BANDWIDTH the peak bit rate of the segments so far and
 * AVERAGE-BANDWIDTH their mean (the encoder's resolution and codecs are not read: players find them in the media).
 * The sizes of segments not counted before are read now (a segment's file is whole once the playlist names it).
 */
export async function ingestMasterPlaylist(folder: HlsFolder | undefined): Promise<string> {
  const entry = folder && cache.get(folder.dir);
  let sizes = noSizes();
  if (folder && entry?.folder === folder) {
    sizes = entry.sizes;
    const next = { ...sizes };
    for (const segment of folder.segments.slice(sizes.counted)) {
      const bytes = await stat(join(folder.dir, segment.file)).then(
        (s) => s.size,
        () => 0,
      );
      if (!bytes) break; // not there (yet): counted on a later ask
      next.counted++;
      next.seconds += segment.duration;
      next.bytes += bytes;
      next.peak = Math.max(next.peak, Math.ceil((bytes * 8) / segment.duration));
    }
    // Another ask may have counted meanwhile: keep whichever counted more.
    if (next.counted > entry.sizes.counted) entry.sizes = next;
    sizes = entry.sizes;
  }
  const average = sizes.seconds > 0 ? Math.ceil((sizes.bytes * 8) / sizes.seconds) : DEFAULT_BANDWIDTH;
  const attributes = [`BANDWIDTH=${sizes.peak || DEFAULT_BANDWIDTH}`, `AVERAGE-BANDWIDTH=${average}`];
  return `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:${attributes.join(',')}\n${INGEST_TRACK}/index.m3u8\n`;
}

/** nginx's hls_fragment in nginx-rtmp.conf (seconds): a segment is cut at the first key frame after it. */
export const INGEST_FRAGMENT_SECONDS = 2;
/**
 * The media playlist's #EXT-X-TARGETDURATION floor: the fragment. nginx cuts at the first key frame after it, so an
 * encoder with a key frame every 2 s (docs/streams.md asks for it) makes 2 s segments from the first one on (the
 * `live` application's wait_key/wait_video start each relay at a key frame). It stays the same for the whole event
 * unless nginx's own value or a segment is longer. A player holds about three target durations behind the live edge
 * (hls.js), so this floor is the viewers' latency: twice it, and they sit 6 s further back.
 */
export const INGEST_TARGET_DURATION = INGEST_FRAGMENT_SECONDS;

/**
 * The media playlist: every segment of the event with its relative URI, so the whole event stays seekable. Live:
 * `#EXT-X-PLAYLIST-TYPE:EVENT` (it only grows) and no end; finished: `#EXT-X-PLAYLIST-TYPE:VOD` and
 * `#EXT-X-ENDLIST`, so it plays from the start. Rendered once per version of the folder.
 */
export function ingestMediaPlaylist(folder: HlsFolder | undefined, live: boolean): string {
  const entry = folder && cache.get(folder.dir);
  const kept = entry?.folder === folder ? entry?.media.get(live) : undefined;
  if (kept) return kept;
  const segments = folder?.segments ?? [];
  const longest = Math.max(0, ...segments.map((s) => Math.round(s.duration)));
  const target = Math.max(INGEST_TARGET_DURATION, Math.ceil(folder?.targetDuration ?? 0), longest);
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${target}`,
    `#EXT-X-MEDIA-SEQUENCE:${folder?.mediaSequence ?? 0}`,
    `#EXT-X-PLAYLIST-TYPE:${live ? 'EVENT' : 'VOD'}`,
  ];
  segments.forEach((segment, i) => {
    // The first segment needs no discontinuity: nothing plays before it.
    if (segment.discontinuity && i > 0) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${segment.duration.toFixed(3)},`, segment.file);
  });
  if (!live) lines.push('#EXT-X-ENDLIST');
  const text = `${lines.join('\n')}\n`;
  if (entry && entry.folder === folder) entry.media.set(live, text);
  return text;
}
