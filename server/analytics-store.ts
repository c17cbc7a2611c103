/**
 * What the channel's analytics service received (the datalake calls: sessions, events, video events and viewing
 * times), kept per channel, bounded and pruned, and saved to `DATA_DIR/analytics.jsonl` so a restart keeps a
 * channel's numbers. Not in the channel database: that one is saved whole on every write, and analytics arrive
 * all the time.
 *
 * Bounds, per channel: at most ANALYTICS_MAX_PER_CHANNEL records and ANALYTICS_MAX_BYTES_PER_CHANNEL of bodies,
 * none older than ANALYTICS_MAX_AGE_MS; past either bound the oldest go first. The file is written at most every
 * ANALYTICS_SAVE_INTERVAL_MS (a temporary file renamed over the old one), one JSON record per line; a line that
 * does not parse is skipped when it is read back.
 *
 * `summary()` is what the dev page shows: sessions, page views, sign-ins, API timings per endpoint (median and
 * 95th percentile, nearest rank), video views per event, and sessions, page views and video views per partner.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { Recorded } from './analytics.js';

/** The most records kept per channel. */
export const ANALYTICS_MAX_PER_CHANNEL = 20_000;
/** The most bytes of bodies (as JSON) kept per channel. */
export const ANALYTICS_MAX_BYTES_PER_CHANNEL = 16 * 1024 * 1024;
/** Records older than this are dropped. */
export const ANALYTICS_MAX_AGE_MS = 30 * 86_400_000;
/** At most one save of the file per this interval. */
export const ANALYTICS_SAVE_INTERVAL_MS = 10_000;
/** The most entries of each recent list in a summary. */
export const SUMMARY_RECENT = 50;

/** A record as stored: which channel it belongs to, and its size. */
interface Stored extends Recorded {
  channel: string;
  bytes: number;
}

/** The bounds of a store (tests make them small). */
export interface StoreLimits {
  maxPerChannel: number;
  maxBytesPerChannel: number;
  maxAgeMs: number;
}

/** The channel's analytics records. */
export class AnalyticsStore {
  private readonly channels = new Map<string, Stored[]>();
  private readonly bytes = new Map<string, number>();
  private nextId = 1;
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  private saving: Promise<void> | undefined;
  private closed = false;

  /** `file`: where the records are kept (none: memory only). */
  constructor(
    private readonly now: () => number,
    private readonly file: string | undefined,
    private readonly limits: StoreLimits = {
      maxPerChannel: ANALYTICS_MAX_PER_CHANNEL,
      maxBytesPerChannel: ANALYTICS_MAX_BYTES_PER_CHANNEL,
      maxAgeMs: ANALYTICS_MAX_AGE_MS,
    },
  ) {
    if (file && existsSync(file)) this.load(file);
  }

