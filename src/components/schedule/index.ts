/** The schedule feature: its view and typed options, for the tag's root and the site. */
export { ScheduleView } from './ScheduleView.js';
export { DEFAULT_WATCH_URL, SCHEDULE_DEFAULTS, type ScheduleOptions } from './options.js';
export { accessBadge } from './EventItem.js';
