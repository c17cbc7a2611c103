/**
 * The stand-in identity providers (dev mode, where no real one is set up): codes issued by the stand-in authorize
 * pages (dev/social.ts), which let anyone sign in as any email address and therefore exist only in dev mode. They
 * take the same flow as the real ones: the browser goes to `/__social/{provider}/authorize` with the attempt's
 * state, nonce and PKCE challenge; a code is one-time, bound to its channel, network, redirect URI, challenge and
 * nonce, and lives 5 minutes (the pages store it, hashed, in `social_codes`). The person's subject is the address,
 * as the page has no accounts of its own; whether the address is verified is the page's choice (a checkbox).
 */
import { SOCIAL_PROVIDERS } from '../../src/api/contract.js';
import { tokenHash } from '../accounts/accounts.js';
import type { ChannelDb } from '../storage/db.js';
import { challengeOf, type IdentityProvider, type IdentityProviders } from './provider.js';

/** The stand-in of each social network, over one database; `origin` is this server's public origin. */
export function createStandInIdentity(db: ChannelDb, origin: () => string): IdentityProviders {
  const providerOf = (provider: string): IdentityProvider => {
    const endpoint = () => new URL(`/__social/${provider}/authorize`, origin()).href;
    return {
      endpoint,
      async authorizeUrl(request) {
        const url = new URL(endpoint());
        for (const [name, value] of Object.entries({
          client_id: request.clientId,
          redirect_uri: request.redirectUri,
          response_type: 'code',
          scope: provider === 'google' ? 'openid email profile' : 'email,public_profile',
          state: request.state,
          nonce: request.nonce,
          code_challenge: request.codeChallenge,
          code_challenge_method: 'S256',
        }))
          url.searchParams.set(name, value);
        return url.href;
      },
      async redeem(redemption) {
        // Spent by whoever deletes it: two redemptions at once (in one process or two) cannot both have it. A code
        // found is spent whatever the outcome.
        const row = await db.get('DELETE FROM social_codes WHERE code_hash = ? RETURNING *', [
          tokenHash(redemption.code),
        ]);
        if (!row) return { refused: 'unknown or spent code' };
        if (Number(row.channel_id) !== redemption.channelId || row.provider !== provider)
          return { refused: "another channel's or network's code" };
        if (row.redirect_uri !== redemption.redirectUri) return { refused: 'another redirect_uri' };
        if (Number(row.expires_at) <= redemption.now) return { refused: 'expired code' };
        if (row.code_challenge !== challengeOf(redemption.codeVerifier)) return { refused: 'wrong PKCE verifier' };
        if (row.nonce !== redemption.nonce) return { refused: 'wrong nonce' };
        const email = String(row.email);
        return {
          profile: {
            subject: `stand-in:${email.toLowerCase()}`,
            email,
            emailVerified: Number(row.email_verified) === 1,
            first_name: row.first_name === null ? null : String(row.first_name),
            last_name: row.last_name === null ? null : String(row.last_name),
          },
        };
      },
    };
  };
  return Object.fromEntries(SOCIAL_PROVIDERS.map((name) => [name, providerOf(name)]));
}
