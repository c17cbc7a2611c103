/**
 * The site's router (`<channel-app>`): the current route as a store, and navigation in history mode under the
 * site's base. In the manner of nanostores/router, written for our routes: the page's address and history come
 * from the environment, so the router runs the same in tests. Channel pages (from the menu and pages lists) are
 * added after start-up; until they are known, a path no route answers waits instead of turning into the 404.
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

/** One site's router. */
export interface Router {
  $route: ReadableAtom<SiteRoute>;
  /** Goes to a site path (below the base, with its query), adding a history entry unless `replace`. */
  navigate(to: string, options?: { replace?: boolean }): void;
  /** The page address of a site path (for links' `href`). */
  href(to: string): string;
  /** The channel's pages, once start-up has them (a waiting path is matched again). */
  setPages(pages: readonly ChannelPage[]): void;
  /** Stops following the history (the site was removed). */
  destroy(): void;
}

function queryOf(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search));
}

/** Creates the router of a site under `base` (`/` or a path such as `/tv`), starting at the page's address. */
export function createRouter(baseAttribute?: string): Router {
  const base = normaliseBase(baseAttribute);
  let pages: readonly ChannelPage[] = [];
  let pagesKnown = false;

  const resolve = (path: string, query: Record<string, string>): SiteRoute => {
    const route = matchRoute(path, query, pages);
    if (route) return route;
    if (!pagesKnown) return { name: 'pending', params: {}, path, query };
    // Unknown paths redirect to /404 (the address says so too).
    env().replaceUrl(withBase(routePath('notFound'), base));
    return { name: 'notFound', params: {}, path: routePath('notFound'), query: {} };
  };

  const fromAddress = (): SiteRoute => {
    const location = env().location();
    const below = location ? pathBelowBase(location.pathname, base) : '/';
    return resolve(below ?? routePath('notFound'), queryOf(location?.search ?? ''));
  };

  const $route = atom<SiteRoute>(fromAddress());
  const onPopState = () => $route.set(fromAddress());
  const target = env().eventTarget;
  target?.addEventListener('popstate', onPopState);

  const split = (to: string): { path: string; search: string } => {
    const url = new URL(to, 'http://site.invalid/');
    return { path: url.pathname, search: url.search };
  };

  return {
    $route,
    navigate(to, options = {}) {
      const { path, search } = split(to);
      const url = withBase(path, base) + search;
      if (options.replace) env().replaceUrl(url);
      else env().pushUrl(url);
      $route.set(resolve(path, queryOf(search)));
    },
    href(to) {
      const { path, search } = split(to);
      return withBase(path, base) + search;
    },
    setPages(next) {
      pages = next;
      pagesKnown = true;
      const current = $route.get();
      if (current.name === 'pending') $route.set(resolve(current.path, current.query));
    },
    destroy() {
      target?.removeEventListener('popstate', onPopState);
    },
  };
}
