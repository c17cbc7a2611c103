#!/usr/bin/env node
// A throw-away nginx with its RTMP module for live ingest (docs/streams.md, "Ingest"), for the tests and dev mode:
// the repo's RTMP block (server/media/ingest/nginx-rtmp.conf) filled in, in a temp folder, on a free loopback port,
// removed when stopped. An operator's production nginx uses the same block (the docs say how).
//
//   import { startNginx } from './scripts/nginx.mjs';
//   const nginx = await startNginx({ hookOrigin: 'http://127.0.0.1:8082' });  // the server's operator listener
//   nginx.rtmpUrl   // rtmp://127.0.0.1:PORT/live: what encoders are told (INGEST_RTMP_URL)
//   nginx.hlsDir    // where the HLS folders go (INGEST_HLS_DIR)
//   await nginx.stop();
//
//   node scripts/nginx.mjs [--hooks ORIGIN] -- <command...>   // runs the command with INGEST_RTMP_URL and
//       INGEST_HLS_DIR set, then stops nginx; the hooks' origin defaults to http://127.0.0.1:$OPERATOR_PORT
//
// It needs nginx and its RTMP module (Debian's `nginx` and `libnginx-mod-rtmp`). As root on Debian/Ubuntu it
// installs them when they are missing; otherwise it stops and says what to run. nginx's worker runs as www-data
// when started as root, so the HLS folder is given to that user.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain, runCommand } from './command.mjs';
import { aptInstall, isDebianLike, isRoot } from './debian.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The RTMP block every nginx of ours runs, tests' and production's alike. */
export const RTMP_CONF = join(ROOT, 'server', 'media', 'ingest', 'nginx-rtmp.conf');
/** Where Debian's libnginx-mod-rtmp puts the module. */
const MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';
/** nginx listens within a second; this much means something is wrong. */
const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 10_000;

/** The nginx binary: /usr/sbin/nginx (Debian's), else one on the PATH. */
function findNginx() {
  if (existsSync('/usr/sbin/nginx')) return '/usr/sbin/nginx';
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const dir = dirs.find((d) => existsSync(join(d, 'nginx')));
  return dir ? join(dir, 'nginx') : undefined;
}

/** How this nginx gets its RTMP module: built in (''), Debian's module file (a load_module line), or not at all. */
function rtmpModule(binary) {
  const built = spawnSync(binary, ['-V'], { encoding: 'utf8' });
  if (/rtmp/i.test(`${built.stdout}${built.stderr}`)) return '';
  return existsSync(MODULE) ? `load_module ${MODULE};` : undefined;
}

/** The message that says what to run when nginx with RTMP is not here. */
export const INSTALL_HINT = [
  'nginx with its RTMP module was not found' + (isRoot() ? '.' : ' (not root, so it was not installed).'),
  'Do one of:',
  '  sudo apt-get install -y nginx libnginx-mod-rtmp   # Debian/Ubuntu, then run the command again',
  '  an nginx built with nginx-rtmp-module on the PATH   # elsewhere (https://github.com/arut/nginx-rtmp-module)',
].join('\n');

/** Whether nginx with RTMP is here now (nothing installed). */
export function nginxAvailable() {
  const binary = findNginx();
  return binary !== undefined && rtmpModule(binary) !== undefined;
}

/** The binary and its load_module line, installing them when this process may; else an error saying what to run. */
function ensureNginx() {
  let binary = findNginx();
  let module = binary && rtmpModule(binary);
  if (binary && module !== undefined) return { binary, module };
  if (isRoot() && isDebianLike()) {
    console.log('nginx: nginx or its RTMP module is missing; installing the system packages.');
    aptInstall('nginx', ['nginx', 'libnginx-mod-rtmp'], ['--no-install-recommends']);
    binary = findNginx();
    module = binary && rtmpModule(binary);
    if (binary && module !== undefined) return { binary, module };
  }
  throw new Error(`nginx: ${INSTALL_HINT}`);
}

