/**
 * The shared session (src/stores/session.ts, src/stores/config.ts): configuration, the start-up sequence and
 * its stores, stored keys, and the client reactions wired to the stores (401, 429, stale keys, NO_API_KEY).
 */
import { endpoints } from '../../../src/api/contract.js';
import { expect } from '@open-wc/testing';
import { ConfigError, HttpError, NoApiKeyError } from '../../../src/api/errors.js';
import { $config, $configError, setConfig } from '../../../src/stores/config.js';
import {
  $apiKeyError,
  $colors,
  $geo,
  $geoBlocked,
  $settings,
  $startup,
  $token,
  $user,
  getClient,
  reloadSession,
  resetSession,
  startSession,
} from '../../../src/stores/session.js';
import { isString } from '../../../src/lib/storage.js';
import { T0, installWorld, ok, settle, teardown, until, type Recorded, type World } from '../helpers.js';

const API = 'http://api.test/api';
const KEYS = 'http://keys.test/keys';
const KEYS_JSON = `GET ${KEYS}/demo.json`;
const GET_API_KEY = `POST ${API}/get_api_key`;
const SETTINGS = `GET ${API}/settings`;
const COLORS = `GET ${API}/color-settings/web`;
const GEO = `GET ${API}/geo`;
/** The stored copy of the settings: on the API's host, named after the channel key the keys host gave. */
const SETTINGS_COPY = 'http://api.test/storage/settings/ck-1.json';
const EVENTS_LIST = { data: [], meta: { total: 0, offset: 0, limit: 50 } };

/** Scripts a healthy channel: keys ck-1 then ck-2, api keys ak-1 then ak-2. */
function serveChannel(w: World): void {
  w.server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-1', name: 'Demo' } }, { body: { channel_key: 'ck-2' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-1' }), ok({ api_key: 'ak-2' }))
    .on('GET', `${API}/settings`, ok({ name: 'Demo', language: 'fr', currency: 'EUR' }))
    .on('GET', `${API}/color-settings/web`, ok({ 'body-background': '#101010' }))
    .on('GET', `${API}/geo`, ok({ country: 'United States', country_code: 'US', is_geo_blocked: 0 }))
    .on('GET', `${API}/events`, { body: EVENTS_LIST });
}

function configure(): void {
  const error = setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://cdn.test/channel-elements.js');
  expect(error).to.equal(undefined);
}

const byPath = (w: World, entry: string): Recorded[] => w.server.calls.filter((r) => `${r.method} ${r.path}` === entry);

