/**
 * What the site's pages get from `<channel-app>`: the current route, navigation, the channel's menu and pages,
 * and the page heading every page renders first (it names the page in `document.title`, takes focus after a
 * navigation and is announced to screen readers). Pages never touch the address bar or the document themselves.
 */
import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import type { MenuItem, Page } from '../../api/site-schemas.js';
import type { Route } from '../../lib/routes.js';

/** The site, as its pages see it. */
export interface Site {
  /** The route being shown (never pending: pages render once the route is known). */
  route: Route;
  /** Goes to a site path (below the base, with its query), e.g. `navigate('/watch/12')`. */
  navigate(to: string, options?: { replace?: boolean }): void;
  /** The page address of a site path, for `href` (in-app clicks on it navigate without a reload). */
  href(to: string): string;
  /** The channel's menu (`GET menu`). */
  menu: readonly MenuItem[];
  /** The channel's content pages (`GET pages`). */
  pages: readonly Page[];
  /** Called by `PageHeading` once a page's heading is on screen. */
  headingShown(heading: HTMLElement, title: string): void;
}

const Ctx = createContext<Site | null>(null);

/** Provides the site to its pages. */
export const SiteProvider = Ctx.Provider;

/** The site of the page being rendered. */
export function useSite(): Site {
  const site = useContext(Ctx);
  if (!site) throw new Error('useSite() outside <channel-app>');
  return site;
}

/** Adopts a page's CSS into the site's shadow root while the page is shown (the shell's `useStyles`). */
export { useStyles as useSiteStyles } from '../ui/context.js';

/**
 * A page's main heading (`<h1>`): every page renders one as soon as it knows its title (the title of a page still
 * loading is the route's name). It sets `document.title` to "title | channel", and after a navigation the site
 * moves focus to it and announces it.
 */
export function PageHeading(props: { title: string; children?: ReactNode; className?: string }): ReactNode {
  const site = useSite();
  const ref = useRef<HTMLHeadingElement>(null);
  const { title } = props;
  useEffect(() => {
    if (ref.current) site.headingShown(ref.current, title);
  }, [site, title]);
  return (
    <h1 ref={ref} tabIndex={-1} className={props.className ?? 'page-title'} part="page-title">
      {props.children ?? title}
    </h1>
  );
}
