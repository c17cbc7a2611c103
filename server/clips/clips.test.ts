/**
 * Tests of clips on the reference server: the thumbnails track of events, making clips (rights, validation,
 * limits), the job queue cutting them for real with ffmpeg (progress, HLS, MP4, poster, failure, resuming after a
 * restart), and what the owner and anyone with the share link may then do (play, download, share, delete).
 * Run: node --import tsx --test server/clips/clips.test.ts
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { endpoints, type Clip } from '../../src/api/contract.js';
import { CLIP_MESSAGES, CLIPS_PER_WINDOW } from './clips.js';
import { FFMPEG, FFPROBE } from '../media/ffmpeg.js';
import { Harness, ok } from '../testing/harness.js';
import { forgetEventJson } from '../catalog/events.js';

const h = new Harness();
const FAN = { email: 'fan@example.com', password: 'fan-pass-1' };
/** The fan's token (clipping, download_clip, a subscription). */
let fan = '';
before(async () => {
  await h.start();
  fan = await h.signIn(FAN.email, FAN.password);
});
after(() => h.stop());

const run = promisify(execFile);
const auth = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
const get = (path: string, token?: string, query = '') =>
  h.call(`/api/${path}?api_key=${h.key}${query ? `&${query}` : ''}`, { headers: auth(token) });
const create = (body: Record<string, unknown>, token = fan) =>
  h.post('/api/clip', { api_key: h.key, ...body }, auth(token));
const remove = (id: number, token = fan) =>
  h.call(`/api/clip/${id}?api_key=${h.key}`, { method: 'DELETE', headers: auth(token) });
