/* eslint-disable max-lines -- events' query validation, SQL filters and row mapping (the validation could go apart) */
/**
 * Events: query validation, filtering and the row-to-contract mapping. Filters, count and page are computed in SQL;
 * the events themselves come from a cache of their serialised fixed part, completed per request with the fields
 * that depend on the clock and the caller (see renderEvent). A page of the events list, once rendered, is kept as
 * bytes per query and per what its viewers see, with only the signed stream URLs filled in per request (see
 * eventListText).
 */
import { createHash } from 'node:crypto';
import { EventQuery, MAX_EVENTS_PAGE, STREAM_STATUSES, type StreamStatus } from '../../src/api/contract.js';
import type { AccessFacts } from '../accounts/accounts.js';
import { EVENT_CLOCK, type ChannelDb, type Row, type SqlValue } from '../storage/db.js';
import { HttpError, INVALID } from '../http/http.js';
import { BoundedMap } from '../http/limits.js';
import { muxStoryboardUrl, muxStreamUrl, muxThumbnailUrl, type MuxAudience } from '../media/sources/mux.js';

/** What the server needs to turn stored offsets into times and statuses. */
export interface Clock {
  /**
   * What stored event offsets count from, in UNIX seconds: 0 on a production database (meta EVENT_CLOCK = 'utc',
   * offsets are UNIX seconds), else the moment this process started (seeded fixtures: "live now" stays live).
   */
  anchor: number;
  /** UNIX seconds now (read per request, so statuses move with the wall clock). */
  now: number;
}

/** The anchor of `db`'s event clock (see Clock.anchor) for a process started at `startSeconds` (UNIX seconds). */
export async function clockAnchor(db: ChannelDb, startSeconds: number): Promise<number> {
  const row = await db.get('SELECT value FROM meta WHERE key = ?', [EVENT_CLOCK]);
  return row?.value === 'utc' ? 0 : startSeconds;
}

/** A contract `Event` as sent (types kept loose: the response is checked against the schema in tests). */
export type EventJson = Record<string, unknown> & { id: number; stream_status: StreamStatus };

/** Validation errors in the `{ field: [messages] }` form the client reads from a 422 answer. */
export type FieldErrors = Record<string, string[]>;

/** A validated events query, ready to be turned into SQL. */
export interface EventFilter {
  status?: StreamStatus;
  category?: string;
  participant?: string;
  group?: string;
  sport?: string;
  gender?: 'male' | 'female';
  city?: string;
  state?: string;
  location?: number;
  /**
   * School properties to match (`conference=Atlantic`, `division=I`: what `participant-group-properties` lists),
   * by the query names that are not the list's own: events of a team whose school has them all. Names the
   * channel's schools do not have are ignored.
   */
  properties?: Record<string, string>;
  from?: number;
  to?: number;
  offset: number;
  limit: number;
  direction?: 'asc' | 'desc';
  /** Only events of these favourites (any of them); empty lists match nothing (`GET events/favorite`). */
  favourites?: FavouriteIds;
}

/** A user's favourites as ids: teams, schools, and sports with their subcategories already expanded. */
export interface FavouriteIds {
  participants: number[];
  groups: number[];
  categories: number[];
}

const GENDERS: Record<string, 'male' | 'female'> = {
  male: 'male',
  m: 'male',
  men: 'male',
  female: 'female',
  f: 'female',
  w: 'female',
  women: 'female',
};

/**
 * Parses a date filter: `YYYY-MM-DD` (a UTC day) or UNIX seconds. `endOfDay` makes a day-only end date inclusive.
 * Answers undefined when the value is not a real date.
 */
function parseDate(value: string, endOfDay: boolean): number | undefined {
  if (/^\d{9,11}$/.test(value)) return Number(value);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  // Date.UTC rolls 2024-02-31 over to March; a rolled date means the input was not a real day.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
    return undefined;
  return ms / 1000 + (endOfDay ? 86400 - 1 : 0);
}

