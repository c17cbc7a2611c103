// Element tests of <channel-profile>: what a guest and a signed-in viewer see, what goes over the wire, the
// public events, the pages of emailed links and social callbacks, keyboard and screen-reader behaviour.
// The element runs against the unit tests' fake world (test/unit/helpers.ts): a fake fetch answering the keys
// host and the channel API with contract-valid fixtures and recording every request. Page events go through
// `window`, as on a real page. Routes of emailed links are set with history.pushState and restored after.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { Settings, Transaction, User } from '../../src/api/contract.js';
import { setEnv } from '../../src/lib/env.js';
import { $token, $user, resetSession } from '../../src/stores/session.js';
import { isString } from '../../src/lib/storage.js';
import { $namespaces } from '../../src/i18n/index.js';
import { start } from '../../elements/channel-profile.js';
import {
  captureNavigation,
  Deferred,
  flush,
  installWorld,
  ok,
  teardown,
  until,
  type Recorded,
  type World,
} from '../unit/helpers.js';
import { checked, wireUser, wireClip, wireOrder } from '../fixtures/contract.js';

const API = 'http://api.test/api';
const KEYS = 'http://api.test/keys';
const TOKEN = 'tok-profile-secret';
const T0_S = Date.UTC(2024, 0, 15, 17) / 1000;

// ------------------------------------------------------------------ fixtures (contract-valid)

const SETTINGS = (remote: 0 | 1) =>
  checked(Settings, {
    name: 'Demo',
    language: 'en',
    currency: 'EUR',
    auth: { remote_auth: remote },
    site_url: location.origin,
    social: {
      google: { client_id: 'g-client', authorize_url: 'https://accounts.test/auth', scope: 'openid email' },
      facebook: { client_id: 'fb-client', authorize_url: 'https://facebook.test/oauth' },
    },
  });

const USER = (fields: Record<string, unknown> = {}) =>
  wireUser({
    id: 7,
    email: 'fan@example.com',
    first_name: 'Ann',
    last_name: 'Fan',
    gender: 'W',
    capabilities: ['watch', 'download', 'clipping', 'vod_media', 'vod_media_access'],
    featureCount: { clips: 2, downloads: 5 },
    email_verified: true,
    news: false,
    ...fields,
  });

const ORDERS = [
  {
    id: 1,
    type: 'subscription',
    status: 'Paid',
    activity_status: 'active',
    product: { id: 31, name: 'All-access monthly' },
    price: 9.99,
    currency: 'EUR',
    created_at: T0_S - 86400 * 10,
    expires_at: T0_S + 86400 * 20,
    subscription_status: 'active',
    auto_renewal: 'active',
  },
  {
    id: 2,
    type: 'event',
    status: 'paid',
    activity_status: 'active',
    product: { id: 501, name: 'Spring Final' },
    price: 12.5,
    created_at: T0_S - 86400,
  },
  // Not active: not listed.
  {
    id: 3,
    type: 'event',
    status: 'Refunded',
    activity_status: 'inactive',
    product: { id: 502, name: 'Old game' },
    created_at: 1,
  },
].map((o) => wireOrder(o));

const TRANSACTIONS = [
  {
    id: 11,
    order_id: 1,
    status: 'paid',
    amount: 9.99,
    currency: 'EUR',
    created_at: T0_S - 86400 * 10,
    product_name: 'All-access monthly',
    label: 'New subscription',
  },
  {
    id: 12,
    order_id: 1,
    status: 'failed',
    amount: 9.99,
    currency: 'EUR',
    created_at: T0_S - 86400 * 5,
    product_name: 'All-access monthly',
    label: 'Subscription Renewal',
  },
  {
    id: 13,
    order_id: 3,
    status: 'refunded',
    amount: 4,
    currency: 'EUR',
    created_at: T0_S - 86400 * 30,
    product_name: 'Old game',
  },
].map((x) => checked(Transaction, x));

const CLIPS = [
  {
    id: 21,
    event_id: 501,
    name: 'Winning goal',
    start_time: 60,
    duration: 75,
    status: 'done',
    event: { id: 501, name: 'Spring Final' },
  },
  {
    id: 22,
    event_id: 501,
    name: 'Save',
    start_time: 90,
    duration: 20,
    status: 'processing',
    event: { id: 501, name: 'Spring Final' },
  },
  {
    id: 23,
    event_id: 502,
    name: 'Broken',
    start_time: 10,
    duration: 15,
    status: 'failed',
    event: { id: 502, name: 'Old game' },
  },
].map((c) => wireClip(c));

// ------------------------------------------------------------------ fake platform

let world: World;

function useFakePlatform(options: { remote?: 0 | 1; token?: boolean; user?: Record<string, unknown> } = {}): void {
  resetSession();
  world = installWorld();
  setEnv({ eventTarget: window });
  world.server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-demo' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-1' }), ok({ api_key: 'ak-2' }))
    .on('GET', `${API}/settings`, ok(SETTINGS(options.remote ?? 1)))
    .on('GET', `${API}/color-settings/web`, ok({}))
    .on('GET', `${API}/geo`, ok({ country_code: 'US' }))
    .on('GET', `${API}/profile`, ok(USER(options.user)))
    .on('GET', `${API}/orders`, ok(ORDERS))
    .on('GET', `${API}/transactions`, ok(TRANSACTIONS))
    .on('GET', `${API}/clips/user`, ok(CLIPS))
    .on('POST', `${API}/auth/logout`, ok({ message: 'Signed out' }));
  if (options.token) world.storage.set('token.demo', TOKEN);
}

const calls = (method: string, path: string): Recorded[] => world.server.to(method, `${API}/${path}`);

// ------------------------------------------------------------------ DOM helpers

const root = (el: Element) => el.shadowRoot!;
const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => root(el).querySelector<T>(selector);
const $$ = <T extends Element = HTMLElement>(el: Element, selector: string) => [
  ...root(el).querySelectorAll<T>(selector),
];
const part = <T extends Element = HTMLElement>(el: Element, name: string) => $<T>(el, `[part~="${name}"]`);
const has = (el: Element, name: string) => part(el, name) !== null;
const text = (el: Element) => root(el).textContent ?? '';

async function shows(el: Element, words: string): Promise<void> {
  await waitUntil(() => text(el).includes(words), `expected "${words}"; the element shows "${text(el)}"`, {
    timeout: 4000,
  });
}
async function showsPart(el: Element, name: string): Promise<void> {
  await waitUntil(() => has(el, name), `expected part "${name}"; the element shows "${text(el)}"`, { timeout: 4000 });
}

/** The control labelled `label`. */
function control<T extends HTMLElement = HTMLInputElement>(el: Element, label: string): T {
  const found = $$<HTMLLabelElement>(el, 'label').find((l) => l.textContent === label);
  if (!found)
    throw new Error(
      `no field labelled "${label}"; labels: ${$$(el, 'label')
        .map((l) => l.textContent)
        .join(', ')}`,
    );
  return root(el).getElementById(found.htmlFor) as T;
}

