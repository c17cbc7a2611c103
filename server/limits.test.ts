/**
 * How the server counts a client (its address, behind trusted proxies too), and the bounded bookkeeping of
 * limits.ts and the analytics recorder: a flood from many addresses or made-up emails
 * costs bounded memory without wiping everyone else's counts (the sign-in throttle and the rate limiter used to
 * clear themselves wholesale at 10,000 entries, unlocking whoever was locked).
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { Recorder } from './analytics.js';
import { addressKey, clientIp } from './http.js';
import { BoundedMap, RateLimiter, SlidingWindow } from './limits.js';

describe('bounded limits', () => {
  test('a flood of 10,001 made-up emails does not lift the lock on an account', () => {
    const throttle = new SlidingWindow(5, 60);
    for (let i = 0; i < 5; i++) throttle.record('victim', 1000);
    assert.ok(throttle.wait('victim', 1000) > 0);
    for (let i = 0; i < 10_001; i++) throttle.record(`made-up-${i}@example.com`, 1000);
    assert.ok(throttle.wait('victim', 1001) > 0, 'still locked');
    assert.equal(throttle.wait('victim', 1061), 0, 'until its failures age out');
  });

  test('an attempt taken back no longer counts', () => {
    const window = new SlidingWindow(2, 60);
    window.record('k', 10);
    window.record('k', 11);
    assert.ok(window.wait('k', 12) > 0);
    window.forgive('k', 11);
    assert.equal(window.wait('k', 12), 0);
  });

  test('the rate limiter stays bounded: past its capacity the least recently seen address goes, not everyone', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 10_000, () => now, 3);
    assert.deepEqual([limiter.hit('a'), limiter.hit('a'), limiter.hit('a') > 0], [0, 0, true]);
    limiter.hit('b');
    limiter.hit('c');
    assert.ok(limiter.hit('a') > 0, 'a is still counted after two other addresses');
    limiter.hit('d');
    limiter.hit('e');
    limiter.hit('f');
    now = 1;
    assert.equal(limiter.hit('a'), 0, 'a was the least recently seen once three others came');
  });

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
