/**
 * An ingest event's HLS folder as nginx's RTMP module writes it (server/media/ingest/nginx-rtmp.conf):
 * INGEST_HLS_DIR/event-{id}/index.m3u8 and its segments `{n}.ts`. This module reads it (parseNginxPlaylist,
 * readHlsFolder) and writes what viewers get from it (ingestMasterPlaylist, ingestMediaPlaylist): the media server
 * (streams.ts) serves them under its signed URLs, and the recording's thumbnails, MP4 and clips read the same folder.
 *
 * nginx keeps every segment of the event in its playlist (hls_playlist_length 12h, hls_cleanup off) and continues
 * the folder and its numbering when a push comes back (hls_continuous on), with `#EXT-X-DISCONTINUITY` before the
 * first segment of each push.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** One segment of the folder: its file (`{n}.ts`), length in seconds, size, and whether a new push starts there. */
export interface HlsSegment {
  file: string;
  duration: number;
  bytes: number;
  discontinuity: boolean;
}

/** What nginx's playlist says, before the files are looked at. */
export interface NginxPlaylist {
  mediaSequence: number;
  segments: Array<Omit<HlsSegment, 'bytes'>>;
}

/** An event's folder: its segments in order, and their total length (the recording's, once finished). */
export interface HlsFolder {
  dir: string;
  mediaSequence: number;
  segments: HlsSegment[];
  /** The sum of the segments' EXTINF, seconds. */
  duration: number;
}

/** A segment file name nginx writes and we serve: digits and `.ts`, nothing that could leave the folder. */
export const SEGMENT_FILE = /^\d{1,12}\.ts$/;

/** The folder of an ingest event under INGEST_HLS_DIR (the `hls` application's stream name is `event-{id}`). */
export const ingestFolder = (hlsDir: string, eventId: number) => join(hlsDir, `event-${eventId}`);

/** Parses nginx's index.m3u8: segments in order (names checked), the media sequence and discontinuities. */
export function parseNginxPlaylist(text: string): NginxPlaylist {
  let mediaSequence = 0;
  let duration: number | undefined;
  let discontinuity = false;
  const segments: NginxPlaylist['segments'] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) mediaSequence = Number(line.slice(22)) || 0;
    else if (line === '#EXT-X-DISCONTINUITY') discontinuity = true;
    else if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice(8));
    else if (line && !line.startsWith('#')) {
      // A line that is not a segment of ours (another name, a path) is skipped with its EXTINF: never served.
      if (SEGMENT_FILE.test(line) && duration !== undefined && Number.isFinite(duration) && duration > 0)
        segments.push({ file: line, duration, discontinuity });
      duration = undefined;
      discontinuity = false;
    }
  }
  return { mediaSequence, segments };
}

/** Reads an event's folder; undefined while nginx has written no playlist there (no push yet). */
export async function readHlsFolder(dir: string): Promise<HlsFolder | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, 'index.m3u8'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = parseNginxPlaylist(text);
  const segments = await Promise.all(
    parsed.segments.map(async (segment) => {
      const bytes = await stat(join(dir, segment.file)).then(
        (s) => s.size,
        () => 0,
      );
      return { ...segment, bytes };
    }),
  );
  const duration = segments.reduce((sum, s) => sum + s.duration, 0);
  return { dir, mediaSequence: parsed.mediaSequence, segments, duration };
}

/** The one variant's folder name in our URLs (`/media/s/{grant}/{event}/source/index.m3u8`). */
export const INGEST_TRACK = 'source';
/** A player needs a BANDWIDTH before any segment exists: a 720p encoder's usual rate. */
const DEFAULT_BANDWIDTH = 3_000_000;

/**
 * The master playlist: one variant, the encoder's own, its BANDWIDTH the peak bit rate of the segments so far and
 * AVERAGE-BANDWIDTH their mean (the encoder's resolution and codecs are not read: players find them in the media).
 */
export function ingestMasterPlaylist(folder: HlsFolder | undefined): string {
  const segments = folder?.segments.filter((s) => s.bytes > 0) ?? [];
  const seconds = segments.reduce((sum, s) => sum + s.duration, 0);
  const bytes = segments.reduce((sum, s) => sum + s.bytes, 0);
  const peak = Math.max(0, ...segments.map((s) => Math.ceil((s.bytes * 8) / s.duration)));
  const average = seconds > 0 ? Math.ceil((bytes * 8) / seconds) : DEFAULT_BANDWIDTH;
  const attributes = [`BANDWIDTH=${peak || DEFAULT_BANDWIDTH}`, `AVERAGE-BANDWIDTH=${average}`];
  return `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:${attributes.join(',')}\n${INGEST_TRACK}/index.m3u8\n`;
}

/**
 * The media playlist: every segment of the event with its relative URI, so the whole event stays seekable. Live:
 * `#EXT-X-PLAYLIST-TYPE:EVENT` (it only grows) and no end; finished: `#EXT-X-PLAYLIST-TYPE:VOD` and
 * `#EXT-X-ENDLIST`, so it plays from the start.
 */
export function ingestMediaPlaylist(folder: HlsFolder | undefined, live: boolean): string {
  const segments = folder?.segments ?? [];
  const target = Math.max(1, ...segments.map((s) => Math.ceil(s.duration)));
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
  return `${lines.join('\n')}\n`;
}
