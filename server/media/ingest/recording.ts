/**
 * What the server makes from an ingest event's HLS folder (the one nginx-rtmp writes for the event's push:
 * `index.m3u8` and `{n}.ts`, hls_nested and hls_continuous, so a reconnect adds `#EXT-X-DISCONTINUITY` and the
 * numbering goes on): its thumbnails track, its recording as one MP4, and the source clips and downloads are cut from.
 *
 * - Thumbnails: one small JPEG per INGEST_THUMB_INTERVAL seconds or so (the first frame of the segment that starts
 *   each cue, a key frame), made with ffmpeg on the first request for it and kept in a cache folder of the server's
 *   own (never nginx's folder): made under a scratch name and renamed into place, so several processes asking at
 *   once each see a whole picture. The WebVTT names them relatively (`{n}.jpg`, next to `thumbnails.vtt` under
 *   `thumbs/`), so it works under whatever signed prefix served it.
 *   Cue times: a finished event's are positions in its recording (the playlist from its first segment). A live
 *   event's are on the event's clock, as the player reads a live track (ClipTimeline: the video's time moved onto
 *   seconds since `event_utc_ts`, wrapped around the track's last cue end): the newest segment's end is "now", and
 *   the segments before it lie back from there by their durations, which is how the player itself ties its video
 *   time to the wall clock (session.ts `liveClockMs`: now minus the live edge). Content pushed before the scheduled
 *   start sits at negative times, which WebVTT cannot write: the track's last cue ends at LIVE_THUMBS_LOOP (a day),
 *   so the player's wrap sends those times to `LIVE_THUMBS_LOOP + t`, where their cues are.
 * - The recording: the playlist's segments joined into an MP4 without re-encoding (ffmpeg's concat demuxer, which
 *   lines up the timestamps a reconnect restarts; aac_adtstoasc; faststart for progressive playback), made once the
 *   event is finished, on the first need (a download or a clip), under a lock (media.ts `lock`) so that several
 *   processes make it once, in a scratch file renamed into place.
 * - Every need reads the folder through hls-folder.ts's cached reader (one parser, parsed once per version of
 *   index.m3u8). A picture is made only for a name the track names, once per name at a time, at most
 *   THUMBNAIL_RUNS ffmpeg runs at once per process, and again when its segment file is newer than it (the folder was
 *   reset and pushed again). The recording keeps its size and length in a sidecar (`event-{id}.mp4.json`) with what
 *   it was made from (the playlist's segments), so a download's requests (ranges too) run no ffprobe, and a
 *   recording made from fewer segments than the folder has now (a later push into the folder, a build as the last
 *   segment closed) is made again.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FFMPEG, FFPROBE, run } from '../ffmpeg.js';
import { lock } from '../media.js';
import { vttTime } from '../thumbnails.js';
import { forgetHlsFolder, type HlsFolder, type HlsSegment, NO_RECORDING, readHlsFolderSync } from './hls-folder.js';

export { NO_RECORDING };

/** About how many seconds of video one thumbnail stands for (a cue starts at the first segment past it). */
export const INGEST_THUMB_INTERVAL = 10;
/** Where a live track's clock wraps (seconds): a day, so that early content has room before it (see above). */
export const LIVE_THUMBS_LOOP = 86_400;
/** At most this many ffmpeg runs make pictures at once in one process (the others wait their turn). */
export const THUMBNAIL_RUNS = 2;
const THUMB_WIDTH = 160;
const THUMB_HEIGHT = 90;

/** One segment of the folder's playlist (hls-folder.ts). */
export type FolderSegment = HlsSegment;
/** The folder's playlist as read (hls-folder.ts). */
export type FolderPlaylist = HlsFolder;

/** A segment file name as nginx-rtmp and ffmpeg write them: digits and `.ts`, nothing that leaves the folder. */
const SEGMENT_FILE = /^(\d{1,12})\.ts$/;

/** The folder has no segments: there is nothing to make a recording of. */
export class NoRecording extends Error {
  constructor(readonly dir: string) {
    super(NO_RECORDING);
  }
}

