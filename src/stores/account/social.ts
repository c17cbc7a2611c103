/**
 * Social sign-in: the provider's authorize URL (asked of the server, which starts the attempt: its state, nonce and
 * PKCE challenge, bound to this api key), the page to come back to and the attempt's state (kept per tab), and the
 * callback that completes the sign-in. The page's address and per-tab storage come from `env()`.
 */
import { SOCIAL_PROVIDERS, accountApi, type SocialProvider } from '../../api/account-schemas.js';
import { env } from '../../lib/env.js';
import { navigationUrl, siteBase } from '../../lib/url-rules.js';
import { isCallbackPath, type AccountRoute } from '../../lib/account-routes.js';
import { $config } from '../config.js';
import { $settings, getClient } from '../session.js';
import { signIn } from '../sign-in.js';
import { GENERIC, headline, TECHNICAL } from './messages.js';
import { attempt, done, fail, once, type Outcome } from './outcome.js';
import { formsMsg } from './validation.js';

/** Where a social sign-in comes back to afterwards: sessionStorage `rudy_return.<channel>`. */
const returnKey = () => `rudy_return.${$config.get()?.channelKey ?? ''}`;
/** The state of the sign-in this tab started: sessionStorage `rudy_social_state.<channel>`. */
const stateKey = () => `rudy_social_state.${$config.get()?.channelKey ?? ''}`;

/** The channel site that answers the account routes: settings `site_url`, else this page's origin. */
export function siteUrl(): string {
  // Only an http(s) site (url-rules.ts): the redirect URI and the return page are built on it.
  return siteBase($settings.get()?.site_url) ?? (env().location()?.origin ?? '').replace(/\/+$/, '');
}

/** The provider's redirect URI: `{site}/auth/login/{provider}/callback` (the same in both legs of the flow). */
export function socialRedirectUri(provider: SocialProvider): string {
  return `${siteUrl()}/auth/login/${provider}/callback`;
}

/** The providers the channel offers (settings `social`: those its server can sign in with), in a fixed order. */
export function socialProviders(): SocialProvider[] {
  const social = $settings.get()?.social ?? {};
  return SOCIAL_PROVIDERS.filter((p) => social[p]?.client_id && navigationUrl(social[p]?.authorize_url));
}

/**
 * The provider's authorize URL for a new sign-in: `POST v2/auth/social/{provider}/start` with this site's callback
 * answers it, carrying the attempt's `state`, nonce and PKCE challenge (the server keeps the verifier). The state is
 * remembered in this tab, so the callback takes only the sign-in this tab started. No token ever goes into it.
 */
export async function socialAuthorizeUrl(provider: SocialProvider): Promise<string | undefined> {
  if (!socialProviders().includes(provider)) return undefined;
  const answer = await getClient().call(accountApi.socialStart, {
    params: { provider },
    body: { redirect_uri: socialRedirectUri(provider) },
    cache: false,
    retries: 0,
  });
  // Only an absolute http(s) address is gone to (url-rules.ts).
  const url = navigationUrl(answer.data.url);
  if (!url) return undefined;
  const state = new URL(url).searchParams.get('state');
  if (state) env().sessionStorage()?.setItem(stateKey(), state);
  return url;
}

/** Starts a social sign-in: remembers this page (not a callback page) and sends the browser to the provider. */
export function startSocial(provider: SocialProvider): Promise<Outcome> {
  return once('social', () =>
    attempt(async () => {
      const url = await socialAuthorizeUrl(provider);
      if (!url) throw new Error(`social sign-in with ${provider} is not configured`);
      const here = env().location();
      // Without per-tab storage (sandboxed frames) the sign-in simply stays on the callback page.
      if (here && !isCallbackPath(here.pathname)) env().sessionStorage()?.setItem(returnKey(), here.href);
      env().location()?.assign(url);
    }),
  );
}

/** Reads and forgets the page to return to after a social sign-in (same origin only). */
export function takeReturnUrl(): string | undefined {
  const store = env().sessionStorage();
  const saved = store?.getItem(returnKey()) ?? undefined;
  store?.removeItem(returnKey());
  if (!saved) return undefined;
  try {
    const url = new URL(saved);
    return url.origin === env().location()?.origin && !isCallbackPath(url.pathname) ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

const SOCIAL_FAILED = formsMsg('account.social.failed');

/** The server's refusals that say more than "could not be completed": the social account's address. */
const SOCIAL_EMAIL_MESSAGES = new Set(['forms:account.social.emailMissing', 'forms:account.social.emailUnverified']);

/**
 * Completes a social sign-in on the callback page: a refused or cancelled authorization, a missing code or a
 * `state` other than the one this tab started is refused without a request; otherwise `POST
 * v2/auth/social/{provider}` `{ code, state, iss?, redirect_uri }` signs in (the server checks the state is this api
 * key's attempt, and the provider's answer). Answers where to go back to, if a page was saved.
 */
export function completeSocial(
  route: Extract<AccountRoute, { kind: 'social-callback' }>,
): Promise<Outcome<{ returnTo: string | undefined }>> {
  return once('social-callback', async () => {
    if (route.error)
      return fail({}, route.error === 'access_denied' ? formsMsg('account.social.cancelled') : SOCIAL_FAILED);
    if (!route.code || !route.state) return fail({}, SOCIAL_FAILED);
    const store = env().sessionStorage();
    const started = store?.getItem(stateKey()) ?? undefined;
    store?.removeItem(stateKey());
    // A tab that started a sign-in takes back only its own. Where none was kept (no per-tab storage in a sandboxed
    // frame, or a site on another origin than the page that started it) the server's check alone holds: the state
    // must be an attempt of this api key's.
    if (started !== undefined && route.state !== started) return fail({}, SOCIAL_FAILED);
    const outcome = await attempt(async () => {
      const answer = await getClient().call(accountApi.socialLogin, {
        params: { provider: route.provider },
        body: {
          code: route.code,
          state: route.state,
          ...(route.iss ? { iss: route.iss } : {}),
          redirect_uri: socialRedirectUri(route.provider),
        },
        cache: false,
        retries: 0,
      });
      signIn(answer.data, route.provider);
    });
    if (!outcome.ok) {
      // A 422 here means the provider's code was refused: one message covers every such case but the social
      // account's address (none, or not verified). A fault on the way (the network, the server) says what it was.
      const said = headline(outcome.failure);
      if (SOCIAL_EMAIL_MESSAGES.has(said.key)) return fail({}, said);
      const fault = outcome.failure.message;
      return fail({}, fault === GENERIC || fault === TECHNICAL ? fault : SOCIAL_FAILED);
    }
    return done({ returnTo: takeReturnUrl() });
  });
}
