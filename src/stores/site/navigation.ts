/**
 * The site's navigation rules (spec section 2, "Navigation guards"): the guard every route change goes through,
 * the last page a sign-in returns to, the outer tracker and the page-view events sent after each change.
 */
import { ONE_TIME_PARAMS } from '../../lib/account-routes.js';
import { env } from '../../lib/env.js';
import { ID_PATTERN } from '../../lib/ids.js';
import { AUTH_ROUTES, ROUTES, type Route, type RouteName } from '../../lib/routes.js';
import { routeShown as reportRoute } from '../analytics/port.js';
import { pathOf, type Guard } from '../router.js';
import { $settings, $user } from '../session.js';

/** Auth pages a signed-in viewer is sent away from (to the home page). */
const CLOSED_WHEN_SIGNED_IN: readonly RouteName[] = ['login', 'registration', 'passwordResetRequest', 'passwordReset'];

/**
 * True for the password-reset page opened from an emailed link: a signed-in viewer is not sent away from it, so the
 * link is not lost; the page itself asks them to sign out before it shows the form.
 */
const isResetLink = (route: Route) =>
  route.name === 'passwordReset' && ONE_TIME_PARAMS['password-reset'].some((name) => route.query[name]);
/** True for the verification page opened from an emailed link: it verifies and says so, whoever is signed in. */
const isVerifyLink = (route: Route) =>
  route.name === 'verifyEmail' && ONE_TIME_PARAMS['verify-email'].some((name) => route.query[name]);

/**
 * The `modal` query name of the contract: the account screen a link opens (`?modal=login`), over whatever page it
 * is on. The site shows account screens as pages, so the link goes to that page, and a sign-in there returns to the
 * page the link named (it is remembered as the last page first).
 */
const MODALS: Readonly<Record<string, RouteName>> = {
  login: 'login',
  registration: 'registration',
  register: 'registration',
  'password-reset-request': 'passwordResetRequest',
  'forgot-password': 'passwordResetRequest',
};
/** Pages that are never the page to come back to: the auth pages, the error page and one-time link pages. */
const NOT_RETURNED_TO: readonly RouteName[] = [...AUTH_ROUTES, 'notFound', 'authCallback', 'confirmAccountDeletion'];

/**
 * The guard of the site, reading who the viewer is when it runs:
 * - a signed-in viewer with a temporary password stays on /profile/edit;
 * - a signed-in viewer is sent from login, registration and password reset pages to the home page, as the spec
 *   says, whether they navigate there or their stored sign-in loads there (and from the verification notice once
 *   their email is verified); a reset link is the exception (its page offers to sign out and use it). A sign-in
 *   made on one of these pages goes to the last page instead (App sends it there at once);
 * - a guest going to /buy straight from login or registration is sent back to that page;
 * - /profile/sessions/add opens only when the channel has remote auth, otherwise the orders.
 */
export const siteGuard: Guard = (to, from) => {
  const user = $user.get();
  if (user?.temporary_password && to.name !== 'profileEdit') return '/profile/edit';
  if (user && CLOSED_WHEN_SIGNED_IN.includes(to.name as RouteName) && !isResetLink(to)) return '/';
  // Once verified, the notice and a bare verification page have nothing left to say (an emailed link still opens);
  // a profile that does not say (the spec's User has no such field) keeps the notice.
  if (
    user &&
    user.email_verified === true &&
    (to.name === 'verifyNotice' || (to.name === 'verifyEmail' && !isVerifyLink(to)))
  )
    return '/';
  const modal = to.query.modal && Object.hasOwn(MODALS, to.query.modal) ? MODALS[to.query.modal] : undefined;
  if (modal) {
    const { modal: _, ...query } = to.query;
    const page = { ...to, query };
    // A signed-in viewer has no account screen to see (they are closed to them): the page itself.
    if (user) return pathOf(page);
    rememberPage(page, from);
    return ROUTES[modal];
  }
  // `vod_id` (the contract's name for a library item) on the library opens that item.
  if (to.name === 'vodLibrary' && to.query.vod_id && ID_PATTERN.test(to.query.vod_id))
    return `/watch_library/${to.query.vod_id}`;
  if (!user && to.name === 'buy' && from && (from.name === 'login' || from.name === 'registration'))
    return pathOf(from);
  if (to.name === 'profileSessionsAdd' && !$settings.get()?.auth?.remote_auth) return '/profile';
  return undefined;
};

/** Where the last page is kept (local storage, `rudy_` prefixed), and for how long. */
const LAST_PAGE_KEY = 'site.lastPage';
const LAST_PAGE_MS = 24 * 3_600_000;

/** The last page the viewer saw that a sign-in may return to. */
export interface LastPage {
  path: string;
  query: Record<string, string>;
  params: Record<string, string>;
  referrer: string | undefined;
}

const isLastPage = (v: unknown): v is LastPage =>
  typeof v === 'object' && v !== null && typeof (v as LastPage).path === 'string';

/** Remembers a page shown (not the auth and error pages) with the page that led to it. */
export function rememberPage(route: Route, from: Route | undefined): void {
  if (NOT_RETURNED_TO.includes(route.name as RouteName)) return;
  const page: LastPage = {
    path: route.path,
    query: route.query,
    params: route.params,
    // The path only: the page before may have carried one-time values (a reset token, a social code).
    referrer: from?.path,
  };
  env().storage.set(LAST_PAGE_KEY, page, LAST_PAGE_MS);
}

/** The site path (with its query) a sign-in returns to: the last page remembered, else the home page. */
export function returnPath(): string {
  const page = env().storage.get(LAST_PAGE_KEY, isLastPage);
  return page ? pathOf(page) : '/';
}

export { reportedPath } from '../../lib/url.js';

/**
 * After each route change: keep `trk`, remember the page, and send the page view (`visit_page` to the analytics
 * service with the previous page, `page_view` to the tag manager). Never throws.
 */
export function routeShown(route: Route, from: Route | undefined, title: string): void {
  rememberPage(route, from);
  // The landing's tracker: `trk`, else `channel`, the contract's name for the channel (newsletter, partner, social)
  // a visitor came through.
  const tracker = route.query.trk || route.query.channel || undefined;
  reportRoute(tracker, { path: route.path, previous: from?.path, title, route: route.name });
}
