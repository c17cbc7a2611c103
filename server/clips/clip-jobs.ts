/* eslint-disable max-lines -- one job queue: its states, leases and ffmpeg runs change together */
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
 * Restarts: the queue is the table. On start every `queued` clip is taken up, and every `processing` one nobody
 * holds (a job killed by a stop starts over), and a seeded `done` clip without files gets them: seeded renders are
 * cached under the media cache folder (keyed by source, offset and length), so only the first start pays for them.
 * `stop()` kills the running ffmpeg processes and leaves their clips `processing` with their leases ended, for the
 * next start (or another process) to resume. A process that died (SIGKILL, a crash) held its jobs until their leases
 * run out, since on a PostgreSQL server another process cannot tell it from a slow one; on the embedded database,
 * which is one process's alone, a start frees them at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { privateTree, type ChannelDb } from '../storage/db.js';
import { FFMPEG, run } from '../media/ffmpeg.js';
import { FRAME_RATE, hlsOutput, readRendition, type Asset, type MediaLibrary } from '../media/media.js';
import { CLIP_TIME_LIMIT_SECONDS } from '../../src/api/contract.js';
import type { ClipInput } from '../media/ingest/recording.js';
import { log } from '../observability/log.js';

/**
 * The database's clock in ms: every lease and time limit is read on it, so processes on hosts whose clocks differ
 * (one a minute ahead, say) agree on when a lease ran out and when a clip is late. `clock_timestamp()`, not `now()`:
 * the moment the statement runs, not its transaction's start.
 */
const DB_NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

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
  /** Where clips' files go, one folder per clip: shared by every process (a shared volume when they are several). */
  clipsDir: string;
  /** Jobs at once in this process; default 2. */
  concurrency?: number;
  /** The server clock (ms), for updated_at. */
  nowMs(): number;
  /** How long a job is held without news before another process may take it over (ms, database clock); default 30 s. */
  leaseMs?: number;
  /** How often the queue looks for work besides being woken (ms); default 1 s. */
  pollMs?: number;
  /** Where failures are told; default the process's log (as errors). */
  log?(message: string): void;
  /** How long a clip may take from its request to done (ms, database clock); default CLIP_TIME_LIMIT_SECONDS. */
  timeLimitMs?: number;
  /**
   * Where a clip of event `eventId` is cut when that event has media of its own (an ingest event's recording or live
   * segments, ingest/recording.ts): ffmpeg input arguments starting at `offset`; undefined for the generated media.
   */
  inputOf?(eventId: number, offset: number, duration: number): Promise<ClipInput | undefined>;
}

/** One cut: where in the recording, how long, into which folder, reporting progress 0-100. */
interface Cut {
  /** The clip's event, whose own media it is cut from when it has some (inputOf). */
  eventId?: number;
  offset: number;
  duration: number;
  dest: string;
  progress?(percent: number): void;
  /** Holds the running ffmpeg, so a stop or a deletion can kill it. */
  started?(child: ChildProcess): void;
}

/** A job this process holds. */
interface Job {
  child?: ChildProcess;
  cancelled: boolean;
  /** The cut ran past the time limit and was killed. */
  late?: boolean;
  done: Promise<void>;
}

/** Why a clip failed that was not made within the time limit. */
const LATE = `the clip was not made within its time limit`;
/** A cut that failed this many times (its process died each time, say) is given up. */
const MAX_ATTEMPTS = 3;
/** The notification channels: a clip was queued (any process may take it), a clip was deleted (its holder stops). */
const QUEUED = 'clip_queued';
const DELETED = 'clip_deleted';

/**
 * The queue of clip cuts, shared by every process through the `clips` table: a process takes a job by leasing its
 * row (`FOR UPDATE SKIP LOCKED`, so two processes never take the same one), renews the lease while ffmpeg runs,
 * and writes progress and the outcome only while it still holds it. A job whose process died is taken over once its
 * lease ran out, and cut again from the start (the files of a cut appear whole, by a rename, or not at all).
 */
export class ClipJobs {
  private readonly running = new Map<number, Job>();
  private readonly concurrency: number;
  private readonly filesCache = new Map<number, ClipFiles>();
  private stopped = false;
  /** DATA_DIR/clips, or CLIPS_DIR: one folder per clip id. */
  private readonly dir: string;
  /** Seeded renders, inside the media version they were cut from (a new version starts a new cache). */
  private readonly cacheDir: string;
  /** This process, as a lease names it. */
  private readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly leaseMs: number;
  private readonly timeLimitMs: number;
  private timer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
  private again = false;

