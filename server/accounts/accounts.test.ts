/**
 * Tests of the accounts API on the reference server: sign-in and its throttle, registration, social sign-in through
 * the stand-in provider pages, email verification, password reset, account deletion, profile update (temporary
 * passwords), orders, transactions, clips, favourites, favourite events and device linking, plus the outbox and
 * settings dev endpoints and the account routes' page. Answers are parsed with the contract's schemas, as the
 * client parses them. Run: node --import tsx --test server/accounts/accounts.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { endpoints, type EndpointName } from '../../src/api/contract.js';
import { prerollOptionsOf, PrerollList } from '../../src/api/preroll-schemas.js';
import { Harness, ok, type Answer } from '../testing/harness.js';

const h = new Harness();
before(() => h.start());
after(() => h.stop());

const FAN = { email: 'fan@example.com', password: 'fan-pass-1' };
const VIEWER = { email: 'viewer@example.com', password: 'viewer-pass-1' };
const TEMP = { email: 'temp@example.com', password: 'temp-pass-1' };
const TERMS = 'You are not registered yet. Please accept terms and conditions and click Register to continue.';

const auth = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
/** GET /api/{path} on demo with the api key and, when given, a bearer token. */
const get = (path: string, token?: string, query = '') =>
  h.call(`/api/${path}?api_key=${h.key}${query ? `&${query}` : ''}`, { headers: auth(token) });
/** POST /api/{path} on demo with the api key in the body and, when given, a bearer token. */
const post = (path: string, body: Record<string, unknown> = {}, token?: string) =>
  h.post(`/api/${path}`, { api_key: h.key, ...body }, auth(token));
const del = (path: string, token?: string) =>
  h.call(`/api/${path}?api_key=${h.key}`, { method: 'DELETE', headers: auth(token) });

/** Signs in and answers the token (the answer parsed with the contract). */
async function signIn(account: { email: string; password: string }): Promise<string> {
  const res = await post('v2/auth/login', account);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return endpoints.login.response.parse(res.body).data.token;
}

/** Asserts a 422 with this message in errors[field] (and, when `top`, as the message too). */
function assertFieldError(res: Answer, field: string, message: string): void {
  assert.equal(res.status, 422, JSON.stringify(res.body));
  ok(
    res.body.errors?.[field]?.includes(message),
    `errors.${field} should hold '${message}': ${JSON.stringify(res.body)}`,
  );
}

/** The emails to an address, newest first. */
async function outbox(to: string): Promise<Array<{ subject: string; text: string; links: string[]; to: string }>> {
  const res = await h.call(`/__dev/outbox?to=${encodeURIComponent(to)}`);
  assert.equal(res.status, 200);
  return res.body.data;
}

/** The query of the newest email's first link to `to`, after checking it opens `path` on this server. */
async function emailedLink(to: string, path: string): Promise<URLSearchParams> {
  const [email] = await outbox(to);
  ok(email, `no email to ${to}`);
  const link = new URL(email.links[0]!);
  assert.equal(`${link.origin}${link.pathname}`, `${h.base}${path}`);
  ok(email.text.includes(email.links[0]!), 'the text carries the link');
  return link.searchParams;
}

