/**
 * Google through OpenID Connect, with `openid-client`: the issuer's metadata by discovery (GOOGLE_ISSUER_URL,
 * default https://accounts.google.com; read once, again after a failure), the authorization code flow with PKCE,
 * `state` and `nonce`, the code exchanged with the client secret (the channel's own `google_client_secret`, else
 * GOOGLE_CLIENT_SECRET; the client id is the channel's, in its settings), and the ID token believed only once its signature checks against the issuer's keys
 * (its JWKS, cached per client) and its `iss`, `aud`, `exp`, `iat` and `nonce` are right. An address the ID token
 * does not say is verified (`email_verified`) is not vouched for.
 */
import * as client from 'openid-client';
import {
  clientConfigs,
  insecureLoopback,
  NO_SECRET,
  textOf as text,
  TIMEOUT_SECONDS,
  type SecretOf,
} from './clients.js';
import {
  callbackUrl,
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

export interface GoogleOptions {
  /** GOOGLE_ISSUER_URL: Google's, or (tests) an issuer on loopback. */
  issuer: string;
  /** GOOGLE_CLIENT_SECRET: the server's, for the channels without their own. */
  clientSecret?: string | undefined;
}

/** Google sign-in at `issuer`, each channel with its client secret (`secretOf`). */
export function googleIdentity(options: { issuer: string; secretOf: SecretOf }): IdentityProvider {
  const issuer = new URL(options.issuer);
  // openid-client speaks only https, unless told otherwise: which config.ts allows for a loopback issuer alone.
  const insecure = insecureLoopback(issuer.href);
  let metadata: Promise<client.ServerMetadata> | undefined;
  let discovered: client.ServerMetadata | undefined;

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

  /** One channel's client: the ID token's signature checked against the issuer's keys, not only trusted for TLS. */
  const configs = clientConfigs(discover, insecure, client.enableNonRepudiationChecks);
  const configOf = (channelId: number, clientId: string) => {
    const secret = options.secretOf(channelId);
    if (!secret) throw new Error(NO_SECRET);
    return configs(clientId, secret);
  };

  // Read at once, so the settings served name the authorization endpoint from the start; a failure here is tried
  // again by the first sign-in.
  discover().catch(() => undefined);

  return {
    endpoint: () => discovered?.authorization_endpoint ?? issuer.href,
    async authorizeUrl(request: AuthorizeRequest): Promise<string> {
      const config = await configOf(request.channelId, request.clientId);
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
        const config = await configOf(redemption.channelId, redemption.clientId);
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
