/**
 * Tests of the media side of the reference server: signed playback URLs, the VOD and live HLS playlists, stream
 * status over time, prerolls' media, fault injection and the media request log, and the analytics collectors
 * (Mux beacons; the datalake is analytics.test.ts). Run: node --import tsx --test server/media/media.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { endpoints } from '../../src/api/contract.js';
import { prerollOptionsOf, PrerollList } from '../../src/api/preroll-schemas.js';
import { Harness, ok } from '../testing/harness.js';
import { LIVE_DVR_SECONDS } from './hls.js';

const h = new Harness();
before(() => h.start());
after(() => h.stop());

const PLAYLIST = 'application/vnd.apple.mpegurl';
const mediaUrl = Harness.mediaUrl;
/** The recording's length (whole seconds) and its segments' count, as generated (media.ts). */
const recording = () => Math.round(h.server.media.main.duration);
const segmentCount = () => h.server.media.main.renditions[0]!.segments.length;

/** The lines of a playlist that are URIs (not tags). */
const uris = (playlist: string) => playlist.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
/** The value of a `#TAG:value` line. */
const tag = (playlist: string, name: string) => new RegExp(`^#${name}:(.*)$`, 'm').exec(playlist)?.[1];

/** A URL of the same stream with another file (a playlist or segment under the signed prefix). */
const sibling = (master: string, file: string) => master.replace(/master\.m3u8$/, file);

async function playlist(url: string): Promise<string> {
  const res = await h.call(url);
  assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
  assert.equal(res.headers.get('content-type'), PLAYLIST);
  return String(res.body);
}

describe('signed playback URLs', () => {
  test('a stream URL is signed, on the API origin, and refused with 403 when missing, wrong, for another stream or expired', async () => {
    const event = await h.event('free-live');
    const url = mediaUrl(event, 'live');
    ok(url, JSON.stringify(event.media));
    const m = /^(.*)\/media\/s\/(\d+)\.([\w-]{16})\.([\w-]{43})\/(\d+)\/master\.m3u8$/.exec(url);
    ok(m, url);
    assert.equal(m[1], h.base);
    assert.equal(Number(m[5]), event.id);
    // Two hours, rounded up to the minute.
    const expiry = Number(m[2]);
    ok(expiry * 1000 - h.nowMs >= 7200_000 && expiry * 1000 - h.nowMs < 7260_000, String(expiry));

    const ok200 = await h.call(url);
    assert.equal(ok200.status, 200);
    assert.equal(ok200.headers.get('access-control-allow-origin'), '*');
    const origin = m[1]!;
    const viewer = m[3]!;
    const signature = m[4]!;
    const other = h.id('free-finished');
    const grant = `${expiry}.${viewer}.${signature}`;
    const refused = [
      `${origin}/media/s/${expiry}.${viewer}.${signature.slice(1)}A/${event.id}/master.m3u8`, // wrong signature
      `${origin}/media/s/${expiry + 60}.${viewer}.${signature}/${event.id}/master.m3u8`, // expiry changed
      `${origin}/media/s/${expiry}.${viewer.slice(1)}A.${signature}/${event.id}/master.m3u8`, // another viewer
      `${origin}/media/s/${grant}/${other}/master.m3u8`, // another stream
      `${origin}/media/s/${grant}/${event.id}/360p/0.ts`.replace(signature, 'x'), // a segment, bad signature
      `${origin}/media/s/-/${event.id}/master.m3u8`,
      `${origin}/media/s/`,
      `${origin}/media/s/${grant}`,
    ];
    for (const bad of refused) {
      const res = await h.call(bad);
      assert.equal(res.status, 403, bad);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      ok(typeof res.body.message === 'string');
    }
    const saved = h.nowMs;
    try {
      h.nowMs = expiry * 1000;
      const expired = await h.call(url);
      assert.equal(expired.status, 403);
      assert.equal(expired.body.message, 'The playback URL has expired.');
      assert.equal((await h.call(sibling(url, '360p/0.ts'))).status, 403);
    } finally {
      h.nowMs = saved;
    }
  });

  test('only callers with access get stream URLs; upcoming and geo-blocked events have none', async () => {
    const paid = await h.event('paid-live');
    assert.equal(paid.has_access, false);
    assert.deepEqual(
      paid.media.map((m: { type: string }) => m.type),
      ['image'],
    );
    const upcoming = await h.event('countdown');
    assert.equal(upcoming.stream_status, 'upcoming');
    assert.deepEqual(
      upcoming.media.map((m: { type: string }) => m.type),
      ['image'],
    );
    const geo = await h.event('geo-blocked', 'subscriber');
    assert.equal(geo.is_geo_blocked, true);
    assert.equal(geo.stream_status, 'live');
    assert.deepEqual(
      geo.media.map((m: { type: string }) => m.type),
      ['image'],
    );
    // The list answers the same media as the single event.
    const list = (await h.api('events', 'subscriber', 'limit=100')).body.data as Array<{ id: number; media: unknown }>;
    assert.deepEqual(list.find((e) => e.id === geo.id)?.media, geo.media);
  });
});