  private load(file: string): void {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const record = JSON.parse(line) as Stored;
        if (typeof record.channel !== 'string' || typeof record.id !== 'number' || typeof record.at !== 'number')
          continue;
        this.keep({ ...record, bytes: byteSize(record.body, record.origin) });
        this.nextId = Math.max(this.nextId, record.id + 1);
      } catch {
        // A torn or foreign line: skipped.
      }
    }
    for (const channel of this.channels.keys()) this.prune(channel);
  }

  /** Stores what arrived for `channel`; answers the record. */
  add(channel: string, kind: string, origin: string | null, body: Record<string, unknown>): Recorded {
    const record: Stored = { id: this.nextId++, at: this.now(), kind, origin, body, channel, bytes: 0 };
    record.bytes = byteSize(body, origin);
    this.keep(record);
    this.prune(channel);
    this.scheduleSave();
    return publicRecord(record);
  }

  private keep(record: Stored): void {
    const list = this.channels.get(record.channel) ?? [];
    list.push(record);
    this.channels.set(record.channel, list);
    this.bytes.set(record.channel, (this.bytes.get(record.channel) ?? 0) + record.bytes);
  }

  /** Drops a channel's records past the bounds, oldest first. */
  private prune(channel: string): void {
    const list = this.channels.get(channel);
    if (!list) return;
    const oldest = this.now() - this.limits.maxAgeMs;
    let bytes = this.bytes.get(channel) ?? 0;
    let drop = 0;
    while (
      drop < list.length &&
      (list.length - drop > this.limits.maxPerChannel ||
        bytes > this.limits.maxBytesPerChannel ||
        list[drop]!.at < oldest)
    ) {
      bytes -= list[drop]!.bytes;
      drop++;
    }
    if (drop) {
      list.splice(0, drop);
      this.bytes.set(channel, bytes);
      this.dirty = true;
    }
  }

  /** Prunes every channel by age (the periodic pass). */
  pruneAll(): void {
    for (const channel of this.channels.keys()) this.prune(channel);
    if (this.dirty) this.scheduleSave();
  }

  /** How much a channel holds. */
  size(channel: string): { records: number; bytes: number } {
    return { records: this.channels.get(channel)?.length ?? 0, bytes: this.bytes.get(channel) ?? 0 };
  }

  /** A channel's records at or after `since`, oldest first. */
  records(channel: string, since = 0): Recorded[] {
    return (this.channels.get(channel) ?? []).filter((r) => r.at >= since).map(publicRecord);
  }

  /** Records of every channel for GET /__dev/datalake: at or after `since`, after id `after`, of one kind. */
  query(params: URLSearchParams): Recorded[] {
    const since = params.get('since');
    const after = params.get('after');
    const kind = params.get('kind');
    return [...this.channels.values()]
      .flat()
      .filter(
        (r) =>
          (since === null || r.at >= Number(since)) &&
          (after === null || r.id > Number(after)) &&
          (kind === null || r.kind === kind),
      )
      .sort((a, b) => a.id - b.id)
      .map(publicRecord);
  }

  /** Forgets everything (DELETE /__dev/datalake). */
  clear(): void {
    this.channels.clear();
    this.bytes.clear();
    this.dirty = true;
    this.scheduleSave();
  }

  private scheduleSave(): void {
    if (!this.file) return;
    this.dirty = true;
    if (this.saveTimer || this.saving || this.closed) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, ANALYTICS_SAVE_INTERVAL_MS);
    this.saveTimer.unref();
  }

  private text(): string {
    const lines: string[] = [];
    for (const list of this.channels.values())
      for (const { bytes: _bytes, ...record } of list) lines.push(JSON.stringify(record));
    return lines.length ? `${lines.join('\n')}\n` : '';
  }

  private async save(): Promise<void> {
    if (!this.file || !this.dirty || this.closed) return;
    this.dirty = false;
    const tmp = `${this.file}.tmp`;
    const file = this.file;
    this.saving = writeFile(tmp, this.text())
      .then(() => rename(tmp, file))
      .catch((error: unknown) => {
        console.error('[channel-server] could not save the analytics records:', error);
        this.dirty = true;
      })
      .finally(() => {
        this.saving = undefined;
        if (this.dirty) this.scheduleSave();
      });
    await this.saving;
  }

  /** Saves what is left and stops saving. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    await this.saving;
    if (this.file && this.dirty) {
      const tmp = `${this.file}.tmp`;
      writeFileSync(tmp, this.text());
      renameSync(tmp, this.file);
    }
  }
}

function byteSize(body: unknown, origin: string | null): number {
  return Buffer.byteLength(JSON.stringify(body)) + (origin?.length ?? 0);
}

function publicRecord({ id, at, kind, origin, body }: Stored): Recorded {
  return { id, at, kind, origin, body };
}

// ---------------------------------------------------------------- the channel's numbers

/** The nearest-rank percentile `p` (0 to 100) of sorted values; undefined for none. */
export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

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
