/**
 * Social sign-in's two calls, the authorization code flow with PKCE through the channel's identity providers
 * (identity/provider.ts):
 *
 *   POST v2/auth/social/{provider}/start  { redirect_uri } → { data: { url } }: a new attempt (its `state`, `nonce`
 *        and PKCE verifier, kept 10 minutes, bound to the caller's api key, i.e. the viewer's browser, and to the
 *        channel), and the provider's URL the browser opens with them. The redirect URI must be
 *        `{site}/auth/login/{provider}/callback` of one of the channel's sites; a provider the channel names no
 *        client for, or this server has none for, is 404.
 *   POST v2/auth/social/{provider}  { code, state, iss?, redirect_uri } → a session, as sign-in answers: the attempt
 *        of that state is spent (once, whatever happens next), and must be this api key's, this channel's and
 *        provider's, for this redirect URI and still fresh; the provider then redeems the code with the attempt's
 *        verifier and nonce. Any of that refused: 422 'Wrong auth data' on `code`, and no account is made.
 *
 * Accounts are linked by the provider's subject (`social_identities`), not by email alone. A subject seen before
 * signs in to its account, whatever its address says now. A first sign-in needs an address the provider vouches
 * for: none (422 SOCIAL_MESSAGES.emailMissing) or one it does not vouch for (422 SOCIAL_MESSAGES.emailUnverified)
 * makes no account. An address that is an account's already links to that account; one nobody verified is cleared
 * of its password and sessions first (whoever registered it, perhaps not its owner, is out; the owner can choose a
 * password later by resetting it). Otherwise a new, verified account is made.
 */
import { randomBytes } from 'node:crypto';
import { SOCIAL_PROVIDERS, type SocialProvider } from '../../src/api/contract.js';
import { callbackOf, challengeOf, reasonOf, type IdentityProviders, type SocialProfile } from '../identity/provider.js';
import { endSessions, insertUser, issueToken, tokenHash, userByEmail, userJson } from './accounts.js';
import type { ChannelDb, Row } from '../storage/db.js';
import { Checks, refuse, type Handler } from '../http/handler.js';
import { HttpError } from '../http/http.js';
import { languageOf } from '../mail/mail.js';
import { log } from '../observability/log.js';

/** The messages of a sign-in the provider gave no usable address for (the client translates them). */
export const SOCIAL_MESSAGES = {
  wrongAuthData: 'Wrong auth data',
  emailMissing: 'The social account shared no email address. Register with your email address instead.',
  emailUnverified:
    'The email address of the social account is not verified. Verify it with the provider, or register with your email address instead.',
  notFound: 'Provider not found.',
  badRedirect: "The redirect URI is not one of this channel's sign-in callbacks.",
  unavailable: 'Social sign-in is not available right now. Please try again later.',
} as const;

/** How long an attempt waits for its code, in seconds. */
const ATTEMPT_TTL = 600;

export interface SocialContext {
  db: ChannelDb;
  /** Each channel's providers, by channel id. */
  identity: (channelId: number) => IdentityProviders;
  /** The sites a channel's sign-ins may come back to (channel-api.ts `sitesOf`). */
  sitesOf(channelId: number): string[];
}

const isProvider = (name: string): name is SocialProvider => (SOCIAL_PROVIDERS as readonly string[]).includes(name);
/** 32 random bytes, base64url: a state, a nonce, a PKCE verifier (43 characters, as RFC 7636 asks). */
const random = () => randomBytes(32).toString('base64url');

