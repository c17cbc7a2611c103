/**
 * The video-on-demand library's endpoints: a page of items (newest first, optionally of one category), one item,
 * the categories with their item counts, search by title, and the rails. Every item says whether the caller may
 * watch it (`has_access`: free for everyone, register for signed-in viewers, paid with `vod_media_access`,
 * `vod_media` or an active subscription; accounts.ts `canWatchVod`) and lists its signed `vod` stream only then,
 * and only for a viewer who is not geo-blocked, as events do. Its image and preview (library-media.ts) are public.
 */
import { VOD_SEARCH_LIMIT, VOD_SEARCH_MAX_LIMIT, VOD_SORT_FIELDS, type EndpointName } from '../../src/api/contract.js';
import { viewerOf } from './catalog-api.js';
import type { ChannelDb, Row, SqlValue } from '../storage/db.js';
import {
  idOf,
  INVALID,
  listWindow,
  numberOrNull,
  textOrNull,
  type ApiRequest,
  type Handlers,
} from '../http/handler.js';
import { HttpError } from '../http/http.js';
import type { MediaServer, MediaViewer } from '../media/streams.js';
import {
  muxStoryboardUrl,
  muxStreamUrl,
  muxThumbnailUrl,
  type MuxAudience,
  type MuxTokens,
} from '../media/sources/mux.js';

/** The contract endpoints this module answers. */
export type LibraryEndpoint = Extract<
  EndpointName,
  'vodItems' | 'vodItem' | 'vodCategories' | 'vodSearch' | 'vodRails'
>;

/** The longest title a search takes. */
export const VOD_SEARCH_TITLE_MAX = 100;

/** What the library handlers need from the server. */
export interface LibraryContext {
  db: ChannelDb;
  /** Signs playback URLs. */
  mediaServer: MediaServer;
  /** Mints signed Mux items' playback tokens. */
  muxTokens: Pick<MuxTokens, 'token'>;
  /** The length of the test recording every item plays, in whole seconds (an item's duration unless it has one). */
  recordingSeconds: number;
  /** The public paths of an item's generated image and preview, if they were made. */
  assets(key: string): { image: string; preview: string } | undefined;
}

/** Items with their library category's name, for the JSON. */
const ITEMS = `SELECT v.*, c.name AS category_name FROM vod_items v LEFT JOIN vod_categories c ON c.id = v.vod_category_id`;

/**
 * Text folded for matching: case, accents and ligatures ("Été" ~ "ete", "cœur" ~ "coeur"), typographic apostrophes
 * and runs of spaces do not count.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\s+/g, ' ');
}

/** The query's `vod_media_category_id`: undefined when absent, else an id (a 422 entry when malformed). */
function categoryOf(query: URLSearchParams, errors: Record<string, string[]>): number | undefined {
  const raw = query.get('vod_media_category_id');
  if (raw === null || raw === '') return undefined;
  const id = idOf(raw);
  if (id === undefined) errors.vod_media_category_id = ['The vod media category id must be a positive integer.'];
  return id;
}

/** A validated search query, or a 422 with every problem by field. */
function searchQuery(query: URLSearchParams) {
  const errors: Record<string, string[]> = {};
  const int = (name: string, fallback: number, min: number, max: number, message: string) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    const n = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
    if (!(n >= min && n <= max)) errors[name] = [message];
    return n;
  };
  const title = (query.get('title') ?? '').trim();
  if (title.length > VOD_SEARCH_TITLE_MAX)
    errors.title = [`The title may not be greater than ${VOD_SEARCH_TITLE_MAX} characters.`];
  const limit = int(
    'limit',
    VOD_SEARCH_LIMIT,
    1,
    VOD_SEARCH_MAX_LIMIT,
    `The limit must be an integer between 1 and ${VOD_SEARCH_MAX_LIMIT}.`,
  );
  const offset = int('offset', 0, 0, Number.MAX_SAFE_INTEGER, 'The offset must be an integer of at least 0.');
  const sort = query.get('sort_field') || 'date';
  if (!(VOD_SORT_FIELDS as readonly string[]).includes(sort))
    errors.sort_field = [`The sort field must be one of: ${VOD_SORT_FIELDS.join(', ')}.`];
  const category = categoryOf(query, errors);
  if (Object.keys(errors).length) throw new HttpError(422, INVALID, errors);
  return { title, limit, offset, sort: sort as (typeof VOD_SORT_FIELDS)[number], category };
}

