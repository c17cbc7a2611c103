/**
 * The account routes of emailed links and social callbacks, read from a page's URL. A page that hosts
 * `<channel-profile>` at one of these paths runs that flow; the one-time values are then removed from the address
 * bar, so they do not linger in history, bookmarks or a shared screenshot.
 */

/** Social sign-in providers whose callbacks are recognised. */
export const CALLBACK_PROVIDERS = ['google', 'facebook'] as const;

/** A one-time account link found in the page's URL. Missing values read as ''. */
export type AccountRoute =
  | { kind: 'verify-email'; email: string; expires: string; signature: string }
  | { kind: 'password-reset'; email: string; token: string }
  | { kind: 'confirm-deletion'; email: string; token: string }
  | {
      kind: 'social-callback';
      provider: (typeof CALLBACK_PROVIDERS)[number];
      code: string;
      state: string;
      error: string;
    };

/** Query values of each route that are used once and then removed from the address bar. */
export const ONE_TIME_PARAMS: Record<AccountRoute['kind'], readonly string[]> = {
  'verify-email': ['email', 'expires', 'signature'],
  'password-reset': ['email', 'token'],
  'confirm-deletion': ['email', 'token'],
  // Providers add their own values next to code and state (Google: scope, authuser, prompt).
  'social-callback': [
    'code',
    'state',
    'error',
    'error_description',
    'error_reason',
    'scope',
    'authuser',
    'prompt',
    'hd',
  ],
};

const CALLBACK_PATH = /\/auth\/login\/([a-z]+)\/callback\/?$/;

/** True when the path is a social callback (a page to come back from, never one to return to). */
export function isCallbackPath(pathname: string): boolean {
  return CALLBACK_PATH.test(pathname);
}

/**
 * The account route of a URL: its path ends with the route (`/verify-email`, `/password-reset`,
 * `/confirm-account-deletion`, `/auth/login/{provider}/callback`) and at least one of its values is present.
 */
export function parseAccountRoute(href: string): AccountRoute | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  const q = (name: string) => url.searchParams.get(name)?.trim() ?? '';
  const path = url.pathname;
  const given = (kind: AccountRoute['kind']) => ONE_TIME_PARAMS[kind].some((name) => url.searchParams.has(name));
  const callback = CALLBACK_PATH.exec(path);
  if (callback) {
    const provider = CALLBACK_PROVIDERS.find((p) => p === callback[1]);
    if (!provider || !given('social-callback')) return undefined;
    return { kind: 'social-callback', provider, code: q('code'), state: q('state'), error: q('error') };
  }
  if (/\/verify-email\/?$/.test(path) && given('verify-email')) {
    return { kind: 'verify-email', email: q('email'), expires: q('expires'), signature: q('signature') };
  }
  if (/\/password-reset\/?$/.test(path) && given('password-reset')) {
    return { kind: 'password-reset', email: q('email'), token: q('token') };
  }
  if (/\/confirm-account-deletion\/?$/.test(path) && given('confirm-deletion')) {
    return { kind: 'confirm-deletion', email: q('email'), token: q('token') };
  }
  return undefined;
}

/** The URL without the route's one-time values (other query values and the hash stay). */
export function withoutOneTimeParams(href: string, route: AccountRoute): string {
  const url = new URL(href);
  for (const name of ONE_TIME_PARAMS[route.kind]) url.searchParams.delete(name);
  return url.toString();
}
