/**
 * The channel's analytics service on the reference server: the datalake endpoints (validated with the contract,
 * text/plain bodies, a channel's analytics key required, the session's address filled in, a per-address limit),
 * what is stored (per channel, bounded per sender and per channel, never evicted, expired by age, kept across a
 * restart, refused when out of range), the channel's numbers (GET /__dev/analytics)
 * and the dev page. Run: node --import tsx --test server/analytics/analytics.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalyticsStore, FULL_MESSAGE, percentile, QUOTA_MESSAGE, summary } from './analytics-store.js';
import { ChannelDb, type Params } from '../storage/db.js';
import { MIGRATIONS } from '../storage/migrations.js';
import { seedDatabase } from '../fixtures/seed.js';
import { DATABASE_TEMPLATES, Harness, ok, openTestDb, request, testDatabase } from '../testing/harness.js';

const PROFILE = 'demo-analytics-profile';
const FR_PROFILE = 'demo-fr-analytics-profile';

/** A text/plain POST, as the browser (and a beacon) sends it. */
const plain = (h: Harness, path: string, body: unknown) =>
  h.call(path, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(body) });

const viewer = { session_uuid: 'a'.repeat(32), user_id: null, user_email: null };
const call = (service: string, time_ms: number, status = 200) => ({
  service,
  method: 'GET',
  url: `http://localhost/api/${service}`,
  status,
  message: status === 200 ? 'OK' : 'Server Error',
  length: 10,
  time_ms,
  at: 1,
});

