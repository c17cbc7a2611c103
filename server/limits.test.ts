/**
 * How the server counts a client (its address, behind trusted proxies too), the limits of limits.ts, which every
 * process shares through the database (two limiters over one database stand for two processes), and the bounded
 * bookkeeping of the analytics recorder: a flood from many addresses or made-up emails costs bounded memory without
 * wiping everyone else's counts.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Recorder } from './analytics.js';
import type { ChannelDb } from './db.js';
import { addressKey, clientIp } from './http.js';
import { BoundedMap, RateLimiter, SharedRateLimiter, SlidingWindow } from './limits.js';
import { openTestDb } from './test-helpers.js';

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

  test('the request limit, counted in memory and shared every flush, holds across processes', async () => {
    let now = 0;
    const [one, two] = [0, 1].map(() => new SharedRateLimiter(db, 'requests-test', 10, 10_000, () => now));
    // Each process alone never lets more than the limit through.
    const first = Array.from({ length: 12 }, () => one!.hit('addr'));
    assert.deepEqual(
      first.map((w) => w > 0),
      [...Array(10).fill(false), true, true],
    );
    await one!.flush();
    // The second process learns the shared count at its next flush: then it refuses too.
    two!.hit('addr');
    await two!.flush();
    assert.ok(two!.hit('addr') > 0, 'the other process has used the window up');
    now = 10_000;
    assert.equal(two!.hit('addr'), 0, 'a new window');
    one!.stop();
    two!.stop();
  });

  test('hits shared after their window ended count in that window, not in the next one', async () => {
    let now = 0;
    const limiter = new SharedRateLimiter(db, 'late-flush', 10, 10_000, () => now);
    for (let i = 0; i < 5; i++) limiter.hit('addr');
    now = 10_500; // the flush runs after the window has ended
    await limiter.flush();
    now = 11_000;
    const next = Array.from({ length: 11 }, () => limiter.hit('addr'));
    assert.deepEqual(
      next.map((w) => w > 0),
      [...Array(10).fill(false), true],
      'the new window has the whole limit',
    );
    limiter.stop();
  });

  test('hits of a window that ended before another process opened the next one count in neither', async () => {
    let now = 0;
    const [one, two] = [0, 1].map(() => new SharedRateLimiter(db, 'stale-flush', 10, 10_000, () => now));
    for (let i = 0; i < 5; i++) one!.hit('addr');
    now = 10_050; // the other process opens the next window first
    two!.hit('addr');
    await two!.flush();
    now = 10_100; // the first process's hits of the ended window arrive late
    await one!.flush();
    const row = await db.get('SELECT window_start, count FROM rate_windows WHERE bucket = ? AND key = ?', [
      'stale-flush',
      'addr',
    ]);
    assert.deepEqual([Number(row!.window_start), Number(row!.count)], [10_050, 1]);
    one!.stop();
    two!.stop();
  });

  test('hits a failed flush could not share go with the next one', async () => {
    const now = 0;
    let down = true;
    const flaky = {
      all: (sql: string, params: unknown[]) =>
        down ? Promise.reject(new Error('down')) : db.all(sql, params as never),
    } as unknown as ChannelDb;
    const limiter = new SharedRateLimiter(flaky, 'failed-flush', 10, 10_000, () => now);
    for (let i = 0; i < 5; i++) limiter.hit('addr');
    const logged = console.error;
    console.error = () => undefined;
    try {
      await limiter.flush();
    } finally {
      console.error = logged;
    }
    down = false;
    await limiter.flush();
    const row = await db.get('SELECT count FROM rate_windows WHERE bucket = ? AND key = ?', ['failed-flush', 'addr']);
    assert.equal(Number(row!.count), 5);
    limiter.stop();
  });

  test('a window that ends while its hits are being shared keeps the new window’s own count', async () => {
    let now = 0;
    const limiter = new SharedRateLimiter(db, 'racing-flush', 10, 10_000, () => now);
    for (let i = 0; i < 5; i++) limiter.hit('addr');
    const flushing = limiter.flush();
    now = 10_000; // a hit in the next window while the flush's statement runs
    assert.equal(limiter.hit('addr'), 0);
    await flushing;
    const rest = Array.from({ length: 10 }, () => limiter.hit('addr'));
    assert.deepEqual(
      rest.map((w) => w > 0),
      [...Array(9).fill(false), true],
      'the hit made during the flush still counts',
    );
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
