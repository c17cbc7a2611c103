/**
 * Tests of the video-on-demand library on the reference server: the seed (both demo channels), the item list,
 * one item, categories, search, rails, who gets a stream, and the generated pictures (their files, how they are
 * served and cached). Run: node --import tsx --test server/catalog/library.test.ts
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { endpoints, VOD_SEARCH_LIMIT, type VodItem } from '../../src/api/contract.js';
import { loadFixtures } from '../fixtures/fixtures.js';
import { ensureLibraryMedia, LIBRARY_MEDIA_VERSION } from '../media/library-media.js';
import { FFPROBE, run } from '../media/ffmpeg.js';
import { Harness, ok, request, type Account } from '../testing/harness.js';

const h = new Harness();
let frKey = '';
before(async () => {
  await h.start();
  frKey = await h.apiKey('demo-fr');
});
after(() => h.stop());

const fixtures = loadFixtures(resolve(import.meta.dirname, '..', 'fixtures'));
const fixture = (channel: string) => fixtures.find((f) => f.channel_key === channel)!.library!;

/** GET /api/{path} on `demo` (or on `demo-fr` with `fr`), parsed with the endpoint's contract shape. */
async function get<N extends 'vodItems' | 'vodItem' | 'vodCategories' | 'vodSearch' | 'vodRails'>(
  name: N,
  path: string,
  options: { account?: Account; query?: string; fr?: boolean } = {},
) {
  const res = options.fr
    ? await h.call(`/api/${path}?api_key=${frKey}${options.query ? `&${options.query}` : ''}`)
    : await h.api(path, options.account, options.query);
  assert.equal(res.status, 200, `${path}?${options.query ?? ''}: ${JSON.stringify(res.body)}`);
  return endpoints[name].response.parse(res.body) as ReturnType<(typeof endpoints)[N]['response']['parse']>;
}

/** Every item of a channel's library, newest first. */
const allItems = async (fr = false) => (await get('vodItems', 'vod-media-items', { fr, query: 'no_limit=1' })).data;

/** The item's asset URL of one type. */
const asset = (item: VodItem, type: string) => item.assets.find((a) => a.type === type)?.path;

describe('seed', () => {
  test('both demo channels: 30+ items in 4+ categories, 3+ rails, free, register and paid, over the last two years', async () => {
    for (const fr of [false, true]) {
      const items = await allItems(fr);
      const categories = (await get('vodCategories', 'vod-media-categories', { fr })).data;
      const rails = (await get('vodRails', 'vod-media-rails', { fr })).data;
      ok(items.length >= 30, `${items.length} items`);
      ok(categories.length >= 4 && categories.every((c) => c.items_count! > 0), 'four categories in use');
      ok(rails.length >= 3 && rails.every((r) => r.vod_media_items.length >= 4), 'three rails');
      assert.deepEqual(new Set(items.map((i) => i.type)), new Set(['free', 'register', 'paid']));
      const now = h.nowMs;
      for (const item of items) {
        const age = (now - Date.parse(`${item.date}T00:00:00Z`)) / 86400_000;
        ok(age >= 0 && age <= 731, `${item.title} is ${age} days old`);
      }
      const ages = items.map((i) => Date.parse(`${i.date}T00:00:00Z`));
      ok(Math.max(...ages) - Math.min(...ages) > 600 * 86400_000, 'spread over most of two years');
    }
  });

  test('demo keeps its first two items; demo-fr speaks French', async () => {
    const first = (await get('vodItem', 'vod-media-items/1')).data;
    const second = (await get('vodItem', 'vod-media-items/2')).data;
    assert.deepEqual([first.title, first.type], ['Season Highlights Reel', 'free']);
    assert.deepEqual([second.title, second.type], ['Classic Finals: Full Replay', 'paid']);

    const categories = (await get('vodCategories', 'vod-media-categories', { fr: true })).data;
    assert.deepEqual(
      categories.map((c) => c.name),
      fixture('demo-fr').categories.map(([, name]) => name),
    );
    ok(
      categories.some((c) => c.name === 'Techniques et entraînement'),
      'French category names',
    );
    const items = await allItems(true);
    ok(
      items.some((i) => i.title === 'Faits saillants de la saison'),
      'the kept item in French',
    );
    ok(
      items.every((i) => !fixture('demo').items.some(([, , , , , title]) => title === i.title)),
      'no English title on demo-fr',
    );
    const rails = (await get('vodRails', 'vod-media-rails', { fr: true })).data;
    assert.equal(rails[0]!.title, 'À la une');
  });
});

