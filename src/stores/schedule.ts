/**
 * One schedule's event list: its query (the view's options with the filters chosen in it), pagination and the
 * cancellation of stale requests (the stores' one pager, ./pager.ts), and its states (loading, ready, error, and signed-out for a favourites list
 * without a user). It fetches again when the viewer changes what the answer holds: a sign-in or sign-out, a
 * purchase (`$entitlementsVersion`), and for a favourites list a change of user or favourites. Each schedule view
 * owns one; the data below it is shared through the client's dedup and cache.
 */
import { atom, type ReadableAtom } from 'nanostores';
import { EventQuery, MAX_EVENTS_PAGE, channelApi, type Event, type StreamStatus } from '../api/channel-schemas.js';
import { throwIfAborted } from '../api/http.js';
import { dayFilter } from '../lib/time.js';
import { $entitlementsVersion, lastEntitlementsChange } from './commerce/entitlements.js';
import { $favouritesVersion } from './favourites-state.js';
import { createPager, type Page, type PagedItems, type PageRequest, type Settled } from './pager.js';
import { $token, $user, getClient, identified, startSession } from './session.js';

/** Schedule kinds (attribute `kind`) and the stream status each asks for. */
export const SCHEDULE_KINDS = { live: 'live', upcoming: 'upcoming', vod: 'finished', all: undefined } as const;
/** A schedule kind. */
export type ScheduleKind = keyof typeof SCHEDULE_KINDS;
/** Events fetched per page when the schedule has no `limit`. */
export const PAGE_SIZE = 50;

/** What a schedule shows. */
export interface ScheduleQuery {
  kind: ScheduleKind;
  category?: string | undefined;
  team?: string | undefined;
  school?: string | undefined;
  sport?: string | undefined;
  gender?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  /** A location's id: only the events held there. */
  location?: string | undefined;
  /** One calendar day (`YYYY-MM-DD` in the viewer's time zone): only the events starting on it. */
  day?: string | undefined;
  /** School properties (`participant-group-properties`): only events of a team whose school has these values. */
  properties?: Record<string, string> | undefined;
  /** Show at most this many events (still fetched page by page). */
  limit?: number | undefined;
  /** Only the events of the signed-in user's favourites (`GET events/favorite`, same parameters). */
  favourites?: boolean | undefined;
}

/** The filters a viewer can choose in a schedule; '' means "All" (overriding the view's option). */
export interface ScheduleFilters {
  /** A sport category, a team, a school or a venue the view's options (the site's address) narrow to. */
  category?: string | undefined;
  team?: string | undefined;
  school?: string | undefined;
  location?: string | undefined;
  gender?: string | undefined;
  sport?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  /** The calendar's day ('' for every day). */
  day?: string | undefined;
  /** School properties by name ('' for "All"). */
  properties?: Record<string, string> | undefined;
}

/**
 * Every filter of the filter bar set to "All", those the view's options (the site's address) gave included (the
 * calendar's day is its own: Clear filters keeps it).
 */
export const NO_FILTERS: ScheduleFilters = {
  gender: '',
  sport: '',
  city: '',
  state: '',
  category: '',
  team: '',
  school: '',
  location: '',
};

/** The filters that set every filter of the bar to "All", school properties in effect included. */
export function clearedFilters(current: ScheduleFilters): ScheduleFilters {
  return { ...NO_FILTERS, properties: Object.fromEntries(Object.keys(current.properties ?? {}).map((k) => [k, ''])) };
}

/**
 * Query names a school property cannot take: the events list's own (and the keys'); a property so named is not
 * offered as a filter.
 */
export const RESERVED_QUERY_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(EventQuery.shape),
  'api_key',
  'channel_key',
  'no_limit',
  'sort_field',
]);

