/**
 * The analytics layer as it goes over the wire: the datalake session (one per visitor per 24 h), page, sign-in and
 * API request events, the outer tracker (3 h), the localhost rule, the analytics key, consent mode, the 30 s
 * timeout, holds while a player starts, and the tag manager's page_view, login and view_item_list.
 */
import { expect } from '@open-wc/testing';
import { ApiClient } from '../../../src/api/client.js';
import { API_TRACKER_BATCH, API_TRACKER_FLUSH_MS, ANALYTICS_TIMEOUT_MS, endpoints } from '../../../src/api/contract.js';
import { consentRecord } from '../../../src/lib/consent.js';
import { installConsentApi, setConsent } from '../../../src/lib/consent-api.js';
import { setEnv } from '../../../src/lib/env.js';
import {
  loginEvent,
  listViewed,
  pageView,
  startAnalytics,
  elementStarted,
} from '../../../src/stores/analytics/events.js';
import { videoDetails } from '../../../src/stores/analytics/video.js';
import { AFTER_RELEASE_MS, holdAnalytics } from '../../../src/stores/analytics/gate.js';
import { flushApiCalls, trackApiCall } from '../../../src/stores/analytics/tracker.js';
import * as port from '../../../src/stores/analytics/port.js';
import { routeShown as siteRouteShown } from '../../../src/stores/site/navigation.js';
import { matchRoute } from '../../../src/lib/routes.js';
import { $config, setConfig } from '../../../src/stores/config.js';
import { $settings, $user } from '../../../src/stores/session.js';
import { signIn } from '../../../src/stores/sign-in.js';
import { HANG, fakeAddress, flush, installWorld, ok, teardown, until, type World } from '../helpers.js';
import { event } from '../../fixtures/contract.js';

const API = 'http://api.test/api';
const STATS = 'https://stats.test/datalake';
const PROFILE = 'profile-1';

type Body = Record<string, unknown>;

