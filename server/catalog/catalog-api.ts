/**
 * The catalog: events (lists, one event, the home page's three lists, downloads of recordings), how they are
 * sorted (categories, locations, participants, schools and their properties) and what is sold or shown around
 * them (packages, subscriptions; the library is library-api.ts; prerolls come with the settings, channel-api.ts). Also what a signed stream id plays now,
 * which the media server asks per request, and the placeholder logos and art of the seeded data.
 *
 * Row-to-contract mapping lives in events.ts and catalog.ts; this module answers the calls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import type { EndpointName } from '../../src/api/contract.js';
import { packageJson, subscriptionJson } from './catalog.js';
import type { Access } from '../accounts/accounts.js';
import type { ChannelDb, Row } from '../storage/db.js';
import {
  eventFilterOf,
  eventForStream,
  eventListText,
  EVENTS_PER_HIT,
  eventStatus,
  liveSpan,
  findEvent,
  listEvents,
  participantJson,
  renderEvent,
  type Clock,
} from './events.js';
import { listWindow, textOrNull as str, type ApiRequest, type Handlers } from '../http/handler.js';
import { addressKey, HttpError } from '../http/http.js';
import type { MediaLibrary } from '../media/media.js';
import { CORS_HEADERS, placeholderSvg } from '../http/static.js';
import type { MediaServer, MediaViewer, StreamTarget, ThumbnailSource } from '../media/streams.js';
import type { IngestMedia } from '../media/ingest/recording.js';

/** The region-block message. */
const GEO_BLOCKED = 'This content is not available in your region.';

/** The contract endpoints this module answers. */
export type CatalogEndpoint = Extract<
  EndpointName,
  | 'events'
  | 'event'
  | 'downloadEvent'
  | 'packages'
  | 'package'
  | 'subscriptions'
  | 'subscription'
  | 'eventCategories'
  | 'homepageEvents'
  | 'eventLocations'
  | 'participants'
  | 'participantGroups'
  | 'groupProperties'
>;

/** What the catalog handlers need from the server. */
export interface CatalogContext {
  db: ChannelDb;
  /** Signs playback and download URLs. */
  mediaServer: MediaServer;
  /** Counts `hits` more requests of this caller against the limit every request passes; throws 429 past it. */
  charge?(r: ApiRequest, hits: number): Promise<void>;
}

/**
 * A download's file name from a name: "Bayshore Pelicans @ Mountain View Rams" -> bayshore-pelicans-at-...mp4;
 * `fallback` when nothing is left of it.
 */
export function downloadName(name: string, fallback = 'event'): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/@/g, ' at ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || fallback}.mp4`;
}

/** Whom a signed media URL is for: the signed-in user, else the api key; at the address that asked. */
export function viewerOf(r: ApiRequest, access: Access): MediaViewer {
  const user = access.user;
  return { identity: user ? `u:${String(user.id)}` : `k:${r.apiKey ?? ''}`, address: addressKey(r.ip) };
}

/**
 * What a signed stream id (`{event}`, `vod-{item}`, `dl-{event}`) plays now: read per request, as events go live,
 * finish or are rescheduled. An event of the generated source plays the one test recording of `library`; an ingest
 * event its own HLS folder under `ingestHlsDir` (INGEST_HLS_DIR), live from its push (liveSpan), then its recording.
 */
