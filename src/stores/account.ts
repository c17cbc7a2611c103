/**
 * Accounts (spec sections 2, 4, 5, 7, 8): sign-in, registration, social sign-in, email verification, password
 * reset, account deletion, the profile, device linking, and the signed-in user's orders, transactions and clips.
 *
 * Every action checks its input first (section 5: when a rule fails nothing is sent), sends one request at a
 * time (a second submit while the first is in flight joins it), and answers with an outcome the UI shows as is:
 * messages are translation keys (`forms:...`) with their values, for each field and for the form as a whole.
 */
import { atom, type ReadableAtom } from 'nanostores';
import { EMAIL_PATTERN, SOCIAL_PROVIDERS, type Clip, type Order, type SocialProvider, type Transaction, type User } from '../api/contract.js';
import { HttpError, isCancel, TEMPORARY_PASSWORD_LOCK } from '../api/errors.js';
import { isCallbackPath, type AccountRoute } from '../lib/account-routes.js';
import { $config } from './config.js';
import { $settings, $user, currentApiKey, getClient, logout, signIn } from './session.js';

// ---------------------------------------------------------------- outcomes

/** A text to show: an i18n key (`forms:validation.email`, `errors.generic`) and its values. */
export interface Msg {
  key: string;
  values?: Record<string, string | number>;
}

/**
 * Why an action failed: messages per field (shown under that field), a message for the whole form (always
 * shown), and the server's own summary, shown only when no field of the form explains the failure.
 */
export interface Failure {
  fields: Record<string, Msg>;
  message?: Msg | undefined;
  fallback?: Msg | undefined;
}

/** What an action answers. */
export type Outcome<T = void> = { ok: true; value: T } | { ok: false; failure: Failure };

const done = <T>(value: T): Outcome<T> => ({ ok: true, value });
const failed = (fields: Record<string, Msg>, message?: Msg): Outcome<never> => ({ ok: false, failure: { fields, message } });

/** Network faults, timeouts and 5xx (spec section 8). */
export const GENERIC: Msg = { key: 'errors.generic' };

/** Known server messages (spec section 8, plus the accounts plan's own) and their translation keys. */
const SERVER_MESSAGES: [RegExp, string][] = [
  [/already (been )?(registered|taken)|email.*exists/i, 'forms:server.emailTaken'],
  [/^wrong auth data/i, 'forms:server.wrongAuth'],
  [/already logged in/i, 'forms:server.alreadyLoggedIn'],
  [/^verification failed/i, 'forms:server.verificationFailed'],
  [/^email already verified/i, 'forms:server.alreadyVerified'],
  [/^user not found/i, 'forms:server.userNotFound'],
  [/^reset password key expired/i, 'forms:server.resetExpired'],
  [/^reset password failed/i, 'forms:server.resetFailed'],
  [/promo code/i, 'forms:server.promoInvalid'],
  [/recaptcha token required/i, 'forms:server.recaptchaRequired'],
  [/recaptcha.*(invalid|robot)/i, 'forms:server.recaptchaInvalid'],
  [/^invalid email or password/i, 'forms:server.invalidLogin'],
  [/^no chanel or api key found/i, 'forms:server.noKey'],
  [/code is invalid or has expired/i, 'forms:account.server.codeInvalid'],
  [/device linking is not enabled/i, 'forms:account.server.devicesOff'],
  [/link to delete the account is invalid or has expired/i, 'forms:account.server.deletionLinkInvalid'],
  [/too many accounts were created from this address/i, 'forms:account.server.tooManyAccounts'],
  [/too many sign-ins at once/i, 'forms:account.server.busy'],
  [/current password field is required/i, 'forms:account.server.currentPasswordRequired'],
  [/current password is incorrect/i, 'forms:account.server.currentPasswordWrong'],
  // In the default namespace, not `forms`: elements without forms (player, schedule) show it too.
  [TEMPORARY_PASSWORD_LOCK, 'errors.temporaryPassword'],
];

