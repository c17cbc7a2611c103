/**
 * Tests of accounts and access on the reference server: sign-in through the real API, tokens, the has_access
 * rules for guests and the seeded accounts, offers (packages, subscriptions), prerolls, library items, downloads
 * and user access. Run: node --import tsx --test server/accounts/access.test.ts
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { endpoints, User } from '../../src/api/contract.js';
import { PrerollList } from '../../src/api/preroll-schemas.js';
import { accessFor } from './accounts.js';
import { ACCOUNTS, Harness, ok, type Account } from '../testing/harness.js';

const h = new Harness();
before(() => h.start());
after(() => h.stop());

const INVALID_LOGIN = 'Invalid email or password. Please try again.';

describe('sign-in', () => {
  test('POST v2/auth/login: a token and the user for the right password, 422 otherwise', async () => {
    const res = await h.post('/api/v2/auth/login', {
      api_key: h.key,
      email: 'Buyer@Demo-Sports.example',
      password: 'demo-password',
    });
    assert.equal(res.status, 200);
    const { token, user } = res.body.data;
    assert.match(token, /^[0-9a-f]{64}$/);
    const parsed = User.parse(user);
    assert.deepEqual(
      [parsed.email, parsed.first_name, parsed.gender, parsed.capabilities],
      [ACCOUNTS.buyer, 'Ben', 'M', ['watch']],
    );
    // Only the token's SHA-256 is stored.
    const stored = (await h.server.db.all('SELECT token_hash FROM tokens')).map((r) => String(r.token_hash));
    ok(stored.includes(createHash('sha256').update(token).digest('hex')) && !stored.includes(token));
    const hash = String(
      (await h.server.db.get('SELECT password_hash FROM users WHERE email = ?', [ACCOUNTS.buyer]))!.password_hash,
    );
    assert.match(hash, /^scrypt\$16384\$8\$1\$[\w+/=]+\$[\w+/=]+$/);

    for (const body of [
      { email: ACCOUNTS.buyer, password: 'wrong-password' },
      { email: 'nobody@demo-sports.example', password: 'demo-password' },
    ]) {
      const failed = await h.post('/api/v2/auth/login', { api_key: h.key, ...body });
      assert.equal(failed.status, 422);
      assert.equal(failed.body.message, INVALID_LOGIN);
    }
    const missing = await h.post('/api/v2/auth/login', { api_key: h.key });
    assert.equal(missing.status, 422);
    assert.deepEqual(Object.keys(missing.body.errors).sort(), ['email', 'password']);
    // Accounts belong to their channel.
    const frKey = await h.apiKey('demo-fr');
    assert.equal(
      (await h.post('/api/v2/auth/login', { api_key: frKey, email: ACCOUNTS.buyer, password: 'demo-password' })).status,
      422,
    );
    assert.equal(
      (await h.post('/api/v2/auth/login', { email: ACCOUNTS.buyer, password: 'demo-password' })).status,
      403,
    );
  });

  test('profile and user/access: 401 without a valid token; logout ends the token', async () => {
    for (const path of ['profile', 'user/access']) {
      assert.equal((await h.api(path)).status, 401);
      const bad = await h.call(`/api/${path}?api_key=${h.key}`, { headers: { Authorization: 'Bearer 0123' } });
      assert.equal(bad.status, 401);
      assert.equal(bad.body.message, 'Unauthenticated.');
    }
    const profile = endpoints.profile.response.parse((await h.api('profile', 'subscriber')).body).data;
    assert.equal(profile.email, ACCOUNTS.subscriber);
    assert.deepEqual(profile.capabilities, ['watch', 'download', 'no_ads', 'vod_media_access']);
    const access = endpoints.userAccess.response.parse((await h.api('user/access', 'subscriber')).body).data;
    assert.deepEqual(access.capabilities, profile.capabilities);

    const login = await h.post('/api/v2/auth/login', {
      api_key: h.key,
      email: ACCOUNTS.viewer,
      password: 'demo-password',
    });
    const headers = { Authorization: `Bearer ${login.body.data.token}` };
    assert.equal((await h.call(`/api/profile?api_key=${h.key}`, { headers })).status, 200);
    assert.equal((await h.post('/api/auth/logout', { api_key: h.key }, headers)).status, 200);
    assert.equal((await h.call(`/api/profile?api_key=${h.key}`, { headers })).status, 401);
    assert.equal((await h.post('/api/auth/logout', { api_key: h.key }, headers)).status, 401);
  });
});

describe('has_access', () => {
  // Who may watch each seeded event: free for all, register for any account, paid and ppv by order, pass or
  // subscription, each but free only for accounts with the `watch` right. The buyer's order for paid-finished
  // failed, so it gives nothing; the suspended account's subscription gives nothing without the right.
  const who = ['guest', 'viewer', 'buyer', 'subscriber', 'passholder', 'suspended'] as const;
  /** One event's row: a yes or no per person, in the order of `who`. */
  const row = (...rights: boolean[]) =>
    Object.fromEntries(who.map((person, i) => [person, rights[i]!])) as Record<(typeof who)[number], boolean>;
  const [Y, N] = [true, false];
  const expected: Record<string, Record<'guest' | Account, boolean>> = {
    'free-live': row(Y, Y, Y, Y, Y, Y),
    'register-live': row(N, Y, Y, Y, Y, N),
    'paid-live': row(N, N, Y, Y, Y, N),
    'paid-finished': row(N, N, N, Y, Y, N),
    'paid-live-category': row(N, N, N, Y, Y, N),
    'ppv-live': row(N, N, N, Y, N, N),
  };

  test('guests and the seeded accounts, on single events, with a stream only when allowed', async () => {
    for (const [key, rights] of Object.entries(expected)) {
      for (const person of who) {
        const event = await h.event(key, person === 'guest' ? undefined : person);
        endpoints.event.response.parse({ data: event });
        assert.equal(event.has_access, rights[person], `${key} for ${person}`);
        const stream = Harness.mediaUrl(event, event.stream_status === 'live' ? 'live' : 'vod');
        assert.equal(Boolean(stream), rights[person], `${key} stream for ${person}`);
      }
    }
  });

  test('the events list and the homepage answer the same access as single events', async () => {
    for (const person of who) {
      const account = person === 'guest' ? undefined : person;
      const list = endpoints.events.response.parse((await h.api('events', account, 'limit=5000')).body).data;
      for (const [key, rights] of Object.entries(expected)) {
        assert.equal(list.find((e) => e.id === h.id(key))?.has_access, rights[person], `${key} ${person}`);
      }
      const byId = new Map(list.map((e) => [e.id, e]));
      for (const e of list) {
        if (e.type === 'free') assert.equal(e.has_access, true);
        if (e.type === 'register') assert.equal(e.has_access, account !== undefined && account !== 'suspended');
      }
      const home = endpoints.homepageEvents.response.parse((await h.api('events-for-homepage', account)).body).data;
      for (const e of [...home.live, ...home.finished]) assert.equal(e.has_access, byId.get(e.id)!.has_access);
    }
  });
});

