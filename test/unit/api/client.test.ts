/**
 * The request layer (src/api/client.ts) against a scripted fake fetch and a fake clock: where the keys go,
 * timeouts and retries, error reactions, stale-key recovery, merging and caching, cancellation, parsing and
 * the error log. Every assertion is about what went over the wire, and when.
 */
import { expect } from '@open-wc/testing';
import * as z from 'zod/mini';
import {
  ApiClient,
  CACHE_TTL_MS,
  MAX_BODY_BYTES,
  REQUEST_TIMEOUT_MS,
  RETRY_DELAY_MS,
  retryAfterMs,
  type ClientHooks,
} from '../../../src/api/client.js';
import { endpoints } from '../../../src/api/contract.js';
import {
  ApiError,
  HttpError,
  InvalidResponseError,
  NetworkError,
  NoApiKeyError,
  TimeoutError,
} from '../../../src/api/errors.js';
import { setEnv } from '../../../src/lib/env.js';
import { adoptEarly } from '../../../src/lib/early-requests.js';
import { Deferred, HANG, T0, flush, installWorld, ok, settle, teardown, until, type World } from '../helpers.js';

const API = 'http://api.test/api';

const SETTINGS = { name: 'Demo', language: 'en', currency: 'USD' };
const EVENT = { id: 1, name: 'Hawks vs Owls', event_utc_ts: 1_705_000_000, stream_status: 'upcoming' };
const EVENTS = { data: [EVENT], meta: { total: 1, offset: 0, limit: 50 } };

/** Hooks whose keys change after a drop, recording every reaction. */
function fakeHooks() {
  const seen = {
    dropKeys: [] as string[],
    unauthorized: 0,
    global: [] as { error: string; url: string; status: number }[],
    apiKeyCalls: 0,
    channelKeyCalls: 0,
  };
  const state = {
    apiKey: 'ak-1',
    channelKey: 'ck-1',
    token: undefined as string | undefined,
    apiKeyError: undefined as Error | undefined,
  };
  const hooks: ClientHooks = {
    channelKey: async () => {
      seen.channelKeyCalls++;
      return state.channelKey;
    },
    channelLabel: () => 'demo',
    apiKey: async () => {
      seen.apiKeyCalls++;
      if (state.apiKeyError) throw state.apiKeyError;
      return state.apiKey;
    },
    dropKeys: (which) => {
      seen.dropKeys.push(which);
      if (which === 'channel_key') state.channelKey = 'ck-2';
      state.apiKey = 'ak-2';
    },
    token: () => state.token,
    onUnauthorized: () => void seen.unauthorized++,
    onGlobalError: (detail) => void seen.global.push(detail),
  };
  return { hooks, seen, state };
}

// A DELETE and a keyed POST with any answer (as favourites' DELETE /favorite/{id} and clips' POST /clip are).
const DEL = {
  name: 'testDeleteFavorite',
  method: 'DELETE',
  path: 'favorite/{id}',
  keyless: false,
  response: z.unknown(),
} as const;
const POST = { name: 'testCreateClip', method: 'POST', path: 'clip', keyless: false, response: z.unknown() } as const;