/** Parses a non-negative integer query value within bounds. */
function parseInteger(value: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

/**
 * Validates the `GET /events` query. Empty values count as absent (clients often send `?sport=` for "any").
 * Answers either the filter or the field errors for a 422.
 */
export function parseEventQuery(params: URLSearchParams): { filter: EventFilter } | { errors: FieldErrors } {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(EventQuery.shape)) {
    const value = params.get(key);
    if (value !== null && value.trim() !== '') raw[key] = value.trim();
  }
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);

  // Shape check with the shared contract first, with our own readable messages for the two enums.
  const shaped = EventQuery.safeParse(raw);
  if (!shaped.success) {
    for (const issue of shaped.error.issues) {
      const field = String(issue.path[0] ?? 'query');
      if (field === 'stream_status')
        fail(field, `The selected stream_status is invalid (${STREAM_STATUSES.join(', ')}).`);
      else if (field === 'sort_direction') fail(field, 'The selected sort_direction is invalid (asc, desc).');
      else fail(field, `The ${field} field is invalid.`);
    }
  }

  const filter: EventFilter = { offset: 0, limit: 20 };
  if (raw.offset !== undefined) {
    const offset = parseInteger(raw.offset, 0, Number.MAX_SAFE_INTEGER);
    if (offset === undefined) fail('offset', 'The offset must be an integer of at least 0.');
    else filter.offset = offset;
  }
  if (raw.limit !== undefined) {
    const limit = parseInteger(raw.limit, 1, MAX_EVENTS_PAGE);
    if (limit === undefined) fail('limit', `The limit must be an integer between 1 and ${MAX_EVENTS_PAGE}.`);
    else filter.limit = limit;
  }
  if (raw.start_date !== undefined) {
    filter.from = parseDate(raw.start_date, false);
    if (filter.from === undefined)
      fail('start_date', 'The start_date is not a valid date (YYYY-MM-DD or unix seconds).');
  }
  if (raw.end_date !== undefined) {
    filter.to = parseDate(raw.end_date, true);
    if (filter.to === undefined) fail('end_date', 'The end_date is not a valid date (YYYY-MM-DD or unix seconds).');
  }
  if (filter.from !== undefined && filter.to !== undefined && filter.to < filter.from) {
    fail('end_date', 'The end_date must be a date after or equal to start_date.');
  }
  if (raw.gender !== undefined) {
    const gender = GENDERS[raw.gender.toLowerCase()];
    if (!gender) fail('gender', 'The selected gender is invalid (male, female, M, W).');
    else filter.gender = gender;
  }
  if (raw.location !== undefined) {
    const location = parseInteger(raw.location, 1, Number.MAX_SAFE_INTEGER);
    if (location === undefined) fail('location', 'The location must be a location id.');
    else filter.location = location;
  }
  if (Object.keys(errors).length > 0) return { errors };

  if (raw.stream_status) filter.status = raw.stream_status as StreamStatus;
  if (raw.sort_direction) filter.direction = raw.sort_direction as 'asc' | 'desc';
  // Aliases of the same filter: both query names of each pair work.
  const category = raw.event_category_id ?? raw.category;
  const participant = raw.participant_id ?? raw.team;
  const group = raw.group ?? raw.school;
  if (category) filter.category = category;
  if (participant) filter.participant = participant;
  if (group) filter.group = group;
  if (raw.sport) filter.sport = raw.sport;
  if (raw.city) filter.city = raw.city;
  if (raw.state) filter.state = raw.state;
  const properties = propertyParams(params);
  if (Object.keys(properties).length) filter.properties = properties;
  return { filter };
}

/** Query names of the request itself (keys, cache busters), never a school property. */
const NOT_PROPERTIES = new Set(['api_key', 'channel_key', 'no_limit', 'sort_field', '_']);

/** The query's other names that could be school properties (plain names, non-empty values). */
function propertyParams(params: URLSearchParams): Record<string, string> {
  const own = new Set(Object.keys(EventQuery.shape));
  const out: Record<string, string> = {};
  for (const [name, value] of params) {
    if (own.has(name) || NOT_PROPERTIES.has(name) || !/^[a-z][a-z0-9_]{0,39}$/i.test(name)) continue;
    if (value.trim() !== '') out[name] = value.trim();
  }
  return out;
}

/** The property names the channel's schools have (what `participant-group-properties` lists). */
async function schoolPropertyNames(db: ChannelDb, channelId: number): Promise<Set<string>> {
  const rows = await db.all(
    'SELECT DISTINCT jsonb_object_keys(g.properties_json::jsonb) AS name FROM participant_groups g WHERE g.channel_id = ?',
    [channelId],
  );
  return new Set(rows.map((row) => String(row.name)));
}

/**
 * When an event is live, on the events' clock (seconds from the anchor), in SQL: from the schedule, or for an ingest
 * event from its push (migrations STREAM_SOURCES: upcoming until live_from is set, live until live_until). FAR stands
 * for "not yet" (never reached by the clock). liveSpan() is the same rule in JS.
 */
const FAR = 9_000_000_000_000_000;
const LIVE_FROM_SQL = `(CASE WHEN e.stream_source = 'ingest' THEN coalesce(e.live_from, ${FAR}) ELSE e.start_offset END)`;
const LIVE_UNTIL_SQL = `(CASE WHEN e.stream_source = 'ingest' THEN coalesce(e.live_until, ${FAR}) ELSE e.start_offset + e.duration END)`;

/** The SQL condition for one stream status, relative to `rel` (= now - anchor, bound as a parameter). */
function statusCondition(status: StreamStatus): string {
  switch (status) {
    case 'live':
      return `${LIVE_FROM_SQL} <= :rel AND ${LIVE_UNTIL_SQL} > :rel`;
    case 'upcoming':
      return `${LIVE_FROM_SQL} > :rel`;
    case 'finished':
      return `${LIVE_UNTIL_SQL} <= :rel`;
  }
}