/** Types into a React-controlled input (the native setter, then an input event, as a browser does). */
function type(el: Element, label: string, value: string): void {
  const input = control(el, label);
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function choose(el: Element, label: string, value: string): void {
  const select = control<HTMLSelectElement>(el, label);
  Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(select, value);
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

/** The error shown under a field, found through its aria-describedby. */
function errorOf(el: Element, label: string): string | null {
  const input = control(el, label);
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
  return (
    ids.map((id) => root(el).getElementById(id)).find((n) => n?.getAttribute('part') === 'field-error')?.textContent ??
    null
  );
}

const submit = (el: Element) => part<HTMLButtonElement>(el, 'submit')!.click();

/** Runs `act` and returns the events of `type` that reached the document meanwhile. */
async function firedDuring(type: string, act: () => Promise<void>): Promise<CustomEvent[]> {
  const seen: CustomEvent[] = [];
  const on = (e: Event) => seen.push(e as CustomEvent);
  document.addEventListener(type, on);
  try {
    await act();
  } finally {
    document.removeEventListener(type, on);
  }
  return seen;
}

/** Fills in the registration form for new@example.com, accepting the terms unless told not to. */
function fillRegistration(el: Element, options: { terms?: boolean } = {}): void {
  type(el, 'First name', 'Ann');
  type(el, 'Last name', 'Fan');
  type(el, 'Email', 'new@example.com');
  type(el, 'Password', 'long-enough-1');
  type(el, 'Confirm password', 'long-enough-1');
  if (options.terms ?? true) control(el, 'I accept the terms & conditions').click();
}

async function signInThroughForm(el: Element, password = 'fan-pass-1'): Promise<void> {
  await showsPart(el, 'sign-in');
  type(el, 'Email', 'fan@example.com');
  type(el, 'Password', password);
  submit(el);
}

/** Opens a page at `path` for the length of a test. */
function atPath(path: string): () => void {
  const before = location.href;
  history.pushState(null, '', path);
  return () => history.pushState(null, '', before);
}

/** Goes back (-1) or forward (1) in the page's history, as the browser's buttons do, once the browser has. */
function travel(step: -1 | 1): Promise<void> {
  return new Promise((resolve) => {
    window.addEventListener('popstate', () => resolve(), { once: true });
    history.go(step);
  });
}

const address = () => location.pathname + location.search + location.hash;

// ------------------------------------------------------------------ tests

describe('<channel-profile>', () => {
  before(() => {
    teardown();
    start({ channelKey: 'demo', apiUrl: API, keysUrl: KEYS }, 'http://api.test/channel-elements.js');
  });
  afterEach(() => teardown());

  describe('guest', () => {
    beforeEach(() => useFakePlatform());

    it('sees sign-in: labelled email and password, forgot password, Google, Facebook and the way to register', async () => {
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'sign-in');
      expect(part(el, 'title')?.textContent).to.equal('Sign in');
      expect(control(el, 'Email').type).to.equal('email');
      expect(control(el, 'Email').autocomplete).to.equal('email');
      expect(control(el, 'Password').type).to.equal('password');
      expect(part(el, 'forgot')?.textContent).to.equal('Forgot password?');
      expect(part(el, 'social-google')?.textContent).to.equal('Continue with Google');
      expect(part(el, 'social-facebook')?.textContent).to.equal('Continue with Facebook');
      expect(part(el, 'to-register')?.textContent).to.equal('Create an account');
      expect(has(el, 'tabs')).to.equal(false);
      expect(calls('GET', 'profile'), 'no token: no profile call').to.have.length(0);
    });

    it('checks the fields locally: messages under them, aria-invalid, focus on the first, nothing sent', async () => {
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'sign-in');
      type(el, 'Email', 'not-an-email');
      submit(el);
      await waitUntil(() => errorOf(el, 'Email') !== null, 'the email error');
      expect(errorOf(el, 'Email')).to.equal('A valid email address is required');
      expect(errorOf(el, 'Password')).to.equal('Field is required');
      expect($$(el, '[part~="field-error"]').every((n) => n.getAttribute('role') === 'alert')).to.equal(true);
      expect(root(el).activeElement === control(el, 'Email')).to.equal(true);
      expect(control(el, 'Email').value, 'what was typed stays').to.equal('not-an-email');
      expect(calls('POST', 'v2/auth/login')).to.have.length(0);
    });

    it("a wrong password shows 'Invalid email or password. Please try again.' and keeps the inputs", async () => {
      world.server.on('POST', `${API}/v2/auth/login`, {
        status: 422,
        body: { message: 'Invalid email or password. Please try again.' },
      });
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await signInThroughForm(el, 'wrong-password');
      await showsPart(el, 'form-error');
      expect(part(el, 'form-error')?.getAttribute('role')).to.equal('alert');
      expect(part(el, 'form-error')?.textContent).to.equal('Invalid email or password. Please try again.');
      expect(control(el, 'Email').value).to.equal('fan@example.com');
      expect(control(el, 'Password').value).to.equal('wrong-password');
      expect(part<HTMLButtonElement>(el, 'submit')!.disabled).to.equal(false);
      expect($user.get()).to.equal(undefined);
    });

    it('signing in: submit disabled while in flight, one request for a double submit, channel-login without personal data, $user set', async () => {
      const answer = new Deferred();
      world.server.on('POST', `${API}/v2/auth/login`, answer);
      const el = await fixture(html`<channel-profile></channel-profile>`);
      const events = await firedDuring('channel-login', async () => {
        await signInThroughForm(el);
        await until(() => calls('POST', 'v2/auth/login').length === 1, 'the login request');
        expect(part<HTMLButtonElement>(el, 'submit')!.disabled).to.equal(true);
        expect(part(el, 'submit')?.textContent).to.equal('Signing in…');
        part<HTMLFormElement>(el, 'sign-in')!.querySelector('form')!.requestSubmit();
        await flush();
        answer.resolve(ok({ token: TOKEN, user: USER() }));
        await showsPart(el, 'tabs');
      });
      expect(calls('POST', 'v2/auth/login')).to.have.length(1);
      expect(calls('POST', 'v2/auth/login')[0]!.body).to.deep.equal({
        email: 'fan@example.com',
        password: 'fan-pass-1',
        api_key: 'ak-1',
      });
      expect(events).to.have.length(1);
      expect(events[0]!.target === el, 'fired by the element').to.equal(true);
      expect(events[0]!.bubbles && events[0]!.composed).to.equal(true);
      expect(JSON.parse(JSON.stringify(events[0]!.detail))).to.deep.equal({ method: 'password' });
      expect($user.get()?.email).to.equal('fan@example.com');
      expect(world.storage.get('token.demo', isString)).to.equal(TOKEN);
      expect(part(el, 'title')?.textContent).to.equal('Hello, Ann Fan');
      expect(root(el).activeElement === part(el, 'title'), 'focus moves to the new step').to.equal(true);
    });

    it('registration without terms is refused locally and nothing is sent', async () => {
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'to-register');
      part(el, 'to-register')!.click();
      await showsPart(el, 'register');
      expect(root(el).activeElement === part(el, 'title'), 'the new step heading takes focus').to.equal(true);
      fillRegistration(el, { terms: false });
      submit(el);
      await showsPart(el, 'form-error');
      expect(part(el, 'form-error')?.textContent).to.equal(
        'You are not registered yet. Please accept terms and conditions and click Register to continue.',
      );
      expect(errorOf(el, 'I accept the terms & conditions')).to.equal('Please accept terms & conditions');
      expect(root(el).activeElement === control(el, 'I accept the terms & conditions')).to.equal(true);
      await flush();
      expect(calls('POST', 'v2/auth/register')).to.have.length(0);
    });

    it('shows every registration rule under its field', async () => {
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'to-register');
      part(el, 'to-register')!.click();
      await showsPart(el, 'register');
      type(el, 'Password', 'short');
      type(el, 'Confirm password', 'other');
      submit(el);
      await waitUntil(() => errorOf(el, 'First name') !== null, 'the errors');
      expect(
        ['First name', 'Last name', 'Email', 'Password', 'Confirm password'].map((l) => errorOf(el, l)),
      ).to.deep.equal([
        'Enter your first name',
        'Enter your last name',
        'Enter your Email',
        'The password is too short',
        "PASSWORDS DON'T MATCH",
      ]);
      expect(control(el, 'Password').getAttribute('aria-describedby')!.split(' ')).to.have.length(2);
    });

    it('registers (terms and news sent), fires channel-login and shows the verify notice with Send it again', async () => {
      world.server
        .on(
          'POST',
          `${API}/v2/auth/register`,
          ok({ token: TOKEN, user: USER({ email: 'new@example.com', email_verified: false }) }),
        )
        .on('POST', `${API}/auth/email-verify/resend`, ok({ message: 'Sent' }));
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'to-register');
      part(el, 'to-register')!.click();
      await showsPart(el, 'register');
      fillRegistration(el);
      control(el, 'Send me news by email').click();
      const events = await firedDuring('channel-login', async () => {
        submit(el);
        await showsPart(el, 'verify-notice');
      });
      expect(calls('POST', 'v2/auth/register')[0]!.body).to.deep.equal({
        first_name: 'Ann',
        last_name: 'Fan',
        email: 'new@example.com',
        password: 'long-enough-1',
        password_confirmation: 'long-enough-1',
        terms: true,
        news: true,
        api_key: 'ak-1',
      });
      expect(events.map((e) => e.detail)).to.deep.equal([{ method: 'register' }]);
      expect(text(el)).to.contain('We sent a link to new@example.com. Follow it to verify your email address.');
      part(el, 'resend')!.click();
      await shows(el, 'We sent the link again.');
      expect(calls('POST', 'auth/email-verify/resend')[0]!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
      $$(el, '[part~="continue"]')[0]!.click();
      await showsPart(el, 'tabs');
      expect(part(el, 'verify-banner')?.textContent).to.contain('Your email address is not verified yet.');
    });

    it('forgot password: asks for a link with the typed email', async () => {
      world.server.on('POST', `${API}/auth/password-reset-request`, ok({ message: 'ok' }));
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'sign-in');
      type(el, 'Email', 'fan@example.com');
      part(el, 'forgot')!.click();
      await showsPart(el, 'reset-request');
      expect(control(el, 'Email').value).to.equal('fan@example.com');
      submit(el);
      await shows(el, 'If an account exists for fan@example.com, we sent it a link');
      expect(calls('POST', 'auth/password-reset-request')[0]!.body).to.deep.equal({
        email: 'fan@example.com',
        api_key: 'ak-1',
      });
    });

    it("the Google button saves this page, asks the server to start and goes to the provider's URL it answers", async () => {
      const { assigned, restore: stay } = captureNavigation();
      world.server.on(
        'POST',
        `${API}/v2/auth/social/google/start`,
        ok({ url: 'https://accounts.test/auth?client_id=g-client&state=st-1&code_challenge=cc' }),
      );
      try {
        const el = await fixture(html`<channel-profile></channel-profile>`);
        await showsPart(el, 'social-google');
        part(el, 'social-google')!.click();
        await until(() => assigned.length === 1, 'the redirect');
        expect(assigned).to.deep.equal(['https://accounts.test/auth?client_id=g-client&state=st-1&code_challenge=cc']);
        expect(calls('POST', 'v2/auth/social/google/start')[0]!.body).to.deep.equal({
          redirect_uri: `${location.origin}/auth/login/google/callback`,
          api_key: 'ak-1',
        });
        expect(sessionStorage.getItem('rudy_return.demo')).to.equal(location.href);
        expect(sessionStorage.getItem('rudy_social_state.demo')).to.equal('st-1');
      } finally {
        stay();
        sessionStorage.removeItem('rudy_return.demo');
        sessionStorage.removeItem('rudy_social_state.demo');
      }
    });

    it('answers channel-login-request from the host page: shows sign-in in sight, focuses the email field; removed, it answers no more', async () => {
      const el = await fixture(html`<div><channel-profile></channel-profile></div>`);
      const profile = el.querySelector('channel-profile')!;
      const scrolled: unknown[] = [];
      profile.scrollIntoView = (arg?: boolean | ScrollIntoViewOptions) => void scrolled.push(arg);
      const request = () =>
        document.body.dispatchEvent(
          new CustomEvent('channel-login-request', { bubbles: true, composed: true, detail: { reason: 'watch' } }),
        );
      await showsPart(profile, 'to-register');
      part(profile, 'to-register')!.click();
      await showsPart(profile, 'register');
      request();
      await showsPart(profile, 'sign-in');
      await waitUntil(() => root(profile).activeElement === control(profile, 'Email'), 'focus in the email field');
      expect(scrolled).to.deep.equal([{ block: 'start' }]);

      // Removed from the page, the element hears no request: nothing scrolls and nothing throws.
      const errors: unknown[] = [];
      const onError = (e: ErrorEvent) => void errors.push(e.error);
      window.addEventListener('error', onError);
      try {
        profile.remove();
        await flush();
        request();
        await flush();
      } finally {
        window.removeEventListener('error', onError);
      }
      expect(scrolled, 'no answer from the removed element').to.have.length(1);
      expect(errors).to.deep.equal([]);
    });

    it('speaks French: texts and server messages', async () => {
      world.server.on('POST', `${API}/v2/auth/login`, {
        status: 422,
        body: { message: 'Invalid email or password. Please try again.' },
      });
      const el = await fixture(html`<channel-profile lang="fr"></channel-profile>`);
      await showsPart(el, 'sign-in');
      expect(part(el, 'title')?.textContent).to.equal('Connexion');
      expect(part(el, 'forgot')?.textContent).to.equal('Mot de passe oublié ?');
      expect(part(el, 'social-google')?.textContent).to.equal('Continuer avec Google');
      type(el, 'E-mail', 'x');
      submit(el);
      await waitUntil(() => errorOf(el, 'E-mail') !== null, 'the error');
      expect(errorOf(el, 'E-mail')).to.equal('Une adresse e-mail valide est requise');
      expect(errorOf(el, 'Mot de passe')).to.equal('Ce champ est obligatoire');
      type(el, 'E-mail', 'fan@example.com');
      type(el, 'Mot de passe', 'nope-nope');
      submit(el);
      await shows(el, 'E-mail ou mot de passe invalide. Veuillez réessayer.');
    });

    it('keeps the screen and what was typed when the host page changes the language', async () => {
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'sign-in');
      part(el, 'to-register')!.click();
      await showsPart(el, 'register');
      type(el, 'First name', 'Ann');
      type(el, 'Email', 'new@example.com');
      // The French texts of the forms as if not loaded yet (an earlier test may have loaded them): the view waits
      // for them without being unmounted.
      $namespaces.set($namespaces.get().filter((key) => key !== 'fr:forms'));
      el.setAttribute('lang', 'fr');
      await waitUntil(() => part(el, 'title')?.textContent === 'Créer un compte', `French: "${text(el)}"`);
      expect(has(el, 'register')).to.equal(true);
      expect(control(el, 'Prénom').value).to.equal('Ann');
      expect(control(el, 'E-mail').value).to.equal('new@example.com');
    });

    it('passes an a11y audit (sign-in, and registration with errors)', async () => {
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'social-google');
      await expect(el).shadowDom.to.be.accessible();
      part(el, 'to-register')!.click();
      await showsPart(el, 'register');
      submit(el);
      await showsPart(el, 'field-error');
      await expect(el).shadowDom.to.be.accessible();
    });
  });

  describe('account paths (a host page serving the element at /login, /registration, ...)', () => {
    let restore: () => void = () => undefined;
    beforeEach(() => useFakePlatform());
    afterEach(() => restore());

    /** The element on a page at `path` (in `lang`), once it shows `screen`. */
    async function openAt(path: string, screen: string, lang = 'en'): Promise<Element> {
      restore = atPath(path);
      const el = await fixture(html`<channel-profile lang=${lang}></channel-profile>`);
      await showsPart(el, screen);
      return el;
    }

    it('each path opens its own screen: /login, /registration, /password-reset-request (and in French)', async () => {
      const screens = [
        ['/account/login', 'sign-in', 'Sign in'],
        ['/account/registration', 'register', 'Create an account'],
        ['/account/password-reset-request', 'reset-request', 'Reset your password'],
      ] as const;
      for (const [path, name, title] of screens) {
        const el = await openAt(path, name);
        expect(part(el, 'title')?.textContent, path).to.equal(title);
        expect(address(), 'the address stays').to.equal(path);
        el.remove();
        restore();
      }
      const fr = await openAt('/account/registration/', 'register', 'fr');
      expect(part(fr, 'title')?.textContent).to.equal('Créer un compte');
    });

    it("/verify-notice is the signed-in viewer's notice; a guest there gets sign-in, and the address says /login", async () => {
      restore = atPath('/account/verify-notice?from=mail');
      const length = history.length;
      const guest = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(guest, 'sign-in');
      await waitUntil(() => location.pathname === '/account/login', `the address: ${address()}`);
      expect(address()).to.equal('/account/login?from=mail');
      expect(history.length, 'in place of the notice, not a new entry').to.equal(length);
      guest.remove();
      restore();

      useFakePlatform({ token: true, user: { email_verified: false } });
      const el = await openAt('/account/verify-notice', 'verify-notice');
      expect(text(el)).to.contain('We sent a link to fan@example.com. Follow it to verify your email address.');
      expect(address()).to.equal('/account/verify-notice');
    });

    it('switching screens moves the address (query and hash kept); Back and Forward switch back', async () => {
      const el = await openAt('/account/login?from=home#top', 'sign-in');
      const length = history.length;
      part(el, 'to-register')!.click();
      await showsPart(el, 'register');
      expect(address()).to.equal('/account/registration?from=home#top');
      expect(history.length, 'a new entry').to.equal(length + 1);
      expect(root(el).activeElement === part(el, 'title'), 'the new screen takes focus').to.equal(true);

      await travel(-1);
      await showsPart(el, 'sign-in');
      expect(address()).to.equal('/account/login?from=home#top');
      await travel(1);
      await showsPart(el, 'register');
      expect(address()).to.equal('/account/registration?from=home#top');

      part(el, 'to-sign-in')!.click();
      await showsPart(el, 'sign-in');
      expect(location.pathname).to.equal('/account/login');
      part(el, 'forgot')!.click();
      await showsPart(el, 'reset-request');
      expect(location.pathname).to.equal('/account/password-reset-request');
      await travel(-1);
      await showsPart(el, 'sign-in');
      expect(location.pathname).to.equal('/account/login');
    });

    it('a sign-in request from another element at /registration shows sign-in at /login', async () => {
      const el = await openAt('/account/registration', 'register');
      document.body.dispatchEvent(
        new CustomEvent('channel-login-request', { bubbles: true, composed: true, detail: { reason: 'watch' } }),
      );
      await showsPart(el, 'sign-in');
      expect(location.pathname).to.equal('/account/login');
    });

    it("registering at /registration: the verify notice takes the form's place in history (/verify-notice)", async () => {
      world.server.on(
        'POST',
        `${API}/v2/auth/register`,
        ok({ token: TOKEN, user: USER({ email: 'new@example.com', email_verified: false }) }),
      );
      const el = await openAt('/account/registration', 'register');
      const length = history.length;
      fillRegistration(el);
      submit(el);
      await showsPart(el, 'verify-notice');
      await waitUntil(() => location.pathname === '/account/verify-notice', `the address: ${address()}`);
      expect(history.length).to.equal(length);
    });

    it("at any other path the screens switch inside the element and the host's address is left alone", async () => {
      const el = await openAt('/pages/account.html?tab=1', 'sign-in');
      const length = history.length;
      part(el, 'to-register')!.click();
      await showsPart(el, 'register');
      part(el, 'to-sign-in')!.click();
      await showsPart(el, 'sign-in');
      part(el, 'forgot')!.click();
      await showsPart(el, 'reset-request');
      expect(address()).to.equal('/pages/account.html?tab=1');
      expect(history.length).to.equal(length);
    });
  });

  describe('signed in', () => {
    it('lists the active orders with type, product, status, price and subscription state', async () => {
      useFakePlatform({ token: true });
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await waitUntil(() => $$(el, '[part~="order"]').length === 2, 'two active orders', { timeout: 4000 });
      const rows = $$(el, '[part~="order"]').map((row) => row.textContent!.replace(/\u00a0/g, ' '));
      expect(rows[0])
        .to.contain('Subscription')
        .and.contain('All-access monthly')
        .and.contain('Status: Paid')
        .and.contain('EUR €9.99');
      expect(rows[0])
        .to.contain('Subscription: Active')
        .and.contain('Auto-renewal: Active')
        .and.contain('Renews on Feb 4, 2024');
      expect(rows[0]).to.contain('Ordered Jan 5, 2024');
      expect(rows[1])
        .to.contain('Single event')
        .and.contain('Spring Final')
        .and.contain('Status: Paid')
        .and.contain('EUR €12.50');
      expect(text(el)).not.to.contain('Old game');
      const orders = calls('GET', 'orders')[0]!;
      expect(orders.headers.authorization).to.equal(`Bearer ${TOKEN}`);
      expect(orders.url).not.to.contain(TOKEN);
      expect(part(el, 'tab-selected')?.textContent).to.equal('Orders');
      expect(part(el, 'title')?.textContent).to.equal('Hello, Ann Fan');
    });

    it('tabs: role=tab, arrow keys move and open, the panel is labelled by its tab', async () => {
      useFakePlatform({ token: true });
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'tabs');
      const tabs = $$(el, '[role="tab"]');
      expect(tabs.map((t) => t.textContent)).to.deep.equal([
        'Orders',
        'Transactions',
        'Clips',
        'Favourites',
        'Devices',
        'Edit profile',
      ]);
      expect(tabs.map((t) => t.tabIndex)).to.deep.equal([0, -1, -1, -1, -1, -1]);
      tabs[0]!.focus();
      tabs[0]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      await waitUntil(() => part(el, 'tab-selected')?.textContent === 'Transactions', 'the next tab');
      expect(root(el).activeElement?.textContent).to.equal('Transactions');
      const panel = $(el, '[role="tabpanel"]')!;
      expect(panel.getAttribute('aria-labelledby')).to.equal($$(el, '[role="tab"]')[1]!.id);
      root(el).activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
      await waitUntil(() => part(el, 'tab-selected')?.textContent === 'Edit profile', 'the last tab');
      root(el).activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      await waitUntil(() => part(el, 'tab-selected')?.textContent === 'Orders', 'wraps to the first');
    });

    it('transactions with their statuses and subscription labels; clips with their states', async () => {
      useFakePlatform({ token: true });
      const el = await fixture(html`<channel-profile section="transactions"></channel-profile>`);
      await waitUntil(() => $$(el, '[part~="transaction"]').length === 3, 'three transactions', { timeout: 4000 });
      const rows = $$(el, '[part~="transaction"]').map((r) =>
        [...r.querySelectorAll('td')].map((td) => td.textContent!.replace(/\u00a0/g, ' ')),
      );
      expect(rows).to.deep.equal([
        ['Jan 10, 2024', 'All-access monthlySubscription Renewal', 'EUR €9.99', 'Failed'],
        ['Jan 5, 2024', 'All-access monthlyNew subscription', 'EUR €9.99', 'Paid'],
        ['Dec 16, 2023', 'Old game', 'EUR €4.00', 'Refunded'],
      ]);
      el.setAttribute('section', 'clips');
      await waitUntil(() => $$(el, '[part~="clip"]').length === 3, 'three clips', { timeout: 4000 });
      const clips = $$(el, '[part~="clip"]');
      expect(clips.map((c) => c.querySelector('[part~="clip-state"]')?.textContent)).to.deep.equal([
        'Ready',
        'Processing',
        'Failed',
      ]);
      expect(clips[0]!.textContent).to.contain('Winning goal').and.contain('Spring Final').and.contain('Duration 1:15');
      expect(clips[2]!.textContent).to.contain('Your clip creation failed');
    });

    it('a bad section attribute: a translated notice, a console warning and the orders', async () => {
      useFakePlatform({ token: true });
      const el = await fixture(html`<channel-profile section="bogus"></channel-profile>`);
      await showsPart(el, 'tabs');
      expect(part(el, 'notice')?.textContent).to.equal(
        'Ignored section="bogus": orders, transactions, clips, favourites, devices, edit.',
      );
      expect(world.lines.warn).to.include(
        '<channel-profile>: ignored section="bogus"; expected orders, transactions, clips, favourites, devices, edit.',
      );
      expect(part(el, 'tab-selected')?.textContent).to.equal('Orders');
    });

    it('devices with remote auth off: no Devices tab, the orders instead', async () => {
      useFakePlatform({ token: true, remote: 0 });
      const el = await fixture(html`<channel-profile section="devices"></channel-profile>`);
      await showsPart(el, 'orders');
      expect(part(el, 'tab-selected')?.textContent).to.equal('Orders');
      expect($$(el, '[role="tab"]').map((t) => t.textContent)).not.to.include('Devices');
      expect(has(el, 'device-code')).to.equal(false);
    });

    it('devices with remote auth on: links by code; a bad code shows the server error under the field', async () => {
      useFakePlatform({ token: true });
      world.server.on(
        'POST',
        `${API}/auth/add_session`,
        {
          status: 422,
          body: { message: 'The given data was invalid.', errors: { code: ['The code is invalid or has expired.'] } },
        },
        ok({ message: 'Your device is now linked.' }),
      );
      const el = await fixture(html`<channel-profile section="devices"></channel-profile>`);
      await showsPart(el, 'device-code');
      type(el, 'Device code', 'zzz-222');
      submit(el);
      await waitUntil(() => errorOf(el, 'Device code') !== null, 'the code error');
      expect(errorOf(el, 'Device code')).to.equal('The code is invalid or has expired.');
      await expect(el).shadowDom.to.be.accessible();
      expect(calls('POST', 'auth/add_session')[0]!.body).to.deep.equal({ code: 'ZZZ222', api_key: 'ak-1' });
      type(el, 'Device code', 'abc234');
      submit(el);
      await shows(el, 'Your device is now linked.');
    });

    it('favourites: the tab mounts the favourites panel', async () => {
      useFakePlatform({ token: true });
      world.server
        .on(
          'GET',
          `${API}/favorites`,
          ok({ participant: [], participant_group: [], event_category: [], favorite_event: [], event_location: [] }),
        )
        .on('GET', `${API}/participants`, ok([]))
        .on('GET', `${API}/participant-groups`, ok([]))
        .on('GET', `${API}/events-categories`, ok([]));
      const el = await fixture(html`<channel-profile section="favourites"></channel-profile>`);
      await showsPart(el, 'favourites');
      expect(part(el, 'tab-selected')?.textContent).to.equal('Favourites');
    });

    it('edit: fields from the user, gender labels, capabilities, counts; Save posts the profile with _method=patch', async () => {
      useFakePlatform({ token: true });
      world.server.on('POST', `${API}/profile`, ok(USER({ first_name: 'Anne', gender: 'M', news: true })));
      const el = await fixture(html`<channel-profile section="edit"></channel-profile>`);
      await showsPart(el, 'edit');
      expect(control(el, 'First name').value).to.equal('Ann');
      const gender = control<HTMLSelectElement>(el, 'Gender');
      expect(gender.value).to.equal('W');
      expect([...gender.options].map((o) => [o.value, o.textContent])).to.deep.equal([
        ['', 'Not identified'],
        ['M', 'Male'],
        ['W', 'Female'],
      ]);
      expect($$(el, '[part~="capabilities"] li').map((li) => li.textContent)).to.deep.equal([
        'Watching videos',
        'Downloading events',
        'Making clips',
        'The on-demand library',
      ]);
      expect(part(el, 'feature-counts')?.textContent).to.equal('Clips: 2Downloads: 5');
      expect(part(el, 'email-state')?.textContent).to.equal('Email address verified');
      type(el, 'First name', 'Anne');
      choose(el, 'Gender', 'M');
      control(el, 'Send me news by email').click();
      submit(el);
      await shows(el, 'Your profile was saved.');
      const [sent] = calls('POST', 'profile');
      expect(sent!.body).to.deep.equal({
        _method: 'patch',
        first_name: 'Anne',
        last_name: 'Fan',
        gender: 'M',
        news: true,
        api_key: 'ak-1',
      });
      expect(sent!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
      expect($user.get()?.first_name).to.equal('Anne');
      expect(part(el, 'title')?.textContent).to.equal('Hello, Anne Fan');
    });

    it('edit: a new password needs the current one (checked here first, then by the server); it goes with the new one and is cleared after saving', async () => {
      useFakePlatform({ token: true });
      world.server.on(
        'POST',
        `${API}/profile`,
        {
          status: 422,
          body: {
            message: 'The current password is incorrect.',
            errors: { current_password: ['The current password is incorrect.'] },
          },
        },
        ok(USER()),
      );
      const el = await fixture(html`<channel-profile section="edit"></channel-profile>`);
      await showsPart(el, 'current-password');
      const current = control(el, 'Current password');
      expect([current.type, current.autocomplete, current.name]).to.deep.equal([
        'password',
        'current-password',
        'current_password',
      ]);
      expect(part(el, 'current-password')!.getAttribute('part')).to.equal('field current-password');
      expect(current.closest('fieldset')?.querySelector('legend')?.textContent, 'inside the password group').to.equal(
        'Change password',
      );
      expect(current.getAttribute('aria-required'), 'not required while no new password is typed').to.equal(null);
      type(el, 'New password', 'brand-new-1');
      type(el, 'Confirm the new password', 'brand-new-1');
      await waitUntil(
        () => control(el, 'Current password').getAttribute('aria-required') === 'true',
        'required once a new password is typed',
      );
      submit(el);
      await waitUntil(() => errorOf(el, 'Current password') !== null, 'the current-password error');
      expect(errorOf(el, 'Current password')).to.equal('Field is required');
      expect(root(el).activeElement, 'focus on the field in error').to.equal(control(el, 'Current password'));
      expect(calls('POST', 'profile')).to.have.length(0);
      type(el, 'Current password', 'not-it-1');
      submit(el);
      await waitUntil(
        () => errorOf(el, 'Current password') === 'The current password is incorrect.',
        'the server error under the field',
      );
      expect(part(el, 'form-error'), 'the field explains it: no form alert').to.equal(null);
      await expect(el).shadowDom.to.be.accessible();
      type(el, 'Current password', 'fan-pass-1');
      submit(el);
      await shows(el, 'Your profile was saved.');
      expect(calls('POST', 'profile')[1]!.body).to.include({
        current_password: 'fan-pass-1',
        password: 'brand-new-1',
        password_confirmation: 'brand-new-1',
      });
      expect(
        ['Current password', 'New password', 'Confirm the new password'].map((label) => control(el, label).value),
      ).to.deep.equal(['', '', '']);
    });

    it('edit: an account made by social sign-in without a password has no current-password field and sets one without it', async () => {
      useFakePlatform({ token: true, user: { provider: 'google', has_password: false } });
      world.server.on('POST', `${API}/profile`, ok(USER({ provider: 'google', has_password: true })));
      const el = await fixture(html`<channel-profile section="edit"></channel-profile>`);
      await showsPart(el, 'edit');
      expect(has(el, 'current-password')).to.equal(false);
      expect($$(el, 'label').map((l) => l.textContent)).not.to.include('Current password');
      type(el, 'New password', 'first-pass-1');
      type(el, 'Confirm the new password', 'first-pass-1');
      submit(el);
      await shows(el, 'Your profile was saved.');
      const sent = calls('POST', 'profile')[0]!.body as Record<string, unknown>;
      expect(sent).to.include({ password: 'first-pass-1' });
      expect(sent).not.to.have.property('current_password');
      // The account has a password now: changing it again asks for it.
      await showsPart(el, 'current-password');
    });

    it('an order whose date names no moment (MySQL’s zero date) is left out; the others show, the tab works', async () => {
      useFakePlatform({ token: true });
      world.server.on(
        'GET',
        `${API}/orders`,
        ok([{ ...ORDERS[1]!, id: 4, created_at: '0000-00-00 00:00:00' }, ORDERS[0]]),
      );
      const el = await fixture(html`<channel-profile section="orders"></channel-profile>`);
      await waitUntil(() => $$(el, '[part~="order"]').length === 1, 'the readable order', { timeout: 4000 });
      expect(text(el)).to.contain('All-access monthly').and.not.contain('Spring Final');
      expect(has(el, 'error')).to.equal(false);
    });

    it('a list refused by the temporary-password lock (403) says why, translated, with Try again', async () => {
      useFakePlatform({ token: true });
      world.server.on('GET', `${API}/orders`, {
        status: 403,
        body: { message: 'Choose a new password first: you signed in with a temporary password.' },
      });
      const el = await fixture(html`<channel-profile section="orders"></channel-profile>`);
      await showsPart(el, 'error');
      expect(part(el, 'error')!.textContent)
        .to.contain('This list could not be loaded.')
        .and.contain('You signed in with a temporary password. Choose a new password in your profile first.');
      expect(has(el, 'retry')).to.equal(true);
    });

    it("a list the server fails to give says 'Oops! We are currently experiencing technical difficulties' (English and French)", async () => {
      useFakePlatform({ token: true });
      world.server.on('GET', `${API}/orders`, { status: 500, body: { message: 'Server Error' } });
      const el = await fixture(html`<channel-profile section="orders"></channel-profile>`);
      await world.advance(1_000); // the client's single retry
      await showsPart(el, 'error');
      expect(part(el, 'error')!.querySelector('.detail')!.textContent).to.equal(
        'Oops! We are currently experiencing technical difficulties',
      );
      el.remove();
      const fr = await fixture(html`<channel-profile section="orders" lang="fr"></channel-profile>`);
      await world.advance(1_000);
      await showsPart(fr, 'error');
      expect(part(fr, 'error')!.querySelector('.detail')!.textContent).to.equal(
        'Oups ! Nous rencontrons actuellement des difficultés techniques',
      );
      expect(calls('GET', 'orders'), 'two loads, each tried twice').to.have.length(4);
    });

    it("a start-up the server fails shows WHOOPS without repeating 'Oops! ...' under it (English and French)", async () => {
      /** The element in `lang`, the server failing start-up. */
      const useFailedStart = (lang: string) => {
        useFakePlatform();
        world.server.on('GET', `${API}/settings`, { status: 500, body: { message: 'Server Error' } });
        return fixture(html`<channel-profile lang=${lang}></channel-profile>`);
      };
      /** It shows the WHOOPS `headline`, and never `repeat`. */
      const whoopsAlone = async (el: Element, headline: string, repeat: string) => {
        await world.advance(1_000); // the client's single retry
        await waitUntil(() => text(el).includes(headline), `the start-up error; the element shows "${text(el)}"`);
        expect(part(el, 'error')!.textContent).not.to.contain(repeat);
        el.remove();
        teardown();
      };
      await whoopsAlone(
        await useFailedStart('en'),
        'WHOOPS! Apologies! Our service is currently experiencing technical difficulties.',
        'Oops!',
      );
      await whoopsAlone(
        await useFailedStart('fr'),
        'OUPS ! Toutes nos excuses ! Notre service rencontre actuellement des difficultés techniques.',
        'Oups !',
      );
    });

    it("a refusal that gives no reason says 'Undefined error' (English and French)", async () => {
      useFakePlatform({ token: true });
      world.server.on('POST', `${API}/auth/add_session`, { status: 400, body: {} });
      for (const [lang, label, button, says] of [
        ['en', 'Device code', 'Link device', 'Undefined error'],
        ['fr', "Code de l'appareil", "Associer l'appareil", 'Erreur indéfinie'],
      ] as const) {
        const el = await fixture(html`<channel-profile section="devices" lang=${lang}></channel-profile>`);
        await showsPart(el, 'device-code');
        type(el, label, 'ABC234');
        expect(part(el, 'submit')!.textContent).to.equal(button);
        submit(el);
        await showsPart(el, 'form-error');
        expect(part(el, 'form-error')!.textContent).to.equal(says);
        el.remove();
      }
    });

    it('edit: Delete account asks first, then asks the server to email the link', async () => {
      useFakePlatform({ token: true });
      world.server.on('POST', `${API}/auth/delete-account`, ok({ message: 'Sent' }));
      const el = await fixture(html`<channel-profile section="edit"></channel-profile>`);
      await showsPart(el, 'delete-account');
      part(el, 'delete-account')!.click();
      await showsPart(el, 'confirm-delete');
      expect(calls('POST', 'auth/delete-account')).to.have.length(0);
      part(el, 'confirm-delete')!.click();
      await shows(el, 'We sent you a link to confirm the deletion of your account.');
      expect(calls('POST', 'auth/delete-account')).to.have.length(1);
    });

    it('a temporary password locks the element to the edit section until a new password is saved', async () => {
      useFakePlatform({ token: true, user: { temporary_password: true } });
      world.server.on('POST', `${API}/profile`, ok(USER({ temporary_password: false })));
      const el = await fixture(html`<channel-profile section="orders"></channel-profile>`);
      await showsPart(el, 'edit');
      expect(has(el, 'tabs')).to.equal(false);
      expect(has(el, 'orders')).to.equal(false);
      expect(has(el, 'delete-account')).to.equal(false);
      expect(calls('GET', 'orders')).to.have.length(0);
      expect(text(el)).to.contain('You signed in with a temporary password. Choose a new password to continue.');
      await expect(el).shadowDom.to.be.accessible();
      // The temporary password is the current one: asked for, and said so.
      expect(control(el, 'Current password').getAttribute('aria-required')).to.equal('true');
      expect(text(el)).to.contain('The temporary password you signed in with.');
      submit(el);
      await waitUntil(() => errorOf(el, 'New password') !== null, 'the password error');
      expect(errorOf(el, 'New password')).to.equal('Field is required');
      expect(errorOf(el, 'Current password')).to.equal('Field is required');
      expect(calls('POST', 'profile')).to.have.length(0);
      type(el, 'New password', 'brand-new-1');
      type(el, 'Confirm the new password', 'brand-new-1');
      type(el, 'Current password', 'temp-pass-1');
      submit(el);
      await showsPart(el, 'tabs');
      expect(calls('POST', 'profile')[0]!.body).to.include({
        current_password: 'temp-pass-1',
        password: 'brand-new-1',
        password_confirmation: 'brand-new-1',
      });
      expect(part(el, 'tab-selected')?.textContent).to.equal('Edit profile');
      expect(text(el)).to.contain('Your profile was saved.');
    });

    it('Sign out: auth/logout, channel-logout, a fresh api key, the sign-in form', async () => {
      useFakePlatform({ token: true });
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'sign-out');
      const events = await firedDuring('channel-logout', async () => {
        part(el, 'sign-out')!.click();
        await showsPart(el, 'sign-in');
      });
      expect(events).to.have.length(1);
      expect(events[0]!.bubbles && events[0]!.composed).to.equal(true);
      expect(events[0]!.detail).to.deep.equal({});
      expect(calls('POST', 'auth/logout')[0]!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
      expect(calls('POST', 'get_api_key')).to.have.length(2);
      expect($user.get()).to.equal(undefined);
      expect($token.get()).to.equal(undefined);
      expect(root(el).activeElement === part(el, 'title')).to.equal(true);
    });

    it('a 401 anywhere resets the user and the element shows sign-in', async () => {
      useFakePlatform({ token: true });
      world.server.on('GET', `${API}/orders`, { status: 401, body: { message: 'Unauthenticated.' } });
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'sign-in');
      expect($user.get()).to.equal(undefined);
    });

    it('a sign-in elsewhere (the shared user) shows the profile here', async () => {
      useFakePlatform();
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'sign-in');
      $token.set(TOKEN);
      $user.set(User.parse(USER()));
      await showsPart(el, 'tabs');
    });

    it('passes an a11y audit (orders, edit)', async () => {
      useFakePlatform({ token: true });
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await waitUntil(() => $$(el, '[part~="order"]').length === 2, 'the orders', { timeout: 4000 });
      await expect(el).shadowDom.to.be.accessible();
      el.setAttribute('section', 'edit');
      await showsPart(el, 'edit');
      await expect(el).shadowDom.to.be.accessible();
    });

    it('speaks French when signed in', async () => {
      useFakePlatform({ token: true });
      const el = await fixture(html`<channel-profile lang="fr"></channel-profile>`);
      await waitUntil(() => $$(el, '[part~="order"]').length === 2, 'the orders', { timeout: 4000 });
      expect($$(el, '[role="tab"]').map((t) => t.textContent)).to.deep.equal([
        'Commandes',
        'Transactions',
        'Extraits',
        'Favoris',
        'Appareils',
        'Modifier le profil',
      ]);
      expect(part(el, 'sign-out')?.textContent).to.equal('Se déconnecter');
      const first = $$(el, '[part~="order"]')[0]!.textContent!;
      expect(first)
        .to.contain('Abonnement')
        .and.contain('Statut : Payée')
        .and.contain('Renouvellement automatique : Actif');
      expect(first).to.match(/EUR\s€9,99/);
      el.setAttribute('section', 'edit');
      await showsPart(el, 'current-password');
      type(el, 'Nouveau mot de passe', 'brand-new-1');
      type(el, 'Confirmez le nouveau mot de passe', 'brand-new-1');
      submit(el);
      await waitUntil(() => errorOf(el, 'Mot de passe actuel') !== null, 'the current-password error');
      expect(errorOf(el, 'Mot de passe actuel')).to.equal('Ce champ est obligatoire');
    });
  });

  describe('pages of emailed links and callbacks', () => {
    let restore: () => void;
    afterEach(() => restore());

    /** Signed in as fan@example.com (with these `user` fields), with what `answer` adds to the server: `path`. */
    function useSignedInPage(
      path: string,
      options: { user?: Record<string, unknown>; answer?: (server: World['server']) => void; lang?: string } = {},
    ): Promise<Element> {
      useFakePlatform({ token: true, user: options.user ?? {} });
      options.answer?.(world.server);
      restore = atPath(path);
      return fixture(html`<channel-profile lang=${options.lang ?? 'en'}></channel-profile>`);
    }

    /** The page again at `path` (a fresh element, in `lang`), once it says who is signed in here. */
    async function againAt(path: string, lang: string): Promise<Element> {
      history.replaceState(null, '', path);
      const el = await fixture(html`<channel-profile lang=${lang}></channel-profile>`);
      await showsPart(el, 'signed-in-as');
      return el;
    }

    const UNVERIFIED = { email_verified: false };
    const verified = (server: World['server']) =>
      void server.on('POST', `${API}/auth/email-verify`, ok({ message: 'Verified' }));

    it('/verify-email: verifies, says so, and removes the one-time values from the address bar', async () => {
      useFakePlatform();
      world.server.on('POST', `${API}/auth/email-verify`, ok({ message: 'Verified' }));
      restore = atPath('/verify-email?email=fan%40example.com&expires=1700000000&signature=sig-1&keep=1');
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'verify-email');
      await shows(el, 'Your email address is verified. Thank you!');
      expect(calls('POST', 'auth/email-verify')[0]!.body).to.deep.equal({
        email: 'fan@example.com',
        expires: '1700000000',
        signature: 'sig-1',
        api_key: 'ak-1',
      });
      expect(location.pathname + location.search).to.equal('/verify-email?keep=1');
      $$(el, '[part~="continue"]')[0]!.click();
      await showsPart(el, 'sign-in');
    });

    it('/verify-email: a failed and an already verified link say so', async () => {
      useFakePlatform();
      world.server.on(
        'POST',
        `${API}/auth/email-verify`,
        { status: 422, body: { message: 'Verification failed' } },
        { status: 422, body: { message: 'Email already verified' } },
      );
      restore = atPath('/verify-email?email=fan%40example.com&expires=1&signature=bad');
      const first = await fixture(html`<channel-profile></channel-profile>`);
      await shows(first, 'Verification of your email address failed');
      first.remove();
      history.replaceState(null, '', '/verify-email?email=fan%40example.com&expires=1&signature=again');
      const second = await fixture(html`<channel-profile></channel-profile>`);
      await shows(second, 'Your email already verified');
    });

    it('/password-reset: a new password; an expired link says so and offers a new one', async () => {
      useFakePlatform();
      world.server.on('POST', `${API}/auth/password-reset`, {
        status: 422,
        body: { message: 'Reset password key expired' },
      });
      restore = atPath('/password-reset?email=fan%40example.com&token=reset-1');
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'reset-password');
      expect(location.search).to.equal('');
      type(el, 'New password', 'brand-new-1');
      type(el, 'Confirm the new password', 'brand-new-2');
      submit(el);
      await waitUntil(() => errorOf(el, 'Confirm the new password') !== null, 'the mismatch');
      expect(errorOf(el, 'Confirm the new password')).to.equal("PASSWORDS DON'T MATCH");
      type(el, 'Confirm the new password', 'brand-new-1');
      submit(el);
      await shows(el, 'Reset password key expired');
      await expect(el).shadowDom.to.be.accessible();
      expect(calls('POST', 'auth/password-reset')[0]!.body).to.deep.equal({
        email: 'fan@example.com',
        token: 'reset-1',
        password: 'brand-new-1',
        password_confirmation: 'brand-new-1',
        api_key: 'ak-1',
      });
      part(el, 'new-link')!.click();
      await showsPart(el, 'reset-request');
      expect(control(el, 'Email').value).to.equal('fan@example.com');
    });

    it('/password-reset: success leads to sign-in with the email filled in', async () => {
      useFakePlatform();
      world.server.on('POST', `${API}/auth/password-reset`, ok({ message: 'Changed' }));
      restore = atPath('/password-reset?email=fan%40example.com&token=reset-1');
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'reset-password');
      type(el, 'New password', 'brand-new-1');
      type(el, 'Confirm the new password', 'brand-new-1');
      submit(el);
      await showsPart(el, 'sign-in');
      expect(text(el)).to.contain('Your password was changed. You can sign in now.');
      expect(control(el, 'Email').value).to.equal('fan@example.com');
    });

    it('/confirm-account-deletion: confirm deletes, signs this user out and fires channel-logout', async () => {
      useFakePlatform({ token: true });
      world.server.on('POST', `${API}/delete-account-confirm`, ok({ message: 'Deleted' }));
      restore = atPath('/confirm-account-deletion?email=fan%40example.com&token=del-1');
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'confirm-deletion');
      expect(text(el)).to.contain('Delete your account fan@example.com?');
      await expect(el).shadowDom.to.be.accessible();
      expect(location.search).to.equal('');
      const events = await firedDuring('channel-logout', async () => {
        submit(el);
        await shows(el, 'Your account was deleted.');
      });
      expect(events).to.have.length(1);
      expect(calls('POST', 'delete-account-confirm')[0]!.body).to.deep.equal({
        email: 'fan@example.com',
        token: 'del-1',
        channel_key: 'ck-demo',
      });
      expect($user.get()).to.equal(undefined);
      expect(world.storage.get('token.demo', isString)).to.equal(undefined);
      $$(el, '[part~="continue"]')[0]!.click();
      await showsPart(el, 'sign-in');
    });

    it('/verify-email for the signed-in account: verifies it, and the banner goes', async () => {
      const el = await useSignedInPage('/verify-email?email=Fan%40example.com&expires=1700000000&signature=sig-1', {
        user: UNVERIFIED,
        answer: verified,
      });
      await shows(el, 'Your email address is verified. Thank you!');
      expect(calls('POST', 'auth/email-verify')).to.have.length(1);
      expect($user.get()?.email_verified).to.equal(true);
      $$(el, '[part~="continue"]')[0]!.click();
      await showsPart(el, 'tabs');
      expect(has(el, 'verify-banner')).to.equal(false);
    });

    it('/verify-email for another account while signed in: verifies that address and says who stays signed in (English and French)', async () => {
      const el = await useSignedInPage('/verify-email?email=other%40example.com&expires=1700000000&signature=sig-1', {
        user: UNVERIFIED,
        answer: verified,
      });
      await showsPart(el, 'message');
      await shows(el, 'The email address other@example.com is verified. You are still signed in as fan@example.com.');
      expect(calls('POST', 'auth/email-verify')[0]!.body).to.include({ email: 'other@example.com' });
      expect($user.get()?.email, 'still signed in').to.equal('fan@example.com');
      expect($user.get()?.email_verified, 'and still unverified').to.equal(false);
      el.remove();
      history.replaceState(null, '', '/verify-email?email=other%40example.com&expires=1700000000&signature=sig-2');
      const fr = await fixture(html`<channel-profile lang="fr"></channel-profile>`);
      await shows(
        fr,
        "L'adresse e-mail other@example.com est vérifiée. Vous êtes toujours connecté en tant que fan@example.com.",
      );
    });

    it("/verify-email that fails says 'Verification of your email address failed' (with the reason, and Send it again for the owner); 'Your email already verified' is good news (English and French)", async () => {
      useFakePlatform({ token: true, user: UNVERIFIED });
      world.server
        .on(
          'POST',
          `${API}/auth/email-verify`,
          { status: 422, body: { message: 'Verification failed' } },
          { status: 500, body: { message: 'Server Error' } },
          { status: 422, body: { message: 'Verification failed' } },
          { status: 422, body: { message: 'Email already verified' } },
        )
        .on('POST', `${API}/auth/email-verify/resend`, ok({ message: 'Sent' }));
      const open = async (n: number, lang = 'en') => {
        history.replaceState(null, '', `/verify-email?email=fan%40example.com&expires=1&signature=s${n}`);
        const el = await fixture(html`<channel-profile lang=${lang}></channel-profile>`);
        await waitUntil(() => has(el, 'continue'), `the outcome; the element shows "${text(el)}"`);
        return el;
      };
      restore = atPath('/verify-email');

      const failed = await open(1);
      expect(part(failed, 'form-error')!.textContent).to.equal('Verification of your email address failed');
      expect(part(failed, 'form-error')!.getAttribute('role')).to.equal('alert');
      await expect(failed).shadowDom.to.be.accessible();
      part(failed, 'resend')!.click();
      await shows(failed, 'We sent the link again.');
      expect(calls('POST', 'auth/email-verify/resend')).to.have.length(1);
      failed.remove();

      const broken = await open(2);
      expect(part(broken, 'form-error')!.textContent).to.equal(
        'Verification of your email address failed' + 'Oops! We are currently experiencing technical difficulties',
      );
      broken.remove();

      const fr = await open(3, 'fr');
      expect(part(fr, 'form-error')!.textContent).to.equal('La vérification de votre adresse e-mail a échoué');
      expect(part(fr, 'resend')!.textContent).to.equal('Renvoyer le lien');
      fr.remove();

      const already = await open(4, 'fr');
      expect(has(already, 'form-error')).to.equal(false);
      expect(already.shadowRoot!.querySelector('[role="status"]')!.textContent).to.equal(
        'Votre adresse e-mail est déjà vérifiée',
      );
      expect(has(already, 'resend'), 'nothing left to send').to.equal(false);
      expect($user.get()?.email_verified).to.equal(true);
    });

    it('/password-reset for another account while signed in: says whose link it is and sends nothing; Sign out and continue, then the new password', async () => {
      const fr = await useSignedInPage('/password-reset?email=other%40example.com&token=reset-9', {
        answer: (server) => void server.on('POST', `${API}/auth/password-reset`, ok({ message: 'Changed' })),
        lang: 'fr',
      });
      await showsPart(fr, 'signed-in-as');
      expect(part(fr, 'signed-in-as')!.textContent).to.equal(
        'Ce lien concerne other@example.com, mais vous êtes connecté en tant que fan@example.com. Déconnectez-vous pour choisir un nouveau mot de passe pour other@example.com.',
      );
      expect(part(fr, 'sign-out')!.textContent).to.equal('Se déconnecter et continuer');
      fr.remove();
      history.replaceState(null, '', '/password-reset?email=other%40example.com&token=reset-9');

      const el = await fixture(html`<channel-profile></channel-profile>`);
      await showsPart(el, 'signed-in-as');
      expect(part(el, 'title')!.textContent).to.equal('Choose a new password');
      expect(part(el, 'signed-in-as')!.textContent).to.equal(
        'This link is for other@example.com, but you are signed in as fan@example.com. Sign out to choose a new password for other@example.com.',
      );
      expect($$(el, 'input').length, 'no form while signed in').to.equal(0);
      // The address is cleaned in an effect after the page shows: waited for, not read at once (a flake on a busy
      // machine).
      await waitUntil(() => location.search === '', 'the one-time values left the address bar');
      await expect(el).shadowDom.to.be.accessible();
      const events = await firedDuring('channel-logout', async () => {
        part(el, 'sign-out')!.click();
        await showsPart(el, 'submit');
      });
      expect(events).to.have.length(1);
      expect(calls('POST', 'auth/logout')).to.have.length(1);
      expect(root(el).activeElement === part(el, 'title'), 'the form takes focus').to.equal(true);
      type(el, 'New password', 'brand-new-1');
      type(el, 'Confirm the new password', 'brand-new-1');
      submit(el);
      await showsPart(el, 'sign-in');
      expect(control(el, 'Email').value).to.equal('other@example.com');
      const sent = calls('POST', 'auth/password-reset');
      expect(sent).to.have.length(1);
      expect(sent[0]!.body).to.include({ email: 'other@example.com', token: 'reset-9' });
      expect(sent[0]!.headers.authorization, 'sent signed out').to.equal(undefined);
    });

    it('/password-reset for the signed-in account: sign out first, or stay signed in (English and French)', async () => {
      const el = await useSignedInPage('/password-reset?email=FAN%40example.com&token=reset-9');
      await showsPart(el, 'signed-in-as');
      expect(part(el, 'signed-in-as')!.textContent).to.equal(
        'You are signed in as fan@example.com. To choose a new password with this link, sign out first. You can also change your password in your profile.',
      );
      expect(part(el, 'continue')!.textContent).to.equal('Stay signed in');
      part(el, 'continue')!.click();
      await showsPart(el, 'tabs');
      expect(calls('POST', 'auth/password-reset')).to.have.length(0);
      expect(calls('POST', 'auth/logout')).to.have.length(0);
      el.remove();
      const fr = await againAt('/password-reset?email=fan%40example.com&token=reset-9', 'fr');
      expect(part(fr, 'signed-in-as')!.textContent).to.equal(
        "Vous êtes connecté en tant que fan@example.com. Pour choisir un nouveau mot de passe avec ce lien, déconnectez-vous d'abord. Vous pouvez aussi changer votre mot de passe dans votre profil.",
      );
      expect(part(fr, 'continue')!.textContent).to.equal('Rester connecté');
    });

    it('/confirm-account-deletion for another account while signed in: says that account stays; confirming deletes the other only (English and French)', async () => {
      const el = await useSignedInPage('/confirm-account-deletion?email=other%40example.com&token=del-9', {
        answer: (server) => void server.on('POST', `${API}/delete-account-confirm`, ok({ message: 'Deleted' })),
      });
      await showsPart(el, 'signed-in-as');
      expect(part(el, 'signed-in-as')!.textContent).to.equal(
        'You are signed in as fan@example.com: that account stays signed in and is not deleted.',
      );
      await expect(el).shadowDom.to.be.accessible();
      const events = await firedDuring('channel-logout', async () => {
        submit(el);
        await shows(el, 'The account other@example.com was deleted. You are still signed in as fan@example.com.');
      });
      expect(events, 'nobody signed out').to.have.length(0);
      expect(calls('POST', 'delete-account-confirm')[0]!.body).to.include({ email: 'other@example.com' });
      expect($user.get()?.email).to.equal('fan@example.com');
      expect(world.storage.get('token.demo', isString)).to.equal(TOKEN);
      $$(el, '[part~="continue"]')[0]!.click();
      await showsPart(el, 'tabs');
      el.remove();

      const fr = await againAt('/confirm-account-deletion?email=other%40example.com&token=del-10', 'fr');
      expect(part(fr, 'signed-in-as')!.textContent).to.equal(
        "Vous êtes connecté en tant que fan@example.com : ce compte reste connecté et n'est pas supprimé.",
      );
      submit(fr);
      await shows(
        fr,
        'Le compte other@example.com a été supprimé. Vous êtes toujours connecté en tant que fan@example.com.',
      );
    });

    it('/auth/login/google/callback: signs in, fires channel-login and goes back to the saved page', async () => {
      useFakePlatform();
      world.server.on('POST', `${API}/v2/auth/social/google`, ok({ token: TOKEN, user: USER({ provider: 'google' }) }));
      const { assigned, restore: stay } = captureNavigation();
      sessionStorage.setItem('rudy_return.demo', `${location.origin}/watch/501`);
      sessionStorage.setItem('rudy_social_state.demo', 'st-1');
      restore = atPath('/auth/login/google/callback?code=one-time&state=st-1&iss=https%3A%2F%2Faccounts.test');
      try {
        const events = await firedDuring('channel-login', async () => {
          await fixture(html`<channel-profile></channel-profile>`);
          await until(() => assigned.length === 1, 'the return');
        });
        expect(assigned).to.deep.equal([`${location.origin}/watch/501`]);
        expect(events.map((e) => e.detail)).to.deep.equal([{ method: 'google' }]);
        expect(calls('POST', 'v2/auth/social/google')[0]!.body).to.deep.equal({
          code: 'one-time',
          state: 'st-1',
          iss: 'https://accounts.test',
          redirect_uri: `${location.origin}/auth/login/google/callback`,
          api_key: 'ak-1',
        });
        expect(location.search).to.equal('');
      } finally {
        stay();
        sessionStorage.removeItem('rudy_return.demo');
      }
    });

    it('a callback with a state other than the one this tab started is refused without a request; a cancelled one says so', async () => {
      useFakePlatform();
      sessionStorage.setItem('rudy_social_state.demo', 'st-1');
      restore = atPath('/auth/login/google/callback?code=one-time&state=someone-else');
      const el = await fixture(html`<channel-profile></channel-profile>`);
      await shows(el, 'Sign-in could not be completed. Please try again.');
      expect(has(el, 'sign-in')).to.equal(true);
      expect(calls('POST', 'v2/auth/social/google')).to.have.length(0);
      el.remove();
      history.replaceState(null, '', '/auth/login/facebook/callback?error=access_denied');
      const cancelled = await fixture(html`<channel-profile></channel-profile>`);
      await shows(cancelled, 'Sign-in was cancelled.');
      expect(part(cancelled, 'form-error')?.getAttribute('role')).to.equal('alert');
    });
  });
});
