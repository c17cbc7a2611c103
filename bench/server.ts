/**
 * `npm run bench:server`: what the channel server carries, measured with autocannon against real server processes
 * (production mode, as a channel runs it, with the per-address limits lifted: every request here comes from one
 * address). The viewer mix, each connection looping over it: a new visitor's `POST get_api_key`, the keyless
 * settings, the events list (20), one event, and a signed-in viewer's profile.
 *
 * Configurations: the embedded PGlite (one process: it is single-user), a PostgreSQL server with one process and
 * with two processes (two ports, connections spread over both), each at 50 and 200 connections; then the embedded
 * store again with the analytics table full (ANALYTICS_FILL records) to show no request waits on it. Each run
 * follows WARM_UP_SECONDS of the same load, not counted (a serving process is warm). Figures: requests/s, p50, p99
 * and the slowest request, and the non-2xx answers (which must be none).
 *
 * Then analytics posts against a busy channel (issue 46): on each engine, one process whose `demo` channel holds
 * POSTS_FILL analytics records of the last 30 days (a month of ordinary traffic), a probe (a signed-in viewer's
 * profile, which reads the database, one request at a time) measured alone and while datalake records are posted
 * at POSTS_PER_SECOND: the probe's p50, p99 and slowest, and each post's own time.
 *
 * A production start leaves a new database empty: each database gets its channels first from the command line
 * (`channel-server import`): the demo's file and the generated `bench` channel's, as an operator would load them.
 *
 * The PostgreSQL server is a throw-away cluster (scripts/postgres.mjs), or `DATABASE_URL` when given (a database
 * is created in it and dropped after). Writes bench/results/server.json.
 *
 *   BENCH_SECONDS      seconds per run (default 10)
 *   BENCH_ONLY         pglite | postgres: one engine only; analytics-posts: only the analytics posts, both engines
 *   ANALYTICS_FILL     records in the full-analytics run (default 200,000)
 *   POSTS_FILL         records of the channel the analytics posts go to (default 500,000)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { buyerSession, freePort, LIFTED_LIMITS, viewerMix } from './server-mix.js';
import { benchFixture } from '../server/fixtures/fixtures.js';
// @ts-expect-error: a plain .mjs helper without type declarations
import { startPostgres } from '../scripts/postgres.mjs';

const ROOT = join(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ONLY = process.env.BENCH_ONLY;
const FILL = Number(process.env.ANALYTICS_FILL ?? 200_000);
const POSTS_FILL = Number(process.env.POSTS_FILL ?? 500_000);
/** Analytics posts a second in the posts scenario (the issue's: a third of what one address may send). */
const POSTS_PER_SECOND = 3;
/** The viewer mix and the load runs; `analytics-posts` runs only that scenario. */
const MIX = ONLY !== 'analytics-posts';
const TEMPLATES = join(ROOT, '.cache', 'db-templates');

/**
 * Loads the demo and bench channels into a new database (DATA_DIR or DATABASE_URL in `env`) through the command
 * line, as an operator would.
 */
