/**
 * The analytics service's limits and event names (spec section 7): figures the shared chunk's request tracker port
 * reads, kept apart from the wire schemas (analytics-schemas.ts), which only the analytics layer and the server load.
 */
/** Each analytics request gives up after this long. */
export const ANALYTICS_TIMEOUT_MS = 30_000;
/** A datalake session (its hash) is kept this long, then a new one is made. */
export const ANALYTICS_SESSION_MS = 24 * 3_600_000;
/** The outer tracker of a landing address (`?trk=`) is kept and sent this long. */
export const OUTER_TRACKER_MS = 3 * 3_600_000;
/** The API request tracker sends what it has collected this often (and when the page is hidden or left). */
export const API_TRACKER_FLUSH_MS = 15_000;
/** At most this many API calls go in one `api_request` event (a full batch is sent at once). */
export const API_TRACKER_BATCH = 50;
/** The longest text field the service keeps (longer values are cut by the client, refused by the server). */
export const ANALYTICS_TEXT_MAX = 2_000;
/** The datalake events of `POST datalake/event/`. */
export const DATALAKE_EVENTS = ['visit_page', 'login', 'api_request'] as const;
export type DatalakeEventName = (typeof DATALAKE_EVENTS)[number];
/** The video events of `POST datalake/video/event/` (the default and only one today). */
export const VIDEO_EVENTS = ['first_frame'] as const;
