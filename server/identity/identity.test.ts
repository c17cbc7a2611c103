/**
 * Google and Facebook sign-in for real, on the production code path: the server (dev mode, with
 * GOOGLE_CLIENT_SECRET and FACEBOOK_APP_SECRET set, so the real providers replace the stand-ins) against a real
 * OpenID provider in this test process (testing/oidc.ts, `oidc-provider` playing Google with its own signing key)
 * and a stand-in of Facebook's dialog and Graph API (testing/graph.ts). Sign-ins walk the flow over HTTP as a
 * browser does; the refusals (a wrong state, a replayed code, an ID token for another audience, an expired one,
 * another nonce, a stranger's signature, another issuer, an unverified or missing address) make no account. In
 * production mode the configured providers alone are offered, never a stand-in.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { endpoints } from '../../src/api/contract.js';
import { captureLog, Harness, ok, request, startTestServer, type Answer } from '../testing/harness.js';
import { TestGraphApi } from '../testing/graph.js';
import { TestOpenIdProvider, type Tamper } from '../testing/oidc.js';

const GOOGLE_SECRET = 'google-client-secret-for-tests';
const FACEBOOK_SECRET = 'facebook-app-secret-for-tests';
const WRONG_AUTH = 'Wrong auth data';

let op: TestOpenIdProvider;
let graph: TestGraphApi;
let h: Harness;

before(async () => {
  op = await TestOpenIdProvider.start();
  graph = await TestGraphApi.start();
  h = new Harness({
    google: { issuer: op.issuer, clientSecret: GOOGLE_SECRET },
    facebook: { appSecret: FACEBOOK_SECRET, graphUrl: graph.graphUrl, authorizeUrl: graph.authorizeUrl },
  });
  await h.start();
  op.register([
    {
      client_id: 'demo-google-client',
      client_secret: GOOGLE_SECRET,
      redirect_uris: [`${h.base}/auth/login/google/callback`],
    },
  ]);
  graph.app('demo-facebook-client', FACEBOOK_SECRET, [`${h.base}/auth/login/facebook/callback`]);
});
after(async () => {
  await h.stop();
  await op.stop();
  await graph.stop();
});

type Network = 'google' | 'facebook';
const callback = (provider: Network) => `${h.base}/auth/login/${provider}/callback`;

/** Starts a sign-in as the client does; answers the URL the browser is sent to. */
async function start(provider: Network, key = h.key): Promise<URL> {
  const res = await h.post(`/api/v2/auth/social/${provider}/start`, { api_key: key, redirect_uri: callback(provider) });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return new URL(endpoints.socialStart.response.parse(res.body).data.url);
}

/** What the callback page posts: the values the provider sent the browser back with. */
interface Back {
  code: string;
  state: string;
  iss?: string;
}

/** Signs in at the provider as `who`; answers what the browser came back to the callback with. */
async function back(provider: Network, who: string, key = h.key): Promise<Back> {
  const url = await start(provider, key);
  const at = provider === 'google' ? await op.signIn(url.href, who) : await graph.signIn(url.href, who);
  assert.equal(`${at.origin}${at.pathname}`, callback(provider));
  const code = at.searchParams.get('code');
  ok(code, `a code: ${at.href}`);
  const iss = at.searchParams.get('iss');
  return { code, state: at.searchParams.get('state')!, ...(iss ? { iss } : {}) };
}

/** The callback page's POST. */
const redeem = (provider: Network, values: Back, key = h.key): Promise<Answer> =>
  h.post(`/api/v2/auth/social/${provider}`, { api_key: key, ...values, redirect_uri: callback(provider) });

/** How many accounts have this address, and how many identities this subject. */
async function accounts(email: string, subject: string): Promise<[number, number]> {
  const users = await h.server.db.get('SELECT count(*) AS n FROM users WHERE lower(email) = lower(?)', [email]);
  const ids = await h.server.db.get('SELECT count(*) AS n FROM social_identities WHERE subject = ?', [subject]);
  return [Number(users!.n), Number(ids!.n)];
}

