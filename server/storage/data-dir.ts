/**
 * DATA_DIR is one server process's: the embedded database in it is single-user (a second process opening it would
 * write beside the first and lose what it acknowledged), and with DATABASE_URL it still holds that process's own
 * files (the stored settings copies, the dev secret). A start takes `DATA_DIR/server.lock` for the process's life
 * and refuses to start while another live process holds it.
 *
 * The lock is a file naming its holder (host, pid, and on Linux the pid's start time, so a pid reused by another
 * program is not mistaken for the holder). It is made whole and at once (written aside, then hard-linked into
 * place, which fails when the file exists), removed by a clean stop, and left behind by a crash: a start that finds
 * one whose process is gone takes it over, so a restart right after a `SIGKILL` is never held up.
 *
 * Whether the holder is gone can be checked only where its pid means the same process: the same host, booted the
 * same time (Linux's boot id), in the same pid namespace (containers sharing a hostname and a volume each have a pid
 * 1 of their own). Elsewhere the holder's heartbeat decides: it touches the file every HEARTBEAT_MS, and a file
 * untouched for STALE_MS is a dead holder's (a container recreated under a new hostname after a crash is not
 * locked out for good).
 */
import { randomBytes } from 'node:crypto';
import {
  linkSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** A start that cannot go on for a reason the operator can fix: main.ts prints its message alone and exits 1. */
export class StartRefused extends Error {
  override readonly name = 'StartRefused';
}

/** The lock's file name inside DATA_DIR. */
export const LOCK_FILE = 'server.lock';

/** How often a holder touches its lock file, and how old a touch must be before another host takes the lock over. */
export const HEARTBEAT_MS = 5000;
export const STALE_MS = 30_000;

/** What the lock file holds. */
interface Holder {
  host: string;
  pid: number;
  /** This boot of the machine (Linux's /proc/sys/kernel/random/boot_id), when known. */
  boot?: string;
  /** The pid namespace the pid is in (Linux's /proc/self/ns/pid), when known. */
  pidns?: string;
  /** The pid's start time in clock ticks since boot (Linux's /proc/PID/stat), when known. */
  since?: string;
  /** When it took the lock (ISO), for the operator's eyes. */
  at: string;
}

/** A held DATA_DIR; `release()` gives it up (idempotent). */
export interface DataDirLock {
  release(): void;
}

/** Folders this process holds, so a second start inside one process is refused too (it has the same pid). */
const held = new Set<string>();

/** A pid's start time (Linux), or undefined where /proc does not say. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces; the start time is field 22.
    return stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .at(19);
  } catch {
    return undefined;
  }
}

/** A small Linux fact, or undefined elsewhere. */
function read(how: () => string): string | undefined {
  try {
    return how().trim() || undefined;
  } catch {
    return undefined;
  }
}
const BOOT = read(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'));
const PIDNS = read(() => readlinkSync('/proc/self/ns/pid'));

/** Whether a holder's pid can be checked from here: the same host, boot and pid namespace as this process. */
const checkable = (holder: Holder) => holder.host === hostname() && holder.boot === BOOT && holder.pidns === PIDNS;

/** How long ago (ms) the lock file was last touched, or Infinity when it cannot be read. */
function untouchedFor(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}

/**
 * Whether the process a lock names is still running: by its pid where that can be checked, else by its heartbeat
 * (see the file comment).
 */
function alive(holder: Holder, dir: string, file: string): boolean {
  if (!checkable(holder)) return untouchedFor(file) < STALE_MS;
  // This process's own pid: either a start in this process holds it, or a former process had our pid (a container
  // restarted gets the same one) and died.
  if (holder.pid === process.pid) return held.has(dir);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const since = startTime(holder.pid);
  return holder.since === undefined || since === undefined || since === holder.since;
}

/** The lock file's holder, or undefined when it is unreadable (then nobody can be holding it whole). */
function readHolder(file: string): { text: string; holder: Holder | undefined } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const holder = JSON.parse(text) as Holder;
    return { text, holder: Number.isInteger(holder.pid) && typeof holder.host === 'string' ? holder : undefined };
  } catch {
    return { text, holder: undefined };
  }
}

/**
 * Takes DATA_DIR for this process; throws StartRefused when another live process holds it. `sharedDatabase`:
 * DATABASE_URL is set (the message then says each process needs its own DATA_DIR rather than to use it).
 */
export function lockDataDir(dataDir: string, sharedDatabase: boolean): DataDirLock {
  const dir = realpathSync(dataDir);
  const file = join(dir, LOCK_FILE);
  const mine: Holder = {
    host: hostname(),
    pid: process.pid,
    boot: BOOT,
    pidns: PIDNS,
    since: startTime(process.pid),
    at: new Date().toISOString(),
  };
  const text = `${JSON.stringify(mine)}\n`;
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, text, { mode: 0o600 });
  try {
    // A few rounds: each either takes the lock, refuses, or clears a dead holder's file and tries again.
    for (let round = 0; ; round++) {
      try {
        linkSync(aside, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || round >= 5) throw error;
      }
      const found = readHolder(file);
      if (!found) continue;
      if (found.holder && alive(found.holder, dir, file)) throw refusal(dataDir, found.holder, sharedDatabase, file);
      clearStale(file, found.text);
    }
  } finally {
    rmSync(aside, { force: true });
  }
  held.add(dir);
  // The heartbeat: a start elsewhere that cannot check this pid sees the lock is alive by its touch.
  const heartbeat = setInterval(() => {
    try {
      const now = new Date();
      if (readHolder(file)?.text === text) utimesSync(file, now, now);
    } catch {
      // A folder gone or unwritable for a moment: the next beat tries again.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      held.delete(dir);
      // Only our own file: should it have been taken over meanwhile (removed by hand), the new holder keeps theirs.
      if (readHolder(file)?.text === text) rmSync(file, { force: true });
    },
  };
}

/**
 * Removes a dead holder's lock file, unless another start replaced it since it was read: it is moved aside first (one
 * mover wins) and put back when what was moved is not what was read.
 */
function clearStale(file: string, seen: string): void {
  const moved = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(file, moved);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // another start cleared it
    throw error;
  }
  try {
    if (readFileSync(moved, 'utf8') !== seen) linkSync(moved, file);
  } catch {
    // Another lock is in place already: the next round reads it.
  } finally {
    rmSync(moved, { force: true });
  }
}

/** The one line a refused start prints. */
function refusal(dataDir: string, holder: Holder, sharedDatabase: boolean, file: string): StartRefused {
  const who = checkable(holder) ? `process ${holder.pid}` : `process ${holder.pid} on host ${holder.host}`;
  const what = sharedDatabase
    ? 'Each server process needs a DATA_DIR of its own (its stored settings copies and dev secret are there): ' +
      'start this one with another DATA_DIR.'
    : "Its embedded database is one process's alone: to run several processes, give them one PostgreSQL server " +
      '(DATABASE_URL) and each its own DATA_DIR.';
  const seconds = Math.max(0, Math.round(untouchedFor(file) / 1000));
  const stale = checkable(holder)
    ? ''
    : ` It was renewed ${seconds} s ago; if that server is gone, a start ${STALE_MS / 1000} s after its last renewal takes the lock over.`;
  return new StartRefused(
    `DATA_DIR ${dataDir} is in use by another server (${who}, since ${holder.at}). ${what}${stale}`,
  );
}
