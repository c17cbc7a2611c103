/**
 * The tolerant rule every answer is read by (src/api/schema-kit.ts), rule by rule, through the contract's own schemas
 * as a channel API built to the spec by another back end writes its JSON (a Laravel/MySQL one's habits), and the
 * negative side: what is required stays required. Then the client: a record a list leaves out is reported once to the
 * logging endpoint (endpoint, id, field; never the viewer's data) and the rest of the answer is read.
 */
import { expect } from '@open-wc/testing';
import { ApiClient } from '../../../src/api/client.js';
import {
  DatalakeAnswer,
  DatalakeHash,
  ErrorBody,
  Event,
  EventCategory,
  EventList,
  Favourites,
  Order,
  Package,
  Participant,
  ParticipantGroup,
  Slide,
  User,
  endpoints,
} from '../../../src/api/contract.js';
import { InvalidResponseError } from '../../../src/api/errors.js';
// The browser's settings (contract.ts gives the server's stricter ones under the same name).
import { Settings } from '../../../src/api/channel-schemas.js';
import { prerollOptionsOf, prerollsOf } from '../../../src/api/preroll-schemas.js';
import { readAnswer } from '../../../src/api/schema-kit.js';
import { installWorld, ok, settle, teardown, type World } from '../helpers.js';

const EVENT = { id: 7, name: 'Final', event_utc_ts: 1_705_000_000, stream_status: 'live' };
/** What a Laravel model adds to every record. */
const LARAVEL = { created_at: '2026-01-02 10:00:00', updated_at: '2026-01-02 10:00:00', deleted_at: null };

