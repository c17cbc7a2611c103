/**
 * The video-on-demand library of one view: its rails, its categories, the chosen category's items page by page,
 * and search as the viewer types (debounced; stale answers dropped). It fetches again when what the viewer may
 * watch changes (a sign-in or sign-out, a purchase: `$user`, `$entitlementsVersion`), as the player does, so
 * locked items unlock without a page reload. Each library view owns one; the answers below it are shared
 * through the client's dedup and cache.
 */
import { atom, type ReadableAtom } from 'nanostores';
import {
  VOD_SEARCH_LIMIT,
  VOD_SEARCH_MAX_LIMIT,
  vodApi,
  type VodCategory,
  type VodItem,
  type VodItemList,
  type VodRail,
} from '../api/vod-schemas.js';
import type { User } from '../api/channel-schemas.js';
import { ApiError, isCancel } from '../api/errors.js';
import { failed, IDLE, LOADING, ready, type Async } from '../lib/async.js';
import { env } from '../lib/env.js';
import { safeUrl } from '../lib/url.js';
import { hasCapability, WATCH_CAPABILITY } from './commerce/access.js';
import { $entitlementsVersion } from './commerce/entitlements.js';
import { createPager, type PagedItems as Paged, type PageRequest, type Pager } from './pager.js';
import { $user, getClient, startSession } from './session.js';

/** A paged list of library items (a category's items, search results). */
export type PagedItems = Paged<VodItem>;

/** How long the search waits after the last keystroke before it asks (spec: search as you type). */
export const SEARCH_DEBOUNCE_MS = 300;
/** Items per page of a category's grid (and of a watch page's "More in" rail). */
export const CATEGORY_PAGE = 12;

/** The two kinds of library asset a card shows. */
export type AssetKind = 'image' | 'preview';

/** The URL of an item's image or preview asset, if it has one that an image or video may load (`safeUrl`). */
export function assetOf(item: VodItem, kind: AssetKind): string | undefined {
  return safeUrl(item.assets.find((a) => a.type === kind)?.path);
}

/**
 * What unlocks a locked item: signing in (register items) or a subscription or VOD membership (the rest); for a
 * signed-in account without the `watch` right, only the channel (`account`).
 */
export function unlockedBy(item: VodItem, user?: User): 'sign-in' | 'membership' | 'account' | undefined {
  if (item.type === 'free') return undefined;
  if (user && !hasCapability(user, WATCH_CAPABILITY)) return 'account';
  if (item.has_access) return undefined;
  return item.type === 'register' ? 'sign-in' : 'membership';
}

/** The library category of an item, if it has one. */
export function libraryCategoryOf(item: VodItem): number | undefined {
  return item.vod_media_category_id ?? item.category?.id ?? undefined;
}

/** A category's items (`GET vod-media-items?vod_media_category_id=`), newest first. */
async function categoryPage(categoryId: number, request: PageRequest): Promise<VodItemList> {
  await startSession();
  return getClient().call(vodApi.vodItems, {
    query: { vod_media_category_id: categoryId, limit: request.limit, offset: request.offset },
    signal: request.signal,
    cache: request.cache,
  });
}

/** One page of results (`GET vod-media/search`): title substring, newest first. */
async function searchPage(title: string, request: PageRequest): Promise<VodItemList> {
  await startSession();
  return getClient().call(vodApi.vodSearch, {
    query: { title, limit: request.limit, offset: request.offset, sort_field: 'date' },
    signal: request.signal,
    cache: request.cache,
  });
}

/** A paged list of one category's items. */
export function createCategoryItems(pageSize = CATEGORY_PAGE): Pager<number, VodItem> {
  return createPager<number, VodItem>(pageSize, categoryPage, { maxLimit: VOD_SEARCH_MAX_LIMIT });
}

/**
 * What of the viewer the answers depend on: who is signed in and what their account may watch. A change of
 * anything else on the user (feature counts after a download) fetches nothing.
 */
function viewerKey(): string {
  const user = $user.get();
  return user ? `${user.id}:${[...user.capabilities].sort().join(',')}` : 'guest';
}

/**
 * Calls `refresh` when what the viewer may watch changes: another user (or none), other capabilities, or a
 * purchase or host-reported change of entitlements. Returns the unsubscribe.
 */
export function followViewer(refresh: () => void): () => void {
  let viewer = viewerKey();
  const stops = [
    $user.listen(() => {
      const now = viewerKey();
      if (now === viewer) return;
      viewer = now;
      refresh();
    }),
    $entitlementsVersion.listen(() => refresh()),
  ];
  return () => stops.forEach((stop) => stop());
}

/** A loaded list (rails, categories). */
type Loaded<T> = Async<T, ApiError>;

const asApiError = (error: unknown) => (error instanceof ApiError ? error : new ApiError('network', String(error)));