export function streamResolver(
  db: ChannelDb,
  library: MediaLibrary,
  clock: () => Clock,
  origin: () => string,
  ingest?: IngestMedia,
): (stream: string) => Promise<StreamTarget> {
  return async (stream) => {
    const [, kind, id] = /^(?:(vod|dl)-)?(\d+)$/.exec(stream) ?? [];
    if (kind === 'vod') {
      // A url or mux item plays from elsewhere: nothing of it is here.
      return (await db.get("SELECT 1 AS ok FROM vod_items WHERE id = ? AND stream_source = 'generated'", [Number(id)]))
        ? { kind: 'vod', asset: library.main }
        : { kind: 'refused', status: 404, message: 'Video not found.' };
    }
    // Every playlist and segment of every viewer asks this: the events' cached form answers, not the database.
    const event = id ? await eventForStream(db, Number(id), clock(), origin()) : undefined;
    if (!event) return { kind: 'refused', status: 404, message: 'Stream not found.' };
    if (event.source === 'url' || event.source === 'mux')
      return { kind: 'refused', status: 404, message: 'This event streams from elsewhere: nothing of it is here.' };
    if (event.geoBlocked) return { kind: 'refused', status: 403, message: GEO_BLOCKED };
    const { anchor, now } = clock();
    const span = liveSpan(event);
    const start = anchor + span.from;
    const finished = now >= anchor + span.until;
    if (now < start) return { kind: 'refused', status: 404, message: 'The stream has not started yet.' };
    if (finished && !event.hasRecording)
      return { kind: 'refused', status: 404, message: 'This event has no recording.' };
    // An ingest event plays its own HLS folder (nginx's); its recording (made on the first download) and its
    // thumbnails (from its segments) come from recording.ts.
    const own = event.source === 'ingest' ? ingest : undefined;
    if (event.source === 'ingest' && !own)
      return { kind: 'refused', status: 404, message: 'Live ingest is not set up on this server.' };
    if (kind === 'dl') {
      if (!finished) return { kind: 'refused', status: 404, message: 'The event has not finished.' };
      const row = await db.get('SELECT name FROM events WHERE id = ?', [event.id]);
      const filename = downloadName(String(row?.name ?? 'event'));
      if (!own) return { kind: 'download', filename };
      if (!own.playlist(event.id)?.segments.length)
        return { kind: 'refused', status: 404, message: 'This event has no recording.' };
      const recording = await own.recording(event.id);
      return { kind: 'download', filename, file: { path: recording.file, bytes: recording.bytes } };
    }
    const thumbnails: ThumbnailSource | undefined = own && {
      vtt: () => own.thumbnailsVtt(event.id, finished ? undefined : { edge: now - (anchor + event.start) }),
      picture: (name) => own.thumbnail(event.id, name),
    };
    if (own) return { kind: 'ingest', dir: own.folder(event.id), live: !finished, ...(thumbnails && { thumbnails }) };
    return finished
      ? { kind: 'vod', asset: library.main }
      : { kind: 'live', asset: library.main, startMs: start * 1000 };
  };
}

/** The placeholder pictures the channel fixtures name (`/media/art/about.svg`...), read from their files. */
export function fixturePictures(fixturesDir: string): Set<string> {
  const named = new Set<string>();
  for (const file of readdirSync(fixturesDir).filter((name) => name.endsWith('.json'))) {
    const text = readFileSync(join(fixturesDir, file), 'utf8');
    for (const m of text.matchAll(/\/media\/(?:logos|art)\/[\w-]+\.svg/g)) named.add(m[0]);
  }
  return named;
}

/**
 * Answers `/media/logos/{slug}.svg` and `/media/art/{slug}.svg`, the seeded data's generated pictures. A picture
 * draws words from its name, so where `named` is given (production) only those names are answered, and logos of
 * the channel's own schools (their names from the database): nobody can have the channel's origin draw words of
 * their choosing. Dev mode (`named` undefined) draws any name.
 */
