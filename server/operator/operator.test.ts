/**
 * The operator API over HTTP, on the demo channel of an in-process server (harness.ts) with its operator listener:
 * who may do what, ETags and If-Match, Idempotency-Key replays, field errors, the audit log, and events made,
 * moved and cancelled as the channel API then shows them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Harness, request, type Answer } from '../testing/harness.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentProvider } from '../commerce/providers/provider.js';
import { log } from '../observability/log.js';
import { operatorListener } from './operator-api.js';
import { addOperator } from './operators.js';
import { openApiDocument } from './openapi.js';
import { exportChannel } from '../fixtures/export.js';
import { clockAnchor } from '../catalog/events.js';

const h = new Harness({ operatorPort: 0 });
let owner = '';
let editor = '';
let channelId = 0;

const api = (path: string) => `http://127.0.0.1:${h.server.operatorPort}/operator/v1${path}`;
function call(
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return request(api(path), {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

before(async () => {
  await h.start();
  channelId = Number((await h.server.db.get("SELECT id FROM channels WHERE channel_key = 'demo'"))!.id);
  owner = (await addOperator(h.server.db, channelId, 'owner@example.com', 'owner', h.nowMs)).token;
  editor = (await addOperator(h.server.db, channelId, 'editor@example.com', 'editor', h.nowMs)).token;
});
after(() => h.stop());

describe('the operator API', () => {
  test('refuses a call without a token, with an unknown one, or for another channel', async () => {
    assert.equal((await call(undefined, 'GET', '/channels/demo')).status, 401);
    const unknown = await call('chop_nothing', 'GET', '/channels/demo');
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.error, 'unauthorized');
    const other = await call(owner, 'GET', '/channels/demo-fr');
    assert.equal(other.status, 403);
    const mine = await call(editor, 'GET', '/channels/demo');
    assert.equal(mine.status, 200);
    assert.equal(mine.body.data.key, 'demo');
    assert.match(String(mine.headers.get('etag')), /^"[\w-]+"$/);
  });

  test('exports the channel as the command line does, to an editor too, without secrets or accounts', async () => {
    const answer = await call(editor, 'GET', '/channels/demo/export');
    assert.equal(answer.status, 200);
    const file = answer.body.data as { channel_key: string; events: Array<{ starts_at?: string }>; users?: unknown };
    const direct = await exportChannel(h.server.db, 'demo', {
      anchor: await clockAnchor(h.server.db, Math.floor(h.nowMs / 1000)),
      now: Math.floor(h.nowMs / 1000),
    });
    assert.deepEqual(file, JSON.parse(JSON.stringify(direct)));
    assert.equal(file.channel_key, 'demo');
    assert.ok(file.events.length > 0 && file.events.every((event) => typeof event.starts_at === 'string'));
    assert.equal(file.users, undefined);
    assert.doesNotMatch(JSON.stringify(file), /sk_(test|live)_|whsec_|chop_/);
  });

  test('an editor can neither read nor set secrets, nor add operators, nor read the audit log', async () => {
    assert.equal((await call(editor, 'GET', '/channels/demo/secrets')).status, 403);
    const put = await call(editor, 'PUT', '/channels/demo/secrets/google', { client_secret: 'a-google-secret' });
    assert.equal(put.status, 403);
    assert.equal(put.body.error, 'forbidden');
    const add = await call(editor, 'POST', '/channels/demo/operators', { email: 'x@example.com', role: 'owner' });
    assert.equal(add.status, 403);
    assert.equal((await call(editor, 'GET', '/channels/demo/audit')).status, 403);
    const row = await h.server.db.get("SELECT count(*) AS n FROM operators WHERE email = 'x@example.com'");
    assert.equal(Number(row!.n), 0);
  });

  test('an owner sets secrets, which are never read back nor written in the audit log', async () => {
    const value = 'sk_test_operatorApiSecretValue123';
    const hook = 'whsec_operatorApiWebhookValue456';
    const bad = await call(owner, 'PUT', '/channels/demo/secrets/stripe', {
      secret_key: 'pk_test_x',
      webhook_secret: 'nope',
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(Object.keys(bad.body.errors).sort(), ['secret_key', 'webhook_secret']);
    assert.doesNotMatch(JSON.stringify(bad.body), /pk_test_x/);
    const put = await call(owner, 'PUT', '/channels/demo/secrets/stripe', { secret_key: value, webhook_secret: hook });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.data.stripe_secret_key.set, true);
    assert.equal(put.body.data.google_client_secret.set, false);
    const read = await call(owner, 'GET', '/channels/demo/secrets');
    assert.doesNotMatch(JSON.stringify(read.body), /operatorApi/);
    const log = await call(owner, 'GET', '/channels/demo/audit?limit=5');
    const entry = log.body.data.find((e: { resource: string }) => e.resource === 'secrets');
    assert.equal(entry.actor, 'owner@example.com');
    assert.equal(entry.action, 'set');
    assert.deepEqual(entry.after, { stripe_secret_key: 'set', stripe_webhook_secret: 'set' });
    const rows = await h.server.db.all('SELECT before_json, after_json FROM operator_audit');
    assert.doesNotMatch(JSON.stringify(rows), /operatorApi/);
    const removed = await call(owner, 'DELETE', '/channels/demo/secrets/stripe');
    assert.equal(removed.body.data.stripe_secret_key.set, false);
  });

  test('an owner adds an operator, whose token works until it is revoked', async () => {
    const added = await call(owner, 'POST', '/channels/demo/operators', { email: 'new@example.com', role: 'editor' });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const token = String(added.body.data.token);
    assert.match(token, /^chop_/);
    assert.equal((await call(token, 'GET', '/channels/demo/categories')).status, 200);
    const list = await call(owner, 'GET', '/channels/demo/operators');
    assert.doesNotMatch(JSON.stringify(list.body), new RegExp(token));
    const revoked = await call(owner, 'DELETE', `/channels/demo/tokens/${added.body.data.token_id}`);
    assert.equal(revoked.status, 204);
    assert.equal((await call(token, 'GET', '/channels/demo/categories')).status, 401);
  });

  test('two owners removed at once: one goes, the other stays, the channel keeps an owner', async () => {
    const made = await call(owner, 'POST', '/channels', { key: 'two-owners', name: 'Two owners' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const first = String(made.body.data.owner.token);
    const second = await call(first, 'POST', '/channels/two-owners/operators', {
      email: 'b@example.com',
      role: 'owner',
    });
    assert.equal(second.status, 201, JSON.stringify(second.body));
    const ids = ((await call(first, 'GET', '/channels/two-owners/operators')).body.data as Array<{ id: number }>).map(
      (o) => o.id,
    );
    assert.equal(ids.length, 2);
    const removed = await Promise.all(ids.map((id) => call(first, 'DELETE', `/channels/two-owners/operators/${id}`)));
    assert.deepEqual(removed.map((r) => r.status).sort(), [204, 409]);
    assert.match(String(removed.find((r) => r.status === 409)!.body.message), /last owner/);
    const left = await h.server.db.all(
      "SELECT o.id FROM operators o JOIN channels c ON c.id = o.channel_id WHERE c.channel_key = 'two-owners' AND o.role = 'owner' AND o.removed_at IS NULL",
    );
    assert.equal(left.length, 1);
  });

  test('a category or menu item can be neither its own parent nor its own ancestor (422 parent_id)', async () => {
    for (const resource of ['categories', 'menu']) {
      const make = async (body: Record<string, unknown>) => {
        const made = await call(editor, 'POST', `/channels/demo/${resource}`, body);
        assert.equal(made.status, 201, JSON.stringify(made.body));
        return made.body.data.id as number;
      };
      const top = await make({ name: `Top ${resource}` });
      const middle = await make({ name: `Middle ${resource}`, parent_id: top });
      const leaf = await make({ name: `Leaf ${resource}`, parent_id: middle });
      for (const parent of [top, leaf, middle]) {
        const loop = await call(editor, 'PATCH', `/channels/demo/${resource}/${top}`, { parent_id: parent });
        assert.equal(loop.status, 422, `${resource}: ${top} under ${parent}`);
        assert.deepEqual(Object.keys(loop.body.errors), ['parent_id']);
      }
      const self = await call(editor, 'PATCH', `/channels/demo/${resource}/${middle}`, { parent_id: middle });
      assert.equal(self.status, 422);
      assert.match(self.body.errors.parent_id, /own ancestor/);
      // A move that makes no loop is fine, and so is leaving the tree.
      assert.equal((await call(editor, 'PATCH', `/channels/demo/${resource}/${leaf}`, { parent_id: top })).status, 200);
      assert.equal(
        (await call(editor, 'PATCH', `/channels/demo/${resource}/${middle}`, { parent_id: null })).status,
        200,
      );
      const read = await call(editor, 'GET', `/channels/demo/${resource}/${top}`);
      assert.equal(read.body.data.parent_id, null);
    }
  });

  test("a slide is about the home page, or a category, participant or group of the channel's (422 naming the field)", async () => {
    const slide = (body: Record<string, unknown>) =>
      call(editor, 'POST', '/channels/demo/slides', { title: 'S', ...body });
    const bogus = await slide({ slidable_type: 'planet', slidable_id: 1 });
    assert.equal(bogus.status, 422);
    assert.deepEqual(Object.keys(bogus.body.errors), ['slidable_type']);
    const otherChannels = await h.server.db.get(
      "SELECT min(c.id) AS id FROM categories c JOIN channels ch ON ch.id = c.channel_id WHERE ch.channel_key <> 'demo'",
    );
    for (const [type, id] of [
      ['category', 999_999_999],
      ['category', Number(otherChannels!.id)],
      ['participant', 999_999_999],
      ['group', 999_999_999],
    ] as const) {
      const missing = await slide({ slidable_type: type, slidable_id: id });
      assert.equal(missing.status, 422, `${type} ${id}`);
      assert.deepEqual(Object.keys(missing.body.errors), ['slidable_id']);
    }
    assert.deepEqual(Object.keys((await slide({ slidable_type: 'group' })).body.errors), ['slidable_id']);
    assert.deepEqual(Object.keys((await slide({ slidable_id: 1 })).body.errors), ['slidable_id']);
    const category = (await call(editor, 'POST', '/channels/demo/categories', { name: 'Slid' })).body.data.id as number;
    const made = await slide({ slidable_type: 'category', slidable_id: category });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const moved = await call(editor, 'PATCH', `/channels/demo/slides/${made.body.data.id}`, { slidable_type: 'group' });
    assert.equal(moved.status, 422, 'the category id names no group');
    assert.deepEqual(Object.keys(moved.body.errors), ['slidable_id']);
    assert.equal((await slide({})).status, 201, 'a main slide');
  });

  test('a bad body is refused naming every field and its problem', async () => {
    const res = await call(editor, 'POST', '/channels/demo/events', {
      name: '',
      type: 'concert',
      starts_at: 'tomorrow',
      time_zone: 'Mars/Olympus',
      duration_minutes: -5,
      participant_ids: [1, 'two'],
      colour: 'red',
    });
    assert.equal(res.status, 422);
    assert.equal(res.body.error, 'invalid');
    assert.deepEqual(Object.keys(res.body.errors).sort(), [
      'colour',
      'duration_minutes',
      'name',
      'participant_ids.1',
      'starts_at',
      'time_zone',
      'type',
    ]);
    assert.match(res.body.errors.time_zone, /IANA/);
    const missing = await call(editor, 'POST', '/channels/demo/faq', {});
    assert.deepEqual(missing.body.errors, { question: 'is required', answer: 'is required' });
    const refs = await call(editor, 'POST', '/channels/demo/events', {
      name: 'Refs',
      type: 'paid',
      starts_at: '2030-07-01T18:00:00Z',
      time_zone: 'America/Chicago',
      category_id: 999999,
    });
    assert.deepEqual(Object.keys(refs.body.errors).sort(), ['category_id', 'price']);
  });

  test('a replayed create with the same Idempotency-Key makes one record; another body with it is refused', async () => {
    const key = { 'Idempotency-Key': crypto.randomUUID() };
    const body = { question: 'Replayed?', answer: 'Once.' };
    const [first, second] = await Promise.all([
      call(editor, 'POST', '/channels/demo/faq', body, key),
      call(editor, 'POST', '/channels/demo/faq', body, key),
    ]);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(second.status, 201, JSON.stringify(second.body));
    assert.equal(first.body.data.id, second.body.data.id);
    const third = await call(editor, 'POST', '/channels/demo/faq', body, key);
    assert.equal(third.body.data.id, first.body.data.id);
    assert.equal(third.headers.get('idempotency-replayed'), 'true');
    // A token is shown once: a replayed operator create answers none, and the database keeps none.
    const opKey = { 'Idempotency-Key': crypto.randomUUID() };
    const made = await call(
      owner,
      'POST',
      '/channels/demo/operators',
      { email: 'twice@example.com', role: 'editor' },
      opKey,
    );
    const again = await call(
      owner,
      'POST',
      '/channels/demo/operators',
      { email: 'twice@example.com', role: 'editor' },
      opKey,
    );
    assert.equal(again.status, 201);
    assert.equal(again.body.data.id, made.body.data.id);
    assert.equal(again.body.data.token, null);
    const kept = await h.server.db.all('SELECT answer_json FROM operator_idempotency');
    assert.doesNotMatch(JSON.stringify(kept), new RegExp(String(made.body.data.token)));
    const rows = await h.server.db.get("SELECT count(*) AS n FROM faq WHERE question = 'Replayed?'");
    assert.equal(Number(rows!.n), 1);
    const other = await call(editor, 'POST', '/channels/demo/faq', { ...body, answer: 'Twice.' }, key);
    assert.equal(other.status, 422);
    assert.equal(other.body.error, 'idempotency_mismatch');
  });

  test('an event made, moved and cancelled shows so in the channel API; two edits with one ETag: one 409', async () => {
    const team = async (name: string) =>
      (await call(editor, 'POST', '/channels/demo/participants', { name })).body.data.id as number;
    const [away, home] = [await team('Away Team'), await team('Home Team')];
    const startsAt = new Date(h.nowMs + 2 * 86400_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const made = await call(editor, 'POST', '/channels/demo/events', {
      name: 'Operator Cup Final',
      type: 'ppv',
      starts_at: startsAt,
      time_zone: 'America/Chicago',
      price: 12.5,
      participant_ids: [away, home],
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const event = made.body.data;
    assert.equal(event.status, 'upcoming');
    assert.equal(event.starts_at, startsAt);
    assert.equal(event.home_team_id, home);
    assert.ok(event.single_event_package_id);
    const seen = await h.api(`events/${event.id}`);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.data.event_utc_ts, Date.parse(startsAt) / 1000);
    assert.equal(seen.body.data.time_zone, 'America/Chicago');
    assert.equal(seen.body.data.price, 12.5);
    const listed = await h.api('events', undefined, 'limit=500');
    assert.ok(listed.body.data.some((e: { id: number }) => e.id === event.id));

    const etag = String(made.headers.get('etag'));
    const later = new Date(Date.parse(startsAt) + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const [a, b] = await Promise.all([
      call(editor, 'PATCH', `/channels/demo/events/${event.id}`, { starts_at: later }, { 'If-Match': etag }),
      call(editor, 'PATCH', `/channels/demo/events/${event.id}`, { name: 'Renamed' }, { 'If-Match': etag }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 409]);
    const conflict = a.status === 409 ? a : b;
    assert.equal(conflict.body.error, 'conflict');
    const winner = a.status === 200 ? a : b;
    assert.equal(conflict.body.etag, winner.headers.get('etag'));
    if (winner === b)
      assert.equal(
        (await call(editor, 'PATCH', `/channels/demo/events/${event.id}`, { starts_at: later })).status,
        200,
      );
    const moved = await h.api(`events/${event.id}`);
    assert.equal(moved.body.data.event_utc_ts, Date.parse(later) / 1000);

    const cancelled = await call(editor, 'POST', `/channels/demo/events/${event.id}/cancel`);
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.data.status, 'cancelled');
    assert.equal((await h.api(`events/${event.id}`)).status, 404);
    const after = await h.api('events', undefined, 'limit=500');
    assert.ok(!after.body.data.some((e: { id: number }) => e.id === event.id));

    const log = await call(owner, 'GET', '/channels/demo/audit?limit=20');
    const actions = log.body.data
      .filter(
        (e: { resource: string; record_id: string }) => e.resource === 'events' && e.record_id === String(event.id),
      )
      .map((e: { action: string }) => e.action);
    assert.deepEqual(actions.slice(0, 2), ['cancel', 'update']);
    assert.ok(actions.includes('create'));
    const update = log.body.data.find(
      (e: { action: string; resource: string }) => e.action === 'update' && e.resource === 'events',
    );
    assert.equal(update.before.starts_at === update.after.starts_at && update.before.name === update.after.name, false);
  });

  test("an event's ETag holds when it goes live with no edit; the export times it as the server does", async () => {
    const saved = h.nowMs;
    try {
      const startsAt = new Date(h.nowMs + 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
      const made = await call(editor, 'POST', '/channels/demo/events', {
        name: 'Goes Live Soon',
        type: 'free',
        starts_at: startsAt,
        time_zone: 'UTC',
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.data.status, 'upcoming');
      h.nowMs += 5 * 60_000;
      const live = await call(editor, 'GET', `/channels/demo/events/${made.body.data.id}`);
      assert.equal(live.body.data.status, 'live');
      assert.equal(live.headers.get('etag'), made.headers.get('etag'), 'no edit: the same ETag');
      const renamed = await call(
        editor,
        'PATCH',
        `/channels/demo/events/${made.body.data.id}`,
        { name: 'Live Now' },
        { 'If-Match': String(made.headers.get('etag')) },
      );
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.notEqual(renamed.headers.get('etag'), made.headers.get('etag'));
      h.nowMs += 3 * 3600_000;
      const file = (await call(editor, 'GET', '/channels/demo/export')).body.data as {
        events: Array<{ name: string; starts_at?: string }>;
      };
      assert.equal(file.events.find((e) => e.name === 'Live Now')?.starts_at, startsAt);
    } finally {
      h.nowMs = saved;
    }
  });

  test('a cancelled event: its stream URL signed before is refused, and oEmbed no longer answers it', async () => {
    const made = await call(editor, 'POST', '/channels/demo/events', {
      name: 'Free And Live',
      type: 'free',
      starts_at: new Date(h.nowMs - 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      time_zone: 'UTC',
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.data.id as number;
    const seen = await h.api(`events/${id}`);
    assert.equal(seen.body.data.stream_status, 'live');
    const url = Harness.mediaUrl(seen.body.data, 'live');
    assert.ok(url, JSON.stringify(seen.body.data.media));
    assert.equal((await h.call(url)).status, 200);
    const oembed = `${h.server.origin}/oembed?format=json&url=${encodeURIComponent(`${h.server.origin}/site/watch/${id}`)}`;
    assert.equal((await request(oembed)).status, 200);

    assert.equal((await call(editor, 'POST', `/channels/demo/events/${id}/cancel`)).status, 200);
    const refused = await h.call(url);
    assert.equal(refused.status, 404);
    assert.equal((await request(oembed)).status, 404);
  });

  test('settings are merged and checked as the settings are: a bad URL is named', async () => {
    const bad = await call(owner, 'PATCH', '/channels/demo', {
      settings: { site_url: 'javascript:alert(1)', logo: 'ftp://x' },
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(Object.keys(bad.body.errors).sort(), ['settings.logo', 'settings.site_url']);
    assert.equal((await call(editor, 'PATCH', '/channels/demo', { settings: { logo: null } })).status, 403);
    const good = await call(owner, 'PATCH', '/channels/demo', { settings: { site_url: 'https://tv.example.com/' } });
    assert.equal(good.status, 200, JSON.stringify(good.body));
    assert.equal(good.body.data.settings.site_url, 'https://tv.example.com/');
    assert.ok(good.body.data.settings.language, 'the other settings stay');
    const served = await h.keyless('settings');
    assert.equal(served.body.data.site_url, 'https://tv.example.com/');
  });

  test('an owner creates a channel, owned by the caller, with a token shown once', async () => {
    const made = await call(owner, 'POST', '/channels', { key: 'second-channel', name: 'Second', currency: 'EUR' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const token = String(made.body.data.owner.token);
    const mine = await call(token, 'GET', '/channels/second-channel');
    assert.equal(mine.body.data.settings.currency, 'EUR');
    // The channel API serves it at once: its settings, an api key, its (empty) schedule.
    const settings = await h.call('/api/settings?channel_key=second-channel');
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    assert.equal(settings.body.data.name, 'Second');
    const key = await h.apiKey('second-channel');
    const events = await h.call(`/api/events?api_key=${key}`);
    assert.equal(events.status, 200, JSON.stringify(events.body));
    assert.deepEqual(events.body.data, []);
    const again = await call(owner, 'POST', '/channels', { key: 'second-channel', name: 'Again' });
    assert.deepEqual(Object.keys(again.body.errors), ['key']);
    assert.equal((await call(editor, 'POST', '/channels', { key: 'third', name: 'Third' })).status, 403);
  });

  test('every catalogue resource is listed, made, read, changed and removed, each change audited', async () => {
    const category = (await call(editor, 'POST', '/channels/demo/categories', { name: 'Curling' })).body.data.id;
    const item = (
      await call(editor, 'POST', '/channels/demo/library-items', { title: 'Replay', type: 'free', date: '2030-01-02' })
    ).body.data.id;
    const bodies: Record<string, [Record<string, unknown>, Record<string, unknown>]> = {
      categories: [{ name: "Women's Curling", parent_id: category }, { sport: 'curling' }],
      'participant-groups': [{ name: 'North School', properties: { conference: 'North' } }, { alias: 'north' }],
      participants: [{ name: 'Rockets', logo: 'https://img.example.com/rockets.png' }, { color: '#112233' }],
      locations: [{ name: 'Arena', time_zone: 'Europe/Paris' }, { city: 'Paris' }],
      events: [
        { name: 'Open', type: 'free', starts_at: '2030-07-01T18:00:00Z', time_zone: 'UTC', category_id: category },
        { duration_minutes: 90 },
      ],
      packages: [{ name: 'Curling Pass', type: 'category', price: 20, category_ids: [category] }, { price: 25 }],
      subscriptions: [{ name: 'Monthly', offer: 'monthly', period: 'month', price: 5 }, { trial_period: 7 }],
      coupons: [{ code: 'CURL10', percent: 10 }, { percent: 15 }],
      prerolls: [{ name: 'Bars', media: 'bars', for_live: true, category_ids: [category] }, { weight: 3 }],
      'library-categories': [{ name: 'Highlights' }, { alias: 'highlights' }],
      'library-items': [{ title: 'Best of', type: 'register' }, { duration: 60 }],
      'library-rails': [{ title: 'Top', item_ids: [item] }, { title: 'Top picks' }],
      pages: [
        { name: 'About', url: '/about', alias: 'about-us', blocks: [{ type: 'paragraph', html: '<p>Who we are</p>' }] },
        { alt_name: 'Who' },
      ],
      menu: [{ name: 'Shop', url: '/shop' }, { custom_icon: 'cart' }],
      slides: [{ title: 'Welcome', image: '/media/slide.png' }, { link: 'https://example.com/' }],
      faq: [{ question: 'Why?', answer: 'Because.' }, { answer: 'Just because.' }],
      forms: [{ alias: 'tip-off', name: 'Tips', fields: [{ name: 'tip', type: 'text' }] }, { name: 'Tip-offs' }],
    };
    for (const [resource, [create, patch]] of Object.entries(bodies)) {
      const made = await call(editor, 'POST', `/channels/demo/${resource}`, create);
      assert.equal(made.status, 201, `${resource}: ${JSON.stringify(made.body)}`);
      const id = made.body.data.id as number;
      for (const [field, value] of Object.entries(create))
        assert.deepEqual(made.body.data[field], value, `${resource}.${field}`);
      const read = await call(editor, 'GET', `/channels/demo/${resource}/${id}`);
      assert.deepEqual(read.body.data, made.body.data, resource);
      const changed = await call(editor, 'PATCH', `/channels/demo/${resource}/${id}`, patch, {
        'If-Match': String(read.headers.get('etag')),
      });
      assert.equal(changed.status, 200, `${resource}: ${JSON.stringify(changed.body)}`);
      for (const [field, value] of Object.entries(patch))
        assert.deepEqual(changed.body.data[field], value, `${resource}.${field}`);
      const page = await call(editor, 'GET', `/channels/demo/${resource}?limit=500`);
      assert.equal(page.status, 200);
      assert.ok(
        page.body.data.some((r: { id: number }) => r.id === id),
        `${resource} lists it`,
      );
      assert.equal(page.body.meta.limit, 500);
      const stale = await call(editor, 'DELETE', `/channels/demo/${resource}/${id}`, undefined, {
        'If-Match': String(made.headers.get('etag')),
      });
      assert.equal(stale.status, 409, resource);
      assert.equal((await call(editor, 'DELETE', `/channels/demo/${resource}/${id}`)).status, 204, resource);
      assert.equal((await call(editor, 'GET', `/channels/demo/${resource}/${id}`)).status, 404, resource);
      const log = await call(owner, 'GET', '/channels/demo/audit?limit=3');
      assert.deepEqual(
        log.body.data.map((e: { action: string; resource: string; record_id: string }) => [
          e.action,
          e.resource,
          e.record_id,
        ]),
        [
          ['delete', resource, String(id)],
          ['update', resource, String(id)],
          ['create', resource, String(id)],
        ],
      );
    }
    const used = await call(editor, 'DELETE', `/channels/demo/categories/${category}`);
    assert.equal(used.status, 204, 'nothing names it any more');
  });

  test("a participant's logo is uploaded as an image, which every process serves from the database", async () => {
    const team = (await call(editor, 'POST', '/channels/demo/participants', { name: 'Logo Team' })).body.data;
    // A 1×1 PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = (body: Buffer, type: string) =>
      request(api(`/channels/demo/participants/${team.id}/logo`), {
        method: 'PUT',
        headers: { Authorization: `Bearer ${editor}`, 'Content-Type': type },
        body: new Uint8Array(body),
      });
    assert.equal((await upload(Buffer.from('<svg/>'), 'image/svg+xml')).status, 415);
    const fake = await upload(Buffer.from('not a png at all'), 'image/png');
    assert.equal(fake.status, 422);
    assert.deepEqual(Object.keys(fake.body.errors), ['body']);
    const res = await upload(png, 'image/png');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.data.logo, /^\/media\/uploads\/[0-9a-f]{32}\.png$/);
    const listed = await h.keyless('participants', 'no_limit=1');
    const served = listed.body.data.find((p: { id: number }) => p.id === team.id);
    assert.equal(served.images.logo, `${h.base}${res.body.data.logo}`);
    const image = await fetch(served.images.logo);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await image.arrayBuffer()), png);
  });

  test("packages and subscriptions are synced to the processor's prices once written, and keep its price id", async () => {
    const synced: Array<Record<string, unknown>> = [];
    const provider = {
      syncPrice: async (product: Record<string, unknown>) => {
        synced.push(product);
        return `price_${String(product.kind)}_${String(product.amount)}`;
      },
    } as unknown as PaymentProvider;
    // The same API over the same database, with a processor that syncs prices (the demo's double may not).
    const server = createServer(
      operatorListener({
        db: h.server.db,
        nowMs: () => h.nowMs,
        clock: () => ({ anchor: 0, now: Math.floor(h.nowMs / 1000) }),
        scriptOrigins: [],
        channels: {
          settingsChanged: async () => undefined,
          storeSettings: async () => undefined,
          settingsOf: () => ({ currency: 'EUR' }),
        },
        payments: (key) => (key === 'demo' ? provider : undefined),
        logger: log(),
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/operator/v1/channels/demo`;
    const send = (method: string, path: string, body: unknown) =>
      request(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${editor}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    try {
      const sub = await send('POST', '/subscriptions', {
        name: 'Yearly',
        offer: 'annual',
        period: 'annual',
        price: 50,
      });
      assert.equal(sub.status, 201, JSON.stringify(sub.body));
      assert.equal(sub.body.data.processor_price, 'price_subscription_50');
      assert.deepEqual(synced[0], {
        kind: 'subscription',
        id: sub.body.data.id,
        name: 'Yearly',
        amount: 50,
        currency: 'EUR',
        interval: 'year',
        previous: null,
      });
      const changed = await send('PATCH', `/subscriptions/${sub.body.data.id}`, { price: 60 });
      assert.equal(changed.body.data.processor_price, 'price_subscription_60');
      assert.equal(synced[1]!.previous, 'price_subscription_50');
      const pkg = await send('POST', '/packages', { name: 'Pass', type: 'category', price: 15 });
      assert.equal(pkg.body.data.processor_price, 'price_package_15');
      assert.equal(synced[2]!.interval, undefined);
      const row = await h.server.db.get('SELECT processor_price FROM packages WHERE id = ?', [pkg.body.data.id]);
      assert.equal(row!.processor_price, 'price_package_15');
    } finally {
      server.close();
    }
  });

  test('serves its OpenAPI 3.1 document, which docs/operator-api.json is', async () => {
    const res = await call(undefined, 'GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    assert.deepEqual(res.body, JSON.parse(JSON.stringify(openApiDocument())));
    assert.ok(res.body.paths['/channels/{key}/events/{id}/cancel']);
  });
});