describe('analytics', () => {
  let world: World;
  let beacons: { url: string; body: Body }[];
  let idle: (() => void)[];

  /** Runs what waits for an idle moment. */
  const runIdle = async () => {
    for (let i = 0; i < 5; i++) {
      const due = idle.splice(0);
      for (const fn of due) fn();
      await flush(3);
    }
  };

  const settings = (extra: Record<string, unknown> = {}) =>
    ({
      language: 'en',
      currency: 'USD',
      auth: { remote_auth: false },
      'yare-analytics': PROFILE,
      'google-analytics': 'G-TEST',
      gtag_url: 'https://tags.test/gtag-stand-in.js',
      ...extra,
    }) as never;

  const configure = (options: Record<string, unknown> = {}) =>
    setConfig(
      // The channel's tag manager script comes from an origin the page allows (data-script-origins).
      {
        channelKey: 'demo',
        apiUrl: API,
        analyticsUrl: 'https://stats.test',
        scriptOrigins: 'https://tags.test',
        ...options,
      },
      'http://api.test/channel-elements.js',
    );

  const to = (path: string, method = 'POST') => world.server.to(method, `${STATS}/${path}`);
  const events = (name?: string) =>
    to('event/')
      .map((r) => r.body as Body)
      .filter((b) => name === undefined || b.event === name);
  const gtag = () =>
    ((window as unknown as { dataLayer?: IArguments[] }).dataLayer ?? []).map((a) => [...a] as unknown[]);
  const gtagEvents = (name: string) => gtag().filter((a) => a[0] === 'event' && a[1] === name);

  beforeEach(() => {
    world = installWorld();
    beacons = [];
    idle = [];
    consentRecord().granted = undefined;
    delete (window as unknown as { dataLayer?: unknown }).dataLayer;
    delete (window as unknown as { gtag?: unknown }).gtag;
    setEnv({
      whenIdle: (fn) => {
        idle.push(fn);
        return () => undefined;
      },
      sendBeacon: (url, body) => {
        beacons.push({ url, body: JSON.parse(body) as Body });
        return true;
      },
      // The tag manager's script itself is not loaded in these tests: the stub's dataLayer is what it would read.
      injectScript: () => undefined,
    });
    fakeAddress('https://site.test/schedule?trk=spring-mail&token=secret-1');
    world.server.on('GET', `${STATS}/hash/`, ok({ hash: 'hash-1' }), ok({ hash: 'hash-2' }));
    world.server.on('POST', `${STATS}/session/`, ok({ id: 1 }));
    world.server.on('POST', `${STATS}/event/`, ok({ id: 2 }));
    configure();
    $settings.set(settings());
  });
  afterEach(() => {
    consentRecord().granted = undefined;
    $user.set(undefined);
    $settings.set(undefined);
    $config.set(undefined);
    teardown();
  });

  it('makes one session per visitor per 24 h: GET hash, POST session once, then events carry it', async () => {
    pageView({ path: '/live', previous: '/', title: 'Live', route: 'live' });
    pageView({ path: '/vod', previous: '/live', title: 'On demand', route: 'vod' });
    await runIdle();
    await until(() => events('visit_page').length === 2, 'two page views');
    expect(to('hash/', 'GET')).to.have.length(1);
    expect(to('hash/', 'GET')[0]!.query).to.include({ profile: PROFILE, origin_url: 'https://site.test/schedule' });
    expect(to('session/')).to.have.length(1);
    expect(to('session/')[0]!.body).to.include({ profile: PROFILE, session: 'hash-1', platform: 'web' });
    expect(to('session/')[0]!.headers['content-type']).to.equal('text/plain');
    expect(events('visit_page').map((b) => [b.page, b.previous_page, b.session_uuid])).to.deep.equal([
      ['/live', '/', 'hash-1'],
      ['/vod', '/live', 'hash-1'],
    ]);

    // 23 h later: the same session; past 24 h: a new one.
    await world.advance(23 * 3_600_000);
    pageView({ path: '/', title: 'Home' });
    await runIdle();
    await until(() => events('visit_page').length === 3, 'the third view');
    expect(to('session/')).to.have.length(1);
    await world.advance(2 * 3_600_000);
    pageView({ path: '/', title: 'Home' });
    await runIdle();
    await until(() => events('visit_page').length === 4, 'the fourth view');
    expect(to('session/')).to.have.length(2);
    expect(events('visit_page')[3]!.session_uuid).to.equal('hash-2');
  });

  it('keeps trk from the first page for 3 h on every analytics request, and not after', async () => {
    startAnalytics();
    await runIdle();
    await until(() => events('visit_page').length === 1, 'the page view');
    // The page's address goes without its query: the token never leaves.
    expect(JSON.stringify(world.server.requests)).not.to.contain('secret-1');
    for (const r of [...to('session/'), ...to('event/')]) expect((r.body as Body).trk).to.equal('spring-mail');
    expect(to('hash/', 'GET')[0]!.query.trk).to.equal('spring-mail');

    fakeAddress('https://site.test/other');
    await world.advance(2 * 3_600_000);
    loginEvent('email');
    await runIdle();
    await until(() => events('login').length === 1, 'the login');
    expect(events('login')[0]!.trk).to.equal('spring-mail');

    await world.advance(3_600_000 + 1);
    loginEvent('google');
    await runIdle();
    await until(() => events('login').length === 2, 'the second login');
    expect(events('login')[1]).not.to.have.property('trk');
  });

  it('tags every call and tag-manager event with the page’s partner (data-partner), else a trk that is a slug; ignores other values', async () => {
    // A new configuration starts the session afresh: the settings come again.
    configure({ partner: ' Springfield-Gazette ' });
    $settings.set(settings());
    startAnalytics();
    loginEvent('email');
    await runIdle();
    await until(() => events('login').length === 1, 'the login');
    for (const r of [...to('session/'), ...to('event/')]) {
      expect((r.body as Body).partner).to.equal('springfield-gazette');
      expect((r.body as Body).trk).to.equal('spring-mail');
    }
    expect(to('hash/', 'GET')[0]!.query.partner).to.equal('springfield-gazette');
    for (const name of ['page_view', 'login'])
      expect(gtagEvents(name)[0]![2]).to.include({ partner: 'springfield-gazette' });

    // Not a slug: ignored with a warning naming the attribute; the landing address's trk (a slug) is the partner.
    configure({ partner: 'Springfield Gazette <b>' });
    $settings.set(settings());
    expect(world.lines.warn.join('\n')).to.contain('data-partner="Springfield Gazette <b>" is not a partner slug');
    loginEvent('google');
    await runIdle();
    await until(() => events('login').length === 2, 'the second login');
    expect(events('login')[1]!.partner).to.equal('spring-mail');
  });

  it('a trk that is not a slug is sent as trk, never as a partner', async () => {
    fakeAddress('https://site.test/schedule?trk=Spring%20Mail%20for%20fan%40example.com');
    startAnalytics();
    await runIdle();
    await until(() => events('visit_page').length === 1, 'the page view');
    expect(events('visit_page')[0]!.trk).to.equal('Spring Mail for fan@example.com');
    expect(events('visit_page')[0]).not.to.have.property('partner');
    expect(gtagEvents('page_view')[0]![2]).not.to.have.property('partner');
  });

  it('sends login per method, with the signed-in user, to the datalake and the tag manager', async () => {
    signIn({ token: 'tok-9', user: { id: 9, email: 'fan@example.com', first_name: 'Ann' } as never }, 'email');
    loginEvent('registration');
    loginEvent('facebook');
    await runIdle();
    await until(() => events('login').length === 3, 'three logins');
    expect(events('login').map((b) => [b.method, b.user_id, b.user_email])).to.deep.equal([
      ['email', 9, 'fan@example.com'],
      ['registration', 9, 'fan@example.com'],
      ['facebook', 9, 'fan@example.com'],
    ]);
    // A registration is a login too, the one event the spec names for the tag manager; nothing else is sent.
    expect(gtagEvents('login').map((a) => a[2])).to.deep.equal([
      { method: 'email' },
      { method: 'registration' },
      { method: 'facebook' },
    ]);
    expect(gtag().filter((a) => a[0] === 'event' && a[1] === 'sign_up')).to.deep.equal([]);
    expect(JSON.stringify([world.server.requests, gtag()])).not.to.contain('tok-9');
  });

  it('sends page_view and view_item_list to the tag manager with its fields, after loading it once', async () => {
    fakeAddress('https://site.test/site/share/5/0b3c1d2e-1111-2222-3333-444455556666?trk=x');
    pageView({ path: '/share/5/0b3c1d2e-1111-2222-3333-444455556666', previous: '/', title: 'A clip' });
    listViewed('schedule-live', 'Live', [
      { id: '21', name: 'Final', category: 'Basketball' },
      { id: '22', name: 'Semi' },
    ]);
    listViewed('empty', 'Nothing', []);
    await runIdle();
    const config = gtag().filter((a) => a[0] === 'config');
    expect(config).to.deep.equal([['config', 'G-TEST', { send_page_view: false }]]);
    expect(gtagEvents('page_view').map((a) => a[2])).to.deep.equal([
      {
        page_title: 'A clip',
        page_location: 'https://site.test/site/share/5',
        page_path: '/share/5',
        page_referrer: '/',
      },
    ]);
    expect(gtagEvents('view_item_list').map((a) => a[2])).to.deep.equal([
      {
        item_list_id: 'schedule-live',
        item_list_name: 'Live',
        items: [
          { item_id: '21', item_name: 'Final', item_category: 'Basketball', index: 0 },
          { item_id: '22', item_name: 'Semi', index: 1 },
        ],
      },
    ]);
  });

  it('a page of standalone elements sends one page view per load; a page with the site sends none of its own', async () => {
    elementStarted('channel-schedule');
    elementStarted('channel-player');
    startAnalytics();
    startAnalytics();
    await runIdle();
    await until(() => events('visit_page').length === 1, 'the page view');
    expect(events('visit_page')[0]).to.include({ page: '/schedule' });
    expect(events('visit_page')[0]!.elements).to.deep.equal(['channel-player', 'channel-schedule']);
    expect(gtagEvents('page_view')).to.have.length(1);
  });

  it('batches API calls: one tracker request per flush, at most a batch each, without keys or tokens', async () => {
    let token: string | undefined = 'tok-7';
    const client = new ApiClient(
      { apiUrl: API },
      {
        channelKey: async () => 'ck-1',
        channelLabel: () => 'demo',
        apiKey: async () => 'key-123',
        dropKeys: () => undefined,
        token: () => token,
        onUnauthorized: () => (token = undefined),
        onGlobalError: () => undefined,
        onCallEnd: trackApiCall,
      },
    );
    world.server.on('GET', `${API}/events`, ok([], { meta: { total: 0, offset: 0, limit: 10 } }));
    world.server.on('GET', `${API}/events/3`, { status: 404, body: { message: 'Event not found.' } });
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < API_TRACKER_BATCH + 10; i++)
      calls.push(
        client.call(endpoints.events, { query: { offset: i, email: 'fan@example.com' } }).catch(() => undefined),
      );
    calls.push(client.call(endpoints.event, { params: { id: 3 } }).catch(() => undefined));
    await Promise.all(calls);
    await runIdle();
    // A full batch went at once; the rest waits for the interval.
    await until(() => events('api_request').length === 1, 'the full batch');
    expect((events('api_request')[0]!.requests as unknown[]).length).to.equal(API_TRACKER_BATCH);
    await world.advance(API_TRACKER_FLUSH_MS);
    await runIdle();
    await until(() => events('api_request').length === 2, 'the rest');
    const entries = events('api_request').flatMap((b) => b.requests as Body[]);
    expect(entries).to.have.length(API_TRACKER_BATCH + 11);
    const failed = entries.find((e) => e.service === 'event')!;
    expect(failed).to.include({ method: 'GET', url: `${API}/events/3`, status: 404, message: 'Event not found.' });
    expect(failed.length as number).to.be.greaterThan(10);
    const fine = entries.find((e) => e.service === 'events')!;
    expect(fine).to.include({ status: 200, message: 'OK' });
    expect(fine.url).to.equal(`${API}/events?offset=0`);
    const wire = JSON.stringify(events('api_request'));
    for (const secret of ['key-123', 'tok-7', 'ck-1', 'fan%40example.com', 'fan@example.com', 'api_key'])
      expect(wire, secret).not.to.contain(secret);
    // The tracker never tracks itself: no entry names the analytics service.
    expect(wire).not.to.contain('datalake');
  });

  it('sends what waits by beacon when the page is left, once a session exists', async () => {
    pageView({ path: '/', title: 'Home' });
    await runIdle();
    await until(() => events('visit_page').length === 1, 'the session');
    trackApiCall({
      service: 'events',
      method: 'GET',
      url: `${API}/events`,
      status: 200,
      message: 'OK',
      length: 10,
      time_ms: 40,
      at: 1,
    });
    trackApiCall({
      service: 'menu',
      method: 'GET',
      url: `${API}/menu`,
      status: 500,
      message: 'HTTP 500',
      length: 2,
      time_ms: 90,
      at: 2,
    });
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).to.have.length(1);
    expect(beacons[0]!.url).to.equal(`${STATS}/event/`);
    expect(beacons[0]!.body).to.include({ event: 'api_request', profile: PROFILE, session_uuid: 'hash-1' });
    expect((beacons[0]!.body.requests as Body[]).map((r) => r.service)).to.deep.equal(['events', 'menu']);
    flushApiCalls();
    await runIdle();
    expect(events('api_request')).to.have.length(0);
  });

  it('sends nothing from a localhost page unless the analytics URL was given', async () => {
    fakeAddress('http://localhost:4000/page');
    configure({ analyticsUrl: undefined });
    $settings.set(settings());
    pageView({ path: '/', title: 'Home' });
    loginEvent('email');
    await runIdle();
    await flush();
    expect(world.server.requests.filter((r) => r.url.includes('datalake'))).to.have.length(0);
    // Given explicitly, the same page sends.
    configure();
    $settings.set(settings());
    pageView({ path: '/', title: 'Home' });
    await runIdle();
    await until(() => events('visit_page').length === 1, 'the page view');
  });

  it('sends nothing to the datalake without the channel analytics key', async () => {
    $settings.set(settings({ 'yare-analytics': null }));
    pageView({ path: '/', title: 'Home' });
    trackApiCall({
      service: 'menu',
      method: 'GET',
      url: `${API}/menu`,
      status: 200,
      message: 'OK',
      length: 2,
      time_ms: 9,
      at: 2,
    });
    flushApiCalls();
    await runIdle();
    await flush();
    expect(world.server.requests.filter((r) => r.url.includes('datalake'))).to.have.length(0);
  });

  it('in consent mode, nothing is sent, loaded or stored before consent(true); consent(false) drops it all', async () => {
    configure({ consent: 'required' });
    $settings.set(settings());
    const api: Record<string, unknown> = {};
    installConsentApi(api);
    startAnalytics();
    pageView({ path: '/live', title: 'Live' });
    listViewed('schedule-live', 'Live', [{ id: '1', name: 'Final' }]);
    await runIdle();
    await flush();
    expect(world.server.requests.filter((r) => r.url.includes('datalake'))).to.have.length(0);
    expect(gtag()).to.have.length(0);
    expect(world.storage.get('analytics.trk', (v): v is string => typeof v === 'string')).to.equal(undefined);

    (api.channelElements as { consent(granted: boolean): void }).consent(true);
    await runIdle();
    await until(() => events('visit_page').length === 2, 'the held page views');
    expect(gtagEvents('view_item_list')).to.have.length(1);
    expect(world.storage.get('analytics.trk', (v): v is string => typeof v === 'string')).to.equal('spring-mail');

    setConsent(false);
    pageView({ path: '/vod', title: 'On demand' });
    loginEvent('email');
    await runIdle();
    await flush();
    expect(events()).to.have.length(2);
    expect(gtag().filter((a) => a[0] === 'consent')).to.deep.equal([
      ['consent', 'update', { analytics_storage: 'denied', ad_storage: 'denied' }],
    ]);
  });

  it('holds everything while a player starts, then sends it', async () => {
    const release = holdAnalytics();
    pageView({ path: '/watch/1', title: 'Final' });
    await runIdle();
    await flush();
    expect(world.server.requests).to.have.length(0);
    release();
    await runIdle();
    // A moment more after the release: the first frame reaches the screen a frame or two after the player says so.
    expect(world.server.requests).to.have.length(0);
    await world.advance(AFTER_RELEASE_MS);
    await runIdle();
    await until(() => events('visit_page').length === 1, 'the page view');
  });

  it('gives up an analytics request after 30 s', async () => {
    world.server.on('GET', `${STATS}/hash/`, HANG);
    pageView({ path: '/', title: 'Home' });
    await runIdle();
    await until(() => to('hash/', 'GET').length === 1, 'the hash request');
    const signal = to('hash/', 'GET')[0]!.signal!;
    await world.advance(ANALYTICS_TIMEOUT_MS - 1);
    expect(signal.aborted).to.equal(false);
    await world.advance(1);
    expect(signal.aborted).to.equal(true);
    expect(to('session/')).to.have.length(0);
  });

  it('describes an event for the video payloads: category, sport, gender, school and league', async () => {
    world.server
      .on('GET', 'http://api.test/keys/demo.json', { body: { channel_key: 'demo' } })
      .on('POST', `${API}/get_api_key`, ok({ api_key: 'key-1' }))
      .on(
        'GET',
        `${API}/participant-groups`,
        ok([
          { id: 3, name: 'Northfield University', properties: { conference: 'Atlantic', division: 'I' } },
          { id: 4, name: 'Harbor City', properties: { league: 'Coastal League', conference: 'Bay' } },
        ]),
      )
      .on(
        'GET',
        `${API}/events-categories`,
        ok([
          {
            id: 1,
            name: 'Hockey',
            sport: 'hockey',
            children: [{ id: 2, name: "Women's Hockey", sport: 'hockey', gender: 'female' }],
          },
        ]),
      );
    const game = (participants: unknown[], home: number | null, categoryId = 2) =>
      event({
        id: 5,
        event_category_id: categoryId,
        category: { id: categoryId, name: "Women's Hockey" },
        participants,
        home_team_id: home,
      });
    const teams = [
      { id: 10, name: 'Huskies', properties: { sport: 'basketball', gender: 'male' }, participant_group_id: 3 },
      { id: 11, name: 'Sharks', properties: { sport: null, gender: null }, participant_group_id: 4 },
    ];
    expect(await videoDetails(game(teams, 10))).to.deep.equal({
      category: "Women's Hockey",
      sport: 'basketball',
      gender: 'male',
      school: 'Northfield University',
      league: 'Atlantic',
    });
    // A home team that does not say: its category says the sport and gender; its school's league wins over the conference.
    expect(await videoDetails(game(teams, 11))).to.deep.equal({
      category: "Women's Hockey",
      sport: 'hockey',
      gender: 'female',
      school: 'Harbor City',
      league: 'Coastal League',
    });
    // No teams: the category alone.
    expect(await videoDetails(game([], null))).to.deep.equal({
      category: "Women's Hockey",
      sport: 'hockey',
      gender: 'female',
    });
  });
  describe('the first load’s door (the layer is a chunk fetched after the first content)', () => {
    /** Runs idle work and macrotasks until `done` (the layer's module arrives by a dynamic import). */
    const settle = async (done: () => boolean, what: string) => {
      for (let i = 0; i < 50 && !done(); i++) {
        await runIdle();
        await until(() => true);
      }
      expect(done(), what).to.equal(true);
    };
    const sent = () => to('hash/', 'GET').length + to('session/').length + to('event/').length + gtag().length;
    afterEach(async () => {
      // Attached again for the tests after these (the module is in the page already: one task or two).
      port.loadAnalyticsLayer();
      await flush(3);
    });
    const apiCall = (url: string) => ({
      url,
      method: 'GET',
      status: 200,
      message: null,
      response_length: 10,
      duration_ms: 12,
    });

    it('holds every call until LAYER_DEFER_MS after start-up on a page that shows no list, then makes them in order', async () => {
      port.resetAnalyticsPort();
      port.elementStarted('channel-profile');
      port.startAnalytics();
      port.loginEvent('email');
      await world.advance(port.LAYER_DEFER_MS - 1);
      await runIdle();
      expect(sent(), 'nothing before the layer').to.equal(0);
      await world.advance(1);
      await settle(() => events('visit_page').length === 1 && events('login').length === 1, 'page view and login');
      expect(events().map((b) => b.event)).to.have.members(['visit_page', 'login']);
      expect(events('visit_page')[0]!.elements).to.deep.equal(['channel-profile']);
      expect(gtagEvents('login').map((a) => a[2])).to.deep.equal([{ method: 'email', partner: 'spring-mail' }]);
    });

    it('fetches the layer once the first list has been painted, and reports that list', async () => {
      port.resetAnalyticsPort();
      port.elementStarted('channel-schedule');
      port.startAnalytics();
      port.listViewed('schedule:live', 'Live', [{ id: '7', name: 'Final' }]);
      await runIdle();
      expect(sent(), 'nothing in the frame that shows the list').to.equal(0);
      // The next task, then an idle moment: the layer comes long before LAYER_DEFER_MS.
      await world.advance(0);
      await settle(() => gtagEvents('view_item_list').length === 1, 'the list reported');
      expect(gtagEvents('view_item_list')[0]![2]).to.deep.include({ item_list_id: 'schedule:live' });
      await settle(() => events('visit_page').length === 1, 'the page view');
    });

    it('keeps the consent rules while it waits: nothing reported is kept through a refusal, the start-up is', async () => {
      port.resetAnalyticsPort();
      consentRecord().granted = false;
      port.startAnalytics();
      port.trackApiCall(apiCall('http://api.test/api/events') as never);
      port.listViewed('schedule:live', 'Live', [{ id: '7', name: 'Final' }]);
      port.loginEvent('email');
      // Granted before the layer came: what was said while refused stays unsaid.
      setConsent(true);
      port.loginEvent('google');
      // A report waiting when the page refuses goes too.
      setConsent(false);
      setConsent(true);
      port.routeShown('route-mail', { path: '/live', title: 'Live', route: 'live' });
      await world.advance(0);
      await world.advance(port.LAYER_DEFER_MS);
      await settle(() => events('visit_page').length === 2, 'the two page views');
      await runIdle();
      expect(events('login'), 'no login reported').to.deep.equal([]);
      expect(gtagEvents('view_item_list')).to.deep.equal([]);
      expect(
        world.server.to('POST', `${STATS}/event/`).filter((r) => (r.body as Body).event === 'api_request'),
      ).to.deep.equal([]);
    });

    it('the site reads `channel`, the contract’s name for where a visitor came from, as the tracker without a trk', async () => {
      port.resetAnalyticsPort();
      fakeAddress('https://site.test/watch/7?channel=newsletter-5');
      port.startAnalytics();
      siteRouteShown(matchRoute('/watch/7', { channel: 'newsletter-5' })!, undefined, 'Final');
      await world.advance(port.LAYER_DEFER_MS);
      await settle(() => events('visit_page').length === 2, 'the page views');
      expect(events('visit_page').at(-1)!.trk).to.equal('newsletter-5');
    });

    it('reads the address when it is called: the landing trk at start-up, a route’s address for its page view', async () => {
      port.resetAnalyticsPort();
      port.startAnalytics();
      port.routeShown(undefined, { path: '/live', title: 'Live', route: 'live' });
      // The host page rewrites its address before the layer comes.
      fakeAddress('https://site.test/vod');
      await world.advance(port.LAYER_DEFER_MS);
      await settle(() => events('visit_page').length === 2, 'the two page views');
      for (const body of events()) expect(body.trk).to.equal('spring-mail');
      expect(gtagEvents('page_view').map((a) => (a[2] as Body).page_location)).to.include('https://site.test/schedule');
    });
  });
});
