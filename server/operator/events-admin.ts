/**
 * Events as the operator API writes them: a UTC start (`starts_at`) with an IANA time zone, stored as start_offset
 * from the clock's anchor (0 on a production database, whose offsets are UNIX seconds: see the OPERATORS
 * migration); its `stream` in the STREAM_COLUMNS (stream-columns.ts); a paid or ppv event is sold by a single-event package, made or reused at its price as the seed does
 * (fixtures/seed.ts), or named by package_id; participants away first, home last. A cancelled event keeps its row
 * (orders name it) and leaves every list of the channel API (catalog/events.ts).
 */
import type * as z from 'zod';
import { liveSpan, type Clock, type StreamSourceKind } from '../catalog/events.js';
import type { ChannelDb, Row, SqlValue } from '../storage/db.js';
import { invalid, OperatorError } from './engine.js';
import { refErrors, type Json, type ResourceStore } from './resources.js';
import { EventCreate, EventPatch } from './schemas.js';
import { STREAM_COLUMNS, streamJson, streamValues } from './stream-columns.js';

const DEFAULT_MINUTES = 180;
const PAID = new Set(['paid', 'ppv']);

const COLUMNS = `e.id, e.name, e.type, e.start_offset, e.duration, e.time_zone, e.price, e.category_id, e.location_id,
  e.home_team_id, e.image, e.description, e.single_event_package_id, e.cancelled_at, e.stream_source, e.stream_url,
  e.mux_playback_id, e.mux_signed, e.live_from, e.live_until,
  (SELECT string_agg(participant_id::text, ',' ORDER BY position) FROM event_participants WHERE event_id = e.id)
    AS participant_ids`;

const isoOfSeconds = (s: number) => new Date(s * 1000).toISOString().replace(/\.000Z$/, 'Z');
const orNull = <T>(v: T | undefined | null, f: (x: NonNullable<T>) => unknown) =>
  v === null || v === undefined ? null : f(v);

function eventJson(row: Row, clock: Clock): Json {
  const start = Number(row.start_offset);
  const duration = Number(row.duration);
  const rel = clock.now - clock.anchor;
  // An ingest event is live from its encoder's push, not its schedule (liveSpan).
  const span = liveSpan({
    source: String(row.stream_source) as StreamSourceKind,
    start,
    duration,
    liveFrom: row.live_from === null ? null : Number(row.live_from),
    liveUntil: row.live_until === null ? null : Number(row.live_until),
  });
  const status =
    row.cancelled_at !== null ? 'cancelled' : rel < span.from ? 'upcoming' : rel < span.until ? 'live' : 'finished';
  return {
    id: Number(row.id),
    name: String(row.name),
    type: String(row.type),
    starts_at: isoOfSeconds(clock.anchor + start),
    time_zone: orNull(row.time_zone, String),
    duration_minutes: Math.round(duration / 60),
    price: orNull(row.price, Number),
    category_id: orNull(row.category_id, Number),
    location_id: orNull(row.location_id, Number),
    participant_ids: row.participant_ids ? String(row.participant_ids).split(',').map(Number) : [],
    home_team_id: orNull(row.home_team_id, Number),
    image: orNull(row.image, String),
    description: orNull(row.description, String),
    status,
    single_event_package_id: orNull(row.single_event_package_id, Number),
    stream: streamJson(row),
  };
}

/** The single-event package of this price (the channel's first), made as the seed makes them when there is none. */
async function singlePackage(db: ChannelDb, channelId: number, price: number, french: boolean): Promise<number> {
  const known = await db.get(
    "SELECT id FROM packages WHERE channel_id = ? AND type = 'single' AND price = ? ORDER BY id LIMIT 1",
    [channelId, price],
  );
  if (known) return Number(known.id);
  const fee = Math.round(price * 10) / 100;
  const last = await db.get('SELECT coalesce(max(position) + 1, 0) AS p FROM packages WHERE channel_id = ?', [
    channelId,
  ]);
  return db.insert(
    'INSERT INTO packages (channel_id, position, name, type, price, base_price, service_fee, weight, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      channelId,
      Number(last!.p),
      french ? `Passe un événement ${price.toFixed(2).replace('.', ',')}` : `Single Event Pass ${price.toFixed(2)}`,
      'single',
      price,
      Math.round((price - fee) * 100) / 100,
      fee,
      0,
      french ? 'Un événement, en direct et sur demande.' : 'One event, live and on demand.',
    ],
  );
}