/** Resolves an id-or-alias reference inside one channel's table; -1 (matches nothing) when unknown. */
async function resolveRef(db: ChannelDb, table: string, channelId: number, ref: string): Promise<number> {
  const row = /^\d+$/.test(ref)
    ? await db.get(`SELECT id FROM ${table} WHERE channel_id = ? AND id = ?`, [channelId, Number(ref)])
    : await db.get(`SELECT id FROM ${table} WHERE channel_id = ? AND lower(alias) = lower(?)`, [channelId, ref]);
  return row ? Number(row.id) : -1;
}

const EVENT_FROM = `
  FROM events e
  LEFT JOIN locations l ON l.id = e.location_id
  LEFT JOIN categories c ON c.id = e.category_id`;

/** Builds the WHERE clause and its named parameters for a filter. */
async function whereClause(db: ChannelDb, channelId: number, filter: EventFilter, clock: Clock) {
  // A cancelled event (the operator API) leaves every list.
  const parts = ['e.channel_id = :channel', 'e.cancelled_at IS NULL'];
  const params: Record<string, SqlValue> = { ':channel': channelId, ':rel': clock.now - clock.anchor };
  if (filter.status) parts.push(statusCondition(filter.status));
  if (filter.category) {
    // A category includes its descendants (Basketball covers Men's and Women's Basketball); UNION, not UNION ALL,
    // so a parent_id cycle in the data ends the walk instead of looping.
    const root = await resolveRef(db, 'categories', channelId, filter.category);
    parts.push(`e.category_id IN (
      WITH RECURSIVE tree(id) AS (SELECT :category::bigint UNION SELECT c2.id FROM categories c2 JOIN tree ON c2.parent_id = tree.id)
      SELECT id FROM tree)`);
    params[':category'] = root;
  }
  if (filter.participant) {
    // A team includes its own teams (children), as a category its subcategories.
    parts.push(`EXISTS (SELECT 1 FROM event_participants ep WHERE ep.event_id = e.id AND ep.participant_id IN (
      WITH RECURSIVE tree(id) AS (SELECT :participant::bigint UNION SELECT p2.id FROM participants p2 JOIN tree ON p2.parent_id = tree.id)
      SELECT id FROM tree))`);
    params[':participant'] = await resolveRef(db, 'participants', channelId, filter.participant);
  }
  if (filter.group) {
    parts.push(`EXISTS (SELECT 1 FROM event_participants ep JOIN participants p ON p.id = ep.participant_id
      WHERE ep.event_id = e.id AND p.group_id = :group)`);
    params[':group'] = await resolveRef(db, 'participant_groups', channelId, filter.group);
  }
  if (filter.sport) {
    parts.push('lower(c.sport) = lower(:sport)');
    params[':sport'] = filter.sport;
  }
  if (filter.gender) {
    parts.push('c.gender = :gender');
    params[':gender'] = filter.gender;
  }
  if (filter.city) {
    parts.push('lower(l.city) = lower(:city)');
    params[':city'] = filter.city;
  }
  if (filter.state) {
    parts.push('lower(l.state) = lower(:state)');
    params[':state'] = filter.state;
  }
  if (filter.location !== undefined) {
    parts.push('e.location_id = :location');
    params[':location'] = filter.location;
  }
  if (filter.properties) {
    // Events with a team of a school that has every one of these property values (case aside). Each JSON path is a
    // bound value built from a plain name the channel's schools have, never the request's text as SQL.
    const known = await schoolPropertyNames(db, channelId);
    const matches = Object.entries(filter.properties)
      .filter(([name]) => known.has(name))
      .map(([name, value], i) => {
        params[`:property_name${i}`] = name;
        params[`:property_value${i}`] = value;
        return `lower(g.properties_json::jsonb ->> :property_name${i}::text) = lower(:property_value${i}::text)`;
      });
    if (matches.length)
      parts.push(`EXISTS (SELECT 1 FROM event_participants ep JOIN participants p ON p.id = ep.participant_id
        JOIN participant_groups g ON g.id = p.group_id WHERE ep.event_id = e.id AND ${matches.join(' AND ')})`);
  }
  if (filter.from !== undefined) {
    parts.push('e.start_offset >= :from');
    params[':from'] = filter.from - clock.anchor;
  }
  if (filter.to !== undefined) {
    parts.push('e.start_offset <= :to');
    params[':to'] = filter.to - clock.anchor;
  }
  if (filter.favourites) parts.push(favouriteCondition(filter.favourites));
  return { where: parts.join(' AND '), params };
}

/** Events involving a favourite team, a team of a favourite school, or in a favourite sport. */
function favouriteCondition({ participants, groups, categories }: FavouriteIds): string {
  // Ids come from our own tables as numbers: safe to inline, and no bound-variable limit to worry about.
  const list = (ids: number[]) => ids.map((id) => Math.trunc(id)).join(',');
  const any: string[] = [];
  if (participants.length)
    any.push(
      `EXISTS (SELECT 1 FROM event_participants ep WHERE ep.event_id = e.id AND ep.participant_id IN (${list(participants)}))`,
    );
  if (groups.length) {
    any.push(`EXISTS (SELECT 1 FROM event_participants ep JOIN participants p ON p.id = ep.participant_id
      WHERE ep.event_id = e.id AND p.group_id IN (${list(groups)}))`);
  }
  if (categories.length) any.push(`e.category_id IN (${list(categories)})`);
  return any.length ? `(${any.join(' OR ')})` : 'false';
}

