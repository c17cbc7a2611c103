/**
 * Google through OpenID Connect, with `openid-client`: the issuer's metadata by discovery (GOOGLE_ISSUER_URL,
 * default https://accounts.google.com; read once, again after a failure), the authorization code flow with PKCE,
 * `state` and `nonce`, the code exchanged with the client secret (GOOGLE_CLIENT_SECRET; the client id is the
 * channel's, in its settings), and the ID token believed only once its signature checks against the issuer's keys
 * (its JWKS, cached per client) and its `iss`, `aud`, `exp`, `iat` and `nonce` are right. An address the ID token
 * does not say is verified (`email_verified`) is not vouched for.
 */
import * as client from 'openid-client';
import {
  callbackUrl,
  isLoopbackUrl,
  reasonOf,
  type AuthorizeRequest,
  type IdentityProvider,
  type Redeemed,
  type Redemption,
} from './provider.js';

/** Google's issuer. */
export const GOOGLE_ISSUER = 'https://accounts.google.com';
/** What a sign-in asks Google for: who (openid), their address, their name. */
const SCOPE = 'openid email profile';
/** How long a call to the issuer may take. */
const TIMEOUT_SECONDS = 10;

export interface GoogleOptions {
  /** GOOGLE_ISSUER_URL: Google's, or (tests) an issuer on loopback. */
  issuer: string;
  /** GOOGLE_CLIENT_SECRET. */
  clientSecret: string;
}

/** A claim as text, if it is one. */
const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

export function googleIdentity(options: GoogleOptions): IdentityProvider {
  const issuer = new URL(options.issuer);
  // openid-client speaks only https, unless told otherwise: which config.ts allows for a loopback issuer alone.
  const insecure = issuer.protocol === 'http:' && isLoopbackUrl(issuer);
  let metadata: Promise<client.ServerMetadata> | undefined;
  let discovered: client.ServerMetadata | undefined;
  const configs = new Map<string, client.Configuration>();

  /** The issuer's metadata: discovered on first use, and again after a discovery that failed. */
  function discover(): Promise<client.ServerMetadata> {
    metadata ??= client
      .discovery(issuer, 'discovery', undefined, undefined, {
        execute: insecure ? [client.allowInsecureRequests] : [],
        timeout: TIMEOUT_SECONDS,
      })
      .then((config) => {
        discovered = config.serverMetadata();
        return discovered;
      })
      .catch((error: unknown) => {
        metadata = undefined;
        throw error;
      });
    return metadata;
  }

  /** One channel's client: its id, the server's secret, signatures checked. */
  async function configOf(clientId: string): Promise<client.Configuration> {
    const known = configs.get(clientId);
    if (known) return known;
    const config = new client.Configuration(await discover(), clientId, options.clientSecret);
    config.timeout = TIMEOUT_SECONDS;
    if (insecure) client.allowInsecureRequests(config);
    // The ID token's signature checked against the issuer's keys, not only trusted for coming over TLS.
    client.enableNonRepudiationChecks(config);
    configs.set(clientId, config);
    return config;
  }

  // Read at once, so the settings served name the authorization endpoint from the start; a failure here is tried
  // again by the first sign-in.
  discover().catch(() => undefined);

  return {
    endpoint: () => discovered?.authorization_endpoint ?? issuer.href,
    async authorizeUrl(request: AuthorizeRequest): Promise<string> {
      const config = await configOf(request.clientId);
      return client.buildAuthorizationUrl(config, {
        redirect_uri: request.redirectUri,
        response_type: 'code',
        scope: SCOPE,
        state: request.state,
        nonce: request.nonce,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
      }).href;
    },
    async redeem(redemption: Redemption): Promise<Redeemed> {
      try {
        const config = await configOf(redemption.clientId);
        const tokens = await client.authorizationCodeGrant(config, callbackUrl(redemption), {
          pkceCodeVerifier: redemption.codeVerifier,
          expectedState: redemption.state,
          expectedNonce: redemption.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) return { refused: 'no ID token' };
        return {
          profile: {
            subject: claims.sub,
            email: text(claims.email),
            emailVerified: claims.email_verified === true,
            first_name: text(claims.given_name),
            last_name: text(claims.family_name),
          },
        };
      } catch (error) {
        return { refused: reasonOf(error) };
      }
    },
  };
}
