/**
 * The library's pictures: for every seeded item key a JPG thumbnail (480x270) and a silent preview loop (3 s,
 * 320x180, H.264 in an MP4 with its index first), made with ffmpeg at first start into a git-ignored cache folder
 * (server/.media/library-v{LIBRARY_MEDIA_VERSION}/) and served publicly under /media/library/{key}.jpg|.mp4.
 *
 * One ffmpeg run makes them all: a test picture as long as three seconds per item, tinted by the item's library
 * category, cut into one preview per item (`segment`, a key frame forced every 3 s) and sampled once per item for
 * the thumbnails (`fps=1/3`), so each item's thumbnail is the first frame of its preview. About 2 s for 32 items on
 * the 2-core machine. The cache follows media.ts's scheme (its lock and tools): a scratch folder renamed into place
 * when complete, manifest.json written last, a lock folder for processes starting at once. The manifest records
 * the items it was made for; a fixture that adds, removes or recategorises an item remakes the folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { HttpError } from '../http/http.js';
import { FFMPEG, run } from './ffmpeg.js';
import { lock } from './media.js';
import { sendFile } from '../http/files.js';
import { CORS_HEADERS } from '../http/static.js';
import { log as logger } from '../observability/log.js';

/** Bump when the recipe changes (older folders are deleted). */
export const LIBRARY_MEDIA_VERSION = 1;
/** How long each preview loop lasts, in seconds. */
export const PREVIEW_SECONDS = 3;
const FRAME_RATE = 25;
/** How long browsers may reuse a picture before asking again (with its ETag). */
const MAX_AGE_SECONDS = 3600;

/** One item's pictures to make: its key (the file names) and its tint (the library category's position). */
export interface LibraryAssetSpec {
  key: string;
  tint: number;
}

/** A made file, relative to the library folder. */
export interface LibraryFile {
  file: string;
  bytes: number;
  /** A digest of its content (the ETag). */
  etag: string;
}

/** What manifest.json records, plus where it lives. */
export interface LibraryMedia {
  version: number;
  /** The folder the files are in. */
  dir: string;
  /** What it was made for, in the order made. */
  specs: LibraryAssetSpec[];
  /** The files by item key. */
  files: Record<string, { image: LibraryFile; preview: LibraryFile }>;
  /** How long generation took, in seconds (0 when reused from the cache). */
  generatedSeconds: number;
}

/** The public paths of an item's pictures (made absolute on the server's origin by the API). */
export const libraryAssetPaths = (key: string) => ({
  image: `/media/library/${key}.jpg`,
  preview: `/media/library/${key}.mp4`,
});

/** Answers the library's pictures under `root`, making them first when missing, incomplete or made for other items. */
export async function ensureLibraryMedia(
  root: string,
  specs: LibraryAssetSpec[],
  log: (message: string) => void = (message) => logger().info(message),
): Promise<LibraryMedia> {
  const name = `library-v${LIBRARY_MEDIA_VERSION}`;
  const dir = join(root, name);
  if (specs.length === 0) return { version: LIBRARY_MEDIA_VERSION, dir, specs, files: {}, generatedSeconds: 0 };
  const cached = readManifest(dir, specs);
  if (cached) return cached;
  mkdirSync(root, { recursive: true });
  const release = await lock(join(root, `${name}.lock`));
  try {
    const made = readManifest(dir, specs); // another process may have finished it while we waited
    if (made) return made;
    // Only this cache's own folders go (media.ts keeps to its v{N} ones): older versions, this one made for other
    // items, and scratch folders of killed runs.
    for (const entry of readdirSync(root)) {
      if (/^library-v\d+(\.tmp-\d+)?$/.test(entry)) rmSync(join(root, entry), { recursive: true, force: true });
    }
    const scratch = `${dir}.tmp-${process.pid}`;
    const started = performance.now();
    log(`[channel-server] making ${specs.length} library pictures with ffmpeg in ${dir} (first start only)`);
    const library = await generate(scratch, specs);
    renameSync(scratch, dir);
    library.dir = dir;
    library.generatedSeconds = Math.round((performance.now() - started) / 100) / 10;
    log(`[channel-server] library pictures ready in ${library.generatedSeconds} s`);
    return library;
  } finally {
    release();
  }
}

/** The manifest of a complete folder made for exactly these specs, else undefined. */
function readManifest(dir: string, specs: LibraryAssetSpec[]): LibraryMedia | undefined {
  let library: LibraryMedia;
  try {
    library = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as LibraryMedia;
  } catch {
    return undefined;
  }
  if (library.version !== LIBRARY_MEDIA_VERSION || JSON.stringify(library.specs) !== JSON.stringify(specs))
    return undefined;
  library.dir = dir;
  library.generatedSeconds = 0;
  const complete = specs.every(({ key }) => {
    const made = library.files[key];
    return (
      made &&
      [made.image, made.preview].every((f) => statSync(join(dir, f.file), { throwIfNoEntry: false })?.size === f.bytes)
    );
  });
  return complete ? library : undefined;
}