/** The filters in effect: each chosen one, else the view's option. */
export function effectiveFilters(base: ScheduleQuery, chosen: ScheduleFilters): ScheduleFilters {
  return {
    category: chosen.category ?? base.category,
    team: chosen.team ?? base.team,
    school: chosen.school ?? base.school,
    location: chosen.location ?? base.location,
    gender: chosen.gender ?? base.gender,
    sport: chosen.sport ?? base.sport,
    city: chosen.city ?? base.city,
    state: chosen.state ?? base.state,
    day: chosen.day ?? base.day,
    properties: { ...base.properties, ...chosen.properties },
  };
}

/** The filters that narrow the list (empty ones, "All", dropped; properties only with a value). */
function narrowing(filters: ScheduleFilters): ScheduleFilters {
  const { properties, ...rest } = filters;
  const narrowed: ScheduleFilters = Object.fromEntries(Object.entries(rest).filter(([, v]) => Boolean(v)));
  const chosen = Object.entries(properties ?? {}).filter(([name, v]) => v && !RESERVED_QUERY_NAMES.has(name));
  if (chosen.length) narrowed.properties = Object.fromEntries(chosen.sort(([a], [b]) => a.localeCompare(b)));
  return narrowed;
}

/** Whether a filter narrows the list (an empty list then says so). */
export function narrows(filters: ScheduleFilters): boolean {
  return Object.keys(narrowing(filters)).length > 0;
}

/** The query of a view's options once the viewer's filters are applied. */
export function scheduleQuery(base: ScheduleQuery, chosen: ScheduleFilters): ScheduleQuery {
  return {
    kind: base.kind,
    limit: base.limit,
    ...narrowing(effectiveFilters(base, chosen)),
    ...(base.favourites ? { favourites: true } : {}),
  };
}

/**
 * A schedule's state: its paged events, or (nothing fetched) `signed-out` for a favourites list asked for by a guest,
 * `locked` for one asked for by an account that must first replace its temporary password (the server refuses it
 * everything else). A schedule is never `idle`: it is loading until its view shows a query.
 */
export type ScheduleState = PagedItems<Event, 'signed-out' | 'locked'>;

/** A schedule's store and actions. */
export interface Schedule {
  $state: ReadableAtom<ScheduleState>;
  /** The filters the viewer chose (see `effectiveFilters` for those in effect). */
  $chosen: ReadableAtom<ScheduleFilters>;
  /** Shows the view's options with the filters chosen so far; fetches only when the query changes. */
  show(base: ScheduleQuery): void;
  /** The viewer chose filters (`clearedFilters` clears those of the filter bar); the ones not given stay. */
  filter(chosen: ScheduleFilters): void;
  /** Shows a new query (drops the current list, cancels its requests). */
  setQuery(query: ScheduleQuery): void;
  /** Fetches the next page, if any. */
  loadMore(): void;
  /** Runs the current query again after an error. */
  retry(): void;
  /** Cancels everything (the element was removed). */
  destroy(): void;
}

/**
 * Query parameters of `GET /events` for a schedule query and page. `GET events/favorite` takes the same; of the
 * ones the API names for it (stream_status, start_date, end_date, offset, limit, sort_field, sort_direction) a
 * schedule sets the dates of its calendar's day (`dayFilter`) and no sorting. Empty values are dropped by the
 * client.
 */
export function eventsQuery(query: ScheduleQuery, offset: number): Record<string, string | number | undefined> {
  const stream = SCHEDULE_KINDS[query.kind] as StreamStatus | undefined;
  return {
    stream_status: stream,
    category: query.category,
    team: query.team,
    school: query.school,
    sport: query.sport,
    gender: query.gender,
    city: query.city,
    state: query.state,
    location: query.location,
    ...query.properties,
    ...(query.day ? dayFilter(query.day) : {}),
    offset,
    // Pages stay small whatever the limit: 5,000 events parse and render a page at a time, so the first rows
    // show right after the first answer and no single task handles thousands of events.
    limit: Math.min(PAGE_SIZE, (query.limit ?? MAX_EVENTS_PAGE) - offset),
  };
}

/**
 * What of the viewer a query's answer depends on: signed in or not (access badges), and for a favourites list
 * whose list and whether it is locked, and how many favourites changes.
 */