/** The text of a server message: translated when known, else the server's own words. */
export function serverText(text: string): Msg {
  const throttled = /too many login attempts.*?(\d+)\s*seconds?/i.exec(text);
  if (throttled) return { key: 'forms:account.server.throttled', values: { seconds: Number(throttled[1]) } };
  const locked = /account is locked after too many failed sign-ins.*?(\d+)\s*minutes?/i.exec(text);
  // `count` picks the singular or plural sentence (i18next's `_one` / `_other` keys).
  if (locked) return { key: 'forms:account.server.accountLocked', values: { count: Number(locked[1]) } };
  for (const [pattern, key] of SERVER_MESSAGES) if (pattern.test(text)) return { key };
  return { key: 'forms:account.server.raw', values: { text } };
}

/**
 * An API failure as field and form messages. 422 bodies (`{ message, errors: { field: [text] } }`) give one
 * message per field and the form's; 401 means the session ended (the session has reset the user); 429 is the
 * throttling text; anything else (network, timeout, 5xx, an answer this client cannot read) the generic text.
 */
export function failureOf(error: unknown): Failure {
  // The one 5xx with something to say: the server's sign-ins are queued full for a moment.
  if (error instanceof HttpError && error.status === 503 && /too many sign-ins at once/i.test(error.message)) {
    return { fields: {}, message: serverText(error.message) };
  }
  if (!(error instanceof HttpError) || error.status >= 500) return { fields: {}, message: GENERIC };
  if (error.status === 401) return { fields: {}, message: { key: 'forms:account.server.sessionEnded' } };
  if (error.status === 429) return { fields: {}, message: { key: 'errors.tooManyRequests' } };
  const fields: Record<string, Msg> = {};
  for (const [name, texts] of Object.entries(error.errors)) {
    const first = Array.isArray(texts) ? texts[0] : texts;
    if (first) fields[name] = serverText(first);
  }
  const summary = /^HTTP \d+$/.test(error.message) ? GENERIC : serverText(error.message);
  return Object.keys(fields).length ? { fields, fallback: summary } : { fields, message: summary };
}

/**
 * The message at the top of a form whose fields are `visible`: the failure's own message, else a field error
 * no visible field can show, else (when no visible field shows an error) the server's summary.
 */
export function formMessage(failure: Failure, visible: readonly string[]): Msg | undefined {
  if (failure.message) return failure.message;
  const unplaced = Object.entries(failure.fields).find(([name]) => !visible.includes(name));
  if (unplaced) return unplaced[1];
  return visible.some((name) => failure.fields[name]) ? undefined : (failure.fallback ?? GENERIC);
}

/** Runs an API call; its failure becomes an outcome (a cancelled call is rethrown, to be ignored). */
async function attempt<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return done(await run());
  } catch (error) {
    if (isCancel(error)) throw error;
    return { ok: false, failure: failureOf(error) };
  }
}

const inflight = new Map<string, Promise<unknown>>();

/** One submission per action at a time: a second submit while the first is in flight joins it (sends nothing). */
function once<T>(action: string, run: () => Promise<T>): Promise<T> {
  const pending = inflight.get(action) as Promise<T> | undefined;
  if (pending) return pending;
  const started = Promise.resolve().then(run);
  const forget = () => inflight.delete(action);
  started.then(forget, forget);
  inflight.set(action, started);
  return started;
}

// ---------------------------------------------------------------- validation (spec section 5)

/** The shortest password accepted for a new password. */
export const MIN_PASSWORD = 8;
/** A device code as TVs show it: 6 characters, A to Z and 2 to 9. */
export const DEVICE_CODE = /^[A-Z2-9]{6}$/;

const v = (key: string, values?: Msg['values']): Msg => (values ? { key: `forms:${key}`, values } : { key: `forms:${key}` });

function checkEmail(fields: Record<string, Msg>, email: string): void {
  if (!email.trim()) fields.email = v('validation.emailEnter');
  else if (!EMAIL_PATTERN.test(email.trim())) fields.email = v('validation.email');
}

/** A new password and its confirmation: required (unless optional and both empty), long enough, matching. */
function checkNewPassword(fields: Record<string, Msg>, password: string, confirmation: string, required: boolean): void {
  if (!password && !confirmation && !required) return;
  if (!password) fields.password = v('validation.required');
  else if (password.length < MIN_PASSWORD) fields.password = v('validation.passwordShort');
  if (!confirmation) fields.password_confirmation = v('validation.required');
  else if (password && confirmation !== password) fields.password_confirmation = v('validation.passwordMismatch');
}