describe('the datalake', () => {
  const h = new Harness({
    analyticsRateMax: 40,
    analyticsLimits: { maxPerChannel: 30, maxBytesPerChannel: 1e9, maxAgeMs: 86_400_000 },
  });
  before(() => h.start());
  after(() => h.stop());

  test('each endpoint takes a valid text/plain body and refuses a bad one with field errors', async () => {
    await h.call('/__dev/datalake', { method: 'DELETE' });
    const hash = await h.call(`/datalake/hash/?profile=${PROFILE}`);
    assert.equal(hash.status, 200);
    assert.match(hash.body.data.hash, /^[0-9a-f]{32}$/);
    const session = await plain(h, '/datalake/session/', {
      profile: PROFILE,
      session: hash.body.data.hash,
      device_type: 'desktop',
      user_agent: 'test',
      resolution: '1280x800',
      platform: 'web',
      origin_url: 'http://localhost:8091/site/',
      trk: 'spring',
    });
    assert.equal(session.status, 200);
    assert.equal(session.body.data.session_uuid, hash.body.data.hash);
    const event = await plain(h, '/datalake/event/', {
      profile: PROFILE,
      ...viewer,
      event: 'visit_page',
      page: '/live',
      previous_page: '/',
    });
    assert.equal(event.status, 200);
    const video = { profile: PROFILE, ...viewer, stream_id: 7, stream_type: 'vod', video_view_uuid: 'v-1' };
    assert.equal(
      (await plain(h, '/datalake/video/event/', { ...video, event: 'first_frame', first_frame_ms: 300 })).status,
      200,
    );
    assert.equal((await plain(h, '/datalake/video/viewing', { ...video, viewing_time: 12 })).status, 200);

    const bad = await plain(h, '/datalake/event/', { profile: PROFILE, event: 'dance', requests: 'many' });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors.session_uuid, ['The session_uuid field is required.']);
    assert.deepEqual(bad.body.errors.event, ['The event field is invalid.']);
    assert.deepEqual(bad.body.errors.requests, ['The requests field is invalid.']);
    const noSession = await plain(h, '/datalake/session/', { profile: PROFILE, platform: 'web' });
    assert.equal(noSession.status, 422);
    assert.ok(noSession.body.errors.session && noSession.body.errors.device_type);
    assert.equal((await h.call('/datalake/session/')).status, 405);
    assert.equal((await h.call('/datalake/hash/', { method: 'POST' })).status, 405);

    const recorded = (await h.call('/__dev/datalake')).body.data as { kind: string; body: Record<string, unknown> }[];
    assert.deepEqual(
      recorded.map((r) => r.kind),
      ['session', 'event', 'video-event', 'video-viewing'],
    );
    assert.equal(recorded[0]!.body.trk, 'spring');
  });

  test('the profile must be a channel analytics key; the record goes to that channel', async () => {
    const unknown = await h.call('/datalake/hash/?profile=someone-else');
    assert.equal(unknown.status, 422);
    assert.deepEqual(unknown.body.errors.profile, ['The selected profile is invalid.']);
    assert.deepEqual((await h.call('/datalake/hash/')).body.errors.profile, ['The profile field is required.']);
    const foreign = await plain(h, '/datalake/event/', { profile: 'nope', ...viewer, event: 'login', method: 'email' });
    assert.equal(foreign.status, 422);
    assert.ok(foreign.body.errors.profile);

    const before = (await h.call('/__dev/analytics?channel_key=demo-fr')).body.data.logins.count;
    assert.equal(
      (await plain(h, '/datalake/event/', { profile: FR_PROFILE, ...viewer, event: 'login', method: 'google' })).status,
      200,
    );
    const fr = (await h.call('/__dev/analytics?channel_key=demo-fr')).body.data;
    assert.equal(fr.logins.count, before + 1);
    assert.equal(fr.profile, FR_PROFILE);
    assert.equal(fr.tag_id, 'G-DEMOFR00');
  });

  test('a session without an address gets the request’s own', async () => {
    const since = h.nowMs;
    await plain(h, '/datalake/session/', {
      profile: PROFILE,
      session: 'b'.repeat(32),
      device_type: 'mobile',
      platform: 'web',
    });
    await plain(h, '/datalake/session/', {
      profile: PROFILE,
      session: 'c'.repeat(32),
      device_type: 'mobile',
      platform: 'web',
      ip: '203.0.113.9',
    });
    const sessions = (await h.call(`/__dev/datalake?kind=session&since=${since}`)).body.data as {
      body: { ip: string; session: string };
    }[];
    const byHash = Object.fromEntries(sessions.map((s) => [s.body.session, s.body.ip]));
    assert.match(byHash['b'.repeat(32)]!, /127\.0\.0\.1|::1|localhost/);
    assert.equal(byHash['c'.repeat(32)], '203.0.113.9');
  });

  test('a full channel refuses new records and keeps its history, across a restart; records expire by age', async () => {
    await h.call('/__dev/datalake', { method: 'DELETE' });
    h.nowMs += 61_000; // a new minute for the per-address limit
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) {
      h.nowMs += 1000;
      const answer = await plain(h, '/datalake/event/', {
        profile: PROFILE,
        ...viewer,
        event: 'visit_page',
        page: `/p${i}`,
      });
      statuses.push(answer.status);
      if (answer.status !== 200)
        assert.equal(answer.body.message, 'This channel cannot keep more analytics records for now.');
    }
    assert.deepEqual(statuses, [...Array(30).fill(200), ...Array(5).fill(429)]);
    const numbers = (await h.call('/__dev/analytics?channel_key=demo')).body.data;
    assert.equal(numbers.stored.records, 30);
    const pages = (await h.call('/__dev/datalake?kind=event')).body.data.map((r: any) => r.body.page);
    assert.ok(pages.includes('/p0') && pages.includes('/p29') && !pages.includes('/p30'), 'nothing evicted');

    await h.restart();
    const again = (await h.call('/__dev/analytics?channel_key=demo')).body.data;
    assert.equal(again.stored.records, 30);
    // Two days on, the periodic pass deletes what is older than the age bound, and the channel has room again.
    h.nowMs += 2 * 86_400_000;
    await h.restart(); // a start runs the pass (as the hourly timer does)
    assert.equal((await h.call('/__dev/analytics?channel_key=demo')).body.data.stored.records, 0);
    const later = await plain(h, '/datalake/event/', {
      profile: PROFILE,
      ...viewer,
      event: 'visit_page',
      page: '/later',
    });
    assert.equal(later.status, 200);
    assert.equal((await h.call('/__dev/analytics?channel_key=demo')).body.data.stored.records, 1);
  });

  test('an address past its calls per minute gets 429 with Retry-After', async () => {
    h.nowMs += 61_000;
    let refused: Awaited<ReturnType<typeof h.call>> | undefined;
    for (let i = 0; i < 45 && !refused; i++) {
      const answer = await h.call(`/datalake/hash/?profile=${PROFILE}`);
      if (answer.status === 429) refused = answer;
    }
    assert.ok(refused, 'refused past the limit');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    h.nowMs += 61_000;
    assert.equal((await h.call(`/datalake/hash/?profile=${PROFILE}`)).status, 200);
  });
});

