/**
 * `npm run bench:server:instructions`: what one request of the viewer mix (server-mix.ts) costs the channel server,
 * in machine instructions counted by valgrind's callgrind: a figure the machine's load does not move, where
 * requests/s on a shared 2-core machine swing by a quarter from one run to the next.
 *
 * Each build named in BENCH_BUILDS runs as a production server process (the request log on, as production's `info`)
 * on a fresh database of a throw-away PostgreSQL server (scripts/postgres.mjs, or DATABASE_URL's server), under
 * callgrind with its instrumentation off. WARM_UP requests of the mix warm it (the compiler, the query plans); then
 * instrumentation is switched on for MEASURED requests over 10 connections, and off again. The builds alternate over
 * BENCH_ROUNDS rounds. The figures: each build's median instructions per request on the main thread (JavaScript,
 * the HTTP parser, the database driver: what bounds one process's throughput) and over all its threads (the
 * compiler's and the garbage collector's helpers too, which vary more from round to round), and their ratio to the
 * first build's. Writes bench/results/server-instructions.json.
 *
 *   BENCH_BUILDS      name=folder pairs, comma-separated: checkouts to compare, each with its node_modules
 *                     (default: this checkout, `this=.`); e.g. `before=../before,after=.`
 *   BENCH_ROUNDS      rounds (default 3)
 *   BENCH_ENV         more server environment, NAME=value pairs separated by spaces (e.g. `LOG_LEVEL=warn`)
 *   WARM_UP, MEASURED requests (default 6,000 and 3,000)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort, LIFTED_LIMITS, viewerMix } from './server-mix.js';
// @ts-expect-error: a plain .mjs helper without type declarations
import { startPostgres } from '../scripts/postgres.mjs';

const ROOT = join(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP = Number(process.env.WARM_UP ?? 6000);
const MEASURED = Number(process.env.MEASURED ?? 3000);
const builds = (process.env.BENCH_BUILDS ?? 'this=.').split(',').map((pair) => {
  const [name = '', folder = ''] = pair.split('=');
  return { name, root: resolve(ROOT, folder) };
});
const extraEnv = Object.fromEntries(
  (process.env.BENCH_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('bench:server:instructions needs valgrind (Debian: apt-get install valgrind).');
  process.exit(1);
}

/** The instructions a callgrind output file counted, and whether it is the main thread's (thread 1). */
function counted(file: string): { instructions: number; main: boolean } {
  const text = readFileSync(file, 'utf8');
  return { instructions: Number(/^totals: (\d+)/m.exec(text)?.[1] ?? 0), main: /^thread: 1$/m.test(text) };
}

/** One round of one build: instructions per request, main thread and all threads. */
async function measure(root: string, databaseUrl: string, work: string) {
  const port = await freePort();
  const out = join(work, `callgrind-${randomBytes(3).toString('hex')}`);
  const child: ChildProcess = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--separate-threads=yes',
      `--callgrind-out-file=${out}`,
      process.execPath,
      '--import',
      'tsx',
      join(root, 'server', 'main.ts'),
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        ...LIFTED_LIMITS,
        DATABASE_URL: databaseUrl,
        DATA_DIR: join(work, `data-${port}`),
        CLIPS_DIR: join(work, 'clips'),
        LOG_LEVEL: 'info',
        ...extraEnv,
      },
      stdio: ['ignore', 'ignore', 'ignore'],
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  // Under valgrind a start takes a minute or two.
  for (let waited = 0; ; waited += 500) {
    if (child.exitCode !== null) throw new Error(`the server in ${root} exited with ${child.exitCode}`);
    if (waited > 600_000) throw new Error('the server did not start in 10 minutes');
    if (
      await fetch(`${origin}/api/settings?channel_key=demo`).then(
        (res) => res.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));
  }
  const requests = await viewerMix(origin);
  await autocannon({ url: origin, connections: 10, amount: WARM_UP, requests, timeout: 120 });
  const control = (state: 'on' | 'off') =>
    spawnSync('callgrind_control', ['--instr', state, String(child.pid)], { stdio: 'ignore' });
  control('on');
  // Under valgrind an answer can take seconds on a busy machine: the time-out is not what is measured.
  const result = await autocannon({ url: origin, connections: 10, amount: MEASURED, requests, timeout: 120 });
  control('off');
  await new Promise<void>((resolveExit) => {
    child.once('exit', () => resolveExit());
    child.kill('SIGTERM');
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  let all = 0;
  let main = 0;
  for (const file of readdirSync(work).filter((name) => name.startsWith(out.slice(work.length + 1)))) {
    const { instructions, main: isMain } = counted(join(work, file));
    all += instructions;
    if (isMain) main += instructions;
  }
  return { main: main / result.requests.total, all: all / result.requests.total };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const work = mkdtempSync(join(tmpdir(), 'channel-bench-instructions-'));
const cluster = process.env.DATABASE_URL
  ? { url: process.env.DATABASE_URL, stop: async () => undefined }
  : ((await startPostgres()) as { url: string; stop(): Promise<void> });
const admin = new pg.Client({ connectionString: cluster.url });
await admin.connect();
const rounds: Record<string, Array<{ main: number; all: number }>> = {};
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const { name, root } of builds) {
      const database = `bench_instructions_${randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${database}`);
      const url = new URL(cluster.url);
      url.pathname = `/${database}`;
      try {
        const figures = await measure(root, url.href, work);
        (rounds[name] ??= []).push(figures);
        console.log(
          `round ${round}, ${name.padEnd(12)} main thread ${Math.round(figures.main).toLocaleString('en')}, ` +
            `all threads ${Math.round(figures.all).toLocaleString('en')} instructions a request`,
        );
      } finally {
        await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
      }
    }
  }
} finally {
  await admin.end();
  await cluster.stop();
  rmSync(work, { recursive: true, force: true });
}

const first = builds[0]!.name;
const summary = builds.map(({ name }) => {
  const main = median(rounds[name]!.map((r) => r.main));
  const all = median(rounds[name]!.map((r) => r.all));
  return {
    build: name,
    mainThread: Math.round(main),
    allThreads: Math.round(all),
    mainRatio: Math.round((main / median(rounds[first]!.map((r) => r.main))) * 1000) / 1000,
    allRatio: Math.round((all / median(rounds[first]!.map((r) => r.all))) * 1000) / 1000,
  };
});
console.log('\nmedians of', ROUNDS, 'rounds, instructions per request (ratio to', `${first}):`);
for (const row of summary)
  console.log(
    `${row.build.padEnd(12)} main thread ${row.mainThread.toLocaleString('en')} (${row.mainRatio}x), ` +
      `all threads ${row.allThreads.toLocaleString('en')} (${row.allRatio}x)`,
  );
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench', 'results', 'server-instructions.json'),
  `${JSON.stringify({ warmUp: WARM_UP, measured: MEASURED, rounds: ROUNDS, env: extraEnv, summary, raw: rounds }, null, 2)}\n`,
);
