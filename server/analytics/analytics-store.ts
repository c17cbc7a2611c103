/**
 * What the channel's analytics service received (the datalake calls: sessions, events, video events and viewing
 * times), kept per channel in the database (the `analytics` table), so every process sees the same numbers and a
 * restart keeps them.
 *
 * Bounds, so that no sender can wipe or drown a channel's history:
 * - by age: records older than `maxAgeMs` (30 days) are deleted, in batches of PRUNE_BATCH by the indexed time;
 * - per sender: one client address may add at most `maxPerAddress` records and `maxBytesPerAddress` of bodies to a
 *   channel per clock hour (ADDRESS_WINDOW_MS, a fixed window); past that its records are refused (429), never
 *   anyone else's dropped;
 * - per channel: at most `maxPerChannel` records and `maxBytesPerChannel`; a full channel refuses new records until
 *   old ones age out. Nothing is ever evicted to make room.
 *
 * The checks read running totals, not the records: `analytics_totals` (what a channel holds) and
 * `analytics_senders` (what a sender added in an hour), each one row, updated with a conditional upsert in the
 * transaction that inserts the record, so a check and its count are one step for every process (the row is locked
 * until the record is in), and decremented by the pruning with what each batch deleted.
 *
 * `summary()` is what the dev page shows: sessions, page views, sign-ins, API timings per endpoint (median and
 * 95th percentile, nearest rank), video views per event, and sessions, page views and video views per partner.
 */
import type { ChannelDb, Row } from '../storage/db.js';
import { HttpError } from '../http/http.js';

/** One call or beacon received, as the dev endpoints list it. */
export interface Recorded {
  id: number;
  /** Server clock (ms) when it arrived. */
  at: number;
  /** For the datalake: hash, session, event, video-event or video-viewing; 'beacon' for Mux. */
  kind: string;
  /** The Origin header: which page sent it. */
  origin: string | null;
  body: Record<string, unknown>;
}

/** The most records kept per channel. */
export const ANALYTICS_MAX_PER_CHANNEL = 1_000_000;
/** The most bytes of bodies (as JSON) kept per channel. */
export const ANALYTICS_MAX_BYTES_PER_CHANNEL = 512 * 1024 * 1024;
/** Records older than this are dropped. */
export const ANALYTICS_MAX_AGE_MS = 30 * 86_400_000;
/** What one client address may add to a channel per clock hour of ADDRESS_WINDOW_MS: records and bytes. */
export const ANALYTICS_MAX_PER_ADDRESS = 2000;
export const ANALYTICS_MAX_BYTES_PER_ADDRESS = 2 * 1024 * 1024;
export const ADDRESS_WINDOW_MS = 3_600_000;
/** Records deleted per statement when expiring (each batch is short, so nothing waits long behind it). */
export const PRUNE_BATCH = 5000;
/** The most entries of each recent list in a summary. */
export const SUMMARY_RECENT = 50;

/** The bounds of a store (tests make them small). */
export interface StoreLimits {
  maxPerChannel: number;
  maxBytesPerChannel: number;
  maxAgeMs: number;
  maxPerAddress?: number;
  maxBytesPerAddress?: number;
}

/** Answered when a sender or a channel has no room left (the client drops the record; a later one may go). */
export const QUOTA_MESSAGE = 'Too many analytics records from this address. Please try again later.';
export const FULL_MESSAGE = 'This channel cannot keep more analytics records for now.';

const toRecord = (row: Row): Recorded => ({
  id: Number(row.id),
  at: Number(row.at),
  kind: String(row.kind),
  origin: row.origin === null ? null : String(row.origin),
  body: JSON.parse(String(row.body)) as Record<string, unknown>,
});

/** The channel's analytics records. */
export class AnalyticsStore {
  private readonly limits: Required<StoreLimits>;

