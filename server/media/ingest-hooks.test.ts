/**
 * Live ingest on an in-process server (harness.ts) with its operator listener, nginx's side played by the test: the
 * hooks are posted as nginx posts them (a form: app, name = the key, clientid…), and the event's HLS folder is
 * written as nginx writes it. The stream key through the operator API (made once, rotated, audited without it), the
 * hooks' answers (302 to the relay, 403 otherwise), the event's status for viewers, its playlists and segments under
 * signed URLs (live: the whole event, no end; finished: VOD from the start), the reconnect grace, and no key in any
 * log line. The real nginx and an encoder are test/e2e/ingest.spec.ts's.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addOperator } from '../operator/operators.js';
import { captureLog, Harness, ok, request, type Answer } from '../testing/harness.js';
import { parseNginxPlaylist } from './ingest/hls-folder.js';

const hlsDir = mkdtempSync(join(tmpdir(), 'channel-ingest-test-'));
const RTMP_URL = 'rtmp://ingest.example.com:1936/live';
const GRACE = 60;
const h = new Harness({ operatorPort: 0, ingest: { rtmpUrl: RTMP_URL, hlsDir, graceSeconds: GRACE } });
let owner = '';
let eventId = 0;
const capture = captureLog();

const operator = (method: string, path: string, body?: unknown): Promise<Answer> =>
  request(`http://127.0.0.1:${h.server.operatorPort}/operator/v1/channels/demo${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${owner}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** What nginx posts to a hook. */
const hook = (which: 'on_publish' | 'on_publish_done', key: string, clientid = '7', app = 'live') =>
  fetch(`http://127.0.0.1:${h.server.operatorPort}/ingest/${which}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      app,
      flashver: 'FMLE/3.0',
      tcurl: 'rtmp://127.0.0.1:1936/live',
      addr: '127.0.0.1',
      clientid,
      call: which === 'on_publish' ? 'publish' : 'publish_done',
      name: key,
      type: 'live',
    }).toString(),
    redirect: 'manual',
  });

/** Writes the folder as nginx does: index.m3u8 (a push, a drop, a push) and segment files of `bytes` each. */
function writeFolder(durations: number[], breakAt?: number, bytes = 50_000) {
  const dir = join(hlsDir, `event-${eventId}`);
  mkdirSync(dir, { recursive: true });
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-TARGETDURATION:4'];
  durations.forEach((duration, n) => {
    if (n === 0 || n === breakAt) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${duration.toFixed(3)},`, `${n}.ts`);
    writeFileSync(join(dir, `${n}.ts`), Buffer.alloc(bytes, n));
  });
  writeFileSync(join(dir, 'index.m3u8'), `${lines.join('\n')}\n`);
}

const status = async () => (await h.event('countdown')).stream_status as string;
/** When the event's push ends (its grace included), as stored: null while an encoder pushes. */
const liveUntil = async () =>
  (await h.server.db.get('SELECT live_until FROM events WHERE id = ?', [eventId]))!.live_until;
/** The event's status as the operator API (and `events list`) shows it. */
const operatorStatus = async () => (await operator('GET', `/events/${eventId}`)).body.data.status as string;

before(async () => {
  await h.start();
  const channelId = Number((await h.server.db.get("SELECT id FROM channels WHERE channel_key = 'demo'"))!.id);
  owner = (await addOperator(h.server.db, channelId, 'owner@example.com', 'owner', h.nowMs)).token;
  eventId = h.id('countdown');
  // The event becomes an ingest one as an operator makes it so: the operator API's stream field.
  const made = await operator('PATCH', `/events/${eventId}`, { stream: { type: 'ingest' } });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  assert.deepEqual(made.body.data.stream, { type: 'ingest' });
});
after(async () => {
  capture.restore();
  await h.stop();
  rmSync(hlsDir, { recursive: true, force: true });
});

