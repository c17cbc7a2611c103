/**
 * The contract's schemas of the video-on-demand library: categories, items, pages of items and rails. Re-exported by contract.ts, which the server and the tests import (browser code imports this module).
 */
import * as z from 'zod/mini';
import {
  endpointTable,
  envelope,
  flag,
  id,
  list,
  maybeText,
  num,
  obj,
  opt,
  optStrict,
  paged,
  text,
} from './schema-kit.js';
import { EventMedia } from './channel-schemas.js';

/** A library category (`GET vod-media-categories`). */
export const VodCategory = obj({
  id: id,
  name: text,
  alias: maybeText,
  /** How many items it holds. */
  items_count: opt(num),
});
export type VodCategory = z.infer<typeof VodCategory>;

/**
 * A video-on-demand library item (`GET vod-media-items`, `vod-media-items/{id}`, `vod-media/search`, in rails).
 * `type` is a content type: `free` for everyone, `register` for signed-in viewers, `paid` for viewers with the
 * `vod_media_access` capability or an active subscription. `assets` are its `image` (a thumbnail) and `preview`
 * (a short silent MP4 loop shown on hover); `media` adds the `vod` stream for callers with access.
 */
export const VodItem = obj({
  id: id,
  title: text,
  date: maybeText,
  type: optStrict(z.string(), 'free'),
  has_access: optStrict(flag, false),
  duration: opt(num),
  description: maybeText,
  event_category_id: opt(id),
  vod_media_category_id: opt(id),
  category: opt(obj({ id: id, name: text })),
  assets: opt(list(obj({ type: text, path: text })), []),
  /** As for events: the `vod` stream only for callers with access. */
  media: opt(list(EventMedia), []),
});
export type VodItem = z.infer<typeof VodItem>;

/** A page of library items (`GET vod-media-items`, `GET vod-media/search`). */
export const VodItemList = paged(VodItem);
export type VodItemList = z.infer<typeof VodItemList>;

/** A rail of the library (`GET vod-media-rails`): a titled row of items. */
export const VodRail = obj({ id: id, title: text, vod_media_items: opt(list(VodItem), []) });
export type VodRail = z.infer<typeof VodRail>;

/** Library search defaults (spec: limit 10, offset 0, sorted by date, newest first). */
export const VOD_SEARCH_LIMIT = 10;
/** The most library items one request may ask for (`limit`); more is a 422. */
export const VOD_SEARCH_MAX_LIMIT = 50;
export const VOD_SORT_FIELDS = ['date', 'title'] as const;

// ---------------------------------------------------------------- endpoints

/** The library's calls. */
export const vodApi = endpointTable({
  /** limit, offset, vod_media_category_id: a page of the library, newest first. */
  vodItems: { method: 'GET', path: 'vod-media-items', keyless: false, response: VodItemList },
  vodItem: { method: 'GET', path: 'vod-media-items/{id}', keyless: false, response: envelope(VodItem) },
  vodCategories: {
    method: 'GET',
    path: 'vod-media-categories',
    keyless: false,
    response: envelope(list(VodCategory)),
  },
  /** title, limit (10), offset (0), sort_field (date; or title), vod_media_category_id. */
  vodSearch: { method: 'GET', path: 'vod-media/search', keyless: false, response: VodItemList },
  vodRails: { method: 'GET', path: 'vod-media-rails', keyless: false, response: envelope(list(VodRail)) },
});
