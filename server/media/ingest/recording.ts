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
 *
 * The folder's playlist is read by readFolderPlaylist() alone (one function, so that it can be shared with the
 * serving of the folder).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { FFMPEG, FFPROBE, run } from '../ffmpeg.js';
import { lock } from '../media.js';
import { vttTime } from '../thumbnails.js';

/** About how many seconds of video one thumbnail stands for (a cue starts at the first segment past it). */
export const INGEST_THUMB_INTERVAL = 10;
/** Where a live track's clock wraps (seconds): a day, so that early content has room before it (see above). */
export const LIVE_THUMBS_LOOP = 86_400;
const THUMB_WIDTH = 160;
const THUMB_HEIGHT = 90;

/** One segment of the folder's playlist. */
export interface FolderSegment {
  /** Its file name in the folder (`17.ts`). */
  file: string;
  /** Seconds, from its EXTINF. */
  duration: number;
  /** Where it starts in the playlist (the sum of the durations before it). */
  start: number;
  /** A `#EXT-X-DISCONTINUITY` precedes it (the push began or came back). */
  discontinuity: boolean;
}

/** The folder's playlist as read. */
export interface FolderPlaylist {
  segments: FolderSegment[];
  /** The sum of the segments' durations. */
  duration: number;
  /** It has `#EXT-X-ENDLIST`. */
  ended: boolean;
}

/** A segment file name as nginx-rtmp and ffmpeg write them: digits and `.ts`, nothing that leaves the folder. */
const SEGMENT_FILE = /^(\d{1,12})\.ts$/;

/** Reads a media playlist's text: its segments (plain file names only; others are skipped) in order. */
export function parseFolderPlaylist(text: string): FolderPlaylist {
  const segments: FolderSegment[] = [];
  let start = 0;
  let duration: number | undefined;
  let discontinuity = false;
  let ended = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const inf = /^#EXTINF:([\d.]+)/.exec(line);
    if (inf) duration = Number(inf[1]);
    else if (line === '#EXT-X-DISCONTINUITY') discontinuity = true;
    else if (line === '#EXT-X-ENDLIST') ended = true;
    else if (!line.startsWith('#')) {
      if (duration !== undefined && Number.isFinite(duration) && SEGMENT_FILE.test(line)) {
        segments.push({ file: line, duration, start, discontinuity });
        start += duration;
      }
      duration = undefined;
      discontinuity = false;
    }
  }
  return { segments, duration: start, ended };
}

/** The playlist of the folder `dir` (`index.m3u8`), or undefined when it has none (no push yet). */
export function readFolderPlaylist(dir: string): FolderPlaylist | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, 'index.m3u8'), 'utf8');
  } catch {
    return undefined;
  }
  return parseFolderPlaylist(text);
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

/**
 * The file of thumbnail `name` (`{n}.jpg`) of the folder `dir`, made from segment `{n}.ts` into `cacheDir` on the
 * first request (a scratch file renamed into place, so concurrent makers never expose half a picture); undefined
 * when the name is no segment of the playlist.
 */
export async function folderThumbnail(dir: string, cacheDir: string, name: string): Promise<string | undefined> {
  const m = /^(\d{1,12})\.jpg$/.exec(name);
  if (!m) return undefined;
  const file = join(cacheDir, name);
  if (existsSync(file)) return file;
  const segment = `${m[1]}.ts`;
  if (!readFolderPlaylist(dir)?.segments.some((s) => s.file === segment)) return undefined;
  mkdirSync(cacheDir, { recursive: true });
  const scratch = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await run(
      FFMPEG,
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', join(dir, segment)],
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

/** A made recording: its file, size and length (seconds, as ffprobe reads the MP4). */
export interface Recording {
  file: string;
  bytes: number;
  duration: number;
  /** This call made it (false: it was there, made before or by another process meanwhile). */
  made: boolean;
}

/** Where an event's recording is kept: DATA_DIR/recordings/event-{id}.mp4. */
export const recordingFile = (dataDir: string, eventId: number) => join(dataDir, 'recordings', `event-${eventId}.mp4`);

/** An MP4's length in seconds (its container's duration). */
export async function mp4Duration(file: string): Promise<number> {
  const out = await run(FFPROBE, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], '.');
  return Number(out.trim());
}

/**
 * The recording of the folder `dir` as the MP4 `file`, made on the first call (later calls, in this process or
 * another, find it made). Throws when the folder has no segments. The caller asks only once the event is finished:
 * a recording made earlier would miss the end (delete the file to have it made again).
 */
export async function ensureRecording(dir: string, file: string): Promise<Recording> {
  const answer = async (made: boolean): Promise<Recording> => ({
    file,
    bytes: statSync(file).size,
    duration: await mp4Duration(file),
    made,
  });
  if (existsSync(file)) return answer(false);
  mkdirSync(dirname(file), { recursive: true });
  const release = await lock(`${file}.lock`, 600_000);
  try {
    if (existsSync(file)) return await answer(false); // another process made it while this one waited
    const playlist = readFolderPlaylist(dir);
    if (!playlist?.segments.length) throw new Error(`the ingest folder ${basename(dir)} has no segments`);
    // The concat demuxer's list: absolute paths (the list lives beside the output, not in nginx's folder).
    const list = `${file}.${process.pid}.txt`;
    const scratch = `${file}.${process.pid}.tmp.mp4`;
    writeFileSync(list, concatList(dir, playlist.segments));
    try {
      await run(
        FFMPEG,
        [
          ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-f', 'concat', '-safe', '0', '-i', list],
          ...['-c', 'copy', '-bsf:a', 'aac_adtstoasc', '-movflags', '+faststart', scratch],
        ],
        dirname(file),
      );
      renameSync(scratch, file);
    } finally {
      rmSync(list, { force: true });
      rmSync(scratch, { force: true });
    }
    return await answer(true);
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

  playlist(eventId: number): FolderPlaylist | undefined {
    return readFolderPlaylist(this.folder(eventId));
  }

  /** The finished event's recording, made on the first call. */
  recording(eventId: number): Promise<Recording> {
    return ensureRecording(this.folder(eventId), recordingFile(this.dataDir, eventId));
  }

  /**
   * Forgets the event's recording, for a push that starts again after the event finished (on_publish):
   * the next need makes them anew from the folder, which goes on where it stopped.
   */
  discard(eventId: number): void {
    rmSync(recordingFile(this.dataDir, eventId), { force: true });
  }

  /** The thumbnails track (see folderThumbnailsVtt), or undefined before the push's first segment. */
  thumbnailsVtt(eventId: number, live?: { edge: number }): string | undefined {
    const playlist = this.playlist(eventId);
    return playlist?.segments.length ? folderThumbnailsVtt(playlist, live) : undefined;
  }

  /** A thumbnail's file (`{n}.jpg`), made on the first request; undefined for a name that is no thumbnail. */
  thumbnail(eventId: number, name: string): Promise<string | undefined> {
    return folderThumbnail(this.folder(eventId), join(this.dataDir, 'recordings', 'thumbs', `event-${eventId}`), name);
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
