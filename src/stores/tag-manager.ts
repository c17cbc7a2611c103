/**
 * The tag manager (gtag.js) of the channel's tracking id (settings 'google-analytics'): loaded from start-up, once
 * analytics may run (consent, no player starting, an idle moment: see analytics/gate.ts), with a `gtag` stub that
 * holds events pushed before the script arrives. Never awaited: tracking never holds up what the viewer is doing.
 * The page is reached only through the environment (script injection, base URL, clock); `dataLayer` and `gtag` are
 * the globals gtag.js itself reads, so they live on the global object.
 */
import { env } from '../lib/env.js';
import { redactUrl } from '../lib/url.js';
import { scriptOrigins, scriptUrl, TAG_MANAGER_ORIGIN } from '../lib/url-rules.js';
import { onAnalyticsConsent, whenAnalyticsMay } from './analytics/gate.js';
import { analyticsAllowed, attributedPartner } from './analytics/datalake.js';
import { $config } from './config.js';
import { $settings } from './session-state.js';

/** The page's gtag function: `gtag('event', name, params)`. */
export type Gtag = (...args: unknown[]) => void;

/** The tag manager's default script, used when the channel names none. */
export const GTAG_URL = `${TAG_MANAGER_ORIGIN}/gtag/js`;

let gtagFor: string | undefined;
/** The tag id and script URL last refused (warned about once). */
let refusedFor: string | undefined;

/**
 * The page's gtag, loading the tag manager script once per tag id. The script comes only from Google's tag manager
 * or an origin the page lists in `allowed` (its `data-script-origins`): a `gtag_url` elsewhere loads nothing (a
 * console warning says why), so an API answer cannot run a script of its choice on the host page.
 */
export function tagManager(id: string, url: string | null | undefined, allowed?: string): Gtag | undefined {
  // No document (a server rendering the page): nothing to load a script into.
  if (env().baseUrl() === undefined) return undefined;
  const { origins, refused } = scriptOrigins(allowed);
  const src = scriptUrl(url || GTAG_URL, origins);
  if (!src) {
    if (refusedFor !== `${id} ${url}`) {
      refusedFor = `${id} ${url}`;
      env().logger.warn(
        `channel-elements: the tag manager script ${redactUrl(String(url)).slice(0, 200)} is not loaded: it must come from ${[TAG_MANAGER_ORIGIN, ...origins].join(' or ')} (add its origin to data-script-origins).${refused.length ? ` data-script-origins names no origin in: ${refused.join(' ')}.` : ''}`,
      );
    }
    return undefined;
  }
  const page = globalThis as unknown as { dataLayer?: unknown[]; gtag?: Gtag };
  if (!Array.isArray(page.dataLayer)) page.dataLayer = [];
  // gtag.js reads the `arguments` objects it finds in dataLayer, not arrays: the stub must push them as is.
  if (typeof page.gtag !== 'function') {
    page.gtag = function gtag() {
      // eslint-disable-next-line prefer-rest-params -- gtag.js reads `arguments` objects (see above), not arrays
      page.dataLayer!.push(arguments);
    };
  }
  if (gtagFor !== id) {
    gtagFor = id;
    if (!src.searchParams.has('id')) src.searchParams.set('id', id);
    env().injectScript(src.href);
    page.gtag('js', new Date(env().now()));
    // Page views are ours to send (one per route of the site, one per page of standalone elements).
    page.gtag('config', id, { send_page_view: false });
  }
  return page.gtag;
}

/**
 * The channel's gtag now (loading it if needed), or undefined when the channel has no tracking id or the page may
 * send no analytics (a localhost page that named no analytics URL).
 */
function channelGtag(): Gtag | undefined {
  const settings = $settings.get();
  const config = $config.get();
  const id = settings?.['google-analytics'];
  return id && config && analyticsAllowed(config) ? tagManager(id, settings.gtag_url, config.scriptOrigins) : undefined;
}

/** Loads the channel's tag manager once analytics may (start-up calls this once settings are in). */
export function startTagManager(): void {
  whenAnalyticsMay(() => void channelGtag());
}

/**
 * Sends an event to the channel's tag manager once analytics may: `page_view`, `login`,
 * `view_item_list` and the checkout's e-commerce events, each with the page's `partner` when it has one. Ids, names
 * and amounts only. Never throws.
 */
export function gtagEvent(name: string, params: Record<string, unknown>): void {
  whenAnalyticsMay(() => {
    try {
      const partner = attributedPartner();
      channelGtag()?.('event', name, partner ? { ...params, partner } : params);
    } catch (error) {
      env().logger.warn(`channel-elements: the tag manager event ${name} could not be sent: ${String(error)}`);
    }
  });
}

// A page that withdraws consent after the tag manager loaded: tell it, so it stores and sends nothing more.
onAnalyticsConsent((state) => {
  if (state !== 'refused' || gtagFor === undefined) return;
  const gtag = (globalThis as unknown as { gtag?: Gtag }).gtag;
  try {
    gtag?.('consent', 'update', { analytics_storage: 'denied', ad_storage: 'denied' });
  } catch {
    // The page's gtag is not ours to fix.
  }
});

/** Forgets the loaded tag id (tests). */
export function resetTagManager(): void {
  gtagFor = undefined;
  refusedFor = undefined;
}
