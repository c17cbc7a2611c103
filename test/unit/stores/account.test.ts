/**
 * The accounts store (src/stores/account.ts) and its session actions (src/stores/sign-in.ts: signIn, logout)
 * against the fake world: what goes over the wire (method, path, body, Authorization header, never a token in a
 * URL), what the stores hold afterwards, the validation rules (nothing sent when one fails), the server messages,
 * and the social sign-in's start, return page and state check.
 */
import { expect } from '@open-wc/testing';
import { Clip, Order, Transaction, User, endpoints } from '../../../src/api/contract.js';
import { isString } from '../../../src/lib/storage.js';
import type { AccountRoute } from '../../../src/lib/account-routes.js';
import {
  addDeviceSession,
  completeSocial,
  confirmAccountDeletion,
  createClips,
  createOrders,
  createTransactions,
  failureOf,
  formMessage,
  GENERIC,
  isExpiredReset,
  login,
  register,
  requestAccountDeletion,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  signOut,
  socialAuthorizeUrl,
  socialProviders,
  startSocial,
  TECHNICAL,
  UNDEFINED,
  updateProfile,
  validateProfile,
  verifyEmail,
  type Outcome,
  type RegisterInput,
} from '../../../src/stores/account.js';
import { $config, setConfig } from '../../../src/stores/config.js';
import { $settings, $token, $user, getClient, resetSession, startSession } from '../../../src/stores/session.js';
import { HttpError, NetworkError } from '../../../src/api/errors.js';
import { errorText } from '../../../src/components/ui/messages.js';
import { loadNamespace, translator } from '../../../src/i18n/index.js';
import { captureNavigation, installWorld, ok, teardown, until, type Recorded, type World } from '../helpers.js';

const API = 'http://api.test/api';
const KEYS = 'http://api.test/keys';
const SITE = 'https://site.test';
const TOKEN = 'tok-secret-123';
const RETURN_KEY = 'rudy_return.demo';

const user = (fields: Record<string, unknown> = {}) =>
  User.parse({
    id: 7,
    email: 'fan@example.com',
    first_name: 'Ann',
    last_name: 'Fan',
    capabilities: ['watch'],
    ...fields,
  });
const session = (fields: Record<string, unknown> = {}) => ({ token: TOKEN, user: user(fields) });
const unprocessable = (message: string, errors?: Record<string, string[]>) => ({
  status: 422,
  body: { message, errors },
});
/** The server's answer to a signed-in call while the account still has its temporary password. */
const TEMPORARY_LOCK = {
  status: 403,
  body: { message: 'Choose a new password first: you signed in with a temporary password.' },
};

let w: World;

function serveChannel(): void {
  w.server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-1' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-1' }), ok({ api_key: 'ak-2' }))
    .on(
      'GET',
      `${API}/settings`,
      ok({
        name: 'Demo',
        site_url: `${SITE}/`,
        auth: { remote_auth: 1 },
        social: {
          google: {
            client_id: 'g-client',
            authorize_url: 'https://accounts.test/o/oauth2/auth',
            scope: 'openid email',
          },
          facebook: { client_id: 'fb-client', authorize_url: 'https://facebook.test/dialog/oauth' },
        },
      }),
    )
    .on('GET', `${API}/color-settings/web`, ok({}))
    .on('GET', `${API}/geo`, ok({ country_code: 'US' }))
    .on('GET', `${API}/profile`, ok(user()));
}

