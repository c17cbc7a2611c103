/**
 * The analytics layer's door in the code every page loads first. The layer itself (the datalake, the API tracker, the
 * tag manager and the consent gate, about 5 KB gzip) is a chunk of its own, fetched only after the page's first
 * content: when a list first shows items (a schedule's cards, a library rail), or, on a page that shows none,
 * LAYER_DEFER_MS after start-up once the main thread is idle. The calls made before it is there wait here in order,
 * and the layer makes them as it would have (its own rules then hold: consent, a player's first frame, idle time).
 * Code that imports the layer statically (the player, the checkout, tests) attaches it at once.
 *
 * What waits is bounded like the layer's own queue; a page left before the layer loaded reports nothing of its first
 * seconds (the API tracker's page-hide beacon needs the layer). Never throws.
 */
import type { ApiRequestEntry } from '../../api/contract.js';
import { env } from '../../lib/env.js';

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
}

/** How a viewer signed in: by email and password, by registering, or with a social provider (its name). */
export type LoginMethod = 'email' | 'registration' | (string & {});

/** What the first load asks of the analytics layer. */
export interface AnalyticsLayer {
  /** An element's code started on this page. */
  elementStarted(tag: string): void;
  /** Start-up has the channel's settings. */
  startAnalytics(): void;
  /** A sign-in. */
  loginEvent(method: LoginMethod): void;
  /** One API call made. */
  trackApiCall(entry: ApiRequestEntry): void;
  /** A list shown to the viewer. */
  listViewed(listId: string, listName: string, items: readonly ListedItem[]): void;
  /** A site's route shown, with the tracker its address carries. */
  routeShown(trk: string | undefined, view: PageView): void;
}

/** How long after start-up a page that shows no list loads the layer anyway (then at an idle moment). */
export const LAYER_DEFER_MS = 3_000;
/** The most calls that wait for the layer (the oldest go first). */
const WAITING_MAX = 400;

let layer: AnalyticsLayer | undefined;
let waiting: ((layer: AnalyticsLayer) => void)[] = [];
let loading: Promise<unknown> | undefined;
let deferred = false;
/** A list was shown (the layer's fetch is on its way). */
let shown = false;

/** The layer's module attaches itself here when it is evaluated, however it was loaded. */
export function attachAnalyticsLayer(loaded: AnalyticsLayer): void {
  layer = loaded;
  const calls = waiting;
  waiting = [];
  for (const call of calls) run(call);
}

function run(call: (layer: AnalyticsLayer) => void): void {
  try {
    call(layer!);
  } catch {
    // Analytics never break what the viewer is doing.
  }
}

function later(call: (layer: AnalyticsLayer) => void): void {
  if (layer) return run(call);
  waiting.push(call);
  if (waiting.length > WAITING_MAX) waiting.shift();
}

/** Fetches the layer (once; again after a failure, at the next occasion). */
export function loadAnalyticsLayer(): void {
  if (layer || loading) return;
  loading = import('./events.js').then(
    (loaded) => attachAnalyticsLayer(loaded.analyticsLayer),
    () => {
      // A network fault: the calls keep waiting, and the next occasion tries again.
      loading = undefined;
    },
  );
}

export const elementStarted = (tag: string) => later((l) => l.elementStarted(tag));

/** The first idle moment after `delay` ms (the page has painted what it had): the layer is fetched then. */
function loadWhenIdle(delay: number): void {
  const clock = env();
  clock.setTimeout(() => clock.whenIdle(loadAnalyticsLayer, 2_000), delay);
}

/** Start-up has the settings: the layer comes after the first content, or LAYER_DEFER_MS later when idle. */
export function startAnalytics(): void {
  later((l) => l.startAnalytics());
  if (deferred) return;
  deferred = true;
  loadWhenIdle(LAYER_DEFER_MS);
}

export const loginEvent = (method: LoginMethod) => later((l) => l.loginEvent(method));
export const trackApiCall = (entry: ApiRequestEntry) => later((l) => l.trackApiCall(entry));

/** A list shown: the page's first content is there, and the layer is fetched once it has been painted. */
export function listViewed(listId: string, listName: string, items: readonly ListedItem[]): void {
  later((l) => l.listViewed(listId, listName, items));
  if (!layer && !shown) loadWhenIdle(0);
  shown = true;
}

export const routeShown = (trk: string | undefined, view: PageView) => later((l) => l.routeShown(trk, view));

/** Detaches the layer and forgets the calls waiting and the loads asked for (tests of this module). */
export function resetAnalyticsPort(): void {
  layer = undefined;
  loading = undefined;
  waiting = [];
  deferred = false;
  shown = false;
}