  constructor(
    private readonly db: ChannelDb,
    private readonly now: () => number,
    limits: StoreLimits = {
      maxPerChannel: ANALYTICS_MAX_PER_CHANNEL,
      maxBytesPerChannel: ANALYTICS_MAX_BYTES_PER_CHANNEL,
      maxAgeMs: ANALYTICS_MAX_AGE_MS,
    },
  ) {
    this.limits = {
      maxPerAddress: ANALYTICS_MAX_PER_ADDRESS,
      maxBytesPerAddress: ANALYTICS_MAX_BYTES_PER_ADDRESS,
      ...limits,
    };
  }

  /**
   * Stores what arrived for `channel` from `address`; answers the record's id, or throws 429 when the address or the
   * channel has no room (see the file comment).
   */
  async add(
    channel: string,
    kind: string,
    origin: string | null,
    body: Record<string, unknown>,
    address: string,
  ): Promise<number> {
    const text = JSON.stringify(body);
    const bytes = Buffer.byteLength(text) + (origin?.length ?? 0);
    const at = this.now();
    const { limits } = this;
    // The sender's hour and the channel's total, each counted only while within its bound (the upsert's WHERE,
    // checked with the row locked), then the record. A refusal throws, which rolls back a count already taken.
    return this.db.transaction(async () => {
      const row = await this.db.get(
        `WITH sender AS (
           INSERT INTO analytics_senders AS s (channel, address, hour, records, bytes)
           SELECT :channel::text, :address::text, :hour::bigint, 1, :bytes::bigint
           WHERE :maxPerAddress::bigint >= 1 AND :bytes::bigint <= :maxBytesPerAddress::bigint
           ON CONFLICT (channel, address, hour) DO UPDATE SET records = s.records + 1, bytes = s.bytes + excluded.bytes
           WHERE s.records < :maxPerAddress::bigint AND s.bytes + excluded.bytes <= :maxBytesPerAddress::bigint
           RETURNING 1),
         whole AS (
           INSERT INTO analytics_totals AS t (channel, records, bytes)
           SELECT :channel::text, 1, :bytes::bigint FROM sender
           WHERE :maxPerChannel::bigint >= 1 AND :bytes::bigint <= :maxBytesPerChannel::bigint
           ON CONFLICT (channel) DO UPDATE SET records = t.records + 1, bytes = t.bytes + excluded.bytes
           WHERE t.records < :maxPerChannel::bigint AND t.bytes + excluded.bytes <= :maxBytesPerChannel::bigint
           RETURNING 1),
         stored AS (
           INSERT INTO analytics (channel, at, kind, origin, address, bytes, body)
           SELECT :channel::text, :at::bigint, :kind::text, :origin::text, :address::text, :bytes::int, :body::text
           FROM whole
           RETURNING id)
         SELECT EXISTS (SELECT 1 FROM sender) AS sender, (SELECT id FROM stored) AS id`,
        {
          channel,
          address,
          hour: Math.floor(at / ADDRESS_WINDOW_MS),
          at,
          kind,
          origin,
          bytes,
          body: text,
          maxPerAddress: limits.maxPerAddress,
          maxBytesPerAddress: limits.maxBytesPerAddress,
          maxPerChannel: limits.maxPerChannel,
          maxBytesPerChannel: limits.maxBytesPerChannel,
        },
      );
      if (row?.id !== null && row?.id !== undefined) return Number(row.id);
      throw new HttpError(429, row?.sender ? FULL_MESSAGE : QUOTA_MESSAGE);
    });
  }

