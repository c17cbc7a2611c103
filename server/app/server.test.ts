/**
 * Tests of the reference channel server, started in-process on free ports with a temp data dir and a controllable
 * clock. Run: node --import tsx --test server/app/server.test.ts
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as z from 'zod/mini';
import {
  ChannelKeyFile,
  endpoints,
  ErrorBody,
  NO_KEY_MESSAGE,
  type EndpointName,
  type Event,
} from '../../src/api/contract.js';
import { ChannelDb } from '../storage/db.js';
import { DEV_SECRET_HEADER } from './exposure.js';
import type { RunningServer } from './server.js';
import { copyFileName } from '../channel/settings-copy.js';
import { ok, request as fetchAnswer, startTestServer, testDatabase } from '../testing/harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'channel-server-test-'));
const siteDir = join(tmp, 'site');
mkdirSync(join(siteDir, 'nested'), { recursive: true });
writeFileSync(
  join(siteDir, 'index.html'),
  '<!doctype html><script type="module" src="%BUNDLE_ORIGIN%/channel-elements.js"></script><p>home</p>',
);
writeFileSync(join(siteDir, 'nested', 'index.html'), '<p>nested</p>');
writeFileSync(join(siteDir, 'style.css'), 'p{color:red}');
const distDir = join(tmp, 'dist');
mkdirSync(join(distDir, 'chunks'), { recursive: true });
writeFileSync(join(distDir, 'channel-elements.js'), 'export const ok = 1;');
writeFileSync(join(distDir, 'chunks', 'a.js'), 'export const a = 1;');
writeFileSync(join(tmp, 'secret.txt'), 'do not serve');

/** The fake wall clock every server in this file reads (ms). */
let nowMs = Date.UTC(2030, 5, 15, 18, 0, 0);
let server: RunningServer;
let base: string;

/** Fetches JSON from the API server; answers status, headers and parsed body. `/__dev/` calls carry the dev secret. */
const call = (path: string, init: RequestInit = {}) =>
  fetchAnswer(
    `${base}${path}`,
    path.startsWith('/__dev/')
      ? { ...init, headers: { ...(init.headers as Record<string, string>), [DEV_SECRET_HEADER]: server.devSecret! } }
      : init,
  );