describe('the analytics store survives a flood', () => {
  // Behind one proxy of ours, so each request can say which viewer address it comes from.
  const h = new Harness({
    trustProxy: 1,
    analyticsRateMax: 100_000,
    analyticsLimits: {
      maxPerChannel: 60,
      maxBytesPerChannel: 1e9,
      maxAgeMs: 86_400_000,
      maxPerAddress: 10,
      maxBytesPerAddress: 100_000,
    },
  });
  before(() => h.start());
  after(() => h.stop());
  const from = (address: string, body: unknown) =>
    h.call('/datalake/event/', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'X-Forwarded-For': address },
      body: JSON.stringify(body),
    });
  const page = (name: string, pad = '') => ({
    profile: PROFILE,
    ...viewer,
    event: 'visit_page',
    page: name,
    title: pad,
  });
  const pages = async () =>
    ((await h.call('/__dev/datalake?kind=event')).body.data as { body: { page: string } }[]).map((r) => r.body.page);

  test("one address cannot wipe a channel's history: past its quota its own records are refused", async () => {
    for (let i = 0; i < 5; i++) assert.equal((await from('198.51.100.7', page(`/history-${i}`))).status, 200);
    // Big bodies from one address, as fast as it can: its quota is spent in bytes, then every post is refused.
    const flood: number[] = [];
    for (let i = 0; i < 30; i++) flood.push((await from('203.0.113.66', page(`/flood-${i}`, 'x'.repeat(1000)))).status);
    ok(flood.filter((s) => s === 200).length <= 10, `accepted ${flood.filter((s) => s === 200).length}`);
    ok(
      flood.slice(-5).every((s) => s === 429),
      'the rest refused',
    );
    const refused = await from('203.0.113.66', page('/one-more'));
    assert.equal(refused.body.message, 'Too many analytics records from this address. Please try again later.');
    const kept = await pages();
    for (let i = 0; i < 5; i++) ok(kept.includes(`/history-${i}`), `history ${i} kept`);
  });

  test('many addresses fill the channel at most: then new records wait, the oldest stay', async () => {
    for (let a = 1; a <= 10; a++) for (let i = 0; i < 10; i++) await from(`192.0.2.${a}`, page(`/many-${a}-${i}`));
    const size = (await h.call('/__dev/analytics?channel_key=demo')).body.data.stored.records;
    assert.equal(size, 60, 'the channel bound');
    const kept = await pages();
    for (let i = 0; i < 5; i++) ok(kept.includes(`/history-${i}`), `history ${i} kept`);
    assert.equal((await from('192.0.2.200', page('/late'))).status, 429);
  });

  test('numbers out of any real range are refused, not added up', async () => {
    await h.call('/__dev/datalake', { method: 'DELETE' }); // room again: a refusal below is the number's
    const video = {
      profile: PROFILE,
      ...viewer,
      stream_id: 7,
      stream_type: 'vod',
      video_view_uuid: 'v-9',
      partner: 'made-up',
    };
    const post = (path: string, body: unknown) =>
      h.call(path, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', 'X-Forwarded-For': '198.51.100.99' },
        body: JSON.stringify(body),
      });
    for (const viewing_time of [1e308, -5, 3601]) {
      const answer = await post('/datalake/video/viewing/', { ...video, viewing_time });
      assert.equal(answer.status, 422, String(viewing_time));
      assert.deepEqual(answer.body.errors.viewing_time, ['The viewing_time field is invalid.']);
    }
    const slow = await post('/datalake/video/event/', { ...video, event: 'first_frame', first_frame_ms: 1e12 });
    assert.equal(slow.status, 422);
    const calls = await post('/datalake/event/', {
      profile: PROFILE,
      ...viewer,
      event: 'api_request',
      requests: [{ ...call('events', 1e300), status: 200.5 }],
    });
    assert.equal(calls.status, 422);
    ok(calls.body.errors['requests.0.time_ms'] && calls.body.errors['requests.0.status'], JSON.stringify(calls.body));
    assert.equal((await post('/datalake/video/viewing/', { ...video, viewing_time: 30 })).status, 200);
  });
});

