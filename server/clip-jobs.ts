/**
 * The clip job queue: clips are cut for real with ffmpeg from the test recording (media.ts `main.mp4`, 90 s).
 *
 * States (the `clips` table): `queued` (waiting for a slot), `processing` (ffmpeg running; `progress` 0-100 from
 * ffmpeg's `-progress pipe:1` out_time), `done`, `failed` (ffmpeg failed; `error` says why, clients see only the
 * state). At most `concurrency` jobs run at once (1 or 2; default 2), the rest wait in order.
 *
 * What a job makes, in DATA_DIR/clips/{id}/ (made in `{id}.tmp` and renamed when complete, so a folder that exists
 * is whole): one 360p HLS rendition (360p/{n}.ts, 2 s closed GOPs as media.ts makes them), `clip.mp4` (the same
 * segments joined, index first for progressive download), `poster.jpg` and `clip.json` (the segment list, written
 * last). The cut starts at the clip's `asset_offset` in the recording; a live clip's offset may run past the end of
 * the recording, which the live stream loops over, so its cut wraps around to the start (two inputs joined).
 *
 * Restarts: the queue is the table. On start every `queued` or `processing` clip is queued again (a job killed by
 * a stop starts over), and a seeded `done` clip without files gets them: seeded renders are cached under the media
 * cache folder (keyed by source, offset and length), so only the first start pays for them. `stop()` kills the
 * running ffmpeg processes and leaves their clips `processing`, for the next start to resume.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChannelDb } from './db.js';
import { FFMPEG, run } from './ffmpeg.js';
import { FRAME_RATE, hlsOutput, readRendition, type Asset, type MediaLibrary } from './media.js';

/** What clip.json holds: the clip as an asset (one rendition, paths relative to the clip's folder), poster and MP4. */
export interface ClipFiles {
  asset: Asset;
  poster: string;
  mp4: { file: string; bytes: number };
}

const CLIP_JSON = 'clip.json';
const MP4 = 'clip.mp4';
const POSTER = 'poster.jpg';

/** Thrown when a job was stopped (server stop or deletion), as opposed to failing. */
class Stopped extends Error {}

/** What the queue needs from the server. */
export interface ClipJobsOptions {
  db: ChannelDb;
  library: MediaLibrary;
  /** DATA_DIR: clips go to its clips/{id}/. */
  dataDir: string;
  /** Jobs at once; default 2. */
  concurrency?: number;
  /** The server clock (ms), for updated_at. */
  nowMs(): number;
  /** Where failures are told; default console.error. */
  log?(message: string): void;
}

/** One cut: where in the recording, how long, into which folder, reporting progress 0-100. */
interface Cut {
  offset: number;
  duration: number;
  dest: string;
  progress?(percent: number): void;
  /** Holds the running ffmpeg, so a stop or a deletion can kill it. */
  started?(child: ChildProcess): void;
}

export class ClipJobs {
  private readonly waiting: number[] = [];
  private readonly running = new Map<number, { child?: ChildProcess; cancelled: boolean; done: Promise<void> }>();
  private readonly concurrency: number;
  private readonly filesCache = new Map<number, ClipFiles>();
  private stopped = false;
  /** DATA_DIR/clips: one folder per clip id. */
  private readonly dir: string;
  /** Seeded renders, inside the media version they were cut from (a new version starts a new cache). */
  private readonly cacheDir: string;

  constructor(private readonly options: ClipJobsOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.dir = join(options.dataDir, 'clips');
    this.cacheDir = join(options.library.dir, 'clip-cache');
  }

  /** The server clock in UNIX seconds. */
  private now(): number {
    return Math.floor(this.options.nowMs() / 1000);
  }

  /** Renders the seeded done clips that have no files (from the cache), then queues every unfinished clip. */
  async start(): Promise<void> {
    const { db } = this.options;
    for (const row of db.all(
      "SELECT id, source, asset_offset, duration FROM clips WHERE status = 'done' ORDER BY id",
    )) {
      const id = Number(row.id);
      if (existsSync(join(this.folder(id), CLIP_JSON))) continue;
      try {
        await this.fromCache(id, String(row.source), Number(row.asset_offset), Number(row.duration));
      } catch (error) {
        this.fail(id, error);
      }
    }
    for (const row of db.all("SELECT id FROM clips WHERE status IN ('queued', 'processing') ORDER BY id"))
      this.enqueue(Number(row.id));
  }