describe('live ingest', () => {
  let key = '';

  test("an ingest event's stream key: made on first ask, the same after, new on rotate; never cached", async () => {
    const first = await operator('GET', `/events/${eventId}/ingest`);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.equal(first.body.data.rtmp_url, RTMP_URL);
    assert.match(first.body.data.stream_key, /^[\w-]{32}$/);
    assert.equal((await operator('GET', `/events/${eventId}/ingest`)).body.data.stream_key, first.body.data.stream_key);
    const rotated = await operator('POST', `/events/${eventId}/ingest/rotate`);
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.data.stream_key, first.body.data.stream_key);
    key = rotated.body.data.stream_key;
    // The old key no longer opens a push.
    assert.equal((await hook('on_publish', first.body.data.stream_key)).status, 403);

    const generated = await operator('GET', `/events/${h.id('free-live')}/ingest`);
    assert.equal(generated.status, 409);
    assert.match(generated.body.message, /not pushed from an encoder/);
    assert.equal((await operator('GET', '/events/999999/ingest')).status, 404);

    const audit = await operator('GET', '/audit');
    const actions = (audit.body.data as Array<{ action: string; record_id: string }>)
      .filter((entry) => entry.record_id === String(eventId))
      .map((entry) => entry.action);
    assert.deepEqual(actions.slice(0, 2), ['rotate_stream_key', 'make_stream_key']);
    assert.doesNotMatch(JSON.stringify(audit.body), new RegExp(key));
  });

  test('on_publish refuses a wrong key and another application; the right one goes live and relays', async () => {
    assert.equal(await status(), 'upcoming');
    assert.equal(await operatorStatus(), 'upcoming');
    assert.equal((await hook('on_publish', 'not-a-key')).status, 403);
    assert.equal((await hook('on_publish', key, '7', 'hls')).status, 403);
    assert.equal(await status(), 'upcoming');

    const accepted = await hook('on_publish', key);
    assert.equal(accepted.status, 302);
    assert.equal(accepted.headers.get('location'), `rtmp://127.0.0.1:1936/hls/event-${eventId}`);
    assert.equal(await status(), 'live');
    assert.equal(await operatorStatus(), 'live');
  });

  test('a live ingest event plays its folder: the whole event, no end, numbered segments only', async () => {
    writeFolder([3.9, 2, 2]);
    const event = await h.event('countdown');
    const url = Harness.mediaUrl(event, 'live');
    ok(url, JSON.stringify(event.media));
    const master = await request(url);
    assert.equal(master.status, 200);
    // The peak: 50 000 bytes in 2 s; the mean over 7.9 s.
    assert.match(master.body, /#EXT-X-STREAM-INF:BANDWIDTH=200000,AVERAGE-BANDWIDTH=151899\nsource\/index\.m3u8/);
    const playlist = await request(new URL('source/index.m3u8', url).href);
    assert.equal(playlist.status, 200);
    assert.match(playlist.body, /#EXT-X-PLAYLIST-TYPE:EVENT/);
    assert.doesNotMatch(playlist.body, /ENDLIST/);
    assert.deepEqual(
      parseNginxPlaylist(playlist.body).segments.map((s) => s.file),
      ['0.ts', '1.ts', '2.ts'],
    );
    const segment = await request(new URL('source/1.ts', url).href);
    assert.equal(segment.status, 200);
    assert.equal(segment.headers.get('content-type'), 'video/mp2t');
    assert.equal((await fetch(new URL('source/9.ts', url))).status, 404);
    assert.equal((await fetch(new URL('source/index.ts', url))).status, 404);
    assert.equal((await fetch(new URL('360p/index.m3u8', url))).status, 404);
    // Another address's request with this URL is refused, as for any signed media.
    const grant = url.replace(/master\.m3u8$/, 'source/0.ts').replace(/\/s\/\d+\./, '/s/1.');
    assert.equal((await fetch(grant)).status, 403);
  });

  test('a push that drops and comes back within the grace continues; after it, the event is finished', async () => {
    // An end that does not name the push's key ends nothing.
    await hook('on_publish_done', 'not-a-key');
    assert.equal(await liveUntil(), null, 'still pushing');
    // The encoder comes back (client 12) before nginx notices the first connection (7) is gone: the first's late end
    // ends nothing.
    assert.equal((await hook('on_publish', key, '12')).status, 302);
    await hook('on_publish_done', key, '7');
    assert.equal(await liveUntil(), null, 'still pushing on the new connection');
    await hook('on_publish_done', key, '12');
    assert.equal(await status(), 'live', 'live through the grace');
    const row = await h.server.db.get('SELECT live_from, recording_seconds FROM events WHERE id = ?', [eventId]);
    assert.equal(Number(row!.recording_seconds), 7.9);
    h.nowMs += 30_000;
    assert.equal((await hook('on_publish', key, '8')).status, 302, 'the encoder is back within the grace');
    writeFolder([3.9, 2, 2, 4, 2], 3);
    await hook('on_publish_done', key, '8');
    const again = await h.server.db.get('SELECT live_from FROM events WHERE id = ?', [eventId]);
    assert.equal(again!.live_from, row!.live_from, 'the same live stream');

    h.nowMs += (GRACE + 1) * 1000;
    const event = await h.event('countdown');
    assert.equal(event.stream_status, 'finished');
    assert.equal(await operatorStatus(), 'finished');
    assert.equal(event.duration, 13.9);
    const url = Harness.mediaUrl(event, 'vod');
    ok(url, JSON.stringify(event.media));
    const playlist = await request(new URL('source/index.m3u8', url).href);
    assert.match(playlist.body, /#EXT-X-PLAYLIST-TYPE:VOD/);
    assert.match(playlist.body, /#EXT-X-ENDLIST\n$/);
    assert.match(playlist.body, /2\.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:4\.000,\n3\.ts/);
    assert.equal((await hook('on_publish', key, '9')).status, 403, 'a finished event takes no more pushes');
  });

  test('a reset clears a finished push (an encoder test before the game): upcoming, its folder gone, refused on air', async () => {
    const folder = join(hlsDir, `event-${eventId}`);
    ok(existsSync(folder));
    const reset = await operator('POST', `/events/${eventId}/ingest/reset`);
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(reset.body.data.status, 'upcoming');
    assert.equal(await status(), 'upcoming');
    assert.equal(existsSync(folder), false, "nginx's folder of the test push is gone");
    const audit = await operator('GET', '/audit');
    ok(JSON.stringify(audit.body).includes('reset_ingest'));

    // The game: a push, and a second encoder on the same key that nginx accepts through on_publish and then drops
    // as "already publishing": its end does not end the game.
    assert.equal((await hook('on_publish', key, '20')).status, 302);
    assert.equal((await hook('on_publish', key, '21')).status, 302);
    await hook('on_publish_done', key, '21');
    assert.equal(await liveUntil(), null, 'the first encoder is still on air');
    assert.equal((await operator('POST', `/events/${eventId}/ingest/reset`)).status, 409, 'no reset on air');
  });

  test('the watchdog ends a push whose folder stopped growing without nginx saying so (nginx died)', async () => {
    writeFolder([2, 2, 2]);
    const index = join(hlsDir, `event-${eventId}`, 'index.m3u8');
    // The folder grew just now (on the server's clock): the push is on air.
    utimesSync(index, new Date(h.nowMs), new Date(h.nowMs));
    await h.server.ingestWatch!();
    assert.equal(await status(), 'live');
    // No segment for the grace and half a minute more: the push is gone; the event ends a grace after the last one.
    h.nowMs += (GRACE + 31) * 1000;
    await h.server.ingestWatch!();
    ok((await liveUntil()) !== null, 'ended by the watchdog');
    assert.equal(await status(), 'finished');
    ok(capture.lines.some((line) => line.includes('without nginx saying so')));
  });

  test('the key is in no log line', () => {
    ok(key);
    const lines = capture.lines.join('\n');
    assert.match(lines, /ingest: a push started/);
    assert.doesNotMatch(lines, new RegExp(key));
  });
});