function refused(res: Answer, message = WRONG_AUTH): void {
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.deepEqual(res.body.errors?.code, [message]);
  assert.equal(res.body.data, undefined, 'no session');
}

describe('Google through OpenID Connect', () => {
  test('a full sign-in: discovery, PKCE, state and nonce; a signed ID token makes a verified account, linked by its subject', async () => {
    op.people.set('g-alice', {
      email: 'alice@gmail.test',
      email_verified: true,
      given_name: 'Alice',
      family_name: 'Martin',
    });
    const url = await start('google');
    assert.equal(`${url.origin}${url.pathname}`, `${op.issuer}/auth`, "the issuer's authorization endpoint");
    const q = Object.fromEntries(url.searchParams);
    assert.deepEqual(
      [q.client_id, q.redirect_uri, q.response_type, q.scope, q.code_challenge_method],
      ['demo-google-client', callback('google'), 'code', 'openid email profile', 'S256'],
    );
    ok(q.state && q.nonce && q.code_challenge, 'state, nonce and challenge');
    const at = await op.signIn(url.href, 'g-alice');
    assert.equal(at.searchParams.get('iss'), op.issuer, 'the provider names itself (RFC 9207)');
    const res = await redeem('google', {
      code: at.searchParams.get('code')!,
      state: at.searchParams.get('state')!,
      iss: at.searchParams.get('iss')!,
    });
    const session = endpoints.socialLogin.response.parse(res.body).data;
    assert.deepEqual(
      [
        session.user.email,
        session.user.email_verified,
        session.user.provider,
        session.user.first_name,
        session.user.last_name,
      ],
      ['alice@gmail.test', true, 'google', 'Alice', 'Martin'],
    );
    assert.deepEqual(await accounts('alice@gmail.test', 'g-alice'), [1, 1]);
    // The settings now name the discovered endpoint.
    const settings = endpoints.settings.response.parse((await h.keyless('settings')).body).data;
    assert.equal(settings.social?.google?.authorize_url, `${op.issuer}/auth`);
    // Linked by subject: the same person with a new address at Google is the same account.
    op.people.set('g-alice', { ...op.people.get('g-alice')!, email: 'alice.new@gmail.test' });
    const again = endpoints.socialLogin.response.parse(
      (await redeem('google', await back('google', 'g-alice'))).body,
    ).data;
    assert.equal(again.user.id, session.user.id);
    assert.deepEqual(await accounts('alice.new@gmail.test', 'g-alice'), [0, 1]);
  });

  test('an existing verified account of the same address is linked, and signs in as itself', async () => {
    const email = `linked-${Date.now()}@gmail.test`;
    const registered = await h.post('/api/v2/auth/register', {
      api_key: h.key,
      first_name: 'Lin',
      last_name: 'Ked',
      email,
      password: 'linked-pass-1',
      password_confirmation: 'linked-pass-1',
      terms: true,
    });
    assert.equal(registered.status, 200);
    const [mail] = (await h.call(`/__dev/outbox?to=${encodeURIComponent(email)}`)).body.data;
    const link = new URL(mail.links[0]).searchParams;
    const verified = await h.post('/api/auth/email-verify', { api_key: h.key, ...Object.fromEntries(link) });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    op.people.set('g-linked', { email, email_verified: true, given_name: 'Lin', family_name: 'Ked' });
    const session = endpoints.socialLogin.response.parse(
      (await redeem('google', await back('google', 'g-linked'))).body,
    ).data;
    assert.deepEqual(
      [session.user.id, session.user.provider, session.user.has_password],
      [registered.body.data.user.id, 'email', true],
    );
    assert.deepEqual(await accounts(email, 'g-linked'), [1, 1]);
  });

  test('refused, with no account made: a wrong state, a replayed code, and ID tokens for another audience, expired, with another nonce, signed by a stranger or from another issuer', async () => {
    op.people.set('g-mallory', {
      email: 'mallory@gmail.test',
      email_verified: true,
      given_name: 'Mal',
      family_name: 'Lory',
    });
    // A state of no attempt, and another browser's attempt.
    const values = await back('google', 'g-mallory');
    refused(await redeem('google', { ...values, state: 'A'.repeat(43) }));
    refused(await redeem('google', values, await h.apiKey('demo')));
    // That code again, with a fresh attempt of this browser: the provider refuses it (spent, and not this
    // attempt's PKCE verifier).
    const fresh = await back('google', 'g-mallory');
    const asked = op.tokenRequests;
    refused(await redeem('google', { ...fresh, code: values.code }));
    assert.equal(op.tokenRequests, asked + 1, 'the provider was asked, and refused');
    const now = Math.floor(Date.now() / 1000);
    // Each forged ID token is validly signed (but one) and refused for its own reason, as the log says.
    const tampers: Array<[string, RegExp, Tamper]> = [
      ['another audience', /"aud"/, (c) => ({ claims: { ...c, aud: 'another-client' } })],
      ['expired', /"exp"/, (c) => ({ claims: { ...c, iat: now - 7200, exp: now - 3600 } })],
      ['another nonce', /"nonce"/, (c) => ({ claims: { ...c, nonce: 'not-the-attempts-nonce' } })],
      ["a stranger's signature", /signature verification failed/, (c) => ({ claims: c, stranger: true })],
      ['another issuer', /"iss"/, (c) => ({ claims: { ...c, iss: 'https://accounts.evil.test' } })],
    ];
    for (const [name, reason, tamper] of tampers) {
      op.tamper = tamper;
      const log = captureLog();
      try {
        refused(await redeem('google', await back('google', 'g-mallory')));
        const why = log.lines.find((line) => line.includes('social sign-in with google refused'));
        ok(why && reason.test(why.replace(/\\/g, '')), `${name}: ${why}`);
      } finally {
        log.restore();
        op.tamper = undefined;
      }
    }
    // An authorization response naming another issuer (a mix-up).
    refused(await redeem('google', { ...(await back('google', 'g-mallory')), iss: 'https://accounts.evil.test' }));
    assert.deepEqual(await accounts('mallory@gmail.test', 'g-mallory'), [0, 0]);
    // The same sign-in, untouched, goes through: the refusals were the tampering's.
    assert.equal((await redeem('google', await back('google', 'g-mallory'))).status, 200);
  });

  test('an address Google has not verified, or none, makes no account and says why', async () => {
    op.people.set('g-unverified', {
      email: 'unverified@gmail.test',
      email_verified: false,
      given_name: 'Un',
      family_name: 'Verified',
    });
    refused(
      await redeem('google', await back('google', 'g-unverified')),
      'The email address of the social account is not verified. Verify it with the provider, or register with your email address instead.',
    );
    assert.deepEqual(await accounts('unverified@gmail.test', 'g-unverified'), [0, 0]);
    op.people.set('g-none', { email: null, email_verified: false, given_name: 'No', family_name: 'Mail' });
    refused(
      await redeem('google', await back('google', 'g-none')),
      'The social account shared no email address. Register with your email address instead.',
    );
    assert.equal((await accounts('', 'g-none'))[1], 0);
  });

  test('Cancel at Google comes back with access_denied and the state, and no code', async () => {
    const url = await start('google');
    const at = await op.signIn(url.href, 'cancel');
    assert.equal(`${at.origin}${at.pathname}`, callback('google'));
    assert.deepEqual(
      [at.searchParams.get('error'), at.searchParams.get('state'), at.searchParams.get('code')],
      ['access_denied', url.searchParams.get('state'), null],
    );
  });
});

