/**
 * How the server counts a client (its address, behind trusted proxies too), the limits of limits.ts, which every
 * process shares through the database (two limiters over one database stand for two processes), and the bounded
 * bookkeeping of the analytics recorder: a flood from many addresses or made-up emails costs bounded memory without
 * wiping everyone else's counts.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Recorder } from '../analytics/analytics.js';
import type { ChannelDb } from '../storage/db.js';
import { addressKey, clientIp } from './http.js';
import { BoundedMap, RateLimiter, SharedRateLimiter, SlidingWindow } from './limits.js';
import { captureLog, openTestDb } from '../testing/harness.js';

describe('shared limits', () => {
  let db: ChannelDb;
  let close: () => Promise<void>;
  before(async () => ({ db, close } = await openTestDb()));
  after(() => close());

  test('sign-in failures count in every process, and a flood of made-up emails does not lift a lock', async () => {
    // Two throttles over one database: what two server processes have.
    const [one, two] = [new SlidingWindow(db, 'login', 5, 60), new SlidingWindow(db, 'login', 5, 60)];
    for (let i = 0; i < 3; i++) await one.record('victim', 1000);
    assert.equal(await two.wait('victim', 1000), 0, 'three failures: not yet');
    for (let i = 0; i < 2; i++) await two.record('victim', 1000);
    assert.ok((await one.wait('victim', 1000)) > 0, 'five, made in two processes: locked in both');
    for (let i = 0; i < 300; i++) await one.record(`made-up-${i}@example.com`, 1000);
    assert.ok((await two.wait('victim', 1001)) > 0, 'still locked');
    assert.equal(await two.wait('victim', 1061), 0, 'until its failures age out');
  });

  test('an attempt taken back no longer counts', async () => {
    const window = new SlidingWindow(db, 'forgive', 2, 60);
    await window.record('k', 10);
    const second = await window.record('k', 11);
    assert.ok((await window.wait('k', 12)) > 0);
    await window.forgive(second);
    assert.equal(await window.wait('k', 12), 0);
  });

  test('a rate limit counts the hits of every process: two processes do not allow twice the limit', async () => {
    let now = 0;
    const [one, two] = [0, 1].map(() => new RateLimiter(db, 'exact', 3, 10_000, () => now));
    const waits = [await one!.hit('a'), await two!.hit('a'), await one!.hit('a'), await two!.hit('a')];
    assert.deepEqual(
      waits.map((w) => w > 0),
      [false, false, false, true],
    );
    assert.equal(await one!.hit('b'), 0, 'another address has its own count');
    now = 10_000;
    assert.equal(await two!.hit('a'), 0, 'a new window');
  });

  /** `db` with a count of the statements run through it (what a limiter costs the database). */
  const counted = () => {
    const seen = { statements: 0 };
    const wrapped = {
      all: (sql: string, params: unknown[]) => {
        seen.statements++;
        return db.all(sql, params as never);
      },
    } as unknown as ChannelDb;
    return { db: wrapped, seen };
  };
  const refusedOf = (waits: number[]) => waits.filter((w) => w > 0).length;

  test('the request limit holds across processes: a burst split over two admits no more than the limit', async () => {
    const now = 0;
    const [one, two] = [0, 1].map(() => new SharedRateLimiter(db, 'requests-burst', 10, 10_000, () => now));
    // 15 hits at each process at once, before either has heard from the database: together no more than 10 pass.
    const waits = await Promise.all(Array.from({ length: 30 }, async (_, i) => (i % 2 ? one! : two!).hit('addr')));
    assert.equal(waits.length - refusedOf(waits), 10, `admitted: ${waits.join(',')}`);
    for (const wait of waits.filter((w) => w > 0)) assert.equal(wait, 10, 'Retry-After is the rest of the window');
    // A second burst a moment later finds the window used up in both.
    const again = await Promise.all(Array.from({ length: 6 }, async (_, i) => (i % 2 ? one! : two!).hit('addr')));
    assert.equal(refusedOf(again), 6);
    assert.equal(await one!.hit('other'), 0, 'another address has its own count');
    one!.stop();
    two!.stop();
  });

  test('hits spread over two processes one at a time are admitted up to the limit, less at most a grant', async () => {
    const now = 0;
    const limit = 64;
    const [one, two] = [0, 1].map(() => new SharedRateLimiter(db, 'requests-spread', limit, 10_000, () => now));
    const waits: number[] = [];
    for (let i = 0; i < 80; i++) waits.push(await (i % 2 ? one! : two!).hit('addr'));
    const admitted = waits.length - refusedOf(waits);
    // A grant is a 16th of the limit (4 here): what the other process may hold unused when one runs out.
    assert.ok(admitted <= limit && admitted >= limit - limit / 16, `admitted ${admitted} of ${limit}`);
    one!.stop();
    two!.stop();
  });

  test('one process alone admits exactly the limit, and a flood past it costs the database nothing', async () => {
    let now = 0;
    const { db: wrapped, seen } = counted();
    const limiter = new SharedRateLimiter(wrapped, 'requests-alone', 32, 10_000, () => now);
    const waits: number[] = [];
    for (let i = 0; i < 40; i++) waits.push(await limiter.hit('addr'));
    assert.deepEqual(
      waits.map((w) => w > 0),
      [...Array(32).fill(false), ...Array(8).fill(true)],
    );
    // Grants of 2 (a 16th), halving as the window fills, then one ask that finds no room.
    assert.ok(seen.statements <= 24, `${seen.statements} statements for 40 hits`);
    const before = seen.statements;
    for (let i = 0; i < 1000; i++) assert.ok((await limiter.hit('addr')) > 0);
    assert.equal(seen.statements, before, 'refused hits of a used-up window ask nothing');
    now = 10_000;
    assert.equal(await limiter.hit('addr'), 0, 'a new window');
    limiter.stop();
  });

  test('a window another process opened is the one both count in, and it ends for both', async () => {
    let now = 0;
    const [one, two] = [0, 1].map(() => new SharedRateLimiter(db, 'requests-window', 4, 10_000, () => now));
    assert.equal(await one!.hit('addr'), 0);
    now = 6_000;
    // The second process joins the window the first opened at 0 (it ends at 10 s for it too).
    const waits = await Promise.all(Array.from({ length: 5 }, async () => two!.hit('addr')));
    assert.deepEqual(waits, [0, 0, 0, 4, 4]);
    now = 10_000;
    assert.equal(await two!.hit('addr'), 0, 'the next window');
    const row = await db.get('SELECT window_start FROM rate_windows WHERE bucket = ? AND key = ?', [
      'requests-window',
      'addr',
    ]);
    assert.equal(Number(row!.window_start), 10_000);
    one!.stop();
    two!.stop();
  });

  test('with the database down, each process still holds the limit on its own', async () => {
    const now = 0;
    let down = true;
    const flaky = {
      all: (sql: string, params: unknown[]) =>
        down ? Promise.reject(new Error('down')) : db.all(sql, params as never),
    } as unknown as ChannelDb;
    const limiter = new SharedRateLimiter(flaky, 'requests-down', 10, 10_000, () => now);
    const { lines, restore } = captureLog();
    let waits: number[];
    try {
      waits = await Promise.all(Array.from({ length: 12 }, async () => limiter.hit('addr')));
    } finally {
      restore();
    }
    assert.equal(refusedOf(waits), 2);
    assert.ok(
      lines.some((line) => line.includes('could not read the shared request counts: down')),
      lines.join('\n'),
    );
    down = false;
    limiter.stop();
  });

  test('a database that never answers holds no request up: past a short wait, each process counts on its own', async () => {
    const now = 0;
    let asked = 0;
    const hung = {
      all: () => {
        asked++;
        return new Promise(() => undefined);
      },
    } as unknown as ChannelDb;
    const limiter = new SharedRateLimiter(hung, 'requests-hung', 10, 10_000, () => now);
    const logged = console.error;
    console.error = () => undefined;
    try {
      // Every hit is answered (the test would time out otherwise), within the limit of this process alone.
      const waits = await Promise.all(Array.from({ length: 12 }, async () => limiter.hit('addr')));
      assert.equal(refusedOf(waits), 2);
      assert.equal(asked, 1);
      // For a few seconds after, new addresses do not wait on it again.
      assert.equal(await limiter.hit('another'), 0);
      assert.equal(asked, 1, 'no second statement to a database that just failed');
    } finally {
      console.error = logged;
      limiter.stop();
    }
  });

  test('a weighted hit takes that many of the limit', async () => {
    const now = 0;
    const limiter = new SharedRateLimiter(db, 'requests-weight', 10, 10_000, () => now);
    assert.equal(await limiter.hit('addr', 8), 0);
    assert.ok((await limiter.hit('addr', 3)) > 0, '8 + 3 is past 10');
    assert.equal(await limiter.hit('addr', 2), 0, '8 + 2 fits');
    limiter.stop();
  });
});

