/**
 * Tests of the one-time import of the old server's SQLite file (sqlite-import.ts): an old-format file is built with
 * sql.js (the tables the import reads, as the old server's schema had them), imported into a migrated and seeded
 * test database, and every mapping checked: new ids, products, teams and events found again by their stable keys,
 * a demo account updated in place, the clip folder moved, settings and secrets taken over, the marker written. A
 * second call imports nothing; a file of another schema, or one that fails half-way, imports nothing either.
 * Run: node --import tsx --test server/storage/sqlite-import.test.ts
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import initSqlJs, { type Database } from 'sql.js';
import { hashPassword, verifyPassword } from '../accounts/accounts.js';
import type { ChannelDb, Row } from './db.js';
import { IMPORT_MARKER, importSqlite } from './sqlite-import.js';
import { ok, openTestDb } from '../testing/harness.js';

/**
 * The old server's tables that the import reads (and two it must leave alone: tokens, api_keys), as its schema
 * (version 10) declared them. Version 9 lacks participants.parent_id, version 8 orders.partner too.
 */
function oldSchema(version: number): string {
  return `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE channels (id INTEGER PRIMARY KEY, channel_key TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
CREATE TABLE api_keys (
  api_key TEXT PRIMARY KEY, channel_id INTEGER NOT NULL REFERENCES channels(id), created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL);
CREATE TABLE settings (
  channel_id INTEGER PRIMARY KEY REFERENCES channels(id), json TEXT NOT NULL, fixture_json TEXT NOT NULL);
CREATE TABLE categories (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, parent_id INTEGER, position INTEGER NOT NULL,
  name TEXT NOT NULL, alias TEXT, sport TEXT, gender TEXT);
CREATE TABLE participant_groups (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, name TEXT NOT NULL, alias TEXT, image TEXT,
  properties_json TEXT NOT NULL DEFAULT '{}');
CREATE TABLE participants (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, group_id INTEGER,${version >= 10 ? ' parent_id INTEGER,' : ''}
  name TEXT NOT NULL, short_name TEXT, alias TEXT, logo TEXT, color TEXT, gender TEXT, sport TEXT);
CREATE TABLE events (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, key TEXT, name TEXT NOT NULL, type TEXT NOT NULL,
  start_offset INTEGER NOT NULL, duration INTEGER NOT NULL, time_zone TEXT, home_team_id INTEGER, location_id INTEGER,
  category_id INTEGER, image TEXT, description TEXT, price REAL, single_event_package_id INTEGER,
  has_recording INTEGER NOT NULL DEFAULT 1, is_geo_blocked INTEGER NOT NULL DEFAULT 0);
CREATE UNIQUE INDEX events_key ON events (channel_id, key) WHERE key IS NOT NULL;
CREATE TABLE event_reschedules (event_id INTEGER PRIMARY KEY, start_offset INTEGER NOT NULL, duration INTEGER NOT NULL);
CREATE TABLE users (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL REFERENCES channels(id), email TEXT NOT NULL,
  password_hash TEXT, first_name TEXT, last_name TEXT, gender TEXT CHECK (gender IN ('M', 'W')),
  capabilities_json TEXT NOT NULL DEFAULT '[]', temporary_password INTEGER NOT NULL DEFAULT 0,
  trial_period_used INTEGER NOT NULL DEFAULT 0, is_geo_blocked INTEGER NOT NULL DEFAULT 0,
  clips_count INTEGER NOT NULL DEFAULT 0, downloads_count INTEGER NOT NULL DEFAULT 0,
  news INTEGER NOT NULL DEFAULT 0, provider TEXT NOT NULL DEFAULT 'email',
  email_verified_at INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE UNIQUE INDEX users_email ON users (channel_id, lower(email));
CREATE TABLE tokens (
  token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL, last_used_at INTEGER, expires_at INTEGER NOT NULL);
CREATE TABLE packages (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('single', 'category')), is_team_pass INTEGER NOT NULL DEFAULT 0,
  price REAL NOT NULL, base_price REAL, service_fee REAL, weight INTEGER NOT NULL DEFAULT 0,
  offer TEXT, period TEXT, description TEXT);
CREATE TABLE subscriptions (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL,
  offer TEXT NOT NULL, period TEXT, price REAL NOT NULL, base_price REAL, service_fee REAL,
  trial_period INTEGER, weight INTEGER NOT NULL DEFAULT 0, description TEXT);
CREATE TABLE orders (
  id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL, user_id INTEGER NOT NULL REFERENCES users(id),
  type TEXT NOT NULL CHECK (type IN ('event', 'package', 'subscription')), product_id INTEGER NOT NULL,
  participant_id INTEGER, status TEXT NOT NULL, activity_status TEXT NOT NULL, price REAL, currency TEXT,
  reference TEXT, subscription_status TEXT, auto_renewal TEXT CHECK (auto_renewal IN ('active', 'cancelled')),
  error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, expires_at INTEGER,
  idempotency_key TEXT, payment_method TEXT, coupon TEXT, save_card INTEGER NOT NULL DEFAULT 0, settles_at INTEGER,
  renewal_cancel_at INTEGER, is_trial INTEGER NOT NULL DEFAULT 0${version >= 9 ? ', partner TEXT' : ''});
CREATE UNIQUE INDEX orders_idempotency ON orders (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE TABLE payment_methods (
  id TEXT PRIMARY KEY, channel_id INTEGER NOT NULL, brand TEXT NOT NULL, last4 TEXT NOT NULL,
  exp_month INTEGER NOT NULL, exp_year INTEGER NOT NULL, fingerprint TEXT NOT NULL, outcome TEXT NOT NULL,
  user_id INTEGER, saved INTEGER NOT NULL DEFAULT 0, used INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL);
CREATE TABLE setup_intents (
  id TEXT PRIMARY KEY, channel_id INTEGER NOT NULL, user_id INTEGER NOT NULL, secret_hash TEXT NOT NULL,
  status TEXT NOT NULL, payment_method TEXT, created_at INTEGER NOT NULL);
CREATE TABLE transactions (
  id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id), user_id INTEGER NOT NULL,
  status TEXT NOT NULL, amount REAL NOT NULL, currency TEXT, label TEXT, created_at INTEGER NOT NULL);
CREATE TABLE clips (
  id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, event_id INTEGER NOT NULL, uuid TEXT NOT NULL, name TEXT NOT NULL,
  start_time REAL NOT NULL, duration REAL NOT NULL, tags_json TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'done', 'failed')),
  progress INTEGER NOT NULL DEFAULT 0, source TEXT NOT NULL CHECK (source IN ('vod', 'live')),
  asset_offset REAL NOT NULL, error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE favourites (
  id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL,
  favoritable_type TEXT NOT NULL CHECK (favoritable_type IN ('participant', 'group', 'category')),
  favoritable_id INTEGER NOT NULL, created_at INTEGER NOT NULL, UNIQUE (user_id, favoritable_type, favoritable_id));
`;
}

