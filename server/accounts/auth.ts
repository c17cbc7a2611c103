/* eslint-disable max-lines -- the accounts API, one handler map sharing the throttling and token rules (the TV's device-code routes could go apart) */
/**
 * The accounts API of the contract (sign-in, registration, email verification, password reset, account deletion,
 * profile update, device linking; social sign-in is social-sign-in.ts) and the TV side of device linking, which is not in the contract:
 *
 *   POST /api/auth/device-code          (keyed) → { data: { code, expires_in } }: a 6-character code (A–Z, 2–9)
 *                                        for 10 minutes; 403 when the channel's auth.remote_auth is off
 *   GET  /api/auth/device-code/{code}   (keyed, the same api key only) → { data: { status: 'pending', expires_in }
 *                                        | { status: 'linked', email, token? } | { status: 'expired' } }; the TV's
 *                                        own bearer token comes once, with the first answer after linking
 *
 * Rules: passwords are scrypt hashes (accounts.ts); tokens, reset and deletion links are stored only as SHA-256;
 * verification links are signed with HMAC-SHA256 under a per-database secret; nothing here logs a token or
 * password. Failed sign-ins are throttled per email and client address (5 in 60 s), and per account across all
 * addresses (20 in 15 minutes), each answering 422 because the client treats 429 as an api-key problem; so are wrong
 * device codes (10 per account, 30 per address in 10 minutes). Emailed links are throttled too: 3 of each kind
 * (reset, verification, deletion) per email address and 20 of any kind per client address within an hour, a link's
 * lifetime. A new link never voids an earlier one (a few stay valid at once; using one spends them all), so however
 * often someone asks, the owner's link still works. The reset form answers the same whether it sent a link, was
 * throttled or knows no such account; the signed-in forms say when to ask again. Changing the password needs the
 * current one and ends every other session of the account (social-sign-in.ts ends those of an account nobody
 * verified when its address signs in socially). Password reset and deletion links answer the same for an unknown
 * email as for a wrong link, so neither form tells who has an account. A reset link is refused to a caller signed in
 * with a live token ('You are already logged in'): it signs out first.
 */
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  bearer,
  deleteUser,
  endSessions,
  hashPassword,
  insertUser,
  issueToken,
  login,
  logout,
  tokenHash,
  userByEmail,
  userByToken,
  userJson,
  verifyPassword,
} from './accounts.js';
import type { ChannelDb, Row, SqlValue } from '../storage/db.js';
import { Checks, refuse, truthy, type ApiRequest, type Handlers, type ServerOnlyRoute } from '../http/handler.js';
import { addressKey, HttpError } from '../http/http.js';
import { SlidingWindow } from '../http/limits.js';
import { languageOf, siteLink, type Mailer } from '../mail/mail.js';
import { log } from '../observability/log.js';

/** Server messages (the API's standard texts where it has them). */
export const MESSAGES = {
  invalidLogin: 'Invalid email or password. Please try again.',
  terms: 'You are not registered yet. Please accept terms and conditions and click Register to continue.',
  emailTaken: 'The email has already been taken.',
  wrongAuthData: 'Wrong auth data',
  alreadyLoggedIn: 'You are already logged in',
  verificationFailed: 'Verification failed',
  alreadyVerified: 'Email already verified',
  userNotFound: 'User not found',
  resetExpired: 'Reset password key expired',
  resetFailed: 'Reset password failed',
  badDeviceCode: 'The code is invalid or has expired.',
  devicesOff: 'Device linking is not enabled for this channel.',
  deviceLinked: 'Your device is now linked.',
  deletionLinkInvalid: 'The link to delete the account is invalid or has expired.',
  currentPasswordRequired: 'The current password field is required.',
  currentPasswordWrong: 'The current password is incorrect.',
  tooManyAccounts: 'Too many accounts were created from this address. Please try again later.',
} as const;

/** The per-address throttle's message (the client reads the seconds out of it). */
const throttledMessage = (seconds: number) => `Too many login attempts. Please try again in ${seconds} seconds.`;
/** A wait in whole minutes, as the messages say it ('1 minute', '7 minutes'). */
function inMinutes(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}
/** The per-account lock's message, in whole minutes. */
const lockedMessage = (seconds: number) =>
  `This account is locked after too many failed sign-ins. Please try again in ${inMinutes(seconds)}.`;