describe('session', () => {
  let w: World;

  beforeEach(() => {
    w = installWorld();
    serveChannel(w);
  });
  afterEach(() => {
    $config.set(undefined);
    $configError.set(undefined);
    resetSession();
    teardown();
  });

  describe('configuration', () => {
    it('sets $configError and logs one console error naming data-channel-key when the key is missing', () => {
      const error = setConfig({ apiUrl: API }, 'http://cdn.test/channel-elements.js');
      expect(error).to.contain('data-channel-key');
      expect($configError.get()).to.equal(error);
      expect($config.get()).to.equal(undefined);
      expect(w.lines.error).to.have.length(1);
      expect(w.lines.error[0]).to.contain('data-channel-key');
    });

    it('treats a blank channel key as missing', () => {
      setConfig({ channelKey: '   ' }, 'http://cdn.test/channel-elements.js');
      expect($configError.get()).to.contain('data-channel-key');
    });

    it('defaults the API and keys URLs to the bundle origin', () => {
      setConfig({ channelKey: ' demo ' }, 'https://cdn.test/assets/channel-elements.js');
      expect($config.get()).to.deep.equal({
        channelKey: 'demo',
        apiUrl: 'https://cdn.test/api',
        keysUrl: 'https://cdn.test/keys',
        logUrl: undefined,
        lang: undefined,
        analyticsUrl: 'https://cdn.test',
        analyticsExplicit: false,
        consentRequired: false,
        partner: undefined,
        scriptOrigins: undefined,
      });
      expect($configError.get()).to.equal(undefined);
    });

    it('takes data-partner as a slug (trimmed, lowercased); anything else is ignored with a warning', () => {
      setConfig({ channelKey: 'demo', partner: ' Springfield-Gazette ' }, 'https://cdn.test/channel-elements.js');
      expect($config.get()?.partner).to.equal('springfield-gazette');
      expect(w.lines.warn).to.deep.equal([]);
      for (const bad of ['springfield gazette', 'acme--news', 'https://partner.test/?token=1', 'a'.repeat(41)]) {
        setConfig({ channelKey: 'demo', partner: bad }, 'https://cdn.test/channel-elements.js');
        expect($config.get()?.partner, bad).to.equal(undefined);
        expect($configError.get(), 'the elements still start').to.equal(undefined);
      }
      expect(w.lines.warn).to.have.length(4);
      expect(w.lines.warn[0]).to.contain('data-partner="springfield gazette" is not a partner slug');
    });

    it('takes an explicit analytics URL (sent even from localhost pages) and checks it', () => {
      setConfig({ channelKey: 'demo', analyticsUrl: 'https://stats.test/' }, 'https://cdn.test/channel-elements.js');
      expect($config.get()).to.include({ analyticsUrl: 'https://stats.test', analyticsExplicit: true });
      const error = setConfig({ channelKey: 'demo', analyticsUrl: 'stats' }, 'https://cdn.test/channel-elements.js');
      expect(error).to.contain('data-analytics-url');
    });

    it('rejects a non-http API URL, naming data-api-url', () => {
      const error = setConfig({ channelKey: 'demo', apiUrl: 'ftp://api.test' }, 'http://cdn.test/x.js');
      expect(error).to.contain('data-api-url');
      expect($config.get()).to.equal(undefined);
    });

    it('normalises fr-CA to fr and warns about an unsupported language', () => {
      setConfig({ channelKey: 'demo', lang: 'fr-CA' }, 'http://cdn.test/x.js');
      expect($config.get()!.lang).to.equal('fr');
      setConfig({ channelKey: 'demo', lang: 'de' }, 'http://cdn.test/x.js');
      expect($config.get()!.lang).to.equal(undefined);
      expect(w.lines.warn).to.have.length(1);
      expect(w.lines.warn[0]).to.contain('data-lang="de"');
    });

    it('fails start-up with a ConfigError, without any request, when not configured', async () => {
      setConfig({}, 'http://cdn.test/x.js');
      await startSession();
      const state = $startup.get();
      expect(state.status).to.equal('error');
      expect(state.status === 'error' && state.error).to.be.instanceOf(ConfigError);
      expect(w.server.requests).to.have.length(0);
    });
  });

  describe('start-up', () => {
    it('fetches the keys JSON first, then settings, colours and get_api_key, and geo for a guest once the key is in', async () => {
      configure();
      w.server.on('GET', `${API}/geo`, () => ok({ country: 'United States', country_code: 'US', is_geo_blocked: 0 }));
      const started = startSession();
      expect($startup.get()).to.deep.equal({ status: 'loading' });
      await started;
      expect($startup.get()).to.deep.equal({ status: 'ready', value: undefined });
      await until(() => $geo.get() !== undefined, '$geo');

      expect(w.server.trail[0]).to.equal(KEYS_JSON);
      expect(w.server.trail.slice(1, 4).sort()).to.deep.equal([GET_API_KEY, COLORS, SETTINGS].sort());
      // Geo (the profile's stand-in for a guest) needs only the api key: it goes out alongside settings and colours.
      expect(w.server.trail.slice(4)).to.deep.equal([GEO]);

      const only = (entry: string) => {
        const found = byPath(w, entry);
        expect(found, entry).to.have.length(1);
        return found[0]!;
      };
      const [keys, apiKey, settings, colors, geo] = [KEYS_JSON, GET_API_KEY, SETTINGS, COLORS, GEO].map(only) as [
        Recorded,
        Recorded,
        Recorded,
        Recorded,
        Recorded,
      ];
      expect(keys.url).to.equal(`${KEYS}/demo.json`);
      expect(apiKey.body).to.deep.equal({ channel_key: 'ck-1' });
      expect(settings.url).to.equal(`${API}/settings?channel_key=ck-1`);
      expect(colors.url).to.equal(`${API}/color-settings/web?channel_key=ck-1`);
      expect(geo.url).to.equal(`${API}/geo?api_key=ak-1`);

      expect($settings.get()).to.deep.include({ name: 'Demo', language: 'fr', currency: 'EUR' });
      expect($colors.get()).to.deep.equal({ 'body-background': '#101010' });
      expect($geo.get()).to.deep.include({ country_code: 'US', is_geo_blocked: false });
      expect($geoBlocked.get()).to.equal(false);
      expect(w.storage.get('channel_key.demo', isString)).to.equal('ck-1');
      expect(w.storage.get('api_key.ck-1', isString)).to.equal('ak-1');
      expect(w.server.logs).to.have.length(0);
    });

    it('runs the sequence once for concurrent startSession() calls', async () => {
      configure();
      await Promise.all([startSession(), startSession(), startSession()]);
      await until(() => $geo.get() !== undefined, '$geo');
      expect(w.server.calls).to.have.length(5);
    });

    it('reuses the stored keys on the next start: no keys JSON, no get_api_key', async () => {
      configure();
      await startSession();
      await until(() => $geo.get() !== undefined, '$geo');
      const before = w.server.calls.length;

      configure(); // a new configuration resets the session but keeps storage
      expect($startup.get().status).to.equal('idle');
      await startSession();
      await until(() => $geo.get() !== undefined, '$geo');
      expect(w.server.trail.slice(before).sort()).to.deep.equal([COLORS, GEO, SETTINGS].sort());
    });

    it('loads the profile instead of geo when there is a token', async () => {
      configure();
      $token.set('tok');
      w.server.on('GET', `${API}/profile`, ok({ id: 9, email: 'fan@test', is_geo_blocked: 1 }));
      await startSession();
      await until(() => $user.get() !== undefined, '$user');
      expect(byPath(w, `GET ${API}/profile`)[0]!.headers.authorization).to.equal('Bearer tok');
      expect(byPath(w, GEO)).to.have.length(0);
      expect($geoBlocked.get()).to.equal(true);
    });

    it('falls back to geo when the profile answers 401: user reset, no log, no api_key_error', async () => {
      configure();
      $token.set('expired');
      const fired: Event[] = [];
      w.events.addEventListener('api_key_error', (e) => fired.push(e));
      w.server.on('GET', `${API}/profile`, { status: 401, body: { message: 'Unauthenticated.' } });
      await startSession();
      await until(() => $geo.get() !== undefined, '$geo');
      expect($token.get()).to.equal(undefined);
      expect(byPath(w, `GET ${API}/profile`)).to.have.length(1);
      expect(w.server.logs).to.have.length(0);
      expect(fired).to.have.length(0);
      expect($apiKeyError.get()).to.equal(undefined);
    });

    it("sets status 'error' when start-up fails, and can start again", async () => {
      configure();
      w.server.on(
        'GET',
        `${API}/settings`,
        { status: 500, body: { message: 'Server Error' } },
        { status: 500 },
        ok({}),
      );
      const started = startSession();
      await w.advance(1_000);
      await started;
      const state = $startup.get();
      expect(state.status).to.equal('error');
      expect(state.status === 'error' && state.error).to.be.instanceOf(HttpError);
      expect(state.status === 'error' && state.error.status).to.equal(500);
      expect(w.lines.error).to.deep.equal(['channel-elements: start-up failed: HTTP 500']);
      expect(byPath(w, SETTINGS)).to.have.length(2);
      // The stored copy was asked for and is not there either: the API's error is the start-up's.
      expect(byPath(w, `GET ${SETTINGS_COPY}`)).to.have.length(1);
      expect($settings.get()).to.equal(undefined);

      await startSession();
      expect($startup.get().status).to.equal('ready');
      expect(byPath(w, SETTINGS)).to.have.length(3);
    });

    it('starts with the colours it can read: one written null is left out (reported once), never the start-up’s error', async () => {
      configure();
      w.server.on('GET', `${API}/color-settings/web`, ok({ 'body-background': '#101010', 'header-text-color': null }));
      await startSession();
      expect($startup.get().status).to.equal('ready');
      expect($colors.get()).to.deep.equal({ 'body-background': '#101010' });
      await w.advance(0);
      expect(w.server.logs.map((r) => (r.body as { message: string }).message)).to.deep.equal([
        'colors: left out an entry it cannot read (field data.header-text-color)',
      ]);
    });

    for (const [name, reply] of [
      ['not a record', ok('#101010')],
      ['a server error', { status: 500, body: { message: 'Server Error' } }],
    ] as const) {
      it(`starts without colours when their answer is ${name} (the elements wear their defaults)`, async () => {
        configure();
        const fired: Event[] = [];
        w.events.addEventListener('api_key_error', (e) => fired.push(e));
        w.server.on('GET', `${API}/color-settings/web`, reply);
        const started = startSession();
        await w.advance(1_000);
        await started;
        expect($startup.get()).to.deep.equal({ status: 'ready', value: undefined });
        expect($colors.get()).to.deep.equal({});
        expect($settings.get()?.name).to.equal('Demo');
        expect(fired, 'no global error').to.have.length(0);
        // The failure is logged all the same.
        expect(w.server.logs.map((r) => new URL((r.body as { url: string }).url).pathname)).to.include(
          '/api/color-settings/web',
        );
      });
    }

    it('reads the stored copy under /storage/settings/ when GET settings fails, and starts with it', async () => {
      configure();
      const fired: Event[] = [];
      w.events.addEventListener('api_key_error', (e) => fired.push(e));
      w.server
        .on('GET', `${API}/settings`, { status: 503, body: { message: 'Service Unavailable' } })
        .on('GET', SETTINGS_COPY, { body: { name: 'Stored copy', language: 'fr', currency: 'CAD' } });
      const started = startSession();
      await w.advance(1_000);
      await started;
      expect($startup.get()).to.deep.equal({ status: 'ready', value: undefined });
      expect($settings.get()).to.deep.include({ name: 'Stored copy', language: 'fr', currency: 'CAD' });
      expect($colors.get()).to.deep.equal({ 'body-background': '#101010' });
      // The API first (with its one retry after 1 s), then the copy, which needs no key.
      const trail = w.server.trail;
      expect(trail.filter((entry) => entry === SETTINGS)).to.have.length(2);
      expect(trail.lastIndexOf(SETTINGS)).to.be.below(trail.indexOf(`GET ${SETTINGS_COPY}`));
      expect(byPath(w, `GET ${SETTINGS_COPY}`)[0]!.url).to.equal(SETTINGS_COPY);
      expect(w.lines.warn).to.deep.equal([
        'channel-elements: GET settings failed (Service Unavailable); using the stored copy.',
      ]);
      expect(w.lines.error).to.deep.equal([]);
      // The failing call still reports itself (a log entry, and api_key_error as a failing start-up call).
      expect(w.server.logs.map((r) => new URL((r.body as { url: string }).url).pathname)).to.deep.equal([
        '/api/settings',
      ]);
      expect(fired).to.have.length(1);
    });

    it('does not stand the stored copy in for a refusal (403): the start-up fails with it', async () => {
      configure();
      w.server
        .on('GET', `${API}/settings`, { status: 403, body: { message: 'Channel disabled' } })
        .on('GET', SETTINGS_COPY, { body: { name: 'Stored copy', language: 'fr', currency: 'CAD' } });
      await startSession();
      expect($startup.get().status).to.equal('error');
      expect(w.server.trail).not.to.include(`GET ${SETTINGS_COPY}`);
      expect($settings.get()?.name).not.to.equal('Stored copy');
    });

    it('fails start-up with a ConfigError naming data-channel-key when the keys host does not know the key', async () => {
      configure();
      w.server.on('GET', `${KEYS}/demo.json`, { status: 404 });
      await startSession();
      const state = $startup.get();
      expect(state.status === 'error' && state.error).to.be.instanceOf(ConfigError);
      expect(w.lines.error[0]).to.contain('Check data-channel-key');
      expect(w.server.trail).to.deep.equal([KEYS_JSON]);
    });

    it('fails start-up with NO_API_KEY when get_api_key fails', async () => {
      configure();
      w.server.on('POST', `${API}/get_api_key`, { status: 400, body: { message: 'No chanel or api key found.' } });
      await startSession();
      const state = $startup.get();
      expect(state.status === 'error' && state.error).to.be.instanceOf(NoApiKeyError);
      expect(state.status === 'error' && (state.error as NoApiKeyError).code).to.equal('NO_API_KEY');
    });

    it('reloadSession() fetches a new api key, stores it, then reloads the page (the spec)', async () => {
      configure();
      await startSession();
      await until(() => $geo.get() !== undefined, '$geo');
      $apiKeyError.set({ at: 1, error: 'Too Many Attempts.', url: 'x', status: 429 });
      const before = w.server.calls.length;

      await reloadSession();
      expect(w.server.trail.slice(before)).to.deep.equal([GET_API_KEY]);
      expect(w.storage.get('api_key.ck-1', isString), 'the new key, for the reloaded page').to.equal('ak-2');
      expect(w.reloads, 'the page reloaded once, after the key').to.have.length(1);
      expect($apiKeyError.get()).to.equal(undefined);
    });

    it('reloadSession() reloads the page even when no new api key can be had', async () => {
      configure();
      await startSession();
      w.server.on('POST', `${API}/get_api_key`, { status: 500, body: { message: 'Down' } });
      const reload = reloadSession();
      await w.advance(2_000);
      await reload;
      expect(w.reloads).to.have.length(1);
    });
  });

  describe('client reactions', () => {
    beforeEach(async () => {
      configure();
      await startSession();
      await until(() => $geo.get() !== undefined, '$geo');
    });

    it('fires api_key_error on the injected event target for a 429, with no api key in the url', async () => {
      const fired: CustomEvent[] = [];
      w.events.addEventListener('api_key_error', (e) => fired.push(e as CustomEvent));
      w.server.on('GET', `${API}/events`, { status: 429, body: { message: 'Too Many Attempts.' } });
      await w.advance(5_000);
      const { error } = await settle(getClient().call(endpoints.events, { query: { team: 'hawks' } }));
      expect((error as HttpError).status).to.equal(429);
      expect(fired).to.have.length(1);
      expect(fired[0]).to.be.instanceOf(CustomEvent);
      expect(fired[0]!.detail).to.deep.equal({
        error: 'Too Many Attempts.',
        url: `${API}/events?team=hawks&api_key=REDACTED`,
      });
      expect(JSON.stringify(fired[0]!.detail)).not.to.contain('ak-1');
      expect($apiKeyError.get()).to.deep.equal({
        at: T0 + 5_000,
        error: 'Too Many Attempts.',
        url: `${API}/events?team=hawks&api_key=REDACTED`,
        status: 429,
      });
    });

    it('resets the user on a 401', async () => {
      $token.set('tok');
      $user.set({
        id: 1,
        email: 'a@b.test',
        temporary_password: false,
        capabilities: [],
        trial_period_used: false,
        is_geo_blocked: false,
        email_verified: true,
        news: false,
        provider: 'email',
        has_password: true,
      });
      w.server.on('GET', `${API}/events`, { status: 401, body: { message: 'Unauthenticated.' } });
      await settle(getClient().call(endpoints.events));
      expect($user.get()).to.equal(undefined);
      expect($token.get()).to.equal(undefined);
    });

    it('on errors.api_key drops the stored key, resets the user, gets a new key 1 s later and retries once', async () => {
      $token.set('tok');
      const start = w.server.calls.length;
      w.server.on(
        'GET',
        `${API}/events`,
        { status: 401, body: { message: 'No chanel or api key found.', errors: { api_key: ['invalid'] } } },
        { body: EVENTS_LIST },
      );
      const result = settle(getClient().call(endpoints.events));
      await w.advance(999);
      expect(w.server.trail.slice(start)).to.deep.equal([`GET ${API}/events`]);
      expect(w.storage.get('api_key.ck-1', isString), 'stored api key dropped').to.equal(undefined);
      expect($token.get(), 'user reset').to.equal(undefined);
      await w.advance(1);
      const { error } = await result;
      expect(error).to.equal(undefined);
      const after = w.server.calls.slice(start);
      expect(after.map((r) => `${r.method} ${r.path}`)).to.deep.equal([
        `GET ${API}/events`,
        GET_API_KEY,
        `GET ${API}/events`,
      ]);
      expect(after.map((r) => r.at - T0)).to.deep.equal([0, 1_000, 1_000]);
      expect(after[0]!.query.api_key).to.equal('ak-1');
      expect(after[2]!.query.api_key).to.equal('ak-2');
      expect(w.storage.get('api_key.ck-1', isString)).to.equal('ak-2');
    });

    it('surfaces a second api key error as HttpError without a third attempt', async () => {
      const start = w.server.calls.length;
      w.server.on('GET', `${API}/events`, {
        status: 401,
        body: { message: 'No chanel or api key found.', errors: { api_key: ['invalid'] } },
      });
      const result = settle(getClient().call(endpoints.events));
      await w.advance(1_000);
      const { error } = await result;
      expect(error).to.be.instanceOf(HttpError);
      await w.advance(10_000);
      expect(w.server.trail.slice(start)).to.deep.equal([`GET ${API}/events`, GET_API_KEY, `GET ${API}/events`]);
    });

    it('on errors.channel_key drops both keys, refetches the keys JSON and a new api key, then retries', async () => {
      const start = w.server.calls.length;
      w.server.on(
        'GET',
        `${API}/events`,
        { status: 400, body: { message: 'No chanel or api key found.', errors: { channel_key: ['unknown'] } } },
        { body: EVENTS_LIST },
      );
      const result = settle(getClient().call(endpoints.events));
      await w.advance(999);
      expect(w.storage.get('channel_key.demo', isString)).to.equal(undefined);
      expect(w.storage.get('api_key.ck-1', isString)).to.equal(undefined);
      expect(w.server.calls.length - start).to.equal(1);
      await w.advance(1);
      expect((await result).error).to.equal(undefined);
      const after = w.server.calls.slice(start);
      expect(after.map((r) => `${r.method} ${r.path}`)).to.deep.equal([
        `GET ${API}/events`,
        KEYS_JSON,
        GET_API_KEY,
        `GET ${API}/events`,
      ]);
      expect(after[2]!.body).to.deep.equal({ channel_key: 'ck-2' });
      expect(after[3]!.query.api_key).to.equal('ak-2');
      expect(w.storage.get('channel_key.demo', isString)).to.equal('ck-2');
    });
  });

  describe('NO_API_KEY', () => {
    it('rejects a keyed call with NoApiKeyError when get_api_key fails, and sends no keyed request', async () => {
      configure();
      w.storage.set('channel_key.demo', 'ck-1');
      w.server.on('POST', `${API}/get_api_key`, { status: 400, body: { message: 'No chanel or api key found.' } });
      const fired: Event[] = [];
      w.events.addEventListener('api_key_error', (e) => fired.push(e));
      const { error } = await settle(getClient().call(endpoints.events));
      expect(error).to.be.instanceOf(NoApiKeyError);
      expect((error as NoApiKeyError).code).to.equal('NO_API_KEY');
      expect((error as NoApiKeyError).kind).to.equal('no-api-key');
      // A 400 to the form is asked once more as JSON (an API that reads only JSON), then it is the answer.
      expect(w.server.trail).to.deep.equal([GET_API_KEY, GET_API_KEY]);
      expect(fired, 'get_api_key is a global call').to.have.length(1);
    });

    it('asks for an api key again on the next call after a failure', async () => {
      configure();
      w.storage.set('channel_key.demo', 'ck-1');
      w.server.on('POST', `${API}/get_api_key`, { status: 400 }, ok({ api_key: 'ak-9' }));
      await settle(getClient().call(endpoints.events));
      await getClient().call(endpoints.events);
      expect(w.server.trail).to.deep.equal([GET_API_KEY, GET_API_KEY, `GET ${API}/events`]);
      expect(byPath(w, `GET ${API}/events`)[0]!.query.api_key).to.equal('ak-9');
    });
  });

  describe('wiring through injected services', () => {
    const EARLY = Symbol.for('channel-elements.early');
    const early = () =>
      ((globalThis as unknown as Record<symbol, Map<string, Promise<Response>>>)[EARLY] ??= new Map());
    afterEach(() => early().clear());

    it("hands the client the loader's early answers: settings the loader already asked for are not sent again", async () => {
      configure();
      w.storage.set('channel_key.demo', 'ck-1');
      const body = { data: { name: 'Early', language: 'en', currency: 'USD' } };
      early().set(`GET ${API}/settings?channel_key=ck-1 `, Promise.resolve(new Response(JSON.stringify(body))));
      await startSession();
      expect($settings.get()).to.deep.include({ name: 'Early' });
      expect(byPath(w, SETTINGS)).to.have.length(0);
      expect(byPath(w, COLORS)).to.have.length(1);
    });

    it("follows another tab's sign-in and sign-out through the environment's event target", async () => {
      configure();
      w.server.on('GET', `${API}/profile`, ok({ id: 9, email: 'fan@test', is_geo_blocked: 0 }));
      await startSession();
      w.storage.set('token.demo', 'tok-other');
      w.events.dispatchEvent(new StorageEvent('storage', { key: 'rudy_token.demo' }));
      expect($token.get()).to.equal('tok-other');
      await until(() => $user.get() !== undefined, '$user');
      expect(byPath(w, `GET ${API}/profile`)[0]!.headers.authorization).to.equal('Bearer tok-other');

      w.storage.remove('token.demo');
      w.events.dispatchEvent(new StorageEvent('storage', { key: 'rudy_token.demo' }));
      expect($token.get()).to.equal(undefined);
      expect($user.get()).to.equal(undefined);
    });
  });
});
