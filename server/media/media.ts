/**
 * Test media for the reference server, made with ffmpeg at first start into a git-ignored cache folder
 * (server/.media/v{MEDIA_VERSION}/) and reused afterwards:
 *
 * - `main`: a 90 s `testsrc2` picture with a beeping `sine` tone, H.264 (Main@3.0) + AAC in 2 s MPEG-TS segments, in
 *   two renditions (640x360 at ~700 kbps, 320x180 at ~200 kbps), plus English and French WebVTT subtitles cut into
 *   the same 2 s segments, and a thumbnails track (thumbnails.ts: a sprite of one tile per 5 s and its WebVTT).
 *   Event and library streams, live and on demand, are all made of it (see hls.ts). 90 s, so that a clip of the
 *   longest length (60 s) fits in a recording.
 * - `main.mp4`: the same 360p picture as one MP4 file, for downloads, and the source clips are cut from
 *   (clip-jobs.ts).
 * - prerolls: `bars` (6 s of SMPTE colour bars, 880 Hz) and `zoom` (4 s zooming into the Mandelbrot set, 660 Hz),
 *   one 360p rendition each.
 *
 * Everything is made in a scratch folder that is renamed into place once complete, with `manifest.json` written
 * last: a half-finished run (killed, crashed) leaves no manifest and is redone on the next start. Several
 * processes starting at once (the server test files run in parallel) take a lock folder; the ones that wait reuse
 * what the first one made. Bump MEDIA_VERSION when the recipe changes (older versions are deleted).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FFMPEG, FFPROBE, run } from './ffmpeg.js';
import {
  makeThumbnails,
  THUMBS_FOLDER,
  THUMBS_SPRITE,
  THUMBS_VTT,
  vttTime,
  type ThumbnailTrack,
} from './thumbnails.js';
import { log as logger } from '../observability/log.js';

export const MEDIA_VERSION = 2;
/** Every generated segment lasts this long; live playlists advance one segment per this many seconds. */
export const SEGMENT_SECONDS = 2;
/** The length of the recording every event and library item plays, in seconds. */
const MAIN_SECONDS = 90;
export const FRAME_RATE = 25;
/** H.264 Main profile level 3.0 and AAC-LC, as the encoder is told to make them. */
const CODECS = 'avc1.4d401e,mp4a.40.2';

export interface Segment {
  /** File name inside the track's folder. */
  file: string;
  duration: number;
  bytes: number;
}

/** One video rendition (muxed with audio), or one subtitles track. */
export interface Track {
  /** Folder name, also the path segment in playlist URLs: `360p`, `180p`, `subs-en`. */
  name: string;
  segments: Segment[];
}

export interface VideoRendition extends Track {
  width: number;
  height: number;
  /** Peak segment bit rate (bits/s), for BANDWIDTH. */
  bandwidth: number;
  /** Mean bit rate (bits/s), for AVERAGE-BANDWIDTH. */
  averageBandwidth: number;
  codecs: string;
  frameRate: number;
}

export interface SubtitleTrack extends Track {
  language: string;
  label: string;
}

/** A playable clip: its renditions (best first), subtitles and, for `main`, its thumbnails track. */
export interface Asset {
  name: string;
  duration: number;
  renditions: VideoRendition[];
  subtitles: SubtitleTrack[];
  thumbnails?: ThumbnailTrack;
}

/** What manifest.json records, plus where it lives. */
export interface MediaLibrary {
  version: number;
  /** The folder all paths are relative to. */
  dir: string;
  main: Asset;
  prerolls: Record<string, Asset>;
  /** The MP4 of the main clip, relative to dir. */
  download: { file: string; bytes: number };
  /** How long generation took, in seconds (0 when reused from the cache). */
  generatedSeconds: number;
}

/** The file of a track's segment, relative to the library folder. */
export const segmentPath = (asset: Asset, track: Track, index: number) =>
  join(asset.name, track.name, track.segments[index]!.file);

/** Answers the library under `root`, generating it first when missing or incomplete. */
export async function ensureMedia(
  root: string,
  log: (message: string) => void = (message) => logger().info(message),
): Promise<MediaLibrary> {
  const dir = join(root, `v${MEDIA_VERSION}`);
  const cached = readManifest(dir);
  if (cached) return cached;
  mkdirSync(root, { recursive: true });
  const release = await lock(join(root, `v${MEDIA_VERSION}.lock`));
  try {
    const made = readManifest(dir); // another process may have finished it while we waited
    if (made) return made;
    // Made in a scratch folder and renamed when complete: ffmpeg processes orphaned by a killed run keep writing
    // into their own scratch folder, never into the one in use. Old scratch folders and versions go.
    for (const name of readdirSync(root)) {
      if (/^v\d+(\.tmp-\d+)?$/.test(name)) rmSync(join(root, name), { recursive: true, force: true });
    }
    const scratch = `${dir}.tmp-${process.pid}`;
    const started = performance.now();
    log(`[channel-server] making test media with ffmpeg in ${dir} (first start only)`);
    const library = await generate(scratch);
    renameSync(scratch, dir);
    library.dir = dir;
    library.generatedSeconds = Math.round((performance.now() - started) / 100) / 10;
    log(`[channel-server] test media ready in ${library.generatedSeconds} s`);
    return library;
  } finally {
    release();
  }
}