/** The wrong device codes' throttle (per account or per address). */
const wrongCodesMessage = (seconds: number) => `Too many wrong codes. Please try again in ${inMinutes(seconds)}.`;
/** Why a signed-in caller's email was not sent: its own address had enough of them, or the client address did. */
function heldMessage(held: EmailHeld, email: string): string {
  return held.by === 'recipient'
    ? `We sent a link to ${email} a short while ago, and it still works: please look for it in your inbox (and the spam folder), or ask again in ${inMinutes(held.wait)}.`
    : `Too many emails were asked for from this address. Please try again in ${inMinutes(held.wait)}.`;
}

/** Lifetimes in seconds. */
const LINK_TTL = 3600;
const DEVICE_CODE_TTL = 600;
/** Sign-in throttling: this many failures for one email and address within the window lock it until they age out. */
const LOGIN_MAX_FAILURES = 5;
const LOGIN_WINDOW = 60;
/** And this many for one account from any addresses (someone spreading guesses over many addresses). */
const ACCOUNT_MAX_FAILURES = 20;
const ACCOUNT_WINDOW = 15 * 60;
/** New accounts one client address may create per window (each is a stored row; a campus may share an address). */
const REGISTRATIONS_PER_ADDRESS = 50;
const REGISTRATION_WINDOW = 10 * 60;
/**
 * Emails of one kind (reset, verification, deletion link) one email address is sent, and emails of any kind one
 * client address may ask for, within EMAIL_WINDOW. The window is a link's lifetime: while an address is held, the
 * last link it was sent is still valid.
 */
const EMAILS_PER_RECIPIENT = 3;
const EMAILS_PER_ADDRESS = 20;
const EMAIL_WINDOW = LINK_TTL;
/** Wrong device codes one account, and one client address, may type per window (a code is 6 of 34 characters). */
const WRONG_CODES_PER_ACCOUNT = 10;
const WRONG_CODES_PER_ADDRESS = 30;
const WRONG_CODE_WINDOW = 10 * 60;
const DEVICE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ23456789';

export interface AuthContext {
  db: ChannelDb;
  /** HMAC key of the email verification links (kept in the database, so links survive a restart). */
  verifySecret: string;
  /** New accounts per client address per 10 minutes (default 50). */
  registrationsPerAddress?: number;
  /** Emailed links (reset, verification, deletion) one client address may ask for per hour (default 20). */
  emailsPerAddress?: number;
  /** Removes a deleted clip's files and stops its cut, in whichever process runs it (clip-jobs.ts `remove`). */
  removeClip(id: number): Promise<void>;
  /** Sends the emailed links (chosen at start: app/services.ts). */
  mailer: Mailer;
}

/** Why an email was held back: which limit said no, and the seconds until it lets one more through. */
interface EmailHeld {
  by: 'recipient' | 'address';
  wait: number;
}

type AuthEndpoint =
  | 'login'
  | 'logout'
  | 'register'
  | 'emailVerify'
  | 'emailVerifyResend'
  | 'passwordResetRequest'
  | 'passwordReset'
  | 'addSession'
  | 'deleteAccount'
  | 'deleteAccountConfirm'
  | 'updateProfile';

/**
 * An emailed link to one of the account routes: on the channel's site (settings `site_url`), else on this server,
 * whose account page then learns the channel from the link's `channel_key` (listeners.ts).
 */
function accountLink(r: ApiRequest, path: string, query: Record<string, string | number>): string {
  const site = r.settings().site_url?.trim();
  return site ? siteLink(site, path, query) : siteLink(r.origin, path, { ...query, channel_key: r.channelKey });
}
/** The name an email greets its account by (its first name), if any. */
const greetingName = (user: Row) => (user.first_name ? String(user.first_name) : null);
/** The language of an account's emails: its own, else (undefined) the channel's. */
const languageOfUser = (user: Row) => languageOf(user.language);
/** An emailed link's lifetime, as the emails say it. */
const LINK_MINUTES = LINK_TTL / 60;

/** A device code as typed by a viewer: case and separators do not matter. */
const normaliseCode = (value: unknown) =>
  typeof value === 'string' ? value.toUpperCase().replace(/[^A-Z0-9]/g, '') : '';