/** Turns a stored media path ("/media/...") into an absolute URL on this server; other values pass unchanged. */
export type MediaUrl = (path: unknown) => string | null;

/** Maps a participant row to a contract `Participant` (for the participants list; events build theirs in SQL). */
export function participantJson(row: Row, media: MediaUrl): Record<string, unknown> {
  return {
    id: Number(row.id),
    name: String(row.name),
    short_name: row.short_name ?? null,
    alias: row.alias ?? null,
    images: { logo: media(row.logo) },
    color: row.color ?? null,
    properties: { gender: row.gender ?? null, sport: row.sport ?? null },
    participant_group_id: row.group_id ?? null,
  };
}

/** Where an event's stream comes from (migrations STREAM_SOURCES, docs/streams.md). */
export type StreamSourceKind = 'generated' | 'url' | 'mux' | 'ingest';

/** When an event is live, on the events' clock: [from, until); Infinity for "not yet". The rule of LIVE_FROM_SQL. */
export function liveSpan(event: Pick<CachedEvent, 'source' | 'start' | 'duration' | 'liveFrom' | 'liveUntil'>): {
  from: number;
  until: number;
} {
  if (event.source !== 'ingest') return { from: event.start, until: event.start + event.duration };
  return { from: event.liveFrom ?? Infinity, until: event.liveUntil ?? Infinity };
}

/** An event's status `rel` seconds after the anchor: the rule statusCondition() applies in SQL. */
function statusAt(event: CachedEvent, rel: number): StreamStatus {
  const { from, until } = liveSpan(event);
  return rel < from ? 'upcoming' : rel < until ? 'live' : 'finished';
}

/** SQL for a media column: stored "/media/..." paths become absolute on this server (the :origin parameter). */
const mediaSql = (column: string) => `CASE WHEN ${column} LIKE '/%' THEN :origin::text || ${column} ELSE ${column} END`;
/** SQL for a 0/1 column as a JSON boolean. */
const flagSql = (column: string) => `(${column} <> 0)`;

/**
 * The fixed part of a contract `Event` as a JSON text, built by Postgres itself in the same pass that finds the
 * events (one value per event, no row mapping in JS). The fields that depend on the clock or the caller
 * (stream_status, has_access, duration, media) are added by render().
 */
const EVENT_JSON = `json_build_object(
  'id', e.id,
  'name', e.name,
  'type', e.type,
  'event_utc_ts', :anchor::bigint + e.start_offset,
  'time_zone', e.time_zone,
  'participants', coalesce((
    SELECT json_agg(json_build_object(
      'id', p.id, 'name', p.name, 'short_name', p.short_name, 'alias', p.alias,
      'images', json_build_object('logo', ${mediaSql('p.logo')}),
      'color', p.color,
      'properties', json_build_object('gender', p.gender, 'sport', p.sport),
      'participant_group_id', p.group_id) ORDER BY ep.position)
    FROM event_participants ep JOIN participants p ON p.id = ep.participant_id
    WHERE ep.event_id = e.id), '[]'::json),
  'home_team_id', e.home_team_id,
  'location_id', e.location_id,
  'location', CASE WHEN l.id IS NULL THEN NULL ELSE json_build_object(
    'id', l.id, 'name', l.name, 'city', l.city, 'state', l.state, 'time_zone', l.time_zone) END,
  'event_category_id', e.category_id,
  'category', CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id, 'name', c.name) END,
  'image', ${mediaSql('e.image')},
  'description', e.description,
  'price', e.price,
  'is_geo_blocked', ${flagSql('e.is_geo_blocked')},
  'single_event_package_id', e.single_event_package_id,
  'has_recording', ${flagSql('e.has_recording')}
)::text AS event`;

/** One serialised event and the facts its per-request fields are computed from. */
export interface CachedEvent extends AccessFacts {
  channelId: number;
  /** The fixed JSON without its closing brace. */
  head: string;
  /** Start (seconds from the anchor) and scheduled length. */
  start: number;
  duration: number;
  hasRecording: boolean;
  geoBlocked: boolean;
  /** `{"type":"image","url":...}`, or '' without an image. */
  imageMedia: string;
  /** Cancelled (the operator API): in no list, and `GET /events/{id}` answers 404. */
  cancelled: boolean;
  /** Where its stream comes from, and for an ingest event when its push made it live and until when (liveSpan). */
  source: StreamSourceKind;
  liveFrom: number | null;
  liveUntil: number | null;
  /** The length of its own recording once finished (an ingest event's), when known. */
  recordingSeconds: number | null;
  /** A `url` source's HLS URL, already escaped for a JSON string. */
  streamUrl: string | null;
  /** A `mux` source's playback id, and whether its playback policy is signed (a token per viewer then). */
  muxPlaybackId: string | null;
  muxSigned: boolean;
}