describe('the watch right', () => {
  test('an account without it watches what a guest may, keeps what it holds, downloads and clips nothing', async () => {
    const profile = endpoints.profile.response.parse((await h.api('profile', 'suspended')).body).data;
    assert.deepEqual(profile.capabilities, []);
    // Its subscription still counts as held: the checkout never sells it a pass it has.
    const paid = await h.event('paid-live', 'suspended');
    const query = `type=event&id=${paid.id}&single_event_package_id=${paid.single_event_package_id}`;
    const held = endpoints.pricing.response.parse((await h.api('pricing', 'suspended', query)).body).data;
    assert.equal(held.purchased, true);
    // But no stream: neither the events, nor the library beyond its free items, nor a download or a clip.
    const library = endpoints.vodItems.response.parse(
      (await h.api('vod-media-items', 'suspended', 'no_limit=1')).body,
    ).data;
    for (const item of library) {
      assert.equal(item.has_access, item.type === 'free', `library item ${item.id} (${item.type})`);
      assert.equal(Boolean(Harness.mediaUrl(item, 'vod')), item.type === 'free');
    }
    assert.equal((await h.api(`download-event/${h.id('paid-finished')}`, 'suspended')).status, 403);
    const clip = await h.post(
      '/api/clip',
      { api_key: h.key, event_id: h.id('free-live'), name: 'Mine', start_time: 0, duration: 10, tags: ['goal'] },
      { Authorization: `Bearer ${await h.token('suspended')}` },
    );
    assert.equal(clip.status, 403, 'no clipping right either');
    // Given the right back, the same account watches what it holds.
    const id = (await h.server.db.get('SELECT id FROM users WHERE email = ?', [ACCOUNTS.suspended]))!.id!;
    await h.server.db.run('UPDATE users SET capabilities_json = ? WHERE id = ?', ['["watch"]', id]);
    try {
      const event = await h.event('paid-live', 'suspended');
      assert.equal(event.has_access, true);
      ok(Harness.mediaUrl(event, 'live'));
    } finally {
      await h.server.db.run('UPDATE users SET capabilities_json = ? WHERE id = ?', ['[]', id]);
    }
  });
});

