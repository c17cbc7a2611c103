/**
 * The site's routes (the paths `<channel-app>` answers) and how a path maps onto one. Pure: the router store
 * (src/stores/router.ts) keeps the current route and moves the address; this only reads paths and writes them.
 */
import { ID_PATTERN } from './ids.js';
import { UUID_PATTERN as UUID } from './uuid.js';

/** Each route's path; `:name` is a parameter, checked by PARAMS. Order matters only for readers. */
export const ROUTES = {
  home: '/',
  packages: '/packages',
  vodLibrary: '/vod_library',
  watch: '/watch/:id',
  watchEmbed: '/watch_embed/:id',
  watchLibrary: '/watch_library/:id',
  share: '/share/:id/:uuid',
  upcoming: '/upcoming',
  vod: '/vod',
  live: '/live',
  schedule: '/schedule',
  login: '/login',
  registration: '/registration',
  verifyNotice: '/verify-notice',
  verifyEmail: '/verify-email',
  passwordResetRequest: '/password-reset-request',
  passwordReset: '/password-reset',
  profile: '/profile',
  profileTransactions: '/profile/transactions',
  profileClips: '/profile/clips',
  profileSessionsAdd: '/profile/sessions/add',
  profileEdit: '/profile/edit',
  contacts: '/contacts',
  about: '/about',
  faq: '/faq',
  buy: '/buy',
  selectPackage: '/select-package/:id',
  simulate: '/simulate',
  confirmAccountDeletion: '/confirm-account-deletion',
  notFound: '/404',
  privacyPolicy: '/privacy_policy',
  termsConditions: '/terms_conditions',
  /** A social provider's redirect back (when the channel's site_url points at the site). */
  authCallback: '/auth/login/:provider/callback',
} as const;

/** A route of the table. */
export type RouteName = keyof typeof ROUTES;

/** What each parameter must look like; a path whose parameter does not is not that route. */
const PARAMS: Record<string, RegExp> = { id: ID_PATTERN, uuid: UUID, provider: /^[a-z]{2,20}$/ };

/** The authentication routes (a signed-in viewer is sent away from some of them; they store no return page). */
export const AUTH_ROUTES: readonly RouteName[] = [
  'login',
  'registration',
  'verifyNotice',
  'verifyEmail',
  'passwordResetRequest',
  'passwordReset',
];

/** A channel page added after start-up from the menu and pages lists: its own path, all opening the content page. */
export interface ChannelPage {
  path: string;
  name: string;
  id: number;
}

/** Where the site is. */
export type Route =
  | { name: RouteName; params: Record<string, string>; path: string; query: Record<string, string> }
  | { name: 'page'; params: { id: string }; page: ChannelPage; path: string; query: Record<string, string> };

/** A path without its trailing slashes (the root stays `/`), percent-decoding left to the parameters. */
export function normalisePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function segments(path: string): string[] {
  return normalisePath(path).split('/').slice(1);
}

/** The route a path (below the site's base) opens, or undefined: a path no route answers (the 404). */
export function matchRoute(
  path: string,
  query: Record<string, string> = {},
  pages: readonly ChannelPage[] = [],
): Route | undefined {
  const normal = normalisePath(path);
  const parts = segments(normal);
  for (const [name, pattern] of Object.entries(ROUTES) as [RouteName, string][]) {
    const want = segments(pattern);
    if (want.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = want.every((segment, i) => {
      const part = parts[i] ?? '';
      if (!segment.startsWith(':')) return segment === part;
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return false;
      }
      const rule = PARAMS[segment.slice(1)];
      if (rule && !rule.test(value)) return false;
      params[segment.slice(1)] = value;
      return true;
    });
    if (ok) return { name, params, path: normal, query };
  }
  // Addresses arrive percent-encoded (`/%C3%A9quipe`), page urls from the API as written (`/équipe`).
  const decoded = safeDecode(normal);
  const page = pages.find((p) => safeDecode(normalisePath(p.path)) === decoded);
  return page ? { name: 'page', params: { id: String(page.id) }, page, path: normal, query } : undefined;
}

/** A path with its percent escapes decoded (as it is, when they are malformed). */
function safeDecode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** The path of a route with its parameters filled in (encoded), e.g. `routePath('watch', { id: '12' })`. */
export function routePath(name: RouteName, params: Record<string, string | number> = {}): string {
  return ROUTES[name].replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(params[key] ?? '')));
}

/** A site base as the `base` attribute gives it: `/`, or a path without a trailing slash (`/tv`). */
export function normaliseBase(base: string | undefined): string {
  const value = base?.trim() ?? '';
  if (value === '' || value === '/') return '/';
  return normalisePath(value);
}

/** The path below `base` of a page path, or undefined when the page path is outside the site. */
export function pathBelowBase(pathname: string, base: string): string | undefined {
  if (base === '/') return normalisePath(pathname);
  if (pathname === base || pathname === `${base}/`) return '/';
  return pathname.startsWith(`${base}/`) ? normalisePath(pathname.slice(base.length)) : undefined;
}

/** The page path of a site path under `base`. */
export function withBase(path: string, base: string): string {
  const normal = normalisePath(path);
  if (base === '/') return normal;
  return normal === '/' ? `${base}/` : `${base}${normal}`;
}

/**
 * The channel pages of the `GET pages` list (and page entries of the menu): each page's path is its url when that
 * is a site path (`/partners`); external urls and paths a fixed route already answers are not channel pages.
 */
export function channelPagesOf(pages: readonly { id: number; name: string; url: string }[]): ChannelPage[] {
  const found: ChannelPage[] = [];
  for (const page of pages) {
    if (!page.url.startsWith('/') || page.url.startsWith('//')) continue;
    const path = normalisePath(page.url.split(/[?#]/)[0] ?? '');
    if (matchRoute(path) || found.some((p) => p.path === path)) continue;
    found.push({ path, name: page.name, id: page.id });
  }
  return found;
}