/**
 * The hue rotation (degrees) over time: each spec's tint, by when its three seconds start. Specs come grouped by
 * tint, so the expression steps up only where the tint changes.
 */
function hueExpression(specs: LibraryAssetSpec[]): string {
  const tints = Math.max(...specs.map((s) => s.tint)) + 1;
  const step = 360 / Math.max(tints, 1);
  const terms = [specs[0]!.tint ? String(specs[0]!.tint * step) : '0'];
  specs.forEach((spec, i) => {
    const rise = i > 0 ? spec.tint - specs[i - 1]!.tint : 0;
    if (rise !== 0) terms.push(`${rise * step}*gte(t,${i * PREVIEW_SECONDS})`);
  });
  return terms.join('+');
}

/** Makes every picture into `dir` (which must not exist) with one ffmpeg run, and writes manifest.json last. */
async function generate(dir: string, specs: LibraryAssetSpec[]): Promise<LibraryMedia> {
  mkdirSync(dir, { recursive: true });
  const n = specs.length;
  const seconds = n * PREVIEW_SECONDS;
  await run(
    FFMPEG,
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
      ...['-f', 'lavfi', '-t', String(seconds), '-i', `testsrc2=size=480x270:rate=${FRAME_RATE}`],
      ...[
        '-filter_complex',
        `[0:v]hue=h='${hueExpression(specs)}',format=yuv420p,split[a][b];[a]fps=1/${PREVIEW_SECONDS}[img];[b]scale=320:180[pv]`,
      ],
      // Thumbnails: the first frame of each item's three seconds.
      ...['-map', '[img]', '-frames:v', String(n), '-q:v', '5', '-start_number', '0', 'image-%d.jpg'],
      // Previews: one MP4 per three seconds, each starting on a key frame at time 0, its index first.
      ...['-map', '[pv]', '-an', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30'],
      ...['-profile:v', 'main', '-level:v', '3.0', '-pix_fmt', 'yuv420p'],
      ...['-force_key_frames', `expr:gte(t,n_forced*${PREVIEW_SECONDS})`],
      ...['-f', 'segment', '-segment_time', String(PREVIEW_SECONDS), '-reset_timestamps', '1'],
      ...['-segment_format', 'mp4', '-segment_format_options', 'movflags=+faststart', '-segment_start_number', '0'],
      'preview-%d.mp4',
    ],
    dir,
  );
  const file = (made: string, named: string): LibraryFile => {
    const from = join(dir, made);
    if (!existsSync(from)) throw new Error(`library pictures: ffmpeg made no ${made}`);
    renameSync(from, join(dir, named));
    const data = readFileSync(join(dir, named));
    return {
      file: named,
      bytes: data.length,
      etag: `"${createHash('sha256').update(data).digest('base64url').slice(0, 22)}"`,
    };
  };
  const files: LibraryMedia['files'] = {};
  specs.forEach(({ key }, i) => {
    files[key] = { image: file(`image-${i}.jpg`, `${key}.jpg`), preview: file(`preview-${i}.mp4`, `${key}.mp4`) };
  });
  const library: LibraryMedia = { version: LIBRARY_MEDIA_VERSION, dir, specs, files, generatedSeconds: 0 };
  const { dir: _dir, generatedSeconds: _seconds, ...stored } = library;
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(stored, null, 1)}\n`);
  return library;
}

/**
 * Serves `/media/library/{key}.jpg|.mp4` (answers true), else leaves the request alone (false). Public, cacheable
 * (an hour, then revalidated by ETag), readable from any origin, with byte ranges (Safari plays no video without
 * them). Only the manifest's files are served: the key is looked up, never joined into a path.
 */
export function libraryMediaHandler(
  library: LibraryMedia,
): (req: IncomingMessage, res: ServerResponse, path: string) => boolean {
  const files = new Map(Object.entries(library.files));
  return (req, res, path) => {
    if (!path.startsWith('/media/library/')) return false;
    const m = /^\/media\/library\/([a-z0-9-]+)\.(jpg|mp4)$/.exec(path);
    const made = m ? files.get(m[1]!) : undefined;
    if (!made) throw new HttpError(404, 'Not found.');
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'Method not allowed.');
    const { file, etag } = m![2] === 'jpg' ? made.image : made.preview;
    const headers: Record<string, string> = {
      'Content-Type': m![2] === 'jpg' ? 'image/jpeg' : 'video/mp4',
      'Cache-Control': `public, max-age=${MAX_AGE_SECONDS}`,
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
      ...CORS_HEADERS,
    };
    // 304 by the ETag, ranges and HEAD: files.ts.
    sendFile(req, res, join(library.dir, file), headers);
    return true;
  };
}