  /**
   * Deletes records past the age bound, PRUNE_BATCH at a time, taking what each batch deleted off its channels'
   * totals in the same statement; forgets the senders' counts of past hours. Answers how many records went.
   */
  async prune(): Promise<number> {
    const now = this.now();
    await this.db.run('DELETE FROM analytics_senders WHERE hour < ?', [Math.floor(now / ADDRESS_WINDOW_MS)]);
    let total = 0;
    for (;;) {
      const row = await this.db.get(
        `WITH gone AS (
           DELETE FROM analytics WHERE id IN (SELECT id FROM analytics WHERE at < ? ORDER BY at LIMIT ?)
           RETURNING channel, bytes),
         per_channel AS (SELECT channel, count(*) AS records, sum(bytes) AS bytes FROM gone GROUP BY channel),
         totals AS (
           UPDATE analytics_totals t SET records = t.records - p.records, bytes = t.bytes - p.bytes
           FROM per_channel p WHERE t.channel = p.channel RETURNING 1)
         SELECT (SELECT count(*) FROM gone) AS gone`,
        [now - this.limits.maxAgeMs, PRUNE_BATCH],
      );
      const gone = Number(row?.gone ?? 0);
      total += gone;
      if (gone < PRUNE_BATCH) return total;
      // Let requests waiting for the database go between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** How much a channel holds (records not yet pruned). */
  async size(channel: string): Promise<{ records: number; bytes: number }> {
    const row = await this.db.get('SELECT records, bytes FROM analytics_totals WHERE channel = ?', [channel]);
    return { records: Number(row?.records ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  /** A channel's records at or after `since`, oldest first. */
  async records(channel: string, since = 0): Promise<Recorded[]> {
    const rows = await this.db.all(
      'SELECT id, at, kind, origin, body FROM analytics WHERE channel = ? AND at >= ? AND at > ? ORDER BY at, id',
      [channel, since, this.now() - this.limits.maxAgeMs],
    );
    return rows.map(toRecord);
  }

  /** Records of every channel for GET /__dev/datalake: at or after `since`, after id `after`, of one kind. */
  async query(params: URLSearchParams): Promise<Recorded[]> {
    const number = (name: string) => {
      const value = params.get(name);
      return value === null || value === '' || !Number.isFinite(Number(value)) ? null : Number(value);
    };
    const rows = await this.db.all(
      `SELECT id, at, kind, origin, body FROM analytics
       WHERE (:since::bigint IS NULL OR at >= :since) AND (:after::bigint IS NULL OR id > :after)
         AND (:kind::text IS NULL OR kind = :kind) ORDER BY id`,
      { since: number('since'), after: number('after'), kind: params.get('kind') },
    );
    return rows.map(toRecord);
  }

  /** Forgets everything, the totals and the senders' counts too (DELETE /__dev/datalake). */
  async clear(): Promise<void> {
    await this.db.transaction(async () => {
      await this.db.run('DELETE FROM analytics');
      await this.db.run('DELETE FROM analytics_totals');
      await this.db.run('DELETE FROM analytics_senders');
    });
  }
}

/** The nearest-rank percentile `p` (0 to 100) of sorted values; undefined for none. */
export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

// ---------------------------------------------------------------- the channel's numbers

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const number = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** A tally of names, most first (then by name). */
function tally<T extends string>(values: Iterable<string>, key: T): ({ count: number } & Record<T, string>)[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, count]) => ({ [key]: name, count }) as { count: number } & Record<T, string>);
}

/** What the dev page shows of a channel, from its records at or after `since`. */
export function summary(records: readonly Recorded[], tagEvents: readonly string[] = []) {
  const sessions = records.filter((r) => r.kind === 'session');
  const events = records.filter((r) => r.kind === 'event');
  const views = events.filter((r) => r.body.event === 'visit_page');
  const logins = events.filter((r) => r.body.event === 'login');
  const recentFirst = <T extends Recorded>(list: readonly T[]) => [...list].reverse().slice(0, SUMMARY_RECENT);

  // API timings: every call of every api_request batch, per endpoint and method.
  const calls = events
    .filter((r) => r.body.event === 'api_request' && Array.isArray(r.body.requests))
    .flatMap((r) => r.body.requests as Record<string, unknown>[]);
  const byService = new Map<string, { service: string; method: string; times: number[]; errors: number }>();
  for (const call of calls) {
    const service = text(call.service) ?? '?';
    const method = text(call.method) ?? 'GET';
    const key = `${method} ${service}`;
    let entry = byService.get(key);
    if (!entry) byService.set(key, (entry = { service, method, times: [], errors: 0 }));
    const time = number(call.time_ms);
    if (time !== null) entry.times.push(time);
    const status = number(call.status) ?? 0;
    if (status === 0 || status >= 400) entry.errors++;
  }
  const api = [...byService.values()]
    .map(({ service, method, times, errors }) => {
      const sorted = [...times].sort((a, b) => a - b);
      return {
        service,
        method,
        count: times.length,
        errors,
        median_ms: percentile(sorted, 50) ?? null,
        p95_ms: percentile(sorted, 95) ?? null,
      };
    })
    .sort((a, b) => b.count - a.count || a.service.localeCompare(b.service));

  // Video views per stream: first_frame events are views; viewing reports add up.
  const videos = new Map<
    string,
    {
      stream_id: string;
      title: string | null;
      category: string | null;
      views: number;
      firstFrames: number[];
      seconds: number;
    }
  >();
  const video = (body: Record<string, unknown>) => {
    const id = String(body.stream_id ?? '?');
    let entry = videos.get(id);
    if (!entry)
      videos.set(id, (entry = { stream_id: id, title: null, category: null, views: 0, firstFrames: [], seconds: 0 }));
    entry.title ??= text(body.title);
    entry.category ??= text(body.category);
    return entry;
  };
  for (const r of records) {
    if (r.kind === 'video-event' && r.body.event === 'first_frame') {
      const entry = video(r.body);
      entry.views++;
      const ms = number(r.body.first_frame_ms);
      if (ms !== null) entry.firstFrames.push(ms);
    } else if (r.kind === 'video-viewing') {
      video(r.body).seconds += number(r.body.viewing_time) ?? 0;
    }
  }

  return {
    sessions: {
      count: sessions.length,
      recent: recentFirst(sessions).map((r) => ({
        at: r.at,
        session: text(r.body.session),
        device_type: text(r.body.device_type),
        resolution: text(r.body.resolution),
        user_agent: text(r.body.user_agent),
        origin_url: text(r.body.origin_url),
        trk: text(r.body.trk),
      })),
    },
    page_views: {
      count: views.length,
      by_page: tally(
        views.map((r) => text(r.body.page) ?? '?'),
        'page',
      ),
      recent: recentFirst(views).map((r) => ({
        at: r.at,
        page: text(r.body.page),
        previous_page: text(r.body.previous_page),
        title: text(r.body.title),
        user_id: r.body.user_id ?? null,
        session_uuid: text(r.body.session_uuid),
        trk: text(r.body.trk),
      })),
    },
    logins: {
      count: logins.length,
      by_method: tally(
        logins.map((r) => text(r.body.method) ?? '?'),
        'method',
      ),
    },
    api: { calls: calls.length, by_service: api },
    videos: [...videos.values()]
      .map(({ firstFrames, seconds, ...rest }) => ({
        ...rest,
        median_first_frame_ms:
          percentile(
            [...firstFrames].sort((a, b) => a - b),
            50,
          ) ?? null,
        viewing_seconds: seconds,
      }))
      .sort((a, b) => b.views - a.views || a.stream_id.localeCompare(b.stream_id)),
    tag_manager: tally(tagEvents, 'name'),
    partners: byPartner(records),
  };
}

/** What one partner's pages brought (or, partner null, the pages of none): sessions, page views, video views. */
export interface PartnerViewers {
  partner: string | null;
  sessions: number;
  page_views: number;
  video_views: number;
}

/** Sessions, page views and video views per partner (the bodies' `partner`), in order of first appearance. */
function byPartner(records: readonly Recorded[]): PartnerViewers[] {
  const partners = new Map<string | null, PartnerViewers>();
  for (const r of records) {
    const field =
      r.kind === 'session'
        ? 'sessions'
        : r.kind === 'event' && r.body.event === 'visit_page'
          ? 'page_views'
          : r.kind === 'video-event' && r.body.event === 'first_frame'
            ? 'video_views'
            : undefined;
    if (!field) continue;
    const partner = text(r.body.partner);
    let entry = partners.get(partner);
    if (!entry) partners.set(partner, (entry = { partner, sessions: 0, page_views: 0, video_views: 0 }));
    entry[field]++;
  }
  return [...partners.values()];
}