/** The events store; `clock` gives the anchor, `languageOf` the channel's language (a new package's name). */
export function eventStore(clock: () => Clock, languageOf: (channelId: number) => string): ResourceStore {
  const read = async (db: ChannelDb, channelId: number, id: number, lock: boolean) => {
    if (lock) await db.get('SELECT id FROM events WHERE channel_id = ? AND id = ? FOR UPDATE', [channelId, id]);
    const row = await db.get(`SELECT ${COLUMNS} FROM events e WHERE e.channel_id = ? AND e.id = ?`, [channelId, id]);
    return row ? eventJson(row, clock()) : undefined;
  };

  /** The event as it would be (`before` with `input` over it), checked across fields; what to store. */
  async function resolve(db: ChannelDb, channelId: number, input: Json, before: Json | undefined) {
    const merged = { ...before, ...input } as Json & z.infer<typeof EventCreate>;
    const errors: Record<string, string> = await refErrors(db, channelId, [
      { field: 'category_id', table: 'categories', ids: input.category_id },
      { field: 'location_id', table: 'locations', ids: input.location_id },
      { field: 'participant_ids', table: 'participants', ids: input.participant_ids },
      { field: 'home_team_id', table: 'participants', ids: input.home_team_id },
    ]);
    const participants = merged.participant_ids ?? [];
    if (new Set(participants).size !== participants.length) errors.participant_ids = 'names a participant twice';
    let home = merged.home_team_id ?? null;
    if (input.home_team_id === undefined && input.participant_ids !== undefined)
      home = participants.length >= 2 ? participants[participants.length - 1]! : null;
    if (home !== null && participants.length > 0 && !participants.includes(home))
      errors.home_team_id = 'must be one of participant_ids (home last)';
    let packageId: number | null = null;
    let price: number | null = null;
    if (PAID.has(merged.type)) {
      if (input.package_id !== undefined && input.package_id !== null) {
        const pkg = await db.get("SELECT id, price FROM packages WHERE channel_id = ? AND id = ? AND type = 'single'", [
          channelId,
          input.package_id as number,
        ]);
        if (!pkg) errors.package_id = 'names no single-event package of this channel';
        else [packageId, price] = [Number(pkg.id), Number(pkg.price)];
      } else if (typeof input.price === 'number' && input.price > 0) {
        price = input.price;
        packageId = await singlePackage(db, channelId, price, languageOf(channelId) === 'fr');
      } else if (input.price === undefined && before?.single_event_package_id) {
        packageId = before.single_event_package_id as number;
        price = (before.price as number | null) ?? null;
      } else errors.price = `is needed for a ${merged.type} event (or package_id, a single-event package)`;
    }
    if (Object.keys(errors).length) throw invalid(errors);
    return { merged, home, packageId, price, participants };
  }

  async function writeParticipants(db: ChannelDb, id: number, ids: number[]) {
    await db.run('DELETE FROM event_participants WHERE event_id = ?', [id]);
    for (const [position, participant] of ids.entries())
      await db.run('INSERT INTO event_participants (event_id, participant_id, position) VALUES (?, ?, ?)', [
        id,
        participant,
        position,
      ]);
  }

  const offsetOf = (startsAt: string) => Math.floor(Date.parse(startsAt) / 1000) - clock().anchor;
  /** An event's stored columns, in the order the insert and the update name them (after channel_id / before the id). */
  const storedFields = ({ merged, home, packageId, price }: Awaited<ReturnType<typeof resolve>>): SqlValue[] => [
    merged.name,
    merged.type,
    offsetOf(merged.starts_at),
    (merged.duration_minutes ?? DEFAULT_MINUTES) * 60,
    merged.time_zone,
    home,
    merged.location_id ?? null,
    merged.category_id ?? null,
    merged.image ?? null,
    merged.description ?? null,
    price,
    packageId,
    ...streamValues(merged.stream),
  ];

  return {
    name: 'events',
    create: EventCreate,
    patch: EventPatch,
    async list(db, channelId, offset, limit) {
      const total = Number((await db.get('SELECT count(*) AS n FROM events WHERE channel_id = ?', [channelId]))!.n);
      const rows = await db.all(
        `SELECT ${COLUMNS} FROM events e WHERE e.channel_id = ? ORDER BY e.start_offset, e.id LIMIT ? OFFSET ?`,
        [channelId, limit, offset],
      );
      return { total, data: rows.map((row) => eventJson(row, clock())) };
    },
    get: (db, channelId, id, lock = false) => read(db, channelId, id, lock),
    async insert(db, channelId, input) {
      const resolved = await resolve(db, channelId, input, undefined);
      const id = await db.insert(
        `INSERT INTO events (channel_id, name, type, start_offset, duration, time_zone, home_team_id, location_id,
           category_id, image, description, price, single_event_package_id, ${STREAM_COLUMNS.join(', ')})
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [channelId, ...storedFields(resolved)],
      );
      const { participants } = resolved;
      await writeParticipants(db, id, participants);
      return id;
    },
    async update(db, channelId, id, input, before) {
      const resolved = await resolve(db, channelId, input, before);
      await db.run(
        `UPDATE events SET name = ?, type = ?, start_offset = ?, duration = ?, time_zone = ?, home_team_id = ?,
           location_id = ?, category_id = ?, image = ?, description = ?, price = ?, single_event_package_id = ?,
           ${STREAM_COLUMNS.map((column) => `${column} = ?`).join(', ')}
         WHERE channel_id = ? AND id = ?`,
        [...storedFields(resolved), channelId, id],
      );
      const { participants } = resolved;
      if (input.participant_ids !== undefined) await writeParticipants(db, id, participants);
    },
    async remove(db, channelId, id) {
      const sold = await db.get(
        "SELECT 1 AS one FROM orders WHERE type = 'event' AND product_id = ? UNION ALL SELECT 1 FROM clips WHERE event_id = ? LIMIT 1",
        [id, id],
      );
      if (sold)
        throw new OperatorError(
          409,
          'conflict',
          'Orders or clips name this event: cancel it instead (POST …/events/{id}/cancel).',
        );
      for (const table of ['event_participants', 'event_reschedules'])
        await db.run(`DELETE FROM ${table} WHERE event_id = ?`, [id]);
      await db.run('DELETE FROM events WHERE channel_id = ? AND id = ?', [channelId, id]);
    },
  };
}

/** Cancels an event (its row stays: orders name it); false when it is not the channel's. */
export async function cancelEvent(db: ChannelDb, channelId: number, id: number, nowSeconds: number): Promise<boolean> {
  const changed = await db.run(
    'UPDATE events SET cancelled_at = coalesce(cancelled_at, ?) WHERE channel_id = ? AND id = ?',
    [nowSeconds, channelId, id],
  );
  return changed > 0;
}