/** The `socialStart` and `socialLogin` handlers. */
export function socialHandlers(ctx: SocialContext): { socialStart: Handler; socialLogin: Handler } {
  const { db } = ctx;

  /** The provider of the path, and the channel's client id there; 404 when either is missing. */
  function providerOf(r: Parameters<Handler>[0]) {
    const name = r.params.provider ?? '';
    const provider = isProvider(name) ? ctx.identity(r.channelId)[name] : undefined;
    const clientId = isProvider(name) ? r.settings().social?.[name]?.client_id : undefined;
    if (!provider || !clientId) throw new HttpError(404, SOCIAL_MESSAGES.notFound);
    return { name: name as SocialProvider, provider, clientId };
  }

  /** The account a profile signs in to: linked by subject, else by a vouched-for address, else a new one. */
  async function accountOf(
    channelId: number,
    provider: SocialProvider,
    profile: SocialProfile,
    r: Parameters<Handler>[0],
  ): Promise<Row> {
    const now = r.clock.now;
    return db.transaction(async () => {
      const linked = await db.get(
        'SELECT u.* FROM social_identities s JOIN users u ON u.id = s.user_id WHERE s.channel_id = ? AND s.provider = ? AND s.subject = ?',
        [channelId, provider, profile.subject],
      );
      if (linked) return linked;
      if (!profile.email) throw refuse('code', SOCIAL_MESSAGES.emailMissing);
      if (!profile.emailVerified) throw refuse('code', SOCIAL_MESSAGES.emailUnverified);
      let user = await userByEmail(db, channelId, profile.email);
      if (user && user.email_verified_at === null) {
        // The provider vouches for the address, and nothing vouched for whoever registered it with a password: it
        // may have been someone else, waiting for the owner to use the account. Their password, their open links
        // and every session made with them end here.
        await db.run(
          'UPDATE users SET email_verified_at = ?, password_hash = NULL, temporary_password = 0, updated_at = ? WHERE id = ?',
          [now, now, user.id!],
        );
        await endSessions(db, user.id!);
      }
      user ??= await insertUser(
        db,
        channelId,
        {
          email: profile.email,
          first_name: profile.first_name,
          last_name: profile.last_name,
          provider,
          verifiedAt: now,
          language: languageOf(r.body.language) ?? null,
        },
        null,
        now,
      );
      // Made by another sign-in at this moment (the unique email): that one's account.
      user ??= await userByEmail(db, channelId, profile.email);
      if (!user) throw refuse('code', SOCIAL_MESSAGES.wrongAuthData);
      // Two first sign-ins of one person at once: the first link stands.
      await db.run(
        'INSERT INTO social_identities (channel_id, provider, subject, user_id, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
        [channelId, provider, profile.subject, user.id!, now],
      );
      return user;
    });
  }

  return {
    socialStart: async (r) => {
      const { name, provider, clientId } = providerOf(r);
      const checks = new Checks(r.body);
      const redirectUri = checks.text('redirect_uri');
      checks.done();
      if (!ctx.sitesOf(r.channelId).some((site) => callbackOf(site, name) === redirectUri))
        throw refuse('redirect_uri', SOCIAL_MESSAGES.badRedirect);
      const now = r.clock.now;
      const state = random();
      const nonce = random();
      const verifier = random();
      await db.run('DELETE FROM social_attempts WHERE expires_at <= ?', [now]);
      await db.run(
        `INSERT INTO social_attempts (state_hash, channel_id, provider, api_key_hash, redirect_uri, nonce, code_verifier, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          tokenHash(state),
          r.channelId,
          name,
          tokenHash(r.apiKey ?? ''),
          redirectUri!,
          nonce,
          verifier,
          now + ATTEMPT_TTL,
        ],
      );
      let url: string;
      try {
        url = await provider.authorizeUrl({
          channelId: r.channelId,
          clientId,
          redirectUri: redirectUri!,
          state,
          nonce,
          codeChallenge: challengeOf(verifier),
        });
      } catch (error) {
        // Google's discovery document could not be read: the provider is unreachable for now.
        log().error(`social sign-in with ${name} could not start: ${reasonOf(error)}`);
        throw new HttpError(503, SOCIAL_MESSAGES.unavailable);
      }
      return { data: { url } };
    },

    socialLogin: async (r) => {
      const name = r.params.provider ?? '';
      if (!isProvider(name)) throw new HttpError(404, SOCIAL_MESSAGES.notFound);
      const checks = new Checks(r.body);
      const code = checks.text('code');
      const state = checks.text('state');
      const redirectUri = checks.text('redirect_uri');
      checks.done();
      const now = r.clock.now;
      // Spent by whoever deletes it: one attempt signs in once, in one process or two.
      const attempt = await db.get('DELETE FROM social_attempts WHERE state_hash = ? RETURNING *', [tokenHash(state!)]);
      const provider = ctx.identity(r.channelId)[name];
      const clientId = r.settings().social?.[name]?.client_id;
      const bound =
        attempt !== undefined &&
        Number(attempt.channel_id) === r.channelId &&
        attempt.provider === name &&
        attempt.api_key_hash === tokenHash(r.apiKey ?? '') &&
        attempt.redirect_uri === redirectUri &&
        Number(attempt.expires_at) > now;
      if (!bound || !provider || !clientId) {
        log().info(`social sign-in with ${name} refused: no attempt of this state for this browser and channel`);
        throw refuse('code', SOCIAL_MESSAGES.wrongAuthData);
      }
      const redeemed = await provider.redeem({
        channelId: r.channelId,
        clientId,
        code: code!,
        state: state!,
        iss: typeof r.body.iss === 'string' && r.body.iss !== '' ? r.body.iss : undefined,
        redirectUri: redirectUri!,
        codeVerifier: String(attempt.code_verifier),
        nonce: String(attempt.nonce),
        now,
      });
      if ('refused' in redeemed) {
        log().info(`social sign-in with ${name} refused: ${redeemed.refused}`);
        throw refuse('code', SOCIAL_MESSAGES.wrongAuthData);
      }
      const user = await accountOf(r.channelId, name, redeemed.profile, r);
      const token = await issueToken(db, user.id!, now);
      return { data: { token, user: userJson((await db.get('SELECT * FROM users WHERE id = ?', [user.id!]))!) } };
    },
  };
}