/** How one caller sees events at one moment: the per-request inputs of render(). */
export interface EventView {
  clock: Clock;
  /** This server's origin as the caller addressed it (absolute image URLs). */
  origin: string;
  /** has_access of an event for this caller. */
  canWatch(event: AccessFacts): boolean;
  /** Whether the caller may have stream URLs at all (not when the user is geo-blocked). */
  streams: boolean;
  /** A signed playback URL for a stream id (an event id); URL-safe characters only, so it needs no JSON escaping. */
  streamUrl(stream: string): string;
  /** Length of the recording a finished event plays. */
  recordingSeconds: number;
  /**
   * A Mux playback token of the channel for a playback id and audience (media/sources/mux.ts), or undefined when the
   * channel has no signing key. Only called for viewers with access.
   */
  muxToken(channelId: number, playbackId: string, aud: MuxAudience): string | undefined;
}

/** The status of a cached event at the view's moment. */
export const eventStatus = (event: CachedEvent, clock: Clock) => statusAt(event, clock.now - clock.anchor);

/**
 * Text being rendered: fixed pieces, and between them the streams whose signed URLs each viewer gets its own of
 * (`parts` has one piece more than `streams`).
 */
interface Template {
  parts: string[];
  streams: CachedEvent[];
}

/**
 * Whether an event's stream can be handed out at all: a signed Mux playback id needs the channel's signing key (a
 * channel without one lists no stream for it; its pages are forgotten when the channel's secrets change).
 */
const streamable = (event: CachedEvent, view: EventView) =>
  event.source !== 'mux' || !event.muxSigned || view.muxToken(event.channelId, event.muxPlaybackId!, 'v') !== undefined;

/**
 * Writes a contract `Event` into `out`: the cached fixed part plus stream_status, has_access, duration (scheduled,
 * or the recording's once finished) and media: the image, and the signed stream (`live` while live, `vod` once
 * finished with a recording) with its `thumbnails` track (WebVTT, thumbnails.ts) only for callers with access, never
 * for a geo-blocked event or user. The stream's URLs are a slot (streamMedia fills it).
 */
function writeEvent(out: Template, event: CachedEvent, view: EventView, access: boolean): void {
  const status = eventStatus(event, view.clock);
  const kind = status === 'live' ? 'live' : status === 'finished' && event.hasRecording ? 'vod' : undefined;
  // Once finished: the recording's length (the generated media's, or an ingest event's own when made); a url or mux
  // source's recording is the channel's, its length the schedule's.
  const recording =
    event.source === 'generated'
      ? view.recordingSeconds
      : event.source === 'ingest'
        ? event.recordingSeconds
        : event.duration;
  const duration = status !== 'finished' ? event.duration : event.hasRecording ? recording : null;
  let text = `${event.head},"stream_status":"${status}","has_access":${access},"duration":${duration},"media":[${event.imageMedia}`;
  if (kind && access && view.streams && !event.geoBlocked && streamable(event, view)) {
    out.parts[out.parts.length - 1] += `${text}${event.imageMedia ? ',' : ''}{"type":"${kind}","url":"`;
    out.streams.push(event);
    out.parts.push('');
    text = '"}';
  }
  out.parts[out.parts.length - 1] += `${text}]}`;
}

/**
 * What goes in a stream's slot for this viewer, by the event's source: the generated media's (or an ingest event's)
 * signed playlist URL and its thumbnails track; a `url` source's URL as the channel gave it (no thumbnails: the
 * channel's packager has no track we know of); a Mux playback id's playlist and storyboard, each with its own token
 * when signed, and for a signed one without an image of its own a poster (Mux's thumbnail, token audience `t`).
 */
function streamMedia(view: EventView, event: CachedEvent): string {
  if (event.source === 'url') return event.streamUrl ?? '';
  if (event.source === 'mux') {
    const id = event.muxPlaybackId!;
    const signed = (url: string, aud: MuxAudience) =>
      event.muxSigned ? `${url}?token=${view.muxToken(event.channelId, id, aud) ?? ''}` : url;
    const poster =
      event.muxSigned && !event.imageMedia ? `"},{"type":"image","url":"${signed(muxThumbnailUrl(id), 't')}` : '';
    return `${signed(muxStreamUrl(id), 'v')}"},{"type":"thumbnails","url":"${signed(muxStoryboardUrl(id), 's')}${poster}`;
  }
  // The thumbnails track lives under the same signed stream folder (the grant signs the stream, not the file).
  const url = view.streamUrl(String(event.id));
  return `${url}"},{"type":"thumbnails","url":"${url.replace(/master\.m3u8$/, 'thumbs/thumbnails.vtt')}`;
}

/** A contract `Event` as JSON text, as this viewer sees it now (see writeEvent). */
export function renderEvent(event: CachedEvent, view: EventView): string {
  const out: Template = { parts: [''], streams: [] };
  writeEvent(out, event, view, view.canWatch(event));
  return out.parts.reduce((text, part, i) => text + (i > 0 ? streamMedia(view, out.streams[i - 1]!) : '') + part, '');
}