  /** How many clips wait for a slot. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Queues a clip (a new one, or one to resume). */
  enqueue(id: number): void {
    if (this.stopped || this.waiting.includes(id) || this.running.has(id)) return;
    this.waiting.push(id);
    this.pump();
  }

  /** Forgets a deleted clip: drops it from the queue, kills its job, removes its files. */
  async remove(id: number): Promise<void> {
    const i = this.waiting.indexOf(id);
    if (i >= 0) this.waiting.splice(i, 1);
    const job = this.running.get(id);
    if (job) {
      job.cancelled = true;
      job.child?.kill('SIGKILL');
      await job.done;
    }
    this.filesCache.delete(id);
    rmSync(this.folder(id), { recursive: true, force: true });
    rmSync(`${this.folder(id)}.tmp`, { recursive: true, force: true });
  }

  /** A done clip's files (read once from its clip.json), or undefined. */
  files(id: number): (ClipFiles & { dir: string }) | undefined {
    let files = this.filesCache.get(id);
    if (!files) {
      try {
        files = JSON.parse(readFileSync(join(this.folder(id), CLIP_JSON), 'utf8')) as ClipFiles;
      } catch {
        return undefined;
      }
      this.filesCache.set(id, files);
    }
    return { ...files, dir: this.folder(id) };
  }

  /** Kills the running jobs and waits for them; their clips stay `processing` for the next start to resume. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    const jobs = [...this.running.values()];
    for (const job of jobs) job.child?.kill('SIGKILL');
    await Promise.all(jobs.map((job) => job.done));
  }

  private folder(id: number): string {
    return join(this.dir, String(id));
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      const job: { child?: ChildProcess; cancelled: boolean; done: Promise<void> } = {
        cancelled: false,
        done: Promise.resolve(),
      };
      this.running.set(id, job);
      job.done = this.process(id, job).finally(() => {
        this.running.delete(id);
        this.pump();
      });
    }
  }

  private async process(id: number, job: { child?: ChildProcess; cancelled: boolean }): Promise<void> {
    const { db } = this.options;
    const now = () => this.now();
    const row = db.get('SELECT asset_offset, duration, status FROM clips WHERE id = ?', [id]);
    if (!row || (row.status !== 'queued' && row.status !== 'processing')) return;
    db.run("UPDATE clips SET status = 'processing', progress = 0, error = NULL, updated_at = ? WHERE id = ?", [
      now(),
      id,
    ]);
    let shown = 0;
    try {
      await this.cut({
        offset: Number(row.asset_offset),
        duration: Number(row.duration),
        dest: this.folder(id),
        progress: (percent) => {
          // Never 100 before the files are in place; written only when the whole percent changes.
          const value = Math.min(99, Math.floor(percent));
          if (value <= shown || job.cancelled) return;
          shown = value;
          db.run('UPDATE clips SET progress = ?, updated_at = ? WHERE id = ?', [value, now(), id]);
        },
        started: (child) => {
          job.child = child;
          if (job.cancelled || this.stopped) child.kill('SIGKILL');
        },
      });
      if (job.cancelled) throw new Stopped();
      db.run("UPDATE clips SET status = 'done', progress = 100, updated_at = ? WHERE id = ?", [now(), id]);
    } catch (error) {
      rmSync(`${this.folder(id)}.tmp`, { recursive: true, force: true });
      // A stop leaves the clip processing (the next start resumes it); a deletion has removed the row already.
      if (this.stopped || job.cancelled) return;
      this.fail(id, error);
    }
  }

  private fail(id: number, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    (this.options.log ?? console.error)(`[channel-server] clip ${id} failed: ${message}`);
    this.options.db.run("UPDATE clips SET status = 'failed', error = ?, updated_at = ? WHERE id = ?", [
      message.slice(0, 2000),
      this.now(),
      id,
    ]);
  }

  /**
   * A seeded clip's files: copied from the cache, which is filled on a miss (made in a scratch folder and renamed,
   * so parallel starts sharing the media cache never see half a render).
   */
  private async fromCache(id: number, source: string, offset: number, duration: number): Promise<void> {
    const cached = join(this.cacheDir, `${source}-${offset}-${duration}`);
    if (!existsSync(join(cached, CLIP_JSON))) {
      mkdirSync(this.cacheDir, { recursive: true });
      const scratch = `${cached}.${process.pid}-${Date.now()}`;
      await this.cut({ offset, duration, dest: scratch });
      try {
        renameSync(scratch, cached);
      } catch {
        rmSync(scratch, { recursive: true, force: true }); // another process made it meanwhile
      }
    }
    rmSync(this.folder(id), { recursive: true, force: true });
    cpSync(cached, this.folder(id), { recursive: true });
  }

