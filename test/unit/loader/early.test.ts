/**
 * The loader's start-up requests (src/loader/early.ts) against the session that adopts them: every request the
 * loader sends must be the one the session's client makes, so that none goes over the wire twice. Both spell
 * their paths and storage keys from src/lib/api-paths.ts; this test is what fails if one of them stops doing so.
 */
import { endpoints } from '../../../src/api/contract.js';
import { expect } from '@open-wc/testing';
import { STORAGE_PREFIX } from '../../../src/lib/api-paths.js';
import { sendEarly } from '../../../src/loader/early.js';
import { $config, setConfig } from '../../../src/stores/config.js';
import { $geo, $startup, getClient, resetSession, startSession } from '../../../src/stores/session.js';
import { HANG, installWorld, ok, teardown, until, type World } from '../helpers.js';

const API = 'http://api.test/api';
const KEYS = 'http://keys.test/keys';
const EARLY = Symbol.for('channel-elements.early');
const slot = globalThis as unknown as Record<symbol, Map<string, unknown> | undefined>;

/** Removes this product's entries from the browser's real local storage (the loader reads it directly). */
function clearStoredKeys(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith(STORAGE_PREFIX)) localStorage.removeItem(key);
}

describe('loader start-up requests, adopted by the session', () => {
  let w: World;
  const realFetch = globalThis.fetch;

  beforeEach(() => {
    clearStoredKeys();
    w = installWorld();
    w.server
      .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-1' } })
      .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-1' }))
      .on('GET', `${API}/settings`, ok({ name: 'Demo', language: 'en', currency: 'USD' }))
      .on('GET', `${API}/color-settings/web`, ok({}))
      .on('GET', `${API}/geo`, ok({ country: 'United States', country_code: 'US', is_geo_blocked: 0 }))
      .on(
        'GET',
        `${API}/events/7`,
        ok({ id: 7, name: 'Hawks vs Owls', event_utc_ts: 1_705_000_000, stream_status: 'upcoming' }),
      );
    // The loader calls the page's fetch, as it does before any of our code (and its environment) has loaded.
    globalThis.fetch = w.server.fetch;
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
    slot[EARLY]?.clear();
    $config.set(undefined);
    resetSession();
    teardown();
    clearStoredKeys();
  });

  it('sends each start-up request once: the session takes every answer the loader asked for', async () => {
    sendEarly('demo', API, KEYS, ['7']);
    expect(
      setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://cdn.test/channel-elements.js'),
    ).to.equal(undefined);
    await startSession();
    await until(() => $geo.get() !== undefined, '$geo');
    await getClient().call(endpoints.event, { params: { id: 7 } });

    const trail = w.server.trail;
    expect(trail.slice().sort()).to.deep.equal(
      [
        `GET ${KEYS}/demo.json`,
        `POST ${API}/get_api_key`,
        `GET ${API}/settings`,
        `GET ${API}/color-settings/web`,
        `GET ${API}/geo`,
        `GET ${API}/events/7`,
      ].sort(),
    );
    expect(slot[EARLY]?.size ?? 0, 'every early answer was taken').to.equal(0);
  });

  it('takes the early get_api_key for a channel key its form has to encode (the loader and the client write one body)', async () => {
    const odd = 'c k&é+/=';
    w.server.on('GET', `${KEYS}/demo.json`, { body: { channel_key: odd } });
    sendEarly('demo', API, KEYS, ['7']);
    setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://cdn.test/channel-elements.js');
    await startSession();
    await until(() => $geo.get() !== undefined, '$geo');
    await getClient().call(endpoints.event, { params: { id: 7 } });
    const asked = w.server.requests.filter((r) => r.method === 'POST');
    expect(asked.map((r) => r.body)).to.deep.equal([{ channel_key: odd }]);
    expect(slot[EARLY]?.size ?? 0, 'every early answer was taken').to.equal(0);
  });

  it('an early answer that never comes costs one timeout, not one per later request: the loader is no longer waited for', async () => {
    // The loader's request for the keys file hangs (it has no timeout of its own); the client's retry is answered.
    w.server.on('GET', `${KEYS}/demo.json`, HANG, { body: { channel_key: 'ck-1' } });
    sendEarly('demo', API, KEYS);
    setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://cdn.test/channel-elements.js');
    const started = startSession();
    await w.advance(30_000);
    await w.advance(1_000);
    await started;
    expect($startup.get().status).to.equal('ready');
    // Settings, colours, the api key and geo went out at once after the retry, not after 30 s more each.
    expect(w.server.calls.map((r) => `${r.method} ${r.path} ${r.at - w.server.calls[0]!.at}`).sort()).to.deep.equal(
      [
        `GET ${KEYS}/demo.json 0`,
        `GET ${KEYS}/demo.json 31000`,
        `POST ${API}/get_api_key 31000`,
        `GET ${API}/settings 31000`,
        `GET ${API}/color-settings/web 31000`,
        `GET ${API}/geo 31000`,
      ].sort(),
    );
  });

  it('asks for the api key before anything else the channel key unlocks, and for no preroll list (the settings have it)', async () => {
    sendEarly('demo', API, KEYS, ['7']);
    await until(() => w.server.trail.includes(`GET ${API}/events/7`), 'the event request');
    const trail = w.server.trail;
    expect(trail.slice(0, 2)).to.deep.equal([`GET ${KEYS}/demo.json`, `POST ${API}/get_api_key`]);
    expect(trail).not.to.include(`GET ${API}/prerolls`);
  });

  it('asks for the api key with a form body and safelisted headers only: no CORS preflight holds it up', async () => {
    sendEarly('demo', API, KEYS, ['7']);
    await until(() => w.server.trail.includes(`GET ${API}/events/7`), 'the event request');
    const asked = w.server.requests.filter((r) => r.method === 'POST');
    expect(asked.map((r) => [r.url, r.body, r.headers])).to.deep.equal([
      [
        `${API}/get_api_key`,
        { channel_key: 'ck-1' },
        { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      ],
    ]);
  });

  it('reads the keys the session stored under the shared storage keys: nothing is asked for again', async () => {
    localStorage.setItem(`${STORAGE_PREFIX}channel_key.demo`, JSON.stringify({ v: 'ck-1', e: Date.now() + 60_000 }));
    localStorage.setItem(`${STORAGE_PREFIX}api_key.ck-1`, JSON.stringify({ v: 'ak-1', e: Date.now() + 60_000 }));
    sendEarly('demo', API, KEYS, ['7']);
    await until(() => w.server.trail.includes(`GET ${API}/events/7`), 'the event request');
    expect(w.server.trail).not.to.include(`GET ${KEYS}/demo.json`);
    expect(w.server.trail).not.to.include(`POST ${API}/get_api_key`);
  });
});
