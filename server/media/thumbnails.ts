/**
 * A thumbnails track for timelines (the clip maker's scrubbing previews): one sprite JPG of 160x90 tiles, one
 * tile per THUMBNAIL_INTERVAL seconds of an asset, and a WebVTT file with one cue per tile whose text is
 * `sprite.jpg#xywh=x,y,w,h` (a media fragment; the URL is relative, so it resolves against the VTT's own URL and
 * works under whatever signed prefix served it). Made once with the test media (media.ts) and served by the media
 * server under a stream's folder: `.../{stream}/thumbs/thumbnails.vtt` and `.../{stream}/thumbs/sprite.jpg`.
 *
 * A live stream loops over its asset: the live position at `t` seconds after the event's scheduled start shows
 * asset offset `(t + LIVE_LEAD * SEGMENT_SECONDS) mod duration` (hls.ts). A live event's track is therefore cued
 * on the event's clock, wrapped around the loop (`liveThumbnailsVtt`): a client takes the cue at
 * `(seconds since event_utc_ts) mod (the last cue's end)`, without knowing the server's live lead.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FFMPEG, run } from './ffmpeg.js';

/** Seconds of video per thumbnail. */
export const THUMBNAIL_INTERVAL = 5;
const TILE_WIDTH = 160;
const TILE_HEIGHT = 90;
const COLUMNS = 6;

/** The URL path of the track under a stream's folder, and its file names. */
export const THUMBS_FOLDER = 'thumbs';
export const THUMBS_VTT = 'thumbnails.vtt';
export const THUMBS_SPRITE = 'sprite.jpg';

/** A made thumbnails track: where its files are (relative to the library folder) and its tiles. */
export interface ThumbnailTrack {
  /** Folder of `thumbnails.vtt` and `sprite.jpg`, relative to the library folder. */
  folder: string;
  interval: number;
  count: number;
}

/** `HH:MM:SS.mmm` for WebVTT cue times. */
export function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (v: number, width = 2) => String(v).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** A tile's place in the sprite. */
const tileOf = (i: number) =>
  `${THUMBS_SPRITE}#xywh=${(i % COLUMNS) * TILE_WIDTH},${Math.floor(i / COLUMNS) * TILE_HEIGHT},${TILE_WIDTH},${TILE_HEIGHT}`;

/**
 * The WebVTT text of a live event's track: cues on the event's clock modulo the loop (`duration`), each showing the
 * tile of the asset offset the live stream plays then, `(t + lead) mod duration`; a tile split by the wrap is two cues.
 */
export function liveThumbnailsVtt(duration: number, lead: number, interval = THUMBNAIL_INTERVAL): string {
  const count = Math.ceil(duration / interval);
  const cues: Array<{ from: number; to: number; tile: number }> = [];
  const wrap = (t: number) => ((t % duration) + duration) % duration;
  for (let i = 0; i < count; i++) {
    const from = wrap(i * interval - lead);
    const length = Math.min((i + 1) * interval, duration) - i * interval;
    if (from + length <= duration) cues.push({ from, to: from + length, tile: i });
    else cues.push({ from, to: duration, tile: i }, { from: 0, to: from + length - duration, tile: i });
  }
  cues.sort((a, b) => a.from - b.from);
  const text = cues.map((c) => `${vttTime(c.from)} --> ${vttTime(c.to)}\n${tileOf(c.tile)}`);
  return `WEBVTT\n\n${text.join('\n\n')}\n`;
}

/** The WebVTT text: cue i covers [i * interval, min((i + 1) * interval, duration)) and shows tile i. */
export function thumbnailsVtt(duration: number, interval = THUMBNAIL_INTERVAL): string {
  const count = Math.ceil(duration / interval);
  const cues: string[] = [];
  for (let i = 0; i < count; i++) {
    const from = vttTime(i * interval);
    const to = vttTime(Math.min((i + 1) * interval, duration));
    cues.push(`${from} --> ${to}\n${tileOf(i)}`);
  }
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/**
 * Makes the sprite of `input` (a video file, relative to `dir`) and its VTT into `dir/folder` (which exists). The
 * `fps` filter picks the frame at the start of each interval; `tile` lays them out in rows of 6.
 */
export async function makeThumbnails(
  dir: string,
  folder: string,
  input: string,
  duration: number,
): Promise<ThumbnailTrack> {
  const count = Math.ceil(duration / THUMBNAIL_INTERVAL);
  const rows = Math.ceil(count / COLUMNS);
  await run(
    FFMPEG,
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', input],
      ...['-vf', `fps=1/${THUMBNAIL_INTERVAL},scale=${TILE_WIDTH}:${TILE_HEIGHT},tile=${COLUMNS}x${rows}`],
      ...['-frames:v', '1', '-q:v', '4', join(folder, THUMBS_SPRITE)],
    ],
    dir,
  );
  writeFileSync(join(dir, folder, THUMBS_VTT), thumbnailsVtt(duration));
  return { folder, interval: THUMBNAIL_INTERVAL, count };
}