describe('on-demand playlists', () => {
  test('master: two renditions with BANDWIDTH, RESOLUTION, CODECS, and WebVTT subtitles', async () => {
    const event = await h.event('free-finished');
    assert.equal(event.stream_status, 'finished');
    assert.equal(event.has_recording, true);
    assert.equal(event.duration, recording());
    const url = mediaUrl(event, 'vod');
    ok(url && !mediaUrl(event, 'live'));
    const master = await playlist(url);
    ok(master.startsWith('#EXTM3U\n'));
    const variants = [...master.matchAll(/^#EXT-X-STREAM-INF:(.*)\n(.*)$/gm)].map(([, attributes, uri]) => ({
      attributes: attributes!,
      uri,
    }));
    assert.deepEqual(
      variants.map((v) => v.uri),
      ['360p/index.m3u8', '180p/index.m3u8'],
    );
    assert.deepEqual(
      variants.map((v) => /RESOLUTION=(\d+x\d+)/.exec(v.attributes)?.[1]),
      ['640x360', '320x180'],
    );
    const bandwidths = variants.map((v) => Number(/(?:^|,)BANDWIDTH=(\d+)/.exec(v.attributes)?.[1]));
    ok(bandwidths[0]! > bandwidths[1]! && bandwidths[1]! > 100_000, String(bandwidths));
    for (const v of variants) {
      ok(v.attributes.includes('CODECS="avc1.4d401e,mp4a.40.2"'), v.attributes);
      ok(v.attributes.includes('SUBTITLES="subs"'), v.attributes);
    }
    const subtitles = [...master.matchAll(/^#EXT-X-MEDIA:(.*)$/gm)].map(([, attributes]) => attributes!);
    assert.equal(subtitles.length, 2);
    ok(subtitles.every((a) => a.includes('TYPE=SUBTITLES') && a.includes('GROUP-ID="subs"')));
    ok(subtitles.some((a) => a.includes('LANGUAGE="en"') && a.includes('URI="subs-en/index.m3u8"')));
  });

  test('media playlists: VOD type, end list, segments of 2 s over the recording; segments and cues are served with their types', async () => {
    const url = mediaUrl(await h.event('free-finished'), 'vod')!;
    assert.equal(segmentCount(), recording() / 2);
    for (const [track, ext] of [
      ['360p', 'ts'],
      ['180p', 'ts'],
      ['subs-en', 'vtt'],
    ] as const) {
      const text = await playlist(sibling(url, `${track}/index.m3u8`));
      assert.equal(tag(text, 'EXT-X-PLAYLIST-TYPE'), 'VOD');
      assert.equal(tag(text, 'EXT-X-TARGETDURATION'), '2');
      assert.equal(tag(text, 'EXT-X-MEDIA-SEQUENCE'), '0');
      ok(text.trimEnd().endsWith('#EXT-X-ENDLIST'));
      assert.deepEqual(
        uris(text),
        Array.from({ length: segmentCount() }, (_, i) => `${i}.${ext}`),
      );
      const total = [...text.matchAll(/#EXTINF:([\d.]+),/g)].reduce((sum, [, d]) => sum + Number(d), 0);
      assert.equal(Math.round(total), recording());
    }
    const segment = await fetch(sibling(url, '360p/3.ts'));
    assert.equal(segment.status, 200);
    assert.equal(segment.headers.get('content-type'), 'video/mp2t');
    assert.equal(segment.headers.get('access-control-allow-origin'), '*');
    const bytes = new Uint8Array(await segment.arrayBuffer());
    ok(bytes.length > 10_000 && bytes[0] === 0x47 && bytes[188] === 0x47, 'MPEG-TS sync bytes');
    const cue = await fetch(sibling(url, 'subs-fr/3.vtt'));
    assert.equal(cue.headers.get('content-type'), 'text/vtt; charset=utf-8');
    const vtt = await cue.text();
    ok(vtt.startsWith('WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:'), vtt);
    ok(vtt.includes('00:00:06.000 --> 00:00:08.000') && vtt.includes('Sous-titre'), vtt);
    // Past the end of a recording, and what is not a track or segment: 404.
    for (const file of [`360p/${segmentCount()}.ts`, '720p/index.m3u8', '360p/0.vtt', 'subs-en/0.ts', 'nothing']) {
      assert.equal((await h.call(sibling(url, file))).status, 404, file);
    }
  });
});

describe('live', () => {
  test('the live window slides with the clock and loops the clip with a discontinuity', async () => {
    const start = h.nowMs;
    const moved = await h.post('/__dev/events/countdown/start-in', { seconds: 0 });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    try {
      const event = await h.event('countdown');
      assert.equal(event.stream_status, 'live');
      const url = mediaUrl(event, 'live');
      ok(url && !mediaUrl(event, 'vod'));
      const at = async (ms: number, track = '360p') => {
        h.nowMs = start + ms;
        const res = await h.call(sibling(url, `${track}/index.m3u8`));
        assert.equal(res.headers.get('cache-control'), 'no-cache');
        return String(res.body);
      };
      let text = await at(0);
      assert.equal(tag(text, 'EXT-X-MEDIA-SEQUENCE'), '0');
      assert.equal(tag(text, 'EXT-X-DISCONTINUITY-SEQUENCE'), '0');
      assert.deepEqual(uris(text), ['0.ts', '1.ts', '2.ts', '3.ts', '4.ts', '5.ts']);
      ok(!text.includes('#EXT-X-ENDLIST') && !text.includes('#EXT-X-PLAYLIST-TYPE'), text);
      ok(text.includes('#EXT-X-PROGRAM-DATE-TIME:'), text);

      text = await at(1_999);
      assert.equal(uris(text).length, 6);
      // One more segment per 2 s of clock; the window keeps growing up to LIVE_DVR_SECONDS (the DVR window).
      text = await at(2_000);
      assert.equal(tag(text, 'EXT-X-MEDIA-SEQUENCE'), '0');
      assert.deepEqual(uris(text).slice(-2), ['5.ts', '6.ts']);

      // The recording (n segments) loops after segment n - 1, with a discontinuity before segment n.
      const n = segmentCount();
      const window = LIVE_DVR_SECONDS / 2;
      const range = (from: number, to: number, ext = 'ts') =>
        Array.from({ length: to - from + 1 }, (_, i) => `${from + i}.${ext}`);
      text = await at((n - 6) * 2000);
      assert.equal(tag(text, 'EXT-X-DISCONTINUITY-SEQUENCE'), '0');
      assert.deepEqual(uris(text), range(0, n - 1));
      text = await at((n - 5) * 2000);
      assert.match(
        text,
        new RegExp(
          `${n - 1}\\.ts\\n#EXT-X-DISCONTINUITY\\n#EXT-X-PROGRAM-DATE-TIME:[^\\n]+\\n#EXTINF:[\\d.]+,\\n${n}\\.ts`,
        ),
      );
      // Ten minutes and more in: the newest LIVE_DVR_SECONDS only.
      const last = (ms: number) => Math.floor(ms / 2000) + 5;
      let ms = (window + 40) * 2000;
      text = await at(ms);
      assert.equal(tag(text, 'EXT-X-MEDIA-SEQUENCE'), String(last(ms) - window + 1));
      assert.deepEqual(uris(text), range(last(ms) - window + 1, last(ms)));
      // Once a discontinuity slid out, the sequence counts it.
      const first = last(ms) - window + 1;
      assert.equal(tag(text, 'EXT-X-DISCONTINUITY-SEQUENCE'), String(Math.floor((first - 1) / n)));
      // Subtitles follow the same window.
      text = await at(ms, 'subs-en');
      assert.deepEqual(uris(text), range(first, last(ms), 'vtt'));
      // An hour in: 1800 segments after the 6 of the lead.
      ms = 3_600_000 - 1;
      text = await at(ms);
      assert.equal(tag(text, 'EXT-X-MEDIA-SEQUENCE'), String(1804 - window + 1));
      assert.equal(tag(text, 'EXT-X-DISCONTINUITY-SEQUENCE'), String(Math.floor((1804 - window) / n)));

      // Segment k of the live stream is file k mod n of the recording.
      h.nowMs = start + (n + 5) * 2000;
      const live = new Uint8Array(await (await fetch(sibling(url, `360p/${n + 2}.ts`))).arrayBuffer());
      const vod = mediaUrl(await h.event('free-finished'), 'vod')!;
      const vod2 = new Uint8Array(await (await fetch(sibling(vod, '360p/2.ts'))).arrayBuffer());
      assert.deepEqual(live, vod2);
    } finally {
      h.nowMs = start;
      await h.post('/__dev/events/countdown/reset', {});
    }
  });

  test('stream_status follows the clock: upcoming (no stream), live (live stream), finished (recording)', async () => {
    const start = h.nowMs;
    try {
      const moved = await h.post('/__dev/events/countdown/start-in', { seconds: 30, duration: 120 });
      assert.equal(moved.body.data.stream_status, 'upcoming');
      assert.equal(moved.body.data.event_utc_ts, Math.floor(start / 1000) + 30);
      let event = await h.event('countdown');
      assert.deepEqual([event.stream_status, event.has_access, event.duration], ['upcoming', true, 120]);
      ok(!mediaUrl(event, 'live') && !mediaUrl(event, 'vod'));
      const listed = async () =>
        ((await h.api('events', undefined, 'stream_status=live&limit=100')).body.data as Array<{ id: number }>).some(
          (e) => e.id === event.id,
        );
      assert.equal(await listed(), false);

      h.nowMs = start + 30_000;
      event = await h.event('countdown');
      assert.equal(event.stream_status, 'live');
      const live = mediaUrl(event, 'live')!;
      assert.equal(tag(await playlist(sibling(live, '360p/index.m3u8')), 'EXT-X-MEDIA-SEQUENCE'), '0');
      assert.equal(await listed(), true);

      h.nowMs = start + 150_000;
      event = await h.event('countdown');
      assert.deepEqual([event.stream_status, event.duration], ['finished', recording()]);
      ok(mediaUrl(event, 'vod') && !mediaUrl(event, 'live'));
      // The live URL of before still works, and now plays the recording.
      const after = await playlist(sibling(live, '360p/index.m3u8'));
      ok(after.includes('#EXT-X-ENDLIST'), after);

      // Moved back into the future, the stream is refused (404) even with a valid signature.
      await h.post('/__dev/events/countdown/start-in', { seconds: 60 });
      assert.equal((await h.call(live)).status, 404);
    } finally {
      h.nowMs = start;
      const reset = await h.post('/__dev/events/countdown/reset', {});
      assert.equal(reset.body.data.stream_status, 'upcoming');
    }
    assert.equal((await h.post('/__dev/events/nope/start-in', { seconds: 1 })).status, 404);
    assert.equal((await h.post('/__dev/events/countdown/start-in', { seconds: 'soon' })).status, 422);
  });

  test('a finished event without a recording has no stream, for anyone', async () => {
    const event = await h.event('no-recording', 'subscriber');
    assert.deepEqual(
      [event.stream_status, event.has_recording, event.has_access, event.duration],
      ['finished', false, true, null],
    );
    assert.deepEqual(
      event.media.map((m: { type: string }) => m.type),
      ['image'],
    );
  });
});

describe('prerolls media', () => {
  test('each preroll URL plays a short public VOD stream, different from the main video', async () => {
    const prerolls = PrerollList.parse(
      endpoints.settings.response.parse((await h.keyless('settings')).body).data.prerolls,
    );
    ok(prerolls.length >= 2);
    const durations = new Set<number>();
    for (const preroll of prerolls) {
      assert.match(preroll.url, new RegExp(`^${h.base}/media/prerolls/${preroll.id}/master\\.m3u8$`));
      const master = await playlist(preroll.url);
      assert.deepEqual(uris(master), ['360p/index.m3u8']);
      ok(!master.includes('SUBTITLES'));
      const media = await playlist(sibling(preroll.url, '360p/index.m3u8'));
      assert.equal(tag(media, 'EXT-X-PLAYLIST-TYPE'), 'VOD');
      const seconds = [...media.matchAll(/#EXTINF:([\d.]+),/g)].reduce((sum, [, d]) => sum + Number(d), 0);
      ok(seconds >= 4 && seconds <= 6, String(seconds));
      durations.add(Math.round(seconds));
      const segment = await fetch(sibling(preroll.url, '360p/0.ts'));
      assert.equal(segment.headers.get('content-type'), 'video/mp2t');
    }
    assert.deepEqual([...durations].sort(), [4, 6]);
    assert.equal((await h.call('/media/prerolls/999/master.m3u8')).status, 404);
  });
});

describe('fault injection and the media request log', () => {
  test('manifest faults answer their status until cleared; a segment fault fails once', async () => {
    const event = await h.event('free-live');
    const url = mediaUrl(event, 'live')!;
    const stream = String(event.id);
    const added = await h.post('/__dev/faults', { stream: event.id, manifest: 403 });
    assert.equal(added.status, 201);
    assert.equal((await h.call(url)).status, 403);
    assert.equal((await h.call(sibling(url, '360p/index.m3u8'))).status, 403);
    assert.equal((await h.call(sibling(url, '360p/0.ts'))).status, 200, 'segments are not hit by manifest faults');
    assert.equal((await h.call('/__dev/faults')).body.data.length, 1);
    await h.call(`/__dev/faults?stream=${stream}`, { method: 'DELETE' });
    assert.equal((await h.call(url)).status, 200);

    await h.post('/__dev/faults', { stream, segment: 'once' });
    const failed = await h.call(sibling(url, '360p/1.ts'));
    assert.equal(failed.status, 500);
    assert.equal(failed.headers.get('x-injected-fault'), '1');
    assert.equal((await h.call(sibling(url, '360p/1.ts'))).status, 200);
    assert.deepEqual((await h.call('/__dev/faults')).body.data, []);

    await h.post('/__dev/faults', { stream, segment: 404, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.call(sibling(url, `360p/${i}.ts`))).status);
    assert.deepEqual(statuses, [404, 404, 200]);

    await h.post('/__dev/faults', { stream, delay_ms: 300, times: 1 });
    const t = performance.now();
    assert.equal((await h.call(sibling(url, '360p/2.ts'))).status, 200);
    ok(performance.now() - t >= 290, 'delayed segment');

    // A fault on another stream does not touch this one; DELETE without a stream clears all.
    await h.post('/__dev/faults', { stream: 'vod-1', manifest: 500 });
    assert.equal((await h.call(url)).status, 200);
    assert.deepEqual((await h.call('/__dev/faults', { method: 'DELETE' })).body.data, []);
    for (const bad of [
      {},
      { stream },
      { stream, manifest: 200 },
      { stream, segment: 'twice' },
      { stream, delay_ms: -1 },
    ]) {
      assert.equal((await h.post('/__dev/faults', bad)).status, 422, JSON.stringify(bad));
    }
  });

  test('media requests are listed without signatures, filterable by stream and id', async () => {
    const event = await h.event('free-finished');
    const url = mediaUrl(event, 'vod')!;
    await h.call('/__dev/media-requests', { method: 'DELETE' });
    const paid = await h.event('paid-finished');
    ok(!mediaUrl(paid, 'vod'));
    assert.deepEqual((await h.call('/__dev/media-requests')).body.data, [], 'listing events makes no media request');

    await h.call(url);
    await h.call(sibling(url, '180p/index.m3u8'));
    await h.call(sibling(url, '180p/0.ts'));
    await h.call(sibling(url, 'subs-en/0.vtt'));
    await h.call(url.replace(/\/s\/[^/]+\//, '/s/bad/'));
    const all = (await h.call(`/__dev/media-requests?stream=${event.id}`)).body.data as Array<Record<string, unknown>>;
    assert.deepEqual(
      all.map((r) => [r.kind, r.status]),
      [
        ['master', 200],
        ['playlist', 200],
        ['segment', 200],
        ['subtitles', 200],
        ['master', 403],
      ],
    );
    const signature = /\/s\/([^/]+)\//.exec(url)![1]!;
    ok(all.every((r) => typeof r.path === 'string' && !r.path.includes(signature) && typeof r.at === 'number'));
    assert.equal(all[2]!.path, `/media/s/-/${event.id}/180p/0.ts`);
    const later = (await h.call(`/__dev/media-requests?after=${all[2]!.id}`)).body.data;
    assert.equal(later.length, 2);
    assert.equal((await h.call(`/__dev/media-requests?since=${h.nowMs + 1}`)).body.data.length, 0);
  });
});

describe('analytics collectors', () => {
  test('settings name this server (as localhost) as the Mux beacon domain', async () => {
    const settings = endpoints.settings.response.parse((await h.keyless('settings')).body).data;
    assert.deepEqual(settings.mux, { env_key: 'demo-mux-env-key', beacon_domain: `localhost:${h.server.port}` });
    const viaIp = await h.call(`http://127.0.0.1:${h.server.port}/api/settings?channel_key=demo`);
    assert.equal(viaIp.body.data.mux.beacon_domain, `localhost:${h.server.port}`);
    assert.equal((await h.call('/storage/settings/demo.json')).body.mux.beacon_domain, `localhost:${h.server.port}`);
    assert.deepEqual(prerollOptionsOf(settings.preroll_options), { enabled: true, suppression_minutes: 60 });
  });

  test('Mux beacons (POST / as mux-embed sends them) are recorded', async () => {
    await h.call('/__dev/beacons', { method: 'DELETE' });
    const beacon = {
      metadata: { transmission_timestamp: 1 },
      events: [{ e: 'viewstart', ake: 'demo-mux-env-key', xid: 'v1' }],
    };
    const res = await h.call('/', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Origin: h.server.hostOrigin },
      body: JSON.stringify(beacon),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const recorded = (await h.call('/__dev/beacons')).body.data;
    assert.equal(recorded.length, 1);
    assert.deepEqual(recorded[0].body, beacon);
    assert.equal(recorded[0].origin, h.server.hostOrigin);
    assert.equal((await h.call('/', { method: 'POST', body: 'not json' })).status, 400);
    assert.equal((await h.post('/', { metadata: {} })).status, 422);
    // The demo index page is still served on GET /.
    assert.notEqual((await h.call('/')).status, 405);
  });
});
