/**
 * What a start does with the data it is given, as real server processes (`server/main.ts`): dev mode runs only on
 * a database it seeded itself (the demo's, which it empties and seeds again when the fixtures change) and refuses
 * any other, which keeps every row; and one DATA_DIR is one process's, so a second process on it is refused while
 * the first keeps answering and keeps what it acknowledged. On the embedded database by default, and on a
 * PostgreSQL server when DATABASE_URL names one (`node scripts/postgres.mjs -- node --import tsx --test ...`).
 * Run: node --import tsx --test server/storage/storage.test.ts
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { LOCK_FILE, lockDataDir, STALE_MS, StartRefused } from './data-dir.js';
import { ChannelDb, fixturesDigest } from './db.js';
import { ACCOUNTS, testDatabase } from '../testing/harness.js';
import { ServerProcess } from '../testing/processes.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
/** No DATABASE_URL: the embedded database, in DATA_DIR. */
const embedded = !process.env.DATABASE_URL;

let database: Awaited<ReturnType<typeof testDatabase>>;
let tmp = '';
let env: Record<string, string | undefined> = {};
const started: ServerProcess[] = [];

beforeEach(async () => {
  database = await testDatabase();
  tmp = mkdtempSync(join(tmpdir(), 'channel-storage-test-'));
  env = { DATABASE_URL: database.options.databaseUrl, DATABASE_TEMPLATES: database.options.databaseTemplates };
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.kill()));
  await database.drop();
  rmSync(tmp, { recursive: true, force: true });
});

/** A server process on `dataDir` (killed after the test). */
function server(name: string, dataDir: string, more: Partial<ConstructorParameters<typeof ServerProcess>[1]> = {}) {
  const process = new ServerProcess(name, { dataDir, ...more, env: { ...env, ...more.env } });
  started.push(process);
  return process;
}

