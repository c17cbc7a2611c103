/**
 * The tolerant rule every answer is read by (src/api/schema-kit.ts), rule by rule, through the contract's own schemas
 * as a channel API built to the spec by another back end writes its JSON (a Laravel/MySQL one's habits), and the
 * negative side: what is required stays required. Then the client: a record a list leaves out is reported once to the
 * logging endpoint (endpoint, id, field; never the viewer's data) and the rest of the answer is read.
 */
import { expect } from '@open-wc/testing';
import { ApiClient } from '../../../src/api/client.js';
import {
  Clip,
  Coupon,
  DatalakeAnswer,
  DatalakeHash,
  ErrorBody,
  Event,
  EventCategory,
  EventList,
  Favourites,
  Geo,
  Order,
  Package,
  Participant,
  ParticipantGroup,
  Pricing,
  Settings,
  Slide,
  Subscription,
  Transaction,
  User,
  UserAccess,
  VodItem,
  endpoints,
} from '../../../src/api/contract.js';
import { InvalidResponseError } from '../../../src/api/errors.js';
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

  it('reads flags written true/false, 1/0, "1"/"0" and "true"/"false" in any letter case', () => {
    for (const [raw, want] of [
      [true, true],
      [1, true],
      ['1', true],
      ['true', true],
      ['TRUE', true],
      ['True', true],
      [false, false],
      [0, false],
      ['0', false],
      ['false', false],
      ['FALSE', false],
    ] as const) {
      expect(Event.parse({ ...EVENT, has_recording: raw }).has_recording, JSON.stringify(raw)).to.equal(want);
      expect(Settings.parse({ auth: { remote_auth: raw } }).auth.remote_auth, JSON.stringify(raw)).to.equal(want);
    }
  });

  it('reads anything else as a flag it cannot read, never as false: an optional flag takes its default', () => {
    for (const raw of ['yes', 'no', 2, -1, '', ' 1', {}, []]) {
      expect(Event.parse({ ...EVENT, has_recording: raw }).has_recording, JSON.stringify(raw)).to.equal(true);
      expect(
        User.parse({ id: 3, email: 'a@b.test', email_verified: raw }).email_verified,
        JSON.stringify(raw),
      ).to.equal(undefined);
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

  it('reads colours, static blocks and social providers entry by entry: one it cannot read costs that entry only', () => {
    const colors = readAnswer(
      endpoints.colors.response,
      { data: { 'body-background': '#101010', 'header-text-color': null, 'footer-background': 5 } },
      'colors',
    );
    expect(colors.result.data!.data).to.deep.equal({ 'body-background': '#101010' });
    expect(colors.dropped).to.deep.equal([
      'colors: left out an entry it cannot read (field data.header-text-color)',
      'colors: left out an entry it cannot read (field data.footer-background)',
    ]);
    expect(readAnswer(endpoints.colors.response, { data: [] }, 'colors').result.data!.data).to.deep.equal({});
    const settings = readAnswer(
      endpoints.settings.response,
      {
        data: {
          static_blocks: { footer: { en: 'Hello', fr: null }, header: 'none', terms: { en: 'Terms' } },
          social: {
            google: { client_id: 'g-1', authorize_url: 'https://accounts.test/auth', scope: null },
            facebook: { client_id: null },
          },
        },
      },
      'settings',
    );
    expect(settings.result.data!.data.static_blocks).to.deep.equal({ footer: { en: 'Hello' }, terms: { en: 'Terms' } });
    expect(Object.keys(settings.result.data!.data.social!)).to.deep.equal(['google']);
    expect(settings.dropped).to.deep.equal([
      'settings: left out an entry it cannot read (field data.static_blocks.footer.fr)',
      'settings: left out an entry it cannot read (field data.static_blocks.header)',
      'settings: left out an entry it cannot read (field data.social.facebook.client_id)',
    ]);
    // Not a record at all: that field takes its default, the rest of the settings apply.
    expect(Settings.parse({ name: 'Demo', static_blocks: 'footer' })).to.deep.include({ name: 'Demo' });
    expect(Settings.parse({ static_blocks: 'footer' }).static_blocks).to.equal(undefined);
  });

  it('reads prerolls one by one, and their options leniently', () => {
    const { prerolls, dropped } = prerollsOf([
      { id: 1, url: 'https://ads.test/1.m3u8', weight: null, for_live: '1' },
      { id: 2, weight: 3 },
      { id: '3', url: 'https://ads.test/3.m3u8', weight: '2', event_categories: [] },
    ]);
    expect(prerolls.map((p) => [p.id, p.weight, p.for_live])).to.deep.equal([
      [1, 1, true],
      [3, 2, false],
    ]);
    // Named as in the settings' answer, for the client to report as any answer's (the player store does).
    expect(dropped).to.deep.equal(['settings: left out a record it cannot read (id 2, field data.prerolls.1.url)']);
    expect(prerollsOf('none')).to.deep.equal({ prerolls: [], dropped: [] });
    expect(prerollOptionsOf([])).to.deep.equal({});
    expect(prerollOptionsOf({ enabled: '0', suppression_minutes: '30' })).to.deep.equal({
      enabled: false,
      suppression_minutes: 30,
    });
  });

  it('never guesses money or access: absent or null takes the default, a value it cannot read refuses the record', () => {
    const pricing = { type: 'event', id: 1, name: 'Final', price: 5, total: 5, currency: 'EUR' };
    const order = { id: 1, type: 'package', status: 'paid', product: { id: 2 }, created_at: 1_767_348_000 };
    const offer = { id: 3, name: 'Pass', price: 5 };
    /** Each money or access field: a record it belongs to, its value when absent (and null), values it cannot read. */
    const fields: [
      string,
      { safeParse(v: unknown): { success: boolean; data?: unknown } },
      object,
      string,
      unknown,
      unknown[],
    ][] = [
      ['Event', Event, EVENT, 'type', 'free', [5, {}, false, []]],
      ['Event', Event, EVENT, 'has_access', false, ['yes', 2, {}]],
      ['Event', Event, EVENT, 'is_geo_blocked', undefined, ['no', []]],
      ['Event', Event, EVENT, 'price', undefined, ['0,50', '', {}, true]],
      ['Event', Event, EVENT, 'single_event_package_id', undefined, ['x', '-1', {}]],
      ['VodItem', VodItem, { id: 1, title: 'Goal' }, 'type', 'free', [1, {}]],
      ['VodItem', VodItem, { id: 1, title: 'Goal' }, 'has_access', false, ['yes', 'on']],
      ['Geo', Geo, {}, 'is_geo_blocked', false, ['yes', 2]],
      ['User', User, { id: 3, email: 'a@b.test' }, 'trial_period_used', false, ['yes']],
      ['User', User, { id: 3, email: 'a@b.test' }, 'is_geo_blocked', false, ['no']],
      ['User', User, { id: 3, email: 'a@b.test' }, 'capabilities', [], ['no_ads', {}]],
      ['UserAccess', UserAccess, {}, 'capabilities', [], ['no_ads']],
      ['Pricing', Pricing, pricing, 'service_fee', 0, ['0,50', '1.2.3', {}]],
      ['Pricing', Pricing, pricing, 'discount', 0, ['0,50', []]],
      ['Pricing', Pricing, pricing, 'base_price', undefined, ['9,99']],
      ['Pricing', Pricing, pricing, 'trial_period', undefined, ['7 days']],
      ['Pricing', Pricing, pricing, 'offer', undefined, [12]],
      ['Pricing', Pricing, pricing, 'purchased', false, ['yes']],
      ['Pricing', Pricing, pricing, 'participant_id', undefined, ['Hawks']],
      ['Coupon', Coupon, { code: 'C', discount: 1 }, 'percent', undefined, ['10%']],
      ['Package', Package, offer, 'service_fee', undefined, ['0,50']],
      ['Package', Package, offer, 'is_team_pass', false, ['yes']],
      ['Package', Package, offer, 'type', 'category', [3]],
      ['Package', Package, offer, 'participants', [], ['4,5', {}]],
      ['Package', Package, offer, 'event_categories', [], [7]],
      ['Subscription', Subscription, offer, 'offer', 'monthly', [1]],
      ['Subscription', Subscription, offer, 'trial_period', undefined, ['a week']],
      ['Order', Order, order, 'price', undefined, ['4,99']],
      ['Order', Order, order, 'currency', undefined, [978]],
      ['Order', Order, order, 'activity_status', undefined, [1]],
      ['Order', Order, order, 'expires_at', undefined, ['0000-00-00 00:00:00', 'never']],
      ['Order', Order, order, 'subscription_status', undefined, [0]],
      ['Order', Order, order, 'auto_renewal', undefined, ['Active', true]],
      [
        'Transaction',
        Transaction,
        { id: 1, order_id: 1, status: 'paid', amount: 4, created_at: 1 },
        'currency',
        undefined,
        [978],
      ],
    ];
    for (const [name, schema, record, field, absent, unreadable] of fields) {
      const at = `${name}.${field}`;
      const { [field]: _, ...without } = record as Record<string, unknown>;
      expect((schema.safeParse(without).data as Record<string, unknown>)[field], `${at} absent`).to.deep.equal(absent);
      const withNull = (schema.safeParse({ ...without, [field]: null }).data as Record<string, unknown>)[field];
      expect(withNull, `${at} null`).to.deep.equal(absent ?? null);
      for (const value of unreadable) {
        expect(schema.safeParse({ ...without, [field]: value }).success, `${at}: ${JSON.stringify(value)}`).to.equal(
          false,
        );
      }
    }
    // What an order covers is never guessed either: none is the whole package.
    for (const product of [
      { id: 2, participant_id: 'Hawks' },
      { id: 2, event_category_id: {} },
    ]) {
      expect(Order.safeParse({ ...order, product }).success, JSON.stringify(product)).to.equal(false);
    }
    // Read, where readable, as written.
    const fee = Pricing.parse({ ...pricing, service_fee: '0.50', discount: '1', purchased: '0' });
    expect([fee.service_fee, fee.discount, fee.purchased]).to.deep.equal([0.5, 1, false]);
    // In a list: that record is left out and reported; the others read.
    const { result, dropped } = readAnswer(
      EventList,
      {
        data: [
          { ...EVENT, type: 'paid', price: '4,99' },
          { ...EVENT, id: 8, type: 5 },
          { ...EVENT, id: 9 },
        ],
      },
      'events',
    );
    expect(result.data!.data.map((e) => [e.id, e.type])).to.deep.equal([[9, 'free']]);
    expect(dropped).to.deep.equal([
      'events: left out a record it cannot read (id 7, field data.0.price)',
      'events: left out a record it cannot read (id 8, field data.1.type)',
    ]);
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
      'events: left out a record it cannot read (id 8, field data.1.name)',
      'events: left out a record it cannot read (field data.3)',
    ]);
  });

  it('names the outermost record and the whole path of what a list inside a record left out', () => {
    const team = { id: 14, name: 'Hawks' };
    const badTeam = { id: 15, name: null };
    const withTeams = { ...EVENT, participants: [team, badTeam] };
    const listed = readAnswer(EventList, { data: [{ ...EVENT, id: 6 }, withTeams] }, 'events');
    expect(listed.result.data!.data[1]!.participants.map((p) => p.id)).to.deep.equal([14]);
    expect(listed.dropped).to.deep.equal([
      'events: left out a record it cannot read (id 7, field data.1.participants.1.name)',
    ]);
    const alone = readAnswer(endpoints.event.response, { data: withTeams }, 'event');
    expect(alone.dropped).to.deep.equal([
      'event: left out a record it cannot read (id 7, field data.participants.1.name)',
    ]);
    // A team's own team (a club's squad), two lists down: still the event and the whole path.
    const club = {
      id: 16,
      name: 'Club',
      children: [
        { id: 17, name: 'U18' },
        { id: 18, name: ['U16'] },
      ],
    };
    const nested = readAnswer(EventList, { data: [{ ...EVENT, participants: [club] }] }, 'events');
    expect(nested.dropped).to.deep.equal([
      'events: left out a record it cannot read (id 7, field data.0.participants.0.children.1.name)',
    ]);
  });

  it('reports nothing inside a record left out (the record is), nor of an answer it rejects (its error is)', () => {
    const badEvent = { ...EVENT, id: 8, stream_status: null, participants: [{ id: 15, name: null }] };
    const listed = readAnswer(EventList, { data: [EVENT, badEvent] }, 'events');
    expect(listed.dropped).to.deep.equal([
      'events: left out a record it cannot read (id 8, field data.1.stream_status)',
    ]);
    const rejected = readAnswer(endpoints.event.response, { data: badEvent }, 'event');
    expect(rejected.result.success).to.equal(false);
    expect(rejected.dropped).to.deep.equal([]);
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

  it('reads a time that names no moment as unreadable, never NaN: the record is left out, an optional time defaulted', () => {
    const order = { id: 1, type: 'event', status: 'Paid', product: { id: 2 } };
    for (const created_at of [
      '0000-00-00 00:00:00',
      '2026-13-01 10:00',
      '2026-02-31 10:00:00',
      '2026-02-29T10:00:00Z',
      '2026-01-02 24:00:00',
      '2026-01-02 10:60',
      '2026-01-02 10:00:61',
      1e20,
      '99999999999999',
    ]) {
      const read = Order.safeParse({ ...order, created_at });
      expect(read.success, `${created_at}: ${JSON.stringify(read.data)}`).to.equal(false);
    }
    expect(Order.parse({ ...order, created_at: '2024-02-29 23:59:59' }).created_at).to.equal(1_709_251_199);
    // An order in a list: left out, reported; the others read.
    const { result, dropped } = readAnswer(
      endpoints.orders.response,
      {
        data: [
          { ...order, created_at: '0000-00-00 00:00:00' },
          { ...order, id: 2, created_at: 1_767_348_000 },
        ],
      },
      'orders',
    );
    expect(result.data!.data.map((o) => o.id)).to.deep.equal([2]);
    expect(dropped).to.deep.equal(['orders: left out a record it cannot read (id 1, field data.0.created_at)']);
    const transactions = readAnswer(
      endpoints.transactions.response,
      { data: [{ id: 3, order_id: 1, status: 'paid', amount: 4, created_at: '2026-02-30 08:00:00' }] },
      'transactions',
    );
    expect(transactions.result.data!.data).to.deep.equal([]);
    // An optional time takes its default (none).
    const clip = { id: 4, event_id: 7, name: 'Goal', start_time: 3, duration: 10 };
    expect(Clip.parse({ ...clip, created_at: '0000-00-00 00:00:00' }).created_at).to.equal(undefined);
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
    expect(entry.message).to.equal('events: left out a record it cannot read (id 8, field data.1.name)');
    expect(entry.url).to.equal(`${API}/events?team=hawks`);
    expect(JSON.stringify(entry)).to.not.contain('viewer@example.test');
    expect(JSON.stringify(entry)).to.not.contain('ak-1');
    expect(JSON.stringify(entry)).to.not.contain('secret-token');
  });

  it('reports a record once wherever it stands: a filtered answer lists it at another place', async () => {
    const bad = { ...EVENT, id: 8, name: null };
    const other = { ...EVENT, id: 9, name: {} };
    w.server.on('GET', `${API}/events`, (request) => ok(request.query.sport ? [bad, other] : [EVENT, EVENT, bad]));
    await client.call(endpoints.events, { cache: false });
    await client.call(endpoints.events, { cache: false, query: { sport: 'hockey' } });
    await w.advance(0);
    // Both answers were read (the second's records at other places), the record 8 reported once.
    expect(w.server.to('GET', `${API}/events`)).to.have.length(2);
    expect(w.server.logs.map((entry) => (entry.body as { message: string }).message)).to.deep.equal([
      'events: left out a record it cannot read (id 8, field data.2.name)',
      'events: left out a record it cannot read (id 9, field data.1.name)',
    ]);
  });

  it('fails with InvalidResponseError when a single record misses what is required', async () => {
    w.server.on('GET', `${API}/events/8`, ok({ ...EVENT, id: 8, name: null }));
    const { error } = await settle(client.call(endpoints.event, { params: { id: 8 } }));
    expect(error).to.be.instanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).to.contain('data.name');
  });
});
