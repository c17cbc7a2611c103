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
      /** The issuer the provider says it is (RFC 9207), when it says. */
      iss: string;
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
    'iss',
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
    return {
      kind: 'social-callback',
      provider,
      code: q('code'),
      state: q('state'),
      iss: q('iss'),
      error: q('error'),
    };
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

/**
 * The account screens that have an address of their own, and its last segment: a site's route, or a host page's
 * path ending (`/account/login`) where `<channel-profile>` runs that screen.
 */
export const ACCOUNT_SCREEN_PATHS = {
  'sign-in': '/login',
  register: '/registration',
  'reset-request': '/password-reset-request',
  'verify-notice': '/verify-notice',
} as const;

/** An account screen with an address of its own. */
export type AccountScreenName = keyof typeof ACCOUNT_SCREEN_PATHS;

const SCREEN_OF_SEGMENT = new Map(
  Object.entries(ACCOUNT_SCREEN_PATHS).map(([screen, path]) => [path.slice(1), screen as AccountScreenName]),
);

/**
 * Every account path a page may be at: the screens' and the one-time links' (a host page answers all of them
 * with `<channel-profile>`), with what comes before it and a trailing slash, if any.
 */
const ACCOUNT_PATH =
  /^(.*?)\/(login|registration|verify-notice|password-reset-request|verify-email|password-reset|confirm-account-deletion|auth\/login\/[a-z]+\/callback)(\/?)$/;

/** The screen a page's path ends with (`/login`, `/registration`, ...), or undefined for any other path. */
export function accountScreenOf(pathname: string): AccountScreenName | undefined {
  const match = ACCOUNT_PATH.exec(pathname);
  return match ? SCREEN_OF_SEGMENT.get(match[2]!) : undefined;
}

/**
 * The address of `screen` next to the account path a page is at (`/tv/login` to `/tv/registration`), its query
 * and hash kept; undefined when the page is at no account path, whose address is then the host's alone.
 */
export function accountScreenHref(href: string, screen: AccountScreenName): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  const match = ACCOUNT_PATH.exec(url.pathname);
  if (!match) return undefined;
  url.pathname = `${match[1]}${ACCOUNT_SCREEN_PATHS[screen]}${match[3]}`;
  return url.toString();
}

/** The URL without the route's one-time values (other query values and the hash stay). */
export function withoutOneTimeParams(href: string, route: AccountRoute): string {
  const url = new URL(href);
  for (const name of ONE_TIME_PARAMS[route.kind]) url.searchParams.delete(name);
  return url.toString();
}