/** Runs `fn` on the test's database with no server running (the embedded one is one process's). */
async function inside<T>(dataDir: string, fn: (db: ChannelDb) => Promise<T>): Promise<T> {
  const db = await ChannelDb.open({
    dataDir,
    databaseUrl: database.options.databaseUrl,
    fixturesDir: FIXTURES,
    seed: async () => assert.fail('the database is seeded already'),
  });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** The stored fixtures digest and whether the demo's mark is there. */
const seeding = (dataDir: string) =>
  inside(dataDir, async (db) => ({
    fixtures: String((await db.get("SELECT value FROM meta WHERE key = 'fixtures'"))?.value),
    demo: (await db.get("SELECT 1 AS marked FROM meta WHERE key = 'demo_data'")) !== undefined,
  }));

/** How many accounts of this email the database holds. */
const accounts = (dataDir: string, email: string) =>
  inside(dataDir, async (db) => Number((await db.get('SELECT count(*) AS n FROM users WHERE email = ?', [email]))!.n));

/** What an older release's database has: fixtures seeded from other files. */
const olderFixtures = (dataDir: string) =>
  inside(dataDir, (db) => db.run("UPDATE meta SET value = 'an older release' WHERE key = 'fixtures'"));

/** The refusal main.ts prints: one line, exit code 1, no stack trace. */
function assertRefused(refused: { code: number | null; printed: string }, reason: RegExp): void {
  assert.equal(refused.code, 1, refused.printed);
  assert.match(refused.printed, reason);
  assert.doesNotMatch(refused.printed, /^\s+at /m, `no stack trace:\n${refused.printed}`);
}

describe('dev mode runs only on a database it seeded', () => {
  test('on a production database --dev is refused and its data stays; CHANNEL_DEV_KEEP_DATA=1 runs on it as it is', async () => {
    const dataDir = join(tmp, 'data');
    const production = server('production', dataDir, { mode: 'production' });
    await production.start();
    const owner = { email: 'customer@example.com', password: 'customer-pass-1' };
    await production.register(owner.email, owner.password);
    await production.stop();
    // Created empty by the command line's import (a production database: no fixtures seeded, events in UTC).
    assert.deepEqual(await seeding(dataDir), { fixtures: 'none', demo: false });

    // Refused whatever the fixtures: the same ones, and an older release's.
    const refusedSame = await server('dev', dataDir).refusedStart();
    assertRefused(refusedSame, /Dev mode will not start on .*dev mode did not seed.*CHANNEL_DEV_KEEP_DATA=1/);
    await olderFixtures(dataDir);
    const refused = await server('dev', dataDir).refusedStart();
    assertRefused(refused, /Dev mode will not start on .*CHANNEL_DEV_KEEP_DATA=1/);
    assert.equal(await accounts(dataDir, owner.email), 1, "the customer's account is still there");
    assert.deepEqual(await seeding(dataDir), { fixtures: 'an older release', demo: false }, 'nothing seeded again');

    const kept = server('dev, data kept', dataDir, { env: { CHANNEL_DEV_KEEP_DATA: '1' } });
    await kept.start();
    await kept.signIn(owner.email, owner.password);
    await kept.stop();
    assert.deepEqual(await seeding(dataDir), { fixtures: 'an older release', demo: false }, 'nothing dropped');
    // And production mode still runs on it, as before.
    await production.start();
    await production.signIn(owner.email, owner.password);
  });

  test('a database dev mode seeded is emptied and seeded again when the fixtures change', async () => {
    const dataDir = join(tmp, 'data');
    const dev = server('dev', dataDir);
    await dev.start();
    const visitor = { email: 'demo-visitor@example.com', password: 'visitor-pass-1' };
    await dev.register(visitor.email, visitor.password);
    await dev.stop();
    assert.equal((await seeding(dataDir)).demo, true, 'marked the demo');
    await olderFixtures(dataDir);
    await dev.start();
    const gone = await dev.send('v2/auth/login', visitor);
    assert.equal(gone.status, 422, `the demo's data went with the old fixtures: ${JSON.stringify(gone.body)}`);
    await dev.signIn(ACCOUNTS.buyer, 'demo-password');
    await dev.stop();
    assert.deepEqual(await seeding(dataDir), { fixtures: fixturesDigest(FIXTURES), demo: true });
  });
  test("the demo's database holding another app's tables is not emptied when the fixtures change", async () => {
    const dataDir = join(tmp, 'data');
    const dev = server('dev', dataDir);
    await dev.start();
    await dev.stop();
    await inside(dataDir, async (db) => {
      await db.run('CREATE TABLE wiki_pages (id integer PRIMARY KEY, body text)');
      await db.run("INSERT INTO wiki_pages VALUES (1, 'not the demo')");
    });
    await olderFixtures(dataDir);
    assertRefused(await server('dev again', dataDir).refusedStart(), /not the channel server's \(wiki_pages\)/);
    const kept = await inside(dataDir, async (db) => (await db.get('SELECT body FROM wiki_pages'))?.body);
    assert.equal(kept, 'not the demo');
  });

  test("the demo's database served once in production mode is the channel's: dev mode no longer empties it", async () => {
    const dataDir = join(tmp, 'data');
    const dev = server('dev', dataDir);
    await dev.start();
    await dev.stop();
    assert.equal((await seeding(dataDir)).demo, true, 'marked the demo');
    // The demo goes live: a real customer registers in production mode (on the demo as dev mode seeded it).
    const production = server('production', dataDir, { mode: 'production', imports: [] });
    await production.start();
    const owner = { email: 'first-customer@example.com', password: 'customer-pass-1' };
    await production.register(owner.email, owner.password);
    await production.stop();
    assert.equal((await seeding(dataDir)).demo, false, 'the mark went with the production start');
    await olderFixtures(dataDir);
    assertRefused(await server('dev again', dataDir).refusedStart(), /Dev mode will not start on/);
    assert.equal(await accounts(dataDir, owner.email), 1, "the customer's account is still there");
  });
});

describe('one DATA_DIR is one process', () => {
  test('a second process on the same DATA_DIR is refused; the first answers on and keeps what it acknowledged', async () => {
    const dataDir = join(tmp, 'data');
    const first = server('first', dataDir);
    await first.start();
    const before = await first.register('before@example.com', 'before-pass-1');

    const refused = await server('second', dataDir).refusedStart();
    assertRefused(
      refused,
      embedded
        ? new RegExp(`DATA_DIR .* is in use by another server \\(process ${first.pid},.*DATABASE_URL`)
        : new RegExp(`DATA_DIR .* is in use by another server \\(process ${first.pid},.*DATA_DIR of its own`),
    );
    assert.equal((await first.get('profile', before)).status, 200, 'the first still answers');
    await first.register('after@example.com', 'after-pass-1');

    // A clean stop gives the folder back, and a crash does not hold it: the next start takes it at once.
    await first.stop();
    await first.start();
    await first.kill();
    await first.start();
    await first.signIn('before@example.com', 'before-pass-1');
    await first.signIn('after@example.com', 'after-pass-1');
  });
});

describe('a lock another machine holds', () => {
  test('is alive while its heartbeat is fresh, and taken over once it is older than STALE_MS', () => {
    const dataDir = join(tmp, 'shared');
    mkdirSync(dataDir);
    const file = join(dataDir, LOCK_FILE);
    // A container on another host (or with its own pid 1) holds it: its pid means nothing here.
    writeFileSync(file, JSON.stringify({ host: 'elsewhere', pid: process.pid, at: new Date().toISOString() }));
    assert.throws(
      () => lockDataDir(dataDir, false),
      (error: unknown) =>
        error instanceof StartRefused &&
        /on host elsewhere/.test(error.message) &&
        /takes the lock over/.test(error.message),
    );
    const old = new Date(Date.now() - STALE_MS - 5000);
    utimesSync(file, old, old);
    const lock = lockDataDir(dataDir, false);
    lock.release();
  });
});

describe('ready-made test databases (DATABASE_TEMPLATES)', () => {
  /** A templates folder with fake templates of other keys, each last used `hoursAgo`. */
  const folder = (name: string, ages: Record<string, number>) => {
    const templates = join(tmp, name);
    mkdirSync(templates);
    for (const [key, hoursAgo] of Object.entries(ages)) {
      mkdirSync(join(templates, key));
      writeFileSync(join(templates, key, 'PG_VERSION'), '16\n');
      const at = new Date(Date.now() - hoursAgo * 3600_000);
      utimesSync(join(templates, key), at, at);
    }
    return templates;
  };
  const open = async (templates: string, dataDir: string) =>
    (await ChannelDb.open({ dataDir: join(tmp, dataDir), templates: { dir: templates, key: 'empty' } })).close();
  const keys = (templates: string) => readdirSync(templates).filter((name) => /^[0-9a-f]{16}$/.test(name));
  const names = (letter: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${letter}${String(i).padStart(15, '0')}`);
  /** `inUse` templates used in the last minutes and 10 unused for 2 to 11 hours, in a folder of their own. */
  const scene = (name: string, inUse: number) => {
    const [used, unused] = [names('a', inUse), names('b', 10)];
    const templates = folder(name, {
      ...Object.fromEntries(used.map((key, i) => [key, i / 60])),
      ...Object.fromEntries(unused.map((key, i) => [key, 2 + i])),
    });
    return { templates, inUse: used, unused };
  };

  test('a template used within the hour is never cleared away, however many there are', async () => {
    // What a test run has: several keys in use at once (seeding days, the demo, empty), and older ones left behind.
    const { templates, inUse, unused } = scene('busy', 10);
    await open(templates, 'data');
    const left = keys(templates);
    assert.equal(left.length, 11, `left: ${left.join(' ')}`);
    for (const key of inUse) assert.ok(left.includes(key), `${key} is in use: kept`);
    for (const key of unused) assert.ok(!left.includes(key), `${key}: unused for hours, past the newest 8: gone`);
  });

  test('unused ones go but for the newest 8; the one used is marked used at each copy', async () => {
    const { templates, inUse, unused } = scene('quiet', 3);
    await open(templates, 'data');
    const left = keys(templates);
    // The one made now, the three in use and the four newest unused ones: eight.
    assert.deepEqual(
      left.filter((key) => !key.startsWith('a') && !key.startsWith('b')).length,
      1,
      `left: ${left.join(' ')}`,
    );
    assert.deepEqual(left.filter((key) => key.startsWith('a')).sort(), inUse);
    assert.deepEqual(left.filter((key) => key.startsWith('b')).sort(), unused.slice(0, 4));
    // A second database is a copy of it, and its time says it was used just now.
    const [made] = left.filter((key) => !key.startsWith('a') && !key.startsWith('b'));
    const past = new Date(Date.now() - 3 * 3600_000);
    utimesSync(join(templates, made!), past, past);
    await open(templates, 'data2');
    assert.ok(statSync(join(templates, made!)).mtimeMs > Date.now() - 60_000, 'marked used');
    assert.deepEqual(keys(templates).sort(), left.sort(), 'no new template made');
  });
});
