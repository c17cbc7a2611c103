/**
 * An ingest event's own media on the reference server (media/ingest/recording.ts): the thumbnails track of its push's
 * HLS folder, live and finished, its download (the recording as one MP4, made on the first need) and clips cut from
 * it, finished (from the recording) and live (from the segments). The folders are made as nginx-rtmp writes them
 * (testing/ingest-folder.ts): 8 s of testsrc2, then after a reconnect 6 s of blue, so a frame tells where it is from.
 * Run: node --import tsx --test server/clips/ingest-clips.test.ts
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { endpoints } from '../../src/api/contract.js';
import { forgetEventJson } from '../catalog/events.js';
import { FFMPEG, FFPROBE } from '../media/ffmpeg.js';
import { LIVE_THUMBS_LOOP } from '../media/ingest/recording.js';
import { makeIngestFolder } from '../testing/ingest-folder.js';
import { Harness, ok } from '../testing/harness.js';

const exec = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'ingest-clips-test-'));
const hlsDir = join(tmp, 'hls');
const h = new Harness({ ingest: { hlsDir, rtmpUrl: 'rtmp://127.0.0.1:1935/live' } });
const FAN = { email: 'fan@example.com', password: 'fan-pass-1' };
let fan = '';
/** The events' clock: seconds since its anchor now, and each event's start on it. */
let rel = 0;
const starts: Record<string, number> = {};

/** Makes a demo event an ingest event whose push began `ago` seconds ago and ended (or not: null) `endedAgo` ago. */
async function makeIngest(key: string, ago: number, endedAgo: number | null): Promise<void> {
  await h.server.db.run(
    'UPDATE events SET stream_source = ?, live_from = ?, live_until = ?, recording_seconds = ? WHERE id = ?',
    ['ingest', rel - ago, endedAgo === null ? null : rel - endedAgo, endedAgo === null ? null : 14, h.id(key)],
  );
  forgetEventJson(h.server.db);
}