const post = (path: string, body: unknown) =>
  call(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

async function apiKey(channel_key: string): Promise<string> {
  const res = await post('/api/get_api_key', { channel_key });
  assert.equal(res.status, 200);
  return endpoints.getApiKey.response.parse(res.body).data.api_key;
}

/** A raw GET that keeps the path exactly as written (fetch would normalise `..` away). */
function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let demoKey: string;
let frKey: string;

before(async () => {
  server = await startTestServer({
    mode: 'dev',
    port: 0,
    dataDir: join(tmp, 'data'),
    siteDir,
    distDir,
    now: () => nowMs,
  });
  base = server.origin;
  demoKey = await apiKey('demo');
  frKey = await apiKey('demo-fr');
});
after(async () => {
  await server.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** GETs `/api/{path}` for the channel (channel_key for keyless endpoints, api_key otherwise). */
async function get(name: EndpointName, path: string, channel: 'demo' | 'demo-fr' = 'demo', extra = '') {
  const keyless = endpoints[name].keyless;
  const key = keyless ? `channel_key=${channel}` : `api_key=${channel === 'demo' ? demoKey : frKey}`;
  return call(`/api/${path}?${key}${extra ? `&${extra}` : ''}`);
}

async function events(query: string, channel: 'demo' | 'demo-fr' = 'demo'): Promise<{ data: Event[]; meta: any }> {
  const res = await get('events', 'events', channel, query);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return endpoints.events.response.parse(res.body);
}

describe('keys', () => {
  test('keys host answers the channel key file, 404 for unknown keys', async () => {
    const found = await call('/keys/demo.json');
    assert.equal(found.status, 200);
    assert.equal(found.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(ChannelKeyFile.parse(found.body), { channel_key: 'demo', name: 'Demo Sports Network' });
    const missing = await call('/keys/nope.json');
    assert.equal(missing.status, 404);
    ok(ErrorBody.parse(missing.body).message);
  });

  test('get_api_key: fresh keys for known channels, 403 with errors.channel_key otherwise', async () => {
    const a = await apiKey('demo');
    const b = await apiKey('demo');
    assert.notEqual(a, b);
    assert.match(a, /^[0-9a-f]{32,}$/);
    const bad = await post('/api/get_api_key', { channel_key: 'nope' });
    assert.equal(bad.status, 403);
    assert.equal(bad.body.message, NO_KEY_MESSAGE);
    assert.deepEqual(bad.body.errors, { channel_key: ['The channel key is invalid.'] });
  });

  test('get_api_key accepts urlencoded bodies; malformed JSON is 400', async () => {
    const form = await call('/api/get_api_key', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'channel_key=demo-fr',
    });
    assert.equal(form.status, 200);
    const broken = await call('/api/get_api_key', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"channel_key":',
    });
    assert.equal(broken.status, 400);
  });

  test("a new key's first keyed calls ask the database nothing; calls at once with a key not seen ask once", async () => {
    const lookups: string[] = [];
    const get = server.db.get.bind(server.db);
    server.db.get = (sql, params) => {
      if (sql.includes('FROM api_keys k')) lookups.push(String((params as unknown[])[0]));
      return get(sql, params);
    };
    try {
      // Issued by this process: known from the start (the visitor's geo and event follow at once).
      const issued = await apiKey('demo');
      const first = await Promise.all([call(`/api/geo?api_key=${issued}`), call(`/api/events?api_key=${issued}`)]);
      assert.deepEqual(
        first.map((r) => r.status),
        [200, 200],
      );
      assert.deepEqual(lookups, []);
      // Issued elsewhere (another process, an earlier run): three calls at the same time ask the database once.
      const other = 'b'.repeat(48);
      await server.db.run(
        'INSERT INTO api_keys (api_key, channel_id, created_at, last_used_at) SELECT ?, id, ?::bigint, ?::bigint FROM channels WHERE channel_key = ?',
        [other, Math.floor(nowMs / 1000), Math.floor(nowMs / 1000), 'demo'],
      );
      const three = await Promise.all([
        call(`/api/geo?api_key=${other}`),
        call(`/api/events?api_key=${other}`),
        call(`/api/events-categories?api_key=${other}`),
      ]);
      assert.deepEqual(
        three.map((r) => r.status),
        [200, 200, 200],
      );
      assert.deepEqual(lookups, [other]);
    } finally {
      server.db.get = get;
    }
  });

  test('keyed calls with a missing or unknown api key answer 403 with errors.api_key', async () => {
    for (const query of ['api_key=wrong', '']) {
      const res = await call(`/api/events?${query}`);
      assert.equal(res.status, 403);
      assert.equal(res.body.message, NO_KEY_MESSAGE);
      assert.deepEqual(res.body.errors, { api_key: ['The api key is invalid.'] });
    }
    const keyless = await call('/api/menu?channel_key=unknown');
    assert.equal(keyless.status, 403);
    ok(keyless.body.errors.channel_key);
  });
});

describe('channel content', () => {
  test('every endpoint answers a body its contract schema parses, for both channels', async () => {
    for (const channel of ['demo', 'demo-fr'] as const) {
      const paths: Array<[EndpointName, string, string?]> = [
        ['settings', 'settings'],
        ['menu', 'menu'],
        ['pages', 'pages'],
        ['colors', 'color-settings/web'],
        ['geo', 'geo'],
        ['events', 'events'],
        ['eventCategories', 'events-categories'],
        ['homepageEvents', 'events-for-homepage'],
        ['eventLocations', 'events-locations'],
        ['participants', 'participants', 'no_limit=1'],
        ['participantGroups', 'participant-groups'],
        ['groupProperties', 'participant-group-properties'],
        ['faq', 'faq'],
        ['slides', 'slides/web'],
        ['customForm', 'custom-forms/contact'],
      ];
      for (const [name, path, extra] of paths) {
        const res = await get(name, path, channel, extra);
        assert.equal(res.status, 200, `${channel} ${path}: ${JSON.stringify(res.body)}`);
        const parsed = endpoints[name].response.safeParse(res.body);
        ok(parsed.success, `${channel} ${path}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`);
      }
      const pages = endpoints.pages.response.parse((await get('pages', 'pages', channel)).body).data;
      ok(pages.length > 0);
      for (const page of pages) {
        const res = await get('page', `pages/${page.url.replace(/\//g, '')}`, channel);
        endpoints.page.response.parse(res.body);
      }
      const list = await events('limit=1', channel);
      const one = await get('event', `events/${list.data[0]!.id}`, channel);
      assert.equal(endpoints.event.response.parse(one.body).data.id, list.data[0]!.id);
    }
  });

  test('demo settings, colours and content', async () => {
    const settings = endpoints.settings.response.parse((await get('settings', 'settings')).body).data;
    assert.equal(settings.name, 'Demo Sports Network');
    assert.equal(settings.language, 'en');
    assert.equal(settings.currency, 'USD');
    assert.equal(settings.auth.remote_auth, true);
    // The tag manager is the local stand-in, named with the channel's tag id (payments.test.ts records its pushes).
    assert.equal(settings['google-analytics'], 'G-DEMO0000');
    assert.equal(settings.gtag_url, `${base}/gtag-stand-in.js?id=G-DEMO0000`);
    assert.equal(settings.stripe?.publishable_key, 'pk_test_demo');
    const colors = endpoints.colors.response.parse((await get('colors', 'color-settings/web')).body).data;
    for (const name of [
      'header-background',
      'header-text-color',
      'body-background',
      'body-text-color',
      'footer-background',
      'footer-text-color',
      'primary-color',
      'accent-color',
    ]) {
      assert.match(colors[name] ?? '', /^#[0-9a-f]{6}$/i, name);
    }
    const stored = await call('/storage/settings/demo.json');
    assert.equal(stored.status, 200);
    assert.equal(stored.headers.get('access-control-allow-origin'), '*');
    assert.equal(stored.body.name, 'Demo Sports Network');
    const menu = endpoints.menu.response.parse((await get('menu', 'menu')).body).data;
    ok(menu.some((m) => m.type === 'group' && (m.items?.length ?? 0) > 0));
    const about = endpoints.page.response.parse((await get('page', 'pages/about')).body).data;
    ok(about.blocks.some((b) => b.type === 'static-block' && b.ref === 'contacts:email'));
    ok(about.blocks.some((b) => b.type === 'image' && b.url.startsWith(base)));
    const cats = endpoints.eventCategories.response.parse(
      (await get('eventCategories', 'events-categories')).body,
    ).data;
    const basketball = cats.find((c) => c.alias === 'basketball');
    assert.deepEqual(basketball?.children?.map((c) => c.gender).sort(), ['female', 'male']);
    const main = endpoints.slides.response.parse((await get('slides', 'slides/web', 'demo', 'type=main')).body).data;
    ok(main.length >= 2 && main.every((s) => s.slidable_type === 'main'));
    const props = endpoints.groupProperties.response.parse(
      (await get('groupProperties', 'participant-group-properties')).body,
    ).data;
    ok(props.some((p) => p.name === 'conference' && p.values.length > 1));
    const geo = endpoints.geo.response.parse((await get('geo', 'geo')).body).data;
    assert.equal(geo.country_code, 'US');
    ok(geo.ip);
  });

  test('demo-fr settings: French, remote auth off', async () => {
    const settings = endpoints.settings.response.parse((await get('settings', 'settings', 'demo-fr')).body).data;
    assert.equal(settings.language, 'fr');
    assert.equal(settings.auth.remote_auth, false);
    ok(['EUR', 'CAD'].includes(settings.currency));
    const demoColors = (await get('colors', 'color-settings/web')).body.data;
    const frColors = (await get('colors', 'color-settings/web', 'demo-fr')).body.data;
    assert.notEqual(frColors['primary-color'], demoColors['primary-color']);
  });

  test('the stored copy of the settings: a file written at start and on each change, served from the file', async () => {
    const file = join(tmp, 'data', 'storage', 'settings', 'demo.json');
    const served = (await get('settings', 'settings')).body.data;
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), served, 'written at start, as GET settings serves them');
    const copy = await call('/storage/settings/demo.json');
    assert.equal(copy.status, 200);
    assert.match(copy.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(copy.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(copy.headers.get('cache-control'), 'no-cache', 'dev mode: always fresh');
    assert.deepEqual(copy.body, served);
    ok(endpoints.settings.response.safeParse({ data: copy.body }).success, 'what the client parses settings with');
    try {
      // A change reaches the copy before the change is answered.
      await post('/__dev/settings?channel_key=demo', { name: 'Renamed Sports' });
      assert.equal(JSON.parse(readFileSync(file, 'utf8')).name, 'Renamed Sports');
      assert.equal((await call('/storage/settings/demo.json')).body.name, 'Renamed Sports');
      // The copy answers where the API cannot: settings the database can no longer read fail GET settings.
      const row = (await server.db.get(
        "SELECT channel_id, json FROM settings WHERE channel_id = (SELECT id FROM channels WHERE channel_key = 'demo')",
      ))!;
      // Written as another process would, and announced the way it does.
      await server.db.run(
        "UPDATE settings SET json = '{' WHERE channel_id = (SELECT id FROM channels WHERE channel_key = 'demo')",
      );
      await server.db.notify('channel_settings', String(row.channel_id));
      try {
        let status = 0;
        for (let i = 0; i < 50 && status !== 500; i++) {
          status = (await get('settings', 'settings')).status;
          if (status !== 500) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.equal(status, 500);
        const still = await call('/storage/settings/demo.json');
        assert.equal(still.status, 200);
        assert.equal(still.body.name, 'Renamed Sports');
      } finally {
        await server.db.run(
          "UPDATE settings SET json = ? WHERE channel_id = (SELECT id FROM channels WHERE channel_key = 'demo')",
          [row.json!],
        );
        await server.db.notify('channel_settings', String(row.channel_id));
      }
    } finally {
      await call('/__dev/settings?channel_key=demo', { method: 'DELETE' });
    }
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).name, 'Demo Sports Network', 'restored, and so is the copy');
    // Only channels' keys name a copy: anything else is a 404, never a file of the server's.
    for (const path of [
      '/storage/settings/nope.json',
      '/storage/settings/..%2Fdev-secret.json',
      '/storage/settings/demo.txt',
    ])
      assert.equal((await call(path)).status, 404, path);
    assert.equal((await rawGet(server.port, '/storage/settings/../dev-secret.json')).status, 404);
    assert.equal(copyFileName('../x/.json'), '%2e%2e%2Fx%2F%2ejson.json');
  });

  test('404s: unknown page, form, event of another channel, API path; profile is 401', async () => {
    assert.equal((await get('page', 'pages/nope')).status, 404);
    assert.equal((await get('customForm', 'custom-forms/nope')).status, 404);
    const frEvent = (await events('limit=1', 'demo-fr')).data[0]!;
    assert.equal((await get('event', `events/${frEvent.id}`)).status, 404);
    const unknown = await call(`/api/nothing-here?api_key=${demoKey}`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.message, 'Not found.');
    const profile = await call(`/api/profile?api_key=${demoKey}`, { headers: { Authorization: 'Bearer nope' } });
    assert.equal(profile.status, 401);
    assert.equal(profile.body.message, 'Unauthenticated.');
  });

  test("participants' children: listed on their own and under their team; a team's filter includes them", async () => {
    const all = endpoints.participants.response.parse(
      (await get('participants', 'participants', 'demo', 'no_limit=1')).body,
    ).data;
    const parent = all.find((p) => p.alias === 'northfield-m-soccer')!;
    assert.deepEqual(
      parent.children?.map((c) => c.alias),
      ['northfield-m-soccer-reserves', 'northfield-m-soccer-u21'],
    );
    ok(
      all.some((p) => p.alias === 'northfield-m-soccer-u21'),
      'a child is a participant of its own',
    );
    ok(all.filter((p) => p.children?.length).length === 1, 'only teams with teams of their own have children');
    // One of the team's games played by its U21 squad instead (written straight into the database).
    const u21 = parent.children!.find((c) => c.alias === 'northfield-m-soccer-u21')!;
    const before = (await events(`team=${parent.alias}&limit=500`)).data.map((e) => e.id);
    const other = (await events('sport=basketball&limit=1')).data[0]!;
    await server.db.run('UPDATE event_participants SET participant_id = ? WHERE event_id = ? AND position = 0', [
      u21.id,
      other.id,
    ]);
    // Announced as the dev endpoints do after changing an event: every process forgets what it had cached.
    await server.db.notify('event_changed', String(other.id));
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      assert.deepEqual(
        (await events(`team=${u21.alias}&limit=500`)).data.map((e) => e.id),
        [other.id],
      );
      const withChildren = (await events(`team=${parent.alias}&limit=500`)).data.map((e) => e.id);
      assert.deepEqual(withChildren.sort(), [...before, other.id].sort(), "the team's filter includes its squads");
    } finally {
      await server.db.run('UPDATE event_participants SET participant_id = ? WHERE event_id = ? AND position = 0', [
        other.participants[0]!.id,
        other.id,
      ]);
      await server.db.notify('event_changed', String(other.id));
    }
  });

  test('participants paginate, no_limit=1 answers all', async () => {
    const all = endpoints.participants.response.parse(
      (await get('participants', 'participants', 'demo', 'no_limit=1')).body,
    ).data;
    ok(all.length > 20);
    const page = (await get('participants', 'participants', 'demo', 'limit=5&offset=5')).body;
    assert.equal(page.data.length, 5);
    assert.deepEqual(page.meta, { total: all.length, offset: 5, limit: 5 });
    assert.equal(page.data[0].id, all[5]!.id);
    assert.equal((await get('participants', 'participants')).body.data.length, 20);
    assert.equal((await get('participants', 'participants', 'demo', 'limit=x')).status, 422);
  });
});

describe('events', () => {
  test('seed: 40+ events, live/upcoming/finished, free/paid/ppv/register, three time zones, single-name events', async () => {
    const all = (await events('limit=5000')).data;
    ok(all.length >= 40);
    const count = (status: string) => all.filter((e) => e.stream_status === status).length;
    ok(count('live') >= 3 && count('upcoming') >= 10 && count('finished') >= 10);
    assert.deepEqual([...new Set(all.map((e) => e.type))].sort(), ['free', 'paid', 'ppv', 'register']);
    ok(new Set(all.map((e) => e.time_zone)).size >= 3);
    ok(all.some((e) => e.participants.length === 0));
    ok(all.filter((e) => e.type === 'paid').every((e) => (e.price ?? 0) > 0 && !e.has_access));
    ok(all.filter((e) => e.type === 'free').every((e) => e.has_access));
    const pair = all.find((e) => e.participants.length === 2)!;
    ok(pair.participants.some((p) => p.id === pair.home_team_id));
    ok(pair.location?.city && pair.category?.name);
  });

  test('pagination meta and default sort', async () => {
    const first = await events('limit=10');
    assert.deepEqual(first.meta, { total: first.meta.total, offset: 0, limit: 10 });
    ok(first.meta.total >= 40);
    const second = await events('limit=10&offset=10');
    assert.equal(second.meta.offset, 10);
    const both = (await events('limit=20')).data.map((e) => e.id);
    assert.deepEqual(
      [...first.data, ...second.data].map((e) => e.id),
      both,
    );
    const times = (await events('limit=100')).data.map((e) => e.event_utc_ts);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
    assert.equal((await events('')).meta.limit, 20);
  });

  test('stream_status filters and sorting (finished newest first)', async () => {
    const now = nowMs / 1000;
    const live = (await events('stream_status=live&limit=100')).data;
    ok(live.length >= 3);
    ok(live.every((e) => e.stream_status === 'live' && e.event_utc_ts <= now));
    const upcoming = (await events('stream_status=upcoming&limit=100')).data;
    ok(upcoming.every((e) => e.stream_status === 'upcoming' && e.event_utc_ts > now));
    const finished = (await events('stream_status=finished&limit=100')).data;
    ok(finished.every((e) => e.stream_status === 'finished'));
    const ts = finished.map((e) => e.event_utc_ts);
    assert.deepEqual(
      ts,
      [...ts].sort((a, b) => b - a),
    );
    const asc = (await events('stream_status=finished&sort_direction=asc&limit=100')).data.map((e) => e.event_utc_ts);
    assert.deepEqual(asc, [...ts].reverse());
    const home = endpoints.homepageEvents.response.parse(
      (await get('homepageEvents', 'events-for-homepage')).body,
    ).data;
    ok(home.live.length >= 3 && home.upcoming.length === 10 && home.finished.length === 10);
  });

  test('category (alias or id, with children), sport and gender filters', async () => {
    const cats = endpoints.eventCategories.response.parse(
      (await get('eventCategories', 'events-categories')).body,
    ).data;
    const basketball = cats.find((c) => c.alias === 'basketball')!;
    const childIds = new Set(basketball.children!.map((c) => c.id));
    const byAlias = (await events('category=basketball&limit=100')).data;
    ok(byAlias.length > 0 && byAlias.every((e) => childIds.has(e.event_category_id!)));
    const women = basketball.children!.find((c) => c.gender === 'female')!;
    const byId = (await events(`event_category_id=${women.id}&limit=100`)).data;
    ok(byId.length > 0 && byId.every((e) => e.event_category_id === women.id));
    const sport = (await events('sport=BASKETBALL&limit=100')).data;
    assert.deepEqual(
      sport.map((e) => e.id),
      byAlias.map((e) => e.id),
    );
    const female = (await events('gender=female&limit=100')).data;
    const w = (await events('gender=W&limit=100')).data;
    ok(female.length > 0);
    assert.deepEqual(
      w.map((e) => e.id),
      female.map((e) => e.id),
    );
    const male = (await events('gender=M&limit=100')).data;
    assert.equal(male.length + female.length, (await events('limit=100')).meta.total);
    assert.equal((await events('category=nope')).meta.total, 0);
  });

  test('participant, team, group and school filters', async () => {
    const all = (await events('limit=100')).data;
    const team = all.find((e) => e.participants.length === 2)!.participants[1]!;
    const byId = (await events(`participant_id=${team.id}&limit=100`)).data;
    ok(byId.length > 0 && byId.every((e) => e.participants.some((p) => p.id === team.id)));
    const byAlias = (await events(`team=${team.alias}&limit=100`)).data;
    assert.deepEqual(
      byAlias.map((e) => e.id),
      byId.map((e) => e.id),
    );
    const groups = endpoints.participantGroups.response.parse(
      (await get('participantGroups', 'participant-groups')).body,
    ).data;
    const group = groups.find((g) => g.id === team.participant_group_id)!;
    const byGroup = (await events(`group=${group.alias}&limit=100`)).data;
    ok(byGroup.length >= byId.length);
    ok(byGroup.every((e) => e.participants.some((p) => p.participant_group_id === group.id)));
    const bySchool = (await events(`school=${group.id}&limit=100`)).data;
    assert.deepEqual(
      bySchool.map((e) => e.id),
      byGroup.map((e) => e.id),
    );
  });

  test('school property filters (participant-group-properties): conference, division, by their own names', async () => {
    const groups = endpoints.participantGroups.response.parse(
      (await get('participantGroups', 'participant-groups')).body,
    ).data;
    const properties = endpoints.groupProperties.response.parse(
      (await get('groupProperties', 'participant-group-properties')).body,
    ).data;
    assert.deepEqual(
      properties.map((p) => p.name),
      ['conference', 'division'],
    );
    const all = (await events('limit=500')).data;
    const schoolOf = (e: Event) => e.participants.map((p) => groups.find((g) => g.id === p.participant_group_id));
    const having = (name: string, value: string) =>
      all.filter((e) => schoolOf(e).some((g) => g?.properties?.[name] === value)).map((e) => e.id);
    const greatLakes = (await events('conference=Great%20Lakes&limit=500')).data.map((e) => e.id);
    ok(greatLakes.length > 0 && greatLakes.length < all.length);
    assert.deepEqual(greatLakes, having('conference', 'Great Lakes'));
    // Any case; two properties narrow together; with other filters too.
    assert.deepEqual(
      (await events('conference=great%20lakes&limit=500')).data.map((e) => e.id),
      greatLakes,
    );
    const both = (await events('conference=Great%20Lakes&division=II&limit=500')).data.map((e) => e.id);
    // Both of one school: a team of a Great Lakes school in division II.
    assert.deepEqual(
      both,
      all
        .filter((e) =>
          schoolOf(e).some((g) => g?.properties?.conference === 'Great Lakes' && g.properties.division === 'II'),
        )
        .map((e) => e.id),
    );
    ok(both.length > 0 && both.length < greatLakes.length);
    const upcoming = (await events('conference=Great%20Lakes&stream_status=upcoming&limit=500')).data;
    ok(upcoming.every((e) => e.stream_status === 'upcoming' && greatLakes.includes(e.id)));
    // A name no school has, or that is no plain name, narrows nothing; a value no school has matches nothing.
    assert.equal((await events('colour=red&limit=500')).meta.total, all.length);
    assert.equal((await events(`${encodeURIComponent('conference"')}=x&limit=500`)).meta.total, all.length);
    assert.equal((await events('conference=Nowhere&limit=500')).meta.total, 0);
  });

  test('city, state and location filters', async () => {
    const locations = endpoints.eventLocations.response.parse(
      (await get('eventLocations', 'events-locations')).body,
    ).data;
    const boston = locations.find((l) => l.city === 'Boston')!;
    const byCity = (await events('city=boston&limit=100')).data;
    ok(byCity.length > 0 && byCity.every((e) => e.location?.city === 'Boston'));
    const byState = (await events('state=ma&limit=100')).data;
    ok(byState.every((e) => e.location?.state === 'MA'));
    const byLocation = (await events(`location=${boston.id}&limit=100`)).data;
    ok(byLocation.length > 0 && byLocation.every((e) => e.location_id === boston.id));
  });

  test('start_date and end_date (UTC days, inclusive, or unix seconds)', async () => {
    const day = new Date(nowMs).toISOString().slice(0, 10);
    const today = (await events(`start_date=${day}&end_date=${day}&limit=100`)).data;
    const from = Date.parse(`${day}T00:00:00Z`) / 1000;
    ok(today.length > 0);
    ok(today.every((e) => e.event_utc_ts >= from && e.event_utc_ts < from + 86400));
    const secs = (await events(`start_date=${from}&end_date=${from + 86399}&limit=100`)).data;
    assert.deepEqual(
      secs.map((e) => e.id),
      today.map((e) => e.id),
    );
    // The schedule's calendar: a New York day (midnight EDT, then the spec's 86,400 s, end_date its last second)
    // lists exactly the events starting in it, whatever their status.
    const start = Date.parse(`${day}T04:00:00Z`) / 1000;
    const all = (await events('limit=500')).data;
    const expected = all.filter((e) => e.event_utc_ts >= start && e.event_utc_ts < start + 86400).map((e) => e.id);
    ok(expected.length > 0, 'seed events on that day');
    const window = (await events(`start_date=${start}&end_date=${start + 86399}&limit=500`)).data;
    assert.deepEqual(window.map((e) => e.id).sort(), expected.sort());
    const edge = window[0]!.event_utc_ts;
    assert.deepEqual(
      (await events(`start_date=${edge}&end_date=${edge}&limit=500`)).data.map((e) => e.event_utc_ts),
      window.filter((e) => e.event_utc_ts === edge).map((e) => e.event_utc_ts),
      'both ends count: an event at exactly end_date is in, the next second is the next window',
    );
  });

  test('422 with errors for invalid query values', async () => {
    const cases: Array<[string, string]> = [
      ['stream_status=soon', 'stream_status'],
      ['offset=-1', 'offset'],
      ['offset=1.5', 'offset'],
      ['limit=0', 'limit'],
      ['limit=5001', 'limit'],
      ['limit=ten', 'limit'],
      ['start_date=2024-02-31', 'start_date'],
      ['end_date=yesterday', 'end_date'],
      ['start_date=2024-03-02&end_date=2024-03-01', 'end_date'],
      ['sort_direction=sideways', 'sort_direction'],
      ['gender=x', 'gender'],
      ['location=abc', 'location'],
    ];
    for (const [query, field] of cases) {
      const res = await get('events', 'events', 'demo', query);
      assert.equal(res.status, 422, query);
      assert.equal(res.body.message, 'The given data was invalid.');
      ok(Array.isArray(res.body.errors?.[field]), `${query}: ${JSON.stringify(res.body)}`);
      ErrorBody.parse(res.body);
    }
  });

  test('statuses follow the wall clock: upcoming, then live, then finished', async () => {
    const saved = nowMs;
    try {
      const next = (await events('stream_status=upcoming&limit=1')).data[0]!;
      nowMs = (next.event_utc_ts + 60) * 1000;
      assert.equal(
        endpoints.event.response.parse((await get('event', `events/${next.id}`)).body).data.stream_status,
        'live',
      );
      nowMs = (next.event_utc_ts + 24 * 3600) * 1000;
      assert.equal((await get('event', `events/${next.id}`)).body.data.stream_status, 'finished');
      ok((await events('stream_status=finished&limit=100')).data.some((e) => e.id === next.id));
      // The start time itself is anchored and does not move with the clock.
      assert.equal((await get('event', `events/${next.id}`)).body.data.event_utc_ts, next.event_utc_ts);
    } finally {
      nowMs = saved;
    }
  });

  // Speed is measured by `npm run bench`, not asserted here: this checks the 5,000 events are all there.
  test('bench channel: 5000 events in one page', async () => {
    const key = await apiKey('bench');
    const res = await fetch(`${base}/api/events?api_key=${key}&limit=5000`);
    assert.equal(res.status, 200);
    const body = endpoints.events.response.parse(await res.json());
    assert.equal(body.data.length, 5000);
    assert.equal(body.meta.total, 5000);
  });
});

describe('logs', () => {
  const entry = {
    date: new Date().toISOString(),
    status: 500,
    service: 'channel-api',
    channel: 'demo',
    message: 'Server Error',
    request_data: { url: 'events' },
    url: 'https://example.test/api/events',
  };

  test('POST logs stores a valid entry (201) and the dev helper lists it', async () => {
    const res = await post('/api/logs', { ...entry, channel_key: 'demo' });
    assert.equal(res.status, 201);
    assert.equal(typeof res.body.data.id, 'number');
    // Without channel_key the entry's own `channel` names the channel.
    assert.equal((await post('/api/logs', { ...entry, message: 'second' })).status, 201);
    const listed = await call('/__dev/logs?channel_key=demo');
    const messages = listed.body.data.map((l: { message: string }) => l.message);
    ok(messages.includes('Server Error') && messages.includes('second'));
    assert.equal((await call('/__dev/logs?channel_key=demo-fr')).body.data.length, 0);
  });

  test('POST logs answers 422 with errors for an invalid entry', async () => {
    const res = await post('/api/logs', { channel_key: 'demo', status: 'bad', date: 1 });
    assert.equal(res.status, 422);
    ok(res.body.errors.status && res.body.errors.date && res.body.errors.message);
  });
});

describe('http', () => {
  test('CORS preflight answers 204 with the allowed headers', async () => {
    const res = await fetch(`${base}/api/events`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://example.test', 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /Idempotency-Key/);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /PATCH/);
  });

  test('pages: %BUNDLE_ORIGIN% replaced and CSP set, on both ports; bundle files are CORS-enabled', async () => {
    for (const origin of [server.origin, server.hostOrigin]) {
      const res = await fetch(`${origin}/`);
      assert.equal(res.status, 200);
      const html = await res.text();
      ok(html.includes(`src="${server.origin}/channel-elements.js"`), html);
      ok(!html.includes('%BUNDLE_ORIGIN%'));
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/);
      ok(csp.includes(`script-src 'self' ${server.origin}`));
      assert.equal(res.headers.get('cache-control'), 'no-cache');
    }
    const nested = await fetch(`${server.hostOrigin}/nested/`);
    assert.equal(await nested.text(), '<p>nested</p>');
    const css = await fetch(`${server.origin}/style.css`);
    assert.match(css.headers.get('content-type') ?? '', /text\/css/);
    const chunk = await fetch(`${server.origin}/chunks/a.js`);
    assert.equal(chunk.status, 200);
    assert.match(chunk.headers.get('content-type') ?? '', /text\/javascript/);
    assert.equal(chunk.headers.get('access-control-allow-origin'), '*');
    // The CMS host serves the pages only: no API, no bundle.
    assert.equal((await fetch(`${server.hostOrigin}/api/settings?channel_key=demo`)).status, 404);
    assert.equal((await fetch(`${server.hostOrigin}/channel-elements.js`)).status, 404);
  });

  test('dev mode’s Stripe double: a CMS host page may frame its 3-D Secure challenge, and only such pages may', async () => {
    // The host origin's pages (and the bundle origin's) may frame the bundle origin, where the challenge lives.
    for (const origin of [server.origin, server.hostOrigin]) {
      const csp = (await fetch(`${origin}/`)).headers.get('content-security-policy') ?? '';
      ok(csp.includes(`frame-src 'self' ${server.origin}`), csp);
      ok(csp.includes("frame-ancestors 'self'") && !csp.includes(`frame-ancestors 'self' ${server.hostOrigin}`), csp);
    }
    const double = server.stripeDouble;
    ok(double, 'dev mode without a Stripe key runs the double');
    const method = double.ledger.createPaymentMethod(
      { number: '4000002500003155', exp_month: 12, exp_year: 2040, cvc: '123' },
      { email: null, name: null },
    );
    const intent = double.ledger.createPaymentIntent({ amount: 499, currency: 'usd' });
    double.ledger.confirmPayment(intent, { paymentMethod: method.id }, false);
    const url = String(intent.next_action?.use_stripe_sdk?.stripe_js);
    ok(url.startsWith(`${server.origin}/__stripe/v1/3ds/`), url);
    const page = await fetch(url, { headers: { Accept: 'text/html' } });
    assert.equal(page.status, 200);
    ok((await page.text()).includes('Complete authentication'));
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'self' \*(;|$)/, csp);
  });

  test('directory traversal is refused', async () => {
    for (const port of [server.port, server.hostPort]) {
      for (const path of [
        '/../secret.txt',
        '/%2e%2e/secret.txt',
        '/..%2fsecret.txt',
        '/nested/..%2f..%2fsecret.txt',
        '/%00',
      ]) {
        const res = await rawGet(port, path);
        // A NUL byte is refused before any file is looked for (422, like a NUL anywhere in a request).
        assert.equal(res.status, path === '/%00' ? 422 : 404, `${port} ${path}`);
        ok(!res.body.includes('do not serve'));
      }
    }
  });

  test('rate limit: 429 with Retry-After beyond RATE_LIMIT_MAX, on every path', async () => {
    const limited = await startTestServer({
      port: 0,
      dataDir: join(tmp, 'data-limited'),
      siteDir,
      distDir,
      rateLimitMax: 3,
      rateLimitWindowMs: 60_000,
    });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await fetch(`${limited.origin}/api/settings?channel_key=demo`);
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      assert.deepEqual(await last!.json(), { message: 'Too Many Attempts.' });
      ok(Number(last!.headers.get('retry-after')) > 0);
      // Every path counts, not only /api/: the keys file, the bundle and media alike.
      assert.equal((await fetch(`${limited.origin}/keys/demo.json`)).status, 429);
      assert.equal((await fetch(`${limited.origin}/channel-elements.js`)).status, 429);
    } finally {
      await limited.stop();
    }
  });

  test('a new database gets every migration once, recorded; a restart applies none again', async () => {
    const database = await testDatabase();
    const dataDir = join(tmp, 'data-migrations');
    const first = await startTestServer({ port: 0, dataDir, siteDir, distDir }, database);
    try {
      const versions = async (server: RunningServer) =>
        (await server.db.all('SELECT version, applied_at FROM schema_migrations ORDER BY version')).map((row) => ({
          version: Number(row.version),
          at: Number(row.applied_at),
        }));
      const applied = await versions(first);
      assert.deepEqual(
        applied.map((m) => m.version),
        Array.from({ length: ChannelDb.schemaVersion }, (_, i) => i + 1),
      );
      await first.stop();
      const second = await startTestServer({ port: 0, dataDir, siteDir, distDir }, database);
      try {
        assert.deepEqual(await versions(second), applied, 'nothing applied twice');
      } finally {
        await second.stop();
      }
    } finally {
      await database.drop();
    }
  });

  test('the database persists api keys across restarts', async () => {
    const dataDir = join(tmp, 'data-persist');
    const database = await testDatabase();
    const first = await startTestServer({ port: 0, dataDir, siteDir, distDir }, database);
    const key = (
      (await await fetch(`${first.origin}/api/get_api_key`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ channel_key: 'demo' }),
      }).then((r) => r.json())) as { data: { api_key: string } }
    ).data.api_key;
    await first.stop();
    const second = await startTestServer({ port: 0, dataDir, siteDir, distDir }, database);
    try {
      const res = await fetch(`${second.origin}/api/geo?api_key=${key}`);
      assert.equal(res.status, 200);
      z.object({ data: z.object({ ip: z.string() }) }).parse(await res.json());
    } finally {
      await second.stop();
      await database.drop();
    }
  });

  test("a production start fixes a seeded database's event clock once: a restart later moves no event", async () => {
    const dataDir = join(tmp, 'data-clock');
    const database = await testDatabase();
    let now = Date.UTC(2030, 5, 15, 18, 0, 0);
    const times = async (server: RunningServer) => {
      const key = (
        (await fetch(`${server.origin}/api/get_api_key`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ channel_key: 'demo' }),
        }).then((r) => r.json())) as { data: { api_key: string } }
      ).data.api_key;
      const page = (await fetch(`${server.origin}/api/events?api_key=${key}&limit=500`).then((r) => r.json())) as {
        data: Array<{ id: number; event_utc_ts: number }>;
      };
      return new Map(page.data.map((e) => [e.id, e.event_utc_ts]));
    };
    const first = await startTestServer({ port: 0, dataDir, siteDir, distDir, now: () => now }, database);
    const before = await times(first);
    await first.stop();
    now += 7 * 3600_000;
    const second = await startTestServer({ port: 0, dataDir, siteDir, distDir, now: () => now }, database);
    try {
      assert.ok(before.size > 10);
      assert.deepEqual(await times(second), before, 'every event where the first start put it');
      const clock = await second.db.get("SELECT value FROM meta WHERE key = 'event_clock'");
      assert.equal(clock?.value, 'utc');
    } finally {
      await second.stop();
      await database.drop();
    }
  });
});