/** The manifest of a complete library, or undefined when there is none, it is of another version or files are missing. */
function readManifest(dir: string): MediaLibrary | undefined {
  let library: MediaLibrary;
  try {
    library = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as MediaLibrary;
  } catch {
    return undefined;
  }
  if (library.version !== MEDIA_VERSION) return undefined;
  library.dir = dir;
  library.generatedSeconds = 0;
  const assets = [library.main, ...Object.values(library.prerolls)];
  const thumbs = library.main.thumbnails;
  if (!thumbs) return undefined;
  const files = [
    library.download.file,
    join(thumbs.folder, THUMBS_VTT),
    join(thumbs.folder, THUMBS_SPRITE),
    ...assets.flatMap((asset) =>
      [...asset.renditions, ...asset.subtitles].flatMap((track) =>
        track.segments.map((_, i) => segmentPath(asset, track, i)),
      ),
    ),
  ];
  return files.every((file) => existsSync(join(dir, file))) ? library : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a process with this id is alive (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A lock folder (mkdir is atomic) holding the owner's pid. A lock whose owner died, or one without a pid that is
 * older than 10 s (its owner died between mkdir and writing the pid), is taken over. Answers the release function.
 */
export async function lock(path: string, timeoutMs = 180_000): Promise<() => void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(path);
      writeFileSync(join(path, 'pid'), String(process.pid));
      return () => rmSync(path, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let stale: boolean;
    try {
      const pid = Number(readFileSync(join(path, 'pid'), 'utf8'));
      stale = !(pid > 0) || !alive(pid);
    } catch {
      stale = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 10_000;
    }
    if (stale) rmSync(path, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`test media: gave up waiting for the lock ${path}`);
    else await sleep(200);
  }
}

/** ffmpeg arguments that encode one HLS rendition (2 s closed GOPs, so every segment starts with a key frame). */
export function hlsOutput(video: string, audio: string, kbps: number, folder: string): string[] {
  return [
    ...['-map', video, '-map', audio],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'main', '-level:v', '3.0', '-pix_fmt', 'yuv420p'],
    ...['-b:v', `${kbps}k`, '-maxrate', `${Math.round(kbps * 1.15)}k`, '-bufsize', `${kbps * 2}k`],
    ...[
      '-g',
      String(FRAME_RATE * SEGMENT_SECONDS),
      '-keyint_min',
      String(FRAME_RATE * SEGMENT_SECONDS),
      '-sc_threshold',
      '0',
    ],
    ...['-c:a', 'aac', '-b:a', '64k', '-ac', '2'],
    ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod'],
    ...['-hls_segment_filename', `${folder}/%d.ts`, `${folder}/index.m3u8`],
  ];
}

/** Lavfi inputs: a picture source (`name` or `name=options`) and a tone, both cut at `seconds` (`-t`). */
function lavfiInputs(picture: string, toneHz: number, seconds: number): string[] {
  const video = `${picture}${picture.includes('=') ? ':' : '='}size=640x360:rate=${FRAME_RATE}`;
  return [
    ...['-f', 'lavfi', '-t', String(seconds), '-i', video],
    ...['-f', 'lavfi', '-t', String(seconds), '-i', `sine=frequency=${toneHz}:beep_factor=4:sample_rate=48000`],
  ];
}

/** Reads ffmpeg's own media playlist for the segment list and measures each segment's size. */
export function readRendition(dir: string, asset: string, name: string, width: number, height: number): VideoRendition {
  const folder = join(dir, asset, name);
  const lines = readFileSync(join(folder, 'index.m3u8'), 'utf8').split('\n');
  const segments: Segment[] = [];
  lines.forEach((line, i) => {
    const m = /^#EXTINF:([\d.]+)/.exec(line);
    if (!m) return;
    const file = lines[i + 1]!.trim();
    segments.push({ file, duration: Number(m[1]), bytes: statSync(join(folder, file)).size });
  });
  rmSync(join(folder, 'index.m3u8')); // the server writes its own playlists
  const bits = (s: Segment) => s.bytes * 8;
  const total = segments.reduce((sum, s) => sum + s.duration, 0);
  return {
    name,
    width,
    height,
    segments,
    bandwidth: Math.ceil(Math.max(...segments.map((s) => bits(s) / s.duration))),
    averageBandwidth: Math.ceil(segments.reduce((sum, s) => sum + bits(s), 0) / total),
    codecs: CODECS,
    frameRate: FRAME_RATE,
  };
}