export async function servePlaceholderArt(
  db: ChannelDb,
  res: ServerResponse,
  path: string,
  named?: ReadonlySet<string>,
): Promise<boolean> {
  const m = /^\/media\/(logos|art)\/([\w-]+)\.svg$/.exec(path);
  if (!m) return false;
  const slug = m[2]!;
  const group =
    m[1] === 'logos' ? await db.get('SELECT name FROM participant_groups WHERE alias = ? LIMIT 1', [slug]) : undefined;
  if (named && !named.has(path) && !group) return false;
  const color =
    m[1] === 'logos'
      ? await db.get(
          'SELECT color FROM participants p JOIN participant_groups g ON g.id = p.group_id WHERE g.alias = ? LIMIT 1',
          [slug],
        )
      : undefined;
  const label = group ? String(group.name) : slug.replace(/-/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
  const svg = placeholderSvg(
    m[1] === 'logos' ? 'logo' : 'art',
    slug,
    label,
    color?.color ? String(color.color) : undefined,
  );
  res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-cache', ...CORS_HEADERS });
  res.end(svg);
  return true;
}

/** The catalog's contract handlers. */
export function catalogHandlers(ctx: CatalogContext): Handlers<CatalogEndpoint> {
  const { db, mediaServer } = ctx;

  /** Pagination of the keyless lists (participants, packages, subscriptions): `no_limit=1` answers all. */
  const listPage = async (query: URLSearchParams, table: string, channelId: number, order: string) => {
    const total = Number(
      (await db.get(`SELECT count(*) AS n FROM ${table} WHERE channel_id = ?`, [channelId]))?.n ?? 0,
    );
    const { meta, sqlLimit } = listWindow(query, total);
    const rows = await db.all(`SELECT * FROM ${table} WHERE channel_id = ? ORDER BY ${order} LIMIT ? OFFSET ?`, [
      channelId,
      sqlLimit,
      meta.offset,
    ]);
    return { rows, meta };
  };

  /** A row of the channel by id from a path parameter, or a 404 with `message`. */
  const rowById = async (table: string, channelId: number, id: string, message: string): Promise<Row> => {
    const row = /^\d+$/.test(id)
      ? await db.get(`SELECT * FROM ${table} WHERE channel_id = ? AND id = ?`, [channelId, Number(id)])
      : undefined;
    if (!row) throw new HttpError(404, message);
    return row;
  };

  /** The event of the path's `{id}` in the caller's channel, or a 404. */
  const eventOf = async (r: ApiRequest) => {
    const id = r.params.id!;
    const event = /^\d+$/.test(id) ? await findEvent(db, r.channelId, Number(id), r.clock, r.origin) : undefined;
    if (!event) throw new HttpError(404, 'Event not found.');
    return event;
  };

  return {
    // Spliced as bytes: the events come serialised from a cache (see eventListText). The request itself counted once.
    events: async (r) => ({
      raw: await eventListText(db, r.channelId, eventFilterOf(r.query), await r.view(), async (events) => {
        const more = Math.ceil(events / EVENTS_PER_HIT) - 1;
        if (more > 0) await ctx.charge?.(r, more);
      }),
    }),
    event: async (r) => ({ raw: `{"data":${renderEvent(await eventOf(r), await r.view())}}` }),
    downloadEvent: async (r) => {
      const event = await eventOf(r);
      const user = await r.user();
      const view = await r.view();
      const access = await r.access();
      if (!access.capabilities.has('download')) throw new HttpError(403, 'Your account cannot download videos.');
      if (!view.canWatch(event)) throw new HttpError(403, 'You do not have access to this event.');
      if (event.geoBlocked || !view.streams) throw new HttpError(403, GEO_BLOCKED);
      if (event.source === 'url' || event.source === 'mux')
        throw new HttpError(422, "This event's recording is not kept on this server: it cannot be downloaded here.");
      if (eventStatus(event, r.clock) !== 'finished' || !event.hasRecording) {
        throw new HttpError(422, 'Only a finished event with a recording can be downloaded.');
      }
      await db.run('UPDATE users SET downloads_count = downloads_count + 1, updated_at = ? WHERE id = ?', [
        r.clock.now,
        user.id!,
      ]);
      const filename = downloadName(String((await db.get('SELECT name FROM events WHERE id = ?', [event.id]))!.name));
      const url = mediaServer.signedUrl(r.origin, `dl-${event.id}`, viewerOf(r, access), `download/${filename}`);
      return { data: { url, filename } };
    },
    packages: async ({ channelId, query }) => {
      const { rows, meta } = await listPage(query, 'packages', channelId, 'position, id');
      return { data: await Promise.all(rows.map((row) => packageJson(db, row))), meta };
    },
    package: async ({ channelId, params }) => ({
      data: await packageJson(db, await rowById('packages', channelId, params.id!, 'Package not found.')),
    }),
    subscriptions: async ({ channelId, query }) => {
      const { rows, meta } = await listPage(query, 'subscriptions', channelId, 'position, id');
      return { data: rows.map(subscriptionJson), meta };
    },
    subscription: async ({ channelId, params }) => ({
      data: subscriptionJson(await rowById('subscriptions', channelId, params.id!, 'Subscription not found.')),
    }),
    eventCategories: async ({ channelId }) => {
      const rows = await db.all('SELECT * FROM categories WHERE channel_id = ? ORDER BY position, id', [channelId]);
      const node = (row: Row): Record<string, unknown> => ({
        id: Number(row.id),
        name: String(row.name),
        alias: str(row.alias),
        parent_id: row.parent_id === null ? null : Number(row.parent_id),
        sport: str(row.sport),
        gender: str(row.gender),
        children: rows.filter((child) => child.parent_id === row.id).map(node),
      });
      return { data: rows.filter((row) => row.parent_id === null).map(node) };
    },
    homepageEvents: async (r) => {
      const view = await r.view();
      const kind = (status: 'live' | 'upcoming' | 'finished') =>
        listEvents(db, r.channelId, { status, offset: 0, limit: 10 }, view);
      const [live, upcoming, finished] = await Promise.all([kind('live'), kind('upcoming'), kind('finished')]);
      return { data: { live, upcoming, finished } };
    },
    eventLocations: async ({ channelId }) => ({
      data: (await db.all('SELECT * FROM locations WHERE channel_id = ? ORDER BY name, id', [channelId])).map(
        (row) => ({
          id: Number(row.id),
          name: String(row.name),
          city: str(row.city),
          state: str(row.state),
          time_zone: str(row.time_zone),
        }),
      ),
    }),
    participants: async ({ channelId, query, media }) => {
      const { rows, meta } = await listPage(query, 'participants', channelId, 'name, id');
      // Every team is listed (a child too), and a team with teams of its own lists them as its children.
      const ids = rows.map((row) => Number(row.id));
      const children = ids.length
        ? await db.all(`SELECT * FROM participants WHERE parent_id IN (${ids.join(',')}) ORDER BY name, id`)
        : [];
      return {
        data: rows.map((row) => {
          const own = children.filter((child) => child.parent_id === row.id).map((c) => participantJson(c, media));
          return { ...participantJson(row, media), ...(own.length ? { children: own } : {}) };
        }),
        meta,
      };
    },
    participantGroups: async ({ channelId, media }) => ({
      data: (await db.all('SELECT * FROM participant_groups WHERE channel_id = ? ORDER BY name, id', [channelId])).map(
        (row) => ({
          id: Number(row.id),
          name: String(row.name),
          alias: str(row.alias),
          image: media(row.image),
          // The school's properties (conference, division, ...): what video analytics report as its league.
          properties: groupProperties(row.properties_json),
        }),
      ),
    }),
    groupProperties: async ({ channelId }) => {
      // Derived from the schools' own properties, so a new school's conference shows up without extra data.
      const values = new Map<string, Set<string>>();
      for (const row of await db.all(
        'SELECT properties_json FROM participant_groups WHERE channel_id = ? ORDER BY id',
        [channelId],
      )) {
        for (const [name, value] of Object.entries(
          JSON.parse(String(row.properties_json)) as Record<string, unknown>,
        )) {
          if (value === null || value === undefined) continue;
          if (!values.has(name)) values.set(name, new Set());
          values.get(name)!.add(String(value));
        }
      }
      return { data: [...values].map(([name, set]) => ({ name, values: [...set].sort() })) };
    },
  };
}

/** A school's stored properties as strings (or null), whatever the stored JSON holds. */
function groupProperties(json: unknown): Record<string, string | null> {
  try {
    const parsed = JSON.parse(String(json ?? '{}')) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(parsed).map(([name, value]) => [
        name,
        value === null || value === undefined ? null : String(value),
      ]),
    );
  } catch {
    return {};
  }
}
