/**
 * What the first load's analytics port (port.ts) and the analytics layer (events.ts and the modules it imports)
 * share: the calls the layer answers, the page's address as analytics read it, and the place the layer attaches
 * itself when its module is evaluated. The port fetches the layer with a dynamic import, so the layer must not
 * import the port: what both need is here.
 */
import type { ApiRequestEntry } from '../../api/analytics-schemas.js';
import { env } from '../../lib/env.js';
import { reportedPath } from '../../lib/url.js';

/** An item of a list shown, as `view_item_list` lists it. */
export interface ListedItem {
  id: string;
  name: string;
  category?: string | undefined;
}

/** A page shown: the site's route, or a page of standalone elements. */
export interface PageView {
  /** The path (a shared clip's uuid is left out). */
  path: string;
  /** The path of the page before, in the site. */
  previous?: string | undefined;
  title: string;
  /** The site's route name. */
  route?: string | undefined;
  /** The tags on a page of standalone elements. */
  elements?: string[] | undefined;
  /** The page's address for analytics when the page was shown (default: now). */
  location?: string | undefined;
}

/** How a viewer signed in: by email and password, by registering, or with a social provider (its name). */
export type LoginMethod = 'email' | 'registration' | (string & {});

/** What the first load asks of the analytics layer. */
export interface AnalyticsLayer {
  /** An element's code started on this page. */
  elementStarted(tag: string): void;
  /** Start-up has the channel's settings; `trk` is the landing address's tracker, read then. */
  startAnalytics(trk?: string | null): void;
  /** A sign-in. */
  loginEvent(method: LoginMethod): void;
  /** One API call made. */
  trackApiCall(entry: ApiRequestEntry): void;
  /** A list shown to the viewer. */
  listViewed(listId: string, listName: string, items: readonly ListedItem[]): void;
  /** A site's route shown, with the tracker its address carries; no view while the page refuses analytics. */
  routeShown(trk: string | undefined, view: PageView | undefined): void;
}

/**
 * The page's address as analytics see it: origin and path (a shared clip's uuid left out), never the query or hash
 * (they may carry one-time values).
 */
export function pageUrl(): string | undefined {
  const page = env().location();
  return page ? page.origin + reportedPath(page.pathname) : undefined;
}

/** The tracker (`trk`) in the page's address now, if any. */
export function landingTracker(): string | null {
  try {
    const page = env().location();
    return page ? new URLSearchParams(page.search).get('trk') : null;
  } catch {
    return null;
  }
}

let attached: AnalyticsLayer | undefined;
let taker: ((layer: AnalyticsLayer) => void) | undefined;

/** The layer's module attaches itself here when it is evaluated, however it was loaded; the port takes it. */
export function attachAnalyticsLayer(layer: AnalyticsLayer): void {
  attached = layer;
  taker?.(layer);
}

/** The port's side: `take` gets the layer when it attaches (at once if it already has). */
export function whenLayerAttached(take: (layer: AnalyticsLayer) => void): void {
  taker = take;
  if (attached) take(attached);
}
