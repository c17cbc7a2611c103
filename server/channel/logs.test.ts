/**
 * The client log (`POST /api/logs`, keyless): each client address has a quota of entries per hour, refused beyond
 * it, and a channel's store, once full, refuses new entries instead of evicting anyone's (age pruning makes room).
 * Run: node --import tsx --test server/channel/logs.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LOG_ENTRIES_PER_ADDRESS, LOG_RETENTION_SECONDS, MAX_LOGS_PER_CHANNEL } from '../storage/maintenance.js';
import { Harness, ok } from '../testing/harness.js';

describe('client log entries', () => {
  // Behind one proxy of ours, so each request can say which viewer address it comes from.
  const h = new Harness({ trustProxy: 1 });
  before(() => h.start());
  after(() => h.stop());

  const entry = {
    date: '2030-06-15T18:00:00.000Z',
    status: 500,
    service: 'channel-api',
    channel: 'demo',
    message: 'Server Error',
    request_data: null,
    url: 'https://example.test/api/events',
    channel_key: 'demo',
  };
  const post = (address: string, message: string) =>
    h.call('/api/logs', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
      body: JSON.stringify({ ...entry, message }),
    });
  const messages = async (): Promise<string[]> =>
    ((await h.call('/__dev/logs?channel_key=demo')).body.data as { message: string }[]).map((l) => l.message);
  const channelId = async () =>
    Number((await h.server.db.get("SELECT id FROM channels WHERE channel_key = 'demo'"))!.id);

  test("a flood from one address is refused past its quota; the channel's reports stay, and others still post", async () => {
    for (let i = 0; i < 3; i++) assert.equal((await post(`198.51.100.${i + 1}`, `real report ${i}`)).status, 201);
    const flood: Awaited<ReturnType<typeof post>>[] = [];
    for (let i = 0; i < LOG_ENTRIES_PER_ADDRESS + 40; i++) flood.push(await post('203.0.113.66', `flood ${i}`));
    assert.equal(flood.filter((r) => r.status === 201).length, LOG_ENTRIES_PER_ADDRESS);
    const refused = flood.filter((r) => r.status !== 201);
    ok(
      refused.length === 40 && refused.every((r) => r.status === 429),
      `refused: ${refused.map((r) => r.status).join()}`,
    );
    assert.equal(refused[0]!.body.message, 'Too many log entries from this address. Please try again later.');
    ok(Number(refused[0]!.headers.get('retry-after')) > 0, 'Retry-After');
    const kept = await messages();
    for (let i = 0; i < 3; i++) ok(kept.includes(`real report ${i}`), `real report ${i} kept`);
    assert.equal((await post('198.51.100.50', 'another viewer')).status, 201);
    // An hour on, the flooding address has its quota again.
    h.nowMs += 3_600_000;
    assert.equal((await post('203.0.113.66', 'an hour later')).status, 201);
  });

  test("a full channel refuses new entries and evicts nobody's; age pruning makes room", async () => {
    const db = h.server.db;
    const id = await channelId();
    const at = Math.floor(h.nowMs / 1000);
    const held = Number((await db.get('SELECT count(*) AS n FROM logs WHERE channel_id = ?', [id]))!.n);
    // Other senders' entries, a day later, up to five short of the channel's store.
    await db.run(
      `INSERT INTO logs (channel_id, received_at, ip, entry_json)
       SELECT ?, ?, '192.0.2.' || (g % 200), '{"message":"other"}' FROM generate_series(1, ?::int) AS g`,
      [id, at + 86_400, MAX_LOGS_PER_CHANNEL - held - 5],
    );
    h.nowMs += 86_400_000 + 60_000;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await post(`198.18.0.${i + 1}`, `late ${i}`);
      statuses.push(answer.status);
      if (answer.status !== 201)
        assert.equal(answer.body.message, 'This channel cannot keep more log entries for now.');
    }
    assert.deepEqual(statuses, [...Array<number>(5).fill(201), ...Array<number>(5).fill(429)]);
    const count = async () =>
      Number((await h.server.db.get('SELECT count(*) AS n FROM logs WHERE channel_id = ?', [id]))!.n);
    assert.equal(await count(), MAX_LOGS_PER_CHANNEL);
    const kept = await messages();
    for (let i = 0; i < 3; i++) ok(kept.includes(`real report ${i}`), `real report ${i} kept`);

    // Past the retention, the pruning at start (hourly after) deletes the first day's entries: room again.
    h.nowMs += (LOG_RETENTION_SECONDS - 86_400 + 3600) * 1000;
    await h.restart();
    assert.equal((await post('198.18.1.1', 'after the pruning')).status, 201);
    ok(!(await messages()).includes('real report 0'), 'aged out');
    ok((await count()) < MAX_LOGS_PER_CHANNEL, 'room');
  });
});
