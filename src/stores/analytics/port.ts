/**
 * The analytics layer's door in the code every page loads first. The layer itself (the datalake, the API tracker, the
 * tag manager and the consent gate, about 5 KB gzip) is a chunk of its own, fetched only after the page's first
 * content: when a list first shows items (a schedule's cards, a library rail), or, on a page that shows none,
 * LAYER_DEFER_MS after start-up once the main thread is idle. The calls made before it is there wait here in order,
 * and the layer makes them as it would have (its own rules then hold: consent, a player's first frame, idle time).
 * Code that imports the layer statically (the player, the checkout, tests) attaches it at once.
 *
 * The consent rules hold here too: while the page refuses, what would be reported is dropped at once (a refusal also
 * drops what waits), as the layer would have; the start-up calls and the landing address's tracker always wait. What
 * the layer would read later is read at the call: the landing address's `trk`, a route's address. API calls wait two
 * batches at most, like the tracker's own queue. A page left before the layer came reports nothing of its first
 * seconds (the API tracker's page-hide beacon needs the layer). Never throws.
 */
import { API_TRACKER_BATCH } from '../../api/analytics-limits.js';
import type { ApiRequestEntry } from '../../api/analytics-schemas.js';
import { consentRecord, onConsent } from '../../lib/consent.js';
import { env } from '../../lib/env.js';
import {
  landingTracker,
  pageUrl,
  whenLayerAttached,
  type AnalyticsLayer,
  type ListedItem,
  type LoginMethod,
  type PageView,
} from './layer.js';

export type { AnalyticsLayer, ListedItem, LoginMethod, PageView };

/** How long after start-up a page that shows no list loads the layer anyway (then at an idle moment). */
export const LAYER_DEFER_MS = 3_000;
/** How often a layer that could not be fetched is asked for again (LAYER_DEFER_MS apart). */
const LOAD_TRIES = 3;

/** A waiting call: the start-up's (always kept), an API call's (two batches at most), or a report. */
type Kind = 'start' | 'api' | 'report';

let layer: AnalyticsLayer | undefined;
let waiting: { kind: Kind; call: (layer: AnalyticsLayer) => void }[] = [];
let loading: Promise<unknown> | undefined;
let failures = 0;
let deferred = false;
/** A list was shown (the layer's fetch is on its way). */
let shown = false;

const refused = () => consentRecord().granted === false;

// A refusal drops what would be reported; the start-up calls still wait (the layer then keeps quiet itself).
onConsent((granted) => {
  if (!granted) waiting = waiting.filter((entry) => entry.kind === 'start');
});

/** Takes the layer (attached by its module when evaluated, or loaded here) and makes the calls that wait. */
function take(loaded: AnalyticsLayer): void {
  layer = loaded;
  const calls = waiting;
  waiting = [];
  for (const { call } of calls) run(call);
}

whenLayerAttached(take);

function run(call: (layer: AnalyticsLayer) => void): void {
  try {
    call(layer!);
  } catch {
    // Analytics never break what the viewer is doing.
  }
}

function later(kind: Kind, call: (layer: AnalyticsLayer) => void): void {
  if (kind !== 'start' && refused()) return;
  if (layer) return run(call);
  waiting.push({ kind, call });
  if (kind === 'api') {
    const calls = waiting.filter((entry) => entry.kind === 'api');
    if (calls.length > 2 * API_TRACKER_BATCH) waiting.splice(waiting.indexOf(calls[0]!), 1);
  }
}

/** Fetches the layer (once; after a failure, again LAYER_DEFER_MS later, LOAD_TRIES times in all). */
export function loadAnalyticsLayer(): void {
  if (layer || loading) return;
  loading = import('./events.js').then(
    (loaded) => take(loaded.analyticsLayer),
    () => {
      // A network fault: the calls keep waiting for the next try.
      loading = undefined;
      if (++failures < LOAD_TRIES) loadWhenIdle(LAYER_DEFER_MS);
    },
  );
}

/** The first idle moment after `delay` ms (the page has painted what it had): the layer is fetched then. */
function loadWhenIdle(delay: number): void {
  const clock = env();
  clock.setTimeout(() => clock.whenIdle(loadAnalyticsLayer, 2_000), delay);
}

export const elementStarted = (tag: string) => later('start', (l) => l.elementStarted(tag));

/** Start-up has the settings: the layer comes after the first content, or LAYER_DEFER_MS later when idle. */
export function startAnalytics(): void {
  const trk = landingTracker();
  later('start', (l) => l.startAnalytics(trk));
  if (deferred) return;
  deferred = true;
  loadWhenIdle(LAYER_DEFER_MS);
}

export const loginEvent = (method: LoginMethod) => later('report', (l) => l.loginEvent(method));
export const trackApiCall = (entry: ApiRequestEntry) => later('api', (l) => l.trackApiCall(entry));

/** A list shown: the page's first content is there, and the layer is fetched once it has been painted. */
export function listViewed(listId: string, listName: string, items: readonly ListedItem[]): void {
  later('report', (l) => l.listViewed(listId, listName, items));
  if (!layer && !shown) loadWhenIdle(0);
  shown = true;
}

/** A site's route shown: its tracker is kept whatever the consent; its page view, with its address now. */
export function routeShown(trk: string | undefined, view: PageView): void {
  const shownView = refused() ? undefined : { ...view, location: pageUrl() };
  later('start', (l) => l.routeShown(trk, shownView));
}

/** Detaches the layer and forgets the calls waiting and the loads asked for (tests of this module). */
export function resetAnalyticsPort(): void {
  layer = undefined;
  loading = undefined;
  waiting = [];
  failures = 0;
  deferred = false;
  shown = false;
}