/** Encodes one asset with one ffmpeg run: one picture source, each rendition scaled from it. */
async function encodeAsset(
  dir: string,
  name: string,
  source: { picture: string; toneHz: number; seconds: number },
  renditions: Array<{ name: string; width: number; height: number; kbps: number }>,
): Promise<Asset> {
  const n = renditions.length;
  for (const r of renditions) mkdirSync(join(dir, name, r.name), { recursive: true });
  const scaled = renditions.map((r, i) => `[s${i}]scale=${r.width}:${r.height}[v${i}]`).join(';');
  const filter = `[0:v]format=yuv420p,split=${n}${renditions.map((_, i) => `[s${i}]`).join('')};${scaled};[1:a]asplit=${n}${renditions.map((_, i) => `[a${i}]`).join('')}`;
  await run(
    FFMPEG,
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
      ...lavfiInputs(source.picture, source.toneHz, source.seconds),
      ...['-filter_complex', filter],
      ...renditions.flatMap((r, i) => hlsOutput(`[v${i}]`, `[a${i}]`, r.kbps, join(name, r.name))),
    ],
    dir,
  );
  const made = renditions.map((r) => readRendition(dir, name, r.name, r.width, r.height));
  return { name, duration: made[0]!.segments.reduce((sum, s) => sum + s.duration, 0), renditions: made, subtitles: [] };
}

/**
 * WebVTT subtitles cut like the video: one file per segment with that segment's cue. X-TIMESTAMP-MAP ties cue
 * time 0 to the first presentation time of the MPEG-TS segments (`firstPts`, 90 kHz), so players line them up.
 */
function writeSubtitles(dir: string, asset: Asset, firstPts: number): SubtitleTrack[] {
  const texts: Record<string, { label: string; cue: (i: number, from: string) => string }> = {
    en: { label: 'English', cue: (i, from) => `Demo caption ${i + 1}: play continues (${from})` },
    fr: { label: 'Français', cue: (i, from) => `Sous-titre démo ${i + 1} : le jeu continue (${from})` },
  };
  const segments = asset.renditions[0]!.segments;
  return Object.entries(texts).map(([language, { label, cue }]) => {
    const name = `subs-${language}`;
    mkdirSync(join(dir, asset.name, name), { recursive: true });
    let at = 0;
    const files = segments.map((segment, i) => {
      const from = vttTime(at);
      const body = `WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:${firstPts},LOCAL:00:00:00.000\n\n${i + 1}\n${from} --> ${vttTime(at + segment.duration)}\n${cue(i, from.slice(3, 8))}\n`;
      at += segment.duration;
      const file = `${i}.vtt`;
      writeFileSync(join(dir, asset.name, name, file), body);
      return { file, duration: segment.duration, bytes: Buffer.byteLength(body) };
    });
    return { name, language, label, segments: files };
  });
}

/** The first presentation time in a TS file, in 90 kHz ticks (the earliest of its streams). */
async function firstPts(file: string, cwd: string): Promise<number> {
  const out = await run(FFPROBE, ['-v', 'error', '-show_entries', 'stream=start_time', '-of', 'csv=p=0', file], cwd);
  const times = out
    .split(/\s+/)
    .map(Number)
    .filter((t) => Number.isFinite(t) && t > 0);
  return Math.round(Math.min(...times) * 90_000);
}

/** Makes everything into `dir` (which must not exist) and writes manifest.json last. */
async function generate(dir: string): Promise<MediaLibrary> {
  mkdirSync(dir, { recursive: true });
  const [main, bars, zoom] = await Promise.all([
    encodeAsset(dir, 'main', { picture: 'testsrc2', toneHz: 440, seconds: MAIN_SECONDS }, [
      { name: '360p', width: 640, height: 360, kbps: 700 },
      { name: '180p', width: 320, height: 180, kbps: 200 },
    ]),
    encodeAsset(dir, 'bars', { picture: 'smptebars', toneHz: 880, seconds: 6 }, [
      { name: '360p', width: 640, height: 360, kbps: 500 },
    ]),
    encodeAsset(dir, 'zoom', { picture: 'mandelbrot', toneHz: 660, seconds: 4 }, [
      { name: '360p', width: 640, height: 360, kbps: 500 },
    ]),
  ]);
  const top = main.renditions[0]!;
  main.subtitles = writeSubtitles(dir, main, await firstPts(join(main.name, top.name, top.segments[0]!.file), dir));

  // The download: the 360p segments joined into one MP4 without re-encoding, index first for progressive playback.
  const concat = `concat:${top.segments.map((s) => join(main.name, top.name, s.file)).join('|')}`;
  await run(
    FFMPEG,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-y',
      '-i',
      concat,
      '-c',
      'copy',
      '-bsf:a',
      'aac_adtstoasc',
      '-movflags',
      '+faststart',
      'main.mp4',
    ],
    dir,
  );

  mkdirSync(join(dir, main.name, THUMBS_FOLDER));
  main.thumbnails = await makeThumbnails(dir, join(main.name, THUMBS_FOLDER), 'main.mp4', main.duration);

  const library: MediaLibrary = {
    version: MEDIA_VERSION,
    dir,
    main,
    prerolls: { bars, zoom },
    download: { file: 'main.mp4', bytes: statSync(join(dir, 'main.mp4')).size },
    generatedSeconds: 0,
  };
  const { dir: _dir, generatedSeconds: _seconds, ...stored } = library;
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(stored, null, 1)}\n`);
  return library;
}
