/**
 * The tag manager (gtag.js): a `gtag` stub and the script loaded once per tag id, lazily, the first time something
 * is sent. Never awaited: tracking never holds up what the viewer is doing. The page is reached only through the
 * environment (script injection, base URL, clock); `dataLayer` and `gtag` are the globals gtag.js itself reads, so
 * they live on the global object.
 */
import { env } from '../lib/env.js';

/** The page's gtag function: `gtag('event', name, params)`. */
export type Gtag = (...args: unknown[]) => void;

/** The tag manager's default script, used when the channel names none. */
export const GTAG_URL = 'https://www.googletagmanager.com/gtag/js';

let gtagFor: string | undefined;

/** The page's gtag, loading the tag manager script once (lazily: only when a checkout event happens). */
export function tagManager(id: string, url: string | null | undefined): Gtag | undefined {
  const base = env().baseUrl();
  if (base === undefined) return undefined;
  const page = globalThis as unknown as { dataLayer?: unknown[]; gtag?: Gtag };
  page.dataLayer ??= [];
  // gtag.js reads the `arguments` objects it finds in dataLayer, not arrays: the stub must push them as is.
  page.gtag ??= function gtag() {
    // eslint-disable-next-line prefer-rest-params
    page.dataLayer!.push(arguments);
  };
  if (gtagFor !== id) {
    gtagFor = id;
    const src = new URL(url || GTAG_URL, base);
    if (!src.searchParams.has('id')) src.searchParams.set('id', id);
    env().injectScript(src.href);
    page.gtag('js', new Date(env().now()));
    page.gtag('config', id, { send_page_view: false });
  }
  return page.gtag;
}
