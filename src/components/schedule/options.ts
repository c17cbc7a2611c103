/** What a schedule view shows and how: its typed options, whoever builds them (the tag's attributes, a site page). */
import type { ScheduleKind } from '../../stores/schedule.js';

/** The options of a schedule view. */
export interface ScheduleOptions {
  kind: ScheduleKind;
  category?: string | undefined;
  team?: string | undefined;
  school?: string | undefined;
  sport?: string | undefined;
  gender?: 'male' | 'female' | undefined;
  city?: string | undefined;
  state?: string | undefined;
  /** A location's id: only the events held there. */
  location?: string | undefined;
  /** One day (`YYYY-MM-DD` in the viewer's time zone): only its events; with `showCalendar`, the calendar's first choice. */
  day?: string | undefined;
  /** School properties (`participant-group-properties`): only events of a team whose school has these values. */
  properties?: Record<string, string> | undefined;
  layout: 'grid' | 'list';
  view: 'card' | 'table';
  /** Show at most this many events (1 to `MAX_EVENTS_PAGE`). */
  limit?: number | undefined;
  /** The link of an event: a relative or http(s) template with `{id}`. */
  watchUrl: string;
  showFilters: boolean;
  /** Shows the calendar: a week strip to choose one day (or all days). */
  showCalendar: boolean;
  /** Only the events of the signed-in user's favourites. */
  favourites: boolean;
  /** Write schema.org JSON-LD for the events shown into the host document (the tag's `structured-data`). */
  structuredData?: boolean | undefined;
}

/** Default link template of events. */
export const DEFAULT_WATCH_URL = '/watch/{id}';

/** Default link template of library items (`kind="library"`): the site's route. */
export const DEFAULT_LIBRARY_URL = '/watch_library/{id}';

/** The options of a schedule nobody configured: upcoming events as a grid of cards. */
export const SCHEDULE_DEFAULTS: ScheduleOptions = {
  kind: 'upcoming',
  layout: 'grid',
  view: 'card',
  watchUrl: DEFAULT_WATCH_URL,
  showFilters: false,
  showCalendar: false,
  favourites: false,
  structuredData: false,
};