function viewerKey(query: ScheduleQuery): string {
  const user = $user.get();
  const who = query.favourites
    ? `${user?.id ?? ''}:${user?.temporary_password ? 'locked' : ''}:${$favouritesVersion.get()}`
    : '';
  return `${$token.get() ? 'user' : 'guest'}|${who}`;
}

/** Creates one schedule's store. */
export function createSchedule(): Schedule {
  const pager = createPager<ScheduleQuery, Event, 'signed-out' | 'locked'>(PAGE_SIZE, fetchPage, {
    initial: 'loading',
  });
  const $chosen = atom<ScheduleFilters>({});
  let base: ScheduleQuery | undefined;
  let query: ScheduleQuery | undefined;
  let shown = '';
  let viewer = '';
  let unfollow: (() => void) | undefined;

  /** Fetches again when the viewer changes what the answer holds (see `viewerKey`). */
  function follow(): void {
    if (unfollow) return;
    const onViewer = () => {
      if (query && viewerKey(query) !== viewer) refetch();
    };
    // A purchase (ours, or one the host page reports) may turn paid badges into purchased ones; a sign-in or
    // sign-out the host reports changes nothing the token and user stores do not already follow.
    const onEntitlements = () => {
      if (query && lastEntitlementsChange() === 'purchase') refetch();
    };
    const stops = [
      $token.listen(onViewer),
      $user.listen(onViewer),
      $favouritesVersion.listen(onViewer),
      $entitlementsVersion.listen(onEntitlements),
    ];
    unfollow = () => stops.forEach((stop) => stop());
  }

  function refetch(): void {
    if (query) store.setQuery(query);
  }

  function update(): void {
    if (!base) return;
    const next = scheduleQuery(base, $chosen.get());
    if (!query || JSON.stringify(next) !== shown) store.setQuery(next);
  }

  /** One page of a query; a favourites list is first asked of the user, who may be a guest or locked out. */
  async function fetchPage(
    current: ScheduleQuery,
    { offset, signal }: PageRequest,
  ): Promise<Page<Event> | Settled<'signed-out' | 'locked'>> {
    await startSession();
    if (current.favourites) {
      // Whether there is a user is known only once the profile has answered.
      await identified();
      // A query the viewer moved on from meanwhile asks for nothing (our own check: AbortSignal's is newer than the
      // browsers we support).
      throwIfAborted(signal);
      const user = $user.get();
      if (!user || user.temporary_password) return { settled: user ? 'locked' : 'signed-out' };
    }
    // The page's size is the query's (see eventsQuery), not the pager's.
    const answer = current.favourites
      ? // Not from the 60 s cache: the list follows the favourites, which may have just changed.
        await getClient().call(channelApi.favouriteEvents, {
          query: eventsQuery(current, offset),
          signal,
          cache: false,
        })
      : await getClient().call(channelApi.events, { query: eventsQuery(current, offset), signal });
    return {
      data: answer.data,
      meta: {
        total: Math.min(answer.meta.total, current.limit ?? Number.POSITIVE_INFINITY),
        skipped: answer.meta.skipped,
      },
    };
  }

  const store: Schedule = {
    $state: pager.$state,
    $chosen,
    show(next) {
      base = next;
      update();
    },
    filter(next) {
      const before = $chosen.get();
      const merged = { ...before, ...next };
      // School properties merge one by one: choosing a division keeps the conference.
      if (before.properties || next.properties) merged.properties = { ...before.properties, ...next.properties };
      $chosen.set(merged);
      update();
    },
    setQuery(next) {
      follow();
      query = next;
      shown = JSON.stringify(next);
      viewer = viewerKey(next);
      pager.show(next);
    },
    loadMore() {
      if (query) pager.more();
    },
    retry: refetch,
    destroy() {
      unfollow?.();
      unfollow = undefined;
      pager.destroy();
      query = undefined;
    },
  };
  return store;
}
