/** `<channel-schedule>`: the channel's live, upcoming and on-demand events. */
import { Schedule } from '../src/components/schedule/Schedule.js';
import { SCHEDULE_PROPS } from '../src/components/schedule/attributes.js';
import { applyConfig } from '../src/start.js';
import { elementStarted } from '../src/stores/analytics/events.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * @attr kind - live | upcoming (default) | vod | all | library (the video-on-demand library: rails, categories,
 *   search; of the other attributes only watch-url, category and lang apply)
 * @attr category - event category id or alias (library: a library category id, alias or name to open first)
 * @attr team - participant id or alias
 * @attr school - participant group id or alias
 * @attr sport - sport name (e.g. basketball)
 * @attr gender - male | female
 * @attr city - location city
 * @attr state - location state
 * @attr layout - grid (default) | list
 * @attr view - card (default) | table
 * @attr limit - show at most this many events (1-5000), fetched at once
 * @attr watch-url - link template, default /watch/{id} (library: /watch_library/{id})
 * @attr show-filters - show the gender, sport, city and state filters
 * @attr favorites - only the events of the signed-in user's favourites (`GET events/favorite`); a guest is
 *   asked to sign in
 * @fires channel-event-select - an event was activated; cancelable (detail.id)
 * @fires channel-vod-select - a library item was activated; cancelable (detail.id)
 * @fires channel-login-request - a guest pressed a star, or the sign-in button of a favorites list
 *   (detail.reason 'favourite', detail.eventId for a star)
 * @csspart schedule, title, count, filters, list, table, event, event-link, card, event-name, row, badge,
 *   badge-live, badge-free, badge-paid, badge-purchased, favourite, favourite-following (a star of a followed
 *   event), favourite-popover, favourite-toggle, more, loading, empty, error, sign-in, sign-in-button, toasts, toast;
 *   library: library, search, search-input, search-status, categories, category, category-all, category-items,
 *   results, library-rail, library-rail-title, library-rail-track, rail-pause, rail-previous, rail-next,
 *   library-grid, library-card, library-card-locked, library-card-media, library-card-preview,
 *   library-card-duration, library-card-title, library-card-date, library-card-lock, lock-sign-in, lock-membership
 * @cssprop --channel-accent, --channel-font-family, --channel-font-size, --channel-radius, --channel-surface,
 *   --channel-line, --channel-muted, --channel-text, --channel-card-background, --channel-card-min-width,
 *   --channel-favourite (a followed star), --channel-popover-background
 */
export const createScheduleElement = () => makeElement(Schedule, SCHEDULE_PROPS);

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  elementStarted('channel-schedule');
  defineOnce('channel-schedule', createScheduleElement);
}