describe('items', () => {
  test('vod-media-items: pages newest first with PageMeta; a category narrows it; bad values answer 422', async () => {
    const all = await allItems();
    const dates = all.map((i) => i.date!);
    assert.deepEqual(dates, [...dates].sort().reverse());
    const page = await get('vodItems', 'vod-media-items', { query: 'limit=5&offset=5' });
    assert.deepEqual(page.meta, { total: all.length, limit: 5, offset: 5 });
    assert.deepEqual(
      page.data.map((i) => i.id),
      all.slice(5, 10).map((i) => i.id),
    );
    const byDefault = await get('vodItems', 'vod-media-items');
    assert.deepEqual(byDefault.meta, { total: all.length, limit: 20, offset: 0 });

    const categories = (await get('vodCategories', 'vod-media-categories')).data;
    for (const category of categories) {
      const some = await get('vodItems', 'vod-media-items', { query: `vod_media_category_id=${category.id}&limit=50` });
      assert.equal(some.meta.total, category.items_count);
      ok(
        some.data.every((i) => i.vod_media_category_id === category.id && i.category?.name === category.name),
        `only ${category.name}`,
      );
    }
    assert.equal(
      categories.reduce((sum, c) => sum + c.items_count!, 0),
      all.length,
    );
    const none = await get('vodItems', 'vod-media-items', { query: 'vod_media_category_id=99999' });
    assert.deepEqual([none.data, none.meta.total], [[], 0]);

    const bad = await h.api('vod-media-items', undefined, 'vod_media_category_id=abc&limit=0');
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors, {
      vod_media_category_id: ['The vod media category id must be a positive integer.'],
    });
    assert.equal((await h.api('vod-media-items', undefined, 'limit=0')).status, 422);
  });

  test("vod-media-items/{id}: its category and assets; another channel's item or an unknown id is a 404", async () => {
    const item = (await get('vodItem', 'vod-media-items/3')).data;
    assert.equal(item.title, 'Top 10 Buzzer Beaters');
    assert.deepEqual(item.category?.name, 'Highlights');
    assert.equal(item.duration, h.server.media.main.duration);
    assert.equal(item.description, 'Ten shots that beat the clock, from last-second threes to tip-ins.');
    assert.equal(asset(item, 'image'), `${h.base}/media/library/buzzer-beaters.jpg`);
    assert.equal(asset(item, 'preview'), `${h.base}/media/library/buzzer-beaters.mp4`);
    assert.equal(Harness.mediaUrl(item, 'image'), asset(item, 'image'));
    const frId = (await allItems(true))[0]!.id;
    for (const id of [frId, 99999, 'abc']) {
      const res = await h.api(`vod-media-items/${id}`);
      assert.deepEqual([res.status, res.body.message], [404, 'Video not found.']);
    }
  });
});