async function startGuest(): Promise<void> {
  setConfig({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://api.test/channel-elements.js');
  await startSession();
}

/** Signs in through the store, as the sign-in form does. */
async function signedIn(fields: Record<string, unknown> = {}): Promise<void> {
  w.server.on('POST', `${API}/v2/auth/login`, ok(session(fields)));
  const outcome = await login({ email: 'fan@example.com', password: 'fan-pass-1' });
  expect(outcome.ok).to.equal(true);
}

const calls = (method: string, path: string): Recorded[] => w.server.to(method, `${API}/${path}`);
const only = (method: string, path: string): Recorded => {
  const found = calls(method, path);
  expect(found, `${method} ${path}`).to.have.length(1);
  return found[0]!;
};
/** No request carried the token anywhere but its Authorization header. */
function tokenOnlyInHeaders(): void {
  for (const r of w.server.requests) {
    expect(r.url, r.url).not.to.contain(TOKEN);
    expect(JSON.stringify(r.body ?? null), r.url).not.to.contain(TOKEN);
  }
}
const refused = (outcome: Outcome<unknown>) => {
  expect(outcome.ok).to.equal(false);
  return outcome.ok ? { fields: {} } : outcome.failure;
};
const keysOf = (fields: Record<string, { key: string }>) =>
  Object.fromEntries(Object.entries(fields).map(([name, m]) => [name, m.key]));

const REGISTRATION: RegisterInput = {
  first_name: 'Ann',
  last_name: 'Fan',
  email: 'new@example.com',
  password: 'long-enough-1',
  password_confirmation: 'long-enough-1',
  terms: true,
  news: true,
};

describe('accounts', () => {
  beforeEach(async () => {
    w = installWorld();
    serveChannel();
    await startGuest();
    sessionStorage.removeItem(RETURN_KEY);
  });
  afterEach(() => {
    $config.set(undefined);
    resetSession();
    teardown();
    sessionStorage.removeItem(RETURN_KEY);
  });

  describe('sign-in', () => {
    it('refuses locally, sending nothing, with the validation messages', async () => {
      const before = w.server.calls.length;
      expect(keysOf(refused(await login({ email: '', password: '' })).fields)).to.deep.equal({
        email: 'forms:validation.emailEnter',
        password: 'forms:validation.required',
      });
      expect(keysOf(refused(await login({ email: 'fan@example', password: 'x' })).fields)).to.deep.equal({
        email: 'forms:validation.email',
      });
      expect(keysOf(refused(await login({ email: 'fan @example.com', password: 'x' })).fields)).to.deep.equal({
        email: 'forms:validation.email',
      });
      expect(w.server.calls.length).to.equal(before);
    });

    it('posts the credentials with the api key, stores the token and sets the user; later calls send it as a header only', async () => {
      w.server.on('POST', `${API}/v2/auth/login`, ok(session()));
      const outcome = await login({ email: ' fan@example.com ', password: 'fan-pass-1' });
      expect(outcome.ok).to.equal(true);
      const sent = only('POST', 'v2/auth/login');
      expect(sent.body).to.deep.equal({ email: 'fan@example.com', password: 'fan-pass-1', api_key: 'ak-1' });
      expect(sent.headers.authorization, 'no token before sign-in').to.equal(undefined);
      expect($user.get()?.email).to.equal('fan@example.com');
      expect($token.get()).to.equal(TOKEN);
      expect(w.storage.get('token.demo', isString)).to.equal(TOKEN);
      expect(calls('GET', 'profile'), 'the answer carries the user: no profile call').to.have.length(0);

      w.server.on('GET', `${API}/orders`, ok([]));
      const orders = createOrders();
      orders.load();
      await until(() => orders.$state.get().status === 'ready', 'orders');
      const list = only('GET', 'orders');
      expect(list.headers.authorization).to.equal(`Bearer ${TOKEN}`);
      expect(list.query).to.deep.equal({ no_limit: '1', api_key: 'ak-1' });
      tokenOnlyInHeaders();
    });

    it("shows the server's wrong-password message and stays signed out", async () => {
      w.server.on('POST', `${API}/v2/auth/login`, unprocessable('Invalid email or password. Please try again.'));
      const failure = refused(await login({ email: 'fan@example.com', password: 'nope-nope' }));
      expect(failure.message).to.deep.equal({ key: 'forms:server.invalidLogin' });
      expect($user.get()).to.equal(undefined);
      expect($token.get()).to.equal(undefined);
      // The failure is logged without the password.
      await until(() => w.server.logs.length === 1, 'the log entry');
      expect(JSON.stringify(w.server.logs[0]!.body)).not.to.contain('nope-nope');
    });

    it('maps the throttling answer to the email field with its seconds', async () => {
      w.server.on(
        'POST',
        `${API}/v2/auth/login`,
        unprocessable('Too many login attempts.', {
          email: ['Too many login attempts. Please try again in 42 seconds.'],
        }),
      );
      const failure = refused(await login({ email: 'fan@example.com', password: 'nope-nope' }));
      expect(failure.fields).to.deep.equal({
        email: { key: 'forms:account.server.throttled', values: { seconds: 42 } },
      });
      expect(formMessage(failure, ['email', 'password']), 'the field explains it').to.equal(undefined);
    });

    it('a double submit sends once and both callers get the same outcome', async () => {
      w.server.on('POST', `${API}/v2/auth/login`, ok(session()));
      const input = { email: 'fan@example.com', password: 'fan-pass-1' };
      const [a, b] = await Promise.all([login(input), login(input)]);
      expect(a).to.equal(b);
      expect(calls('POST', 'v2/auth/login')).to.have.length(1);
      // Once done, a new submit is sent again.
      await login(input);
      expect(calls('POST', 'v2/auth/login')).to.have.length(2);
    });

    it("5xx answers the server's technical difficulties, a network fault the generic text", async () => {
      w.server.on('POST', `${API}/v2/auth/login`, { status: 503, body: { message: 'Service Unavailable' } });
      const failure = refused(await login({ email: 'fan@example.com', password: 'x' }));
      expect(failure.message).to.equal(TECHNICAL);
      expect(calls('POST', 'v2/auth/login'), 'a sign-in is not retried').to.have.length(1);
      w.server.on('POST', `${API}/v2/auth/login`, new TypeError('Failed to fetch'));
      expect(refused(await login({ email: 'fan@example.com', password: 'x' })).message).to.equal(GENERIC);
    });
  });

  describe('registration', () => {
    it('refuses without terms (field and form messages) and checks every field, sending nothing', async () => {
      const before = w.server.calls.length;
      const failure = refused(
        await register({
          first_name: ' ',
          last_name: '',
          email: 'x',
          password: 'short',
          password_confirmation: 'other',
          terms: false,
          news: false,
        }),
      );
      expect(keysOf(failure.fields)).to.deep.equal({
        first_name: 'forms:validation.firstName',
        last_name: 'forms:validation.lastName',
        email: 'forms:validation.email',
        password: 'forms:validation.passwordShort',
        password_confirmation: 'forms:validation.passwordMismatch',
        terms: 'forms:validation.terms',
      });
      expect(failure.message).to.deep.equal({ key: 'forms:validation.notRegistered' });
      const noTerms = refused(await register({ ...REGISTRATION, terms: false }));
      expect(keysOf(noTerms.fields)).to.deep.equal({ terms: 'forms:validation.terms' });
      expect(keysOf(refused(await register({ ...REGISTRATION, password_confirmation: '' })).fields)).to.deep.equal({
        password_confirmation: 'forms:validation.required',
      });
      expect(w.server.calls.length).to.equal(before);
    });

    it('posts the form (terms true, news) and signs the new, unverified user in', async () => {
      w.server.on('POST', `${API}/v2/auth/register`, ok(session({ email: 'new@example.com', email_verified: false })));
      const outcome = await register(REGISTRATION);
      expect(outcome.ok && outcome.value.email_verified).to.equal(false);
      expect(only('POST', 'v2/auth/register').body).to.deep.equal({ ...REGISTRATION, api_key: 'ak-1' });
      expect($user.get()?.email).to.equal('new@example.com');
    });

    it('puts 422 field errors under their fields; a taken email reads as the API words it', async () => {
      w.server.on(
        'POST',
        `${API}/v2/auth/register`,
        unprocessable('The email has already been taken.', { email: ['The email has already been taken.'] }),
      );
      const failure = refused(await register(REGISTRATION));
      expect(failure.fields).to.deep.equal({ email: { key: 'forms:server.emailTaken' } });
      expect(formMessage(failure, ['email'])).to.equal(undefined);
      expect(formMessage(failure, ['password']), 'a field the form lacks goes to the top').to.deep.equal({
        key: 'forms:server.emailTaken',
      });
    });
  });

  describe('logout', () => {
    it('posts auth/logout with the token, forgets the user and token, drops the api key and fetches a fresh one', async () => {
      await signedIn();
      await signOut();
      const sent = only('POST', 'auth/logout');
      expect(sent.headers.authorization).to.equal(`Bearer ${TOKEN}`);
      expect(sent.body).to.deep.equal({ api_key: 'ak-1' });
      expect($user.get()).to.equal(undefined);
      expect($token.get()).to.equal(undefined);
      expect(w.storage.get('token.demo', isString)).to.equal(undefined);
      expect(calls('POST', 'get_api_key')).to.have.length(2);
      expect(w.storage.get('api_key.ck-1', isString)).to.equal('ak-2');
      // The next call is anonymous, with the new key.
      w.server.on('GET', `${API}/events`, { body: { data: [], meta: { total: 0, offset: 0, limit: 50 } } });
      await getClient().call(endpoints.events);
      const next = only('GET', 'events');
      expect(next.headers.authorization).to.equal(undefined);
      expect(next.query.api_key).to.equal('ak-2');
      tokenOnlyInHeaders();
    });

    it('signs out here even when the server call fails', async () => {
      await signedIn();
      w.server.on('POST', `${API}/auth/logout`, { status: 500, body: { message: 'Server Error' } });
      await signOut();
      expect($user.get()).to.equal(undefined);
      expect(w.storage.get('token.demo', isString)).to.equal(undefined);
      expect(calls('POST', 'get_api_key')).to.have.length(2);
    });

    it('a 401 on any call resets the user', async () => {
      await signedIn();
      w.server.on('GET', `${API}/transactions`, { status: 401, body: { message: 'Unauthenticated.' } });
      const list = createTransactions();
      list.load();
      await until(() => list.$state.get().status === 'error', 'the error');
      expect(list.$state.get()).to.deep.equal({ status: 'error', error: { key: 'forms:account.server.sessionEnded' } });
      expect($user.get()).to.equal(undefined);
      expect($token.get()).to.equal(undefined);
    });
  });

  describe('social sign-in', () => {
    let assigned: string[];
    let stay: () => void;
    beforeEach(() => {
      const capture = captureNavigation();
      assigned = capture.assigned;
      stay = capture.restore;
    });
    afterEach(() => stay());

    /** The server's answer to a sign-in's start: the provider's URL with the attempt's state. */
    const started = (state = 'st-1') =>
      ok({ url: `https://accounts.test/o/oauth2/auth?client_id=g-client&state=${state}&code_challenge=cc` });
    const STATE_KEY = 'rudy_social_state.demo';

    it("asks the server for the provider's URL, for the site's callback, with no token in it", async () => {
      await signedIn();
      w.server.on('POST', `${API}/v2/auth/social/google/start`, started());
      const url = await socialAuthorizeUrl('google');
      expect(url).to.equal('https://accounts.test/o/oauth2/auth?client_id=g-client&state=st-1&code_challenge=cc');
      expect(only('POST', 'v2/auth/social/google/start').body).to.deep.equal({
        redirect_uri: `${SITE}/auth/login/google/callback`,
        api_key: 'ak-1',
      });
      expect(sessionStorage.getItem(STATE_KEY)).to.equal('st-1');
      tokenOnlyInHeaders();
    });

    it('a provider the settings do not offer is not asked for; a URL that is not http(s) goes nowhere', async () => {
      $settings.set({
        ...$settings.get()!,
        social: {
          google: { client_id: 'g-client', authorize_url: 'javascript:alert(1)' },
          facebook: { client_id: 'fb-client', authorize_url: 'https://facebook.test/dialog/oauth' },
        },
      });
      expect(socialProviders()).to.deep.equal(['facebook']);
      expect(await socialAuthorizeUrl('google')).to.equal(undefined);
      expect((await startSocial('google')).ok).to.equal(false);
      expect(calls('POST', 'v2/auth/social/google/start')).to.have.length(0);
      w.server.on('POST', `${API}/v2/auth/social/facebook/start`, ok({ url: 'javascript:alert(1)' }));
      expect((await startSocial('facebook')).ok).to.equal(false);
      expect(assigned).to.deep.equal([]);
    });

    it('saves this page to come back to and sends the browser to the provider', async () => {
      w.server.on('POST', `${API}/v2/auth/social/google/start`, started());
      const outcome = await startSocial('google');
      expect(outcome.ok).to.equal(true);
      expect(assigned).to.deep.equal([
        'https://accounts.test/o/oauth2/auth?client_id=g-client&state=st-1&code_challenge=cc',
      ]);
      expect(sessionStorage.getItem(RETURN_KEY)).to.equal(location.href);
    });

    const callback = (fields: Partial<Extract<AccountRoute, { kind: 'social-callback' }>>) =>
      ({
        kind: 'social-callback',
        provider: 'google',
        code: 'one-time-code',
        state: 'st-1',
        iss: '',
        error: '',
        ...fields,
      }) as const;

    it('refuses a state other than the one this tab started, and a missing code, sending nothing', async () => {
      const before = w.server.calls.length;
      sessionStorage.setItem(STATE_KEY, 'st-1');
      const failure = refused(await completeSocial(callback({ state: 'st-other' })));
      expect(failure.message).to.deep.equal({ key: 'forms:account.social.failed' });
      expect(refused(await completeSocial(callback({ code: '' }))).message).to.deep.equal({
        key: 'forms:account.social.failed',
      });
      expect(w.server.calls.length).to.equal(before);
      expect($user.get()).to.equal(undefined);
    });

    it('says a cancelled authorization was cancelled, and any other provider error failed', async () => {
      expect(refused(await completeSocial(callback({ error: 'access_denied', code: '' }))).message).to.deep.equal({
        key: 'forms:account.social.cancelled',
      });
      expect(refused(await completeSocial(callback({ error: 'server_error' }))).message).to.deep.equal({
        key: 'forms:account.social.failed',
      });
      expect(calls('POST', 'v2/auth/social/google')).to.have.length(0);
    });

    it('posts the code, state, issuer and redirect URI, signs in and answers the saved page once', async () => {
      sessionStorage.setItem(RETURN_KEY, `${location.origin}/watch/12?x=1`);
      sessionStorage.setItem(STATE_KEY, 'st-1');
      w.server.on('POST', `${API}/v2/auth/social/google`, ok(session({ provider: 'google' })));
      const outcome = await completeSocial(callback({ iss: 'https://accounts.test' }));
      expect(outcome).to.deep.equal({ ok: true, value: { returnTo: `${location.origin}/watch/12?x=1` } });
      expect(only('POST', 'v2/auth/social/google').body).to.deep.equal({
        code: 'one-time-code',
        state: 'st-1',
        iss: 'https://accounts.test',
        redirect_uri: `${SITE}/auth/login/google/callback`,
        api_key: 'ak-1',
      });
      expect($user.get()?.provider).to.equal('google');
      expect(sessionStorage.getItem(RETURN_KEY)).to.equal(null);
      expect(sessionStorage.getItem(STATE_KEY)).to.equal(null);
    });

    it('a tab that kept no state (a site on another origin) leaves the check to the server', async () => {
      sessionStorage.removeItem(STATE_KEY);
      w.server.on('POST', `${API}/v2/auth/social/google`, ok(session({ provider: 'google' })));
      expect((await completeSocial(callback({}))).ok).to.equal(true);
      expect((only('POST', 'v2/auth/social/google').body as { state: string }).state).to.equal('st-1');
    });

    it('never returns to another origin', async () => {
      sessionStorage.setItem(RETURN_KEY, 'https://evil.test/steal');
      w.server.on('POST', `${API}/v2/auth/social/google`, ok(session()));
      const outcome = await completeSocial(callback({}));
      expect(outcome).to.deep.equal({ ok: true, value: { returnTo: undefined } });
    });

    it('a refused code reads as "could not be completed"; a social account without a verified address says so', async () => {
      w.server.on('POST', `${API}/v2/auth/social/google`, unprocessable('Invalid code', { code: ['Invalid code'] }));
      expect(refused(await completeSocial(callback({}))).message).to.deep.equal({ key: 'forms:account.social.failed' });
      const server = {
        emailUnverified:
          'The email address of the social account is not verified. Verify it with the provider, or register with your email address instead.',
        emailMissing: 'The social account shared no email address. Register with your email address instead.',
      };
      for (const [key, message] of Object.entries(server)) {
        w.server.on('POST', `${API}/v2/auth/social/google`, unprocessable(message, { code: [message] }));
        expect(refused(await completeSocial(callback({}))).message, key).to.deep.equal({
          key: `forms:account.social.${key}`,
        });
      }
    });
  });

  describe('email verification', () => {
    const route = {
      kind: 'verify-email',
      email: 'fan@example.com',
      expires: '1700000000',
      signature: 'sig-1',
    } as const;

    it('posts the link values and marks the signed-in owner verified', async () => {
      await signedIn({ email_verified: false });
      w.server.on('POST', `${API}/auth/email-verify`, ok({ message: 'Email verified' }));
      expect((await verifyEmail(route)).ok).to.equal(true);
      expect(only('POST', 'auth/email-verify').body).to.deep.equal({
        email: 'fan@example.com',
        expires: '1700000000',
        signature: 'sig-1',
        api_key: 'ak-1',
      });
      expect($user.get()?.email_verified).to.equal(true);
    });

    it('maps a bad or expired link to its message; an already verified email is no failure and marks the owner verified', async () => {
      await signedIn({ email_verified: false });
      w.server.on(
        'POST',
        `${API}/auth/email-verify`,
        unprocessable('Verification failed'),
        unprocessable('Email already verified'),
      );
      expect(refused(await verifyEmail(route)).message).to.deep.equal({ key: 'forms:server.verificationFailed' });
      expect($user.get()?.email_verified).to.equal(false);
      expect(await verifyEmail(route)).to.deep.equal({ ok: true, value: { already: true } });
      expect($user.get()?.email_verified).to.equal(true);
    });

    it("verifies another account's link without touching the signed-in user", async () => {
      await signedIn({ email_verified: false });
      w.server.on('POST', `${API}/auth/email-verify`, ok({ message: 'Email verified' }));
      expect(await verifyEmail({ ...route, email: 'other@example.com' })).to.deep.equal({
        ok: true,
        value: { already: false },
      });
      expect($user.get()?.email_verified).to.equal(false);
    });

    it('sends the link again for the signed-in user; verified meanwhile, the user here becomes verified', async () => {
      await signedIn({ email_verified: false });
      w.server.on(
        'POST',
        `${API}/auth/email-verify/resend`,
        ok({ message: 'Sent' }),
        unprocessable('Email already verified'),
      );
      expect(await resendVerification()).to.deep.equal({ ok: true, value: { already: false } });
      expect(only('POST', 'auth/email-verify/resend').headers.authorization).to.equal(`Bearer ${TOKEN}`);
      expect($user.get()?.email_verified).to.equal(false);
      expect(await resendVerification()).to.deep.equal({ ok: true, value: { already: true } });
      expect($user.get()?.email_verified).to.equal(true);
    });
  });

  describe('password reset', () => {
    it('asks for a link by email (checked first)', async () => {
      expect(keysOf(refused(await requestPasswordReset('nope')).fields)).to.deep.equal({
        email: 'forms:validation.email',
      });
      w.server.on(
        'POST',
        `${API}/auth/password-reset-request`,
        ok({ message: 'If the account exists, a link was sent.' }),
      );
      expect((await requestPasswordReset(' fan@example.com ')).ok).to.equal(true);
      expect(only('POST', 'auth/password-reset-request').body).to.deep.equal({
        email: 'fan@example.com',
        api_key: 'ak-1',
      });
    });

    it('sets the new password; an expired link is recognised; the rules are checked first', async () => {
      const input = {
        email: 'fan@example.com',
        token: 'reset-token',
        password: 'new-pass-1',
        password_confirmation: 'new-pass-1',
      };
      expect(
        keysOf(refused(await resetPassword({ ...input, password_confirmation: 'new-pass-2' })).fields),
      ).to.deep.equal({
        password_confirmation: 'forms:validation.passwordMismatch',
      });
      expect(calls('POST', 'auth/password-reset')).to.have.length(0);
      w.server.on(
        'POST',
        `${API}/auth/password-reset`,
        ok({ message: 'Password changed' }),
        unprocessable('Reset password key expired'),
      );
      expect((await resetPassword(input)).ok).to.equal(true);
      expect(only('POST', 'auth/password-reset').body).to.deep.equal({ ...input, api_key: 'ak-1' });
      const failure = refused(await resetPassword(input));
      expect(failure.message).to.deep.equal({ key: 'forms:server.resetExpired' });
      expect(isExpiredReset(failure)).to.equal(true);
    });
  });

  describe('account deletion', () => {
    it('asks for the emailed link while signed in', async () => {
      await signedIn();
      w.server.on('POST', `${API}/auth/delete-account`, ok({ message: 'We sent you a link.' }));
      expect((await requestAccountDeletion()).ok).to.equal(true);
      expect(only('POST', 'auth/delete-account').headers.authorization).to.equal(`Bearer ${TOKEN}`);
    });

    it('confirms keyless (channel key in the body) and signs out the deleted user without a logout call', async () => {
      await signedIn();
      w.server.on('POST', `${API}/delete-account-confirm`, ok({ message: 'Deleted' }));
      const outcome = await confirmAccountDeletion({
        kind: 'confirm-deletion',
        email: 'FAN@example.com',
        token: 'del-token',
      });
      expect(outcome).to.deep.equal({ ok: true, value: { signedOut: true } });
      const sent = only('POST', 'delete-account-confirm');
      expect(sent.body).to.deep.equal({ email: 'FAN@example.com', token: 'del-token', channel_key: 'ck-1' });
      expect($user.get()).to.equal(undefined);
      expect(calls('POST', 'auth/logout')).to.have.length(0);
      expect(calls('POST', 'get_api_key'), 'a fresh anonymous key').to.have.length(2);
    });

    it('a bad, expired or unknown-email link reads as the translated "invalid or has expired"', async () => {
      w.server.on(
        'POST',
        `${API}/delete-account-confirm`,
        unprocessable('The link to delete the account is invalid or has expired.'),
      );
      const failure = refused(
        await confirmAccountDeletion({ kind: 'confirm-deletion', email: 'nobody@example.com', token: 't' }),
      );
      expect(failure.message).to.deep.equal({ key: 'forms:account.server.deletionLinkInvalid' });
    });

    it("another account's link leaves this sign-in alone", async () => {
      await signedIn();
      w.server.on('POST', `${API}/delete-account-confirm`, ok({ message: 'Deleted' }));
      const outcome = await confirmAccountDeletion({
        kind: 'confirm-deletion',
        email: 'other@example.com',
        token: 't',
      });
      expect(outcome).to.deep.equal({ ok: true, value: { signedOut: false } });
      expect($user.get()?.email).to.equal('fan@example.com');
    });
  });

  describe('profile', () => {
    const input = {
      first_name: 'Ann',
      last_name: 'Fan',
      gender: '' as const,
      news: false,
      current_password: '',
      password: '',
      password_confirmation: '',
    };
    const NEW = { password: 'new-pass-1', password_confirmation: 'new-pass-1' };

    it('posts the profile with _method=patch; gender empty is null; no password (current or new) unless a new one is given', async () => {
      await signedIn();
      w.server.on('POST', `${API}/profile`, ok(user({ first_name: 'Anne', gender: 'W' })), ok(user()));
      // A current password typed without a new one is not sent.
      const outcome = await updateProfile({
        ...input,
        first_name: ' Anne ',
        gender: 'W',
        news: true,
        current_password: 'fan-pass-1',
      });
      expect(outcome.ok).to.equal(true);
      const [first] = calls('POST', 'profile');
      expect(first!.body).to.deep.equal({
        _method: 'patch',
        first_name: 'Anne',
        last_name: 'Fan',
        gender: 'W',
        news: true,
        api_key: 'ak-1',
      });
      expect(first!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
      expect($user.get()?.first_name).to.equal('Anne');
      await updateProfile({ ...input, current_password: 'fan-pass-1', ...NEW });
      expect(calls('POST', 'profile')[1]!.body).to.deep.equal({
        _method: 'patch',
        first_name: 'Ann',
        last_name: 'Fan',
        gender: null,
        news: false,
        current_password: 'fan-pass-1',
        password: 'new-pass-1',
        password_confirmation: 'new-pass-1',
        api_key: 'ak-1',
      });
    });

    it('a new password needs the current one: refused locally, nothing sent, while the other rules are checked too', async () => {
      await signedIn();
      expect(keysOf(refused(await updateProfile({ ...input, ...NEW })).fields)).to.deep.equal({
        current_password: 'forms:validation.required',
      });
      // Typing only the confirmation starts a change too.
      expect(
        keysOf(refused(await updateProfile({ ...input, password_confirmation: 'new-pass-1' })).fields),
      ).to.deep.equal({
        current_password: 'forms:validation.required',
        password: 'forms:validation.required',
      });
      // A current password does not excuse a short new one.
      expect(
        keysOf(
          refused(
            await updateProfile({
              ...input,
              current_password: 'fan-pass-1',
              password: 'short',
              password_confirmation: 'short',
            }),
          ).fields,
        ),
      ).to.deep.equal({
        password: 'forms:validation.passwordShort',
      });
      expect(calls('POST', 'profile')).to.have.length(0);
      expect(validateProfile({ ...input }, user()), 'no change, no current password needed').to.deep.equal({});
    });

    it('a social-only account (has_password false) sets its first password without a current one; absent, has_password is true', async () => {
      expect(user().has_password, 'a channel API that does not send it').to.equal(true);
      expect(User.parse({ id: 1, email: 'a@b.test', has_password: 0 }).has_password).to.equal(false);
      await signedIn({ provider: 'google', has_password: false });
      w.server.on('POST', `${API}/profile`, ok(user({ provider: 'google', has_password: true })));
      const outcome = await updateProfile({ ...input, ...NEW });
      expect(outcome.ok).to.equal(true);
      const sent = only('POST', 'profile').body as Record<string, unknown>;
      expect(sent).to.include({ password: 'new-pass-1', password_confirmation: 'new-pass-1' });
      expect(sent).not.to.have.property('current_password');
      expect($user.get()?.has_password).to.equal(true);
    });

    it("the server's current-password errors come back under the field, translated", async () => {
      await signedIn();
      w.server.on(
        'POST',
        `${API}/profile`,
        unprocessable('The current password is incorrect.', {
          current_password: ['The current password is incorrect.'],
        }),
        unprocessable('The current password field is required.', {
          current_password: ['The current password field is required.'],
        }),
      );
      const wrong = refused(await updateProfile({ ...input, current_password: 'not-it-1', ...NEW }));
      expect(wrong.fields).to.deep.equal({ current_password: { key: 'forms:account.server.currentPasswordWrong' } });
      const visible = [
        'first_name',
        'last_name',
        'gender',
        'news',
        'current_password',
        'password',
        'password_confirmation',
      ];
      expect(formMessage(wrong, visible), 'the field explains it').to.equal(undefined);
      const missing = refused(await updateProfile({ ...input, current_password: 'not-it-1', ...NEW }));
      expect(missing.fields).to.deep.equal({
        current_password: { key: 'forms:account.server.currentPasswordRequired' },
      });
      // Where no current-password field is shown, the form's alert says it.
      expect(
        formMessage(
          missing,
          visible.filter((n) => n !== 'current_password'),
        ),
      ).to.deep.equal({
        key: 'forms:account.server.currentPasswordRequired',
      });
    });

    it('a temporary password must be replaced: the new password and the temporary one (as current) are required', async () => {
      await signedIn({ temporary_password: true });
      expect(keysOf(refused(await updateProfile(input)).fields)).to.deep.equal({
        current_password: 'forms:validation.required',
        password: 'forms:validation.required',
        password_confirmation: 'forms:validation.required',
      });
      expect(
        keysOf(
          refused(await updateProfile({ ...input, first_name: '', password: 'short', password_confirmation: 'short' }))
            .fields,
        ),
      ).to.deep.equal({
        first_name: 'forms:validation.firstName',
        current_password: 'forms:validation.required',
        password: 'forms:validation.passwordShort',
      });
      expect(calls('POST', 'profile')).to.have.length(0);
      w.server.on('POST', `${API}/profile`, ok(user({ temporary_password: false })));
      await updateProfile({ ...input, current_password: 'temp-pass-1', ...NEW });
      expect(only('POST', 'profile').body).to.include({ current_password: 'temp-pass-1', ...NEW });
      expect($user.get()?.temporary_password).to.equal(false);
    });
  });

  describe('devices', () => {
    it('normalises and checks the code, then links; a bad code comes back under the field', async () => {
      await signedIn();
      expect(keysOf(refused(await addDeviceSession('')).fields)).to.deep.equal({ code: 'forms:validation.required' });
      expect(keysOf(refused(await addDeviceSession('AB1')).fields)).to.deep.equal({
        code: 'forms:account.devices.invalid',
      });
      expect(keysOf(refused(await addDeviceSession('ABCDE1')).fields), '1 is not a code character').to.deep.equal({
        code: 'forms:account.devices.invalid',
      });
      expect(calls('POST', 'auth/add_session')).to.have.length(0);
      w.server.on(
        'POST',
        `${API}/auth/add_session`,
        ok({ message: 'Your device is now linked.' }),
        unprocessable('The given data was invalid.', { code: ['The code is invalid or has expired.'] }),
        { status: 403, body: { message: 'Device linking is not enabled for this channel.' } },
      );
      expect((await addDeviceSession('ab c3-de')).ok).to.equal(true);
      expect(only('POST', 'auth/add_session').body).to.deep.equal({ code: 'ABC3DE', api_key: 'ak-1' });
      expect(refused(await addDeviceSession('XYZ234')).fields).to.deep.equal({
        code: { key: 'forms:account.server.codeInvalid' },
      });
      expect(refused(await addDeviceSession('XYZ234')).message).to.deep.equal({
        key: 'forms:account.server.devicesOff',
      });
    });
  });

  describe('lists', () => {
    it('orders keeps the active ones; transactions come newest first; clips as sent', async () => {
      await signedIn();
      const order = (id: number, activity: string | null) =>
        Order.parse({
          id,
          type: 'event',
          status: 'Paid',
          activity_status: activity,
          product: { id: 1, name: 'Final' },
          created_at: 1,
        });
      w.server
        .on('GET', `${API}/orders`, ok([order(1, 'active'), order(2, 'inactive'), order(3, 'Active'), order(4, null)]))
        .on(
          'GET',
          `${API}/transactions`,
          ok(
            [1, 3, 2].map((n) =>
              Transaction.parse({ id: n, order_id: 1, status: 'paid', amount: 1, created_at: n * 100 }),
            ),
          ),
        )
        .on(
          'GET',
          `${API}/clips/user`,
          ok([Clip.parse({ id: 5, event_id: 1, name: 'Goal', start_time: 0, duration: 30 })]),
        );
      const stores = [createOrders(), createTransactions(), createClips()] as const;
      for (const s of stores) s.load();
      await until(() => stores.every((s) => s.$state.get().status === 'ready'), 'the lists');
      const items = stores.map((s) => {
        const state = s.$state.get();
        return state.status === 'ready' ? state.value.map((i) => i.id) : [];
      });
      expect(items).to.deep.equal([[1, 3], [3, 2, 1], [5]]);
      for (const path of ['orders', 'transactions', 'clips/user']) {
        expect(only('GET', path).headers.authorization, path).to.equal(`Bearer ${TOKEN}`);
      }
      tokenOnlyInHeaders();
    });

    it('a 403 of the temporary-password lock shows its translated sentence, not only the generic text', async () => {
      await signedIn();
      w.server
        .on('GET', `${API}/orders`, TEMPORARY_LOCK)
        .on('GET', `${API}/transactions`, TEMPORARY_LOCK)
        .on('GET', `${API}/clips/user`, TEMPORARY_LOCK);
      const stores = [createOrders(), createTransactions(), createClips()] as const;
      for (const s of stores) s.load();
      await until(() => stores.every((s) => s.$state.get().status === 'error'), 'the failed lists');
      for (const s of stores)
        expect(s.$state.get()).to.deep.equal({ status: 'error', error: { key: 'errors.temporaryPassword' } });
      expect($user.get(), 'a 403 is not a sign-out').not.to.equal(undefined);
    });
  });

  describe('messages', () => {
    /** The English and French translators, once both languages' texts and forms are loaded. */
    async function bothLanguages() {
      await Promise.all([
        loadNamespace('fr', 'translation'),
        loadNamespace('en', 'forms'),
        loadNamespace('fr', 'forms'),
      ]);
      return [translator('en'), translator('fr')] as const;
    }

    it('maps errors: 401 session ended, 429 throttled, unknown text kept, a bare refusal undefined, a thrown error generic', () => {
      expect(failureOf(new HttpError(401, 'Unauthenticated.', 'u')).message).to.deep.equal({
        key: 'forms:account.server.sessionEnded',
      });
      expect(failureOf(new HttpError(429, 'Too Many Attempts.', 'u')).message).to.deep.equal({
        key: 'errors.tooManyRequests',
      });
      expect(failureOf(new HttpError(422, 'Something odd', 'u')).message).to.deep.equal({
        key: 'forms:account.server.raw',
        values: { text: 'Something odd' },
      });
      expect(failureOf(new HttpError(400, 'HTTP 400', 'u')).message, 'no message in the body').to.equal(UNDEFINED);
      expect(failureOf(new Error('boom')).message).to.equal(GENERIC);
      expect(failureOf(new HttpError(422, 'Wrong auth data', 'u')).message).to.deep.equal({
        key: 'forms:server.wrongAuth',
      });
      expect(failureOf(new HttpError(403, TEMPORARY_LOCK.body.message, 'u')).message).to.deep.equal({
        key: 'errors.temporaryPassword',
      });
    });

    it("the spec's error texts, each for its situation, in English and French", async () => {
      const [en, fr] = await bothLanguages();
      const server = new HttpError(500, 'Server Error', 'u');
      const bare = new HttpError(404, 'HTTP 404', 'u');
      const refusal = new HttpError(404, 'Event not found.', 'u');
      const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
      const offline = new NetworkError('u');
      // Error panels (lists, players, schedules, pages).
      expect([server, bare, bug, refusal, offline].map((e) => errorText(e, en))).to.deep.equal([
        'Oops! We are currently experiencing technical difficulties',
        'Undefined error',
        'Undefined error',
        'Something went wrong. Please try again or contact technical support',
        'The channel cannot be reached. Check your connection and try again.',
      ]);
      expect([server, bare, bug].map((e) => errorText(e, fr))).to.deep.equal([
        'Oups ! Nous rencontrons actuellement des difficultés techniques',
        'Erreur indéfinie',
        'Erreur indéfinie',
      ]);
      // Forms and actions.
      const messages = [server, new HttpError(422, 'HTTP 422', 'u'), offline].map((e) => failureOf(e).message!);
      expect(messages.map((m) => en(m.key))).to.deep.equal([
        'Oops! We are currently experiencing technical difficulties',
        'Undefined error',
        'Something went wrong. Please try again or contact technical support',
      ]);
      expect(messages.map((m) => fr(m.key))).to.deep.equal([
        'Oups ! Nous rencontrons actuellement des difficultés techniques',
        'Erreur indéfinie',
        "Une erreur s'est produite. Veuillez réessayer ou contacter le support technique",
      ]);
    });

    it('a 503 from a full sign-in queue and the per-address registration limit read as sentences, in both languages', async () => {
      const [en, fr] = await bothLanguages();
      const busy = failureOf(
        new HttpError(503, 'Too many sign-ins at once. Please try again in a moment.', 'u'),
      ).message!;
      expect(busy).to.deep.equal({ key: 'forms:account.server.busy' });
      expect(
        failureOf(new HttpError(503, 'Service Unavailable', 'u')).message,
        'another 503: the server failed',
      ).to.equal(TECHNICAL);
      const accounts = failureOf(
        new HttpError(422, 'x', 'u', {
          email: ['Too many accounts were created from this address. Please try again later.'],
        }),
      ).fields.email!;
      expect([en(busy.key), en(accounts.key)]).to.deep.equal([
        'Too many sign-ins at once. Please try again in a moment.',
        'Too many accounts were created from this address. Please try again later.',
      ]);
      expect([fr(busy.key), fr(accounts.key)]).to.deep.equal([
        'Trop de connexions en même temps. Veuillez réessayer dans un instant.',
        'Trop de comptes ont été créés depuis cette adresse. Veuillez réessayer plus tard.',
      ]);
    });

    it('maps the per-account sign-in lock to the email field with its minutes, singular and plural', async () => {
      const lock = (text: string) =>
        failureOf(new HttpError(422, 'Too many failed sign-ins.', 'u', { email: [text] })).fields.email;
      expect(
        lock('This account is locked after too many failed sign-ins. Please try again in 15 minutes.'),
      ).to.deep.equal({
        key: 'forms:account.server.accountLocked',
        values: { count: 15 },
      });
      expect(
        lock('This account is locked after too many failed sign-ins. Please try again in 1 minute.'),
      ).to.deep.equal({
        key: 'forms:account.server.accountLocked',
        values: { count: 1 },
      });
      // The per-address throttle keeps its own sentence.
      expect(lock('Too many login attempts. Please try again in 42 seconds.')).to.deep.equal({
        key: 'forms:account.server.throttled',
        values: { seconds: 42 },
      });
    });

    it('every new message reads as a sentence in English and French (no key shown, plural by count)', async () => {
      const [en, fr] = await bothLanguages();
      const server = (text: string, errors: Record<string, string[]> = {}) => {
        const failure = failureOf(new HttpError(422, text, 'u', errors));
        return Object.values(failure.fields)[0] ?? failure.message!;
      };
      const says = (t: typeof en, m: { key: string; values?: Record<string, string | number> }) => t(m.key, m.values);
      const locked = (n: number) =>
        server('x', {
          email: [
            `This account is locked after too many failed sign-ins. Please try again in ${n} ${n === 1 ? 'minute' : 'minutes'}.`,
          ],
        });
      expect(says(en, locked(1))).to.equal(
        'This account is locked after too many failed sign-ins. Please try again in 1 minute.',
      );
      expect(says(en, locked(15))).to.equal(
        'This account is locked after too many failed sign-ins. Please try again in 15 minutes.',
      );
      expect(says(fr, locked(1))).to.equal(
        'Ce compte est bloqué après trop de connexions échouées. Veuillez réessayer dans 1 minute.',
      );
      expect(says(fr, locked(15))).to.equal(
        'Ce compte est bloqué après trop de connexions échouées. Veuillez réessayer dans 15 minutes.',
      );
      const temporary = failureOf(new HttpError(403, TEMPORARY_LOCK.body.message, 'u')).message!;
      expect(says(en, temporary)).to.equal(
        'You signed in with a temporary password. Choose a new password in your profile first.',
      );
      expect(says(fr, temporary)).to.equal(
        "Vous vous êtes connecté avec un mot de passe temporaire. Choisissez d'abord un nouveau mot de passe dans votre profil.",
      );
      const wrong = server('x', { current_password: ['The current password is incorrect.'] });
      const missing = server('x', { current_password: ['The current password field is required.'] });
      const link = server('The link to delete the account is invalid or has expired.');
      expect([wrong, missing, link].map((m) => says(en, m))).to.deep.equal([
        'The current password is incorrect.',
        'Enter your current password to choose a new one.',
        'The link to delete the account is invalid or has expired.',
      ]);
      expect([wrong, missing, link].map((m) => says(fr, m))).to.deep.equal([
        'Le mot de passe actuel est incorrect.',
        'Saisissez votre mot de passe actuel pour en choisir un nouveau.',
        'Le lien de suppression du compte est invalide ou a expiré.',
      ]);
    });
  });
});