/** Old ids, chosen unlike any the new database gives, so that a mapping that forgot to map shows. */
const OLD = {
  demo: 7,
  gone: 8,
  paidLive: 500,
  keyless: 501,
  seasonPass: 300,
  monthly: 200,
  team: 900,
  school: 901,
  sport: 902,
  viewer: 40,
  buyer: 41,
  stranger: 42,
  clip: 60,
  queuedClip: 61,
} as const;

const NEW_VIEWER = { email: 'new.viewer@example.org', password: 'new-viewer-pass-1' };
const SECRETS = { media_secret: 'old-media', verify_secret: 'old-verify', card_fingerprint_secret: 'old-fingerprint' };
const TIME = 1_700_000_000;

/** What the seeded test database holds that the old file refers to. */
interface Seeded {
  demo: number;
  paidLive: number;
  keyless: Row;
  seasonPass: number;
  monthly: number;
  team: number;
  school: number;
  sport: number;
  buyer: number;
  settings: Row;
  fixtures: string;
}

async function seeded(db: ChannelDb): Promise<Seeded> {
  const one = async (sql: string, params: Array<string | number>) => {
    const row = await db.get(sql, params);
    ok(row, `nothing for ${sql} ${params.join(', ')}`);
    return row;
  };
  const demo = Number((await one('SELECT id FROM channels WHERE channel_key = ?', ['demo'])).id);
  const id = async (sql: string, value: string) => Number((await one(sql, [demo, value])).id);
  return {
    demo,
    paidLive: await id('SELECT id FROM events WHERE channel_id = ? AND key = ?', 'paid-live'),
    keyless: await one(
      'SELECT id, name, type, start_offset, duration FROM events WHERE channel_id = ? AND key IS NULL ORDER BY id LIMIT 1',
      [demo],
    ),
    seasonPass: await id('SELECT id FROM packages WHERE channel_id = ? AND name = ?', 'Hockey Season Pass'),
    monthly: await id('SELECT id FROM subscriptions WHERE channel_id = ? AND name = ?', 'All-Access Monthly'),
    team: await id('SELECT id FROM participants WHERE channel_id = ? AND alias = ?', 'coastal-pacific-m-soccer'),
    school: await id('SELECT id FROM participant_groups WHERE channel_id = ? AND alias = ?', 'northfield'),
    sport: await id('SELECT id FROM categories WHERE channel_id = ? AND alias = ?', 'hockey'),
    buyer: await id('SELECT id FROM users WHERE channel_id = ? AND email = ?', 'buyer@demo-sports.example'),
    settings: await one('SELECT json, fixture_json FROM settings WHERE channel_id = ?', [demo]),
    fixtures: String((await one('SELECT value FROM meta WHERE key = ?', ['fixtures'])).value),
  };
}