function checkNames(fields: Record<string, Msg>, input: { first_name: string; last_name: string }): void {
  if (!input.first_name.trim()) fields.first_name = v('validation.firstName');
  if (!input.last_name.trim()) fields.last_name = v('validation.lastName');
}

/** Turns local problems into a failed outcome (with an optional form message), or undefined when all is well. */
function refuse(fields: Record<string, Msg>, message?: Msg): Outcome<never> | undefined {
  return Object.keys(fields).length ? failed(fields, message) : undefined;
}

// ---------------------------------------------------------------- sign-in and registration

/** The sign-in form. */
export interface LoginInput {
  email: string;
  password: string;
}

/** Checks the sign-in form. */
export function validateLogin(input: LoginInput): Record<string, Msg> {
  const fields: Record<string, Msg> = {};
  checkEmail(fields, input.email);
  if (!input.password) fields.password = v('validation.required');
  return fields;
}

/** Signs in by email and password (`POST v2/auth/login`); every element follows the new user. */
export function login(input: LoginInput): Promise<Outcome<User>> {
  const refused = refuse(validateLogin(input));
  if (refused) return Promise.resolve(refused);
  return once('login', () =>
    attempt(async () => {
      const answer = await getClient().call('login', {
        body: { email: input.email.trim(), password: input.password },
        cache: false,
        retries: 0,
      });
      signIn(answer.data);
      return answer.data.user;
    }),
  );
}

/** The registration form. */
export interface RegisterInput {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  password_confirmation: string;
  terms: boolean;
  news: boolean;
}

/** Checks the registration form. */
export function validateRegister(input: RegisterInput): Record<string, Msg> {
  const fields: Record<string, Msg> = {};
  checkNames(fields, input);
  checkEmail(fields, input.email);
  checkNewPassword(fields, input.password, input.password_confirmation, true);
  if (!input.terms) fields.terms = v('validation.terms');
  return fields;
}

/**
 * Registers (`POST v2/auth/register`), which signs the new user in with an unverified email; the server emails
 * a verification link. Without accepted terms nothing is sent and the form says why (spec section 5).
 */
export function register(input: RegisterInput): Promise<Outcome<User>> {
  const fields = validateRegister(input);
  const refused = refuse(fields, fields.terms ? v('validation.notRegistered') : undefined);
  if (refused) return Promise.resolve(refused);
  return once('register', () =>
    attempt(async () => {
      const answer = await getClient().call('register', {
        body: {
          first_name: input.first_name.trim(),
          last_name: input.last_name.trim(),
          email: input.email.trim(),
          password: input.password,
          password_confirmation: input.password_confirmation,
          terms: true,
          news: input.news,
        },
        cache: false,
        retries: 0,
      });
      signIn(answer.data);
      return answer.data.user;
    }),
  );
}

/** Signs out: see `logout` in the session (server call, user and key dropped, fresh anonymous key). */
export function signOut(): Promise<void> {
  return once('logout', () => logout());
}

// ---------------------------------------------------------------- social sign-in

/** Where the page goes for a social sign-in; tests replace `assign` to stay on the page. */
export const navigation = {
  assign(url: string): void {
    location.assign(url);
  },
};

/** Where a social sign-in comes back to afterwards: sessionStorage `rudy_return.<channel>`. */
const returnKey = () => `rudy_return.${$config.get()?.channelKey ?? ''}`;

function session(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    // Sandboxed iframes throw on access: the sign-in then simply stays on the callback page.
    return undefined;
  }
}

/** The channel site that answers the account routes: settings `site_url`, else this page's origin. */
export function siteUrl(): string {
  const site = $settings.get()?.site_url?.trim();
  return (site || location.origin).replace(/\/+$/, '');
}

/** The provider's redirect URI: `{site}/auth/login/{provider}/callback` (the same in both legs of the flow). */
export function socialRedirectUri(provider: SocialProvider): string {
  return `${siteUrl()}/auth/login/${provider}/callback`;
}

/** The providers the channel offers (settings `social`), in a fixed order. */
export function socialProviders(): SocialProvider[] {
  const social = $settings.get()?.social ?? {};
  return SOCIAL_PROVIDERS.filter((p) => social[p]?.client_id && social[p]?.authorize_url);
}