function importChannels(env: Record<string, string>): void {
  const benchFile = join(work, 'bench-channel.json');
  writeFileSync(benchFile, JSON.stringify(benchFixture()));
  for (const file of [join(ROOT, 'server', 'fixtures', 'demo.json'), benchFile]) {
    const done = spawnSync(process.execPath, [join(ROOT, 'server', 'bin', 'channel-server.mjs'), 'import', file], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_TEMPLATES: TEMPLATES, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (done.status !== 0) throw new Error(`channel-server import ${file} exited with ${done.status}`);
  }
}

/** One server process in production mode, limits lifted; resolves once it answers. */
async function serverProcess(env: Record<string, string>): Promise<{ origin: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      ...LIFTED_LIMITS,
      DATABASE_TEMPLATES: TEMPLATES,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 250) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/settings?channel_key=bench`)).ok) return { origin, child };
    } catch {
      // not listening yet
    }
    if (waited > 180_000) throw new Error('the server did not start in 3 minutes');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const stopAll = async (children: ChildProcess[]) => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
};

interface Figures {
  config: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
}

/** Seconds of the same load before each measured run: a server that has been serving is warm (JIT, plans). */
const WARM_UP_SECONDS = 3;

async function load(config: string, origins: string[], connections: number): Promise<Figures> {
  const requests = await viewerMix(origins[0]!);
  await autocannon({
    url: origins as unknown as string,
    connections,
    duration: WARM_UP_SECONDS,
    requests,
  });
  const result = await autocannon({
    // Several URLs spread the connections over them (autocannon's README); its types name one.
    url: origins as unknown as string,
    connections,
    duration: SECONDS,
    requests,
  });
  const figures = {
    config,
    connections,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  console.log(
    `${config.padEnd(34)} ${String(connections).padStart(4)} conns: ${String(figures.rps).padStart(5)} req/s, ` +
      `p50 ${figures.p50} ms, p99 ${figures.p99} ms, max ${figures.max} ms, non-2xx ${figures.non2xx}, errors ${figures.errors}`,
  );
  return figures;
}

/** A statement runner of either engine (PGlite's query or a node-postgres client's). */
type Query = (text: string, values: unknown[]) => Promise<unknown>;

/**
 * Fills a channel's analytics table (straight into the database, one INSERT ... SELECT) with `records` more, their
 * times spread over `spanMs` before now, from 250 addresses, as a busy channel's would be; then brings the channel
 * totals the server keeps (analytics_totals, where the schema has it) up to date, as the server's own inserts would.
 */
async function fillAnalytics(query: Query, records: number, spanMs = records) {
  const body = JSON.stringify({
    profile: 'demo-analytics-profile',
    event: 'visit_page',
    page: '/live',
    session_uuid: 'x'.repeat(32),
  });
  await query(
    `INSERT INTO analytics (channel, at, kind, origin, address, bytes, body)
     SELECT 'demo', $1::bigint - (g::bigint * $4::bigint / $3::bigint), 'event', NULL,
       '2001:db8:0:' || to_hex(g % 250) || '::/64', length($2), $2
     FROM generate_series(1, $3::int) AS g`,
    [Date.now(), body, records, spanMs],
  );
  await query(
    `DO $$ BEGIN
       IF to_regclass('analytics_totals') IS NOT NULL THEN
         INSERT INTO analytics_totals (channel, records, bytes)
           SELECT channel, count(*), sum(bytes) FROM analytics GROUP BY channel
           ON CONFLICT (channel) DO UPDATE SET records = excluded.records, bytes = excluded.bytes;
       END IF;
     END $$`,
    [],
  );
  await query('ANALYZE analytics', []);
}

/** Latencies (ms) in order: the nearest-rank percentile `p`. */
const rank = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

interface Spread {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

const spread = (times: number[]): Spread => {
  const sorted = [...times].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    count: sorted.length,
    p50: round(rank(sorted, 50)),
    p99: round(rank(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
};

interface PostFigures {
  config: string;
  /** The probe alone, then while the posts run. */
  alone: Spread;
  posting: Spread;
  /** Each post's own time, and the posts not answered 200. */
  posts: Spread;
  refused: number;
}

/**
 * A signed-in viewer's profile, one request at a time (20 ms apart) for SECONDS, alone and then while datalake
 * records are posted at POSTS_PER_SECOND (each from the same address, well within its quota).
 */
async function probeWhilePosting(config: string, origin: string): Promise<PostFigures> {
  const { apiKey, token } = await buyerSession(origin);
  const probe = async (seconds: number) => {
    const times: number[] = [];
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      const started = performance.now();
      const res = await fetch(`${origin}/api/profile?api_key=${apiKey}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await res.text();
      if (!res.ok) throw new Error(`the probe answered ${res.status}`);
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return times;
  };
  await probe(WARM_UP_SECONDS);
  const alone = await probe(SECONDS);
  const posts: number[] = [];
  let refused = 0;
  const sent: Promise<void>[] = [];
  const body = JSON.stringify({
    profile: 'demo-analytics-profile',
    session_uuid: 'b'.repeat(32),
    user_id: null,
    user_email: null,
    event: 'visit_page',
    page: '/live',
  });
  const poster = setInterval(() => {
    const started = performance.now();
    sent.push(
      fetch(`${origin}/datalake/event/`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body }).then(
        async (res) => {
          await res.text();
          posts.push(performance.now() - started);
          if (res.status !== 200) refused++;
        },
      ),
    );
  }, 1000 / POSTS_PER_SECOND);
  let posting: number[];
  try {
    posting = await probe(SECONDS);
  } finally {
    clearInterval(poster);
  }
  await Promise.all(sent);
  const figures = { config, alone: spread(alone), posting: spread(posting), posts: spread(posts), refused };
  const text = (s: Spread) => `p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms`;
  console.log(
    `${config}: probe alone ${text(figures.alone)}; while posting ${text(figures.posting)}; ` +
      `${figures.posts.count} posts ${text(figures.posts)}, ${refused} not 200`,
  );
  return figures;
}