  /** Cuts one clip into `dest` (through `{dest}.tmp`): HLS, MP4, poster, clip.json. */
  private async cut({ offset, duration, dest, progress, started }: Cut): Promise<void> {
    const { library } = this.options;
    const tmp = `${dest}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(join(tmp, '360p'), { recursive: true });
    const source = join(library.dir, library.download.file);
    const total = library.main.duration;
    const start = ((offset % total) + total) % total;
    const wraps = start + duration > total;
    // A cut that runs past the end continues from the start: the second input supplies what is missing.
    const inputs = wraps
      ? ['-ss', String(start), '-i', source, '-t', String(start + duration - total), '-i', source]
      : ['-ss', String(start), '-t', String(duration), '-i', source];
    const streams = wraps ? ['-filter_complex', '[0:v][0:a][1:v][1:a]concat=n=2:v=1:a=1[v][a]'] : ([] as string[]);
    await ffmpegWithProgress(
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...inputs, ...streams],
        ...['-progress', 'pipe:1', '-nostats'],
        // Exactly the clip's frames: without this, the audio (slightly longer in the source) adds a stub segment.
        ...['-frames:v', String(Math.round(duration * FRAME_RATE))],
        ...hlsOutput(wraps ? '[v]' : '0:v', wraps ? '[a]' : '0:a', 700, '360p'),
      ],
      tmp,
      duration,
      progress,
      started,
    );
    const rendition = readRendition(tmp, '.', '360p', 640, 360);
    if (rendition.segments.length === 0) throw new Error('ffmpeg made no segments');
    const asset: Asset = {
      name: '.',
      duration: rendition.segments.reduce((sum, s) => sum + s.duration, 0),
      renditions: [rendition],
      subtitles: [],
    };
    const concat = `concat:${rendition.segments.map((s) => join('360p', s.file)).join('|')}`;
    const quiet = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];
    await run(
      FFMPEG,
      [...quiet, '-i', concat, '-c', 'copy', '-bsf:a', 'aac_adtstoasc', '-movflags', '+faststart', MP4],
      tmp,
    );
    const at = Math.min(1, asset.duration / 2).toFixed(2);
    await run(FFMPEG, [...quiet, '-ss', at, '-i', MP4, '-frames:v', '1', '-q:v', '3', POSTER], tmp);
    const files: ClipFiles = { asset, poster: POSTER, mp4: { file: MP4, bytes: statSync(join(tmp, MP4)).size } };
    writeFileSync(join(tmp, CLIP_JSON), `${JSON.stringify(files)}\n`);
    rmSync(dest, { recursive: true, force: true });
    renameSync(tmp, dest);
  }
}

/**
 * Runs ffmpeg (with `-progress pipe:1`) in `cwd`, reporting progress as a percentage of `seconds` from the
 * `out_time_us` lines; rejects with the end of its stderr when it fails or is killed.
 */
function ffmpegWithProgress(
  args: string[],
  cwd: string,
  seconds: number,
  progress?: (percent: number) => void,
  started?: (child: ChildProcess) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    started?.(child);
    let pending = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^out_time_us=(\d+)/.exec(line);
        if (m) progress?.((Number(m[1]) / 1e6 / seconds) * 100);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`ffmpeg ${signal ? `was killed (${signal})` : `exited with ${code}`}:\n${err.trim()}`)),
    );
  });
}