/** One library view's store and actions. */
export interface Library {
  $rails: ReadableAtom<Loaded<VodRail[]>>;
  $categories: ReadableAtom<Loaded<VodCategory[]>>;
  /** The chosen category (undefined: the rails). */
  $category: ReadableAtom<number | undefined>;
  /** The chosen category's items. */
  items: Pager<number, VodItem>;
  /** The search text as typed, trimmed ('' while no search is active). */
  $query: ReadableAtom<string>;
  /** The search results (idle while no search is active). */
  results: Pager<string, VodItem>;
  /** Loads the rails and the categories (once; again after a failure). */
  start(): void;
  /** Shows a category's items, or the rails again (undefined). */
  choose(categoryId: number | undefined): void;
  /** The viewer typed: searches `SEARCH_DEBOUNCE_MS` after the last change; '' ends the search. */
  search(text: string): void;
  /** Loads what failed again (rails, categories). */
  retry(): void;
  destroy(): void;
}

/** Creates one library view's store. */
export function createLibrary(): Library {
  const $rails = atom<Loaded<VodRail[]>>(IDLE);
  const $categories = atom<Loaded<VodCategory[]>>(IDLE);
  const $category = atom<number | undefined>(undefined);
  const $query = atom('');
  const items = createCategoryItems();
  const results = createPager<string, VodItem>(VOD_SEARCH_LIMIT, searchPage, { maxLimit: VOD_SEARCH_MAX_LIMIT });
  let railsController: AbortController | undefined;
  let railsGeneration = 0;
  let timer: unknown;
  let unfollow: (() => void) | undefined;

  /** Loads the rails; `quiet` keeps the ones shown until the fresh answer arrives. */
  async function loadRails(quiet: boolean): Promise<void> {
    railsController?.abort();
    const controller = new AbortController();
    railsController = controller;
    const mine = ++railsGeneration;
    if (!quiet) $rails.set(LOADING);
    try {
      await startSession();
      const answer = await getClient().call(vodApi.vodRails, { signal: controller.signal, cache: !quiet });
      if (mine === railsGeneration) $rails.set(ready(answer.data));
    } catch (error) {
      if (isCancel(error) || mine !== railsGeneration) return;
      if (!quiet || $rails.get().status !== 'ready') $rails.set(failed(asApiError(error)));
    }
  }

  async function loadCategories(): Promise<void> {
    $categories.set(LOADING);
    try {
      await startSession();
      $categories.set(ready((await getClient().call(vodApi.vodCategories)).data));
    } catch (error) {
      $categories.set(failed(asApiError(error)));
    }
  }

  const clearTimer = () => {
    if (timer !== undefined) env().clearTimeout(timer);
    timer = undefined;
  };

  return {
    $rails,
    $categories,
    $category,
    items,
    $query,
    results,
    start() {
      unfollow ??= followViewer(() => {
        if ($rails.get().status !== 'idle') void loadRails($rails.get().status === 'ready');
        items.refresh();
        results.refresh();
      });
      if ($rails.get().status === 'idle') void loadRails(false);
      if ($categories.get().status === 'idle') void loadCategories();
    },
    choose(categoryId) {
      if (categoryId === $category.get()) return;
      $category.set(categoryId);
      items.show(categoryId);
    },
    search(text) {
      const query = text.trim();
      if (query === $query.get()) return;
      $query.set(query);
      clearTimer();
      if (!query) {
        results.show(undefined);
        return;
      }
      // Whatever was asked before is stale from this keystroke on: cancelled now, not merely ignored later.
      results.wait();
      timer = env().setTimeout(() => {
        timer = undefined;
        results.show(query);
      }, SEARCH_DEBOUNCE_MS);
    },
    retry() {
      if ($rails.get().status === 'error') void loadRails(false);
      if ($categories.get().status === 'error') void loadCategories();
    },
    destroy() {
      clearTimer();
      railsController?.abort();
      railsGeneration++;
      // A load cut short is asked again by the next start (a remount).
      if ($rails.get().status === 'loading') $rails.set(IDLE);
      items.destroy();
      results.destroy();
      unfollow?.();
      unfollow = undefined;
    },
  };
}

/** One library item, for its watch page (the player's own request: the client merges and caches them). */
export interface LibraryItem {
  $state: ReadableAtom<Loaded<VodItem>>;
  show(id: string): void;
  destroy(): void;
}

/** Creates the store of one watch page's item details. */
export function createLibraryItem(): LibraryItem {
  const $state = atom<Loaded<VodItem>>(IDLE);
  let controller: AbortController | undefined;
  return {
    $state,
    show(id) {
      controller?.abort();
      const mine = new AbortController();
      controller = mine;
      $state.set(LOADING);
      void (async () => {
        try {
          await startSession();
          const api = getClient();
          let item = (await api.call(vodApi.vodItem, { params: { id }, signal: mine.signal })).data;
          const categoryId = libraryCategoryOf(item);
          if (categoryId !== undefined && !item.category?.name) {
            // The item names its category by id only: its name comes from the (cached) category list.
            const list = await api.call(vodApi.vodCategories, { signal: mine.signal }).catch(() => undefined);
            const found = list?.data.find((c) => c.id === categoryId);
            if (found) item = { ...item, category: { id: found.id, name: found.name } };
          }
          if (controller === mine) $state.set(ready(item));
        } catch (error) {
          if (!isCancel(error) && controller === mine) $state.set(failed(asApiError(error)));
        }
      })();
    },
    destroy() {
      controller?.abort();
      controller = undefined;
    },
  };
}
