/**
 * The media server's answers for an ingest event (streams.ts hands its requests here): its playlists from its HLS
 * folder (hls-folder.ts, read through its cache), its segments, and a stream's own thumbnails track (recording.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { THUMBS_FOLDER, THUMBS_VTT } from '../thumbnails.js';
import {
  INGEST_TRACK,
  ingestMasterPlaylist,
  ingestMediaPlaylist,
  NO_RECORDING,
  readHlsFolder,
  SEGMENT_FILE,
} from './hls-folder.js';

/** A thumbnails track of a stream's own (an ingest event's): its WebVTT text and its pictures' files, made on demand. */
export interface ThumbnailSource {
  /** The WebVTT text, or undefined when there is nothing to show yet. */
  vtt(): string | undefined;
  /** The file of a picture the VTT names, or undefined when the name is none of them. */
  picture(name: string): Promise<string | undefined>;
}

/** What an ingest event's stream plays (streams.ts StreamTarget `ingest`). */
export interface IngestTarget {
  /** Its HLS folder (nginx's). */
  dir: string;
  /** Live while its push lasts, then its recording. */
  live: boolean;
  thumbnails?: ThumbnailSource;
}

/** A media answer before it is sent. */
export interface MediaAnswer {
  status: number;
  type: string;
  body: string | Buffer | { file: string; bytes: number };
  headers?: Record<string, string>;
}

export const PLAYLIST = 'application/vnd.apple.mpegurl';
export const refusal = (status: number, message: string): MediaAnswer => ({
  status,
  type: 'application/json; charset=utf-8',
  body: JSON.stringify({ message }),
});

/**
 * An ingest event's answers: its playlists (ingest/hls-folder.ts, read through its cache) and segments (names
 * checked: digits and .ts). A finished event whose folder has no segment has no recording: 404 for all of it.
 */
export async function ingestAnswer(
  target: IngestTarget,
  /** The request's kind (streams.ts MediaRequestKind). */
  kind: string,
  rest: string,
): Promise<MediaAnswer> {
  const [trackName, file = ''] = rest.split('/');
  if (!target.live && !(await readHlsFolder(target.dir))?.segments.length) return refusal(404, NO_RECORDING);
  if (kind === 'thumbnails')
    return target.thumbnails
      ? ownThumbnail(target.thumbnails, rest.slice(THUMBS_FOLDER.length + 1))
      : refusal(404, 'Not found.');
  const folder = kind === 'master' || kind === 'playlist' ? await readHlsFolder(target.dir) : undefined;
  if (kind === 'master') return { status: 200, type: PLAYLIST, body: await ingestMasterPlaylist(folder) };
  if (trackName !== INGEST_TRACK) return refusal(404, 'Not found.');
  if (kind === 'playlist') return { status: 200, type: PLAYLIST, body: ingestMediaPlaylist(folder, target.live) };
  if (kind !== 'segment' || !SEGMENT_FILE.test(file)) return refusal(404, 'Not found.');
  // A segment never changes once written: it may be kept (a playlist grows: send() marks it no-cache).
  const data = await readFile(join(target.dir, file)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!data) return refusal(404, 'Not found.');
  return { status: 200, type: 'video/mp2t', body: data, headers: { 'Cache-Control': 'private, max-age=3600' } };
}

/** A thumbnails file of a stream's own track (`thumbnails.vtt` or one of its pictures). */
export async function ownThumbnail(source: ThumbnailSource, name: string): Promise<MediaAnswer> {
  if (name === THUMBS_VTT) {
    const vtt = source.vtt();
    return vtt === undefined
      ? refusal(404, 'No thumbnails yet.')
      : { status: 200, type: 'text/vtt; charset=utf-8', body: vtt };
  }
  const file = await source.picture(name);
  return file ? { status: 200, type: 'image/jpeg', body: await readFile(file) } : refusal(404, 'Not found.');
}