before(async () => {
  const folder = join(hlsDir, 'event-0');
  await makeIngestFolder(folder, [
    { picture: 'testsrc2', seconds: 8 },
    { picture: 'color=c=blue', seconds: 6 },
  ]);
  await h.start();
  fan = await h.signIn(FAN.email, FAN.password);
  for (const key of ['free-finished', 'free-live']) {
    cpSync(folder, join(hlsDir, `event-${h.id(key)}`), { recursive: true });
    const row = await h.server.db.get('SELECT start_offset FROM events WHERE id = ?', [h.id(key)]);
    starts[key] = Number(row!.start_offset);
  }
  const event = await h.event('free-live');
  rel = Math.floor(h.nowMs / 1000) - (Number(event.event_utc_ts) - starts['free-live']!);
  await makeIngest('free-finished', 3600, 3000);
  await makeIngest('free-live', 20, null);
  // A finished push that left no segment: nginx's playlist without any (the push ended before its first segment).
  mkdirSync(join(hlsDir, `event-${h.id('register-finished')}`), { recursive: true });
  writeFileSync(
    join(hlsDir, `event-${h.id('register-finished')}`, 'index.m3u8'),
    '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-TARGETDURATION:2\n',
  );
  await makeIngest('register-finished', 3600, 3000);
  await h.server.db.run('UPDATE events SET has_recording = 1 WHERE id = ?', [h.id('register-finished')]);
  forgetEventJson(h.server.db);
});
after(async () => {
  await h.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const auth = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
const get = (path: string, token?: string) => h.call(`/api/${path}?api_key=${h.key}`, { headers: auth(token) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The event as the fan gets it. */
async function eventOf(key: string) {
  const res = await get(`events/${h.id(key)}`, fan);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as { stream_status: string; media: Array<{ type: string; url: string }> };
}

/** Downloads a URL into a file of the test's folder. */
async function download(url: string, name: string): Promise<{ file: string; res: Response }> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  const file = join(tmp, name);
  writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
  return { file, res };
}

async function probe(file: string, entries: string): Promise<string> {
  const { stdout } = await exec(FFPROBE, ['-v', 'error', '-show_entries', entries, '-of', 'csv=p=0', file]);
  return stdout.trim();
}

/** Whether the frame at `at` s of a video is the second push's blue (mean Cb high; testsrc2's is about 128). */
async function blue(file: string, at: number): Promise<boolean> {
  const { stderr } = await exec(FFMPEG, [
    ...['-hide_banner', '-ss', String(at), '-i', file, '-frames:v', '1'],
    ...['-vf', 'signalstats,metadata=print:key=lavfi.signalstats.UAVG', '-f', 'null', '-'],
  ]);
  const m = /UAVG=([\d.]+)/.exec(stderr);
  ok(m, stderr);
  return Number(m[1]) > 200;
}

/** The cues of a WebVTT text: [from, to, text], times in seconds. */
function cues(vtt: string): Array<[number, number, string]> {
  const seconds = (t: string) => t.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
  return [...vtt.matchAll(/^([\d:.]+) --> ([\d:.]+)\n(.+)$/gm)].map((m) => [seconds(m[1]!), seconds(m[2]!), m[3]!]);
}

/** Makes a clip as the fan and waits for it to be done; answers its download, saved. */
async function clipFile(key: string, start: number, duration: number): Promise<string> {
  const made = await h.post(
    '/api/clip',
    { api_key: h.key, event_id: h.id(key), name: 'Ingest play', start_time: start, duration, tags: ['highlight'] },
    auth(fan),
  );
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = Number(made.body.data.id);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const list = endpoints.userClips.response.parse((await get('clips/user', fan)).body).data;
    const clip = list.find((c) => c.id === id);
    ok(clip, `clip ${id} listed`);
    if (clip.status === 'done') break;
    assert.notEqual(clip.status, 'failed', `clip ${id} failed`);
    ok(Date.now() < deadline, `clip ${id} done within a minute`);
    await sleep(200);
  }
  const link = endpoints.clipDownload.response.parse((await get(`clip/download/${id}`, fan)).body).data;
  return (await download(link.url, `clip-${id}.mp4`)).file;
}

describe('a finished ingest event', () => {
  test('its thumbnails are its recording’s: cues at recording positions, a picture per cue made from the segment', async () => {
    const event = await eventOf('free-finished');
    assert.equal(event.stream_status, 'finished');
    const url = Harness.mediaUrl(event, 'thumbnails');
    ok(url, 'a thumbnails track');
    const res = await h.call(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/vtt; charset=utf-8');
    assert.deepEqual(cues(String(res.body)), [
      [0, 10, '0.jpg'],
      [10, 14, '5.jpg'],
    ]);
    const picture = await fetch(new URL('5.jpg', url));
    assert.equal(picture.status, 200);
    assert.equal(picture.headers.get('content-type'), 'image/jpeg');
    const file = join(tmp, 'thumb-5.jpg');
    writeFileSync(file, new Uint8Array(await picture.arrayBuffer()));
    assert.equal(await probe(file, 'stream=width,height'), '160,90');
    ok(await blue(file, 0), 'segment 5 is the second push');
    for (const name of ['9.jpg', 'sprite.jpg']) assert.equal((await h.call(String(new URL(name, url)))).status, 404);
    // A generated event's track has its sprite, and no pictures by segment.
    const generated = Harness.mediaUrl(await eventOf('paid-finished'), 'thumbnails');
    ok(generated);
    assert.equal((await h.call(String(new URL('5.jpg', generated)))).status, 404);
    assert.equal((await h.call(String(new URL('sprite.jpg', generated)))).status, 200);
    const forged = url.replace(/\/media\/s\/[^/]+\//, '/media/s/1.aaaaaaaaaaaaaaaa.bbb/');
    assert.equal((await h.call(String(new URL('5.jpg', forged)))).status, 403, 'signed like every media path');
  });

  test('its download is the recording: one MP4 of both pushes, 14 s', async () => {
    const res = await get(`download-event/${h.id('free-finished')}`, await h.token('subscriber'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const link = endpoints.downloadEvent.response.parse(res.body).data;
    const { file, res: mp4 } = await download(link.url, 'event.mp4');
    assert.equal(mp4.headers.get('content-type'), 'video/mp4');
    assert.equal(mp4.headers.get('content-disposition'), `attachment; filename="${link.filename}"`);
    assert.equal(await probe(file, 'stream=codec_name'), 'h264\naac');
    assert.equal(Math.round(Number(await probe(file, 'format=duration'))), 14);
    assert.deepEqual([await blue(file, 4), await blue(file, 11)], [false, true]);
  });

  test('a clip is cut from the recording at its start time and downloads as an MP4', async () => {
    const file = await clipFile('free-finished', 6, 4);
    assert.equal(await probe(file, 'stream=codec_name,width,height'), 'h264,640,360\naac');
    assert.equal(Math.round(Number(await probe(file, 'format=duration'))), 4);
    // 6..10 s of the recording: the first push until 8 s, then the blue of the second.
    assert.deepEqual([await blue(file, 0.5), await blue(file, 3)], [false, true]);
    const late = await h.post(
      '/api/clip',
      { api_key: h.key, event_id: h.id('free-finished'), name: 'Late', start_time: 12, duration: 4, tags: ['x'] },
      auth(fan),
    );
    assert.equal(late.status, 422, 'a clip past the recording’s end is refused');
  });
});

describe('a finished ingest event whose folder has no segment', () => {
  test('has no recording: its playlists, thumbnails, download and clips all say so', async () => {
    const event = await eventOf('register-finished');
    assert.equal(event.stream_status, 'finished');
    const master = Harness.mediaUrl(event, 'vod');
    ok(master, 'the event is handed a media URL (its row says it has a recording)');
    const noRecording = { message: 'This event has no recording.' };
    for (const url of [master, String(new URL('source/index.m3u8', master)), String(new URL('source/0.ts', master))]) {
      const res = await h.call(url);
      assert.equal(res.status, 404, url);
      assert.deepEqual(res.body, noRecording, url);
    }
    const thumbnails = Harness.mediaUrl(event, 'thumbnails');
    ok(thumbnails);
    assert.deepEqual((await h.call(thumbnails)).body, noRecording);
    const res = await get(`download-event/${h.id('register-finished')}`, await h.token('subscriber'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const link = endpoints.downloadEvent.response.parse(res.body).data;
    const download = await h.call(link.url);
    assert.equal(download.status, 404);
    assert.deepEqual(download.body, noRecording);
    const clip = await h.post(
      '/api/clip',
      { api_key: h.key, event_id: h.id('register-finished'), name: 'None', start_time: 0, duration: 4, tags: ['x'] },
      auth(fan),
    );
    assert.equal(clip.status, 422);
    assert.match(JSON.stringify(clip.body), /This event has no recording\./);
  });
});

describe('a live ingest event', () => {
  test('its thumbnails are on the event’s clock, the newest segment ending now', async () => {
    const event = await eventOf('free-live');
    assert.equal(event.stream_status, 'live');
    const url = Harness.mediaUrl(event, 'thumbnails');
    ok(url);
    const edge = rel - starts['free-live']!;
    assert.deepEqual(cues(String((await h.call(url)).body)), [
      [edge - 14, edge - 4, '0.jpg'],
      [edge - 4, LIVE_THUMBS_LOOP, '5.jpg'],
    ]);
  });

  test('a clip is cut from the segments: start_time on the event’s clock', async () => {
    const edge = rel - starts['free-live']!;
    // Position 6 s in the push is 8 s before the edge.
    const file = await clipFile('free-live', edge - 8, 4);
    assert.equal(Math.round(Number(await probe(file, 'format=duration'))), 4);
    assert.deepEqual([await blue(file, 0.5), await blue(file, 3)], [false, true]);
    // Before the push's first segment there is nothing to cut.
    const early = await h.post(
      '/api/clip',
      { api_key: h.key, event_id: h.id('free-live'), name: 'Early', start_time: edge - 20, duration: 4, tags: ['x'] },
      auth(fan),
    );
    assert.equal(early.status, 422, JSON.stringify(early.body));
  });

  test('it has no download until it is finished', async () => {
    const res = await get(`download-event/${h.id('free-live')}`, await h.token('subscriber'));
    assert.equal(res.status, 422);
  });
});
