/** What a library view shows and how: its typed options, whoever builds them (the tag's attributes, a site page). */
import type { VodItem } from '../../api/vod-schemas.js';

/** The options of a library view. */
export interface LibraryOptions {
  /** The link of an item: a relative or http(s) template with `{id}`. */
  watchUrl: string;
  /** A category (id, alias or name) to open first instead of the rails. */
  category?: string | undefined;
  /** Whether the view shows its own heading (a site page has its page heading instead); default true. */
  heading?: boolean | undefined;
}

/**
 * How often a rail moves on by one card by itself (spec: "VOD rail carousel: scroll time 5000 ms"); never for a
 * viewer who prefers reduced motion, nor while the pointer is over it or focus is inside it.
 */
export const RAIL_SCROLL_MS = 5_000;

/** The smallest and largest width of a library card, in CSS pixels (spec: "card widths 280 to 380"). */
export const CARD_MIN_PX = 280;
export const CARD_MAX_PX = 380;

/** Library items as `view_item_list` lists them. */
export function libraryItems(items: readonly VodItem[]): { id: string; name: string; category?: string | undefined }[] {
  return items.map((item) => ({ id: `vod-${item.id}`, name: item.title, category: item.category?.name }));
}