/** The settings the old file holds for `demo`: the seeded ones with one change. */
const changedSettings = (s: Seeded) => JSON.stringify({ ...JSON.parse(String(s.settings.json)), sqlite_test: 'yes' });

/**
 * Writes DATA_DIR/channel.sqlite in the old format (and the done clip's folder, DATA_DIR/clips/60/): an account of
 * its own, a demo account with a changed first name, their orders, a transaction, cards, favourites and clips, the
 * changed settings of `demo`, the signing secrets; and rows the import must leave out (a channel it does not know,
 * an unknown product, team or event, tokens, an api key). `more` changes the file before it is written.
 */
async function writeOldFile(dataDir: string, s: Seeded, version: number, more?: (old: Database) => void) {
  const SQL = await initSqlJs();
  const old = new SQL.Database();
  old.exec(oldSchema(version));
  const insert = (table: string, row: Record<string, string | number | null>) =>
    old.run(
      `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
        .map(() => '?')
        .join(', ')})`,
      Object.values(row),
    );
  for (const [key, value] of Object.entries({ schema_version: String(version), fixtures: s.fixtures, ...SECRETS }))
    insert('meta', { key, value });
  insert('channels', { id: OLD.demo, channel_key: 'demo', name: 'Demo Sports' });
  insert('channels', { id: OLD.gone, channel_key: 'gone', name: 'A channel no more' });
  insert('api_keys', { api_key: 'old-api-key', channel_id: OLD.demo, created_at: TIME, last_used_at: TIME });
  insert('settings', { channel_id: OLD.demo, json: changedSettings(s), fixture_json: String(s.settings.fixture_json) });

  insert('events', {
    id: OLD.paidLive,
    channel_id: OLD.demo,
    key: 'paid-live',
    name: 'Coastal Pacific Gulls @ Riverside Otters',
    type: 'paid',
    start_offset: -3360,
    duration: 14400,
    price: 14.99,
  });
  // A keyless event a dev endpoint moved: it is found by its name and the schedule it was seeded with.
  insert('events', {
    id: OLD.keyless,
    channel_id: OLD.demo,
    key: null,
    name: String(s.keyless.name),
    type: String(s.keyless.type),
    start_offset: 123_456,
    duration: Number(s.keyless.duration),
  });
  insert('event_reschedules', {
    event_id: OLD.keyless,
    start_offset: Number(s.keyless.start_offset),
    duration: Number(s.keyless.duration),
  });
  insert('packages', {
    id: OLD.seasonPass,
    channel_id: OLD.demo,
    position: 0,
    name: 'Hockey Season Pass',
    type: 'category',
    price: 99,
  });
  insert('subscriptions', {
    id: OLD.monthly,
    channel_id: OLD.demo,
    position: 0,
    name: 'All-Access Monthly',
    offer: 'monthly',
    price: 19.99,
  });
  insert('participants', {
    id: OLD.team,
    channel_id: OLD.demo,
    name: 'Coastal Pacific Gulls',
    alias: 'coastal-pacific-m-soccer',
  });
  insert('participant_groups', { id: OLD.school, channel_id: OLD.demo, name: 'Northfield', alias: 'northfield' });
  insert('categories', { id: OLD.sport, channel_id: OLD.demo, position: 3, name: 'Hockey', alias: 'hockey' });

  const user = (id: number, channel: number, email: string, hash: string, first: string) =>
    insert('users', {
      id,
      channel_id: channel,
      email,
      password_hash: hash,
      first_name: first,
      last_name: 'Old',
      capabilities_json: '["watch"]',
      clips_count: 1,
      email_verified_at: TIME + 50,
      created_at: TIME,
      updated_at: TIME + 100,
    });
  user(OLD.viewer, OLD.demo, NEW_VIEWER.email, await hashPassword(NEW_VIEWER.password), 'Nova');
  // The seeded demo account, its email written in another case.
  user(OLD.buyer, OLD.demo, 'Buyer@Demo-Sports.example', await hashPassword('old-buyer-pass'), 'Changed');
  user(OLD.stranger, OLD.gone, 'someone@example.org', await hashPassword('whatever-1'), 'Gone');
  insert('tokens', { token_hash: 'a'.repeat(64), user_id: OLD.viewer, created_at: TIME, expires_at: TIME + 86400 });

  const order = (row: Record<string, string | number | null>) =>
    insert('orders', {
      channel_id: OLD.demo,
      status: 'paid',
      activity_status: 'active',
      currency: 'USD',
      created_at: TIME + 200,
      updated_at: TIME + 300,
      ...row,
    });
  order({
    id: 70,
    user_id: OLD.buyer,
    type: 'event',
    product_id: OLD.paidLive,
    price: 14.99,
    idempotency_key: 'idem-70',
    payment_method: 'pm_old1',
    ...(version >= 9 ? { partner: 'acme' } : {}),
  });
  // Pending: it settles (by its card) on the new server.
  order({
    id: 71,
    user_id: OLD.viewer,
    type: 'subscription',
    product_id: OLD.monthly,
    status: 'created',
    activity_status: 'inactive',
    price: 19.99,
    idempotency_key: 'idem-71',
    payment_method: 'pm_old2',
    save_card: 1,
    settles_at: (TIME + 400) * 1000,
  });
  order({ id: 72, user_id: OLD.viewer, type: 'package', product_id: OLD.seasonPass, price: 99 });
  order({ id: 73, user_id: OLD.viewer, type: 'event', product_id: 9999, price: 5 });
  insert('transactions', { id: 80, order_id: 70, user_id: OLD.buyer, status: 'paid', amount: 14.99, created_at: TIME });
  insert('transactions', { id: 81, order_id: 73, user_id: OLD.viewer, status: 'paid', amount: 5, created_at: TIME });

  const card = (id: string, userId: number | null, saved: number, used: number) =>
    insert('payment_methods', {
      id,
      channel_id: OLD.demo,
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2040,
      fingerprint: `fp-${id}`,
      outcome: 'succeeded',
      user_id: userId,
      saved,
      used,
      created_at: TIME,
    });
  card('pm_old1', OLD.buyer, 0, 1);
  card('pm_old2', OLD.viewer, 1, 0);
  card('pm_never_used', null, 0, 0);
  insert('setup_intents', {
    id: 'seti_old1',
    channel_id: OLD.demo,
    user_id: OLD.viewer,
    secret_hash: 'b'.repeat(64),
    status: 'succeeded',
    payment_method: 'pm_old2',
    created_at: TIME,
  });

  const favourite = (id: number, type: string, target: number) =>
    insert('favourites', {
      id,
      user_id: OLD.viewer,
      favoritable_type: type,
      favoritable_id: target,
      created_at: TIME,
    });
  favourite(110, 'participant', OLD.team);
  favourite(111, 'group', OLD.school);
  favourite(112, 'category', OLD.sport);
  favourite(113, 'participant', 999);

  const clip = (id: number, userId: number, event: number, status: string) =>
    insert('clips', {
      id,
      user_id: userId,
      event_id: event,
      uuid: `uuid-${id}`,
      name: `Clip ${id}`,
      start_time: 5,
      duration: 10,
      tags_json: '["goal"]',
      status,
      progress: status === 'done' ? 100 : 0,
      source: 'vod',
      asset_offset: 5,
      created_at: TIME,
      updated_at: TIME,
    });
  clip(OLD.clip, OLD.viewer, OLD.keyless, 'done');
  clip(OLD.queuedClip, OLD.buyer, OLD.paidLive, 'queued');
  more?.(old);

  mkdirSync(join(dataDir, 'clips', String(OLD.clip), '360p'), { recursive: true });
  writeFileSync(join(dataDir, 'clips', String(OLD.clip), 'clip.json'), '{"old":60}\n');
  writeFileSync(join(dataDir, 'clips', String(OLD.clip), '360p', '0.ts'), 'segment');
  const file = join(dataDir, 'channel.sqlite');
  writeFileSync(file, old.export());
  old.close();
  return file;
}

