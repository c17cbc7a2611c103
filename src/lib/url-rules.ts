/**
 * The rules a URL from an API answer passes before it reaches a sink where it could run code or take the viewer
 * away: one rule per kind of sink, whatever the channel's API sends (the reference server checks these URLs too;
 * another API may not). Pictures and media sources follow `safeUrl` (url.ts), the channel's menu and slide links
 * `channelLink` (components/app/links.ts).
 * - a script (the tag manager's `gtag_url`): from Google's tag manager, or from an origin the page itself allows
 *   (`data-script-origins`);
 * - a navigation (`location.assign`: the customer portal, a social sign-in's authorize URL): http(s) only;
 * - a download (an event's or a clip's MP4): https on any host the API names (a storage host: a download is a
 *   navigation, never a script sink), and plain http only on the channel's media origins, the API's own and those of
 *   the item's media (a development server).
 * Each takes absolute URLs only: an answer's URL names its scheme and host, so a path is never resolved against a
 * page it was not written for.
 * A URL that fails its rule gives undefined: the caller shows its failure message and goes nowhere.
 */

/** Google's tag manager: the one origin any page takes the tag manager's script from. */
export const TAG_MANAGER_ORIGIN = 'https://www.googletagmanager.com';

/**
 * The absolute URL `url` is, or undefined: a path, `//host` or anything a browser would resolve against the page is
 * not one (an answer's URL names its scheme and host), nor is a string that does not parse.
 */
function parse(url: unknown, base?: string): URL | undefined {
  if (typeof url !== 'string' || url.trim() === '') return undefined;
  try {
    return new URL(url, base);
  } catch {
    return undefined;
  }
}

const web = (url: URL) => url.protocol === 'https:' || url.protocol === 'http:';

/** A URL the browser may go to (`location.assign`): absolute http(s) only, never `javascript:`, `data:` or a path. */
export function navigationUrl(url: unknown): string | undefined {
  const parsed = parse(url);
  return parsed && web(parsed) ? parsed.href : undefined;
}

/**
 * The channel's own site (settings `site_url`) as an origin and path without its trailing slashes, if it is an
 * absolute http(s) URL: links and redirect URIs are built on it, so anything else (`javascript:`...) is not one.
 */
export function siteBase(url: unknown): string | undefined {
  return navigationUrl(typeof url === 'string' ? url.trim() : url)?.replace(/\/+$/, '');
}

/** A file to download: absolute https on any host, or http on one of `origins` (see `mediaOrigins`). */
export function downloadUrl(url: unknown, origins: readonly string[]): string | undefined {
  const parsed = parse(url);
  return parsed?.protocol === 'https:' || (parsed && web(parsed) && origins.includes(parsed.origin))
    ? parsed.href
    : undefined;
}

/** The channel's media origins for an item: the API's, and those of the item's own media URLs (relative: the API's). */
export function mediaOrigins(apiUrl: string, media: readonly { url: string }[]): string[] {
  const origins: string[] = [];
  for (const url of [apiUrl, ...media.map((m) => m.url)]) {
    const parsed = parse(url, apiUrl);
    if (parsed && web(parsed)) origins.push(parsed.origin);
  }
  return origins;
}

/** A script to load: an absolute URL on the tag manager's origin or one of `allowed` (origins the page listed). */
export function scriptUrl(url: unknown, allowed: readonly string[]): URL | undefined {
  const parsed = parse(url);
  return parsed && web(parsed) && [TAG_MANAGER_ORIGIN, ...allowed].includes(parsed.origin) ? parsed : undefined;
}

/**
 * The origins a page's `data-script-origins` lists (space- or comma-separated): https origins, or http ones on the
 * machine itself (localhost, a development page). Anything else is left out, and named in `refused`.
 */
export function scriptOrigins(list: string | null | undefined): { origins: string[]; refused: string[] } {
  const origins: string[] = [];
  const refused: string[] = [];
  for (const item of (list ?? '').split(/[\s,]+/).filter(Boolean)) {
    const parsed = parse(item);
    const local = parsed?.protocol === 'http:' && /^(localhost|127\.0\.0\.1|\[::1\])$/.test(parsed.hostname);
    if (parsed && (parsed.protocol === 'https:' || local) && parsed.origin === item.replace(/\/$/, ''))
      origins.push(parsed.origin);
    else refused.push(item);
  }
  return { origins, refused };
}