describe('Facebook through OAuth 2 and the Graph API', () => {
  test('a full sign-in: PKCE and state, the code exchanged with the app secret, the profile read with appsecret_proof', async () => {
    graph.people.set('10001', { email: 'bob@facebook.test', first_name: 'Bob', last_name: 'Durand' });
    const url = await start('facebook');
    assert.equal(`${url.origin}${url.pathname}`, graph.authorizeUrl);
    const q = Object.fromEntries(url.searchParams);
    assert.deepEqual(
      [q.client_id, q.redirect_uri, q.response_type, q.scope, q.code_challenge_method],
      ['demo-facebook-client', callback('facebook'), 'code', 'email,public_profile', 'S256'],
    );
    const at = await graph.signIn(url.href, '10001');
    const values = { code: at.searchParams.get('code')!, state: at.searchParams.get('state')! };
    const session = endpoints.socialLogin.response.parse((await redeem('facebook', values)).body).data;
    assert.deepEqual(
      [session.user.email, session.user.email_verified, session.user.provider, session.user.first_name],
      ['bob@facebook.test', true, 'facebook', 'Bob'],
    );
    const me = graph.calls.filter((c) => c.path.endsWith('/me'));
    assert.equal(me.length, 1);
    assert.match(me[0]!.query.get('appsecret_proof') ?? '', /^[0-9a-f]{64}$/);
    assert.match(me[0]!.authorization, /^Bearer /);
    assert.equal(me[0]!.query.get('fields'), 'id,email,first_name,last_name');
    assert.deepEqual(await accounts('bob@facebook.test', '10001'), [1, 1]);
    // The code again, with a fresh attempt: Facebook refuses it.
    const fresh = await back('facebook', '10001');
    refused(await redeem('facebook', { ...fresh, code: values.code }));
  });

  test('a Facebook account that shares no address makes no account; Cancel comes back with access_denied', async () => {
    graph.people.set('10002', { email: null, first_name: 'Phone', last_name: 'Only' });
    refused(
      await redeem('facebook', await back('facebook', '10002')),
      'The social account shared no email address. Register with your email address instead.',
    );
    assert.equal((await accounts('', '10002'))[1], 0);
    const url = await start('facebook');
    const at = await graph.signIn(url.href, 'cancel');
    assert.deepEqual([at.searchParams.get('error'), at.searchParams.get('code')], ['access_denied', null]);
  });
});