/** The contract's accounts handlers. */
export function authHandlers(ctx: AuthContext): Handlers<AuthEndpoint> {
  const { db, mailer } = ctx;
  // In the database (limits.ts): every process counts the same attempts, and a restart forgets none.
  const throttle = new SlidingWindow(db, 'login', LOGIN_MAX_FAILURES, LOGIN_WINDOW);
  const accountThrottle = new SlidingWindow(db, 'login-account', ACCOUNT_MAX_FAILURES, ACCOUNT_WINDOW);
  const registrations = new SlidingWindow(
    db,
    'registration',
    ctx.registrationsPerAddress ?? REGISTRATIONS_PER_ADDRESS,
    REGISTRATION_WINDOW,
  );
  const emailsTo = {
    reset: new SlidingWindow(db, 'email-reset', EMAILS_PER_RECIPIENT, EMAIL_WINDOW),
    verify: new SlidingWindow(db, 'email-verify', EMAILS_PER_RECIPIENT, EMAIL_WINDOW),
    delete: new SlidingWindow(db, 'email-delete', EMAILS_PER_RECIPIENT, EMAIL_WINDOW),
  };
  const emailsFrom = new SlidingWindow(db, 'email-address', ctx.emailsPerAddress ?? EMAILS_PER_ADDRESS, EMAIL_WINDOW);
  const wrongCodes = new SlidingWindow(db, 'device-code', WRONG_CODES_PER_ACCOUNT, WRONG_CODE_WINDOW);
  const wrongCodesFrom = new SlidingWindow(db, 'device-code-address', WRONG_CODES_PER_ADDRESS, WRONG_CODE_WINDOW);

  /**
   * Counts one email of a kind to `email` (any case) asked for by this client, against both limits as one step;
   * answers undefined when it may go, else which limit held it. One held by its recipient is not counted against
   * the client address: a flooded inbox does not use up what a household may ask for.
   */
  async function holdEmail(kind: keyof typeof emailsTo, email: string, r: ApiRequest): Promise<EmailHeld | undefined> {
    const now = r.clock.now;
    const byAddress = await emailsFrom.take(addressKey(r.ip), now);
    if ('wait' in byAddress) return { by: 'address', wait: byAddress.wait };
    const byRecipient = await emailsTo[kind].take(`${r.channelId}|${email.trim().toLowerCase()}`, now);
    if (!('wait' in byRecipient)) return undefined;
    await emailsFrom.forgive(byAddress.id);
    return { by: 'recipient', wait: byRecipient.wait };
  }

  const verifySignature = (channelId: number, email: string, expires: number) =>
    createHmac('sha256', ctx.verifySecret)
      .update(`verify:${channelId}:${email.toLowerCase()}:${expires}`)
      .digest('hex');

  const session = async (token: string, user: Row) => ({
    data: { token, user: userJson((await db.get('SELECT * FROM users WHERE id = ?', [user.id!]))!) },
  });

  async function sendVerification(r: ApiRequest, user: Row): Promise<void> {
    const email = String(user.email);
    const expires = r.clock.now + LINK_TTL;
    const link = accountLink(r, '/verify-email', {
      email,
      expires,
      signature: verifySignature(r.channelId, email, expires),
    });
    await mailer.send(
      {
        channelId: r.channelId,
        to: email,
        language: languageOfUser(user),
        letter: { kind: 'verify', name: greetingName(user), link, minutes: LINK_MINUTES },
      },
      r.clock.now,
    );
  }

  /**
   * A new one-time link token for a user; answers the token. Earlier links of the purpose stay valid (the newest
   * EMAILS_PER_RECIPIENT are kept, as many as the throttle sends within a link's lifetime).
   */
  async function newLink(user: Row, purpose: 'reset' | 'delete', now: number): Promise<string> {
    const token = randomToken();
    await db.run('INSERT INTO user_links (user_id, purpose, token_hash, expires_at) VALUES (?, ?, ?, ?)', [
      user.id!,
      purpose,
      tokenHash(token),
      now + LINK_TTL,
    ]);
    await db.run(
      `DELETE FROM user_links WHERE user_id = :user AND purpose = :purpose AND id NOT IN (
         SELECT id FROM user_links WHERE user_id = :user AND purpose = :purpose ORDER BY id DESC LIMIT :keep)`,
      { user: user.id!, purpose, keep: EMAILS_PER_RECIPIENT },
    );
    return token;
  }

  /** A new reset or deletion link, emailed to its account: the link and its email are one write. */
  async function emailLink(r: ApiRequest, user: Row, purpose: 'reset' | 'delete'): Promise<void> {
    await db.transaction(async () => {
      const link = accountLink(r, purpose === 'reset' ? '/password-reset' : '/confirm-account-deletion', {
        email: String(user.email),
        token: await newLink(user, purpose, r.clock.now),
      });
      await mailer.send(
        {
          channelId: r.channelId,
          to: String(user.email),
          language: languageOfUser(user),
          letter: { kind: purpose, name: greetingName(user), link, minutes: LINK_MINUTES },
        },
        r.clock.now,
      );
    });
  }

  /** The user's link of a purpose whose token this is: 'expired' past its lifetime, undefined when there is none. */
  async function linkOf(
    user: Row,
    purpose: 'reset' | 'delete',
    token: string,
    now: number,
  ): Promise<'valid' | 'expired' | undefined> {
    const row = await db.get('SELECT expires_at FROM user_links WHERE user_id = ? AND purpose = ? AND token_hash = ?', [
      user.id!,
      purpose,
      tokenHash(token),
    ]);
    if (!row) return undefined;
    return Number(row.expires_at) > now ? 'valid' : 'expired';
  }

  return {
    login: async (r) => {
      const checks = new Checks(r.body);
      const email = checks.text('email');
      const password = checks.secret('password');
      checks.done();
      const account = `${r.channelId}|${email!.toLowerCase()}`;
      const key = `${account}|${addressKey(r.ip)}`;
      const now = r.clock.now;
      // Counted before the hash, taken back on success: guesses sent at once are all in flight together, and
      // counting them only once answered would let a whole burst through. Checking and counting are one step.
      const byAddress = await throttle.take(key, now);
      if ('wait' in byAddress) throw refuse('email', throttledMessage(byAddress.wait));
      const byAccount = await accountThrottle.take(account, now);
      if ('wait' in byAccount) {
        await throttle.forgive(byAddress.id);
        throw refuse('email', lockedMessage(byAccount.wait));
      }
      const signedIn = await login(db, r.channelId, email!, password!, now);
      if (!signedIn) throw refuse('email', MESSAGES.invalidLogin);
      await throttle.clear(key);
      await accountThrottle.forgive(byAccount.id);
      return session(signedIn.token, signedIn.user);
    },

    logout: async ({ req }) => {
      const token = bearer(req.headers.authorization);
      if (!token || !(await logout(db, token))) throw new HttpError(401, 'Unauthenticated.');
      return { data: { message: 'Logged out.' } };
    },

    register: async (r) => {
      const checks = new Checks(r.body);
      const firstName = checks.text('first_name');
      const lastName = checks.text('last_name');
      const email = checks.email();
      const password = checks.newPassword();
      if (!truthy(r.body.terms)) checks.fail('terms', MESSAGES.terms);
      if (email !== undefined && (await userByEmail(db, r.channelId, email))) checks.fail('email', MESSAGES.emailTaken);
      checks.done();
      // 422, not 429: the client reads 429 as an api-key problem.
      const address = addressKey(r.ip);
      if ('wait' in (await registrations.take(address, r.clock.now))) throw refuse('email', MESSAGES.tooManyAccounts);
      const passwordHash = await hashPassword(password!);
      // The account and its verification email are one write: the email is queued with the account, or neither is.
      const user = await db.transaction(async () => {
        const made = await insertUser(
          db,
          r.channelId,
          {
            email: email!,
            first_name: firstName,
            last_name: lastName,
            news: truthy(r.body.news),
            language: languageOf(r.body.language) ?? null,
          },
          passwordHash,
          r.clock.now,
        );
        if (made) await sendVerification(r, made);
        return made;
      });
      // Someone else may have registered the same address while the password was being hashed.
      if (!user) throw refuse('email', MESSAGES.emailTaken);
      return session(await issueToken(db, user.id!, r.clock.now), user);
    },

    emailVerify: async (r) => {
      const email = typeof r.body.email === 'string' ? r.body.email.trim() : '';
      const expires = Number(r.body.expires);
      const signature = typeof r.body.signature === 'string' ? r.body.signature : '';
      if (
        !email ||
        !Number.isSafeInteger(expires) ||
        !sameText(signature, verifySignature(r.channelId, email, expires))
      ) {
        throw new HttpError(422, MESSAGES.verificationFailed);
      }
      const user = await userByEmail(db, r.channelId, email);
      if (!user) throw new HttpError(422, MESSAGES.userNotFound);
      if (user.email_verified_at !== null) throw new HttpError(422, MESSAGES.alreadyVerified);
      if (expires <= r.clock.now) throw new HttpError(422, MESSAGES.verificationFailed);
      await db.run('UPDATE users SET email_verified_at = ?, updated_at = ? WHERE id = ?', [
        r.clock.now,
        r.clock.now,
        user.id!,
      ]);
      return { data: { message: 'Your email address is verified.' } };
    },

    emailVerifyResend: async (r) => {
      const user = await r.user();
      if (user.email_verified_at !== null) throw new HttpError(422, MESSAGES.alreadyVerified);
      // The links already sent stay valid (each is signed with its own expiry): a held request loses nothing.
      const held = await holdEmail('verify', String(user.email), r);
      if (held) throw new HttpError(422, heldMessage(held, String(user.email)));
      await sendVerification(r, user);
      return { data: { message: `We sent a new link to ${String(user.email)}.` } };
    },

    passwordResetRequest: async (r) => {
      const checks = new Checks(r.body);
      const email = checks.email();
      checks.done();
      // Counted for emails without an account too: neither the answer nor the limits tell who has one.
      const held = await holdEmail('reset', email!, r);
      const user = held ? undefined : await userByEmail(db, r.channelId, email!);
      if (user) {
        await emailLink(r, user, 'reset');
      }
      // The same answer whether sent, held or unknown, so the form tells nobody who has an account, or how often
      // someone asked; the links sent earlier stay valid.
      return {
        data: { message: 'If an account exists for this email address, we sent it a link to reset the password.' },
      };
    },

    passwordReset: async (r) => {
      // Auth pages are closed to signed-in users (spec section 6): a live session signs out before it uses a link,
      // which stays valid meanwhile.
      if (await userByToken(db, r.channelId, bearer(r.req.headers.authorization), r.clock.now))
        throw new HttpError(422, MESSAGES.alreadyLoggedIn);
      const checks = new Checks(r.body);
      const email = checks.email();
      const token = checks.text('token');
      const password = checks.newPassword();
      checks.done();
      const user = await userByEmail(db, r.channelId, email!);
      // An unknown email answers like a wrong link: the form must not tell who has an account.
      if (!user) throw new HttpError(422, MESSAGES.resetFailed);
      const now = r.clock.now;
      const link = await linkOf(user, 'reset', token!, now);
      if (!link) throw new HttpError(422, MESSAGES.resetFailed);
      const hash = tokenHash(token!);
      if (link === 'expired') {
        await db.run("DELETE FROM user_links WHERE user_id = ? AND purpose = 'reset' AND token_hash = ?", [
          user.id!,
          hash,
        ]);
        throw new HttpError(422, MESSAGES.resetExpired);
      }
      // Spent by whoever deletes it, with the account's other valid reset links: one link used twice at once, or two
      // of them (in one process or two), reset once.
      const spent = await db.all(
        "DELETE FROM user_links WHERE user_id = ? AND purpose = 'reset' AND expires_at > ? RETURNING token_hash",
        [user.id!, now],
      );
      if (!spent.some((row) => row.token_hash === hash)) throw new HttpError(422, MESSAGES.resetFailed);
      const passwordHash = await hashPassword(password!);
      // The account may have been deleted while the password was hashed.
      // Following the emailed link proves the address too. Every session ends: whoever had the old password is out.
      await db.transaction(async () => {
        const changed = await db.run(
          'UPDATE users SET password_hash = ?, temporary_password = 0, email_verified_at = coalesce(email_verified_at, ?), updated_at = ? WHERE id = ?',
          [passwordHash, now, now, user.id!],
        );
        if (changed === 0) throw new HttpError(422, MESSAGES.resetFailed);
        await endSessions(db, user.id!);
      });
      return { data: { message: 'Your password has been changed. You can sign in with the new one.' } };
    },

    addSession: async (r) => {
      const user = await r.user();
      if (!r.settings().auth.remote_auth) throw new HttpError(403, MESSAGES.devicesOff);
      const checks = new Checks(r.body);
      checks.text('code');
      checks.done();
      const now = r.clock.now;
      const code = normaliseCode(r.body.code);
      // Counted before the code is tried and taken back when it links, as sign-ins are: guesses sent at once are
      // held like guesses sent one by one. 422, not 429: the client reads 429 as an api-key problem.
      const byAddress = await wrongCodesFrom.take(addressKey(r.ip), now);
      if ('wait' in byAddress) throw refuse('code', wrongCodesMessage(byAddress.wait));
      const byAccount = await wrongCodes.take(String(user.id), now);
      if ('wait' in byAccount) {
        await wrongCodesFrom.forgive(byAddress.id);
        throw refuse('code', wrongCodesMessage(byAccount.wait));
      }
      // Linked by whoever sets its user first: a code is linked to one account, once; the owner is told in the same
      // write.
      const linked = await db.transaction(async () => {
        const count = await db.run(
          'UPDATE device_codes SET user_id = ?, linked_at = ? WHERE code = ? AND channel_id = ? AND expires_at > ? AND user_id IS NULL',
          [user.id!, now, code, r.channelId, now],
        );
        if (count > 0)
          await mailer.send(
            {
              channelId: r.channelId,
              to: String(user.email),
              language: languageOfUser(user),
              letter: { kind: 'device-linked', name: greetingName(user) },
            },
            now,
          );
        return count;
      });
      if (linked === 0) throw refuse('code', MESSAGES.badDeviceCode);
      await wrongCodesFrom.forgive(byAddress.id);
      await wrongCodes.forgive(byAccount.id);
      return { data: { message: MESSAGES.deviceLinked } };
    },

    deleteAccount: async (r) => {
      const user = await r.user();
      // An earlier deletion link stays valid, so a held request loses nothing.
      const held = await holdEmail('delete', String(user.email), r);
      if (held) throw new HttpError(422, heldMessage(held, String(user.email)));
      await emailLink(r, user, 'delete');
      return {
        data: { message: `We sent a link to ${String(user.email)}. Open it to confirm the deletion of your account.` },
      };
    },

    deleteAccountConfirm: async (r) => {
      const checks = new Checks(r.body);
      const email = checks.email();
      const token = checks.text('token');
      checks.done();
      const user = await userByEmail(db, r.channelId, email!);
      // An unknown email answers like a wrong link, so the form does not tell who has an account.
      if (!user || (await linkOf(user, 'delete', token!, r.clock.now)) !== 'valid')
        throw new HttpError(422, MESSAGES.deletionLinkInvalid);
      // The rows first (one transaction, with the email saying so), then the clips' files and any cut still running:
      // answered once all are gone.
      const clips = await db.transaction(async () => {
        const deleted = await deleteUser(db, user.id!);
        await mailer.send(
          {
            channelId: r.channelId,
            to: String(user.email),
            language: languageOfUser(user),
            letter: { kind: 'deleted', name: greetingName(user) },
          },
          r.clock.now,
        );
        return deleted;
      });
      for (const clip of clips) {
        // The account is gone whatever happens to a clip's files: one that cannot be removed is told, not answered.
        await ctx.removeClip(clip).catch((error: unknown) => {
          log().error(`the files of clip ${clip} could not be removed: ${String(error)}`);
        });
      }
      return { data: { message: 'Your account has been deleted.' } };
    },

    updateProfile: async (r) => {
      const user = await r.user();
      const body = r.body;
      if (String(body._method ?? '').toLowerCase() !== 'patch')
        throw new HttpError(405, 'Send _method=patch to update the profile.');
      const checks = new Checks(body);
      const updates: Record<string, SqlValue> = {};
      for (const field of ['first_name', 'last_name']) {
        if (!(field in body)) continue;
        const value = checks.text(field);
        if (value !== undefined && value.length > 255)
          checks.fail(field, `The ${field.replace('_', ' ')} may not be greater than 255 characters.`);
        else if (value !== undefined) updates[field] = value;
      }
      if ('gender' in body) {
        const gender = typeof body.gender === 'string' ? body.gender.toUpperCase() : body.gender;
        if (gender === null || gender === '') updates.gender = null;
        else if (gender === 'M' || gender === 'W') updates.gender = gender;
        else checks.fail('gender', 'The selected gender is invalid.');
      }
      if ('news' in body) updates.news = truthy(body.news) ? 1 : 0;
      // A temporary password must be replaced before anything else is saved.
      let newPassword: string | undefined;
      const changesPassword =
        Boolean(user.temporary_password) || (typeof body.password === 'string' && body.password !== '');
      if (changesPassword) newPassword = checks.newPassword();
      // A token alone (a borrowed device, a stolen token) must not be enough to lock the owner out: a password
      // change names the current one. Accounts made by social sign-in have none to name.
      const current = typeof body.current_password === 'string' ? body.current_password : '';
      if (changesPassword && user.password_hash !== null && current === '')
        checks.fail('current_password', MESSAGES.currentPasswordRequired);
      checks.done();
      if (
        changesPassword &&
        user.password_hash !== null &&
        !(await verifyPassword(current, String(user.password_hash)))
      ) {
        throw refuse('current_password', MESSAGES.currentPasswordWrong);
      }
      if (newPassword !== undefined) {
        updates.password_hash = await hashPassword(newPassword);
        updates.temporary_password = 0;
      }
      // Hashing took a while: if this session ended meanwhile (a social sign-in cleared a pre-registered account,
      // another password change, a deletion), nothing is written.
      const token = bearer(r.req.headers.authorization);
      const still = await userByToken(db, r.channelId, token, r.clock.now);
      if (!still || still.id !== user.id || still.password_hash !== user.password_hash)
        throw new HttpError(401, 'Unauthenticated.');
      const columns = Object.keys(updates);
      await db.transaction(async () => {
        if (columns.length > 0) {
          await db.run(`UPDATE users SET ${columns.map((c) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ?`, [
            ...columns.map((c) => updates[c]!),
            r.clock.now,
            user.id!,
          ]);
        }
        // Every other session ends (this one stays signed in); so do open links and uncollected device codes.
        if (newPassword !== undefined) await endSessions(db, user.id!, token);
      });
      return { data: userJson((await db.get('SELECT * FROM users WHERE id = ?', [user.id!]))!) };
    },
  };
}

