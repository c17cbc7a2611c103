/**
 * Events: query validation, filtering and the row-to-contract mapping. Everything is computed in SQL (filters,
 * count, page) plus one extra query for the participants of the whole page, so a 5,000-event page costs three
 * queries rather than one per event.
 */
import type { SqlValue } from 'sql.js';
import { EventQuery, MAX_EVENTS_PAGE, STREAM_STATUSES, type StreamStatus } from '../../src/api/contract.js';
import type { ChannelDb, Row } from './db.js';

/** What the server needs to turn stored offsets into times and statuses. */
export interface Clock {
  /** UNIX seconds at which the server started: stored event offsets count from here. */
  anchor: number;
  /** UNIX seconds now (read per request, so statuses move with the wall clock). */
  now: number;
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
  from?: number;
  to?: number;
  offset: number;
  limit: number;
  direction?: 'asc' | 'desc';
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
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
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
      if (field === 'stream_status') fail(field, `The selected stream_status is invalid (${STREAM_STATUSES.join(', ')}).`);
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
    if (filter.from === undefined) fail('start_date', 'The start_date is not a valid date (YYYY-MM-DD or unix seconds).');
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
  // Aliases of the same filter: the spec's query names and the contract's both work.
  const category = raw.event_category_id ?? raw.category;
  const participant = raw.participant_id ?? raw.team;
  const group = raw.group ?? raw.school;
  if (category) filter.category = category;
  if (participant) filter.participant = participant;
  if (group) filter.group = group;
  if (raw.sport) filter.sport = raw.sport;
  if (raw.city) filter.city = raw.city;
  if (raw.state) filter.state = raw.state;
  return { filter };
}

/** The SQL condition for one stream status, relative to `rel` (= now - anchor, bound as a parameter). */
function statusCondition(status: StreamStatus): string {
  switch (status) {
    case 'live':
      return 'e.start_offset <= :rel AND e.start_offset + e.duration > :rel';
    case 'upcoming':
      return 'e.start_offset > :rel';
    case 'finished':
      return 'e.start_offset + e.duration <= :rel';
  }
}

/** Resolves an id-or-alias reference inside one channel's table; -1 (matches nothing) when unknown. */
function resolveRef(db: ChannelDb, table: string, channelId: number, ref: string): number {
  const row = /^\d+$/.test(ref)
    ? db.get(`SELECT id FROM ${table} WHERE channel_id = ? AND id = ?`, [channelId, Number(ref)])
    : db.get(`SELECT id FROM ${table} WHERE channel_id = ? AND lower(alias) = lower(?)`, [channelId, ref]);
  return row ? Number(row.id) : -1;
}

const EVENT_COLUMNS = `
  e.id, e.name, e.type, e.start_offset, e.duration, e.time_zone, e.home_team_id, e.location_id, e.category_id,
  e.image, e.description, e.price,
  l.name AS l_name, l.city AS l_city, l.state AS l_state, l.time_zone AS l_time_zone, c.name AS c_name`;
const EVENT_FROM = `
  FROM events e
  LEFT JOIN locations l ON l.id = e.location_id
  LEFT JOIN categories c ON c.id = e.category_id`;

