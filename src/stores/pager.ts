/**
 * The one paged list of the stores (the schedule's events, a library category's items, search results): its query,
 * "more" on demand, and the cancellation of stale requests, so an answer to a query the viewer has moved on from is
 * never shown. What a page is and how it is asked for belong to its owner (`fetchPage`).
 */
import { atom, type ReadableAtom } from 'nanostores';
import { ApiError, isCancel } from '../api/errors.js';

/**
 * A paged list's state: `idle` until it has a query; `loading` covers a query waiting for its debounce too; an owner's
 * own statuses (`S`) are answers its `fetchPage` settles on instead of a page (a list a guest may not see).
 */
export interface PagedItems<T, S extends string = never> {
  status: 'idle' | 'loading' | 'ready' | 'error' | S;
  items: T[];
  /** How many items the list holds: the server's count, less the records left out as unreadable so far. */
  total: number;
  /** How many of the list's records the pages so far held, those left out as unreadable included: the next offset. */
  read?: number;
  loadingMore: boolean;
  /** The first page's failure (status `error`), or the last "more" failure (status `ready`). */
  error?: ApiError | undefined;
}

/** How a page is asked for. */
export interface PageRequest {
  offset: number;
  limit: number;
  signal: AbortSignal;
  /** False when the answer must be fresh (what the viewer may watch changed). */
  cache: boolean;
}

/** A page as the API lists it: its items and how many the whole list holds. */
export interface Page<T> {
  data: T[];
  meta: { total: number; skipped?: number };
}

/** What `fetchPage` settled on instead of a page: one of the owner's statuses, with an empty list. */
export interface Settled<S extends string> {
  settled: S;
}

/** A paged list's store and actions. */
export interface Pager<Q, T, S extends string = never> {
  $state: ReadableAtom<PagedItems<T, S>>;
  /** The query shown (undefined: none, the list is idle). */
  query(): Q | undefined;
  /** Shows a query from its first page (cancels whatever is in flight); undefined empties the list. */
  show(query: Q | undefined): void;
  /** Cancels whatever is in flight and shows the loading state until the next `show` (a debounce). */
  wait(): void;
  /** Fetches the next page, if any. */
  more(): void;
  /** Asks again for what is shown, fresh, keeping it on screen meanwhile (the viewer's access changed). */
  refresh(): void;
  /** Runs the query again after a failure. */
  retry(): void;
  destroy(): void;
}

/** How a paged list behaves beyond its pages. */
export interface PagerOptions {
  /** The state before the first query: `loading` for a list whose query is on its way (default `idle`). */
  initial?: 'idle' | 'loading';
  /** The most items one request may ask for, which a refresh of a long list asks at the most (default the page size). */
  maxLimit?: number;
}

/** Creates a paged list whose pages of `pageSize` items come from `fetchPage`. */
export function createPager<Q, T, S extends string = never>(
  pageSize: number,
  fetchPage: (query: Q, request: PageRequest) => Promise<Page<T> | Settled<S>>,
  options: PagerOptions = {},
): Pager<Q, T, S> {
  const empty = (status: PagedItems<T, S>['status']): PagedItems<T, S> => ({
    status,
    items: [],
    total: 0,
    loadingMore: false,
  });
  const $state = atom<PagedItems<T, S>>(empty(options.initial ?? 'idle'));
  const maxLimit = options.maxLimit ?? pageSize;
  let query: Q | undefined;
  let controller: AbortController | undefined;
  // Every request remembers the generation it was made in; a newer query or refresh makes it stale.
  let generation = 0;

  function cancel(): number {
    controller?.abort();
    controller = undefined;
    return ++generation;
  }

  async function load(offset: number, limit: number, cache: boolean, mine: number): Promise<void> {
    const current = query;
    if (current === undefined) return;
    controller ??= new AbortController();
    const signal = controller.signal;
    try {
      const answer = await fetchPage(current, { offset, limit, signal, cache });
      if (mine !== generation) return;
      if ('settled' in answer) {
        $state.set(empty(answer.settled));
        return;
      }
      const items = [...(offset === 0 ? [] : $state.get().items), ...answer.data];
      // Records left out (the tolerant reader's) still count where the next page starts.
      const read = offset + answer.data.length + (answer.meta.skipped ?? 0);
      $state.set({
        status: 'ready',
        items,
        total: answer.meta.total - (read - items.length),
        loadingMore: false,
        ...(read !== items.length && { read }),
      });
    } catch (error) {
      if (isCancel(error) || mine !== generation) return;
      const failure = error instanceof ApiError ? error : new ApiError('network', String(error));
      const shown = $state.get();
      // A failed "more" or quiet refresh keeps the list; a failed first page shows the error.
      if (shown.status === 'ready') $state.set({ ...shown, loadingMore: false, error: failure });
      else $state.set({ ...empty('error'), error: failure });
    }
  }

  return {
    $state,
    query: () => query,
    show(next) {
      const mine = cancel();
      query = next;
      if (next === undefined) {
        $state.set(empty('idle'));
        return;
      }
      $state.set(empty('loading'));
      void load(0, pageSize, true, mine);
    },
    wait() {
      cancel();
      $state.set(empty('loading'));
    },
    more() {
      const state = $state.get();
      if (state.status !== 'ready' || state.loadingMore || state.items.length >= state.total) return;
      $state.set({ ...state, loadingMore: true, error: undefined });
      void load(state.read ?? state.items.length, pageSize, true, generation);
    },
    refresh() {
      const state = $state.get();
      if (query === undefined || state.status === 'idle') return;
      const mine = cancel();
      if (state.status !== 'ready') {
        $state.set(empty('loading'));
        void load(0, pageSize, false, mine);
        return;
      }
      // As many items as are shown, in one request, so "Show more" pages already seen stay (up to the most one
      // request may ask for; "Show more" goes on from there).
      $state.set({ ...state, loadingMore: false });
      void load(0, Math.min(maxLimit, Math.max(pageSize, state.items.length)), false, mine);
    },
    retry() {
      const state = $state.get();
      if (state.status === 'error') this.show(query);
      else if (state.status === 'ready' && state.error) this.more();
    },
    destroy() {
      cancel();
    },
  };
}
