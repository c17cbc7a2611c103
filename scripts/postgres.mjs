#!/usr/bin/env node
// A throw-away PostgreSQL server for the tests that need a real one (several server processes on one database):
// a fresh cluster in a temp folder, on a free local port, removed when stopped.
//
//   import { startPostgres } from './scripts/postgres.mjs';
//   const pg = await startPostgres();          // pg.url: postgres://postgres@127.0.0.1:PORT/postgres
//   await pg.stop();
//
//   node scripts/postgres.mjs -- <command...>  // runs the command with DATABASE_URL set, then removes the cluster
//   node scripts/postgres.mjs --reuse -- ...   // the same, but a DATABASE_URL already set is used as it is
//
// It needs the server's binaries (initdb, pg_ctl): found under /usr/lib/postgresql/<version>/bin (Debian's layout,
// newest first), else on the PATH. As root on Debian/Ubuntu it installs Debian's `postgresql` package when they are
// missing; otherwise it stops and says what to run. Postgres refuses to run as root, so as root the cluster belongs
// to the `postgres` user the package creates, and initdb and pg_ctl run as that user.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { isMain, runCommand } from './command.mjs';
import { aptInstall, isDebianLike, isRoot } from './debian.mjs';

/** initdb and a start take seconds; this much means something is wrong (a lock, a full disk). */
const STEP_TIMEOUT_MS = 120_000;
/** Another program may take the free port we picked before the server binds it: pick again this many times. */
const START_ATTEMPTS = 3;

/** The folder holding initdb and pg_ctl, or undefined: Debian's versioned folders (newest first), then the PATH. */
function findBinDir() {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) {
      const dir = join(debian, version, 'bin');
      if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
    }
  }
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return dirs.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/** The binaries' folder, installing them when this process may; else an error that says what to run. */
function ensureBinaries() {
  let dir = findBinDir();
  if (dir) return dir;
  if (isRoot() && isDebianLike()) {
    console.log('postgres: no PostgreSQL server binaries found; installing the system package.');
    aptInstall('postgres', ['postgresql']);
    dir = findBinDir();
    if (dir) return dir;
  }
  throw new Error(
    [
      'postgres: the PostgreSQL server binaries (initdb, pg_ctl) were not found, and could not be installed here.',
      ...(isRoot() ? [] : ['(Not running as root, so the system package was not installed automatically.)']),
      'Do one of:',
      '  sudo apt-get install -y postgresql          # Debian/Ubuntu, then run the command again',
      '  brew install postgresql                     # macOS (initdb and pg_ctl on the PATH)',
      '  DATABASE_URL=postgres://... npm run test:postgres   # a PostgreSQL server you already have',
    ].join('\n'),
  );
}

/** A port nobody listens on at this moment (the OS picks it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** The uid and gid of a user, from /etc/passwd (the `id` command may be missing in slim images). */
function userIds(name) {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line)
    throw new Error(`postgres: running as root needs the '${name}' user (Debian's postgresql package makes it).`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Runs a server binary and waits for it, as the `postgres` user when we are root; answers its output, or throws
 * with it (and the exit code) when it fails.
 */
function runAs(binary, args) {
  const [command, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
  const result = spawnSync(command, argv, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: STEP_TIMEOUT_MS,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.status !== 0) {
    const how = result.error ? result.error.message : `exit ${result.status ?? result.signal}`;
    throw new Error(`postgres: ${[binary, ...args].join(' ')} failed (${how})${output ? `:\n${output}` : ''}`);
  }
  return output;
}

/**
 * Starts a throw-away PostgreSQL cluster on 127.0.0.1 (on `port`, else a free one). Answers its URL (the
 * `postgres` superuser, trusted, database `postgres`) and `stop()`, which stops it and removes its folder.
 */
export async function startPostgres({ port } = {}) {
  const bin = ensureBinaries();
  // The cluster, its socket and its log in one folder, so stop() leaves nothing behind.
  const dir = mkdtempSync(join(tmpdir(), 'channel-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'log');
  let stopping;
  /** Stops the server (open sessions are ended) and removes its folder; synchronous, so `exit` can call it. */
  const stopNow = (mode) => {
    try {
      // A server runs while its pid file exists (also after a start that timed out but went on).
      if (existsSync(join(data, 'postmaster.pid'))) runAs(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // A caller that exits without stop() (a failed test run) must not leave a server running in the background.
  const onExit = () => stopNow('immediate');
  process.once('exit', onExit);
  const stop = () => {
    stopping ??= (async () => {
      process.off('exit', onExit);
      stopNow('fast');
    })();
    return stopping;
  };
  try {
    if (isRoot()) {
      const { uid, gid } = userIds('postgres');
      chownSync(dir, uid, gid);
    }
    // C locale and UTF-8 whatever this machine's locale is (a CI image often has none generated); no fsync: the
    // cluster is thrown away, and the processes under test die, not the machine.
    runAs(join(bin, 'initdb'), [
      ...['-D', data, '-U', 'postgres', '--auth=trust', '--locale=C', '--encoding=UTF8', '--no-sync'],
    ]);
    for (let attempt = 1; ; attempt++) {
      const chosen = port ?? (await freePort());
      const options = `-p ${chosen} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
      try {
        runAs(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', log, '-w', '-t', '60', 'start']);
        return { url: `postgres://postgres@127.0.0.1:${chosen}/postgres`, stop };
      } catch (error) {
        // The usual failure is the port, taken since we found it free: try another (unless one was asked for).
        const taken = existsSync(log) && /could not bind|address already in use/i.test(readFileSync(log, 'utf8'));
        if (!taken || port !== undefined || attempt >= START_ATTEMPTS) {
          const tail = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-15).join('\n') : '';
          throw new Error(`${error instanceof Error ? error.message : error}${tail ? `\nserver log:\n${tail}` : ''}`);
        }
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The CLI: starts a cluster, runs the command after `--` with DATABASE_URL, removes the cluster, exits like it. */
async function main(argv) {
  const split = argv.indexOf('--');
  const flags = split === -1 ? [] : argv.slice(0, split);
  const command = split === -1 ? argv : argv.slice(split + 1);
  const unknown = flags.filter((flag) => flag !== '--reuse');
  if (command.length === 0 || unknown.length > 0) {
    console.error('usage: node scripts/postgres.mjs [--reuse] -- <command...>');
    console.error('  --reuse: when DATABASE_URL is set already, run the command against that server instead');
    return 2;
  }
  let pg;
  if (flags.includes('--reuse') && process.env.DATABASE_URL) {
    console.log('postgres: using the DATABASE_URL already set (each test makes its own database there).');
  } else {
    try {
      pg = await startPostgres();
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      return 1;
    }
    console.log(`postgres: a throw-away server at ${pg.url}, removed when the command ends`);
  }
  try {
    return await runCommand('postgres', command, pg ? { ...process.env, DATABASE_URL: pg.url } : process.env);
  } finally {
    await pg?.stop().catch((error) => console.error(`postgres: stopping the server failed: ${error.message}`));
  }
}

if (isMain(import.meta.url)) process.exit(await main(process.argv.slice(2)));