/** Row counts of the tables an import writes, to see that nothing was. */
async function counts(db: ChannelDb): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['users', 'orders', 'transactions', 'favourites', 'clips', 'payment_methods', 'setup_intents']) {
    out[table] = Number((await db.get(`SELECT count(*) AS n FROM ${table}`))!.n);
  }
  out.meta = Number((await db.get('SELECT count(*) AS n FROM meta'))!.n);
  return out;
}

const tmp = mkdtempSync(join(tmpdir(), 'sqlite-import-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('importing an old SQLite file', () => {
  let test1: Awaited<ReturnType<typeof openTestDb>>;
  let db: ChannelDb;
  let s: Seeded;
  const dataDir = join(tmp, 'data');
  const clipsDir = join(dataDir, 'clips');
  let file = '';
  const logs: string[] = [];
  let report: Awaited<ReturnType<typeof importSqlite>>;
  let before1: Record<string, number>;
  /** The new id of an old user, by email. */
  const userId = async (email: string) =>
    Number((await db.get('SELECT id FROM users WHERE lower(email) = lower(?)', [email]))!.id);

  before(async () => {
    test1 = await openTestDb();
    db = test1.db;
    s = await seeded(db);
    file = await writeOldFile(dataDir, s, 10);
    before1 = await counts(db);
    report = await importSqlite(db, file, (message) => logs.push(message), clipsDir);
  });
  after(() => test1.close());

  test('answers what it imported and what it skipped, and logs it in one line', () => {
    ok(report, 'an import report');
    assert.deepEqual(
      { ...report, skipped: undefined },
      {
        users: 2,
        mergedUsers: 1,
        orders: 3,
        transactions: 1,
        favourites: 3,
        clips: 2,
        clipFolders: 1,
        settings: 1,
        paymentMethods: 2,
        setupIntents: 1,
        secrets: 3,
        skipped: undefined,
      },
    );
    assert.deepEqual(
      report.skipped.map((skip) => `${skip.table} ${skip.id}`),
      ['users 42', 'orders 73', 'transactions 81', 'favourites 113'],
    );
    ok(/its event \(id 9999\) matches none/.test(report.skipped[1]!.reason), report.skipped[1]!.reason);
    assert.equal(logs.filter((line) => line.startsWith('SQLite import: skipped ')).length, 4);
    const summary = logs.at(-1)!;
    ok(summary.includes(file) && summary.includes('2 users (1 already there), 3 orders'), summary);
  });

  test('a new account gets a new id and keeps its password, profile and times', async () => {
    const row = await db.get('SELECT * FROM users WHERE email = ?', [NEW_VIEWER.email]);
    ok(row, 'the imported account');
    assert.notEqual(Number(row.id), OLD.viewer);
    assert.equal(Number(row.channel_id), s.demo);
    ok(await verifyPassword(NEW_VIEWER.password, String(row.password_hash)), 'the old password signs in');
    assert.equal(row.first_name, 'Nova');
    assert.equal(row.capabilities_json, '["watch"]');
    assert.deepEqual(
      [row.created_at, row.updated_at, row.email_verified_at, row.clips_count],
      [TIME, TIME + 100, TIME + 50, 1],
    );
    // Tokens are not imported: the account signs in again.
    assert.equal(Number((await db.get('SELECT count(*) AS n FROM tokens WHERE user_id = ?', [Number(row.id)]))!.n), 0);
    assert.equal(await db.get("SELECT 1 AS ok FROM api_keys WHERE api_key = 'old-api-key'"), undefined);
    assert.equal(await db.get("SELECT 1 AS ok FROM users WHERE email = 'someone@example.org'"), undefined);
  });

  test('a demo account keeps its row and id, updated from the old one; its seeded activity is the old file’s', async () => {
    const row = await db.get('SELECT * FROM users WHERE id = ?', [s.buyer]);
    ok(row, 'the demo account');
    assert.equal(row.email, 'buyer@demo-sports.example');
    assert.equal(row.first_name, 'Changed');
    ok(await verifyPassword('old-buyer-pass', String(row.password_hash)), 'its old password');
    assert.equal(await userId('buyer@demo-sports.example'), s.buyer);
    // Its two seeded orders are replaced by the one the old file holds.
    const orders = await db.all('SELECT * FROM orders WHERE user_id = ?', [s.buyer]);
    assert.equal(orders.length, 1);
    const order = orders[0]!;
    assert.deepEqual(
      [order.type, order.product_id, order.status, order.idempotency_key, order.payment_method, order.partner],
      ['event', s.paidLive, 'paid', 'idem-70', 'pm_old1', 'acme'],
    );
    const transactions = await db.all('SELECT * FROM transactions WHERE user_id = ?', [s.buyer]);
    assert.deepEqual(
      transactions.map((t) => [t.order_id, t.amount, t.status]),
      [[order.id, 14.99, 'paid']],
    );
  });

  test('orders point at the new ids of their products, pending ones still settle', async () => {
    const viewer = await userId(NEW_VIEWER.email);
    const orders = await db.all('SELECT * FROM orders WHERE user_id = ? ORDER BY id', [viewer]);
    assert.deepEqual(
      orders.map((o) => [o.type, o.product_id, o.status, o.channel_id]),
      [
        ['subscription', s.monthly, 'created', s.demo],
        ['package', s.seasonPass, 'paid', s.demo],
      ],
    );
    assert.deepEqual(
      [orders[0]!.settles_at, orders[0]!.payment_method, orders[0]!.save_card, orders[0]!.idempotency_key],
      [(TIME + 400) * 1000, 'pm_old2', 1, 'idem-71'],
    );
    // The cards the orders are charged with come along (the never used one does not).
    const cards = await db.all('SELECT id, user_id, channel_id, saved, used FROM payment_methods ORDER BY id');
    assert.deepEqual(
      cards.map((c) => [c.id, c.user_id, c.channel_id, c.saved, c.used]),
      [
        ['pm_old1', s.buyer, s.demo, 0, 1],
        ['pm_old2', viewer, s.demo, 1, 0],
      ],
    );
    const intent = await db.get("SELECT * FROM setup_intents WHERE id = 'seti_old1'");
    assert.deepEqual([intent?.user_id, intent?.channel_id, intent?.payment_method], [viewer, s.demo, 'pm_old2']);
  });

  test('favourites point at the new team, school and sport', async () => {
    const rows = await db.all('SELECT favoritable_type, favoritable_id FROM favourites WHERE user_id = ? ORDER BY id', [
      await userId(NEW_VIEWER.email),
    ]);
    assert.deepEqual(
      rows.map((r) => [r.favoritable_type, r.favoritable_id]),
      [
        ['participant', s.team],
        ['group', s.school],
        ['category', s.sport],
      ],
    );
  });

  test('clips get new ids on the new events; a done clip’s folder moves to its new id', async () => {
    const done = await db.get("SELECT * FROM clips WHERE uuid = 'uuid-60'");
    ok(done, 'the done clip');
    assert.notEqual(Number(done.id), OLD.clip);
    assert.deepEqual(
      [done.user_id, done.event_id, done.status, done.progress, done.tags_json],
      [await userId(NEW_VIEWER.email), Number(s.keyless.id), 'done', 100, '["goal"]'],
    );
    assert.equal(readFileSync(join(clipsDir, String(done.id), 'clip.json'), 'utf8'), '{"old":60}\n');
    assert.equal(readFileSync(join(clipsDir, String(done.id), '360p', '0.ts'), 'utf8'), 'segment');
    ok(!existsSync(join(clipsDir, String(OLD.clip))), 'the old folder is gone');
    assert.deepEqual(
      readdirSync(clipsDir).filter((name) => name.startsWith('.')),
      [],
      'no scratch folder left',
    );
    // A queued clip stays queued, to be cut again by the new queue.
    const queued = await db.get("SELECT * FROM clips WHERE uuid = 'uuid-61'");
    assert.deepEqual([queued?.user_id, queued?.event_id, queued?.status], [s.buyer, s.paidLive, 'queued']);
  });

  test('settings are replaced, the fixture kept; the secrets are the old ones; the import is marked', async () => {
    const settings = await db.get('SELECT json, fixture_json FROM settings WHERE channel_id = ?', [s.demo]);
    assert.equal(settings?.json, changedSettings(s));
    assert.equal(settings?.fixture_json, s.settings.fixture_json);
    for (const [key, value] of Object.entries(SECRETS))
      assert.equal((await db.get('SELECT value FROM meta WHERE key = ?', [key]))?.value, value);
    const marker = JSON.parse(
      String((await db.get('SELECT value FROM meta WHERE key = ?', [IMPORT_MARKER]))?.value),
    ) as Record<string, unknown>;
    assert.equal(marker.sha256, createHash('sha256').update(readFileSync(file)).digest('hex'));
    assert.deepEqual(
      [marker.users, marker.orders, marker.clips, marker.skipped, marker.schema_version],
      [2, 3, 2, 4, 10],
    );
    ok(typeof marker.at === 'string' && !Number.isNaN(Date.parse(marker.at)), 'the time of the import');
  });

  test('the rows added are exactly the imported ones (the demo account’s seeded ones replaced)', async () => {
    const after1 = await counts(db);
    // The buyer's two seeded orders (with a transaction each) went; 3 orders and 1 transaction came.
    assert.deepEqual(
      {
        users: after1.users! - before1.users!,
        orders: after1.orders! - before1.orders!,
        transactions: after1.transactions! - before1.transactions!,
        favourites: after1.favourites! - before1.favourites!,
        clips: after1.clips! - before1.clips!,
      },
      { users: 1, orders: 1, transactions: -1, favourites: 3, clips: 2 },
    );
  });

  test('a second call imports nothing and logs nothing', async () => {
    const before2 = await counts(db);
    const lines: string[] = [];
    assert.equal(await importSqlite(db, file, (message) => lines.push(message), clipsDir), undefined);
    assert.deepEqual(lines, []);
    assert.deepEqual(await counts(db), before2);
  });

  test('no file: nothing to do', async () => {
    const lines: string[] = [];
    assert.equal(await importSqlite(db, join(tmp, 'none.sqlite'), (m) => lines.push(m), clipsDir), undefined);
    assert.deepEqual(lines, []);
  });
});