/** A port nobody listens on at this moment (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function listening(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The uid and gid of a user from /etc/passwd, or undefined. */
function userIds(name) {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** The repo's RTMP block with its placeholders filled in. */
export function rtmpBlock({ listen, hookOrigin, hlsDir }) {
  return readFileSync(RTMP_CONF, 'utf8')
    .replaceAll('@RTMP_LISTEN@', listen)
    .replaceAll('@HOOK_ORIGIN@', hookOrigin.replace(/\/+$/, ''))
    .replaceAll('@HLS_DIR@', hlsDir);
}

/**
 * Starts nginx with the RTMP block on 127.0.0.1 (on `port`, else a free one), calling the channel server's hooks at
 * `hookOrigin` and writing HLS into `hlsDir` (else a temp folder, removed by stop()). Answers the RTMP URL encoders
 * publish under (`rtmp://127.0.0.1:PORT/live`), the HLS folder and `stop()`.
 */
export async function startNginx({ hookOrigin, hlsDir: givenHlsDir, port } = {}) {
  if (!hookOrigin) throw new Error('nginx: startNginx needs hookOrigin (the channel server operator listener).');
  const { binary, module } = ensureNginx();
  const prefix = mkdtempSync(join(tmpdir(), 'channel-nginx-'));
  const hlsDir = givenHlsDir ?? join(prefix, 'hls');
  mkdirSync(hlsDir, { recursive: true });
  // As root, nginx's worker is www-data (Debian's user): it must be able to write the HLS folders.
  const worker = isRoot() ? userIds('www-data') : undefined;
  if (worker) {
    // mkdtemp's folder is the owner's only: the worker must reach the HLS folder inside it.
    chmodSync(prefix, 0o755);
    chownSync(hlsDir, worker.uid, worker.gid);
  }
  const user = !isRoot() ? '' : worker ? 'user www-data;' : 'user root;';
  let child;
  let stopping;
  const stopNow = () => {
    if (child && child.exitCode === null && child.signalCode === null) child.stdin.end();
  };
  const onExit = () => {
    stopNow();
    rmSync(prefix, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  const stop = () => {
    stopping ??= (async () => {
      process.off('exit', onExit);
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.stdin.end();
        const timer = setTimeout(() => {
          killPid(join(prefix, 'nginx.pid'));
          child.kill('SIGKILL');
        }, STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
      rmSync(prefix, { recursive: true, force: true });
    })();
    return stopping;
  };
  try {
    // A free port may be taken by another process before nginx binds it: nginx then stops at once, and another port
    // is tried. nginx writes its pid file once its listeners are open, so a listener of someone else's on the chosen
    // port is never taken for nginx.
    for (let attempt = 1; ; attempt++) {
      const chosen = port ?? (await freePort());
      const conf = join(prefix, 'nginx.conf');
      const log = join(prefix, 'error.log');
      const pidFile = join(prefix, 'nginx.pid');
      rmSync(pidFile, { force: true });
      rmSync(log, { force: true });
      writeFileSync(
        conf,
        [
          module,
          user,
          'daemon off;',
          'worker_processes 1;',
          `pid ${pidFile};`,
          // nginx-rtmp writes the stream name, which is the key, at `error` level when it relays a push ("notify:
          // push 'KEY' to …"): `crit` keeps keys out of this log. NGINX_LOG_LEVEL=info shows everything (debugging).
          `error_log ${log} ${process.env.NGINX_LOG_LEVEL || 'crit'};`,
          'events { worker_connections 256; }',
          rtmpBlock({ listen: `127.0.0.1:${chosen}`, hookOrigin, hlsDir }),
        ].join('\n'),
      );
      // nginx runs under a small shell that holds our end of a pipe: when this process ends in any way (SIGKILL
      // included: a crash test, a killed dev server), the pipe closes and the shell stops nginx, so no nginx outlives
      // the process that started it. The shell exits with nginx.
      const started = spawn('/bin/sh', ['-c', GUARD, binary, '-p', prefix, '-c', conf, '-e', log], {
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      child = started;
      let stderr = '';
      started.stderr.on('data', (chunk) => (stderr += chunk));
      const deadline = Date.now() + START_TIMEOUT_MS;
      const up = async () => started.exitCode === null && existsSync(pidFile) && (await listening(chosen));
      let ready = await up();
      while (!ready && started.exitCode === null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        ready = await up();
      }
      if (ready) return { rtmpUrl: `rtmp://127.0.0.1:${chosen}/live`, hlsDir, errorLog: log, stop };
      const tail = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-10).join('\n') : '';
      const why = `${stderr}${tail}`.trim();
      if (port === undefined && attempt < 3 && started.exitCode !== null && /in use/i.test(why)) continue;
      throw new Error(`nginx: it did not start on 127.0.0.1:${chosen}.\n${why}`.trim());
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The shell nginx runs under (`sh -c GUARD nginx ARGS…`): nginx in the background with no stdin, a reader of the
 * shell's stdin (our pipe, kept as fd 3) that stops nginx at its end, and the shell waiting for nginx to exit.
 */
const GUARD =
  'exec 3<&0; "$0" "$@" </dev/null & n=$!; (read -r _ <&3; kill -TERM $n 2>/dev/null) & r=$!; ' +
  'wait $n; s=$?; kill $r 2>/dev/null; exit $s';

/** Kills the process whose pid a file holds (nginx's pid file), if any. */
function killPid(file) {
  try {
    process.kill(Number(readFileSync(file, 'utf8')), 'SIGKILL');
  } catch {
    // no file, or no such process: nothing to stop
  }
}

/** The CLI: starts nginx, runs the command after `--` with INGEST_RTMP_URL and INGEST_HLS_DIR, stops nginx. */
async function main(argv) {
  const split = argv.indexOf('--');
  const flags = split === -1 ? [] : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  const hooksAt = flags.indexOf('--hooks');
  const hookOrigin =
    hooksAt === -1 ? process.env.OPERATOR_PORT && `http://127.0.0.1:${process.env.OPERATOR_PORT}` : flags[hooksAt + 1];
  const unknown = flags.filter((flag, i) => flag !== '--hooks' && i !== hooksAt + 1);
  if (command.length === 0 || unknown.length > 0 || !hookOrigin) {
    console.error('usage: node scripts/nginx.mjs [--hooks ORIGIN] -- <command...>');
    console.error("  --hooks: the channel server's operator listener (default http://127.0.0.1:$OPERATOR_PORT)");
    return 2;
  }
  let nginx;
  try {
    nginx = await startNginx({ hookOrigin });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  }
  console.log(`nginx: RTMP ingest at ${nginx.rtmpUrl}, HLS in ${nginx.hlsDir}, stopped when the command ends`);
  try {
    return await runCommand('nginx', command, {
      ...process.env,
      INGEST_RTMP_URL: nginx.rtmpUrl,
      INGEST_HLS_DIR: nginx.hlsDir,
    });
  } finally {
    await nginx.stop().catch((error) => console.error(`nginx: stopping it failed: ${error.message}`));
  }
}

if (isMain(import.meta.url)) process.exit(await main(process.argv.slice(2)));