describe('production mode', () => {
  /**
   * A production server with `google` (no stand-ins, no Facebook secret), running `body` with a way to start a
   * sign-in on it; stopped and removed afterwards.
   */
  async function withProduction(
    google: { issuer: string; clientSecret: string },
    body: (origin: string, start: (provider: string) => Promise<Answer>) => Promise<void>,
  ): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'channel-identity-prod-'));
    const prod = await startTestServer({ port: 0, dataDir: join(dir, 'data'), google });
    const post = (path: string, json: unknown) =>
      request(`${prod.origin}/api/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(json),
      });
    try {
      const key = (await post('get_api_key', { channel_key: 'demo' })).body.data.api_key;
      await body(prod.origin, (provider) =>
        post(`v2/auth/social/${provider}/start`, {
          api_key: key,
          redirect_uri: `${prod.origin}/auth/login/${provider}/callback`,
        }),
      );
    } finally {
      await prod.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  test('Google unreachable: starting a sign-in answers 503 with a message saying to try later', async () => {
    // Port 9 (discard) on loopback: nothing listens, the discovery is refused.
    await withProduction({ issuer: 'http://127.0.0.1:9', clientSecret: GOOGLE_SECRET }, async (_origin, startAt) => {
      const res = await startAt('google');
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.message, 'Social sign-in is not available right now. Please try again later.');
    });
  });

  test('offers the providers set up and no other, and never a stand-in', async () => {
    await withProduction({ issuer: op.issuer, clientSecret: GOOGLE_SECRET }, async (origin, startAt) => {
      const settings = endpoints.settings.response.parse(
        (await request(`${origin}/api/settings?channel_key=demo`)).body,
      ).data;
      assert.deepEqual(Object.keys(settings.social ?? {}), ['google']);
      assert.equal((await request(`${origin}/__social/google/authorize`)).status, 404);
      assert.equal((await startAt('facebook')).status, 404);
      const google = await startAt('google');
      assert.equal(google.status, 200, JSON.stringify(google.body));
      ok(String(google.body.data.url).startsWith(`${op.issuer}/auth?`), google.body.data.url);
    });
  });
});