/** The database, with every statement sent through it written down (to explain them afterwards). */
function recording(db: ChannelDb): { db: ChannelDb; statements: { sql: string; params?: Params }[] } {
  const statements: { sql: string; params?: Params }[] = [];
  const proxy = new Proxy(db, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      if (name === 'get' || name === 'all' || name === 'run' || name === 'insert')
        return (sql: string, params?: Params) => {
          statements.push({ sql, params });
          return (value as (sql: string, params?: Params) => unknown).call(target, sql, params);
        };
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
  return { db: proxy, statements };
}

/** One node of a plan as EXPLAIN (FORMAT JSON) writes it. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** What running `sql` reads: rows per table scanned (EXPLAIN ANALYZE, in a transaction rolled back). */
async function rowsRead(db: ChannelDb, sql: string, params?: Params): Promise<Record<string, number>> {
  const rollback = new Error('rollback');
  const read: Record<string, number> = {};
  const walk = (node: PlanNode) => {
    // Scans and index look-ups name their table; the insert or update itself (ModifyTable) is not a read.
    if (node['Relation Name'] && node['Node Type'] !== 'ModifyTable') {
      const table = node['Relation Name'];
      read[table] = (read[table] ?? 0) + (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  await db
    .transaction(async () => {
      const row = await db.get(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
      const value = Object.values(row!)[0];
      const plans = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan: PlanNode }[];
      for (const { Plan } of plans) walk(Plan);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return read;
}

describe("the analytics store's checks", () => {
  let db: ChannelDb;
  let close: () => Promise<void>;
  before(async () => ({ db, close } = await openTestDb()));
  after(() => close());

  test("accepting a record reads the sender's and the channel's totals, not the channel's history", async () => {
    const now = Date.UTC(2030, 5, 15, 18, 30, 0);
    // A busy channel: 50,000 records of the last half hour from 250 addresses (200 of them the sender's).
    await db.run(
      `INSERT INTO analytics (channel, at, kind, origin, address, bytes, body)
       SELECT 'demo', ?::bigint - g, 'event', NULL, '10.0.0.' || (g % 250), 60, '{"event":"visit_page"}'
       FROM generate_series(1, 50000) AS g`,
      [now],
    );
    const recorded = recording(db);
    const store = new AnalyticsStore(recorded.db, () => now, {
      maxPerChannel: 1_000_000,
      maxBytesPerChannel: 1e12,
      maxAgeMs: 30 * 86_400_000,
      maxPerAddress: 1_000_000,
      maxBytesPerAddress: 1e12,
    });
    ok((await store.add('demo', 'event', null, { event: 'visit_page' }, '10.0.0.0')) > 0, 'accepted');
    ok(recorded.statements.length > 0, 'statements recorded');
    for (const { sql, params } of recorded.statements) {
      const read = await rowsRead(db, sql, params);
      const total = Object.values(read).reduce((sum, n) => sum + n, 0);
      ok(!('analytics' in read) && total <= 4, `reads ${JSON.stringify(read)}: ${sql.replace(/\s+/g, ' ')}`);
    }
  });

  test('the totals and the quotas stay right across the pruning, with posts at once', async () => {
    const hour = 3_600_000;
    const t0 = Date.UTC(2030, 5, 14, 10, 0, 0);
    let now = t0;
    const store = new AnalyticsStore(db, () => now, {
      maxPerChannel: 20,
      maxBytesPerChannel: 1e9,
      maxAgeMs: 86_400_000,
      maxPerAddress: 5,
      maxBytesPerAddress: 1e6,
    });
    const channel = 'prune-test';
    /** Posts from each address `times` times, all at once; answers the outcome of each, in order. */
    const post = (addresses: string[], times: number) =>
      Promise.all(
        addresses.flatMap((address) =>
          Array.from({ length: times }, (_, i) =>
            store.add(channel, 'event', null, { event: 'visit_page', page: `/${address}/${i}` }, address).then(
              () => 'ok',
              (error: Error) => error.message,
            ),
          ),
        ),
      );
    const count = (outcomes: string[], what: string) => outcomes.filter((o) => o === what).length;
    const stored = async () => {
      const row = await db.get('SELECT count(*) AS n, coalesce(sum(bytes), 0) AS b FROM analytics WHERE channel = ?', [
        channel,
      ]);
      return { records: Number(row!.n), bytes: Number(row!.b) };
    };

    // Two senders fill their hour's quota; a sixth record of one is its quota's refusal.
    assert.equal(count(await post(['192.0.2.1', '192.0.2.2'], 5), 'ok'), 10);
    assert.deepEqual(await post(['192.0.2.1'], 1), [QUOTA_MESSAGE]);
    // Thirteen hours on, four senders at once: the channel takes ten more, then it is full.
    now = t0 + 13 * hour;
    const later = await post(['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4'], 5);
    assert.equal(count(later, 'ok'), 10, JSON.stringify(later));
    assert.equal(count(later, FULL_MESSAGE), 10);
    assert.deepEqual(await store.size(channel), await stored());
    assert.equal((await store.size(channel)).records, 20);

    // A day after the first ten, the pruning deletes them and takes them off the channel's total.
    now = t0 + 25 * hour;
    assert.equal(await store.prune(), 10);
    assert.deepEqual(await store.size(channel), await stored());
    assert.equal((await store.size(channel)).records, 10);
    assert.equal(
      Number((await db.get('SELECT count(*) AS n FROM analytics_senders WHERE hour < ?', [now / hour]))!.n),
      0,
      "past hours' counts forgotten",
    );
    // Room for ten again: a sender's new hour gives it its quota back; the channel's bound holds exactly.
    const again = await post(['192.0.2.1'], 6);
    assert.deepEqual([count(again, 'ok'), count(again, QUOTA_MESSAGE)], [5, 1]);
    assert.equal(count(await post(['203.0.113.1', '203.0.113.2'], 5), 'ok'), 5);
    assert.equal((await store.size(channel)).records, 20);
    assert.deepEqual(await store.size(channel), await stored());
  });

  test('a database that already has records gets their totals when the migration runs', async () => {
    const database = await testDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'channel-analytics-migration-'));
    const fixturesDir = join(import.meta.dirname, '..', 'fixtures');
    const seededAt = Math.floor(Date.UTC(2030, 5, 15, 18, 0, 0) / 1000);
    const open = () =>
      ChannelDb.open({
        dataDir: dir,
        databaseUrl: database.options.databaseUrl,
        fixturesDir,
        seed: (fresh) => seedDatabase(fresh, fixturesDir, seededAt),
        templates: database.options.databaseUrl
          ? undefined
          : { dir: DATABASE_TEMPLATES, key: String(Math.floor(seededAt / 86400)) },
      });
    const version = MIGRATIONS.findIndex((step) => step.includes('CREATE TABLE analytics_totals')) + 1;
    ok(version > 0, 'the totals migration');
    let db = await open();
    try {
      // The database as the release before had it: records, no totals, the migration not run.
      await db.run('DROP TABLE analytics_totals, analytics_senders');
      await db.run('CREATE INDEX analytics_address ON analytics (channel, address, at)');
      await db.run('DELETE FROM schema_migrations WHERE version = ?', [version]);
      const now = Date.now();
      await db.run(
        `INSERT INTO analytics (channel, at, kind, origin, address, bytes, body)
         SELECT CASE WHEN g % 3 = 0 THEN 'demo-fr' ELSE 'demo' END, ?::bigint - g * 1000, 'event', NULL,
           '10.1.0.' || (g % 7), g % 50, '{}'
         FROM generate_series(1, 9000) AS g`,
        [now],
      );
      await db.close();
      db = await open();
      const totals = await db.all('SELECT channel, records, bytes FROM analytics_totals ORDER BY channel');
      const counted = await db.all(
        'SELECT channel, count(*) AS records, sum(bytes) AS bytes FROM analytics GROUP BY channel ORDER BY channel',
      );
      assert.deepEqual(totals, counted);
      // The senders' counts of the current hour, as the records say.
      const hour = Math.floor(now / 3_600_000);
      const senders = await db.all(
        'SELECT channel, address, records, bytes FROM analytics_senders WHERE hour = ? ORDER BY channel, address',
        [hour],
      );
      const perSender = await db.all(
        `SELECT channel, address, count(*) AS records, sum(bytes) AS bytes FROM analytics
         WHERE at / 3600000 = ? GROUP BY channel, address ORDER BY channel, address`,
        [hour],
      );
      ok(perSender.length > 0, 'records in the current hour');
      assert.deepEqual(senders, perSender);
    } finally {
      await db.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the channel numbers', () => {
  test('median and 95th percentile by nearest rank', () => {
    const sorted = [...Array(20).keys()].map((i) => (i + 1) * 10);
    assert.equal(percentile(sorted, 50), 100);
    assert.equal(percentile(sorted, 95), 190);
    assert.equal(percentile([7], 95), 7);
    assert.equal(percentile([], 50), undefined);
  });

  test('sessions, page views by page, logins by method, API timings per endpoint and video views', () => {
    let id = 0;
    const record = (kind: string, body: Record<string, unknown>) => ({ id: ++id, at: id, kind, origin: null, body });
    const numbers = summary(
      [
        record('session', { session: 's1', device_type: 'mobile' }),
        record('event', { event: 'visit_page', page: '/', previous_page: null }),
        record('event', { event: 'visit_page', page: '/live', previous_page: '/' }),
        record('event', { event: 'visit_page', page: '/live', previous_page: '/watch/4' }),
        record('event', { event: 'login', method: 'email' }),
        record('event', { event: 'login', method: 'google' }),
        record('event', { event: 'login', method: 'email' }),
        record('event', {
          event: 'api_request',
          requests: [
            call('events', 40),
            call('events', 10),
            call('events', 30),
            call('settings', 5),
            call('events', 900, 502),
          ],
        }),
        record('event', {
          event: 'api_request',
          requests: [call('events', 20), { ...call('events', 0, 0), message: 'timeout' }],
        }),
        record('video-event', { event: 'first_frame', stream_id: 4, title: 'Final', first_frame_ms: 300 }),
        record('video-event', { event: 'first_frame', stream_id: 4, first_frame_ms: 500 }),
        record('video-event', { event: 'first_frame', stream_id: 9, first_frame_ms: 200 }),
        record('video-viewing', { stream_id: 4, viewing_time: 30 }),
        record('video-viewing', { stream_id: 4, viewing_time: 12 }),
      ],
      ['page_view', 'page_view', 'login', 'view_item_list'],
    );
    assert.equal(numbers.sessions.count, 1);
    assert.equal(numbers.page_views.count, 3);
    assert.deepEqual(numbers.page_views.by_page, [
      { page: '/live', count: 2 },
      { page: '/', count: 1 },
    ]);
    assert.equal(numbers.page_views.recent[0]!.previous_page, '/watch/4');
    assert.deepEqual(numbers.logins.by_method, [
      { method: 'email', count: 2 },
      { method: 'google', count: 1 },
    ]);
    assert.equal(numbers.api.calls, 7);
    // events: 0, 10, 20, 30, 40, 900 -> median (rank 3) 20, p95 (rank 6) 900; two errors (502, a timeout).
    assert.deepEqual(numbers.api.by_service[0], {
      service: 'events',
      method: 'GET',
      count: 6,
      errors: 2,
      median_ms: 20,
      p95_ms: 900,
    });
    assert.deepEqual(numbers.videos[0], {
      stream_id: '4',
      title: 'Final',
      category: null,
      views: 2,
      median_first_frame_ms: 300,
      viewing_seconds: 42,
    });
    assert.equal(numbers.videos[1]!.views, 1);
    assert.deepEqual(numbers.tag_manager[0], { name: 'page_view', count: 2 });
  });
});

describe('the dev page', () => {
  const h = new Harness();
  before(() => h.start());
  after(() => h.stop());

  test('GET /__dev/analytics needs the dev secret; the page is served in dev mode (security.test.ts: not in production)', async () => {
    const open = await request(`${h.base}/__dev/analytics?channel_key=demo`);
    assert.equal(open.status, 403);
    const numbers = await h.call('/__dev/analytics?channel_key=demo');
    assert.equal(numbers.status, 200);
    for (const key of ['sessions', 'page_views', 'logins', 'api', 'videos', 'tag_manager'])
      assert.ok(key in numbers.body.data, key);
    assert.equal((await h.call('/__dev/analytics?channel_key=nobody')).status, 404);
    const page = await request(`${h.base}/analytics.html`);
    assert.equal(page.status, 200);
    assert.match(String(page.body), /analytics-dev\.js/);
  });
});