  constructor(private readonly options: ClipJobsOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.dir = options.clipsDir;
    this.cacheDir = join(options.library.dir, 'clip-cache');
    // At least a second: a shorter lease would run out between two renewals, and processes would take each other's
    // jobs.
    this.leaseMs = Math.max(1000, options.leaseMs ?? 30_000);
    this.timeLimitMs = options.timeLimitMs ?? CLIP_TIME_LIMIT_SECONDS * 1000;
  }

  /** The server clock in UNIX seconds. */
  private now(): number {
    return Math.floor(this.options.nowMs() / 1000);
  }

  /**
   * Renders the seeded done clips that have no files (from the cache), then takes up work: every unfinished clip
   * nobody holds, and from then on what is queued (woken by a notification, and every pollMs).
   */
  async start(): Promise<void> {
    const { db } = this.options;
    mkdirSync(this.dir, { recursive: true });
    // The embedded database has no other process: a clip left processing was held by this server's previous run,
    // which died without ending its lease (a clean stop ends them), so nobody needs to wait for it to run out.
    if (db.kind === 'pglite') await db.run("UPDATE clips SET lease_until = NULL WHERE status = 'processing'");
    // A clip `processing` that no process ever took (no attempt) is seeded data, whose date may be that of a database
    // template made long ago: it is asked for now, so the time limit does not fail it before its first cut.
    await db.run(
      `UPDATE clips SET created_at = ?, updated_at = ?, requested_at = ${DB_NOW_MS}
       WHERE status = 'processing' AND attempts = 0`,
      [this.now(), this.now()],
    );
    for (const row of await db.all(
      "SELECT id, source, asset_offset, duration FROM clips WHERE status = 'done' ORDER BY id",
    )) {
      const id = Number(row.id);
      if (existsSync(join(this.folder(id), CLIP_JSON))) continue;
      try {
        await this.fromCache(id, String(row.source), Number(row.asset_offset), Number(row.duration));
      } catch (error) {
        await this.fail(id, error, false);
      }
    }
    await db.listen(QUEUED, () => this.wake(false));
    await db.listen(DELETED, (payload) => this.cancel(Number(payload)));
    const poll = () => {
      this.timer = setTimeout(() => {
        this.wake(false);
        poll();
      }, this.options.pollMs ?? 1000);
      this.timer.unref();
    };
    poll();
    this.wake(false);
  }

  /** How many clips wait for a cut, in every process. */
  async waitingCount(): Promise<number> {
    const row = await this.options.db.get("SELECT count(*) AS n FROM clips WHERE status = 'queued'");
    return Number(row?.n ?? 0);
  }

  /** Looks for work now; `others`: tell every other process too (a clip was just queued). */
  wake(others = true): void {
    if (others)
      this.options.db.notify(QUEUED).catch((error: unknown) => this.report(`could not announce a clip: ${error}`));
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claim()
      .catch((error: unknown) => this.report(`could not take a clip job: ${(error as Error).message}`))
      .finally(() => {
        this.claiming = undefined;
        if (this.again) {
          this.again = false;
          this.wake(false);
        }
      });
  }

  /** Takes jobs while this process has room: the oldest queued one, or one whose holder's lease ran out. */
  private async claim(): Promise<void> {
    const { db } = this.options;
    while (!this.stopped && this.running.size < this.concurrency) {
      const row = await db.get(
        `UPDATE clips SET status = 'processing', progress = 0, error = NULL, lease_owner = ?,
           lease_until = ${DB_NOW_MS} + ?::bigint, attempts = attempts + 1, updated_at = ?
         WHERE id = (SELECT id FROM clips WHERE status = 'queued'
                       OR (status = 'processing' AND (lease_until IS NULL OR lease_until < ${DB_NOW_MS}))
                     ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING id, event_id, asset_offset, duration, attempts,
           requested_at + ?::bigint - ${DB_NOW_MS} AS time_left`,
        [this.owner, this.leaseMs, this.now(), this.timeLimitMs],
      );
      if (!row) return;
      const id = Number(row.id);
      if (Number(row.attempts) > MAX_ATTEMPTS) {
        this.removeScratch(id);
        await this.fail(id, new Error(`the cut was started ${MAX_ATTEMPTS} times without finishing`), true);
        continue;
      }
      // What is left of the clip's time (a clip that waited, or whose holder died, may have none).
      const left = Number(row.time_left);
      if (left <= 0) {
        // What a process that died mid-cut left half-made goes too.
        this.removeScratch(id);
        await this.fail(id, new Error(LATE), true);
        continue;
      }
      const job: Job = { cancelled: false, done: Promise.resolve() };
      this.running.set(id, job);
      job.done = this.process(
        id,
        Number(row.event_id),
        Number(row.asset_offset),
        Number(row.duration),
        job,
        left,
      ).finally(() => {
        this.running.delete(id);
        this.wake(false);
      });
    }
  }

