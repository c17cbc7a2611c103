/**
 * The page, sign-in and list events of the analytics layer, to the datalake (`visit_page`, `login`) and the tag
 * manager (`page_view`, `login`, `view_item_list`), and its start-up: the outer tracker of the landing
 * address, the tag manager, and the page view of a page of standalone elements (once per page load; the site sends
 * one per navigation instead). Everything waits for `whenAnalyticsMay`; nothing throws.
 */
import type { DatalakeEventName } from '../../api/analytics-schemas.js';
import { env } from '../../lib/env.js';
import { reportedPath } from '../../lib/url.js';
import { startTagManager, gtagEvent } from '../tag-manager.js';
import {
  commonFields,
  cut,
  datalakeSession,
  datalakeTarget,
  keepOuterTracker,
  pageUrl,
  postDatalake,
  storeOuterTracker,
  viewerFields,
} from './datalake.js';
import { analyticsConsent, onAnalyticsConsent, whenAnalyticsMay } from './gate.js';
import {
  attachAnalyticsLayer,
  landingTracker,
  type AnalyticsLayer,
  type ListedItem,
  type LoginMethod,
  type PageView,
} from './layer.js';
import { trackApiCall } from './tracker.js';

export type { ListedItem, LoginMethod, PageView };

/** Sends one `POST datalake/event/` once analytics may. */
export function datalakeEvent(event: DatalakeEventName, extras: Record<string, unknown> = {}): void {
  whenAnalyticsMay(() => {
    const target = datalakeTarget();
    if (!target) return;
    void datalakeSession(target).then((session) => {
      if (session)
        void postDatalake(target, 'event/', { ...commonFields(target), ...viewerFields(session), event, ...extras });
    });
  });
}

/** Sends a page view: `visit_page` to the datalake with the previous page, `page_view` to the tag manager. */
export function pageView(view: PageView): void {
  const path = reportedPath(view.path);
  const previous = view.previous === undefined ? undefined : reportedPath(view.previous);
  gtagEvent('page_view', {
    page_title: cut(view.title),
    // The address in the bar (the site's base included), without its query; the path is the site's route.
    page_location: cut(view.location ?? pageUrl()),
    page_path: path,
    page_referrer: previous,
  });
  datalakeEvent('visit_page', {
    page: cut(path),
    previous_page: cut(previous) ?? null,
    title: cut(view.title) ?? null,
    ...(view.route ? { route: view.route } : {}),
    ...(view.elements ? { elements: view.elements } : {}),
  });
}

/**
 * A sign-in: `login` with its method to the datalake (after the user is set, so it carries their id) and to the tag
 * manager. A registration, which signs the new viewer in, is a `login` with the method `registration` in both: the
 * spec's tag-manager events name no other.
 */
export function loginEvent(method: LoginMethod): void {
  const name = cut(method) ?? 'email';
  gtagEvent('login', { method: name });
  datalakeEvent('login', { method: name });
}

/** The most items one `view_item_list` lists. */
export const LIST_ITEMS_MAX = 50;

/**
 * A list shown to the viewer (a schedule's events, a library rail, category or search results): `view_item_list`
 * with the list's id and name and its items in order. The caller sends it once per list shown.
 */
export function listViewed(listId: string, listName: string, items: readonly ListedItem[]): void {
  if (items.length === 0) return;
  gtagEvent('view_item_list', {
    item_list_id: cut(listId),
    item_list_name: cut(listName),
    items: items.slice(0, LIST_ITEMS_MAX).map((item, index) => ({
      item_id: item.id,
      item_name: cut(item.name),
      ...(item.category ? { item_category: cut(item.category) } : {}),
      index,
    })),
  });
}

// ---------------------------------------------------------------- start-up

const tags = new Set<string>();
let started = false;

/** An element's code started on this page (each tag's chunk says so once). */
export function elementStarted(tag: string): void {
  tags.add(tag);
}

/**
 * Once per page, when start-up has the channel's settings: keeps the landing address's `trk`, loads the tag
 * manager, and sends the page view of a page of standalone elements (unless a `<channel-app>` is there, which sends
 * its own per navigation).
 */
export function startAnalytics(landingTrk?: string | null): void {
  if (started) return;
  started = true;
  keepOuterTracker(landingTrk === undefined ? landingTracker() : landingTrk, analyticsConsent() === 'granted');
  startTagManager();
  whenAnalyticsMay(() => {
    if (tags.has('channel-app')) return;
    const where = env().location();
    pageView({ path: where?.pathname ?? '/', title: env().pageTitle(), elements: [...tags].sort() });
  });
}

// Consent given later: the tracker seen in the landing address may be stored now.
onAnalyticsConsent((state) => {
  if (state === 'granted') storeOuterTracker();
});

/** The page's address for analytics (origin and path). */
export { pageUrl };

/**
 * A site's route shown: the tracker its address carries is kept (stored at once with consent), then its page view
 * (`visit_page` with the previous page, `page_view`).
 */
export function routeShown(trk: string | undefined, view: PageView | undefined): void {
  keepOuterTracker(trk ?? null, analyticsConsent() === 'granted');
  if (view) pageView(view);
}

/** What the first load's calls (src/stores/analytics/port.ts) come to, from the moment this module is evaluated. */
export const analyticsLayer: AnalyticsLayer = {
  elementStarted,
  startAnalytics,
  loginEvent,
  trackApiCall,
  listViewed,
  routeShown,
};
attachAnalyticsLayer(analyticsLayer);

/** Forgets the page's start (tests). */
export function resetAnalyticsEvents(): void {
  tags.clear();
  started = false;
}