/** The TV side of device linking (not in the contract; see the file comment). */
export function deviceRoutes(ctx: AuthContext): ServerOnlyRoute[] {
  const { db } = ctx;
  return [
    {
      name: 'deviceCode',
      method: 'POST',
      path: 'auth/device-code',
      keyless: false,
      handler: async (r) => {
        if (!r.settings().auth.remote_auth) throw new HttpError(403, MESSAGES.devicesOff);
        const now = r.clock.now;
        await db.run('DELETE FROM device_codes WHERE expires_at <= ?', [now]);
        let code = '';
        // A code taken meanwhile (by this process or another) is simply drawn again.
        do {
          code = Array.from({ length: 6 }, () => DEVICE_ALPHABET[randomInt(DEVICE_ALPHABET.length)]).join('');
        } while (
          (await db.run(
            'INSERT INTO device_codes (code, channel_id, api_key_hash, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (code) DO NOTHING',
            [code, r.channelId, tokenHash(r.apiKey ?? ''), now + DEVICE_CODE_TTL],
          )) === 0
        );
        return { data: { code, expires_in: DEVICE_CODE_TTL } };
      },
    },
    {
      name: 'deviceCodeStatus',
      method: 'GET',
      path: 'auth/device-code/{code}',
      keyless: false,
      handler: async (r) => {
        const code = normaliseCode(r.params.code);
        // Only the api key that asked for the code may poll it: a code read off the screen gets nobody a token.
        const row = await db.get('SELECT * FROM device_codes WHERE code = ? AND channel_id = ? AND api_key_hash = ?', [
          code,
          r.channelId,
          tokenHash(r.apiKey ?? ''),
        ]);
        if (!row) throw new HttpError(404, MESSAGES.badDeviceCode);
        const now = r.clock.now;
        if (row.user_id !== null) {
          const user = await db.get('SELECT id, email FROM users WHERE id = ?', [row.user_id!]);
          if (!user) throw new HttpError(404, MESSAGES.badDeviceCode);
          const data: Record<string, unknown> = { status: 'linked', email: String(user.email) };
          // The token goes to whichever poll marks it issued first: one TV, one token.
          if (
            !row.token_issued &&
            (await db.run('UPDATE device_codes SET token_issued = 1 WHERE code = ? AND token_issued = 0', [code])) > 0
          )
            data.token = await issueToken(db, user.id!, now);
          return { data };
        }
        const left = Number(row.expires_at) - now;
        return { data: left > 0 ? { status: 'pending', expires_in: left } : { status: 'expired' } };
      },
    },
  ];
}

/** 32 random bytes as hex: the secret part of an emailed link. */
const randomToken = () => randomBytes(32).toString('hex');

/** Constant-time comparison of two texts. */
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
