/**
 * The stand-in identity provider (dev mode): codes issued by the stand-in authorize pages (dev/social.ts), which let
 * anyone sign in as any email address and therefore exist only in dev mode. Codes are one-time, bound to their
 * channel, network and redirect URI, and live 5 minutes (the pages store them, hashed, in `social_codes`).
 */
import { SOCIAL_PROVIDERS } from '../../src/api/contract.js';
import { tokenHash } from '../accounts/accounts.js';
import type { ChannelDb } from '../storage/db.js';
import type { IdentityProvider, IdentityProviders } from './provider.js';

/** The stand-in of each social network, over one database. */
export function createStandInIdentity(db: ChannelDb): IdentityProviders {
  const providerOf = (provider: string): IdentityProvider => ({
    async redeem(channelId, code, redirectUri, now) {
      // Spent by whoever deletes it: two redemptions at once (in one process or two) cannot both have it. A code
      // found is spent whatever the outcome.
      const row = await db.get('DELETE FROM social_codes WHERE code_hash = ? RETURNING *', [tokenHash(code)]);
      if (!row) return undefined;
      const valid =
        Number(row.channel_id) === channelId &&
        row.provider === provider &&
        row.redirect_uri === redirectUri &&
        Number(row.expires_at) > now;
      if (!valid) return undefined;
      return {
        email: String(row.email),
        first_name: row.first_name === null ? null : String(row.first_name),
        last_name: row.last_name === null ? null : String(row.last_name),
      };
    },
  });
  return Object.fromEntries(SOCIAL_PROVIDERS.map((name) => [name, providerOf(name)]));
}