/** One thumbnail cue: from/to in the playlist's own time, and the segment whose first frame it shows. */
interface Cue {
  from: number;
  to: number;
  segment: FolderSegment;
}

/** The cues: one per INGEST_THUMB_INTERVAL seconds or so, each starting with a segment (so on a key frame). */
function cuesOf(playlist: FolderPlaylist, interval: number): Cue[] {
  const cues: Cue[] = [];
  for (const segment of playlist.segments) {
    const last = cues.at(-1);
    if (last && segment.start < last.from + interval - 0.001) last.to = segment.start + segment.duration;
    else cues.push({ from: segment.start, to: segment.start + segment.duration, segment });
  }
  return cues;
}

/** A thumbnail's name (relative to the VTT): the segment's number. */
const pictureOf = (segment: FolderSegment) => `${SEGMENT_FILE.exec(segment.file)![1]}.jpg`;

/**
 * The WebVTT thumbnails track of the folder's playlist. Without `live`, cue times are positions in the recording.
 * With `live`, they are on the event's clock: `edge` is the seconds since the event's scheduled start at which the
 * newest segment ended (the request's moment, for the server), and the track's clock wraps at LIVE_THUMBS_LOOP.
 */
export function folderThumbnailsVtt(
  playlist: FolderPlaylist,
  live?: { edge: number },
  interval = INGEST_THUMB_INTERVAL,
): string {
  const cues = cuesOf(playlist, interval);
  const shift = live ? live.edge - playlist.duration : 0;
  const timed = cues.flatMap(({ from, to, segment }) => {
    if (!live) return [{ from, to, segment, early: false }];
    const a = from + shift;
    const b = to + shift;
    // Before the scheduled start: at the wrapped place; across it: split in two; a loop or more later: not shown.
    if (b <= 0) return [{ from: a + LIVE_THUMBS_LOOP, to: b + LIVE_THUMBS_LOOP, segment, early: true }];
    if (a < 0)
      return [
        { from: a + LIVE_THUMBS_LOOP, to: LIVE_THUMBS_LOOP, segment, early: true },
        { from: 0, to: b, segment, early: false },
      ];
    return a < LIVE_THUMBS_LOOP ? [{ from: a, to: Math.min(b, LIVE_THUMBS_LOOP), segment, early: false }] : [];
  });
  timed.sort((x, y) => x.from - y.from);
  if (live && timed.length) {
    // The newest picture stays until the early ones (or the loop's end), so that the live edge, just past the
    // newest segment, never wraps; the track's last cue ends at the loop.
    const early = timed.find((c) => c.early);
    const newest = timed.filter((c) => !c.early).at(-1);
    if (newest) newest.to = early?.from ?? LIVE_THUMBS_LOOP;
    timed.at(-1)!.to = LIVE_THUMBS_LOOP;
  }
  const text = timed.map((c) => `${vttTime(c.from)} --> ${vttTime(c.to)}\n${pictureOf(c.segment)}`);
  return `WEBVTT\n\n${text.join('\n\n')}\n`;
}

/** The picture names the thumbnails track of a playlist names (its cues' segments). */
export function thumbnailNames(playlist: FolderPlaylist, interval = INGEST_THUMB_INTERVAL): Set<string> {
  return new Set(cuesOf(playlist, interval).map((cue) => pictureOf(cue.segment)));
}

/** Pictures being made in this process, by file: a second ask for one waits for the same run. */
const making = new Map<string, Promise<string>>();
/** ffmpeg runs making pictures in this process: now, the most there were at once, and made in all. */
export const thumbnailRuns = { running: 0, most: 0, made: 0 };
const waitingRuns: Array<() => void> = [];

/** Runs `work` when fewer than THUMBNAIL_RUNS others run (a finished one hands its turn to the next waiting). */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (thumbnailRuns.running >= THUMBNAIL_RUNS) await new Promise<void>((resolve) => waitingRuns.push(resolve));
  else thumbnailRuns.running++;
  thumbnailRuns.most = Math.max(thumbnailRuns.most, thumbnailRuns.running);
  thumbnailRuns.made++;
  try {
    return await work();
  } finally {
    const next = waitingRuns.shift();
    if (next) next();
    else thumbnailRuns.running--;
  }
}