const results: Figures[] = [];
const postResults: PostFigures[] = [];
/** The posts scenario's records: the last 30 days but an hour, so the start's pruning keeps them all. */
const POSTS_SPAN_MS = 30 * 86_400_000 - 3_600_000;
const postsConfig = (engine: string) => `${engine}, ${POSTS_FILL.toLocaleString('en')} records`;
const work = mkdtempSync(join(tmpdir(), 'channel-bench-server-'));
try {
  if (ONLY !== 'postgres') {
    const { PGlite } = await import('@electric-sql/pglite');
    if (MIX) {
      const dataDir = join(work, 'pglite');
      importChannels({ DATA_DIR: dataDir });
      const one = await serverProcess({ DATA_DIR: dataDir });
      try {
        for (const connections of [50, 200]) results.push(await load('PGlite, 1 process', [one.origin], connections));
      } finally {
        await stopAll([one.child]);
      }
      // The same database with its analytics table full, filled while no server holds it (PGlite is single-user).
      const lite = await PGlite.create(join(dataDir, 'pgdata'));
      await fillAnalytics((text, values) => lite.query(text, values), FILL);
      await lite.close();
      const full = await serverProcess({ DATA_DIR: dataDir });
      try {
        results.push(await load(`PGlite, analytics full (${FILL.toLocaleString('en')})`, [full.origin], 50));
      } finally {
        await stopAll([full.child]);
      }
    }
    // Analytics posts against a busy channel: a database of its own, made by a first start and then filled.
    const postsDir = join(work, 'pglite-posts');
    importChannels({ DATA_DIR: postsDir });
    await stopAll([(await serverProcess({ DATA_DIR: postsDir })).child]);
    const lite = await PGlite.create(join(postsDir, 'pgdata'));
    await fillAnalytics((text, values) => lite.query(text, values), POSTS_FILL, POSTS_SPAN_MS);
    await lite.close();
    const busy = await serverProcess({ DATA_DIR: postsDir });
    try {
      postResults.push(await probeWhilePosting(postsConfig('PGlite'), busy.origin));
    } finally {
      await stopAll([busy.child]);
    }
  }
  if (ONLY !== 'pglite') {
    const cluster = process.env.DATABASE_URL
      ? { url: process.env.DATABASE_URL, stop: async () => undefined }
      : ((await startPostgres()) as { url: string; stop(): Promise<void> });
    const name = `channel_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.query(`CREATE DATABASE ${name}_posts`);
    const database = (suffix = '') => {
      const url = new URL(cluster.url);
      url.pathname = `/${name}${suffix}`;
      return url.href;
    };
    const clips = join(work, 'clips');
    mkdirSync(clips);
    try {
      if (MIX) {
        const url = database();
        importChannels({ DATA_DIR: join(work, 'pg-a'), DATABASE_URL: url });
        const first = await serverProcess({ DATA_DIR: join(work, 'pg-a'), DATABASE_URL: url, CLIPS_DIR: clips });
        const children = [first.child];
        try {
          for (const connections of [50, 200])
            results.push(await load('PostgreSQL, 1 process', [first.origin], connections));
          const second = await serverProcess({ DATA_DIR: join(work, 'pg-b'), DATABASE_URL: url, CLIPS_DIR: clips });
          children.push(second.child);
          for (const connections of [50, 200])
            results.push(await load('PostgreSQL, 2 processes', [first.origin, second.origin], connections));
          const db = new pg.Client({ connectionString: url });
          await db.connect();
          await fillAnalytics((text, values) => db.query(text, values), FILL);
          await db.end();
          results.push(await load(`PostgreSQL, 2 processes, analytics full`, [first.origin, second.origin], 50));
        } finally {
          await stopAll(children);
        }
      }
      const url = database('_posts');
      importChannels({ DATA_DIR: join(work, 'pg-posts'), DATABASE_URL: url });
      const busy = await serverProcess({ DATA_DIR: join(work, 'pg-posts'), DATABASE_URL: url, CLIPS_DIR: clips });
      try {
        const db = new pg.Client({ connectionString: url });
        await db.connect();
        await fillAnalytics((text, values) => db.query(text, values), POSTS_FILL, POSTS_SPAN_MS);
        await db.end();
        postResults.push(await probeWhilePosting(postsConfig('PostgreSQL, 1 process'), busy.origin));
      } finally {
        await stopAll([busy.child]);
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`DROP DATABASE IF EXISTS ${name}_posts WITH (FORCE)`);
      await admin.end();
      await cluster.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench', 'results', 'server.json'),
  `${JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, results, analyticsPosts: postResults }, null, 2)}\n`,
);
if (results.length) {
  console.log('\n| configuration | connections | requests/s | p50 | p99 | slowest | non-2xx |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results)
    console.log(
      `| ${r.config} | ${r.connections} | ${r.rps} | ${r.p50} ms | ${r.p99} ms | ${r.max} ms | ${r.non2xx} |`,
    );
}
if (postResults.length) {
  console.log(
    `\n| analytics posts (${POSTS_PER_SECOND}/s) | probe alone p50 / p99 / slowest | probe while posting | each post |`,
  );
  console.log('|---|---|---|---|');
  const cell = (s: Spread) => `${s.p50} / ${s.p99} / ${s.max} ms`;
  for (const r of postResults)
    console.log(`| ${r.config} | ${cell(r.alone)} | ${cell(r.posting)} | ${cell(r.posts)} (${r.refused} not 200) |`);
}