/** The library's contract handlers. */
export function libraryHandlers(ctx: LibraryContext): Handlers<LibraryEndpoint> {
  const { db, mediaServer, recordingSeconds, assets, muxTokens } = ctx;

  /**
   * An item's stream for a viewer with access, by its source (as events': catalog/events.ts streamMedia): the signed
   * generated media with its thumbnails track, a `url` as the channel gave it, a Mux playback id's playlist and
   * storyboard (with tokens when signed; none at all when the channel has no signing key).
   */
  const streamOf = (r: ApiRequest, row: Row, viewer: MediaViewer): Array<{ type: string; url: string }> => {
    if (row.stream_source === 'url')
      return row.stream_url === null ? [] : [{ type: 'vod', url: String(row.stream_url) }];
    if (row.stream_source === 'mux' && row.mux_playback_id !== null) {
      const id = String(row.mux_playback_id);
      const signed = (url: string, aud: MuxAudience) => {
        if (!row.mux_signed) return url;
        const token = muxTokens.token(r.channelId, id, aud);
        return token === undefined ? undefined : `${url}?token=${token}`;
      };
      const [video, storyboard] = [signed(muxStreamUrl(id), 'v'), signed(muxStoryboardUrl(id), 's')];
      return video && storyboard
        ? [
            { type: 'vod', url: video },
            { type: 'thumbnails', url: storyboard },
          ]
        : [];
    }
    // The thumbnails track lives under the same signed stream folder (as for events).
    const stream = mediaServer.signedUrl(r.origin, `vod-${row.id}`, viewer);
    return [
      { type: 'vod', url: stream },
      { type: 'thumbnails', url: stream.replace(/master\.m3u8$/, 'thumbs/thumbnails.vtt') },
    ];
  };

  /**
   * The picture of a Mux item without one of its own (as an event's poster): the playback id's still, public for an
   * unsigned id, for a signed one only to viewers with access (a `t` token, none without the channel's signing key).
   */
  const muxStill = (r: ApiRequest, row: Row, watches: boolean): string | undefined => {
    if (row.stream_source !== 'mux' || row.mux_playback_id === null) return undefined;
    const id = String(row.mux_playback_id);
    if (!row.mux_signed) return muxThumbnailUrl(id);
    const token = watches ? muxTokens.token(r.channelId, id, 't') : undefined;
    return token === undefined ? undefined : `${muxThumbnailUrl(id)}?token=${token}`;
  };

  /** Renders rows of ITEMS for one caller: access and the stream decided once per request. */
  const renderer = async (r: ApiRequest) => {
    const access = await r.access();
    const streams = (await r.view()).streams;
    const viewer = viewerOf(r, access);
    return (row: Row): Record<string, unknown> => {
      const allowed = access.canWatchVod(String(row.type));
      const paths = row.asset === null ? undefined : assets(String(row.asset));
      const image = paths ? r.media(paths.image)! : undefined;
      const preview = paths ? r.media(paths.preview)! : undefined;
      const still = paths ? undefined : muxStill(r, row, allowed && streams);
      return {
        id: Number(row.id),
        title: String(row.title),
        date: textOrNull(row.date),
        type: String(row.type),
        has_access: allowed,
        duration: row.duration === null ? recordingSeconds : Number(row.duration),
        description: textOrNull(row.description),
        event_category_id: numberOrNull(row.category_id),
        vod_media_category_id: numberOrNull(row.vod_category_id),
        category:
          row.vod_category_id === null ? null : { id: Number(row.vod_category_id), name: String(row.category_name) },
        assets: paths
          ? [
              { type: 'image', path: image },
              { type: 'preview', path: preview },
            ]
          : still
            ? [{ type: 'image', path: still }]
            : [],
        media: [
          ...(paths
            ? [
                { type: 'image', url: image },
                { type: 'preview', url: preview },
              ]
            : still
              ? [{ type: 'image', url: still }]
              : []),
          ...(allowed && streams ? streamOf(r, row, viewer) : []),
        ],
      };
    };
  };

  /** Newest first; ties by id, newest row first. */
  const NEWEST = 'ORDER BY v.date DESC, v.id DESC';

  return {
    vodItems: async (r) => {
      const errors: Record<string, string[]> = {};
      const category = categoryOf(r.query, errors);
      if (Object.keys(errors).length) throw new HttpError(422, INVALID, errors);
      const where = `WHERE v.channel_id = ?${category === undefined ? '' : ' AND v.vod_category_id = ?'}`;
      const params: SqlValue[] = category === undefined ? [r.channelId] : [r.channelId, category];
      const total = Number((await db.get(`SELECT count(*) AS n FROM vod_items v ${where}`, params))?.n ?? 0);
      const { meta, sqlLimit } = listWindow(r.query, total);
      const rows = await db.all(`${ITEMS} ${where} ${NEWEST} LIMIT ? OFFSET ?`, [...params, sqlLimit, meta.offset]);
      return { data: rows.map(await renderer(r)), meta };
    },
    vodItem: async (r) => {
      const id = idOf(r.params.id);
      const row =
        id === undefined ? undefined : await db.get(`${ITEMS} WHERE v.channel_id = ? AND v.id = ?`, [r.channelId, id]);
      if (!row) throw new HttpError(404, 'Video not found.');
      return { data: (await renderer(r))(row) };
    },
    vodCategories: async ({ channelId }) => ({
      data: (
        await db.all(
          `SELECT c.id, c.name, c.alias, (SELECT count(*) FROM vod_items v WHERE v.vod_category_id = c.id) AS items_count
           FROM vod_categories c WHERE c.channel_id = ? ORDER BY c.position, c.id`,
          [channelId],
        )
      ).map((row) => ({
        id: Number(row.id),
        name: String(row.name),
        alias: textOrNull(row.alias),
        items_count: Number(row.items_count),
      })),
    }),
    vodSearch: async (r) => {
      const { title, limit, offset, sort, category } = searchQuery(r.query);
      // A channel's library is small (tens of items): matching and ordering in JS gets accents and the channel's
      // language right, whatever the database's collation.
      const wanted = foldText(title);
      const rows = (
        await db.all(
          `${ITEMS} WHERE v.channel_id = ?${category === undefined ? '' : ' AND v.vod_category_id = ?'} ${NEWEST}`,
          category === undefined ? [r.channelId] : [r.channelId, category],
        )
      ).filter((row) => foldText(String(row.title)).includes(wanted));
      if (sort === 'title') {
        const collator = new Intl.Collator(r.settings().language, { sensitivity: 'base', numeric: true });
        rows.sort((a, b) => collator.compare(String(a.title), String(b.title)) || Number(a.id) - Number(b.id));
      }
      return {
        data: rows.slice(offset, offset + limit).map(await renderer(r)),
        meta: { total: rows.length, offset, limit },
      };
    },
    vodRails: async (r) => {
      const rails = await db.all('SELECT id, title FROM vod_rails WHERE channel_id = ? ORDER BY position, id', [
        r.channelId,
      ]);
      const members = await db.all(
        `SELECT ri.rail_id, v.*, c.name AS category_name FROM vod_rail_items ri
           JOIN vod_rails rl ON rl.id = ri.rail_id
           JOIN vod_items v ON v.id = ri.item_id
           LEFT JOIN vod_categories c ON c.id = v.vod_category_id
         WHERE rl.channel_id = ? ORDER BY ri.rail_id, ri.position`,
        [r.channelId],
      );
      const render = await renderer(r);
      return {
        data: rails.map((rail) => ({
          id: Number(rail.id),
          title: String(rail.title),
          vod_media_items: members.filter((m) => m.rail_id === rail.id).map(render),
        })),
      };
    },
  };
}