const valid = (event: string, more: Record<string, unknown> = {}) => ({
  event_id: h.id(event),
  name: 'Great play',
  start_time: 5,
  duration: 10,
  tags: ['highlight'],
  ...more,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The user's clip `id` as clips/user lists it. */
async function clipOf(id: number, token = fan): Promise<Clip | undefined> {
  const res = await get('clips/user', token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return endpoints.userClips.response.parse(res.body).data.find((c) => c.id === id);
}

/** Polls clips/user until the clip reaches one of `states`; answers it with the progress values seen on the way. */
async function until(id: number, states = ['done', 'failed'], token = fan, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  const progress: number[] = [];
  for (;;) {
    const clip = await clipOf(id, token);
    ok(clip, `clip ${id} is listed`);
    if (states.includes(clip.status)) return { clip, progress };
    if (typeof clip.progress === 'number') progress.push(clip.progress);
    ok(Date.now() < deadline, `clip ${id} still ${clip.status} after ${timeoutMs} ms`);
    await sleep(150);
  }
}

/** A URL's body written to a file in the server's temp folder; answers the path and the response. */
async function download(url: string, name: string): Promise<{ file: string; res: Response }> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  const file = join(h.dataDir, '..', name);
  writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
  return { file, res };
}

/** ffprobe's answer for one entry (`format=duration`, `stream=width,height`) of a file. */
async function probe(file: string, entries: string): Promise<string> {
  const { stdout } = await run(FFPROBE, ['-v', 'error', '-show_entries', entries, '-of', 'csv=p=0', file]);
  return stdout.trim();
}

/** PSNR (dB) of the frame at `aAt` s of video a against the frame at `bAt` s of b. */
async function psnr(a: string, aAt: number, b: string, bAt: number): Promise<number> {
  const { stderr } = await run(FFMPEG, [
    ...['-hide_banner', '-ss', String(aAt), '-i', a, '-ss', String(bAt), '-i', b],
    ...['-lavfi', '[0:v][1:v]psnr', '-frames:v', '1', '-f', 'null', '-'],
  ]);
  const m = /average:([\d.]+|inf)/.exec(stderr);
  ok(m, stderr);
  return m[1] === 'inf' ? 100 : Number(m[1]);
}

/**
 * Whether the frame at `aAt` s of video a is the frame at `bAt` s of b, give or take one frame (seeking rounds): the
 * same frame re-encoded scores 40 dB and more, any other (even the next one) under 30.
 */
async function sameFrame(a: string, aAt: number, b: string, bAt: number): Promise<boolean> {
  const scores = await Promise.all([-0.04, 0, 0.04].map((d) => psnr(a, aAt, b, Math.max(0, bAt + d))));
  return Math.max(...scores) > 35;
}

const mediaOf = (clip: Clip, type: string) => clip.media.find((m) => m.type === type)?.url;
/** The seconds a media playlist lasts. */
const playlistSeconds = (text: string) =>
  [...text.matchAll(/#EXTINF:([\d.]+),/g)].reduce((sum, [, d]) => sum + Number(d), 0);

describe('thumbnails track', () => {
  test('events with a stream list a WebVTT track: one cue per 5 s of the recording, each a 160x90 tile of a sprite', async () => {
    const event = await h.event('free-finished');
    const master = Harness.mediaUrl(event, 'vod');
    const vtt = Harness.mediaUrl(event, 'thumbnails');
    ok(master && vtt, JSON.stringify(event.media));
    assert.equal(vtt, master.replace(/master\.m3u8$/, 'thumbs/thumbnails.vtt'));
    const res = await h.call(vtt);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/vtt; charset=utf-8');
    const text = String(res.body);
    ok(text.startsWith('WEBVTT\n'), text);
    const cues = [...text.matchAll(/^([\d:.]+) --> ([\d:.]+)\n(\S+)#xywh=(\d+),(\d+),(\d+),(\d+)$/gm)];
    const seconds = Math.round(h.server.media.main.duration);
    assert.equal(cues.length, Math.ceil(seconds / 5));
    cues.forEach(([, from, to, file, x, y, w, hgt], i) => {
      assert.equal(
        from,
        `00:${String(Math.floor((i * 5) / 60)).padStart(2, '0')}:${String((i * 5) % 60).padStart(2, '0')}.000`,
      );
      ok(to! > from!, `${from} --> ${to}`);
      assert.deepEqual(
        [file, Number(x), Number(y), Number(w), Number(hgt)],
        ['sprite.jpg', (i % 6) * 160, Math.floor(i / 6) * 90, 160, 90],
      );
    });
    assert.equal(cues.at(-1)![2], `00:01:${String(seconds - 60).padStart(2, '0')}.000`);

    // The sprite resolves against the track's URL and holds every tile.
    const { file, res: sprite } = await download(new URL('sprite.jpg', vtt).href, 'sprite.jpg');
    assert.equal(sprite.headers.get('content-type'), 'image/jpeg');
    assert.equal(await probe(file, 'stream=width,height'), `960,${Math.ceil(cues.length / 6) * 90}`);
    // Signed like the stream: a wrong signature is refused.
    const forged = vtt.replace(/\.([\w-]{43})\//, (_m, signature: string) => `.${signature.slice(1)}A/`);
    assert.equal((await h.call(forged)).status, 403);
  });

  test("live events list the loop's track on the event's clock; callers without access get none", async () => {
    const live = await h.event('free-live');
    const vtt = Harness.mediaUrl(live, 'thumbnails');
    ok(vtt && Harness.mediaUrl(live, 'live'), JSON.stringify(live.media));
    const res = await h.call(vtt);
    assert.equal(res.status, 200);
    // Event second t shows recording offset (t + 12) mod 90 (the live window's lead): at t = 0, offset 12 (tile 2,
    // which runs to t = 3); at t = 78 the loop starts again (offset 0, tile 0); the cues end at 90 s.
    const seconds = (time: string) => {
      const [hh, mm, ss] = time.split(':').map(Number) as [number, number, number];
      return hh * 3600 + mm * 60 + ss;
    };
    const cues = [...String(res.body).matchAll(/^([\d:.]+) --> ([\d:.]+)\n\S+#xywh=(\d+),(\d+),/gm)].map(
      ([, from, to, x, y]) => ({
        from: seconds(from!),
        to: seconds(to!),
        tile: Number(x) / 160 + (Number(y) / 90) * 6,
      }),
    );
    const at = (t: number) => cues.find((c) => c.from <= t && t < c.to)?.tile;
    assert.deepEqual([at(0), at(2.9), at(3), at(77.9), at(78), at(89.9)], [2, 2, 3, 17, 0, 2]);
    assert.equal(Math.max(...cues.map((c) => c.to)), Math.round(h.server.media.main.duration));
    const paid = await h.event('paid-live');
    assert.equal(paid.has_access, false);
    assert.equal(Harness.mediaUrl(paid, 'thumbnails'), undefined);
  });
});

describe('who may make a clip', () => {
  test('guests 401; no clipping 403; unknown event 404; no access 403; upcoming or without recording 422', async () => {
    assert.equal((await create(valid('free-finished'), '')).status, 401);
    const viewer = await h.signIn('viewer@example.com', 'viewer-pass-1');
    const refused = await create(valid('free-finished'), viewer);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, 'Your account cannot make clips.');

    assert.equal((await create({ ...valid('free-finished'), event_id: 999_999 })).status, 404);
    // An account that may clip but has not bought the paid event.
    await h.server.db.run('UPDATE users SET capabilities_json = ? WHERE email = ?', [
      JSON.stringify(['watch', 'clipping']),
      'viewer@demo-sports.example',
    ]);
    const noAccess = await create(valid('paid-finished'), await h.token('viewer'));
    assert.equal(noAccess.status, 403);
    assert.equal(noAccess.body.message, 'You do not have access to this event.');

    for (const key of ['countdown', 'no-recording']) {
      const res = await create(valid(key));
      assert.equal(res.status, 422, key);
      ok(res.body.errors.event_id, JSON.stringify(res.body));
    }
  });

  test("validation: the spec's messages by field, every field at once, and nothing made", async () => {
    const before = (await get('user/access', fan)).body.data.featureCount.clips;
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [
        { name: ' ', tags: [], start_time: 85, duration: 10 },
        { name: CLIP_MESSAGES.name, tags: CLIP_MESSAGES.tags, duration: CLIP_MESSAGES.outside },
      ],
      [{ duration: 1 }, { duration: CLIP_MESSAGES.tooShort }],
      [{ duration: 61 }, { duration: CLIP_MESSAGES.tooLong }],
      [{ start_time: -1 }, { start_time: CLIP_MESSAGES.outside }],
      [
        { start_time: null, duration: 'long' },
        { start_time: CLIP_MESSAGES.required, duration: CLIP_MESSAGES.required },
      ],
      [{ tags: ['a', 'b', 'c', 'd', 'e', 'f'] }, { tags: 'Choose at most 5 tags' }],
      [{ name: 'x'.repeat(81) }, { name: 'The name may be at most 80 characters long' }],
    ];
    for (const [body, errors] of cases) {
      const res = await create(valid('free-finished', body));
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.deepEqual(
        res.body.errors,
        Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, [v]])),
        JSON.stringify(body),
      );
    }
    // Live: from at most 600 s back, ending by now.
    const live = await h.event('free-live');
    const since = Math.floor(h.nowMs / 1000) - live.event_utc_ts;
    const old = await create(valid('free-live', { start_time: since - 700 }));
    assert.deepEqual(old.body.errors, { start_time: [CLIP_MESSAGES.outside] });
    const ahead = await create(valid('free-live', { start_time: since - 5, duration: 10 }));
    assert.deepEqual(ahead.body.errors, { duration: [CLIP_MESSAGES.outside] });
    assert.equal((await get('user/access', fan)).body.data.featureCount.clips, before);
  });
});

describe('a clip from request to deletion', () => {
  test('a 10 s clip of a finished event: queued, processing with progress, done; plays, downloads, shares, deletes', async (t) => {
    const counts = (await get('user/access', fan)).body.data.featureCount;
    const started = performance.now();
    const res = await create(
      valid('free-finished', { name: 'My great play!', start_time: 20, tags: ['goal', 'save'] }),
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const made = endpoints.createClip.response.parse(res.body).data;
    assert.deepEqual(
      [made.status, made.progress, made.source, made.start_time, made.duration, made.tags, made.media],
      ['queued', 0, 'vod', 20, 10, ['goal', 'save'], []],
    );
    assert.equal(made.event?.id, h.id('free-finished'));
    ok(made.event?.event_utc_ts && made.event.image, JSON.stringify(made.event));
    // Not downloadable yet.
    const early = await get(`clip/download/${made.id}`, fan);
    assert.deepEqual([early.status, early.body.message], [422, 'The clip is not ready yet.']);

    const { clip, progress } = await until(made.id);
    const seconds = (performance.now() - started) / 1000;
    t.diagnostic(`10 s clip: request to done in ${seconds.toFixed(1)} s`);
    assert.equal(clip.status, 'done');
    assert.equal(clip.progress, 100);
    ok(
      progress.every((p, i) => p >= 0 && p < 100 && (i === 0 || p >= progress[i - 1]!)),
      String(progress),
    );
    assert.equal((await get('user/access', fan)).body.data.featureCount.clips, counts.clips + 1);

    // Plays: one 360p rendition lasting the clip, and a poster.
    const master = mediaOf(clip, 'vod');
    const poster = mediaOf(clip, 'image');
    ok(master && poster, JSON.stringify(clip.media));
    // The grant names the clip by its id and its uuid: it opens this clip and no other.
    assert.match(master, new RegExp(`/media/s/[^/]+/clip-${clip.id}-${clip.uuid}/master\\.m3u8$`));
    const variants = String((await h.call(master)).body);
    ok(variants.includes('RESOLUTION=640x360') && variants.includes('360p/index.m3u8'), variants);
    const playlist = String((await h.call(master.replace('master.m3u8', '360p/index.m3u8'))).body);
    ok(playlist.includes('#EXT-X-ENDLIST'), playlist);
    assert.equal(Math.round(playlistSeconds(playlist)), 10);
    const segment = await fetch(master.replace('master.m3u8', '360p/0.ts'));
    assert.equal(segment.headers.get('content-type'), 'video/mp2t');
    const { file: posterFile, res: posterRes } = await download(poster, 'poster.jpg');
    assert.equal(posterRes.headers.get('content-type'), 'image/jpeg');
    assert.equal(await probe(posterFile, 'stream=width,height'), '640,360');

    // Listed by event, and its event among the events with clips.
    const byEvent = endpoints.eventClips.response.parse((await get(`clips/event/${h.id('free-finished')}`, fan)).body);
    assert.equal(byEvent.data[0]?.id, clip.id);
    const events = endpoints.eventsWithClip.response.parse((await get('events/with_clip', fan)).body);
    assert.equal(events.data[0]?.id, h.id('free-finished'));
    assert.deepEqual(events.data.map((e) => e.id).sort(), [h.id('free-finished'), h.id('paid-finished')].sort());
    assert.equal(events.meta.total, 2);
    // Paginated like the events list: one a page, or all with no_limit.
    const first = endpoints.eventsWithClip.response.parse((await get('events/with_clip', fan, 'limit=1')).body);
    assert.deepEqual([first.data.length, first.meta.limit, first.meta.total], [1, 1, 2]);
    const all = endpoints.eventsWithClip.response.parse(
      (await get('events/with_clip', fan, 'no_limit=1&limit=1')).body,
    );
    assert.deepEqual([all.data.length, all.meta.total], [2, 2]);
    assert.equal((await get('events/with_clip')).status, 401);
    // A cancelled event leaves the list, and its count with it.
    const cancel = async (at: number | null) => {
      await h.server.db.run('UPDATE events SET cancelled_at = ? WHERE id = ?', [at, h.id('paid-finished')]);
      forgetEventJson(h.server.db);
    };
    await cancel(Math.floor(h.nowMs / 1000));
    try {
      const left = endpoints.eventsWithClip.response.parse((await get('events/with_clip', fan)).body);
      assert.deepEqual([left.data.map((e) => e.id), left.meta.total], [[h.id('free-finished')], 1]);
    } finally {
      await cancel(null);
    }

    // Downloads: a real MP4 of the clip's length, counted.
    const link = endpoints.clipDownload.response.parse((await get(`clip/download/${clip.id}`, fan)).body).data;
    assert.equal(link.filename, 'my-great-play.mp4');
    const { file, res: mp4 } = await download(link.url, 'clip.mp4');
    assert.equal(mp4.headers.get('content-type'), 'video/mp4');
    assert.equal(mp4.headers.get('content-disposition'), 'attachment; filename="my-great-play.mp4"');
    assert.equal(Math.round(Number(await probe(file, 'format=duration'))), 10);
    // It is the recording from 20 s on.
    const source = join(h.server.media.dir, h.server.media.download.file);
    ok(await sameFrame(file, 3, source, 23), 'the clip shows the recording at its start time + 3 s');
    ok(!(await sameFrame(file, 3, source, 25)), 'and not another moment');
    assert.equal((await get('user/access', fan)).body.data.featureCount.downloads, counts.downloads + 1);

    // Shares: anyone with the uuid, signed in or not, plays it; a wrong uuid finds nothing.
    const shared = await get(`shared-clip/${clip.id}`, undefined, `uuid=${clip.uuid}`);
    assert.equal(shared.status, 200, JSON.stringify(shared.body));
    const guestMaster = mediaOf(endpoints.sharedClip.response.parse(shared.body).data, 'vod');
    ok(guestMaster && guestMaster !== master, 'a URL signed for the guest');
    assert.equal((await h.call(guestMaster)).status, 200);
    // The share link plays; it does not download: the guest's grant opens no MP4 (only the owner's download does).
    for (const file of ['download/clip.mp4', `download/${link.filename}`]) {
      assert.equal((await h.call(guestMaster.replace('master.m3u8', file))).status, 404, file);
    }
    assert.equal((await h.call(master.replace('master.m3u8', `download/${link.filename}`))).status, 404);
    for (const query of ['uuid=nope', '']) {
      const wrong = await get(`shared-clip/${clip.id}`, undefined, query);
      assert.deepEqual([wrong.status, wrong.body.message], [404, 'Clip not found.']);
    }

    // Deletes: only the owner; then it is gone everywhere, files and all.
    const other = await remove(clip.id, await h.token('subscriber'));
    assert.deepEqual([other.status, other.body.message], [404, 'Clip not found.']);
    assert.equal((await remove(clip.id)).status, 200);
    assert.equal(await clipOf(clip.id), undefined);
    assert.equal((await get(`shared-clip/${clip.id}`, undefined, `uuid=${clip.uuid}`)).status, 404);
    assert.equal((await h.call(master)).status, 404);
    assert.equal(existsSync(join(h.dataDir, 'clips', String(clip.id))), false);
    assert.equal((await remove(clip.id)).status, 404);
  });

  test('a clip of the live event is cut from the live window, wrapping around the loop of the recording', async () => {
    const live = await h.event('free-live');
    const since = Math.floor(h.nowMs / 1000) - live.event_utc_ts;
    // At t seconds after the start the live stream plays recording offset (t + 12) mod 90 (hls.ts): pick the t
    // that lands 5 s before the recording's end, so the clip's last 5 s come from its start.
    const length = Math.round(h.server.media.main.duration);
    const start = since - 300 - ((((since - 300 + 12) % length) - (length - 5) + length) % length);
    assert.equal((start + 12) % length, length - 5);
    const res = await create(valid('free-live', { start_time: start, duration: 10 }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { clip } = await until(res.body.data.id);
    assert.deepEqual([clip.status, clip.source, clip.start_time], ['done', 'live', start]);
    const link = endpoints.clipDownload.response.parse((await get(`clip/download/${clip.id}`, fan)).body).data;
    const { file } = await download(link.url, 'live.mp4');
    assert.equal(Math.round(Number(await probe(file, 'format=duration'))), 10);
    const source = join(h.server.media.dir, h.server.media.download.file);
    ok(await sameFrame(file, 2, source, length - 3), 'before the wrap: the end of the recording');
    ok(await sameFrame(file, 7, source, 2), 'after the wrap: the start of the recording');
  });

  test('a job that fails marks its clip failed, with no media and nothing to download', async () => {
    const user = (await h.server.db.get('SELECT id FROM users WHERE email = ?', [FAN.email]))!;
    // A length ffmpeg refuses: no request can make one, so the row is written directly and queued.
    const id = await h.server.db.insert(
      `INSERT INTO clips (user_id, event_id, uuid, name, start_time, duration, tags_json, status, source, asset_offset,
         created_at, updated_at) VALUES (?, ?, 'u-broken', 'Broken', 0, -1, '["x"]', 'queued', 'vod', 0, ?, ?)`,
      // Asked for now: a clip older than the time limit would fail as late before any cut.
      [Number(user.id), h.id('free-finished'), Math.floor(h.nowMs / 1000), Math.floor(h.nowMs / 1000)],
    );
    h.server.clips.wake();
    const { clip } = await until(id);
    assert.deepEqual([clip.status, clip.progress, clip.media], ['failed', null, []]);
    ok(String((await h.server.db.get('SELECT error FROM clips WHERE id = ?', [id]))?.error).includes('ffmpeg'));
    assert.equal((await get(`clip/download/${id}`, fan)).status, 422);
    assert.equal((await remove(id)).status, 200);
  });
});

describe('seeded clips and restarts', () => {
  test('the seeded done clip has its files; the seeded processing one is cut as the server starts', async () => {
    const clips = endpoints.userClips.response.parse((await get('clips/user', fan)).body).data;
    const done = clips.find((c) => c.name === 'Overtime winner');
    ok(done?.status === 'done', JSON.stringify(done));
    const master = mediaOf(done, 'vod')!;
    const playlist = String((await h.call(master.replace('master.m3u8', '360p/index.m3u8'))).body);
    assert.equal(Math.round(playlistSeconds(playlist)), done.duration);
    assert.equal((await h.call(mediaOf(done, 'image')!)).status, 200);
    const seeded = clips.find((c) => c.name === 'Opening drive');
    ok(seeded, 'the seeded processing clip');
    assert.equal((await until(seeded.id)).clip.status, 'done');
  });

  test('a restart resumes the queue: a clip stopped mid-cut finishes after the server starts again', async (t) => {
    const res = await create(valid('free-finished', { name: 'Full minute', start_time: 0, duration: 60 }));
    const id = Number(res.body.data.id);
    const { clip } = await until(id, ['processing']);
    ok(clip.progress !== undefined, 'processing');
    const stopping = performance.now();
    await h.server.stop();
    // The stop ended the cut rather than waiting for it: the clip's finished folder is not there (a folder exists
    // only once complete), so what follows is the next start resuming it.
    assert.equal(existsSync(join(h.dataDir, 'clips', String(id))), false, 'the stop waited for the cut');
    await h.start();
    t.diagnostic(`stopped mid-cut and started again in ${((performance.now() - stopping) / 1000).toFixed(1)} s`);
    const started = performance.now();
    const resumed = await until(id);
    t.diagnostic(`60 s clip: resumed to done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    assert.equal(resumed.clip.status, 'done');
    const master = mediaOf(resumed.clip, 'vod')!;
    const playlist = String((await h.call(master.replace('master.m3u8', '360p/index.m3u8'))).body);
    assert.equal(Math.round(playlistSeconds(playlist)), 60);
    assert.deepEqual(
      readdirSync(join(h.dataDir, 'clips')).filter((name) => name.endsWith('.tmp')),
      [],
    );
  });
});

describe('limits', () => {
  test(`${CLIPS_PER_WINDOW} clips per user per 10 minutes, then 422 with a message (not 429); download needs download_clip`, async () => {
    const viewer = await h.token('viewer'); // given `clipping` above, not `download_clip`
    const ids: number[] = [];
    for (let i = 0; i < CLIPS_PER_WINDOW; i++) {
      const res = await create(valid('free-finished', { duration: 2 }), viewer);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids.push(Number(res.body.data.id));
    }
    const refused = await create(valid('free-finished'), viewer);
    assert.equal(refused.status, 422);
    assert.match(refused.body.message, /^You have made too many clips\. Please try again in 10 minutes\.$/);
    const last = ids.pop()!;
    for (const id of ids) assert.equal((await remove(id, viewer)).status, 200);
    await until(last, ['done'], viewer);
    const download = await get(`clip/download/${last}`, viewer);
    assert.deepEqual([download.status, download.body.message], [403, 'Your account cannot download clips.']);
    const saved = h.nowMs;
    try {
      h.nowMs += 10 * 60_000;
      assert.equal((await create(valid('free-finished', { duration: 2 }), viewer)).status, 201);
    } finally {
      h.nowMs = saved;
    }
  });
});

describe('a deleted clip leaves nothing behind that opens another', () => {
  test("the next clip anyone makes gets a new id, and the deleted clip's grants open nothing", async () => {
    // The fan's clip, cut, with its playback and download grants in hand.
    const made = await create(valid('free-finished', { name: 'Gone soon', duration: 4 }));
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { clip } = await until(Number(made.body.data.id));
    assert.equal(clip.status, 'done');
    const master = mediaOf(clip, 'vod')!;
    const link = endpoints.clipDownload.response.parse((await get(`clip/download/${clip.id}`, fan)).body).data;
    assert.equal((await h.call(master)).status, 200);
    assert.equal((await remove(clip.id)).status, 200);

    // Another account (given the clipping right) clips another event right after: the newest clip was deleted,
    // which is when SQLite's rowid handed its id out again.
    await h.server.db.run('UPDATE users SET capabilities_json = ? WHERE email = ?', [
      JSON.stringify(['watch', 'clipping', 'download_clip']),
      'viewer@demo-sports.example',
    ]);
    const viewer = await h.signIn('viewer@demo-sports.example', 'demo-password');
    const other = await create(valid('free-finished', { name: 'Someone else', start_time: 20, duration: 4 }), viewer);
    assert.equal(other.status, 201, JSON.stringify(other.body));
    ok(Number(other.body.data.id) > clip.id, `a new id (${other.body.data.id}), never ${clip.id} again`);
    const cut = await until(Number(other.body.data.id), ['done', 'failed'], viewer);
    assert.equal(cut.clip.status, 'done');

    // The old grants open neither the deleted clip nor the new one.
    for (const url of [master, master.replace('master.m3u8', '360p/index.m3u8'), link.url]) {
      const res = await h.call(url);
      assert.equal(res.status, 404, url);
    }
  });
});

describe('account deletion', () => {
  test("deleting an account removes its clips' files, and stops a cut still running before it writes any", async () => {
    const email = `clipper-${Date.now()}@example.com`;
    const registered = await h.post('/api/v2/auth/register', {
      api_key: h.key,
      first_name: 'Cleo',
      last_name: 'Clipper',
      email,
      password: 'clip-pass-1',
      password_confirmation: 'clip-pass-1',
      terms: true,
    });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    const token = endpoints.register.response.parse(registered.body).data.token;
    await h.server.db.run('UPDATE users SET capabilities_json = ? WHERE email = ?', ['["clipping"]', email]);
    const clipsDir = join(h.dataDir, 'clips');
    const folders = (id: number) =>
      readdirSync(clipsDir).filter((name) => name === String(id) || name.startsWith(`${id}.`));

    // One clip done (its files on disk), one as long as a clip may be, caught while it is being cut.
    const done = endpoints.createClip.response.parse((await create(valid('free-finished'), token)).body).data;
    await until(done.id, ['done'], token);
    ok(existsSync(join(clipsDir, String(done.id), 'clip.mp4')), 'the done clip has its files');
    const long = endpoints.createClip.response.parse(
      (await create(valid('free-finished', { start_time: 0, duration: 60 }), token)).body,
    ).data;
    await until(long.id, ['processing'], token);

    assert.equal((await h.post('/api/auth/delete-account', { api_key: h.key }, auth(token))).status, 200);
    const mail = await h.call(`/__dev/outbox?to=${encodeURIComponent(email)}`);
    const link = new URL((mail.body.data as Array<{ links: string[] }>)[0]!.links[0]!);
    const confirmed = await h.post('/api/delete-account-confirm', {
      channel_key: 'demo',
      email,
      token: link.searchParams.get('token'),
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));

    // Answered once the files are gone; the stopped cut writes nothing afterwards either.
    assert.deepEqual([...folders(done.id), ...folders(long.id)], []);
    await sleep(3000);
    assert.deepEqual([...folders(done.id), ...folders(long.id)], [], 'nothing written after the answer');
    const rows = await h.server.db.get('SELECT count(*) AS n FROM clips WHERE id IN (?, ?)', [done.id, long.id]);
    assert.equal(Number(rows!.n), 0);
  });
});

describe('the time limit', () => {
  const slow = new Harness({ clipTimeLimitMs: 1000 });
  before(() => slow.start());
  after(() => slow.stop());

  test('a clip not made within its time limit fails, its cut stopped, and nothing of it is left', async () => {
    const token = await slow.signIn(FAN.email, FAN.password);
    const made = await slow.post(
      '/api/clip',
      {
        api_key: slow.key,
        ...valid('free-finished', { start_time: 0, duration: 60 }),
        event_id: slow.id('free-finished'),
      },
      auth(token),
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = endpoints.createClip.response.parse(made.body).data.id;
    const listed = async () =>
      endpoints.userClips.response
        .parse((await slow.call(`/api/clips/user?api_key=${slow.key}`, { headers: auth(token) })).body)
        .data.find((c) => c.id === id);
    const deadline = Date.now() + 30_000;
    let clip = await listed();
    while (clip && clip.status !== 'failed' && Date.now() < deadline) {
      assert.notEqual(clip.status, 'done', 'a 60 s cut within 1 s');
      await sleep(200);
      clip = await listed();
    }
    assert.equal(clip?.status, 'failed');
    assert.deepEqual(clip.media, []);
    const row = await slow.server.db.get('SELECT error FROM clips WHERE id = ?', [id]);
    assert.equal(row?.error, 'the clip was not made within its time limit');
    await sleep(1000);
    const clipsDir = join(slow.dataDir, 'clips');
    assert.deepEqual(
      readdirSync(clipsDir).filter((name) => name === String(id) || name.startsWith(`${id}.`)),
      [],
      'no files, and no scratch folder',
    );
  });
});
