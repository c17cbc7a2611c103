/**
 * Accounts: sign-in, registration, email verification, password reset, account deletion, profile updates and device
 * linking. Social sign-in, the lists, the form rules and the server's messages live in `./account/`; this module
 * re-exports them, so callers import accounts from one place.
 *
 * Every action checks its input first (when a rule fails nothing is sent), sends one request at a time (a second
 * submit while the first is in flight joins it), and answers with an outcome the UI shows as is: messages are
 * translation keys (`forms:...`) with their values, for each field and for the form as a whole.
 */
import type { User } from '../api/channel-schemas.js';
import type { AccountRoute } from '../lib/account-routes.js';
import { mentions, type Failure, type Msg } from './account/messages.js';
import { attempt, done, once, refuse, type Outcome } from './account/outcome.js';
import {
  checkEmail,
  formsMsg,
  needsCurrentPassword,
  normalizeDeviceCode,
  sameEmail,
  validateDeviceCode,
  validateLogin,
  validateProfile,
  validateRegister,
  validateReset,
  type LoginInput,
  type ProfileInput,
  type RegisterInput,
  type ResetInput,
} from './account/validation.js';
import { $user, getClient } from './session.js';
import { logout, signIn } from './sign-in.js';
import { accountApi } from '../api/account-schemas.js';

export * from './account/lists.js';
export * from './account/messages.js';
export * from './account/social.js';
export * from './account/validation.js';
export type { Outcome } from './account/outcome.js';

// ---------------------------------------------------------------- sign-in and registration

/** Signs in by email and password (`POST v2/auth/login`); every element follows the new user. */
export function login(input: LoginInput): Promise<Outcome<User>> {
  const refused = refuse(validateLogin(input));
  if (refused) return Promise.resolve(refused);
  return once('login', () =>
    attempt(async () => {
      const answer = await getClient().call(accountApi.login, {
        body: { email: input.email.trim(), password: input.password },
        cache: false,
        retries: 0,
      });
      signIn(answer.data, 'email');
      return answer.data.user;
    }),
  );
}

/**
 * Registers (`POST v2/auth/register`), which signs the new user in with an unverified email; the server emails a
 * verification link. Without accepted terms nothing is sent and the form says why.
 */
export function register(input: RegisterInput): Promise<Outcome<User>> {
  const fields = validateRegister(input);
  const refused = refuse(fields, fields.terms ? formsMsg('validation.notRegistered') : undefined);
  if (refused) return Promise.resolve(refused);
  return once('register', () =>
    attempt(async () => {
      const answer = await getClient().call(accountApi.register, {
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
      signIn(answer.data, 'registration');
      return answer.data.user;
    }),
  );
}

/** Signs out: see `logout` in the session (server call, user and key dropped, fresh anonymous key). */
export function signOut(): Promise<void> {
  return once('logout', () => logout());
}

// ---------------------------------------------------------------- email verification

/** The server's 'Email already verified', translated: 'Your email already verified'. */
const ALREADY_VERIFIED = 'forms:server.alreadyVerified';

/** The signed-in user's email address is verified: every view follows (the banner goes). */
function markVerified(email: string): void {
  const user = $user.get();
  if (user && user.email_verified !== true && sameEmail(user.email, email))
    $user.set({ ...user, email_verified: true });
}

/**
 * Verifies the email of an emailed link (`POST auth/email-verify`), whoever is signed in: the link itself proves the
 * address. A signed-in owner becomes verified. An address verified before ('Email already verified') is no failure:
 * the outcome says `already`.
 */
export function verifyEmail(
  route: Extract<AccountRoute, { kind: 'verify-email' }>,
): Promise<Outcome<{ already: boolean }>> {
  return once('verify-email', async () => {
    const outcome = await attempt(async () => {
      await getClient().call(accountApi.emailVerify, {
        body: { email: route.email, expires: route.expires, signature: route.signature },
        cache: false,
        retries: 0,
      });
    });
    const already = !outcome.ok && mentions(outcome.failure, ALREADY_VERIFIED);
    if (!outcome.ok && !already) return outcome;
    markVerified(route.email);
    return done({ already });
  });
}

/**
 * Sends the signed-in user's verification link again (`POST auth/email-verify/resend`). When the server says the
 * address is verified already (in another tab, on another device), the user here becomes verified: `already`.
 */
export function resendVerification(): Promise<Outcome<{ already: boolean }>> {
  return once('verify-resend', async () => {
    const outcome = await attempt(async () => {
      await getClient().call(accountApi.emailVerifyResend, { cache: false, retries: 0 });
    });
    if (outcome.ok) return done({ already: false });
    const email = $user.get()?.email;
    if (!mentions(outcome.failure, ALREADY_VERIFIED) || email === undefined) return outcome;
    markVerified(email);
    return done({ already: true });
  });
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
      await getClient().call(accountApi.passwordResetRequest, {
        body: { email: email.trim() },
        cache: false,
        retries: 0,
      });
    }),
  );
}

/** Sets a new password with an emailed link (`POST auth/password-reset`); an old link: 'Reset password key expired'. */
export function resetPassword(input: ResetInput): Promise<Outcome> {
  const refused = refuse(validateReset(input));
  if (refused) return Promise.resolve(refused);
  return once('reset', () =>
    attempt(async () => {
      await getClient().call(accountApi.passwordReset, {
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
  return mentions(failure, 'forms:server.resetExpired');
}

// ---------------------------------------------------------------- account deletion

/** Asks the server to email a link that confirms the deletion of the signed-in account. */
export function requestAccountDeletion(): Promise<Outcome> {
  return once('delete-request', () =>
    attempt(async () => {
      await getClient().call(accountApi.deleteAccount, { cache: false, retries: 0 });
    }),
  );
}

/**
 * Deletes the account of an emailed link (`POST delete-account-confirm`, keyless). When that account is the one
 * signed in here, this page signs out (its token died with the account). Answers whether it signed out.
 */
export function confirmAccountDeletion(
  route: Extract<AccountRoute, { kind: 'confirm-deletion' }>,
): Promise<Outcome<{ signedOut: boolean }>> {
  return once('delete-confirm', async () => {
    const outcome = await attempt(async () => {
      await getClient().call(accountApi.deleteAccountConfirm, {
        body: { email: route.email, token: route.token },
        cache: false,
        retries: 0,
      });
    });
    if (!outcome.ok) return outcome;
    const user = $user.get();
    const mine = Boolean(user && sameEmail(user.email, route.email));
    if (mine) await logout({ remote: false });
    return done({ signedOut: mine });
  });
}

// ---------------------------------------------------------------- profile and devices

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
      const answer = await getClient().call(accountApi.updateProfile, {
        body: {
          _method: 'patch',
          first_name: input.first_name.trim(),
          last_name: input.last_name.trim(),
          gender: input.gender || null,
          news: input.news,
          ...(input.password
            ? { ...current, password: input.password, password_confirmation: input.password_confirmation }
            : {}),
        },
        cache: false,
        retries: 0,
      });
      $user.set(answer.data);
      return answer.data;
    }),
  );
}

/** Links the TV showing this code to the signed-in user (`POST auth/add_session`). */
export function addDeviceSession(code: string): Promise<Outcome> {
  const normalized = normalizeDeviceCode(code);
  const refused = refuse(validateDeviceCode(normalized));
  if (refused) return Promise.resolve(refused);
  return once('device', () =>
    attempt(async () => {
      await getClient().call(accountApi.addSession, { body: { code: normalized }, cache: false, retries: 0 });
    }),
  );
}