describe('bounded bookkeeping', () => {
  test('a BoundedMap keeps its newest entries', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3); // a is newest now
    map.set('c', 4);
    assert.deepEqual([map.has('a'), map.has('b'), map.has('c'), map.size], [true, false, true, 2]);
  });

  test('the analytics recorder keeps within its byte cap, dropping the oldest bodies', () => {
    const recorder = new Recorder(() => 0, 1000, 10_000);
    const req = { headers: {} } as IncomingMessage;
    for (let i = 0; i < 20; i++) recorder.add('event', req, { profile: 'p', n: i, pad: 'x'.repeat(1000) });
    const { entries, bytes } = recorder.size;
    assert.ok(bytes <= 10_000, `${bytes} bytes held`);
    assert.ok(entries < 20 && entries > 0);
    const kept = recorder.query(new URLSearchParams()).map((e) => e.body.n);
    assert.equal(kept.at(-1), 19, 'the newest stays');
    assert.ok(!kept.includes(0), 'the oldest went');
  });
});

describe('client addresses', () => {
  const req = (remote: string, forwarded?: string) =>
    ({
      socket: { remoteAddress: remote },
      headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
    }) as unknown as IncomingMessage;

  test('X-Forwarded-For is read only behind trusted proxies, and only the entries they added', () => {
    assert.equal(clientIp(req('::ffff:10.0.0.5', '203.0.113.9')), '10.0.0.5', 'no proxy trusted: the socket');
    assert.equal(clientIp(req('10.0.0.5', '198.51.100.1, 203.0.113.9'), 1), '203.0.113.9', 'what our one proxy saw');
    assert.equal(
      clientIp(req('10.0.0.5', '198.51.100.1, 203.0.113.9, 10.0.0.7'), 2),
      '203.0.113.9',
      'two proxies of ours',
    );
    assert.equal(clientIp(req('10.0.0.5', 'not-an-address'), 1), '10.0.0.5', 'garbage: the socket');
    assert.equal(clientIp(req('10.0.0.5'), 1), '10.0.0.5', 'no header: the socket');
  });

  test('limits count an IPv6 client by its /64, an IPv4 client by its address', () => {
    assert.equal(addressKey('203.0.113.9'), '203.0.113.9');
    assert.equal(addressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8:1:2::ff'), addressKey('2001:0db8:0001:0002:aaaa::1'));
    assert.notEqual(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:3::1'));
  });
});
