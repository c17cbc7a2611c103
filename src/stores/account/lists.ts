/**
 * The signed-in user's lists in the profile: active orders, payment transactions and clips. Each section makes
 * its own store when it opens, loads it (again for Retry) and cancels the request in flight when it closes.
 */
import { atom, type ReadableAtom } from 'nanostores';
import { accountApi, type Clip, type Order, type Transaction } from '../../api/account-schemas.js';
import { isCancel } from '../../api/errors.js';
import { failed, LOADING, ready, type Async } from '../../lib/async.js';
import { getClient } from '../session.js';
import { panelReason, type Msg } from './messages.js';

/** A list loaded for the signed-in user; a failure carries the message to show. */
export type ListState<T> = Async<T[], Msg>;

/** A list's store: `load()` (again, for Retry) and `destroy()`, which cancels the request in flight. */
export interface ListStore<T> {
  $state: ReadableAtom<ListState<T>>;
  load(): void;
  destroy(): void;
}

function list<T>(fetch: (signal: AbortSignal) => Promise<T[]>): () => ListStore<T> {
  return () => {
    // Loading from the start: the section asks for the list as it opens.
    const $state = atom<ListState<T>>(LOADING);
    let controller: AbortController | undefined;
    return {
      $state,
      load() {
        controller?.abort();
        const mine = (controller = new AbortController());
        $state.set(LOADING);
        fetch(mine.signal).then(
          (items) => {
            if (!mine.signal.aborted) $state.set(ready(items));
          },
          (error: unknown) => {
            if (!mine.signal.aborted && !isCancel(error)) $state.set(failed(panelReason(error)));
          },
        );
      },
      destroy() {
        controller?.abort();
      },
    };
  };
}

/** True for an order that gives access now (activity status `active`, any letter case). */
export function isActiveOrder(order: Order): boolean {
  return order.activity_status?.toLowerCase() === 'active';
}

/** The signed-in user's active orders (`GET orders?no_limit=1`: all of them, not one page). */
export const createOrders = list<Order>(async (signal) => {
  const answer = await getClient().call(accountApi.orders, { query: { no_limit: 1 }, signal, cache: false });
  return answer.data.filter(isActiveOrder);
});

/** The signed-in user's payment transactions, newest first. */
export const createTransactions = list<Transaction>(async (signal) => {
  const answer = await getClient().call(accountApi.transactions, { query: { no_limit: 1 }, signal, cache: false });
  return [...answer.data].sort((a, b) => b.created_at - a.created_at);
});

/** The signed-in user's clips (`GET clips/user`). */
export const createClips = list<Clip>(async (signal) => {
  const answer = await getClient().call(accountApi.userClips, { signal, cache: false });
  return answer.data;
});