/** Builds the WHERE clause and its named parameters for a filter. */
function whereClause(db: ChannelDb, channelId: number, filter: EventFilter, clock: Clock) {
  const parts = ['e.channel_id = :channel'];
  const params: Record<string, SqlValue> = { ':channel': channelId, ':rel': clock.now - clock.anchor };
  if (filter.status) parts.push(statusCondition(filter.status));
  if (filter.category) {
    // A category includes its descendants (Basketball covers Men's and Women's Basketball).
    const root = resolveRef(db, 'categories', channelId, filter.category);
    parts.push(`e.category_id IN (
      WITH RECURSIVE tree(id) AS (SELECT :category UNION ALL SELECT c2.id FROM categories c2 JOIN tree ON c2.parent_id = tree.id)
      SELECT id FROM tree)`);
    params[':category'] = root;
  }
  if (filter.participant) {
    parts.push('EXISTS (SELECT 1 FROM event_participants ep WHERE ep.event_id = e.id AND ep.participant_id = :participant)');
    params[':participant'] = resolveRef(db, 'participants', channelId, filter.participant);
  }
  if (filter.group) {
    parts.push(`EXISTS (SELECT 1 FROM event_participants ep JOIN participants p ON p.id = ep.participant_id
      WHERE ep.event_id = e.id AND p.group_id = :group)`);
    params[':group'] = resolveRef(db, 'participant_groups', channelId, filter.group);
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
  if (filter.from !== undefined) {
    parts.push('e.start_offset >= :from');
    params[':from'] = filter.from - clock.anchor;
  }
  if (filter.to !== undefined) {
    parts.push('e.start_offset <= :to');
    params[':to'] = filter.to - clock.anchor;
  }
  return { where: parts.join(' AND '), params };
}

/** Runs a named-parameter query (sql.js binds objects by `:name`). */
function allNamed(db: ChannelDb, sql: string, params: Record<string, SqlValue>): Row[] {
  const stmt = db.db.prepare(sql);
  try {
    // sql.js rejects names that the statement does not use, so bind only those it mentions.
    const used: Record<string, SqlValue> = {};
    for (const [name, value] of Object.entries(params)) if (sql.includes(name)) used[name] = value;
    stmt.bind(used);
    const rows: Row[] = [];
    while (stmt.step()) rows.push(stmt.getAsObject());
    return rows;
  } finally {
    stmt.free();
  }
}

/** Turns a stored media path ("/media/...") into an absolute URL on this server; other values pass unchanged. */
export type MediaUrl = (path: unknown) => string | null;

/** Maps participant rows to contract `Participant` objects. */
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

/** Loads the participants of many events at once, keyed by event id, in their stored order (away, home). */
function participantsOf(db: ChannelDb, eventIds: number[], media: MediaUrl): Map<number, unknown[]> {
  const byEvent = new Map<number, unknown[]>();
  if (eventIds.length === 0) return byEvent;
  // The ids come from our own integer column, so inlining them is safe and avoids SQLite's bound-variable limit.
  const rows = db.all(
    `SELECT ep.event_id, p.* FROM event_participants ep JOIN participants p ON p.id = ep.participant_id
     WHERE ep.event_id IN (${eventIds.join(',')}) ORDER BY ep.event_id, ep.position`,
  );
  for (const row of rows) {
    const eventId = Number(row.event_id);
    let list = byEvent.get(eventId);
    if (!list) byEvent.set(eventId, (list = []));
    list.push(participantJson(row, media));
  }
  return byEvent;
}

function statusOf(row: Row, clock: Clock): StreamStatus {
  const rel = clock.now - clock.anchor;
  const start = Number(row.start_offset);
  if (rel < start) return 'upcoming';
  return rel < start + Number(row.duration) ? 'live' : 'finished';
}

function eventJson(row: Row, participants: unknown[], clock: Clock, media: MediaUrl): EventJson {
  const type = String(row.type);
  return {
    id: Number(row.id),
    name: String(row.name),
    type,
    event_utc_ts: clock.anchor + Number(row.start_offset),
    time_zone: row.time_zone ?? null,
    // No accounts yet: only free events are watchable without buying or registering.
    has_access: type === 'free',
    participants,
    home_team_id: row.home_team_id ?? null,
    location_id: row.location_id ?? null,
    location:
      row.location_id === null
        ? null
        : {
            id: Number(row.location_id),
            name: String(row.l_name),
            city: row.l_city ?? null,
            state: row.l_state ?? null,
            time_zone: row.l_time_zone ?? null,
          },
    event_category_id: row.category_id ?? null,
    category: row.category_id === null ? null : { id: Number(row.category_id), name: String(row.c_name) },
    stream_status: statusOf(row, clock),
    image: media(row.image),
    description: row.description ?? null,
    price: row.price === null ? null : Number(row.price),
    is_geo_blocked: false,
  };
}

/** `GET /events`: one page of matching events plus the total. */
export function listEvents(
  db: ChannelDb,
  channelId: number,
  filter: EventFilter,
  clock: Clock,
  media: MediaUrl,
): { data: EventJson[]; meta: { total: number; offset: number; limit: number } } {
  const { where, params } = whereClause(db, channelId, filter, clock);
  // Finished events read newest first (the on-demand list); everything else soonest first.
  const direction = filter.direction ?? (filter.status === 'finished' ? 'desc' : 'asc');
  const order = direction === 'desc' ? 'e.start_offset DESC, e.id DESC' : 'e.start_offset ASC, e.id ASC';
  const total = Number(allNamed(db, `SELECT count(*) AS n ${EVENT_FROM} WHERE ${where}`, params)[0]?.n ?? 0);
  const rows = allNamed(
    db,
    `SELECT ${EVENT_COLUMNS} ${EVENT_FROM} WHERE ${where} ORDER BY ${order} LIMIT :limit OFFSET :offset`,
    { ...params, ':limit': filter.limit, ':offset': filter.offset },
  );
  const participants = participantsOf(
    db,
    rows.map((r) => Number(r.id)),
    media,
  );
  return {
    data: rows.map((row) => eventJson(row, participants.get(Number(row.id)) ?? [], clock, media)),
    meta: { total, offset: filter.offset, limit: filter.limit },
  };
}

/** `GET /events/{id}`: one event of the channel, or undefined. */
export function getEvent(db: ChannelDb, channelId: number, id: number, clock: Clock, media: MediaUrl): EventJson | undefined {
  const row = db.get(`SELECT ${EVENT_COLUMNS} ${EVENT_FROM} WHERE e.channel_id = ? AND e.id = ?`, [channelId, id]);
  if (!row) return undefined;
  return eventJson(row, participantsOf(db, [id], media).get(id) ?? [], clock, media);
}
