/**
 * Social sign-in as the accounts API sees it (accounts/social-sign-in.ts): one identity provider per social network
 * the server signs people in with, chosen at start from configuration (app/services.ts) and never by a caller:
 * Google through OpenID Connect (google.ts), Facebook through OAuth 2 and its Graph API (facebook.ts), both with
 * `openid-client`, and in dev mode the stand-ins of both (stand-in.ts, with their authorize pages in
 * dev/social.ts) where no real one is set up. A network with no provider is not offered, and refuses every code.
 *
 * The flow is the authorization code flow with PKCE: the accounts API makes one attempt per sign-in (its `state`,
 * `nonce` and PKCE verifier, bound to the caller's api key and channel), asks the provider for the URL the browser
 * goes to, and once the provider sent the browser back to the site's callback with a code, hands the code with the
 * attempt's verifier and nonce to `redeem`, which answers who signed in or why not.
 */
import { createHash } from 'node:crypto';
import type { SocialProvider } from '../../src/api/contract.js';

/** What the provider says about the person who signed in. */
export interface SocialProfile {
  /** The provider's own, stable id of the person (Google's `sub`, Facebook's `id`): accounts are linked by it. */
  subject: string;
  /** Their email address, if the provider shares one. */
  email: string | null;
  /** Whether the provider vouches that the address is theirs (Google's `email_verified`; Facebook shares only those). */
  emailVerified: boolean;
  first_name: string | null;
  last_name: string | null;
}

/** What the browser is sent to the provider with. */
export interface AuthorizeRequest {
  channelId: number;
  /** The channel's client id at the provider (its settings' `social.{provider}.client_id`). */
  clientId: string;
  /** `{site}/auth/login/{provider}/callback` of one of the channel's sites. */
  redirectUri: string;
  state: string;
  nonce: string;
  /** The PKCE challenge: the verifier's SHA-256, base64url (`S256`). */
  codeChallenge: string;
}

/** A code the provider sent back, with what the attempt kept for it. */
export interface Redemption {
  channelId: number;
  clientId: string;
  code: string;
  state: string;
  /** The authorization response's `iss`, when the provider sent one (RFC 9207): checked against the issuer. */
  iss: string | undefined;
  redirectUri: string;
  codeVerifier: string;
  nonce: string;
  /** The server clock, UNIX seconds (the stand-ins' codes expire on it). */
  now: number;
}

/** Who signed in, or why nobody did (for the log: a short reason, never a code or a token). */
export type Redeemed = { profile: SocialProfile } | { refused: string };

export interface IdentityProvider {
  /** Where the settings say sign-in goes (the provider's authorization endpoint, as far as it is known). */
  endpoint(): string;
  /** The full URL the browser opens to sign in with this provider. */
  authorizeUrl(request: AuthorizeRequest): Promise<string>;
  /** Exchanges a code for who signed in: the provider's answer checked (tokens, signatures, nonce) before it is believed. */
  redeem(redemption: Redemption): Promise<Redeemed>;
}

/** The identity providers a server runs with, by social network (none: social sign-in is refused). */
export type IdentityProviders = Partial<Record<SocialProvider, IdentityProvider>>;

/** The one redirect URI a provider is given for a site: `{site}/auth/login/{provider}/callback` (the spec's path). */
export function callbackOf(site: string, provider: SocialProvider): string {
  const url = new URL(site);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/auth/login/${provider}/callback`;
  url.search = '';
  url.hash = '';
  return url.href;
}

/** The authorization response the browser brought back to the callback, as a URL (what openid-client reads). */
export function callbackUrl(redemption: Redemption): URL {
  const url = new URL(redemption.redirectUri);
  url.searchParams.set('code', redemption.code);
  url.searchParams.set('state', redemption.state);
  if (redemption.iss) url.searchParams.set('iss', redemption.iss);
  return url;
}

/** The PKCE challenge of a verifier (S256: its SHA-256, base64url). */
export const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** A loopback host: the only place an issuer, Graph API or authorize URL other than the provider's own may be. */
export function isLoopbackUrl(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** A refusal's reason for the log, from whatever openid-client or fetch threw (its code and message, no token). */
export function reasonOf(error: unknown): string {
  const e = error as { code?: unknown; error?: unknown; message?: unknown; name?: unknown };
  const code = typeof e.code === 'string' ? e.code : typeof e.error === 'string' ? e.error : String(e.name ?? 'Error');
  const cause = (error as { cause?: unknown }).cause as
    { claim?: unknown; message?: unknown; name?: unknown } | undefined;
  const detail = cause
    ? typeof cause.claim === 'string'
      ? ` (claim ${cause.claim})`
      : ` (${String(cause.name ?? '')}: ${String(cause.message ?? '').slice(0, 100)})`
    : '';
  return `${code}: ${String(e.message ?? error).slice(0, 200)}${detail}`;
}
