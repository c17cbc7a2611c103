/**
 * Facebook through OAuth 2, with `openid-client`: the browser goes to Facebook's login dialog
 * (FACEBOOK_AUTHORIZE_URL, default https://www.facebook.com/v21.0/dialog/oauth) with PKCE and `state`; the code is
 * exchanged at the Graph API (FACEBOOK_GRAPH_URL, default https://graph.facebook.com/v21.0, `/oauth/access_token`)
 * with the app secret (the channel's own `facebook_app_secret`, else FACEBOOK_APP_SECRET; the app id is the
 * channel's, in its settings), and who signed in is
 * read from the Graph API's `/me` (id, email, first_name, last_name), every call signed with `appsecret_proof` (the
 * access token's HMAC-SHA256 under the app secret), so a leaked token is of no use without the secret. Facebook
 * shares only an address its owner confirmed, so an address it shares is vouched for; none may come (a Facebook
 * account made with a phone number, or the permission declined).
 */
import { createHmac } from 'node:crypto';
import * as client from 'openid-client';
import { clientConfigs, insecureLoopback, NO_SECRET, textOf as text, type SecretOf } from './clients.js';
import {
  callbackUrl,
  reasonOf,
  type AuthorizeRequest,
  type IdentityProvider,
  type Redeemed,
  type Redemption,
} from './provider.js';

export const FACEBOOK_AUTHORIZE_URL = 'https://www.facebook.com/v21.0/dialog/oauth';
export const FACEBOOK_GRAPH_URL = 'https://graph.facebook.com/v21.0';
/** What a sign-in asks Facebook for: the address and the public profile (the name). */
const SCOPE = 'email,public_profile';

export interface FacebookOptions {
  authorizeUrl: string;
  graphUrl: string;
  /** FACEBOOK_APP_SECRET: the server's, for the channels without their own. */
  appSecret?: string | undefined;
}

/** What `/me` answers (the fields asked for). */
interface GraphProfile {
  id?: unknown;
  email?: unknown;
  first_name?: unknown;
  last_name?: unknown;
}

/** Facebook sign-in, each channel with its app secret (`secretOf`). */
export function facebookIdentity(
  options: Omit<FacebookOptions, 'appSecret'> & { secretOf: SecretOf },
): IdentityProvider {
  const graph = options.graphUrl.replace(/\/+$/, '');
  const insecure = insecureLoopback(options.authorizeUrl, graph);
  // Facebook publishes no metadata: its two endpoints, as its documentation names them.
  const server: client.ServerMetadata = {
    issuer: 'https://www.facebook.com',
    authorization_endpoint: options.authorizeUrl,
    token_endpoint: `${graph}/oauth/access_token`,
  };
  // The app secret goes in the token request's body (client_secret_post), as Facebook reads it.
  const configs = clientConfigs(() => server, insecure);
  const secretOf = (channelId: number) => {
    const secret = options.secretOf(channelId);
    if (!secret) throw new Error(NO_SECRET);
    return secret;
  };

  const proof = (accessToken: string, secret: string) => createHmac('sha256', secret).update(accessToken).digest('hex');

  return {
    endpoint: () => options.authorizeUrl,
    async authorizeUrl(request: AuthorizeRequest): Promise<string> {
      return client.buildAuthorizationUrl(await configs(request.clientId, secretOf(request.channelId)), {
        redirect_uri: request.redirectUri,
        response_type: 'code',
        scope: SCOPE,
        state: request.state,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
      }).href;
    },
    async redeem(redemption: Redemption): Promise<Redeemed> {
      try {
        const secret = secretOf(redemption.channelId);
        const config = await configs(redemption.clientId, secret);
        const tokens = await client.authorizationCodeGrant(config, callbackUrl(redemption), {
          pkceCodeVerifier: redemption.codeVerifier,
          expectedState: redemption.state,
        });
        const me = new URL(`${graph}/me`);
        me.searchParams.set('fields', 'id,email,first_name,last_name');
        me.searchParams.set('appsecret_proof', proof(tokens.access_token, secret));
        const res = await client.fetchProtectedResource(config, tokens.access_token, me, 'GET');
        if (!res.ok) return { refused: `the Graph API answered ${res.status}` };
        const profile = (await res.json()) as GraphProfile;
        const id = text(typeof profile.id === 'number' ? String(profile.id) : profile.id);
        if (!id) return { refused: 'the Graph API named nobody' };
        const email = text(profile.email);
        return {
          profile: {
            subject: id,
            email,
            emailVerified: email !== null,
            first_name: text(profile.first_name),
            last_name: text(profile.last_name),
          },
        };
      } catch (error) {
        return { refused: reasonOf(error) };
      }
    },
  };
}