describe('team passes and their teams', () => {
  test("a team pass covers the team's own teams (its children) too", async () => {
    const db = h.server.db;
    const id = async (alias: string) =>
      Number((await db.get('SELECT id FROM participants WHERE alias = ?', [alias]))!.id);
    const [parent, u21, other] = await Promise.all(
      ['northfield-m-soccer', 'northfield-m-soccer-u21', 'lakeside-state-m-soccer'].map(id),
    );
    const user = (await db.get('SELECT * FROM users WHERE email = ?', [ACCOUNTS.passholder]))!;
    const order = (await db.get(
      'SELECT id, participant_id FROM orders WHERE user_id = ? AND participant_id IS NOT NULL',
      [user.id!],
    ))!;
    const game = (team: number) => ({ id: 999_999, type: 'paid', categoryId: null, participants: [team] });
    await db.run('UPDATE orders SET participant_id = ? WHERE id = ?', [parent!, order.id!]);
    try {
      const access = await accessFor(db, user, Math.floor(h.nowMs / 1000));
      assert.equal(access.canWatch(game(parent!)), true);
      assert.equal(access.canWatch(game(u21!)), true, "the pass's team's U21 squad");
      assert.equal(access.canWatch(game(other!)), false);
    } finally {
      await db.run('UPDATE orders SET participant_id = ? WHERE id = ?', [order.participant_id!, order.id!]);
    }
  });
});

describe('offers', () => {
  test('packages: category and team passes, then one single-event pass per price; paginated unless no_limit=1', async () => {
    const all = endpoints.packages.response.parse((await h.keyless('packages', 'no_limit=1')).body).data;
    const [category, team, ...singles] = all;
    assert.equal(category?.name, 'Hockey Season Pass');
    assert.equal(category?.is_team_pass, false);
    const cats = endpoints.eventCategories.response.parse((await h.api('events-categories')).body).data;
    const hockey = cats.find((c) => c.alias === 'hockey')!;
    assert.deepEqual(
      category?.event_categories,
      [hockey.id, ...hockey.children!.map((c) => c.id)].sort((a, b) => a - b),
    );
    assert.equal(team?.is_team_pass, true);
    ok((team?.participants.length ?? 0) > 5);
    ok(singles.length >= 3 && singles.every((p) => p.type === 'single'));
    // Every paid or ppv event names its single-event pass, priced like the event.
    const events = endpoints.events.response.parse((await h.api('events', undefined, 'limit=5000')).body).data;
    for (const e of events.filter((x) => x.type === 'paid' || x.type === 'ppv')) {
      assert.equal(singles.find((p) => p.id === e.single_event_package_id)?.price, e.price, e.name);
    }
    ok(events.filter((x) => x.type === 'free').every((e) => e.single_event_package_id === null));

    const page = (await h.keyless('packages', 'limit=1&offset=1')).body;
    assert.deepEqual(page.meta, { total: all.length, offset: 1, limit: 1 });
    assert.equal(page.data[0].id, team?.id);
    const one = endpoints.package.response.parse((await h.keyless(`packages/${team!.id}`)).body).data;
    assert.deepEqual(one, team);
    assert.equal((await h.keyless('packages/999')).status, 404);
    const frPackage = (await h.call('/api/packages?channel_key=demo-fr&no_limit=1')).body.data[0];
    assert.equal((await h.keyless(`packages/${frPackage.id}`)).status, 404);
  });

  test('subscriptions: monthly with a 7-day trial, annual without', async () => {
    const subs = endpoints.subscriptions.response.parse((await h.keyless('subscriptions', 'no_limit=1')).body).data;
    assert.deepEqual(
      subs.map((s) => [s.offer, s.trial_period ?? null]),
      [
        ['monthly', 7],
        ['annual', null],
      ],
    );
    const annual = endpoints.subscription.response.parse((await h.keyless(`subscriptions/${subs[1]!.id}`)).body).data;
    assert.equal(annual.name, 'All-Access Annual');
    assert.equal((await h.keyless('subscriptions/x')).status, 404);
  });

  test('prerolls, in the settings as the spec puts them: weights, live/VOD flags, a location, categories', async () => {
    const answer = (await h.keyless('settings')).body.data;
    // The list as the server sends it, read strictly (the settings' schema would read a bad list as none).
    const prerolls = PrerollList.parse(answer.prerolls);
    assert.deepEqual(answer.preroll_options, { enabled: 1, suppression_minutes: 60 });
    assert.deepEqual((await h.call('/storage/settings/demo.json')).body.prerolls, answer.prerolls);
    // No call of its own: the spec has none.
    assert.equal((await h.keyless('prerolls')).status, 404);
    assert.equal(prerolls.length, 3);
    ok(prerolls.some((p) => p.for_live && p.for_vod && p.event_categories.length === 0 && p.location_id === null));
    ok(prerolls.some((p) => p.for_vod && !p.for_live && p.event_categories.length === 3));
    ok(prerolls.some((p) => p.for_live && !p.for_vod && p.location_id !== null));
    assert.deepEqual(new Set(prerolls.map((p) => p.weight)).size, 3);
  });
});

