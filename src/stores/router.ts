/**
 * The site's router (`<channel-app>`): the current route as a store, and navigation in history mode under the
 * site's base. In the manner of nanostores/router, written for our routes: the page's address and history come
 * from the environment, so the router runs the same in tests. Channel pages (from the menu and pages lists) are
 * added after start-up; until they are known, a path no route answers waits instead of turning into the 404.
 * A guard sees every change before it happens and may send it elsewhere (the address follows, replaced).
 */
import { atom, type ReadableAtom } from 'nanostores';
import { env } from '../lib/env.js';
import {
  matchRoute,
  normaliseBase,
  pathBelowBase,
  routePath,
  withBase,
  type ChannelPage,
  type Route,
} from '../lib/routes.js';

/** Where the site is: a route, or a path waiting for the channel's pages before it can be told apart from a 404. */
export type SiteRoute =
  Route | { name: 'pending'; params: Record<string, never>; path: string; query: Record<string, string> };

/** How a route change came about: the first address, a link or call, or the browser's back and forward. */
export type Via = 'start' | 'push' | 'pop' | 'refresh';

/** A guard: the site path (with its query) to go to instead of `to`, or undefined to let it through. */
export type Guard = (to: Route, from: Route | undefined, via: Via) => string | undefined;

/** One site's router. */
export interface Router {
  $route: ReadableAtom<SiteRoute>;
  /** The site's base path (`/`, or e.g. `/tv`). */
  base: string;
  /** The route shown before the current one (for analytics and the guards), if any. */
  previous(): Route | undefined;
  /** Goes to a site path (below the base, with its query), adding a history entry unless `replace`. */
  navigate(to: string, options?: { replace?: boolean }): void;
  /** The page address of a site path (for links' `href`). */
  href(to: string): string;
  /** The channel's pages, once start-up has them (a waiting path is matched again). */
  setPages(pages: readonly ChannelPage[]): void;
  /** Runs the guard again on the current route (who the viewer is changed). */
  recheck(): void;
  /** Stops following the history (the site was removed). */
  destroy(): void;
}

function queryOf(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search));
}

/** A route's site path with its query, as `navigate` takes it. */
export function pathOf(route: { path: string; query: Record<string, string> }): string {
  const search = new URLSearchParams(route.query).toString();
  return search ? `${route.path}?${search}` : route.path;
}

/** How many redirects one change may go through before the guard is ignored (a guard that loops). */
const MAX_REDIRECTS = 4;

/** Creates the router of a site under `base` (`/` or a path such as `/tv`), starting at the page's address. */
export function createRouter(baseAttribute?: string, options: { guard?: Guard } = {}): Router {
  const base = normaliseBase(baseAttribute);
  let pages: readonly ChannelPage[] = [];
  let pagesKnown = false;
  let before: Route | undefined;

  const split = (to: string): { path: string; search: string } => {
    const url = new URL(to, 'http://site.invalid/');
    return { path: url.pathname, search: url.search };
  };

  const match = (path: string, query: Record<string, string>): SiteRoute => {
    const route = matchRoute(path, query, pages);
    if (route) return route;
    if (!pagesKnown) return { name: 'pending', params: {}, path, query };
    return { name: 'notFound', params: {}, path: routePath('notFound'), query: {} };
  };

  /** The route a change lands on after the guard and the 404 redirect, and whether it moved from the one asked for. */
  const settle = (wanted: SiteRoute, via: Via, addressPath: string): { route: SiteRoute; moved: boolean } => {
    let route = wanted;
    let moved = route.name === 'notFound' && route.path !== addressPath;
    const from = current();
    for (let i = 0; route.name !== 'pending' && options.guard && i < MAX_REDIRECTS; i++) {
      const redirect = options.guard(route, from, via);
      if (redirect === undefined || redirect === pathOf(route)) break;
      const { path, search } = split(redirect);
      route = match(path, queryOf(search));
      moved = true;
    }
    return { route, moved };
  };

  /** The page address of a route. */
  const addressOf = (route: SiteRoute) => withBase(route.path, base) + pathOf(route).slice(route.path.length);

  /** Settles a change the address already shows (start, back and forward), replacing the address if it moved. */
  const settleAddress = (wanted: SiteRoute, via: Via, addressPath: string): SiteRoute => {
    const { route, moved } = settle(wanted, via, addressPath);
    if (moved) env().replaceUrl(addressOf(route));
    return route;
  };

  const current = (): Route | undefined => {
    const route = $route?.get();
    return route && route.name !== 'pending' ? route : undefined;
  };

  const fromAddress = (): { route: SiteRoute; path: string } => {
    const location = env().location();
    const below = location ? pathBelowBase(location.pathname, base) : '/';
    const path = below ?? routePath('notFound');
    return { route: match(path, queryOf(location?.search ?? '')), path };
  };

  const show = (next: SiteRoute) => {
    const now = current();
    if (now && next.name !== 'pending' && pathOf(now) !== pathOf(next)) before = now;
    $route.set(next);
  };

  const start = fromAddress();
  // The atom must exist before the guard runs (it reads the current route): start pending, then settle.
  const $route = atom<SiteRoute>({ name: 'pending', params: {}, path: start.path, query: start.route.query });
  $route.set(settleAddress(start.route, 'start', start.path));

  const onPopState = () => {
    const next = fromAddress();
    show(settleAddress(next.route, 'pop', next.path));
  };
  const target = env().eventTarget;
  target?.addEventListener('popstate', onPopState);

  return {
    $route,
    base,
    previous: () => before,
    navigate(to, navOptions = {}) {
      const { path, search } = split(to);
      const { route } = settle(match(path, queryOf(search)), 'push', path);
      const now = current();
      // Where the viewer already is (a link to this page, a guard that keeps them here): no new entry.
      if (now && route.name !== 'pending' && pathOf(now) === pathOf(route)) return;
      if (navOptions.replace) env().replaceUrl(addressOf(route));
      else env().pushUrl(addressOf(route));
      show(route);
    },
    href(to) {
      const { path, search } = split(to);
      // Braces stay braces: views take link templates such as `/watch/{id}` through here.
      return (withBase(path, base) + search).replace(/%7B/gi, '{').replace(/%7D/gi, '}');
    },
    setPages(next) {
      pages = next;
      pagesKnown = true;
      const waiting = $route.get();
      if (waiting.name === 'pending') show(settleAddress(match(waiting.path, waiting.query), 'start', waiting.path));
    },
    recheck() {
      const now = current();
      if (now) show(settleAddress(now, 'refresh', now.path));
    },
    destroy() {
      target?.removeEventListener('popstate', onPopState);
    },
  };
}