/**
 * Serialised events, per database and origin. Events are seed data and their start times are fixed by the anchor,
 * so the fixed part never changes; caching it is what makes the 5,000-event bench page cheap: a request then costs
 * one SQL pass for the page's ids plus a string join per event. Anything that writes events must call
 * `forgetEventJson(db, id)` (the dev reschedule endpoint does). The origin is the server's configured public origin
 * (never a request's Host header), so there is one copy; a bound keeps it so if a caller ever passes others.
 */
const eventJsonCache = new WeakMap<ChannelDb, Map<string, Map<number, CachedEvent>>>();
const MAX_CACHED_ORIGINS = 2;

/** The origins events are cached for now (tests check there is one, whatever Host the requests named). */
export const cachedEventOrigins = (db: ChannelDb): string[] => [...(eventJsonCache.get(db)?.keys() ?? [])];

/** A page of event ids: how many match in all, the page's ids, and a digest of them (the rendered pages' key). */
interface PageIds {
  total: number;
  ids: number[];
  digest: string;
}

/** Pages of event ids per query and second (see pageIds), per database. */
const pageCache = new WeakMap<ChannelDb, BoundedMap<string, PageIds>>();
const MAX_CACHED_PAGES = 2000;

/** Drops one event (or, without an id, every event) from the cache, and every page of ids and every rendered page. */
export function forgetEventJson(db: ChannelDb, id?: number): void {
  pageCache.delete(db);
  renderedPages.delete(db);
  if (id === undefined) eventJsonCache.delete(db);
  else for (const byId of eventJsonCache.get(db)?.values() ?? []) byId.delete(id);
}

/** Serialises every event for `origin` ahead of the first request (the bench page's first call then stays fast). */
export async function warmEventJson(db: ChannelDb, clock: Clock, origin: string): Promise<void> {
  const ids = (await db.all('SELECT id FROM events')).map((row) => Number(row.id));
  await cachedEvents(db, ids, clock, origin);
}

/** Cached events for these ids (on `origin`), serialising the missing ones in one query. */
async function cachedEvents(
  db: ChannelDb,
  ids: number[],
  clock: Clock,
  origin: string,
): Promise<Map<number, CachedEvent>> {
  let byOrigin = eventJsonCache.get(db);
  if (!byOrigin) eventJsonCache.set(db, (byOrigin = new Map()));
  let cache = byOrigin.get(origin);
  if (!cache) {
    while (byOrigin.size >= MAX_CACHED_ORIGINS) byOrigin.delete(byOrigin.keys().next().value as string);
    byOrigin.set(origin, (cache = new Map()));
  }
  const missing = ids.filter((id) => !cache.has(id));
  if (missing.length > 0) {
    const rows = await db.all(
      `SELECT e.id AS id, e.channel_id AS channel_id, e.type AS type, e.start_offset AS start_offset,
         e.duration AS duration, e.has_recording AS has_recording, e.is_geo_blocked AS geo, e.category_id AS category_id,
         e.cancelled_at AS cancelled_at, e.stream_source AS stream_source, e.live_from AS live_from,
         e.live_until AS live_until, e.recording_seconds AS recording_seconds, e.stream_url AS stream_url,
         e.mux_playback_id AS mux_playback_id, e.mux_signed AS mux_signed,
         (SELECT string_agg(participant_id::text, ',' ORDER BY position) FROM event_participants WHERE event_id = e.id)
           AS participant_ids,
         ${mediaSql('e.image')} AS image_url, ${EVENT_JSON}
       ${EVENT_FROM} WHERE e.id = ANY(:ids::bigint[])`,
      { ':anchor': clock.anchor, ':origin': origin, ':ids': missing },
    );
    for (const row of rows) {
      // Postgres writes JSON with spaces around every colon and comma; the cache keeps it compact.
      const text = JSON.stringify(JSON.parse(String(row.event)));
      const source = String(row.stream_source) as StreamSourceKind;
      const muxId = source === 'mux' && row.mux_playback_id !== null ? String(row.mux_playback_id) : null;
      // An unsigned Mux playback id's still is public: the poster of an event without its own image, for everyone.
      const image = row.image_url ?? (muxId && !row.mux_signed ? muxThumbnailUrl(muxId) : null);
      cache.set(Number(row.id), {
        id: Number(row.id),
        channelId: Number(row.channel_id),
        type: String(row.type),
        categoryId: row.category_id === null ? null : Number(row.category_id),
        participants: row.participant_ids === null ? [] : String(row.participant_ids).split(',').map(Number),
        head: text.slice(0, text.lastIndexOf('}')),
        start: Number(row.start_offset),
        duration: Number(row.duration),
        hasRecording: Boolean(row.has_recording),
        geoBlocked: Boolean(row.geo),
        imageMedia: image === null ? '' : JSON.stringify({ type: 'image', url: image }),
        cancelled: row.cancelled_at !== null,
        source,
        liveFrom: row.live_from === null ? null : Number(row.live_from),
        liveUntil: row.live_until === null ? null : Number(row.live_until),
        recordingSeconds: row.recording_seconds === null ? null : Number(row.recording_seconds),
        streamUrl:
          source === 'url' && row.stream_url !== null ? JSON.stringify(String(row.stream_url)).slice(1, -1) : null,
        muxPlaybackId: muxId,
        muxSigned: Boolean(row.mux_signed),
      });
    }
  }
  return cache;
}