describe('access', () => {
  /** What each caller gets for each type: has_access, and a stream exactly then. */
  const cases: Array<[Account | undefined, Record<string, boolean>]> = [
    [undefined, { free: true, register: false, paid: false }],
    ['viewer', { free: true, register: true, paid: false }],
    ['subscriber', { free: true, register: true, paid: true }],
  ];

  test('free for everyone, register when signed in, paid with vod_media_access or a subscription', async () => {
    for (const [account, expected] of cases) {
      const { data } = await get('vodItems', 'vod-media-items', { account, query: 'no_limit=1' });
      const rails = (await get('vodRails', 'vod-media-rails', { account })).data.flatMap((r) => r.vod_media_items);
      const found = (await get('vodSearch', 'vod-media/search', { account, query: 'limit=50' })).data;
      for (const item of [...data, ...rails, ...found]) {
        const vod = Harness.mediaUrl(item, 'vod');
        assert.equal(item.has_access, expected[item.type], `${account ?? 'guest'}: ${item.type} ${item.title}`);
        assert.equal(Boolean(vod), item.has_access);
        if (vod) assert.match(vod, new RegExp(`/vod-${item.id}/master\\.m3u8$`));
        // The thumbnails track comes with the stream, under its grant.
        assert.equal(Harness.mediaUrl(item, 'thumbnails'), vod?.replace(/master\.m3u8$/, 'thumbs/thumbnails.vtt'));
      }
    }
  });

  test('a stream plays the main asset; a geo-blocked viewer sees has_access but gets no stream', async () => {
    const item = (await get('vodItem', 'vod-media-items/2', { account: 'subscriber' })).data;
    const vod = Harness.mediaUrl(item, 'vod');
    ok(vod, 'the subscriber gets the paid stream');
    const playlist = await h.call(vod.replace('master.m3u8', '360p/index.m3u8'));
    assert.equal(playlist.status, 200);
    assert.match(playlist.body, /#EXT-X-ENDLIST/);
    assert.equal((await h.call(Harness.mediaUrl(item, 'thumbnails')!)).status, 200);

    await h.server.db.run('UPDATE users SET is_geo_blocked = 1 WHERE email = ?', ['subscriber@demo-sports.example']);
    try {
      const blocked = (await get('vodItem', 'vod-media-items/2', { account: 'subscriber' })).data;
      assert.equal(blocked.has_access, true);
      assert.equal(Harness.mediaUrl(blocked, 'vod'), undefined);
      ok(asset(blocked, 'image') && asset(blocked, 'preview'), 'pictures stay public');
    } finally {
      await h.server.db.run('UPDATE users SET is_geo_blocked = 0 WHERE email = ?', ['subscriber@demo-sports.example']);
    }
  });
});

describe('search', () => {
  const search = (query: string, fr = false) => get('vodSearch', 'vod-media/search', { query, fr });

  test('defaults: every title, 10 a page from 0, newest first', async () => {
    const all = await allItems();
    const found = await search('');
    assert.deepEqual(found.meta, { total: all.length, limit: VOD_SEARCH_LIMIT, offset: 0 });
    assert.deepEqual(
      found.data.map((i) => i.id),
      all.slice(0, 10).map((i) => i.id),
    );
    const next = await search('offset=10&limit=5');
    assert.deepEqual(
      next.data.map((i) => i.id),
      all.slice(10, 15).map((i) => i.id),
    );
  });

  test('a title substring, whatever its case and accents; sorted by date or title; a category narrows it', async () => {
    assert.deepEqual(
      (await search('title=GAME')).data.map((i) => i.title),
      ['Rivalry Night: Full Game', 'Homecoming Game: Full Replay', 'Championship Weekend: Game 3'],
    );
    assert.deepEqual(
      (await search('title=game&sort_field=title')).data.map((i) => i.title),
      ['Championship Weekend: Game 3', 'Homecoming Game: Full Replay', 'Rivalry Night: Full Game'],
    );
    // French: accents and case do not count, either way round.
    const titles = async (query: string) => (await search(query, true)).data.map((i) => i.title);
    assert.deepEqual(await titles('title=entraineur'), ["Le coin de l'entraîneur : avant-saison"]);
    assert.deepEqual(await titles(`title=${encodeURIComponent('ÉTÉ')}`), ['Été sur le sable']);
    assert.deepEqual(await titles(`title=${encodeURIComponent('l’arbitre')}`), ["Le regard de l'arbitre"]);
    const sorted = await titles('title=match&sort_field=title');
    assert.deepEqual(
      sorted,
      [...sorted].sort((a, b) => a.localeCompare(b, 'fr')),
    );
    ok(sorted.length >= 4, sorted.join());

    const replays = (await get('vodCategories', 'vod-media-categories')).data.find((c) => c.alias === 'replays')!;
    const narrowed = await search(`title=e&limit=50&vod_media_category_id=${replays.id}`);
    ok(narrowed.data.length > 0 && narrowed.data.every((i) => i.vod_media_category_id === replays.id), 'only replays');
    const everywhere = (await search('title=e')).meta.total;
    ok(everywhere > narrowed.meta.total, `${everywhere} > ${narrowed.meta.total}`);
  });

  test('no match is an empty page', async () => {
    const found = await search('title=zzz-nothing');
    assert.deepEqual([found.data, found.meta.total], [[], 0]);
  });

  test('bad values answer 422 with every problem by field', async () => {
    const res = await h.api(
      'vod-media/search',
      undefined,
      `limit=51&offset=-1&sort_field=views&vod_media_category_id=x&title=${'a'.repeat(101)}`,
    );
    assert.equal(res.status, 422);
    assert.deepEqual(res.body.errors, {
      title: ['The title may not be greater than 100 characters.'],
      limit: ['The limit must be an integer between 1 and 50.'],
      offset: ['The offset must be an integer of at least 0.'],
      sort_field: ['The sort field must be one of: date, title.'],
      vod_media_category_id: ['The vod media category id must be a positive integer.'],
    });
    for (const query of ['limit=0', 'limit=1.5', 'offset=a', 'sort_field=DATE'])
      assert.equal((await h.api('vod-media/search', undefined, query)).status, 422, query);
    assert.equal((await search('limit=50')).meta.limit, 50);
  });
});

describe('rails', () => {
  test('in fixture order, each with its items in order', async () => {
    for (const [channel, fr] of [
      ['demo', false],
      ['demo-fr', true],
    ] as const) {
      const rails = (await get('vodRails', 'vod-media-rails', { fr })).data;
      const expected = fixture(channel).rails;
      assert.deepEqual(
        rails.map((r) => r.title),
        expected.map(([title]) => title),
      );
      rails.forEach((rail, i) => {
        const keys = rail.vod_media_items.map((item) => /\/([\w-]+)\.jpg$/.exec(asset(item, 'image')!)![1]);
        assert.deepEqual(keys, expected[i]![1], rail.title);
      });
    }
  });
});

describe('pictures', () => {
  const probe = async (url: string, dir: string, name: string) => {
    const file = join(dir, name);
    writeFileSync(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
    const out = await run(
      FFPROBE,
      [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_type,codec_name,width,height:format=duration',
        '-of',
        'json',
        file,
      ],
      dir,
    );
    return JSON.parse(out) as {
      streams: Array<{ codec_type: string; codec_name: string; width: number; height: number }>;
      format: { duration: string };
    };
  };

  test('every item has its own JPG thumbnail (480x270) and silent H.264 preview (320x180, 2-3 s, index first)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'library-test-'));
    try {
      const items = [...(await allItems()), ...(await allItems(true))];
      const digests = new Map<string, string>();
      for (const item of items) {
        const image = asset(item, 'image');
        const preview = asset(item, 'preview');
        ok(image && preview, `${item.title} has pictures`);
        for (const url of [image, preview]) {
          if (digests.has(url)) continue;
          const res = await fetch(url);
          assert.equal(res.status, 200, url);
          assert.equal(res.headers.get('content-type'), url.endsWith('.jpg') ? 'image/jpeg' : 'video/mp4');
          digests.set(
            url,
            createHash('sha256')
              .update(Buffer.from(await res.arrayBuffer()))
              .digest('hex'),
          );
        }
      }
      // demo-fr translates demo: the same keys, so the same pictures; but no two keys share a picture.
      assert.equal(new Set(digests.values()).size, digests.size);
      assert.equal(digests.size, 2 * fixture('demo').items.length);

      const thumb = await probe(`${h.base}/media/library/season-highlights.jpg`, tmp, 'a.jpg');
      assert.deepEqual([thumb.streams[0]!.width, thumb.streams[0]!.height], [480, 270]);
      const clip = await probe(`${h.base}/media/library/season-highlights.mp4`, tmp, 'a.mp4');
      assert.deepEqual(
        clip.streams.map((s) => [s.codec_type, s.codec_name, s.width, s.height]),
        [['video', 'h264', 320, 180]],
      );
      const seconds = Number(clip.format.duration);
      ok(seconds >= 2 && seconds <= 3.1, `${seconds} s`);
      const bytes = readFileSync(join(tmp, 'a.mp4'));
      ok(bytes.indexOf('moov') < bytes.indexOf('mdat'), 'faststart: the index comes first');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('served publicly: CORS, cacheable with an ETag, byte ranges, HEAD; nothing but the made files', async () => {
    const url = `${h.base}/media/library/buzzer-beaters.mp4`;
    const whole = await fetch(url, { headers: { Origin: 'https://cms.example' } });
    const body = Buffer.from(await whole.arrayBuffer());
    assert.equal(whole.headers.get('access-control-allow-origin'), '*');
    assert.equal(whole.headers.get('cache-control'), 'public, max-age=3600');
    assert.equal(whole.headers.get('accept-ranges'), 'bytes');
    assert.equal(Number(whole.headers.get('content-length')), body.length);
    const etag = whole.headers.get('etag');
    ok(etag, 'an ETag');
    const again = await fetch(url, { headers: { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' } });
    assert.equal(again.status, 304);

    const part = await fetch(url, { headers: { Range: 'bytes=100-199' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 100-199/${body.length}`);
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), body.subarray(100, 200));
    const tail = await fetch(url, { headers: { Range: 'bytes=-10' } });
    assert.deepEqual(Buffer.from(await tail.arrayBuffer()), body.subarray(body.length - 10));
    const open = await fetch(url, { headers: { Range: `bytes=${body.length - 5}-` } });
    assert.equal(open.headers.get('content-range'), `bytes ${body.length - 5}-${body.length - 1}/${body.length}`);
    const beyond = await fetch(url, { headers: { Range: `bytes=${body.length}-` } });
    assert.deepEqual([beyond.status, beyond.headers.get('content-range')], [416, `bytes */${body.length}`]);

    const head = await fetch(url, { method: 'HEAD' });
    assert.deepEqual([head.status, head.headers.get('content-length')], [200, String(body.length)]);
    assert.equal((await request(url, { method: 'POST' })).status, 405);

    for (const path of [
      '/media/library/nothing.jpg',
      '/media/library/buzzer-beaters.png',
      '/media/library/manifest.json',
      '/media/library/%2e%2e%2fv1%2fmain.mp4',
      '/media/library/..%2F..%2Fpackage.json',
      '/media/library/',
    ]) {
      const res = await h.call(path);
      assert.deepEqual([res.status, res.body.message], [404, 'Not found.'], path);
    }
  });
});

describe('the pictures cache', () => {
  test('made once, reused, remade for other items; leaves media.ts folders alone', async () => {
    const root = mkdtempSync(join(tmpdir(), 'library-cache-'));
    try {
      mkdirSync(join(root, 'v1'));
      mkdirSync(join(root, `library-v${LIBRARY_MEDIA_VERSION}.tmp-1`)); // a killed run's scratch folder
      const specs = [
        { key: 'one', tint: 0 },
        { key: 'two', tint: 1 },
      ];
      const quiet = () => {};
      const first = await ensureLibraryMedia(root, specs, quiet);
      ok(first.generatedSeconds > 0, `${first.generatedSeconds} s`);
      const second = await ensureLibraryMedia(root, specs, quiet);
      assert.equal(second.generatedSeconds, 0);
      assert.deepEqual(second.files, first.files);

      const third = await ensureLibraryMedia(root, [...specs, { key: 'three', tint: 2 }], quiet);
      ok(third.generatedSeconds > 0, 'remade for another item');
      assert.deepEqual(Object.keys(third.files), ['one', 'two', 'three']);
      assert.deepEqual(readdirSync(root).sort(), ['library-v1', 'v1']);
      rmSync(join(root, 'library-v1', 'three.mp4'));
      const redone = await ensureLibraryMedia(root, third.specs, quiet);
      ok(redone.generatedSeconds > 0 && existsSync(join(root, 'library-v1', 'three.mp4')), 'a missing file');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