let registered = 0;
/** Registers a fresh account and answers its email and token. */
async function register(extra: Record<string, unknown> = {}): Promise<{ email: string; token: string; user: any }> {
  const email = `new${++registered}@example.com`;
  const res = await post('v2/auth/register', {
    first_name: 'Nia',
    last_name: 'New',
    email,
    password: 'new-pass-1',
    password_confirmation: 'new-pass-1',
    terms: true,
    ...extra,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const session = endpoints.register.response.parse(res.body).data;
  return { email, token: session.token, user: session.user };
}

describe('sign-in', () => {
  test('login answers a session for the seeded accounts; a wrong password is refused with the known message', async () => {
    for (const account of [FAN, VIEWER, TEMP]) {
      const res = await post('v2/auth/login', { ...account, email: account.email.toUpperCase() });
      const { user } = endpoints.login.response.parse(res.body).data;
      assert.equal(user.email, account.email);
      assert.equal(user.temporary_password, account === TEMP);
      assert.equal(user.email_verified, true);
      assert.equal(user.provider, 'email');
    }
    const wrong = await post('v2/auth/login', { email: FAN.email, password: 'nope-nope' });
    assertFieldError(wrong, 'email', 'Invalid email or password. Please try again.');
    assert.equal(wrong.body.message, 'Invalid email or password. Please try again.');
  });

  test('five failures in 60 s lock that email for this address (422, not 429), until they age out', async () => {
    const email = 'temp@example.com';
    for (let i = 0; i < 5; i++)
      assert.equal((await post('v2/auth/login', { email, password: `wrong-${i}` })).status, 422);
    const locked = await post('v2/auth/login', { email, password: TEMP.password });
    assertFieldError(locked, 'email', 'Too many login attempts. Please try again in 60 seconds.');
    // Other emails are not affected.
    await signIn(VIEWER);
    h.nowMs += 30_000;
    assertFieldError(
      await post('v2/auth/login', { email, password: TEMP.password }),
      'email',
      'Too many login attempts. Please try again in 30 seconds.',
    );
    h.nowMs += 31_000;
    await signIn(TEMP);
  });

  test('logout ends the token', async () => {
    const token = await signIn(VIEWER);
    const res = await post('auth/logout', {}, token);
    assert.equal(endpoints.logout.response.parse(res.body).data.message, 'Logged out.');
    assert.equal((await get('profile', token)).status, 401);
  });
});

describe('registration and email verification', () => {
  test('register refuses missing fields, a bad email, a short or unconfirmed password, no terms and a taken email', async () => {
    const empty = await post('v2/auth/register', {});
    assert.equal(empty.status, 422);
    assert.deepEqual(Object.keys(empty.body.errors).sort(), ['email', 'first_name', 'last_name', 'password', 'terms']);
    assert.deepEqual(empty.body.errors.terms, [TERMS]);
    const base = {
      first_name: 'A',
      last_name: 'B',
      email: 'someone@example.com',
      password: 'long-enough',
      password_confirmation: 'long-enough',
      terms: true,
    };
    assertFieldError(
      await post('v2/auth/register', { ...base, email: 'not-an-email' }),
      'email',
      'A valid email address is required',
    );
    assertFieldError(
      await post('v2/auth/register', { ...base, password: 'short', password_confirmation: 'short' }),
      'password',
      'The password is too short',
    );
    assertFieldError(
      await post('v2/auth/register', { ...base, password_confirmation: 'different' }),
      'password_confirmation',
      'The password and password confirmation do not match',
    );
    const noTerms = await post('v2/auth/register', { ...base, terms: false });
    assertFieldError(noTerms, 'terms', TERMS);
    assert.deepEqual(Object.keys(noTerms.body.errors), ['terms']);
    assertFieldError(
      await post('v2/auth/register', { ...base, email: 'FAN@example.com' }),
      'email',
      'The email has already been taken.',
    );
    assert.equal((await outbox('someone@example.com')).length, 0);
  });

  test('register signs in unverified, with the news opt-in, and emails a verification link to the site', async () => {
    const { email, token, user } = await register({ news: true });
    assert.deepEqual(
      [user.email, user.first_name, user.email_verified, user.news, user.provider],
      [email, 'Nia', false, true, 'email'],
    );
    assert.deepEqual(user.capabilities, ['watch']);
    assert.equal(endpoints.profile.response.parse((await get('profile', token)).body).data.email_verified, false);
    const query = await emailedLink(email, '/verify-email');
    assert.equal(query.get('email'), email);
    assert.equal(Number(query.get('expires')), Math.floor(h.nowMs / 1000) + 3600);
    assert.match(query.get('signature') ?? '', /^[0-9a-f]{64}$/);
  });

  test('verify-email: the emailed link verifies once; a tampered link fails', async () => {
    const { email, token } = await register();
    const query = Object.fromEntries(await emailedLink(email, '/verify-email'));
    for (const tampered of [
      { ...query, signature: query.signature!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) },
      { ...query, expires: String(Number(query.expires) + 3600) },
      { ...query, email: 'fan@example.com' },
      { ...query, signature: '' },
    ]) {
      const res = await post('auth/email-verify', tampered);
      assert.equal(res.status, 422);
      assert.equal(res.body.message, 'Verification failed');
    }
    const res = await post('auth/email-verify', query);
    assert.equal(endpoints.emailVerify.response.parse(res.body).data.message, 'Your email address is verified.');
    assert.equal(endpoints.profile.response.parse((await get('profile', token)).body).data.email_verified, true);
    const again = await post('auth/email-verify', query);
    assert.equal(again.status, 422);
    assert.equal(again.body.message, 'Email already verified');
    const resend = await post('auth/email-verify/resend', {}, token);
    assert.equal(resend.status, 422);
    assert.equal(resend.body.message, 'Email already verified');
  });

  test('verify-email: a link older than 60 minutes fails; resend emails a new one that works', async () => {
    const { email, token } = await register();
    const old = Object.fromEntries(await emailedLink(email, '/verify-email'));
    h.nowMs += 61 * 60_000;
    const expired = await post('auth/email-verify', old);
    assert.equal(expired.status, 422);
    assert.equal(expired.body.message, 'Verification failed');
    const resend = await post('auth/email-verify/resend', {}, token);
    assert.equal(
      endpoints.emailVerifyResend.response.parse(resend.body).data.message,
      `We sent a new link to ${email}.`,
    );
    assert.equal((await outbox(email)).length, 2);
    const fresh = Object.fromEntries(await emailedLink(email, '/verify-email'));
    assert.equal((await post('auth/email-verify', fresh)).status, 200);
  });
});

describe('password reset', () => {
  test('the request answers the same for unknown emails and sends nothing to them', async () => {
    const known = await post('auth/password-reset-request', { email: VIEWER.email });
    const unknown = await post('auth/password-reset-request', { email: 'nobody@example.com' });
    assert.equal(known.status, 200);
    assert.deepEqual(
      endpoints.passwordResetRequest.response.parse(unknown.body),
      endpoints.passwordResetRequest.response.parse(known.body),
    );
    assert.equal((await outbox('nobody@example.com')).length, 0);
    assertFieldError(
      await post('auth/password-reset-request', { email: 'nope' }),
      'email',
      'A valid email address is required',
    );
  });

  test('reset with the emailed link: unknown email, wrong token, weak password, then success ends old sessions', async () => {
    const { email, token: session } = await register();
    await post('auth/password-reset-request', { email });
    const query = await emailedLink(email, '/password-reset');
    const token = query.get('token')!;
    assert.match(token, /^[0-9a-f]{64}$/);
    const body = { email, token, password: 'brand-new-1', password_confirmation: 'brand-new-1' };
    // An unknown email answers like a wrong link: the form does not tell who has an account.
    const ghost = await post('auth/password-reset', { ...body, email: 'ghost@example.com' });
    assert.deepEqual([ghost.status, ghost.body.message], [422, 'Reset password failed']);
    const wrong = await post('auth/password-reset', { ...body, token: 'f'.repeat(64) });
    assert.equal(wrong.status, 422);
    assert.equal(wrong.body.message, 'Reset password failed');
    assertFieldError(
      await post('auth/password-reset', { ...body, password: 'short', password_confirmation: 'short' }),
      'password',
      'The password is too short',
    );
    const done = await post('auth/password-reset', body);
    assert.equal(
      endpoints.passwordReset.response.parse(done.body).data.message,
      'Your password has been changed. You can sign in with the new one.',
    );
    assert.equal((await get('profile', session)).status, 401);
    assert.equal((await post('v2/auth/login', { email, password: 'new-pass-1' })).status, 422);
    await signIn({ email, password: 'brand-new-1' });
    // The link works once.
    assert.equal((await post('auth/password-reset', body)).body.message, 'Reset password failed');
  });

  test('a caller signed in with a live token is refused a reset link, which still works once signed out', async () => {
    const { email, token: session } = await register();
    const other = await signIn(VIEWER);
    await post('auth/password-reset-request', { email });
    const token = (await emailedLink(email, '/password-reset')).get('token')!;
    const body = { email, token, password: 'brand-new-1', password_confirmation: 'brand-new-1' };
    for (const bearerToken of [session, other]) {
      const refused = await post('auth/password-reset', body, bearerToken);
      assert.deepEqual([refused.status, refused.body.message], [422, 'You are already logged in']);
    }
    assert.equal((await get('profile', session)).status, 200, 'nothing changed: the session lives');
    assert.equal((await post('auth/logout', {}, session)).status, 200);
    // A token that no longer signs anyone in is a guest's.
    assert.equal((await post('auth/password-reset', body, session)).status, 200);
    await signIn({ email, password: 'brand-new-1' });
  });

  test('a reset link older than 60 minutes: Reset password key expired', async () => {
    const { email } = await register();
    await post('auth/password-reset-request', { email });
    const token = (await emailedLink(email, '/password-reset')).get('token')!;
    h.nowMs += 61 * 60_000;
    const res = await post('auth/password-reset', {
      email,
      token,
      password: 'brand-new-1',
      password_confirmation: 'brand-new-1',
    });
    assert.equal(res.status, 422);
    assert.equal(res.body.message, 'Reset password key expired');
  });
});

describe('account deletion', () => {
  test('the emailed link deletes the account, its tokens, favourites and orders (keyless confirm)', async () => {
    const { email, token } = await register();
    const team = endpoints.participants.response.parse((await h.keyless('participants', 'limit=1')).body).data[0]!;
    assert.equal(
      (await post('favorite', { favoritable_id: team.id, favoritable_type: 'participant' }, token)).status,
      200,
    );
    const asked = await post('auth/delete-account', {}, token);
    assert.match(
      endpoints.deleteAccount.response.parse(asked.body).data.message,
      /We sent a link to new\d+@example.com/,
    );
    const query = await emailedLink(email, '/confirm-account-deletion');
    assert.equal(query.get('email'), email);
    const confirm = (body: Record<string, unknown>) =>
      h.post('/api/delete-account-confirm', { channel_key: 'demo', ...body });
    assert.equal((await h.post('/api/delete-account-confirm', { email, token: query.get('token') })).status, 403);
    const wrong = await confirm({ email, token: 'a'.repeat(64) });
    assert.equal(wrong.status, 422);
    assert.equal(wrong.body.message, 'The link to delete the account is invalid or has expired.');
    const ghost = await confirm({ email: 'ghost@example.com', token: query.get('token') });
    assert.deepEqual(
      [ghost.status, ghost.body.message],
      [422, 'The link to delete the account is invalid or has expired.'],
    );
    const done = await confirm({ email, token: query.get('token') });
    assert.equal(
      endpoints.deleteAccountConfirm.response.parse(done.body).data.message,
      'Your account has been deleted.',
    );
    assert.equal((await get('profile', token)).status, 401);
    assert.equal((await post('v2/auth/login', { email, password: 'new-pass-1' })).status, 422);
    assert.equal((await h.server.db.get('SELECT count(*) AS n FROM users WHERE email = ?', [email]))!.n, 0);
    assert.equal(
      (await h.server.db.get(
        'SELECT count(*) AS n FROM favourites f LEFT JOIN users u ON u.id = f.user_id WHERE u.id IS NULL',
      ))!.n,
      0,
    );
    assert.equal(
      (await h.server.db.get(
        'SELECT count(*) AS n FROM tokens t LEFT JOIN users u ON u.id = t.user_id WHERE u.id IS NULL',
      ))!.n,
      0,
    );
  });
});

describe('profile update', () => {
  test('POST profile with _method=patch updates names, gender, news and the password', async () => {
    const { email, token } = await register();
    assert.equal((await post('profile', { first_name: 'X' }, token)).status, 405);
    assertFieldError(
      await post('profile', { _method: 'patch', gender: 'X' }, token),
      'gender',
      'The selected gender is invalid.',
    );
    assertFieldError(
      await post('profile', { _method: 'patch', first_name: ' ' }, token),
      'first_name',
      'The first name field is required.',
    );
    assertFieldError(
      await post('profile', { _method: 'patch', password: 'another-1', password_confirmation: 'another-2' }, token),
      'password_confirmation',
      'The password and password confirmation do not match',
    );
    const res = await post(
      'profile',
      { _method: 'PATCH', first_name: 'Nora', last_name: 'Newer', gender: 'W', news: true },
      token,
    );
    const user = endpoints.updateProfile.response.parse(res.body).data;
    assert.deepEqual([user.first_name, user.last_name, user.gender, user.news], ['Nora', 'Newer', 'W', true]);
    const cleared = endpoints.updateProfile.response.parse(
      (await post('profile', { _method: 'patch', gender: null, news: 0 }, token)).body,
    ).data;
    assert.deepEqual([cleared.first_name, cleared.gender, cleared.news], ['Nora', null, false]);
    assert.equal(
      (
        await post(
          'profile',
          {
            _method: 'patch',
            password: 'another-1',
            password_confirmation: 'another-1',
            current_password: 'new-pass-1',
          },
          token,
        )
      ).status,
      200,
    );
    await signIn({ email, password: 'another-1' });
  });

  test('a temporary-password user must send a new password, which clears the flag', async () => {
    const token = await signIn(TEMP);
    assertFieldError(
      await post('profile', { _method: 'patch', first_name: 'Terry' }, token),
      'password',
      'The password field is required.',
    );
    const res = await post(
      'profile',
      {
        _method: 'patch',
        password: 'temp-pass-2',
        password_confirmation: 'temp-pass-2',
        current_password: TEMP.password,
      },
      token,
    );
    assert.equal(endpoints.updateProfile.response.parse(res.body).data.temporary_password, false);
    assert.equal(endpoints.profile.response.parse((await get('profile', token)).body).data.temporary_password, false);
    await signIn({ email: TEMP.email, password: 'temp-pass-2' });
    // Back to the seeded state for anyone after this test.
    await post(
      'profile',
      {
        _method: 'patch',
        password: TEMP.password,
        password_confirmation: TEMP.password,
        current_password: 'temp-pass-2',
      },
      token,
    );
    await h.server.db.run('UPDATE users SET temporary_password = 1 WHERE email = ?', [TEMP.email]);
  });
});

describe('orders, transactions and clips', () => {
  test("the fan's orders: an auto-renewing monthly subscription, a single event and a refunded one", async () => {
    const token = await signIn(FAN);
    const res = await get('orders', token);
    const { data: orders, meta } = endpoints.orders.response.parse(res.body);
    assert.equal(orders.length, 3);
    assert.deepEqual(meta, { total: 3, offset: 0, limit: 20 });
    const now = Math.floor(h.nowMs / 1000);
    const [event, refunded, sub] = orders; // newest first
    assert.equal(sub?.type, 'subscription');
    assert.deepEqual(
      [sub?.status, sub?.activity_status, sub?.subscription_status, sub?.auto_renewal],
      ['paid', 'active', 'active', 'active'],
    );
    assert.deepEqual(
      [sub?.product.name, sub?.price, sub?.currency, sub?.reference],
      ['All-Access Monthly', 9.99, 'USD', 'DSN-20410'],
    );
    ok(
      sub!.expires_at! > now && sub!.expires_at! < now + 32 * 86400,
      'the subscription runs to the end of the paid month',
    );
    assert.deepEqual([event?.type, event?.status, event?.product.id], ['event', 'paid', h.id('paid-finished')]);
    ok(event?.product.event_category_id && event.product.name, 'the event order names its event and category');
    assert.equal(event?.subscription_status, null);
    assert.deepEqual(
      [refunded?.status, refunded?.activity_status, refunded?.product.id],
      ['refunded', 'inactive', h.id('paid-live')],
    );
    ok(orders.every((o, i) => i === 0 || o.created_at <= orders[i - 1]!.created_at));

    const page = endpoints.orders.response.parse((await get('orders', token, 'limit=1&offset=1')).body);
    assert.deepEqual(page.meta, { total: 3, offset: 1, limit: 1 });
    assert.equal(page.data[0]?.id, refunded?.id);
    assert.equal(endpoints.orders.response.parse((await get('orders', token, 'no_limit=1')).body).data.length, 3);

    const one = endpoints.order.response.parse((await get(`orders/${sub!.id}`, token)).body).data;
    assert.deepEqual(one, sub);
    const other = await signIn(VIEWER);
    assert.equal((await get(`orders/${sub!.id}`, other)).status, 404);
    assert.equal((await get('orders/nope', token)).status, 404);
    assert.deepEqual(endpoints.orders.response.parse((await get('orders', other)).body).data, []);
    // The existing accounts' orders read the same way (their price comes from the product).
    const buyer = endpoints.orders.response.parse((await h.api('orders', 'buyer')).body).data;
    ok(
      buyer.some((o) => o.status === 'failed' && o.error) &&
        buyer.every((o) => o.price !== null && o.currency === 'USD'),
    );
    // The subscription gives access to paid events.
    const paidLive = endpoints.event.response.parse((await get(`events/${h.id('paid-live')}`, token)).body).data;
    assert.equal(paidLive.has_access, true);
  });

  test('transactions carry the subscription labels; clips list their events and states', async () => {
    const token = await signIn(FAN);
    const { data: transactions, meta } = endpoints.transactions.response.parse((await get('transactions', token)).body);
    assert.equal(meta?.total, transactions.length);
    const labels = transactions
      .filter((t) => t.label)
      .map((t) => t.label)
      .sort();
    assert.deepEqual(labels, ['New subscription', 'Subscription Renewal']);
    ok(transactions.some((t) => t.status === 'refunded' && t.amount > 0 && t.product_name));
    ok(transactions.every((t) => t.currency === 'USD' && t.product_name));

    const clips = endpoints.userClips.response.parse((await get('clips/user', token)).body).data;
    // The seeded processing clip is cut by the queue as the server starts: it may be done already.
    const status = Object.fromEntries(clips.map((c) => [c.name, c.status]));
    assert.equal(status['Overtime winner'], 'done');
    ok(['queued', 'processing', 'done'].includes(String(status['Opening drive'])), JSON.stringify(status));
    for (const clip of clips) {
      assert.equal(clip.event?.id, clip.event_id);
      ok(clip.uuid && clip.tags.length > 0 && clip.duration > 0, 'a clip has its uuid, tags and duration');
    }
    ok(clips.some((c) => c.event_id === h.id('paid-finished') && c.name === 'Overtime winner'));
    const profile = endpoints.profile.response.parse((await get('profile', token)).body).data;
    assert.deepEqual(profile.capabilities, ['watch', 'download', 'clipping', 'download_clip']);
    assert.equal(profile.featureCount?.clips, 2);
  });
});

describe('favourites', () => {
  test("the fan's favourites by kind, with favourite events and locations derived from them", async () => {
    const token = await signIn(FAN);
    const favs = endpoints.favourites.response.parse((await get('favorites', token)).body).data;
    assert.deepEqual(
      [
        favs.participant.map((f) => f.name),
        favs.participant_group.map((f) => f.name),
        favs.event_category.map((f) => f.name),
      ],
      [["Coastal Pacific Gulls Men's Soccer"], ['Northfield University'], ['Hockey']],
    );
    assert.equal(favs.participant[0]?.favoritable_type, 'participant');
    assert.equal(favs.participant_group[0]?.favoritable_type, 'group');
    assert.equal(favs.event_category[0]?.favoritable_type, 'category');
    ok(favs.favorite_event.length > 0, 'favourite events are derived');
    const now = Math.floor(h.nowMs / 1000);
    // From now on: live and upcoming, each one an event of a favourite.
    const all = endpoints.events.response.parse((await get('events', token, 'limit=5000')).body).data;
    const byId = new Map(all.map((e) => [e.id, e]));
    for (const e of favs.favorite_event)
      ok(byId.get(e.id)?.stream_status !== 'finished', `event ${e.id} is live or upcoming`);
    ok(
      favs.favorite_event.some((e) => e.id === h.id('paid-live')),
      'the favourite team plays paid-live',
    );
    ok(favs.favorite_event.some((e) => e.event_utc_ts > now));
    const venues = new Set(favs.favorite_event.map((e) => byId.get(e.id)?.location_id));
    ok(
      favs.event_location.length > 0 && favs.event_location.every((l) => venues.has(l.id)),
      'locations are those of the favourite events',
    );
  });

  test('add (validated on the server too), add again, remove; only your own', async () => {
    const { token } = await register();
    const fan = await signIn(FAN);
    const team = endpoints.participants.response.parse((await h.keyless('participants', 'limit=1')).body).data[0]!;
    const frTeam = endpoints.participants.response.parse(
      (await h.call('/api/participants?channel_key=demo-fr&limit=1')).body,
    ).data[0]!;
    assertFieldError(
      await post('favorite', { favoritable_id: team.id, favoritable_type: 'team' }, token),
      'favoritable_type',
      'The favoritable type must be one of participant, group, category.',
    );
    assertFieldError(
      await post('favorite', { favoritable_id: team.id, favoritable_type: 5 }, token),
      'favoritable_type',
      'The favoritable type must be one of participant, group, category.',
    );
    assertFieldError(
      await post('favorite', { favoritable_type: 'participant' }, token),
      'favoritable_id',
      'The favoritable id field is required.',
    );
    assertFieldError(
      await post('favorite', { favoritable_id: frTeam.id, favoritable_type: 'participant' }, token),
      'favoritable_id',
      'The selected favoritable id is invalid.',
    );
    assertFieldError(
      await post('favorite', { favoritable_id: 999999, favoritable_type: 'group' }, token),
      'favoritable_id',
      'The selected favoritable id is invalid.',
    );

    const added = endpoints.addFavourite.response.parse(
      (await post('favorite', { favoritable_id: String(team.id), favoritable_type: 'participant' }, token)).body,
    ).data;
    assert.deepEqual([added.favoritable_id, added.favoritable_type, added.name], [team.id, 'participant', team.name]);
    const again = endpoints.addFavourite.response.parse(
      (await post('favorite', { favoritable_id: team.id, favoritable_type: 'participant' }, token)).body,
    ).data;
    assert.equal(again.id, added.id);
    const listed = endpoints.favourites.response.parse((await get('favorites', token)).body).data;
    assert.deepEqual(
      listed.participant.map((f) => f.id),
      [added.id],
    );

    const fanFavourite = endpoints.favourites.response.parse((await get('favorites', fan)).body).data.participant[0]!;
    assert.equal((await del(`favorite/${fanFavourite.id}`, token)).status, 404);
    assert.equal((await del('favorite/999999', token)).status, 404);
    const removed = await del(`favorite/${added.id}`, token);
    assert.equal(endpoints.deleteFavourite.response.parse(removed.body).data.message, 'Favourite removed.');
    assert.deepEqual(endpoints.favourites.response.parse((await get('favorites', token)).body).data.participant, []);
    assert.equal((await del(`favorite/${added.id}`, token)).status, 404);
  });

  test('events/favorite: the events of favourite teams, schools and sports, with the events query; none without favourites', async () => {
    const token = await signIn(FAN);
    const res = await get('events/favorite', token, 'limit=5000');
    const { data, meta } = endpoints.favouriteEvents.response.parse(res.body);
    ok(data.length > 0 && meta.total === data.length);
    const favs = endpoints.favourites.response.parse((await get('favorites', token)).body).data;
    const team = favs.participant[0]!.favoritable_id;
    const school = favs.participant_group[0]!.favoritable_id;
    const cats = endpoints.eventCategories.response.parse((await get('events-categories')).body).data;
    const hockey = cats.find((c) => c.id === favs.event_category[0]!.favoritable_id)!;
    const hockeyIds = new Set([hockey.id, ...(hockey.children ?? []).map((c) => c.id)]);
    for (const e of data) {
      ok(
        e.participants.some((p) => p.id === team || p.participant_group_id === school) ||
          hockeyIds.has(e.event_category_id ?? -1),
        `event ${e.id} involves a favourite`,
      );
    }
    ok(data.some((e) => e.participants.some((p) => p.participant_group_id === school)));
    ok(data.some((e) => hockeyIds.has(e.event_category_id ?? -1)));
    const upcoming = endpoints.favouriteEvents.response.parse(
      (
        await get(
          'events/favorite',
          token,
          'stream_status=upcoming&limit=2&sort_field=event_utc_ts&sort_direction=desc&start_date=',
        )
      ).body,
    );
    ok(upcoming.data.length === 2 && upcoming.data.every((e) => e.stream_status === 'upcoming'));
    ok(upcoming.data[0]!.event_utc_ts >= upcoming.data[1]!.event_utc_ts);
    assert.equal((await get('events/favorite', token, 'stream_status=soon')).status, 422);
    // A calendar's day (unix seconds): only the favourites' events that start in it.
    const first = data[0]!.event_utc_ts;
    const day = endpoints.favouriteEvents.response.parse(
      (await get('events/favorite', token, `start_date=${first}&end_date=${first + 86399}&limit=100`)).body,
    ).data;
    ok(day.length > 0 && day.length < data.length, 'a day of the favourites, not all of them');
    ok(day.every((e) => e.event_utc_ts >= first && e.event_utc_ts <= first + 86399));

    const none = endpoints.favouriteEvents.response.parse((await get('events/favorite', await signIn(VIEWER))).body);
    assert.deepEqual(none, { data: [], meta: { total: 0, offset: 0, limit: 20 } });
    assert.equal((await get('events/favorite')).status, 401);
    // events/{id} still answers single events.
    assert.equal((await get(`events/${h.id('free-live')}`)).status, 200);
  });
});

describe('social sign-in', () => {
  const callback = (provider = 'google') => `${h.base}/auth/login/${provider}/callback`;
  /** Starts a sign-in as the client does (POST .../start); answers the stand-in page's URL it gives. */
  async function start(provider = 'google', key = h.key): Promise<URL> {
    const res = await h.post(`/api/v2/auth/social/${provider}/start`, {
      api_key: key,
      redirect_uri: callback(provider),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.headers.get('cache-control'), 'no-store');
    return new URL(endpoints.socialStart.response.parse(res.body).data.url);
  }
  /** Posts the stand-in's form as a browser would (the request's fields, and more); answers the redirect target. */
  async function submit(
    fields: Record<string, string>,
    provider = 'google',
  ): Promise<{ status: number; location: URL | null; text: string }> {
    const res = await fetch(`${h.base}/__social/${provider}/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    const location = res.headers.get('location');
    return { status: res.status, location: location ? new URL(location) : null, text: await res.text() };
  }
  /** A whole sign-in up to the code: started, then Continue as `email`; answers the callback's code and state. */
  async function code(
    email = 'social.fan@example.com',
    extra: Record<string, string> = { email_verified: '1' },
    provider = 'google',
    key = h.key,
  ): Promise<{ code: string; state: string }> {
    const url = await start(provider, key);
    const back = await submit(
      { ...Object.fromEntries(url.searchParams), action: 'continue', email, ...extra },
      provider,
    );
    assert.equal(back.status, 303, back.text);
    return { code: back.location!.searchParams.get('code')!, state: back.location!.searchParams.get('state')! };
  }
  const signIn = (redeem: { code: string; state: string }, provider = 'google', key = h.key) =>
    h.post(`/api/v2/auth/social/${provider}`, { api_key: key, ...redeem, redirect_uri: callback(provider) });

  test('settings name the stand-ins on the public origin, whatever address the request used; the site URL is left to the server origin', async () => {
    const settings = endpoints.settings.response.parse((await h.keyless('settings')).body).data;
    assert.deepEqual(settings.social?.google, {
      client_id: 'demo-google-client',
      authorize_url: `${h.base}/__social/google/authorize`,
      scope: 'openid email profile',
    });
    assert.equal(settings.social?.facebook?.authorize_url, `${h.base}/__social/facebook/authorize`);
    assert.equal(settings.site_url, null);
    const viaIp = endpoints.settings.response.parse(
      (await h.call(`http://127.0.0.1:${h.server.port}/api/settings?channel_key=demo`)).body,
    ).data;
    assert.equal(viaIp.social?.google?.authorize_url, `${h.base}/__social/google/authorize`);
    const fr = endpoints.settings.response.parse((await h.call('/api/settings?channel_key=demo-fr')).body).data;
    assert.equal(fr.social?.google?.client_id, 'demo-fr-google-client');
  });

  test('round trip: start (state, nonce, PKCE), the stand-in page, Continue redirects with a one-time code, the API signs in', async () => {
    const url = await start();
    assert.equal(`${url.origin}${url.pathname}`, `${h.base}/__social/google/authorize`);
    const q = Object.fromEntries(url.searchParams);
    assert.deepEqual(
      [q.client_id, q.redirect_uri, q.response_type, q.code_challenge_method],
      ['demo-google-client', callback(), 'code', 'S256'],
    );
    ok(/^[\w-]{43}$/.test(q.state!) && /^[\w-]{43}$/.test(q.nonce!) && /^[\w-]{43}$/.test(q.code_challenge!), q.state);
    ok(!url.href.includes(h.key), 'the api key is not sent to the provider');
    const page = await fetch(url);
    assert.equal(page.status, 200);
    ok(
      (page.headers.get('content-security-policy') ?? '').includes("script-src 'self'"),
      'the page runs under the demo CSP',
    );
    const html = await page.text();
    ok(html.includes('<form method="post"') && html.includes('value="social.fan@example.com"'), html);
    ok(/name="email_verified" value="1" checked/.test(html), 'verified by default');
    ok(!/<script|style=|\son\w+=/i.test(html), 'no inline script, style or event handler');

    const back = await submit({
      ...q,
      action: 'continue',
      email: 'social.fan@example.com',
      email_verified: '1',
      first_name: 'Social',
      last_name: 'Fan',
    });
    assert.equal(back.status, 303);
    assert.equal(`${back.location!.origin}${back.location!.pathname}`, callback());
    assert.equal(back.location!.searchParams.get('state'), q.state);
    const redeem = { code: back.location!.searchParams.get('code')!, state: q.state! };
    // The callback route serves the account page.
    const callbackPage = await fetch(back.location!);
    assert.equal(callbackPage.status, 200);
    ok((await callbackPage.text()).includes('<channel-profile'));

    const res = await signIn(redeem);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const session = endpoints.socialLogin.response.parse(res.body).data;
    assert.deepEqual(
      [session.user.email, session.user.provider, session.user.email_verified, session.user.first_name],
      ['social.fan@example.com', 'google', true, 'Social'],
    );
    assert.equal(
      endpoints.profile.response.parse((await get('profile', session.token)).body).data.email,
      'social.fan@example.com',
    );
    // One-time: the attempt is spent.
    assertFieldError(await signIn(redeem), 'code', 'Wrong auth data');
    // The same person again: the same account.
    const again = endpoints.socialLogin.response.parse((await signIn(await code())).body).data;
    assert.equal(again.user.id, session.user.id);
    // An existing (verified) email account: linked to it, it signs in as itself.
    const fan = endpoints.socialLogin.response.parse((await signIn(await code(FAN.email))).body).data;
    assert.deepEqual([fan.user.email, fan.user.provider], [FAN.email, 'email']);
  });

  test('an attempt is bound to its api key, channel, provider and redirect URI; a stand-in code lives 5 minutes', async () => {
    // Another browser (another api key) cannot bring back this one's code and state.
    assertFieldError(await signIn(await code(), 'google', await h.apiKey('demo')), 'code', 'Wrong auth data');
    // A state of no attempt at all.
    assertFieldError(await signIn({ ...(await code()), state: 'x'.repeat(43) }), 'code', 'Wrong auth data');
    assertFieldError(
      await h.post('/api/v2/auth/social/google', {
        api_key: h.key,
        ...(await code()),
        redirect_uri: `${h.base}/other/auth/login/google/callback`,
      }),
      'code',
      'Wrong auth data',
    );
    assertFieldError(
      await h.post('/api/v2/auth/social/facebook', { api_key: h.key, ...(await code()), redirect_uri: callback() }),
      'code',
      'Wrong auth data',
    );
    const frKey = await h.apiKey('demo-fr');
    assertFieldError(await signIn(await code(), 'google', frKey), 'code', 'Wrong auth data');
    const late = await code();
    h.nowMs += 301_000;
    assertFieldError(await signIn(late), 'code', 'Wrong auth data');
    // Start refuses a redirect URI that is not one of the channel's callbacks, and an unknown network.
    const bad = await post('v2/auth/social/google/start', {
      redirect_uri: 'https://evil.example/auth/login/google/callback',
    });
    assertFieldError(bad, 'redirect_uri', "The redirect URI is not one of this channel's sign-in callbacks.");
    assert.equal((await post('v2/auth/social/twitter/start', { redirect_uri: callback() })).status, 404);
    assert.equal(
      (await post('v2/auth/social/twitter', { code: 'x', state: 'y', redirect_uri: callback() })).status,
      404,
    );
    assert.deepEqual(Object.keys((await post('v2/auth/social/google', {})).body.errors).sort(), [
      'code',
      'redirect_uri',
      'state',
    ]);
  });

  test('a first sign-in without a verified address makes no account, and says why', async () => {
    const email = 'unverified.social@example.com';
    const unverified = await signIn(await code(email, {}));
    assertFieldError(
      unverified,
      'code',
      'The email address of the social account is not verified. Verify it with the provider, or register with your email address instead.',
    );
    assert.equal((await h.server.db.get('SELECT count(*) AS n FROM users WHERE email = ?', [email]))!.n, 0);
  });

  test('Cancel redirects with access_denied; a bad client, redirect_uri or missing PKCE gets an error page and no redirect', async () => {
    const valid = Object.fromEntries((await start()).searchParams);
    const cancel = await submit({ ...valid, action: 'cancel', email: '' });
    assert.equal(cancel.status, 303);
    assert.equal(cancel.location!.searchParams.get('error'), 'access_denied');
    assert.equal(cancel.location!.searchParams.get('state'), valid.state);
    assert.equal(cancel.location!.searchParams.get('code'), null);
    const badEmail = await submit({ ...valid, action: 'continue', email: 'nope' });
    assert.equal(badEmail.status, 422);
    ok(badEmail.text.includes('A valid email address is required') && badEmail.location === null);
    const authorizeUrl = (query: Record<string, string>) =>
      `${h.base}/__social/google/authorize?${new URLSearchParams(query)}`;
    for (const bad of [
      { ...valid, client_id: 'someone-else' },
      { ...valid, client_id: 'demo-facebook-client' },
      { ...valid, redirect_uri: 'https://evil.example/steal' },
      { ...valid, redirect_uri: 'javascript:alert(1)//auth/login/google/callback' },
      { ...valid, redirect_uri: `${h.base}/auth/login/facebook/callback` },
      { ...valid, response_type: 'token' },
      { ...valid, state: '' },
      { ...valid, code_challenge: '' },
      { ...valid, code_challenge_method: 'plain' },
    ]) {
      const page = await fetch(authorizeUrl(bad), { redirect: 'manual' });
      assert.equal(page.status, 400, JSON.stringify(bad));
      assert.equal(page.headers.get('location'), null);
      const posted = await submit({ ...bad, action: 'continue', email: 'social.fan@example.com' });
      assert.deepEqual([posted.status, posted.location], [400, null]);
    }
    assert.equal((await fetch(`${h.base}/__social/twitter/authorize`)).status, 404);
  });
});

describe('device linking', () => {
  const newCode = async (key = h.key) => {
    const res = await h.post('/api/auth/device-code', { api_key: key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as { code: string; expires_in: number };
  };
  const poll = (code: string, key = h.key) => h.call(`/api/auth/device-code/${code}?api_key=${key}`);

  test('with remote_auth on: the TV gets a code, a viewer links it, the TV gets its own token once', async () => {
    const tvKey = await h.apiKey('demo');
    const { code, expires_in } = await newCode(tvKey);
    assert.match(code, /^[A-Z2-9]{6}$/);
    assert.equal(expires_in, 600);
    assert.deepEqual((await poll(code, tvKey)).body.data, { status: 'pending', expires_in: 600 });
    const fan = await signIn(FAN);
    assertFieldError(
      await post('auth/add_session', { code: 'ZZZZZZ' }, fan),
      'code',
      'The code is invalid or has expired.',
    );
    assertFieldError(await post('auth/add_session', {}, fan), 'code', 'The code field is required.');
    const linked = await post('auth/add_session', { code: `${code.slice(0, 3).toLowerCase()}-${code.slice(3)}` }, fan);
    assert.equal(endpoints.addSession.response.parse(linked.body).data.message, 'Your device is now linked.');
    assertFieldError(await post('auth/add_session', { code }, fan), 'code', 'The code is invalid or has expired.');
    // Only the TV's own api key may poll the code.
    assert.equal((await poll(code, h.key)).status, 404);
    const first = (await poll(code, tvKey)).body.data;
    assert.deepEqual([first.status, first.email], ['linked', FAN.email]);
    assert.match(first.token, /^[0-9a-f]{64}$/);
    assert.equal(
      endpoints.profile.response.parse(
        (await h.call(`/api/profile?api_key=${tvKey}`, { headers: auth(first.token) })).body,
      ).data.email,
      FAN.email,
    );
    assert.deepEqual((await poll(code, tvKey)).body.data, { status: 'linked', email: FAN.email });
    assert.equal((await poll('NOPE22', tvKey)).status, 404);
    const [notice] = await outbox(FAN.email);
    assert.match(notice!.subject, /device was linked/);
  });

  test('a code expires after 10 minutes', async () => {
    const { code } = await newCode();
    h.nowMs += 601_000;
    assert.deepEqual((await poll(code)).body.data, { status: 'expired' });
    assertFieldError(
      await post('auth/add_session', { code }, await signIn(VIEWER)),
      'code',
      'The code is invalid or has expired.',
    );
  });

  test('with remote_auth off: 403 for linking and for new codes; the dev endpoint restores the fixture', async () => {
    const { code } = await newCode();
    const off = await h.post('/__dev/settings?channel_key=demo', { auth: { remote_auth: 0 } });
    assert.equal(off.status, 200);
    assert.equal(off.body.data.auth.remote_auth, 0);
    assert.equal(off.body.data.name, 'Demo Sports Network');
    assert.equal(endpoints.settings.response.parse((await h.keyless('settings')).body).data.auth.remote_auth, false);
    const token = await signIn(VIEWER);
    const refused = await post('auth/add_session', { code }, token);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, 'Device linking is not enabled for this channel.');
    assert.equal((await h.post('/api/auth/device-code', { api_key: h.key })).status, 403);
    const restored = await h.call('/__dev/settings?channel_key=demo', { method: 'DELETE' });
    assert.equal(restored.body.data.auth.remote_auth, 1);
    assert.equal((await post('auth/add_session', { code }, token)).status, 200);
    // demo-fr has it off in its fixture.
    const frKey = await h.apiKey('demo-fr');
    assert.equal((await h.post('/api/auth/device-code', { api_key: frKey })).status, 403);
    assert.equal((await h.call('/__dev/settings?channel_key=nope')).status, 404);
  });

  test('settings stored before the preroll list moved there keep their switch and suppression', async () => {
    try {
      const older = await h.post('/__dev/settings?channel_key=demo', {
        preroll_options: null,
        prerolls: { enabled: 0, suppression_minutes: 5 },
      });
      assert.equal(older.status, 200);
      const settings = endpoints.settings.response.parse((await h.keyless('settings')).body).data;
      assert.deepEqual(prerollOptionsOf(settings.preroll_options), { enabled: false, suppression_minutes: 5 });
      assert.equal(PrerollList.parse(settings.prerolls).length, 3);
    } finally {
      await h.call('/__dev/settings?channel_key=demo', { method: 'DELETE' });
    }
  });
});

describe('the rest', () => {
  test('every signed-in endpoint answers 401 Unauthenticated. without a valid token', async () => {
    const signedIn: EndpointName[] = [
      'profile',
      'userAccess',
      'emailVerifyResend',
      'addSession',
      'deleteAccount',
      'updateProfile',
      'orders',
      'order',
      'transactions',
      'userClips',
      'createClip',
      'eventClips',
      'eventsWithClip',
      'clipDownload',
      'deleteClip',
      'favourites',
      'addFavourite',
      'deleteFavourite',
      'favouriteEvents',
      'logout',
    ];
    for (const name of signedIn) {
      const { method, path } = endpoints[name];
      const url = path.replace(/\{\w+\}/, '1');
      for (const headers of [{}, auth('0'.repeat(64))]) {
        const res =
          method === 'GET' || method === 'DELETE'
            ? await h.call(`/api/${url}?api_key=${h.key}`, { method, headers })
            : await h.post(
                `/api/${url}`,
                {
                  api_key: h.key,
                  _method: 'patch',
                  code: 'AAAAAA',
                  favoritable_id: 1,
                  favoritable_type: 'participant',
                },
                headers,
              );
        assert.equal(res.status, 401, `${name}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.message, 'Unauthenticated.');
      }
    }
  });

  test('the outbox lists newest first, filters by address and clears; links use settings site_url when set', async () => {
    await h.call('/__dev/outbox', { method: 'DELETE' });
    assert.deepEqual((await h.call('/__dev/outbox')).body.data, []);
    await h.post('/__dev/settings?channel_key=demo', { site_url: 'https://watch.example.com/channel/' });
    try {
      await post('auth/password-reset-request', { email: VIEWER.email });
      await post('auth/password-reset-request', { email: FAN.email });
    } finally {
      await h.call('/__dev/settings?channel_key=demo', { method: 'DELETE' });
    }
    const all = (await h.call('/__dev/outbox')).body.data;
    assert.deepEqual(
      all.map((e: { to: string }) => e.to),
      [FAN.email, VIEWER.email],
    );
    ok(all[0].id > all[1].id && all[0].channel_key === 'demo' && all[0].sent_at > 0);
    assert.match(
      all[0].links[0],
      /^https:\/\/watch\.example\.com\/channel\/password-reset\?email=fan%40example\.com&token=[0-9a-f]{64}$/,
    );
    assert.equal((await outbox('FAN@example.com')).length, 1);
    await h.call(`/__dev/outbox?to=${FAN.email}`, { method: 'DELETE' });
    assert.deepEqual(
      (await h.call('/__dev/outbox')).body.data.map((e: { to: string }) => e.to),
      [VIEWER.email],
    );
  });

  test('the account routes serve the account page on both listeners; the demo pages load', async () => {
    const routes = [
      '/verify-email',
      '/password-reset',
      '/confirm-account-deletion',
      '/auth/login/google/callback',
      '/auth/login/facebook/callback',
      '/login',
      '/registration',
      '/verify-notice',
      '/password-reset-request',
    ];
    for (const origin of [h.server.origin, h.server.hostOrigin]) {
      for (const route of routes) {
        const res = await fetch(`${origin}${route}?email=a%40b.c`);
        assert.equal(res.status, 200, `${origin}${route}`);
        ok((res.headers.get('content-security-policy') ?? '').includes("default-src 'self'"));
        const html = await res.text();
        ok(html.includes('<channel-profile') && html.includes(`${h.server.origin}/channel-elements.js`), route);
      }
    }
    assert.equal((await fetch(`${h.base}/auth/login/twitter/callback`)).status, 404);
    for (const page of ['/tv.html', '/tv.js', '/outbox.html', '/outbox.js', '/dev-secret.js', '/dev-pages.css']) {
      const res = await fetch(`${h.base}${page}`);
      assert.equal(res.status, 200, page);
      const text = await res.text();
      if (page.endsWith('.html'))
        ok(
          !/<script>|<script [^>]*>[^<]|style=/.test(text) && text.includes(`data-api="${h.base}"`),
          `${page} is CSP-clean`,
        );
    }
  });
});