describe('files the import refuses or fails on, and an older schema', () => {
  let test2: Awaited<ReturnType<typeof openTestDb>>;
  let db: ChannelDb;
  let s: Seeded;
  before(async () => {
    test2 = await openTestDb();
    db = test2.db;
    s = await seeded(db);
  });
  after(() => test2.close());

  test('a file of schema_version 3 is refused, and nothing is imported', async () => {
    const dataDir = join(tmp, 'v3');
    const file = await writeOldFile(dataDir, s, 10, (old) =>
      old.run("UPDATE meta SET value = '3' WHERE key = 'schema_version'"),
    );
    const before3 = await counts(db);
    const lines: string[] = [];
    await assert.rejects(
      importSqlite(db, file, (m) => lines.push(m), join(dataDir, 'clips')),
      /schema_version 3/,
    );
    assert.equal(lines.length, 1);
    ok(/failed, nothing was imported/.test(lines[0]!), lines[0]);
    assert.deepEqual(await counts(db), before3);
    ok(existsSync(join(dataDir, 'clips', String(OLD.clip), 'clip.json')), 'the clip folder is where it was');
  });

  test('a failure half-way imports nothing: rows, secrets, settings and folders stay as they were', async () => {
    const dataDir = join(tmp, 'broken');
    // A transaction the new schema refuses (no amount), after users, orders and clips went in.
    const file = await writeOldFile(dataDir, s, 10, (old) => {
      old.exec(`DROP TABLE transactions;
        CREATE TABLE transactions (id INTEGER PRIMARY KEY, order_id INTEGER, user_id INTEGER, status TEXT,
          amount REAL, currency TEXT, label TEXT, created_at INTEGER);
        INSERT INTO transactions VALUES (80, 70, ${OLD.buyer}, 'paid', NULL, 'USD', NULL, ${TIME});`);
    });
    const before4 = await counts(db);
    const lines: string[] = [];
    await assert.rejects(
      importSqlite(db, file, (m) => lines.push(m), join(dataDir, 'clips')),
      /amount/,
    );
    ok(lines.length === 1 && /failed, nothing was imported/.test(lines[0]!), lines.join('\n'));
    assert.deepEqual(await counts(db), before4);
    assert.equal(await db.get("SELECT 1 AS ok FROM users WHERE email = 'new.viewer@example.org'"), undefined);
    assert.equal(await db.get("SELECT 1 AS ok FROM meta WHERE key = 'media_secret'"), undefined);
    assert.equal(
      (await db.get('SELECT json FROM settings WHERE channel_id = ?', [s.demo]))?.json,
      String(s.settings.json),
    );
    assert.equal(
      Number((await db.get('SELECT count(*) AS n FROM orders WHERE user_id = ?', [s.buyer]))!.n),
      2,
      'the demo account keeps its seeded orders',
    );
    ok(existsSync(join(dataDir, 'clips', String(OLD.clip), 'clip.json')), 'the clip folder is where it was');
  });

  test('a schema 8 file (no partner, no parent_id) imports', async () => {
    const dataDir = join(tmp, 'v8');
    const clipsDir = join(tmp, 'v8-clips');
    const file = await writeOldFile(dataDir, s, 8);
    const report = await importSqlite(db, file, () => undefined, clipsDir);
    ok(report, 'a report');
    assert.deepEqual([report.users, report.orders, report.clips, report.clipFolders], [2, 3, 2, 1]);
    const order = await db.get("SELECT partner, product_id FROM orders WHERE idempotency_key = 'idem-70'");
    assert.deepEqual([order?.partner, order?.product_id], [null, s.paidLive]);
    // CLIPS_DIR elsewhere: the folder moves there from DATA_DIR/clips.
    const done = await db.get("SELECT id FROM clips WHERE uuid = 'uuid-60'");
    ok(existsSync(join(clipsDir, String(done?.id), 'clip.json')), 'the folder is in the clips folder');
    ok(!existsSync(join(dataDir, 'clips', String(OLD.clip))), 'and no longer in the old one');
  });
});