/**
 * The provider's authorize URL: `authorize_url?client_id&redirect_uri&response_type=code&scope&state`, where
 * `state` is the api key in use (the callback checks it). No token ever goes into it.
 */
export async function socialAuthorizeUrl(provider: SocialProvider): Promise<string | undefined> {
  const social = $settings.get()?.social?.[provider];
  if (!social) return undefined;
  const state = await currentApiKey();
  const url = new URL(social.authorize_url, `${siteUrl()}/`);
  url.searchParams.set('client_id', social.client_id);
  url.searchParams.set('redirect_uri', socialRedirectUri(provider));
  url.searchParams.set('response_type', 'code');
  if (social.scope) url.searchParams.set('scope', social.scope);
  url.searchParams.set('state', state);
  return url.toString();
}

/** Starts a social sign-in: remembers this page (not a callback page) and sends the browser to the provider. */
export function startSocial(provider: SocialProvider): Promise<Outcome> {
  return once('social', () =>
    attempt(async () => {
      const url = await socialAuthorizeUrl(provider);
      if (!url) throw new Error(`social sign-in with ${provider} is not configured`);
      if (!isCallbackPath(location.pathname)) session()?.setItem(returnKey(), location.href);
      navigation.assign(url);
    }),
  );
}

/** Reads and forgets the page to return to after a social sign-in (same origin only). */
export function takeReturnUrl(): string | undefined {
  const store = session();
  const saved = store?.getItem(returnKey()) ?? undefined;
  store?.removeItem(returnKey());
  if (!saved) return undefined;
  try {
    const url = new URL(saved);
    return url.origin === location.origin && !isCallbackPath(url.pathname) ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

const SOCIAL_FAILED = v('account.social.failed');

/**
 * Completes a social sign-in on the callback page: a refused or cancelled authorization, a missing code or a
 * `state` other than the api key in use is refused without a request; otherwise `POST v2/auth/social/{provider}`
 * `{ code, redirect_uri }` signs in. Answers where to go back to, if a page was saved.
 */
export function completeSocial(
  route: Extract<AccountRoute, { kind: 'social-callback' }>,
): Promise<Outcome<{ returnTo: string | undefined }>> {
  return once('social-callback', async () => {
    if (route.error) return failed({}, route.error === 'access_denied' ? v('account.social.cancelled') : SOCIAL_FAILED);
    if (!route.code || !route.state) return failed({}, SOCIAL_FAILED);
    let key: string;
    try {
      key = await currentApiKey();
    } catch {
      return failed({}, GENERIC);
    }
    if (route.state !== key) return failed({}, SOCIAL_FAILED);
    const outcome = await attempt(async () => {
      const answer = await getClient().call('socialLogin', {
        params: { provider: route.provider },
        body: { code: route.code, redirect_uri: socialRedirectUri(route.provider) },
        cache: false,
        retries: 0,
      });
      signIn(answer.data);
    });
    if (!outcome.ok) {
      // A 422 here means the provider's code was refused: the plan's one sentence for it.
      const { failure } = outcome;
      return failed({}, failure.message === GENERIC ? GENERIC : SOCIAL_FAILED);
    }
    return done({ returnTo: takeReturnUrl() });
  });
}

// ---------------------------------------------------------------- email verification

/** Verifies the email of an emailed link (`POST auth/email-verify`); a signed-in owner becomes verified. */
export function verifyEmail(route: Extract<AccountRoute, { kind: 'verify-email' }>): Promise<Outcome> {
  return once('verify-email', () =>
    attempt(async () => {
      await getClient().call('emailVerify', {
        body: { email: route.email, expires: route.expires, signature: route.signature },
        cache: false,
        retries: 0,
      });
      const user = $user.get();
      if (user && user.email.toLowerCase() === route.email.toLowerCase()) $user.set({ ...user, email_verified: true });
    }),
  );
}

/** Sends the signed-in user's verification link again (`POST auth/email-verify/resend`). */
export function resendVerification(): Promise<Outcome> {
  return once('verify-resend', () =>
    attempt(async () => {
      await getClient().call('emailVerifyResend', { cache: false, retries: 0 });
    }),
  );
}

// ---------------------------------------------------------------- password reset

/** Asks for a reset link (`POST auth/password-reset-request`); the answer never says whether the email exists. */
export function requestPasswordReset(email: string): Promise<Outcome> {
  const fields: Record<string, Msg> = {};
  checkEmail(fields, email);
  const refused = refuse(fields);
  if (refused) return Promise.resolve(refused);
  return once('reset-request', () =>
    attempt(async () => {
      await getClient().call('passwordResetRequest', { body: { email: email.trim() }, cache: false, retries: 0 });
    }),
  );
}

/** The new-password form of a reset link. */
export interface ResetInput {
  email: string;
  token: string;
  password: string;
  password_confirmation: string;
}

/** Checks the new-password form. */
export function validateReset(input: ResetInput): Record<string, Msg> {
  const fields: Record<string, Msg> = {};
  checkNewPassword(fields, input.password, input.password_confirmation, true);
  return fields;
}

/** Sets a new password with an emailed link (`POST auth/password-reset`); an old link: 'Reset password key expired'. */
export function resetPassword(input: ResetInput): Promise<Outcome> {
  const refused = refuse(validateReset(input));
  if (refused) return Promise.resolve(refused);
  return once('reset', () =>
    attempt(async () => {
      await getClient().call('passwordReset', {
        body: {
          email: input.email,
          token: input.token,
          password: input.password,
          password_confirmation: input.password_confirmation,
        },
        cache: false,
        retries: 0,
      });
    }),
  );
}

/** True when a failure says the reset link is too old (the UI then offers a new one). */
export function isExpiredReset(failure: Failure): boolean {
  return [failure.message, failure.fallback, ...Object.values(failure.fields)].some((m) => m?.key === 'forms:server.resetExpired');
}

// ---------------------------------------------------------------- account deletion

/** Asks the server to email a link that confirms the deletion of the signed-in account. */
export function requestAccountDeletion(): Promise<Outcome> {
  return once('delete-request', () =>
    attempt(async () => {
      await getClient().call('deleteAccount', { cache: false, retries: 0 });
    }),
  );
}

/**
 * Deletes the account of an emailed link (`POST delete-account-confirm`, keyless). When that account is the one
 * signed in here, this page signs out (its token died with the account). Answers whether it signed out.
 */
export function confirmAccountDeletion(route: Extract<AccountRoute, { kind: 'confirm-deletion' }>): Promise<Outcome<{ signedOut: boolean }>> {
  return once('delete-confirm', async () => {
    const outcome = await attempt(async () => {
      await getClient().call('deleteAccountConfirm', { body: { email: route.email, token: route.token }, cache: false, retries: 0 });
    });
    if (!outcome.ok) return outcome;
    const user = $user.get();
    const mine = Boolean(user && user.email.toLowerCase() === route.email.toLowerCase());
    if (mine) await logout({ remote: false });
    return done({ signedOut: mine });
  });
}

// ---------------------------------------------------------------- profile

/** Gender codes of the edit form: '' is "not identified". */
export type GenderCode = '' | 'M' | 'W';

/** The edit-profile form. */
export interface ProfileInput {
  first_name: string;
  last_name: string;
  gender: GenderCode;
  news: boolean;
  /** The password in use, asked for (and sent) only with a new password. */
  current_password: string;
  password: string;
  password_confirmation: string;
}

/** The edit form filled from a user. */
export function profileInput(user: User): ProfileInput {
  return {
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    gender: user.gender ?? '',
    news: user.news,
    current_password: '',
    password: '',
    password_confirmation: '',
  };
}

/**
 * True when a new password must come with the current one: the account has a password (a temporary one
 * too, which the viewer types as the current one). A social-only account sets its first password without.
 */
export function needsCurrentPassword(user: Pick<User, 'has_password' | 'temporary_password'>): boolean {
  return user.has_password || user.temporary_password;
}

/**
 * Checks the edit form for `user`: one with a temporary password must choose a new one, and a new password
 * (being typed, or required) needs the current one when the account has a password.
 */
export function validateProfile(input: ProfileInput, user: Pick<User, 'has_password' | 'temporary_password'>): Record<string, Msg> {
  const fields: Record<string, Msg> = {};
  checkNames(fields, input);
  checkNewPassword(fields, input.password, input.password_confirmation, user.temporary_password);
  const changing = user.temporary_password || Boolean(input.password || input.password_confirmation);
  if (changing && needsCurrentPassword(user) && !input.current_password) fields.current_password = v('validation.required');
  return fields;
}

/**
 * Saves the profile (`POST profile` with `_method=patch`); `$user` becomes the server's answer. The current
 * password goes only with a new one: it is a secret the server needs for nothing else.
 */
export function updateProfile(input: ProfileInput): Promise<Outcome<User>> {
  const user = $user.get();
  // Signed out, the server answers 401 whatever is sent; until then the rules of an account with a password hold.
  const rules = user ?? { has_password: true, temporary_password: false };
  const refused = refuse(validateProfile(input, rules));
  if (refused) return Promise.resolve(refused);
  const current = needsCurrentPassword(rules) ? { current_password: input.current_password } : {};
  return once('profile', () =>
    attempt(async () => {
      const answer = await getClient().call('updateProfile', {
        body: {
          _method: 'patch',
          first_name: input.first_name.trim(),
          last_name: input.last_name.trim(),
          gender: input.gender || null,
          news: input.news,
          ...(input.password ? { ...current, password: input.password, password_confirmation: input.password_confirmation } : {}),
        },
        cache: false,
        retries: 0,
      });
      $user.set(answer.data);
      return answer.data;
    }),
  );
}

// ---------------------------------------------------------------- devices

/** A typed device code as sent: upper case, without spaces or dashes. */
export function normalizeDeviceCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

/** Links the TV showing this code to the signed-in user (`POST auth/add_session`). */
export function addDeviceSession(code: string): Promise<Outcome> {
  const normalized = normalizeDeviceCode(code);
  if (!normalized) return Promise.resolve(failed({ code: v('validation.required') }));
  if (!DEVICE_CODE.test(normalized)) return Promise.resolve(failed({ code: v('account.devices.invalid') }));
  return once('device', () =>
    attempt(async () => {
      await getClient().call('addSession', { body: { code: normalized }, cache: false, retries: 0 });
    }),
  );
}

// ---------------------------------------------------------------- lists

/** A list loaded for the signed-in user. */
export type ListState<T> = { status: 'loading' } | { status: 'ready'; items: T[] } | { status: 'error'; message: Msg };

/** A list's store: `load()` (again, for Retry) and `destroy()`, which cancels the request in flight. */
export interface ListStore<T> {
  $state: ReadableAtom<ListState<T>>;
  load(): void;
  destroy(): void;
}

function list<T>(fetch: (signal: AbortSignal) => Promise<T[]>): () => ListStore<T> {
  return () => {
    const $state = atom<ListState<T>>({ status: 'loading' });
    let controller: AbortController | undefined;
    return {
      $state,
      load() {
        controller?.abort();
        const mine = (controller = new AbortController());
        $state.set({ status: 'loading' });
        fetch(mine.signal).then(
          (items) => {
            if (!mine.signal.aborted) $state.set({ status: 'ready', items });
          },
          (error: unknown) => {
            if (!mine.signal.aborted && !isCancel(error)) {
              const failure = failureOf(error);
              $state.set({ status: 'error', message: failure.message ?? failure.fallback ?? GENERIC });
            }
          },
        );
      },
      destroy() {
        controller?.abort();
      },
    };
  };
}

/** True for an order that gives access now (activity status `active`, any letter case). */
export function isActiveOrder(order: Order): boolean {
  return order.activity_status?.toLowerCase() === 'active';
}

/** The signed-in user's active orders (`GET orders?no_limit=1`, spec section 7's limit rule). */
export const createOrders = list<Order>(async (signal) => {
  const answer = await getClient().call('orders', { query: { no_limit: 1 }, signal, cache: false });
  return answer.data.filter(isActiveOrder);
});

/** The signed-in user's payment transactions, newest first. */
export const createTransactions = list<Transaction>(async (signal) => {
  const answer = await getClient().call('transactions', { query: { no_limit: 1 }, signal, cache: false });
  return [...answer.data].sort((a, b) => b.created_at - a.created_at);
});

/** The signed-in user's clips (`GET clips/user`). */
export const createClips = list<Clip>(async (signal) => {
  const answer = await getClient().call('userClips', { signal, cache: false });
  return answer.data;
});
