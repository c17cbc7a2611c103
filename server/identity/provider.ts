/**
 * Social sign-in as the accounts API sees it: one identity provider per social network the server signs people in
 * with, chosen at start from configuration (app/services.ts) and never by a caller. Its first implementation is the
 * dev-mode stand-in (stand-in.ts, with its authorize pages in dev/social.ts); Google's and Facebook's OpenID clients
 * are the next. A network with no provider refuses every code, as an unknown code is refused.
 */
import type { SocialProvider } from '../../src/api/contract.js';

/** What a redeemed code says about the person who signed in at the provider. */
export interface SocialProfile {
  email: string;
  first_name: string | null;
  last_name: string | null;
}

export interface IdentityProvider {
  /**
   * Redeems an authorization code the provider sent back to `redirectUri` for a channel's site: the profile, or
   * undefined when the code is unknown, expired, spent, or was issued for another channel or redirect URI.
   */
  redeem(channelId: number, code: string, redirectUri: string, now: number): Promise<SocialProfile | undefined>;
}

/** The identity providers a server runs with, by social network (none: social sign-in is refused). */
export type IdentityProviders = Partial<Record<SocialProvider, IdentityProvider>>;
