/**
 * The analytics service's wire format (spec section 7, "Analytics service"): what the browser posts to
 * `{analytics base}/datalake/...` and what it reads back. The reference server validates every body with these
 * schemas, so the two cannot drift apart.
 *
 * Every body is a JSON object, posted with `Content-Type: text/plain` (a "simple" request: no CORS preflight, and
 * what `navigator.sendBeacon` sends when the page goes away); the server reads it as JSON whatever the label.
 * Every body carries the channel's analytics key (`profile`, settings 'yare-analytics'), the page it came from
 * (`origin_url`: origin and path, never the query or hash), when the visitor landed with one in the last 3 h,
 * the outer tracker `trk`, and the page's `partner` when it has one (a slug). `GET datalake/hash/` carries
 * `profile`, `origin_url`, `trk` and `partner` in its query.
 */
import * as z from 'zod/mini';
import { PARTNER_MAX, PARTNER_PATTERN } from '../lib/ids.js';
import { envelope, maybeText, num, obj } from './schema-kit.js';
import { ANALYTICS_TEXT_MAX, API_TRACKER_BATCH, DATALAKE_EVENTS, VIDEO_EVENTS } from './analytics-limits.js';

export * from './analytics-limits.js';

const text = z.string().check(z.minLength(1), z.maxLength(ANALYTICS_TEXT_MAX));
const optionalText = z.optional(z.nullable(z.string().check(z.maxLength(ANALYTICS_TEXT_MAX))));
/**
 * Numbers the service accepts: finite and within what a real client can send, so one body cannot add 1e308 seconds
 * of viewing or a negative count to a channel's numbers.
 */
const bounded = (max: number) => z.number().check(z.gte(0), z.lte(max));
/** An id: a whole number (what the API's ids are), or a short text. */
const id = z.union([z.int().check(z.gte(0), z.lte(Number.MAX_SAFE_INTEGER)), z.string().check(z.maxLength(100))]);
const optionalId = z.optional(z.nullable(id));

/** What every body carries. */
const common = {
  /** The channel's analytics key (settings 'yare-analytics'). */
  profile: text,
  /** The page that sent it: origin and path only. */
  origin_url: optionalText,
  /** The outer tracker of the landing address, for 3 h. */
  trk: optionalText,
  /** The partner the page is attributed to (its `data-partner`, else a `trk` that is a partner slug). */
  partner: z.optional(z.nullable(z.string().check(z.maxLength(PARTNER_MAX), z.regex(PARTNER_PATTERN)))),
};

/** Who the body is about: the session, and the signed-in viewer when there is one. */
const viewer = {
  session_uuid: text,
  user_id: optionalId,
  user_email: optionalText,
};

/** `GET datalake/hash/`: a new session hash (an answer: read by the tolerant rule, schema-kit.ts). */
export const DatalakeHash = envelope(obj({ hash: text }));
export type DatalakeHash = z.infer<typeof DatalakeHash>;

/** `POST datalake/session/`: sent once when a session is made (then kept 24 h). */
export const DatalakeSession = z.object({
  ...common,
  /** The session hash (from `GET datalake/hash/`). */
  session: text,
  /** The viewer's address as the geo service saw it; the server fills in the request's address when absent. */
  ip: optionalText,
  device_type: z.enum(['mobile', 'tablet', 'desktop']),
  user_agent: optionalText,
  /** The screen, `{width}x{height}`. */
  resolution: optionalText,
  /** One value (an enum, like the content blocks' types: see content-schemas.ts). */
  platform: z.enum(['web']),
});
export type DatalakeSession = z.infer<typeof DatalakeSession>;

/** One API call, as the request tracker reports it. */
export const ApiRequestEntry = z.object({
  /** The contract's name of the endpoint (`events`, `event`, `settings`, ...), or the service (`channel-key`). */
  service: text,
  method: z.string().check(z.maxLength(10)),
  /** The URL without keys, tokens, one-time values or personal data. */
  url: text,
  /** The HTTP status; 0 for a network fault or a timeout. */
  status: z.int().check(z.gte(0), z.lte(999)),
  /** The error's message, or 'OK'. */
  message: optionalText,
  /** The answer's length in characters (0 without one; the client reads at most 5 MB). */
  length: bounded(1e9),
  /** From the call to its answer (retries and waits included), in ms: at most a day. */
  time_ms: bounded(86_400_000),
  /** When the call started (ms since the epoch, before the year 2500). */
  at: bounded(16_725_225_600_000),
});
export type ApiRequestEntry = z.infer<typeof ApiRequestEntry>;

/**
 * `POST datalake/event/`. Each event has its extras:
 * - `visit_page`: `page` (the path), `previous_page`, `title`, `route` (a site route's name) or `elements` (the
 *   tags of a page of standalone elements, which sends one per page load);
 * - `login`: `method` (`email`, `registration` or the social provider's name);
 * - `api_request`: `requests`, up to API_TRACKER_BATCH calls.
 */
export const DatalakeEvent = z.object({
  ...common,
  ...viewer,
  event: z.enum(DATALAKE_EVENTS),
  page: optionalText,
  previous_page: optionalText,
  title: optionalText,
  route: optionalText,
  elements: z.optional(z.array(z.string().check(z.maxLength(40))).check(z.maxLength(10))),
  method: optionalText,
  requests: z.optional(z.array(ApiRequestEntry).check(z.maxLength(API_TRACKER_BATCH))),
});
export type DatalakeEvent = z.infer<typeof DatalakeEvent>;

/** What a video body says about what is watched (spec: category, sport, gender, school, league from the event). */
const video = {
  stream_id: z.union([z.int().check(z.gte(0), z.lte(Number.MAX_SAFE_INTEGER)), text]),
  stream_type: z.enum(['live', 'vod']),
  video_view_uuid: text,
  category: optionalText,
  sport: optionalText,
  gender: optionalText,
  school: optionalText,
  league: optionalText,
  title: optionalText,
};

/** `POST datalake/video/event/`: `first_frame` with the time from the player's start to its first frame. */
export const DatalakeVideoEvent = z.object({
  ...common,
  ...viewer,
  ...video,
  event: z.enum(VIDEO_EVENTS),
  /** At most ten minutes: a player that took longer did not start. */
  first_frame_ms: z.optional(bounded(600_000)),
});
export type DatalakeVideoEvent = z.infer<typeof DatalakeVideoEvent>;

/** `POST datalake/video/viewing/`: seconds watched since the last report (every 30 s and when the player stops). */
export const DatalakeVideoViewing = z.object({
  ...common,
  ...viewer,
  ...video,
  /** At most an hour (the player reports every 30 s, and when it stops). */
  viewing_time: bounded(3600),
});
export type DatalakeVideoViewing = z.infer<typeof DatalakeVideoViewing>;

/** The answer to every datalake POST; `session/` adds the session's uuid. */
export const DatalakeAnswer = envelope(obj({ id: num, session_uuid: maybeText }));