/** The ids of one page of matching events, and how many match in all (kept for the second; see below). */
async function pageIds(db: ChannelDb, channelId: number, filter: EventFilter, clock: Clock): Promise<PageIds> {
  const { where, params } = await whereClause(db, channelId, filter, clock);
  // Finished events read newest first (the on-demand list); everything else soonest first.
  const direction = filter.direction ?? (filter.status === 'finished' ? 'desc' : 'asc');
  const order = direction === 'desc' ? 'start_offset DESC, id DESC' : 'start_offset ASC, id ASC';
  // Everyone loading the schedule at the same second asks the same question: its answer is kept for that second
  // (the query's parameters hold the clock's second, so an entry never outlives it), and forgotten with the events.
  const pageKey = JSON.stringify([where, params, filter.limit, filter.offset, order]);
  const pages = pageCache.get(db) ?? new BoundedMap<string, PageIds>(MAX_CACHED_PAGES);
  pageCache.set(db, pages);
  const known = pages.get(pageKey);
  if (known) return known;
  // The count and the page in one pass; the page as one "id,id,..." text rather than thousands of rows.
  const row = await db.get(
    `SELECT (SELECT count(*) ${EVENT_FROM} WHERE ${where}) AS total,
       (SELECT string_agg(id::text, ',' ORDER BY ${order}) FROM (
         SELECT e.id AS id, e.start_offset AS start_offset ${EVENT_FROM}
         WHERE ${where} ORDER BY e.${order.replace(', id', ', e.id')} LIMIT :limit OFFSET :offset) AS page) AS page`,
    { ...params, ':limit': filter.limit, ':offset': filter.offset },
  );
  const text = row?.page ? String(row.page) : '';
  const page = {
    total: Number(row?.total ?? 0),
    ids: text ? text.split(',').map(Number) : [],
    digest: createHash('sha256').update(text).digest('base64url'),
  };
  pages.set(pageKey, page);
  return page;
}

/** `GET /events`: one page of matching events as JSON texts, plus the total. */
export async function listEventsJson(
  db: ChannelDb,
  channelId: number,
  filter: EventFilter,
  view: EventView,
): Promise<{ events: string[]; meta: { total: number; offset: number; limit: number } }> {
  const { total, ids } = await pageIds(db, channelId, filter, view.clock);
  const cache = await cachedEvents(db, ids, view.clock, view.origin);
  return {
    events: ids.map((id) => renderEvent(cache.get(id)!, view)),
    meta: { total, offset: filter.offset, limit: filter.limit },
  };
}

/**
 * One rendered page of events (the answer's `data` array) as UTF-8 pieces, with each viewer's stream URLs to go
 * between them, and the seconds (from the anchor) it holds for: until the first of its events starts or ends.
 */
interface RenderedPage {
  parts: Buffer[];
  streams: CachedEvent[];
  bytes: number;
  from: number;
  until: number;
}

/** The most bytes of rendered pages a process keeps per database (a 5,000-event page is about 5 MB). */
export const RENDERED_PAGES_BYTES = 32 * 1024 * 1024;

/** Rendered pages by key, the least recently used dropped first past RENDERED_PAGES_BYTES; with counts for tests. */
class RenderedPages {
  private readonly pages = new Map<string, RenderedPage>();
  bytes = 0;
  rendered = 0;
  reused = 0;

  get size(): number {
    return this.pages.size;
  }

  get(key: string): RenderedPage | undefined {
    const page = this.pages.get(key);
    if (page) {
      this.pages.delete(key);
      this.pages.set(key, page);
    }
    return page;
  }

  set(key: string, page: RenderedPage): void {
    const old = this.pages.get(key);
    if (old) this.bytes -= old.bytes;
    this.pages.delete(key);
    if (page.bytes > RENDERED_PAGES_BYTES) return;
    this.pages.set(key, page);
    this.bytes += page.bytes;
    for (const [oldest, { bytes }] of this.pages) {
      if (this.bytes <= RENDERED_PAGES_BYTES) break;
      this.pages.delete(oldest);
      this.bytes -= bytes;
    }
  }
}

const renderedPages = new WeakMap<ChannelDb, RenderedPages>();

/** How many pages a database's rendered-page cache holds, their bytes, and how many were rendered and reused. */
export function renderedPageStats(db: ChannelDb): { pages: number; bytes: number; rendered: number; reused: number } {
  const pages = renderedPages.get(db);
  return {
    pages: pages?.size ?? 0,
    bytes: pages?.bytes ?? 0,
    rendered: pages?.rendered ?? 0,
    reused: pages?.reused ?? 0,
  };
}