describe('library items and downloads', () => {
  test('vod-media-items/{id}: free for everyone; paid with vod_media_access or a subscription', async () => {
    const access: Array<[number, Account | undefined, boolean]> = [
      [1, undefined, true],
      [2, undefined, false],
      [2, 'viewer', false],
      [2, 'subscriber', true],
    ];
    for (const [id, account, allowed] of access) {
      const item = endpoints.vodItem.response.parse((await h.api(`vod-media-items/${id}`, account)).body).data;
      assert.equal(item.has_access, allowed, `${id} ${account}`);
      assert.equal(item.duration, Math.round(h.server.media.main.duration));
      ok(item.assets.some((a) => a.type === 'image'));
      const vod = Harness.mediaUrl(item, 'vod');
      assert.equal(Boolean(vod), allowed);
      if (vod) {
        assert.match(vod, /\/vod-\d+\/master\.m3u8$/);
        assert.equal((await h.call(vod.replace('master.m3u8', '360p/index.m3u8'))).status, 200);
      }
    }
    assert.equal((await h.api('vod-media-items/999')).status, 404);
  });

  test('download-event/{id}: signed-in, download capability, access, finished with a recording', async () => {
    const finished = h.id('paid-finished');
    assert.equal((await h.api(`download-event/${finished}`)).status, 401);
    assert.equal(
      (await h.api(`download-event/${finished}`, 'passholder')).status,
      403,
      'access but no download capability',
    );
    assert.equal((await h.api(`download-event/${h.id('paid-live')}`, 'subscriber')).status, 422, 'live');
    assert.equal((await h.api(`download-event/${h.id('no-recording')}`, 'subscriber')).status, 422, 'no recording');
    assert.equal((await h.api('download-event/999999', 'subscriber')).status, 404);

    const before = endpoints.userAccess.response.parse((await h.api('user/access', 'subscriber')).body).data;
    const res = await h.api(`download-event/${finished}`, 'subscriber');
    const download = endpoints.downloadEvent.response.parse(res.body).data;
    assert.equal(download.filename, 'northfield-huskies-at-coastal-pacific-gulls.mp4');
    assert.match(
      download.url,
      new RegExp(`^${h.base}/media/s/\\d+\\.[\\w-]{16}\\.[\\w-]{43}/dl-${finished}/download/${download.filename}$`),
    );
    const after = endpoints.userAccess.response.parse((await h.api('user/access', 'subscriber')).body).data;
    assert.equal(after.featureCount!.downloads, before.featureCount!.downloads + 1);

    const file = await fetch(download.url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'video/mp4');
    assert.equal(file.headers.get('content-disposition'), `attachment; filename="${download.filename}"`);
    const bytes = Buffer.from(await file.arrayBuffer());
    assert.equal(bytes.length, h.server.media.download.bytes);
    assert.equal(bytes.subarray(4, 8).toString('latin1'), 'ftyp');
    // A download that broke off resumes where it stopped, and one already complete is not sent again.
    assert.equal(file.headers.get('accept-ranges'), 'bytes');
    const rest = await fetch(download.url, { headers: { Range: `bytes=1000-` } });
    assert.equal(rest.status, 206);
    assert.equal(rest.headers.get('content-range'), `bytes 1000-${bytes.length - 1}/${bytes.length}`);
    assert.ok(Buffer.from(await rest.arrayBuffer()).equals(bytes.subarray(1000)), 'the rest of the same file');
    const etag = file.headers.get('etag');
    ok(etag && file.headers.get('last-modified'), 'an ETag and a Last-Modified');
    assert.equal(
      (await fetch(download.url, { headers: { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' } })).status,
      304,
    );
    const head = await fetch(download.url, { method: 'HEAD' });
    assert.deepEqual(
      [head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength],
      [200, String(bytes.length), 0],
    );
    assert.equal((await fetch(download.url, { headers: { Range: `bytes=${bytes.length}-` } })).status, 416);
    // The download URL is not a playback URL, and a playback URL does not download.
    assert.equal((await h.call(download.url.replace(/download\/.*$/, 'master.m3u8'))).status, 404);
    const vod = Harness.mediaUrl(await h.event('paid-finished', 'subscriber'), 'vod')!;
    assert.equal((await h.call(vod.replace('master.m3u8', `download/${download.filename}`))).status, 404);
    assert.equal((await h.call(download.url.replace(`dl-${finished}`, `dl-${h.id('free-finished')}`))).status, 403);
  });
});