describe('the tolerant reader', () => {
  it('ignores unknown fields (timestamps, pivots)', () => {
    const read = Event.parse({ ...EVENT, ...LARAVEL, pivot: { event_id: 7, package_id: 2 } });
    expect(read).to.not.have.property('pivot');
    expect(read).to.not.have.property('updated_at');
    expect(read.name).to.equal('Final');
  });

  it('reads flags written true/false, 1/0 and "1"/"0"', () => {
    for (const [raw, want] of [
      [true, true],
      [1, true],
      ['1', true],
      [false, false],
      [0, false],
      ['0', false],
    ] as const) {
      expect(Event.parse({ ...EVENT, has_access: raw }).has_access, JSON.stringify(raw)).to.equal(want);
      expect(Settings.parse({ auth: { remote_auth: raw } }).auth.remote_auth, JSON.stringify(raw)).to.equal(want);
    }
  });

  it('reads ids and numbers written as numeric strings', () => {
    const read = Event.parse({ ...EVENT, id: '7', event_utc_ts: '1705000000', price: '9.99', location_id: '12' });
    expect([read.id, read.event_utc_ts, read.price, read.location_id]).to.deep.equal([7, 1_705_000_000, 9.99, 12]);
    const pack = Package.parse({ id: '3', name: 'Pass', price: '19.50', event_categories: ['1', 2], weight: '-1' });
    expect([pack.id, pack.price, pack.event_categories, pack.weight]).to.deep.equal([3, 19.5, [1, 2], -1]);
  });

  it('gives optional fields null or absent their spec defaults', () => {
    const settings = Settings.parse({ language: null, currency: null, auth: null, static_blocks: null });
    expect([settings.language, settings.currency, settings.auth]).to.deep.equal(['en', 'USD', { remote_auth: false }]);
    expect(settings.static_blocks).to.equal(null);
    expect(Settings.parse({}).currency).to.equal('USD');
    const event = Event.parse({ ...EVENT, type: null, has_recording: null, participants: null, media: null });
    expect([event.type, event.has_recording, event.participants, event.media]).to.deep.equal(['free', true, [], []]);
    expect(Slide.parse({ id: 1, slidable_type: null }).slidable_type).to.equal('main');
  });

  it('falls back to the name for a team’s or a school’s alias', () => {
    expect(Participant.parse({ id: 1, name: 'Hawks', alias: null }).alias).to.equal('Hawks');
    expect(Participant.parse({ id: 1, name: 'Hawks', alias: 'hawks' }).alias).to.equal('hawks');
    expect(ParticipantGroup.parse({ id: 2, name: 'Springfield High' }).alias).to.equal('Springfield High');
    const club = Participant.parse({ id: 1, name: 'Club', children: [{ id: 2, name: 'U18', alias: '' }] });
    expect(club.children?.[0]?.alias).to.equal('U18');
  });

  it('reads `[]` where an object belongs as an empty object', () => {
    const event = Event.parse({
      ...EVENT,
      participants: [{ id: 1, name: 'Hawks', images: [], properties: [] }],
    });
    expect(event.participants[0]!.images).to.deep.equal({});
    const settings = Settings.parse({ static_blocks: [], auth: [], social: [] });
    expect([settings.static_blocks, settings.auth, settings.social]).to.deep.equal([{}, { remote_auth: false }, {}]);
    expect(ErrorBody.parse({ message: 'Invalid', errors: [] }).errors).to.deep.equal({});
    expect(Favourites.parse([])).to.deep.equal({
      participant: [],
      participant_group: [],
      event_category: [],
      favorite_event: [],
      event_location: [],
    });
  });

  it('reads settings field by field: a field it cannot read takes its default, the rest applies', () => {
    const settings = Settings.parse({
      name: 'Demo',
      language: 5,
      currency: ['EUR'],
      'google-analytics': { id: 'G-1' },
      static_blocks: 'footer',
      mux: { env_key: null },
      logo: 'https://cdn.test/logo.png',
    });
    expect(settings).to.deep.include({
      name: 'Demo',
      language: 'en',
      currency: 'USD',
      logo: 'https://cdn.test/logo.png',
    });
    expect([settings['google-analytics'], settings.static_blocks, settings.mux]).to.deep.equal([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('reads prerolls one by one, and their options leniently', () => {
    const read = prerollsOf([
      { id: 1, url: 'https://ads.test/1.m3u8', weight: null, for_live: '1' },
      { id: 2, weight: 3 },
      { id: '3', url: 'https://ads.test/3.m3u8', weight: '2', event_categories: [] },
    ]);
    expect(read.map((p) => [p.id, p.weight, p.for_live])).to.deep.equal([
      [1, 1, true],
      [3, 2, false],
    ]);
    expect(prerollsOf('none')).to.deep.equal([]);
    expect(prerollOptionsOf([])).to.deep.equal({});
    expect(prerollOptionsOf({ enabled: '0', suppression_minutes: '30' })).to.deep.equal({
      enabled: false,
      suppression_minutes: 30,
    });
  });

  it('keeps every record of a list it can read and notes the ones left out, with id and field', () => {
    const { result, dropped } = readAnswer(
      EventList,
      {
        data: [EVENT, { ...EVENT, id: 8, name: null, participants: 'Hawks, Owls' }, { ...EVENT, id: '9' }, 'x'],
        meta: { total: 4, offset: 0, limit: 10 },
      },
      'events',
    );
    expect(result.success).to.equal(true);
    expect(result.data!.data.map((e) => e.id)).to.deep.equal([7, 9]);
    expect(result.data!.meta).to.deep.equal({ total: 4, offset: 0, limit: 10, skipped: 2 });
    expect(dropped).to.deep.equal([
      'events: left out a record it cannot read (id 8, field name)',
      'events: left out a record it cannot read (#3, field (record))',
    ]);
  });

  it('reads Laravel’s pagination envelope (meta and links) as ours, and a list without meta as whole', () => {
    const laravel = EventList.parse({
      data: [EVENT],
      links: { first: 'https://api.test/events?page=1', next: null },
      meta: { current_page: 3, from: 21, last_page: 5, per_page: 10, to: 21, total: 41, path: 'x' },
    });
    expect(laravel.meta).to.deep.equal({ total: 41, offset: 20, limit: 10 });
    expect(EventList.parse({ data: [EVENT, EVENT] }).meta).to.deep.equal({ total: 2, offset: 0, limit: 2 });
  });

  it('keeps what is required required: an event without its id, name or time, a list that is not a list', () => {
    for (const broken of [
      { ...EVENT, id: undefined },
      { ...EVENT, id: 'seven' },
      { ...EVENT, name: null },
      { ...EVENT, event_utc_ts: 'tomorrow' },
      { ...EVENT, stream_status: null },
      [],
    ]) {
      expect(Event.safeParse(broken).success, JSON.stringify(broken)).to.equal(false);
    }
    expect(EventList.safeParse({ data: { 0: EVENT } }).success).to.equal(false);
    expect(EventList.safeParse({ data: null }).success).to.equal(false);
    expect(User.safeParse({ id: 3 }).success, 'a user without an email').to.equal(false);
    expect(Order.safeParse({ id: 1, type: 'event', status: 'paid', product: {} }).success).to.equal(false);
  });

  it('reads a profile without email_verified as unknown (the notice shows), and 0/1 when given', () => {
    expect(User.parse({ id: 3, email: 'a@b.test' }).email_verified).to.equal(undefined);
    expect(User.parse({ id: '3', email: 'a@b.test', email_verified: 0 }).email_verified).to.equal(false);
    expect(User.parse({ id: 3, email: 'a@b.test', email_verified: '1' }).email_verified).to.equal(true);
  });

  it('reads a record’s timestamps as a back end writes them: seconds, or a date and time (UTC without a zone)', () => {
    const order = (created_at: unknown) =>
      Order.parse({ id: '1', type: 'event', status: 'Paid', product: { id: '2', pivot: {} }, created_at }).created_at;
    expect(order(1_767_348_000)).to.equal(1_767_348_000);
    expect(order('1767348000')).to.equal(1_767_348_000);
    expect(order('2026-01-02T10:00:00.000000Z')).to.equal(1_767_348_000);
    expect(order('2026-01-02 10:00:00')).to.equal(1_767_348_000);
    expect(order('2026-01-02T11:00:00+01:00')).to.equal(1_767_348_000);
    expect(
      Order.safeParse({ id: 1, type: 'event', status: 'Paid', product: { id: 2 }, created_at: 'soon' }).success,
    ).to.equal(false);
  });

  it('reads the analytics service’s answers by the same rule', () => {
    expect(DatalakeHash.parse({ data: { hash: 'h-1', created_at: null }, meta: [] }).data.hash).to.equal('h-1');
    expect(DatalakeAnswer.parse({ data: { id: '12', session_uuid: null } }).data).to.deep.equal({
      id: 12,
      session_uuid: null,
    });
    expect(DatalakeHash.safeParse({ data: { hash: null } }).success, 'a hash is required').to.equal(false);
  });

  it('reads categories’ children by the list rule', () => {
    const sport = EventCategory.parse({ id: 1, name: 'Hockey', children: [{ id: 2, name: 'U18' }, { id: 3 }] });
    expect(sport.children?.map((c) => c.id)).to.deep.equal([2]);
  });
});

describe('the client with the tolerant reader', () => {
  let w: World;
  let client: ApiClient;
  const API = 'http://api.test/api';
  beforeEach(() => {
    w = installWorld();
    client = new ApiClient(
      { apiUrl: API },
      {
        channelKey: async () => 'ck-1',
        channelLabel: () => 'demo',
        apiKey: async () => 'ak-1',
        dropKeys: () => undefined,
        token: () => 'secret-token',
        onUnauthorized: () => undefined,
        onGlobalError: () => undefined,
      },
    );
  });
  afterEach(teardown);

  it('reports each record left out once (endpoint, id, field; no keys, no viewer data) and shows the rest', async () => {
    const bad = { ...EVENT, id: 8, name: null, description: 'viewer@example.test' };
    w.server.on('GET', `${API}/events`, {
      status: 200,
      body: { data: [EVENT, bad], meta: { total: 2, offset: 0, limit: 10 } },
    });
    const first = await client.call(endpoints.events, { cache: false, query: { team: 'hawks' } });
    expect(first.data.map((e) => e.name)).to.deep.equal(['Final']);
    await client.call(endpoints.events, { cache: false, query: { team: 'hawks' } });
    await w.advance(0);
    expect(w.server.logs).to.have.length(1);
    const entry = w.server.logs[0]!.body as Record<string, unknown>;
    expect(entry).to.deep.include({ status: 0, service: 'events', channel: 'demo' });
    expect(entry.message).to.equal('events: left out a record it cannot read (id 8, field name)');
    expect(entry.url).to.equal(`${API}/events?team=hawks`);
    expect(JSON.stringify(entry)).to.not.contain('viewer@example.test');
    expect(JSON.stringify(entry)).to.not.contain('ak-1');
    expect(JSON.stringify(entry)).to.not.contain('secret-token');
  });

  it('fails with InvalidResponseError when a single record misses what is required', async () => {
    w.server.on('GET', `${API}/events/8`, ok({ ...EVENT, id: 8, name: null }));
    const { error } = await settle(client.call(endpoints.event, { params: { id: 8 } }));
    expect(error).to.be.instanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).to.contain('data.name');
  });
});
