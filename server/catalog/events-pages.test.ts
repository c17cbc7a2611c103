/**
 * Big pages of the events list (`GET /events?limit=5000`): a page counts against the request limit by the events it
 * holds, and the rendered page is kept per query and per what its viewers see (their access, whether they may have
 * streams), so repeating it costs far less than rendering it; each viewer still gets stream URLs signed for it,
 * statuses that move with the clock, and an event's change at once. Run: node --import tsx --test
 * server/catalog/events-pages.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { endpoints } from '../../src/api/contract.js';
import { EVENTS_PER_HIT } from './events.js';
import { RENDERED_PAGES_BYTES, renderedPageStats } from './events.js';
import { Harness, ok, request } from '../testing/harness.js';

interface ListedEvent {
  id: number;
  name: string;
  type: string;
  stream_status: string;
  has_access: boolean;
  event_utc_ts: number;
  media: { type: string; url: string }[];
}

/** The answer with every playback grant (its expiry, viewer and signature) blanked. */
const withoutGrants = (text: string) => text.replace(/\/media\/s\/[^/]+\//g, '/media/s/-/');

describe('big pages against the request limit', () => {
  const h = new Harness({ rateLimitMax: 200, rateLimitWindowMs: 10_000 });
  before(() => h.start());
  after(() => h.stop());

  test('many big pages from one address are refused long before as many small ones would be', async () => {
    const key = await h.apiKey('bench');
    h.nowMs += 10_001; // a window of its own
    const big: number[] = [];
    for (let i = 0; i < 10; i++) big.push((await h.call(`/api/events?api_key=${key}&limit=5000`)).status);
    const served = big.filter((s) => s === 200).length;
    // 5,000 events count as 5000 / EVENTS_PER_HIT requests: four pages fill a window of 200.
    assert.equal(served, Math.floor(200 / (5000 / EVENTS_PER_HIT)), big.join());
    ok(
      big.slice(served).every((s) => s === 429),
      big.join(),
    );
    h.nowMs += 10_001;
    const small: number[] = [];
    for (let i = 0; i < 150; i++) small.push((await h.call(`/api/events?api_key=${key}&limit=20`)).status);
    ok(
      small.every((s) => s === 200),
      `small pages: ${small.filter((s) => s !== 200).length} refused`,
    );
    // A filter that matches a few events costs one request, whatever its limit.
    h.nowMs += 10_001;
    const few: number[] = [];
    for (let i = 0; i < 150; i++)
      few.push((await h.call(`/api/events?api_key=${key}&limit=5000&stream_status=live`)).status);
    ok(
      few.every((s) => s === 200),
      `live pages: ${few.filter((s) => s !== 200).length} refused`,
    );

    // The favourite events are a list of the same kind: a big page of them counts the same.
    h.nowMs += 10_001;
    const registered = await h.post('/api/v2/auth/register', {
      api_key: key,
      first_name: 'Fay',
      last_name: 'Vourite',
      email: 'big-favourites@example.com',
      password: 'favourite-pass-1',
      password_confirmation: 'favourite-pass-1',
      terms: true,
    });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    const bearer = { Authorization: `Bearer ${String(registered.body.data.token)}` };
    const categories = (await h.call(`/api/events-categories?api_key=${key}`)).body.data as { id: number }[];
    for (const { id } of categories)
      await h.post('/api/favorite', { api_key: key, favoritable_type: 'category', favoritable_id: id }, bearer);
    const listed = (await h.call(`/api/events/favorite?api_key=${key}&limit=1`, { headers: bearer })).body;
    ok(listed.meta.total > 1000, `the favourites hold many events: ${listed.meta?.total}`);
    h.nowMs += 10_001;
    const favourites: number[] = [];
    for (let i = 0; i < 10; i++)
      favourites.push((await h.call(`/api/events/favorite?api_key=${key}&limit=5000`, { headers: bearer })).status);
    ok(favourites.filter((s) => s === 429).length >= 5, `big favourite pages: ${favourites.join()}`);
  });
});

describe('rendered pages', () => {
  const h = new Harness({ rateLimitMax: 1_000_000 });
  before(() => h.start());
  after(() => h.stop());

  const page = async (key: string, query: string, token?: string) => {
    const answer = await fetch(`${h.base}/api/events?api_key=${key}&${query}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    assert.equal(answer.status, 200);
    const text = await answer.text();
    return { text, events: endpoints.events.response.parse(JSON.parse(text)).data as unknown as ListedEvent[] };
  };

  test('a repeated big page is not rendered again, and each viewer gets stream URLs of its own that play', async () => {
    const [one, two] = [await h.apiKey('bench'), await h.apiKey('bench')];
    const before = renderedPageStats(h.server.db);
    const first = await page(one, 'limit=5000');
    assert.equal(first.events.length, 5000);
    const again = await page(one, 'limit=5000');
    const other = await page(two, 'limit=5000');
    const after = renderedPageStats(h.server.db);
    assert.equal(after.rendered - before.rendered, 1, 'rendered once');
    assert.equal(after.reused - before.reused, 2, 'then reused');
    assert.equal(again.text, first.text, 'the same viewer, the same answer');
    assert.equal(withoutGrants(other.text), withoutGrants(first.text));
    const streams = (events: ListedEvent[]) =>
      events.flatMap((e) => e.media.filter((m) => m.type === 'vod' || m.type === 'live').map((m) => m.url));
    const [mine, theirs] = [streams(first.events), streams(other.events)];
    ok(mine.length > 100, `streams listed: ${mine.length}`);
    assert.equal(theirs.length, mine.length);
    ok(
      mine.every((url, i) => url !== theirs[i]),
      'signed for each viewer',
    );
    for (const url of [mine[0]!, theirs[0]!, theirs[theirs.length - 1]!]) {
      const playlist = await request(url);
      assert.equal(playlist.status, 200, url);
      assert.match(String(playlist.body), /^#EXTM3U/);
    }
  });

  test("a signed-in buyer still sees its access; guests still don't", async () => {
    const paidLive = h.id('paid-live');
    const guest = await page(h.key, 'limit=5000');
    const asGuest = guest.events.find((e) => e.id === paidLive)!;
    ok(asGuest && !asGuest.has_access, 'a guest has no access');
    ok(!asGuest.media.some((m) => m.type === 'live'), 'nor its stream');
    const buyer = await page(h.key, 'limit=5000', await h.token('buyer'));
    const asBuyer = buyer.events.find((e) => e.id === paidLive)!;
    ok(asBuyer.has_access, 'the buyer has access');
    const live = asBuyer.media.find((m) => m.type === 'live');
    ok(live, 'and its stream');
    assert.equal((await request(live.url)).status, 200);
    const guestAgain = (await page(h.key, 'limit=5000')).events.find((e) => e.id === paidLive)!;
    ok(!guestAgain.has_access, 'a guest after the buyer still has none');
  });

  test('statuses move with the clock, and an event changed is seen at once', async () => {
    const key = await h.apiKey('bench');
    const before = await page(key, 'limit=5000');
    const next = before.events.find((e) => e.stream_status === 'upcoming')!;
    // A second past its start, the same page lists it live.
    h.nowMs = (next.event_utc_ts + 1) * 1000;
    const later = await page(key, 'limit=5000');
    assert.equal(later.events.find((e) => e.id === next.id)!.stream_status, 'live');
    // Moved an hour on by the dev endpoint: upcoming again, in the very next answer.
    const moved = await h.post(`/__dev/events/${next.id}/start-in?channel_key=bench`, { seconds: 3600 });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const after = await page(key, 'limit=5000');
    assert.equal(after.events.find((e) => e.id === next.id)!.stream_status, 'upcoming');
    await h.post(`/__dev/events/${next.id}/reset?channel_key=bench`, {});
  });

  test('the rendered pages are bounded in bytes', async () => {
    const key = await h.apiKey('bench');
    for (let offset = 0; offset < 12; offset++) await page(key, `limit=5000&offset=${offset}`);
    const stats = renderedPageStats(h.server.db);
    ok(stats.bytes <= RENDERED_PAGES_BYTES, `${stats.bytes} bytes held`);
    ok(stats.pages < 12, `${stats.pages} pages held`);
  });
});
