/**
 * Which link clicks the site handles itself: a plain left click on a link to a path of the site (same origin, under
 * its base) navigates in the app; a modified click (Ctrl, Cmd, Shift, Alt), another button, a link that opens
 * elsewhere (`target`, `download`), a link to another origin or outside the base, and a click someone already
 * handled are the browser's.
 */
import { pathBelowBase } from '../../lib/routes.js';

/** What the decision reads of a click. */
export interface LinkClick {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
}

/** What the decision reads of the link. */
export interface LinkTarget {
  href: string;
  target?: string | null | undefined;
  download?: boolean | undefined;
}

/**
 * The site path (below `base`, with its query) the click should open in the app, or undefined to leave it to the
 * browser. `pageOrigin` is the origin of the page the site runs on.
 */
export function inAppPath(click: LinkClick, link: LinkTarget, pageOrigin: string, base: string): string | undefined {
  if (click.defaultPrevented || click.button !== 0) return undefined;
  if (click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return undefined;
  if (link.download || (link.target && link.target !== '_self')) return undefined;
  let url: URL;
  try {
    url = new URL(link.href, pageOrigin);
  } catch {
    return undefined;
  }
  if (url.origin !== pageOrigin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  const path = pathBelowBase(url.pathname, base);
  return path === undefined ? undefined : path + url.search;
}

/** A URL an `<img>` or a link may use (the one rule of src/lib/url.ts, which the players' posters follow too). */
export { safeUrl } from '../../lib/url.js';

/**
 * Where a link from the channel (a menu entry, a slide) goes: a site path stays in the site (`external: false`,
 * its `href` still to go through the site's base), an http(s) address leaves it, anything else goes nowhere.
 */
export function channelLink(link: string | null | undefined): { href: string; external: boolean } | undefined {
  if (!link) return undefined;
  if (link.startsWith('/') && !link.startsWith('//')) return { href: link, external: false };
  return /^https?:\/\//i.test(link) ? { href: link, external: true } : undefined;
}