/** The modification time of a file, or undefined when it is not there. */
const mtimeOf = (file: string) => statSync(file, { throwIfNoEntry: false })?.mtimeMs;

/**
 * The file of thumbnail `name` (`{n}.jpg`) of the folder `dir`, made from segment `{n}.ts` into `cacheDir` on the
 * first request (a scratch file renamed into place, so concurrent makers never expose half a picture), and again
 * when the segment is newer than it; undefined when the name is none the thumbnails track names.
 */
export async function folderThumbnail(dir: string, cacheDir: string, name: string): Promise<string | undefined> {
  const m = /^(\d{1,12})\.jpg$/.exec(name);
  if (!m) return undefined;
  const playlist = readHlsFolderSync(dir);
  if (!playlist || !thumbnailNames(playlist).has(name)) return undefined;
  const file = join(cacheDir, name);
  const source = join(dir, `${m[1]}.ts`);
  const made = mtimeOf(file);
  const segment = mtimeOf(source);
  if (segment === undefined) return undefined;
  if (made !== undefined && made >= segment) return file;
  let run = making.get(file);
  if (!run) {
    run = inTurn(() => makePicture(source, cacheDir, file)).finally(() => making.delete(file));
    making.set(file, run);
  }
  return run;
}

/** Makes the picture `file` from the first frame of the segment `source`. */
async function makePicture(source: string, cacheDir: string, file: string): Promise<string> {
  mkdirSync(cacheDir, { recursive: true });
  const scratch = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await run(
      FFMPEG,
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', source],
        ...['-frames:v', '1', '-vf', `scale=${THUMB_WIDTH}:${THUMB_HEIGHT}`, '-q:v', '4', '-f', 'image2', scratch],
      ],
      cacheDir,
    );
    renameSync(scratch, file);
  } finally {
    rmSync(scratch, { force: true });
  }
  return file;
}

/** The concat demuxer's list of segments of the folder `dir`: absolute paths, quoted as its syntax wants. */
const concatList = (dir: string, segments: FolderSegment[]) =>
  segments.map((s) => `file '${join(dir, s.file).replace(/'/g, "'\\''")}'\n`).join('');

/** A made recording: its file, size and length (seconds, as ffprobe read the MP4 when it was made). */
export interface Recording {
  file: string;
  bytes: number;
  duration: number;
  /** This call made it (false: it was there, made before or by another caller or process meanwhile). */
  made: boolean;
}

/** Where an event's recording is kept: DATA_DIR/recordings/event-{id}.mp4. */
export const recordingFile = (dataDir: string, eventId: number) => join(dataDir, 'recordings', `event-${eventId}.mp4`);
/** The recording's sidecar: its size, length and what it was made from. */
const sidecarOf = (file: string) => `${file}.json`;

/** An MP4's length in seconds (its container's duration). */
export async function mp4Duration(file: string): Promise<number> {
  const out = await run(FFPROBE, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], '.');
  return Number(out.trim());
}

/** What a recording was made from: the playlist's segments (how many, the last, their length). */
const sourceOf = (playlist: FolderPlaylist) =>
  `${playlist.segments.length}:${playlist.segments.at(-1)?.file ?? ''}:${playlist.duration.toFixed(3)}`;

/** A sidecar's content. */
interface Sidecar {
  bytes: number;
  duration: number;
  source: string;
}

/** Recordings known in this process, by file: the sidecar as read, and the MP4's mtime when it was read. */
const known = new Map<string, Sidecar & { mtimeMs: number }>();
/** Recordings being checked or made in this process, by file: later callers share the answer. */
const building = new Map<string, Promise<Recording>>();

/**
 * The recording `file` if it is there, whole and made from `source`; its sidecar is read once per version. With
 * `legacy` (under the lock only: no one is making it), an MP4 without a sidecar that is newer than the playlist counts
 * too (its duration NaN: to be probed).
 */
