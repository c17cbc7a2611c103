/** `<channel-schedule>`: the channel's live, upcoming and on-demand events. */
import { Schedule } from '../src/components/schedule/Schedule.js';
import { SCHEDULE_PROPS } from '../src/components/schedule/attributes.js';
import { applyConfig } from '../src/start.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * @attr kind - live | upcoming (default) | vod | all
 * @attr category - event category id or alias
 * @attr team - participant id or alias
 * @attr school - participant group id or alias
 * @attr sport - sport name (e.g. basketball)
 * @attr gender - male | female
 * @attr city - location city
 * @attr state - location state
 * @attr layout - grid (default) | list
 * @attr view - card (default) | table
 * @attr limit - show at most this many events (1-5000), fetched at once
 * @attr watch-url - link template, default /watch/{id}
 * @attr show-filters - show the gender, sport, city and state filters
 * @fires channel-event-select - an event was activated; cancelable (detail.id)
 * @csspart schedule, title, count, filters, list, table, event, event-link, card, event-name, row, badge,
 *   badge-live, badge-free, badge-paid, badge-purchased, favourite, more, loading, empty, error, toasts, toast
 * @cssprop --channel-accent, --channel-font-family, --channel-font-size, --channel-radius, --channel-surface,
 *   --channel-line, --channel-muted, --channel-text, --channel-card-background, --channel-card-min-width
 */
export const createScheduleElement = () => makeElement(Schedule, SCHEDULE_PROPS);

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  defineOnce('channel-schedule', createScheduleElement);
}