describe('ApiClient', () => {
  let w: World;
  let client: ApiClient;
  let seen: ReturnType<typeof fakeHooks>['seen'];
  let state: ReturnType<typeof fakeHooks>['state'];

  beforeEach(() => {
    w = installWorld();
    const fake = fakeHooks();
    seen = fake.seen;
    state = fake.state;
    client = new ApiClient({ apiUrl: `${API}/` }, fake.hooks);
  });
  afterEach(teardown);

  describe('start-up answers the loader asked for early (src/loader/early.ts)', () => {
    const EARLY = Symbol.for('channel-elements.early');
    const early = () =>
      ((globalThis as unknown as Record<symbol, Map<string, Promise<Response>>>)[EARLY] ??= new Map());
    const answer = (body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
    // The client reaches the loader's answers only through its earlyAnswer hook, as the session wires it.
    beforeEach(() => (client = new ApiClient({ apiUrl: `${API}/` }, { ...client.hooks, earlyAnswer: adoptEarly })));
    afterEach(() => early().clear());

    it('without the earlyAnswer hook the client sends every request itself', async () => {
      const bare = new ApiClient({ apiUrl: API }, { ...client.hooks, earlyAnswer: undefined });
      early().set(`GET ${API}/settings?channel_key=ck-1 `, answer({ data: { ...SETTINGS, name: 'Early' } }));
      w.server.on('GET', `${API}/settings`, ok(SETTINGS));
      expect((await bare.call(endpoints.settings, { cache: false })).data.name).to.equal('Demo');
      expect(w.server.requests).to.have.length(1);
      expect(early().size, 'the early answer is left for a client that has the hook').to.equal(1);
    });

    it('asks the hook on the first attempt only, with the URL and init it is about to send', async () => {
      const asked: string[] = [];
      const failed = Promise.reject(new TypeError('Failed to fetch'));
      failed.catch(() => undefined);
      const hooked = new ApiClient(
        { apiUrl: API },
        {
          ...client.hooks,
          earlyAnswer: (url, init) => {
            asked.push(`${String(init.method)} ${url} ${String(init.body ?? '')}`);
            return failed;
          },
        },
      );
      w.server.on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-wire' }));
      const call = hooked.call(endpoints.getApiKey);
      await w.advance(RETRY_DELAY_MS);
      expect((await call).data.api_key).to.equal('ak-wire');
      expect(asked).to.deep.equal([`POST ${API}/get_api_key channel_key=ck-1`]);
      expect(w.server.requests).to.have.length(1);
    });

    it('takes the answer to the identical request once, sending nothing; the next call goes over the wire', async () => {
      early().set(`GET ${API}/settings?channel_key=ck-1 `, answer({ data: SETTINGS }));
      expect((await client.call(endpoints.settings, { cache: false })).data.currency).to.equal('USD');
      expect(w.server.requests).to.have.length(0);
      w.server.on('GET', `${API}/settings`, ok(SETTINGS));
      await client.call(endpoints.settings, { cache: false });
      expect(w.server.requests).to.have.length(1);
    });

    it('matches a POST by its body too', async () => {
      early().set(`POST ${API}/get_api_key channel_key=other`, answer({ data: { api_key: 'wrong' } }));
      early().set(`POST ${API}/get_api_key channel_key=ck-1`, answer({ data: { api_key: 'ak-early' } }));
      expect((await client.call(endpoints.getApiKey)).data.api_key).to.equal('ak-early');
      expect(w.server.requests).to.have.length(0);
      expect(early().size, 'the other answer stays unclaimed').to.equal(1);
    });

    it('waits for a request the loader is still about to send instead of sending a second copy', async () => {
      const SENDING = Symbol.for('channel-elements.early-sending');
      const slot = globalThis as unknown as Record<symbol, unknown>;
      let sent!: () => void;
      slot[SENDING] = new Promise<void>((resolve) => (sent = resolve));
      try {
        const call = client.call(endpoints.settings, { cache: false });
        await flush();
        expect(w.server.requests, 'nothing sent while the loader is still sending').to.have.length(0);
        early().set(`GET ${API}/settings?channel_key=ck-1 `, answer({ data: SETTINGS }));
        sent();
        expect((await call).data.currency).to.equal('USD');
        expect(w.server.requests).to.have.length(0);
      } finally {
        delete slot[SENDING];
      }
    });

    it('sends a request itself once the loader has sent everything without it', async () => {
      const SENDING = Symbol.for('channel-elements.early-sending');
      const slot = globalThis as unknown as Record<symbol, unknown>;
      let sent!: () => void;
      slot[SENDING] = new Promise<void>((resolve) => (sent = resolve));
      early().set(`GET ${API}/color-settings/web?channel_key=ck-1 `, answer({ data: {} }));
      try {
        w.server.on('GET', `${API}/settings`, ok(SETTINGS));
        const call = client.call(endpoints.settings, { cache: false });
        sent();
        expect((await call).data.currency).to.equal('USD');
        expect(w.server.requests).to.have.length(1);
      } finally {
        delete slot[SENDING];
      }
    });

    it('an early request that failed is retried over the wire like any first attempt', async () => {
      const failed = Promise.reject(new TypeError('Failed to fetch'));
      failed.catch(() => undefined);
      early().set(`GET ${API}/settings?channel_key=ck-1 `, failed);
      w.server.on('GET', `${API}/settings`, ok(SETTINGS));
      const call = client.call(endpoints.settings);
      await w.advance(RETRY_DELAY_MS);
      expect((await call).data.name).to.equal('Demo');
      expect(w.server.requests).to.have.length(1);
    });
  });

  describe('where the keys go', () => {
    it('puts the api key in the query of a GET, with no body', async () => {
      w.server.on('GET', `${API}/events`, { body: EVENTS });
      const answer = await client.call(endpoints.events, { query: { team: 'hawks' } });
      expect(answer.data[0]!.name).to.equal('Hawks vs Owls');
      expect(w.server.requests).to.have.length(1);
      const [req] = w.server.requests;
      expect(req!.method).to.equal('GET');
      expect(req!.url).to.equal(`${API}/events?team=hawks&api_key=ak-1`);
      expect(req!.body).to.equal(undefined);
      expect(req!.headers.accept).to.equal('application/json');
      expect(req!.headers).not.to.have.property('content-type');
      expect(seen.channelKeyCalls).to.equal(0);
    });

    it('puts the api key in the query of a DELETE, with no body', async () => {
      w.server.on('DELETE', `${API}/favorite/7`, { body: { data: null } });
      await client.call(DEL, { params: { id: 7 } });
      expect(w.server.requests.map((r) => [r.method, r.url, r.body])).to.deep.equal([
        ['DELETE', `${API}/favorite/7?api_key=ak-1`, undefined],
      ]);
    });

    it('puts the api key in the JSON body of a POST, not in the URL', async () => {
      w.server.on('POST', `${API}/clip`, { body: { data: { id: 1 } } });
      await client.call(POST, { body: { event_id: 3, name: 'Goal' } });
      const [req] = w.server.requests;
      expect(req!.url).to.equal(`${API}/clip`);
      expect(req!.body).to.deep.equal({ event_id: 3, name: 'Goal', api_key: 'ak-1' });
      expect(req!.headers['content-type']).to.equal('application/json');
    });

    it('sends channel_key (never api_key) in the body of the keyless POST get_api_key', async () => {
      w.server.on('POST', `${API}/get_api_key`, ok({ api_key: 'fresh' }));
      const answer = await client.call(endpoints.getApiKey);
      expect(answer.data.api_key).to.equal('fresh');
      expect(w.server.requests.map((r) => [r.method, r.url, r.body])).to.deep.equal([
        ['POST', `${API}/get_api_key`, { channel_key: 'ck-1' }],
      ]);
      expect(seen.apiKeyCalls).to.equal(0);
    });

    it('sends get_api_key as a CORS simple request: a form body and safelisted headers only (no preflight)', async () => {
      w.server.on('POST', `${API}/get_api_key`, ok({ api_key: 'fresh' }), ok({ api_key: 'again' }));
      await client.call(endpoints.getApiKey);
      // A signed-in viewer's token stays off it too (it needs none).
      state.token = 'secret-token';
      await client.call(endpoints.getApiKey);
      const simple = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
      expect(w.server.requests.map((r) => r.headers)).to.deep.equal([simple, simple]);
      expect(w.server.requests.map((r) => r.body)).to.deep.equal([{ channel_key: 'ck-1' }, { channel_key: 'ck-1' }]);
    });

    for (const status of [400, 415, 422]) {
      it(`sends get_api_key once more as JSON when the API refuses its form (${status}), and as JSON from then on`, async () => {
        const refusal = { status, body: { message: 'The channel key field is required.' } };
        w.server.on('POST', `${API}/get_api_key`, refusal, ok({ api_key: 'from-json' }), ok({ api_key: 'again' }));
        // A signed-in viewer's token stays off it as JSON too: the same credentials as the form (channel_key only).
        state.token = 'secret-token';
        expect((await client.call(endpoints.getApiKey)).data.api_key).to.equal('from-json');
        await client.call(endpoints.getApiKey);
        const json = { accept: 'application/json', 'content-type': 'application/json' };
        const form = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
        expect(
          w.server.requests.map((r) => r.headers),
          'a form, then JSON, remembered',
        ).to.deep.equal([form, json, json]);
        expect(w.server.requests.map((r) => r.body)).to.deep.equal([
          { channel_key: 'ck-1' },
          { channel_key: 'ck-1' },
          { channel_key: 'ck-1' },
        ]);
        // A new client on the same page (a new configure()) keeps the channel's choice: it is stored.
        const fresh = new ApiClient({ apiUrl: API }, client.hooks);
        w.server.on('POST', `${API}/get_api_key`, ok({ api_key: 'third' }));
        await fresh.call(endpoints.getApiKey);
        expect(w.server.requests.at(-1)!.headers).to.deep.equal(json);
      });
    }

    it('sends get_api_key as JSON once only: an API that refuses that too is an error, and keeps its form', async () => {
      const refusal = { status: 422, body: { message: 'Unprocessable' } };
      w.server.on('POST', `${API}/get_api_key`, refusal, refusal, ok({ api_key: 'form-after-all' }));
      const { error } = await settle(client.call(endpoints.getApiKey));
      expect((error as HttpError).status).to.equal(422);
      expect(w.server.calls).to.have.length(2);
      // JSON was no better: nothing is remembered, the next call (a new client's too) is a form again.
      await new ApiClient({ apiUrl: API }, client.hooks).call(endpoints.getApiKey);
      expect(w.server.calls.map((r) => r.headers['content-type'])).to.deep.equal([
        'application/x-www-form-urlencoded',
        'application/json',
        'application/x-www-form-urlencoded',
      ]);
    });

    it('remembers JSON for get_api_key only once a JSON answer could be read', async () => {
      const refusal = { status: 415, body: { message: 'Unsupported' } };
      w.server.on('POST', `${API}/get_api_key`, refusal, ok({ nothing: 'here' }), ok({ api_key: 'form' }));
      const { error } = await settle(client.call(endpoints.getApiKey));
      expect(error).to.be.instanceOf(InvalidResponseError);
      await new ApiClient({ apiUrl: API }, client.hooks).call(endpoints.getApiKey);
      expect(w.server.calls.at(-1)!.headers['content-type']).to.equal('application/x-www-form-urlencoded');
    });

    it('keeps the form for any other refusal (a 403 is the answer, not the body type)', async () => {
      w.server.on('POST', `${API}/get_api_key`, { status: 403, body: { message: 'Closed' } });
      const { error } = await settle(client.call(endpoints.getApiKey));
      expect((error as HttpError).status).to.equal(403);
      expect(w.server.calls).to.have.length(1);
    });

    it('sends channel_key in the body of the keyless POST logs', async () => {
      await client.call(endpoints.log, { body: { message: 'hello' } });
      expect(w.server.requests.map((r) => [r.method, r.url, r.body])).to.deep.equal([
        ['POST', `${API}/logs`, { message: 'hello', channel_key: 'ck-1' }],
      ]);
      expect(seen.apiKeyCalls).to.equal(0);
    });

    it('puts channel_key in the query of a keyless GET and asks for no api key', async () => {
      w.server.on('GET', `${API}/settings`, ok(SETTINGS));
      await client.call(endpoints.settings);
      expect(w.server.requests.map((r) => r.url)).to.deep.equal([`${API}/settings?channel_key=ck-1`]);
      expect(seen.apiKeyCalls).to.equal(0);
    });

    it('drops undefined, null and empty query values but keeps 0 and false', async () => {
      w.server.on('GET', `${API}/events`, { body: EVENTS });
      await client.call(endpoints.events, {
        query: { team: '', sport: undefined, city: null, offset: 0, live: false },
      });
      expect(w.server.requests.map((r) => r.url)).to.deep.equal([`${API}/events?offset=0&live=false&api_key=ak-1`]);
    });

    it('sends the user token as a bearer header, never in the URL', async () => {
      state.token = 'secret-token';
      w.server.on('GET', `${API}/profile`, ok({ id: 5, email: 'a@b.test' }));
      await client.call(endpoints.profile);
      const [req] = w.server.requests;
      expect(req!.headers.authorization).to.equal('Bearer secret-token');
      expect(req!.url).to.equal(`${API}/profile?api_key=ak-1`);
    });

    it('resolves fetch at request time, not when the client was built', async () => {
      const urls: string[] = [];
      setEnv({
        fetch: async (input) => {
          urls.push(String(input));
          return new Response(JSON.stringify({ data: SETTINGS }), { status: 200 });
        },
      });
      await client.call(endpoints.settings);
      expect(urls).to.deep.equal([`${API}/settings?channel_key=ck-1`]);
      expect(w.server.requests).to.have.length(0);
    });

    it('rejects with NoApiKeyError, without any request, when no api key can be had', async () => {
      state.apiKeyError = new NoApiKeyError('get_api_key failed');
      const { error } = await settle(client.call(endpoints.events));
      expect(error).to.be.instanceOf(NoApiKeyError);
      expect((error as NoApiKeyError).code).to.equal('NO_API_KEY');
      await w.advance(5_000);
      expect(w.server.requests).to.have.length(0);
    });
  });

  describe('timeouts and retries', () => {
    it('times out after 30 s, retries once 1 s later, then rejects with TimeoutError (2 fetches)', async () => {
      expect(REQUEST_TIMEOUT_MS).to.equal(30_000);
      expect(RETRY_DELAY_MS).to.equal(1_000);
      w.server.on('GET', `${API}/settings`, HANG);
      const result = settle(client.call(endpoints.settings));

      await w.advance(29_999);
      expect(w.server.calls).to.have.length(1);
      expect(w.server.calls[0]!.signal!.aborted).to.equal(false);
      await w.advance(1);
      expect(w.server.calls[0]!.signal!.aborted, 'first attempt aborted at 30 s').to.equal(true);
      expect(w.server.calls).to.have.length(1);
      await w.advance(999);
      expect(w.server.calls).to.have.length(1);
      await w.advance(1);
      expect(w.server.calls.map((r) => r.at - T0)).to.deep.equal([0, 31_000]);

      await w.advance(30_000);
      const { error } = await result;
      expect(error).to.be.instanceOf(TimeoutError);
      expect((error as ApiError).kind).to.equal('timeout');
      expect((error as ApiError).message).to.equal(`No answer within 30 s: ${API}/settings?channel_key=ck-1`);
      await w.advance(60_000);
      expect(w.server.calls).to.have.length(2);
      expect(w.server.logs).to.have.length(1);
    });

    it('retries a network error once after exactly 1000 ms, then rejects with NetworkError', async () => {
      const cause = new TypeError('Failed to fetch');
      w.server.on('GET', `${API}/events`, cause);
      const result = settle(client.call(endpoints.events));
      await w.advance(999);
      expect(w.server.calls).to.have.length(1);
      await w.advance(1);
      expect(w.server.calls.map((r) => r.at - T0)).to.deep.equal([0, 1_000]);
      const { error } = await result;
      expect(error).to.be.instanceOf(NetworkError);
      expect((error as NetworkError).cause).to.equal(cause);
      expect((error as NetworkError).url).to.equal(`${API}/events?api_key=REDACTED`);
      await w.advance(10_000);
      expect(w.server.calls).to.have.length(2);
    });

    it('answers from the retry when the network comes back', async () => {
      w.server.on('GET', `${API}/events`, new TypeError('Failed to fetch'), { body: EVENTS });
      const result = settle(client.call(endpoints.events));
      await w.advance(1_000);
      const { value } = await result;
      expect(value!.meta.total).to.equal(1);
      expect(w.server.calls).to.have.length(2);
      expect(w.server.logs).to.have.length(0);
    });

    it('retries a 500 once after 1 s and surfaces the second 500 as HttpError (one log entry)', async () => {
      w.server.on('GET', `${API}/events`, { status: 500, body: { message: 'Server Error' } });
      const result = settle(client.call(endpoints.events));
      await w.advance(999);
      expect(w.server.calls).to.have.length(1);
      await w.advance(1);
      const { error } = await result;
      expect(error).to.be.instanceOf(HttpError);
      expect((error as HttpError).status).to.equal(500);
      expect((error as HttpError).message).to.equal('Server Error');
      expect(w.server.calls.map((r) => r.at - T0)).to.deep.equal([0, 1_000]);
      await w.advance(10_000);
      expect(w.server.calls).to.have.length(2);
      expect(w.server.logs).to.have.length(1);
    });

    it('answers from the retry after a 500', async () => {
      w.server.on('GET', `${API}/settings`, { status: 503 }, ok(SETTINGS));
      const result = settle(client.call(endpoints.settings));
      await w.advance(1_000);
      expect((await result).value!.data.name).to.equal('Demo');
      expect(w.server.calls).to.have.length(2);
    });

    for (const status of [400, 404, 422]) {
      it(`never retries a ${status}`, async () => {
        w.server.on('GET', `${API}/events`, {
          status,
          body: { message: `status ${status}`, errors: { start_date: ['The start date is not a date.'] } },
        });
        const result = settle(client.call(endpoints.events, { query: { start_date: 'soon' } }));
        await w.advance(5_000);
        const { error } = await result;
        expect(error).to.be.instanceOf(HttpError);
        expect((error as HttpError).status).to.equal(status);
        expect((error as HttpError).errors).to.deep.equal({ start_date: ['The start date is not a date.'] });
        expect(w.server.calls).to.have.length(1);
        expect(seen.global, 'not a global error').to.have.length(0);
      });
    }

    it('names the status when an error body is not JSON', async () => {
      w.server.on('GET', `${API}/events`, { status: 418, raw: '<html>teapot</html>' });
      const { error } = await settle(client.call(endpoints.events));
      expect((error as HttpError).message).to.equal('HTTP 418');
    });
  });

  describe('global errors and 401', () => {
    it('fires the global error on 429 with a redacted url, and does not retry', async () => {
      w.server.on('GET', `${API}/events`, { status: 429, body: { message: 'Too Many Attempts.' } });
      const result = settle(client.call(endpoints.events, { query: { team: 'hawks' } }));
      await w.advance(5_000);
      expect((await result).error).to.be.instanceOf(HttpError);
      expect(seen.global).to.deep.equal([
        { error: 'Too Many Attempts.', url: `${API}/events?team=hawks&api_key=REDACTED`, status: 429 },
      ]);
      expect(w.server.calls).to.have.length(1);
    });

    it('does not fire the global error for a 404 of a call not marked global', async () => {
      w.server.on('GET', `${API}/events`, { status: 404 });
      await settle(client.call(endpoints.events));
      expect(seen.global).to.have.length(0);
    });

    it('fires the global error for a 404 of a call marked global', async () => {
      w.server.on('GET', `${API}/settings`, { status: 404, body: { message: 'Not Found' } });
      await settle(client.call(endpoints.settings, { global: true }));
      expect(seen.global).to.deep.equal([{ error: 'Not Found', url: `${API}/settings?channel_key=ck-1`, status: 404 }]);
    });

    it('fires the global error once for a global call that fails with 500 twice', async () => {
      w.server.on('GET', `${API}/settings`, { status: 500 });
      const result = settle(client.call(endpoints.settings, { global: true }));
      await w.advance(1_000);
      await result;
      expect(seen.global.map((g) => g.status)).to.deep.equal([500]);
    });

    it('does not fire the global error for an allowed status (401 on profile), but resets the user', async () => {
      w.server.on('GET', `${API}/profile`, { status: 401, body: { message: 'Unauthenticated.' } });
      const { error } = await settle(client.call(endpoints.profile, { global: true, allow: [401], skipLog: [401] }));
      expect((error as HttpError).status).to.equal(401);
      expect(seen.global).to.have.length(0);
      expect(seen.unauthorized).to.equal(1);
    });

    it('calls onUnauthorized on 401 only', async () => {
      w.server.on('GET', `${API}/profile`, { status: 403 }, { status: 401 });
      await settle(client.call(endpoints.profile, { cache: false }));
      expect(seen.unauthorized).to.equal(0);
      await settle(client.call(endpoints.profile, { cache: false }));
      expect(seen.unauthorized).to.equal(1);
    });
  });

  describe('stale keys', () => {
    it('drops the api key, waits exactly 1 s and retries once with the new key', async () => {
      w.server.on(
        'GET',
        `${API}/events`,
        { status: 401, body: { message: 'No chanel or api key found.', errors: { api_key: ['invalid'] } } },
        { body: EVENTS },
      );
      const result = settle(client.call(endpoints.events));
      await w.advance(999);
      expect(seen.dropKeys).to.deep.equal(['api_key']);
      expect(w.server.calls).to.have.length(1);
      await w.advance(1);
      const { value, error } = await result;
      expect(error).to.equal(undefined);
      expect(value!.meta.total).to.equal(1);
      expect(w.server.calls.map((r) => [r.at - T0, r.query.api_key])).to.deep.equal([
        [0, 'ak-1'],
        [1_000, 'ak-2'],
      ]);
      expect(seen.unauthorized, 'a key error is not a 401 reaction').to.equal(0);
      expect(w.server.logs).to.have.length(0);
    });

    it('retries a key error only once: the second one surfaces as HttpError', async () => {
      w.server.on('GET', `${API}/events`, {
        status: 400,
        body: { message: 'No chanel or api key found.', errors: { api_key: 'invalid' } },
      });
      const result = settle(client.call(endpoints.events));
      await w.advance(1_000);
      const { error } = await result;
      expect(error).to.be.instanceOf(HttpError);
      expect((error as HttpError).errors).to.deep.equal({ api_key: 'invalid' });
      await w.advance(10_000);
      expect(w.server.calls).to.have.length(2);
      expect(seen.dropKeys).to.deep.equal(['api_key']);
      expect(w.server.logs).to.have.length(1);
    });

    it('drops the channel key on errors.channel_key and retries with the new channel key', async () => {
      w.server.on(
        'GET',
        `${API}/settings`,
        { status: 400, body: { message: 'No chanel or api key found.', errors: { channel_key: ['unknown'] } } },
        ok(SETTINGS),
      );
      const result = settle(client.call(endpoints.settings));
      await w.advance(1_000);
      expect((await result).value!.data.name).to.equal('Demo');
      expect(seen.dropKeys).to.deep.equal(['channel_key']);
      expect(w.server.calls.map((r) => [r.at - T0, r.query.channel_key])).to.deep.equal([
        [0, 'ck-1'],
        [1_000, 'ck-2'],
      ]);
    });
  });

  describe('merging and caching', () => {
    it('merges identical concurrent GETs into one fetch', async () => {
      const answer = new Deferred();
      w.server.on('GET', `${API}/events`, answer);
      const a = client.call(endpoints.events, { query: { team: 'hawks' } });
      const b = client.call(endpoints.events, { query: { team: 'hawks' } });
      await until(() => w.server.calls.length === 1, 'the fetch');
      answer.resolve({ body: EVENTS });
      const [va, vb] = await Promise.all([a, b]);
      expect(va).to.equal(vb);
      expect(w.server.calls).to.have.length(1);
    });

    it('does not merge GETs with different queries', async () => {
      w.server.on('GET', `${API}/events`, { body: EVENTS });
      await Promise.all([
        client.call(endpoints.events, { query: { team: 'hawks' } }),
        client.call(endpoints.events, { query: { team: 'owls' } }),
      ]);
      expect(w.server.calls.map((r) => r.query.team).sort()).to.deep.equal(['hawks', 'owls']);
    });

    it('answers a repeated GET from the cache for 60 s, then fetches again', async () => {
      expect(CACHE_TTL_MS).to.equal(60_000);
      w.server.on('GET', `${API}/settings`, ok(SETTINGS), ok({ ...SETTINGS, name: 'Renamed' }));
      const first = await client.call(endpoints.settings);
      await w.advance(59_999);
      const cached = await client.call(endpoints.settings);
      expect(cached).to.equal(first);
      expect(w.server.calls).to.have.length(1);
      await w.advance(1);
      const fresh = await client.call(endpoints.settings);
      expect(fresh.data.name).to.equal('Renamed');
      expect(w.server.calls.map((r) => r.at - T0)).to.deep.equal([0, 60_000]);
    });

    it('does not cache a call with cache: false, nor a failed GET', async () => {
      w.server.on('GET', `${API}/settings`, { status: 404 }, ok(SETTINGS));
      await settle(client.call(endpoints.settings));
      await client.call(endpoints.settings);
      await client.call(endpoints.settings, { cache: false });
      expect(w.server.calls).to.have.length(3);
    });

    it('forgets cached answers on clearCache()', async () => {
      w.server.on('GET', `${API}/settings`, ok(SETTINGS));
      await client.call(endpoints.settings);
      client.clearCache();
      await client.call(endpoints.settings);
      expect(w.server.calls).to.have.length(2);
    });
  });

  describe('cancellation', () => {
    it("rejects with the caller's own AbortError: not wrapped, not logged, not retried", async () => {
      w.server.on('GET', `${API}/events`, HANG);
      const caller = new AbortController();
      const result = settle(client.call(endpoints.events, { signal: caller.signal }));
      await until(() => w.server.calls.length === 1, 'the fetch');
      caller.abort();
      const { error } = await result;
      expect(error).to.equal(caller.signal.reason);
      expect(error).to.be.instanceOf(DOMException);
      expect((error as DOMException).name).to.equal('AbortError');
      expect(error).not.to.be.instanceOf(ApiError);
      expect(w.server.calls[0]!.signal!.aborted, 'the fetch itself is aborted').to.equal(true);
      await w.advance(40_000);
      expect(w.server.calls).to.have.length(1);
      expect(w.server.logs).to.have.length(0);
      expect(seen.global).to.have.length(0);
    });

    it('passes a custom abort reason through as is', async () => {
      w.server.on('GET', `${API}/events`, HANG);
      const caller = new AbortController();
      const result = settle(client.call(endpoints.events, { signal: caller.signal }));
      await until(() => w.server.calls.length === 1, 'the fetch');
      const reason = { name: 'AbortError', why: 'query changed' };
      caller.abort(reason);
      expect((await result).error).to.equal(reason);
    });

    it('passes an AbortError from the platform (ERR_CANCELED) through untouched, without a retry or a log', async () => {
      const cancelled = new DOMException('The user aborted a request.', 'AbortError');
      w.server.on('GET', `${API}/events`, cancelled);
      const { error } = await settle(client.call(endpoints.events));
      expect(error).to.equal(cancelled);
      await w.advance(5_000);
      expect(w.server.calls).to.have.length(1);
      expect(w.server.logs).to.have.length(0);
    });

    it('keeps a shared request alive while one caller still waits', async () => {
      const answer = new Deferred();
      w.server.on('GET', `${API}/events`, answer);
      const one = new AbortController();
      const two = new AbortController();
      const first = settle(client.call(endpoints.events, { signal: one.signal }));
      const second = settle(client.call(endpoints.events, { signal: two.signal }));
      await until(() => w.server.calls.length === 1, 'the fetch');
      one.abort();
      expect((await first).error).to.equal(one.signal.reason);
      expect(w.server.calls[0]!.signal!.aborted).to.equal(false);
      answer.resolve({ body: EVENTS });
      expect((await second).value!.meta.total).to.equal(1);
      expect(w.server.calls).to.have.length(1);
    });

    it('aborts a shared request when every caller has cancelled', async () => {
      w.server.on('GET', `${API}/events`, HANG);
      const one = new AbortController();
      const two = new AbortController();
      const first = settle(client.call(endpoints.events, { signal: one.signal }));
      const second = settle(client.call(endpoints.events, { signal: two.signal }));
      await until(() => w.server.calls.length === 1, 'the fetch');
      one.abort();
      await first;
      expect(w.server.calls[0]!.signal!.aborted).to.equal(false);
      two.abort();
      expect((await second).error).to.equal(two.signal.reason);
      expect(w.server.calls[0]!.signal!.aborted).to.equal(true);
      expect(w.server.logs).to.have.length(0);
    });

    // Regression: a call cancelled before it started once still sent its request.
    it('sends nothing for a call whose signal is already aborted', async () => {
      w.server.on('GET', `${API}/events`, { body: EVENTS });
      const caller = new AbortController();
      caller.abort();
      const { error } = await settle(client.call(endpoints.events, { signal: caller.signal }));
      expect(error).to.equal(caller.signal.reason);
      await w.advance(1_000);
      expect(w.server.calls).to.have.length(0);
    });

    // Regression: a caller arriving just after the last one cancelled once joined the dying request and
    // got its AbortError, which everyone ignores (a schedule re-mounted while loading stayed 'loading').
    it('gives a caller that arrives right after the last caller cancelled a fresh request', async () => {
      w.server.on('GET', `${API}/events`, HANG, { body: EVENTS });
      const caller = new AbortController();
      const first = settle(client.call(endpoints.events, { signal: caller.signal }));
      await until(() => w.server.calls.length === 1, 'the fetch');
      caller.abort();
      const second = settle(client.call(endpoints.events));
      expect((await first).error).to.equal(caller.signal.reason);
      const { value, error } = await second;
      expect(error).to.equal(undefined);
      expect(value!.meta.total).to.equal(1);
      expect(w.server.calls).to.have.length(2);
    });
  });

  describe('bodies: the timeout covers them, a cut is a network fault, 5 MB at most; Retry-After', () => {
    /** A fetch answering every request with `make()`, recording when each was made. */
    function answering(make: () => Response): number[] {
      const at: number[] = [];
      setEnv({
        fetch: async (input, init) => {
          // Log entries are posted through the same fetch: they are not requests of the call.
          if (String(input).endsWith('/logs')) return new Response('{}');
          at.push(w.clock.now - T0);
          const response = make();
          init?.signal?.addEventListener('abort', () => void response.body?.cancel().catch(() => undefined));
          return response;
        },
      });
      return at;
    }
    const encoder = new TextEncoder();

    it('a body that trickles and never ends times out at 30 s like a silent server, retried once', async () => {
      const at = answering(
        () =>
          new Response(
            new ReadableStream({
              start(controller) {
                controller.enqueue(encoder.encode('{"data":['));
              },
            }),
            { status: 200, headers: { 'Content-Type': 'application/json' } },
          ),
      );
      const result = settle(client.call(endpoints.events));
      await w.advance(29_999);
      expect(at).to.deep.equal([0]);
      await w.advance(1 + RETRY_DELAY_MS);
      expect(at).to.deep.equal([0, 31_000]);
      await w.advance(REQUEST_TIMEOUT_MS);
      const { error } = await result;
      expect(error).to.be.instanceOf(TimeoutError);
      await w.advance(60_000);
      expect(at).to.have.length(2);
    });

    it('a body cut short is a network fault: retried once after 1 s, then NetworkError', async () => {
      const at = answering(
        () =>
          new Response(
            new ReadableStream({
              start(controller) {
                controller.enqueue(encoder.encode('{"data":[{"id":1'));
                controller.error(new TypeError('network error'));
              },
            }),
            { status: 200 },
          ),
      );
      const result = settle(client.call(endpoints.events));
      await w.advance(RETRY_DELAY_MS);
      const { error } = await result;
      expect(error).to.be.instanceOf(NetworkError);
      expect(at).to.deep.equal([0, 1_000]);
    });

    it(`reads at most ${MAX_BODY_BYTES / 1024 / 1024} MB: a longer answer is refused at once, never retried`, async () => {
      const big = `{"data":[],"pad":"${'x'.repeat(MAX_BODY_BYTES)}"}`;
      // Once streamed without a length, once with a Content-Length that says so before any byte is read.
      for (const headers of [{}, { 'Content-Length': String(big.length) }] as Record<string, string>[]) {
        const at = answering(() => new Response(big, { status: 200, headers }));
        const { error } = await settle(client.call(endpoints.events, { cache: false }));
        expect(error).to.be.instanceOf(InvalidResponseError);
        expect((error as Error).message).to.contain('the body is longer than 5 MB');
        await w.advance(5_000);
        expect(at).to.have.length(1);
      }
    });

    it('a 429 whose Retry-After asks for up to 10 s is waited out once; a longer one or none fails at once', async () => {
      const throttled = (after?: string) => () =>
        new Response('{"message":"Too Many Attempts."}', {
          status: 429,
          headers: after === undefined ? {} : { 'Retry-After': after },
        });
      let at = answering(throttled('3'));
      let result = settle(client.call(endpoints.events, { cache: false }));
      await w.advance(2_999);
      expect(at).to.deep.equal([0]);
      await w.advance(1);
      expect(at).to.deep.equal([0, 3_000]);
      expect(((await result).error as HttpError).status).to.equal(429);
      expect(seen.global, 'one api_key_error, for the call that failed').to.have.length(1);

      for (const after of ['120', undefined]) {
        at = answering(throttled(after));
        result = settle(client.call(endpoints.events, { cache: false }));
        await w.advance(15_000);
        expect(((await result).error as HttpError).status).to.equal(429);
        expect(at).to.have.length(1);
      }
    });

    it('reads Retry-After in seconds or as a date, at least the usual 1 s, at most 10 s', () => {
      expect(retryAfterMs(null)).to.equal(undefined);
      expect(retryAfterMs('0')).to.equal(RETRY_DELAY_MS);
      expect(retryAfterMs('10')).to.equal(10_000);
      expect(retryAfterMs('11')).to.equal(undefined);
      expect(retryAfterMs(new Date(T0 + 5_000).toUTCString())).to.equal(5_000);
      expect(retryAfterMs('soon')).to.equal(undefined);
    });
  });

  describe('invalid responses', () => {
    it('turns a schema mismatch into InvalidResponseError (and logs it)', async () => {
      // What is required stays required: an event without its name is no event.
      w.server.on('GET', `${API}/events/7`, ok({ id: 7, event_utc_ts: 1, stream_status: 'live' }));
      const { error } = await settle(client.call(endpoints.event, { params: { id: 7 } }));
      expect(error).to.be.instanceOf(InvalidResponseError);
      expect((error as InvalidResponseError).kind).to.equal('invalid-response');
      expect((error as InvalidResponseError).issues).to.contain('data.name');
      expect((error as InvalidResponseError).url).to.equal(`${API}/events/7?api_key=REDACTED`);
      await w.advance(0);
      expect(w.server.logs).to.have.length(1);
      expect((w.server.logs[0]!.body as { status: number }).status).to.equal(200);
    });

    it('turns an answer without its envelope into InvalidResponseError', async () => {
      w.server.on('GET', `${API}/events`, { body: [EVENT] });
      const { error } = await settle(client.call(endpoints.events));
      expect(error).to.be.instanceOf(InvalidResponseError);
      expect((error as InvalidResponseError).issues).to.contain('(root)');
    });

    it('turns a non-JSON 200 into InvalidResponseError', async () => {
      w.server.on('GET', `${API}/settings`, { status: 200, raw: '<!doctype html><p>maintenance' });
      const { error } = await settle(client.call(endpoints.settings));
      expect(error).to.be.instanceOf(InvalidResponseError);
      expect((error as InvalidResponseError).issues).to.equal('the body is not JSON');
    });
  });

  describe('error log', () => {
    it('posts one JSON entry with date, status, service, channel, message, request_data and a redacted url', async () => {
      await w.advance(2_500);
      w.server.on('GET', `${API}/events`, { status: 404, body: { message: 'Event not found' } });
      await settle(client.call(endpoints.events, { query: { team: 'hawks', password: 'hunter2' } }));
      await w.advance(0);
      expect(w.server.logs).to.have.length(1);
      const [log] = w.server.logs;
      expect(log!.method).to.equal('POST');
      expect(log!.url).to.equal(`${API}/logs`);
      expect(log!.headers['content-type']).to.equal('application/json');
      expect(log!.body).to.deep.equal({
        date: '2024-01-15T17:00:02.500Z',
        status: 404,
        service: 'events',
        channel: 'demo',
        message: 'Event not found',
        request_data: { team: 'hawks', password: 'REDACTED' },
        url: `${API}/events?team=hawks&password=REDACTED&api_key=REDACTED`,
        channel_key: 'demo',
      });
      expect(JSON.stringify(log!.body)).not.to.contain('hunter2');
      expect(JSON.stringify(log!.body)).not.to.contain('ak-1');
    });

    it('redacts secrets of a POST body', async () => {
      w.server.on('POST', `${API}/clip`, { status: 422, body: { message: 'The given data was invalid.' } });
      await settle(client.call(POST, { body: { email: 'a@b.test', password: 'hunter2', nested: { api_key: 'x' } } }));
      await w.advance(0);
      const body = w.server.logs[0]!.body as { request_data: unknown; url: string };
      expect(body.request_data).to.deep.equal({
        email: 'a@b.test',
        password: 'REDACTED',
        nested: { api_key: 'REDACTED' },
      });
      expect(body.url).to.equal(`${API}/clip`);
    });

    it('posts to the configured log URL', async () => {
      const custom = new ApiClient({ apiUrl: API, logUrl: 'http://logs.test/collect' }, fakeHooks().hooks);
      w.server.on('GET', `${API}/events`, { status: 404 });
      await settle(custom.call(endpoints.events));
      await w.advance(0);
      expect(w.server.requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal([
        `GET ${API}/events?api_key=ak-1`,
        'POST http://logs.test/collect',
      ]);
    });

    it('posts nothing for skip codes (401 on profile, 404 on custom forms)', async () => {
      w.server.on('GET', `${API}/profile`, { status: 401 });
      w.server.on('GET', `${API}/custom-forms/signup`, { status: 404 });
      await settle(client.call(endpoints.profile, { skipLog: [401] }));
      await settle(client.call(endpoints.customForm, { params: { alias: 'signup' }, skipLog: [404] }));
      await w.advance(0);
      expect(w.server.calls).to.have.length(2);
      expect(w.server.logs).to.have.length(0);
    });

    it('still logs statuses that are not in skipLog', async () => {
      w.server.on('GET', `${API}/custom-forms/signup`, { status: 403 });
      await settle(client.call(endpoints.customForm, { params: { alias: 'signup' }, skipLog: [404] }));
      await w.advance(0);
      expect(w.server.logs).to.have.length(1);
    });

    it('does not log the failure of the log call itself', async () => {
      w.server.on('POST', `${API}/logs`, new TypeError('Failed to fetch'));
      w.server.on('GET', `${API}/events`, { status: 404 });
      await settle(client.call(endpoints.events));
      await w.advance(60_000);
      expect(w.server.logs).to.have.length(1);

      w.server.on('POST', `${API}/logs`, { status: 500 });
      await settle(client.call(endpoints.events, { query: { team: 'x' } }));
      await w.advance(60_000);
      expect(w.server.logs).to.have.length(2);
    });

    it('posts nothing for a successful call', async () => {
      w.server.on('GET', `${API}/settings`, ok(SETTINGS));
      await client.call(endpoints.settings);
      await w.advance(0);
      expect(w.server.logs).to.have.length(0);
    });
  });
});