/** Renders a page's events, with the access of each; see RenderedPage. */
function renderPage(events: CachedEvent[], access: boolean[], view: EventView): RenderedPage {
  const out: Template = { parts: [''], streams: [] };
  const rel = view.clock.now - view.clock.anchor;
  let until = Infinity;
  events.forEach((event, i) => {
    if (i > 0) out.parts[out.parts.length - 1] += ',';
    writeEvent(out, event, view, access[i]!);
    const span = liveSpan(event);
    until = Math.min(until, rel < span.from ? span.from : rel < span.until ? span.until : Infinity);
  });
  const parts = out.parts.map((part) => Buffer.from(part));
  return {
    parts,
    streams: out.streams,
    bytes: parts.reduce((sum, part) => sum + part.length, 0) + out.streams.length * 16,
    from: rel,
    until,
  };
}

/**
 * A page of the events list counts against the request limit as one request per this many events it holds: the
 * answer's cost grows with its events (a 5,000-event page is about 5 MB), so a big page is many requests' worth.
 */
export const EVENTS_PER_HIT = 100;

/**
 * `GET /events` (and `GET events/favorite`) as the answer's bytes. `charge` is told how many events the page holds
 * before anything is rendered (a big page counts as more requests; it throws to refuse it).
 *
 * The rendered page is kept (RenderedPages) under the page's ids, the caller's access to each (has_access), whether
 * it may have streams, the origin and the recording's length: every viewer who sees the same is served the same
 * bytes, with only its own signed stream URLs written in. It holds until one of its events starts or ends (its
 * status, duration and stream change), and is forgotten with the events (forgetEventJson).
 */
export async function eventListText(
  db: ChannelDb,
  channelId: number,
  filter: EventFilter,
  view: EventView,
  charge?: (events: number) => void | Promise<void>,
): Promise<Buffer> {
  // Taken before anything is read: an event change meanwhile (forgetEventJson) replaces the map, so a page rendered
  // from what was read before it goes into the old one, which nobody reads again.
  let pages = renderedPages.get(db);
  if (!pages) renderedPages.set(db, (pages = new RenderedPages()));
  const { total, ids, digest } = await pageIds(db, channelId, filter, view.clock);
  await charge?.(ids.length);
  const cache = await cachedEvents(db, ids, view.clock, view.origin);
  const events = ids.map((id) => cache.get(id)!);
  const access = events.map((event) => view.canWatch(event));
  const key = createHash('sha256')
    .update(`${view.origin}|${view.streams}|${view.recordingSeconds}|${digest}|`)
    .update(access.map((yes) => (yes ? '1' : '0')).join(''))
    .digest('base64url');
  const rel = view.clock.now - view.clock.anchor;
  let page = pages.get(key);
  if (page && rel >= page.from && rel < page.until) {
    pages.reused++;
  } else {
    page = renderPage(events, access, view);
    pages.rendered++;
    pages.set(key, page);
  }
  const head = Buffer.from('{"data":[');
  const tail = Buffer.from(`],"meta":${JSON.stringify({ total, offset: filter.offset, limit: filter.limit })}}`);
  const slots = page.streams.map((stream) => Buffer.from(streamMedia(view, stream)));
  const pieces: Buffer[] = [head];
  page.parts.forEach((part, i) => {
    if (i > 0) pieces.push(slots[i - 1]!);
    pieces.push(part);
  });
  pieces.push(tail);
  return Buffer.concat(pieces);
}

/** The same page as objects (small pages: the homepage lists). */
export async function listEvents(
  db: ChannelDb,
  channelId: number,
  filter: EventFilter,
  view: EventView,
): Promise<EventJson[]> {
  return (await listEventsJson(db, channelId, filter, view)).events.map((text) => JSON.parse(text) as EventJson);
}

/** One event of any channel (cached form), or undefined: what a signed stream id names (its grant says whose). */
export async function eventForStream(
  db: ChannelDb,
  id: number,
  clock: Clock,
  origin: string,
): Promise<CachedEvent | undefined> {
  const event = (await cachedEvents(db, [id], clock, origin)).get(id);
  // A cancelled event's stream and download are refused like a missing one's, URLs signed before it was cancelled too.
  return event && !event.cancelled ? event : undefined;
}

/** One event of the channel (cached form), or undefined. */
export async function findEvent(
  db: ChannelDb,
  channelId: number,
  id: number,
  clock: Clock,
  origin: string,
): Promise<CachedEvent | undefined> {
  const event = (await cachedEvents(db, [id], clock, origin)).get(id);
  return event?.channelId === channelId && !event.cancelled ? event : undefined;
}

/** A validated `GET /events` query, or a 422. */
export function eventFilterOf(query: URLSearchParams): EventFilter {
  const parsed = parseEventQuery(query);
  if ('errors' in parsed) throw new HttpError(422, INVALID, parsed.errors);
  return parsed.filter;
}