function fresh(file: string, source: string, playlistFile: string, legacy = false): Sidecar | undefined {
  const mp4 = statSync(file, { throwIfNoEntry: false });
  if (!mp4) return undefined;
  let sidecar = known.get(file);
  if (sidecar?.mtimeMs !== mp4.mtimeMs) {
    known.delete(file);
    try {
      const read = JSON.parse(readFileSync(sidecarOf(file), 'utf8')) as Sidecar;
      sidecar = { ...read, mtimeMs: mp4.mtimeMs };
    } catch {
      // Made before sidecars, or the sidecar is being written (outside the lock).
      if (!legacy) return undefined;
      const playlist = statSync(playlistFile, { throwIfNoEntry: false });
      return playlist && mp4.mtimeMs >= playlist.mtimeMs ? { bytes: mp4.size, duration: NaN, source } : undefined;
    }
    if (sidecar.bytes !== mp4.size) return undefined;
    known.set(file, sidecar);
  }
  return sidecar.source === source ? sidecar : undefined;
}

/** Writes the sidecar of `file` (a scratch file renamed into place) and keeps it in memory. */
function writeSidecar(file: string, sidecar: Sidecar): void {
  const scratch = `${sidecarOf(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(scratch, JSON.stringify(sidecar));
  renameSync(scratch, sidecarOf(file));
  known.set(file, { ...sidecar, mtimeMs: statSync(file).mtimeMs });
}

/**
 * The recording of the folder `dir` as the MP4 `file`, made on the first call (later calls, in this process or
 * another, find it made; calls while it is being made in this process share that making) and made again when the
 * folder has other segments than it was made from. Throws NoRecording when the folder has no segments. The caller
 * asks once the event is finished (a recording made while live is made again at the next need after it grew).
 */
export function ensureRecording(dir: string, file: string): Promise<Recording> {
  const pending = building.get(file);
  if (pending) return pending.then((recording) => ({ ...recording, made: false }));
  const work = makeRecording(dir, file).finally(() => building.delete(file));
  building.set(file, work);
  return work;
}

async function makeRecording(dir: string, file: string): Promise<Recording> {
  const playlist = readHlsFolderSync(dir);
  if (!playlist?.segments.length) throw new NoRecording(dir);
  const source = sourceOf(playlist);
  const playlistFile = join(dir, 'index.m3u8');
  const found = async (sidecar: Sidecar): Promise<Recording> => {
    if (Number.isNaN(sidecar.duration)) {
      // An MP4 without a sidecar: probed once, and the sidecar written for the next asks.
      sidecar = { bytes: statSync(file).size, duration: await mp4Duration(file), source };
      writeSidecar(file, sidecar);
    }
    return { file, bytes: sidecar.bytes, duration: sidecar.duration, made: false };
  };
  const ready = fresh(file, source, playlistFile);
  if (ready) return found(ready);
  mkdirSync(dirname(file), { recursive: true });
  const release = await lock(`${file}.lock`, 600_000);
  try {
    // Another process may have made it while this one waited; the folder may have grown meanwhile too.
    const current = readHlsFolderSync(dir) ?? playlist;
    const now = sourceOf(current);
    known.delete(file);
    const made = fresh(file, now, playlistFile, true);
    if (made) return await found(made);
    // The concat demuxer's list: absolute paths (the list lives beside the output, not in nginx's folder).
    const unique = `${process.pid}-${randomBytes(4).toString('hex')}`;
    const list = `${file}.${unique}.txt`;
    const scratch = `${file}.${unique}.tmp.mp4`;
    writeFileSync(list, concatList(dir, current.segments));
    try {
      await run(
        FFMPEG,
        [
          ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-f', 'concat', '-safe', '0', '-i', list],
          ...['-c', 'copy', '-bsf:a', 'aac_adtstoasc', '-movflags', '+faststart', scratch],
        ],
        dirname(file),
      );
      const sidecar = { bytes: statSync(scratch).size, duration: await mp4Duration(scratch), source: now };
      rmSync(sidecarOf(file), { force: true });
      renameSync(scratch, file);
      writeSidecar(file, sidecar);
      return { file, bytes: sidecar.bytes, duration: sidecar.duration, made: true };
    } finally {
      rmSync(list, { force: true });
      rmSync(scratch, { force: true });
    }
  } finally {
    release();
  }
}

/** The cut source of a clip: an MP4 (seconds `offset` on) or the folder's segments while the event is live. */
export interface ClipInput {
  /** ffmpeg input arguments that start at the clip's first frame (give `-t` after them, or `-frames:v`). */
  args: string[];
  /** Clean-up after the cut (a concat list). */
  done(): void;
}

/**
 * The ingest side of one server: where nginx writes each event's folder (`{hlsDir}/event-{id}/`) and where the
 * server keeps what it makes from it (`{dataDir}/recordings/`: the MP4s, and `thumbs/event-{id}/` the pictures).
 */
export class IngestMedia {
  constructor(
    readonly hlsDir: string,
    readonly dataDir: string,
  ) {}

  /** The event's HLS folder (nginx's). */
  folder(eventId: number): string {
    return join(this.hlsDir, `event-${eventId}`);
  }

  /** The folder's playlist (hls-folder.ts's cached reader), or undefined before the push. */
  playlist(eventId: number): FolderPlaylist | undefined {
    return readHlsFolderSync(this.folder(eventId));
  }

  /** The finished event's recording, made on the first call. */
  recording(eventId: number): Promise<Recording> {
    return ensureRecording(this.folder(eventId), recordingFile(this.dataDir, eventId));
  }

  /** Where the event's thumbnails are kept. */
  thumbsDir(eventId: number): string {
    return join(this.dataDir, 'recordings', 'thumbs', `event-${eventId}`);
  }

  /**
   * Forgets what was made from the event's folder: its recording (the MP4 and its sidecar), its thumbnails and the
   * cached playlist, for a push that starts again after the event finished (on_publish) or an operator's reset of
   * its ingest (which clears the folder too): the next need makes them anew from the folder.
   */
  discard(eventId: number): void {
    const file = recordingFile(this.dataDir, eventId);
    rmSync(file, { force: true });
    rmSync(sidecarOf(file), { force: true });
    known.delete(file);
    rmSync(this.thumbsDir(eventId), { recursive: true, force: true });
    forgetHlsFolder(this.folder(eventId));
  }

  /** The thumbnails track (see folderThumbnailsVtt), or undefined before the push's first segment. */
  thumbnailsVtt(eventId: number, live?: { edge: number }): string | undefined {
    const playlist = this.playlist(eventId);
    return playlist?.segments.length ? folderThumbnailsVtt(playlist, live) : undefined;
  }

  /** A thumbnail's file (`{n}.jpg`), made on the first request; undefined for a name that is no thumbnail. */
  thumbnail(eventId: number, name: string): Promise<string | undefined> {
    return folderThumbnail(this.folder(eventId), this.thumbsDir(eventId), name);
  }

  /**
   * Where a clip of `seconds` from `offset` (seconds into the event's playlist) is cut: the recording once the event
   * is `finished` (made now if it is not yet), else the segments that cover it, joined by the concat demuxer.
   */
  async clipInput(eventId: number, offset: number, seconds: number, finished: boolean): Promise<ClipInput> {
    if (finished) {
      const { file } = await this.recording(eventId);
      return { args: ['-ss', String(offset), '-i', file], done: () => undefined };
    }
    const playlist = this.playlist(eventId);
    const covering = (playlist?.segments ?? []).filter(
      (s) => s.start + s.duration > offset && s.start < offset + seconds,
    );
    if (!covering.length) throw new Error('the live stream has no segments at the clip\u2019s time');
    const list = join(
      this.dataDir,
      'recordings',
      `clip-${eventId}-${process.pid}-${randomBytes(4).toString('hex')}.txt`,
    );
    mkdirSync(dirname(list), { recursive: true });
    const folder = this.folder(eventId);
    writeFileSync(list, concatList(folder, covering));
    const skip = Math.max(0, offset - covering[0]!.start);
    return {
      args: ['-f', 'concat', '-safe', '0', '-i', list, '-ss', String(skip)],
      done: () => rmSync(list, { force: true }),
    };
  }
}