  /** Stops a job this process holds (its clip was deleted), killing its ffmpeg. */
  private cancel(id: number): void {
    const job = this.running.get(id);
    if (!job) return;
    job.cancelled = true;
    job.child?.kill('SIGKILL');
  }

  /**
   * Forgets a deleted clip (its row is gone already): the process holding its job stops it (this one, or another
   * told by a notification), and its files go.
   */
  async remove(id: number): Promise<void> {
    const job = this.running.get(id);
    this.cancel(id);
    await job?.done;
    await this.options.db.notify(DELETED, String(id));
    this.filesCache.delete(id);
    rmSync(this.folder(id), { recursive: true, force: true });
    this.removeScratch(id);
  }

  /** Removes the scratch folders of a clip's cuts (`{id}.tmp.{owner}`), whoever made them. */
  private removeScratch(id: number): void {
    for (const name of readdirSync(this.dir).filter((n) => n.startsWith(`${id}.tmp`))) {
      try {
        rmSync(join(this.dir, name), { recursive: true, force: true });
      } catch (error) {
        // An ffmpeg orphaned by a dead process may still be writing there; the next cut of the clip tries again.
        this.report(`could not remove ${name}: ${(error as Error).message}`);
      }
    }
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

  /**
   * Kills the running jobs and waits for them; their clips stay `processing` with their leases ended, so another
   * process (or the next start) takes them up at once.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const jobs = [...this.running.entries()];
    for (const [, job] of jobs) job.child?.kill('SIGKILL');
    await Promise.all(jobs.map(([, job]) => job.done));
    await this.claiming;
    if (jobs.length > 0)
      await this.options.db
        .run("UPDATE clips SET lease_until = NULL WHERE lease_owner = ? AND status = 'processing'", [this.owner])
        .catch(() => undefined);
  }

  private folder(id: number): string {
    return join(this.dir, String(id));
  }

  private report(message: string): void {
    if (this.options.log) this.options.log(message);
    else log().error(message);
  }

  /** Runs one job this process holds; every write names the lease, so a job taken over or deleted writes nothing. */
  private async process(
    id: number,
    eventId: number,
    offset: number,
    duration: number,
    job: Job,
    left: number,
  ): Promise<void> {
    const { db } = this.options;
    const now = () => this.now();
    // The lease is renewed while the cut runs; a renewal that finds the row gone or taken stops the cut.
    const renew = setInterval(
      () => {
        db.run(`UPDATE clips SET lease_until = ${DB_NOW_MS} + ?::bigint WHERE id = ? AND lease_owner = ?`, [
          this.leaseMs,
          id,
          this.owner,
        ])
          .then((held) => {
            if (held === 0) this.cancel(id);
          })
          .catch(() => undefined);
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    renew.unref();
    // Past the clip's time limit the cut is killed and the clip failed.
    const deadline = setTimeout(() => {
      job.late = true;
      job.child?.kill('SIGKILL');
    }, left);
    deadline.unref();
    let shown = 0;
    try {
      // A job taken over: what the process that held it before left half-made goes (it died, or lost its lease
      // and writes nothing more: its outcome needs the lease too).
      this.removeScratch(id);
      await this.cut({
        eventId,
        offset,
        duration,
        dest: this.folder(id),
        progress: (percent) => {
          // Never 100 before the files are in place; written only when the whole percent changes.
          const value = Math.min(99, Math.floor(percent));
          if (value <= shown || job.cancelled) return;
          shown = value;
          db.run('UPDATE clips SET progress = ?, updated_at = ? WHERE id = ? AND lease_owner = ?', [
            value,
            now(),
            id,
            this.owner,
          ]).catch(() => undefined);
        },
        started: (child) => {
          job.child = child;
          if (job.cancelled || job.late || this.stopped) child.kill('SIGKILL');
        },
      });
      if (job.cancelled) throw new Stopped();
      if (job.late) throw new Error(LATE);
      const done = await db.run(
        "UPDATE clips SET status = 'done', progress = 100, lease_owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND lease_owner = ?",
        [now(), id, this.owner],
      );
      // Deleted meanwhile: its files go with it.
      if (done === 0 && !(await db.get('SELECT 1 AS ok FROM clips WHERE id = ?', [id])))
        rmSync(this.folder(id), { recursive: true, force: true });
    } catch (error) {
      rmSync(`${this.folder(id)}.tmp.${this.owner}`, { recursive: true, force: true });
      // A late clip keeps no files, nor does a deleted one (its deletion may have come from another process while
      // this one was putting them in place), whichever step of the cut the limit or the deletion came in.
      if (job.late || job.cancelled) {
        this.filesCache.delete(id);
        rmSync(this.folder(id), { recursive: true, force: true });
      }
      // A stop leaves the clip processing (another process or the next start resumes it); a deletion has removed
      // the row already.
      if (this.stopped || job.cancelled) return;
      await this.fail(id, job.late ? new Error(LATE) : error, true).catch(() => undefined);
    } finally {
      clearInterval(renew);
      clearTimeout(deadline);
    }
  }

  /** Marks a clip failed (`held`: only while this process holds its job). */
  private async fail(id: number, error: unknown, held: boolean): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    this.report(`clip ${id} failed: ${message}`);
    await this.options.db.run(
      `UPDATE clips SET status = 'failed', error = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?
       WHERE id = ?${held ? ' AND lease_owner = ?' : ''}`,
      held ? [message.slice(0, 2000), this.now(), id, this.owner] : [message.slice(0, 2000), this.now(), id],
    );
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
    // The cache was made under whatever umask the media cache had: in the data directory, the files are private.
    privateTree(this.folder(id));
  }

  /** Cuts one clip into `dest` (through `{dest}.tmp`): HLS, MP4, poster, clip.json. */
  private async cut({ eventId, offset, duration, dest, progress, started }: Cut): Promise<void> {
    const own = eventId === undefined ? undefined : await this.options.inputOf?.(eventId, offset, duration);
    try {
      await this.cutFrom(own, { offset, duration, dest, progress, started });
    } finally {
      own?.done();
    }
  }

  /** cut() from `own` input, or else from the generated recording. */
  private async cutFrom(own: ClipInput | undefined, { offset, duration, dest, progress, started }: Cut): Promise<void> {
    const { library } = this.options;
    // A scratch folder of this process's own: a process that took over a job never writes into the dead one's.
    const tmp = `${dest}.tmp.${this.owner}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(join(tmp, '360p'), { recursive: true });
    const source = join(library.dir, library.download.file);
    const total = library.main.duration;
    const start = ((offset % total) + total) % total;
    const wraps = !own && start + duration > total;
    // A cut that runs past the end continues from the start: the second input supplies what is missing.
    const inputs = own
      ? [...own.args, '-t', String(duration)]
      : wraps
        ? ['-ss', String(start), '-i', source, '-t', String(start + duration - total), '-i', source]
        : ['-ss', String(start), '-t', String(duration), '-i', source];
    const streams = wraps ? ['-filter_complex', '[0:v][0:a][1:v][1:a]concat=n=2:v=1:a=1[v][a]'] : ([] as string[]);
    await ffmpegWithProgress(
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...inputs, ...streams],
        ...['-progress', 'pipe:1', '-nostats'],
        // Exactly the clip's frames: without this, the audio (slightly longer in the source) adds a stub segment.
        ...['-frames:v', String(Math.round(duration * FRAME_RATE))],
        // A channel's encoder pushes at its own rate (30, 50, 59.94...): clips are made at the test media's, whose
        // GOP length and frame count the rest assumes.
        ...(own ? ['-r', String(FRAME_RATE)] : []),
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
