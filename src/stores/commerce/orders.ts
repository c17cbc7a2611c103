/**
 * Orders: one `poll()` follows an order until it settles, for a purchase (paid or failed) and for a cancellation
 * (auto-renewal no longer active); the profile's subscription actions; and the user's orders the purchased flags read.
 */
import { accountApi, type Order } from '../../api/account-schemas.js';
import { isCancel } from '../../api/errors.js';
import { env, sleep } from '../../lib/env.js';
import { navigationUrl } from '../../lib/url-rules.js';
import { $user, getClient } from '../session.js';
import { PaymentFailedError } from './errors.js';

/** Order poll interval. */
export const POLL_MS = 2_000;
/** How long a wait for an order lasts before saying "we'll let you know". */
export const MAX_WAIT_MS = 60_000;

/** How a bounded poll ended: settled, or still not when the wait ran out (with the last answer either way). */
export interface Polled<T> {
  settled: boolean;
  value: T;
}

/**
 * Asks `fetch` every 2 s until `settled` says yes or `maxWaitMs` has passed since the start. A request error
 * rejects (polling stops); an abort rejects at once.
 */
export async function poll<T>(
  fetch: (signal: AbortSignal | undefined) => Promise<T>,
  settled: (value: T) => boolean,
  options: { signal?: AbortSignal | undefined; maxWaitMs?: number | undefined } = {},
): Promise<Polled<T>> {
  const started = env().now();
  const maxWait = options.maxWaitMs ?? MAX_WAIT_MS;
  for (;;) {
    await sleep(POLL_MS, options.signal);
    const value = await fetch(options.signal);
    if (settled(value)) return { settled: true, value };
    if (env().now() - started >= maxWait) return { settled: false, value };
  }
}

/** `GET orders/{id}`, never from the cache. */
async function fetchOrder(id: number, signal: AbortSignal | undefined): Promise<Order> {
  return (await getClient().call(accountApi.order, { params: { id }, cache: false, signal })).data;
}

/** How an order stands: paid (or an active trial), failed, or still pending. */
export function orderOutcome(order: Order): 'paid' | 'failed' | 'pending' {
  const status = order.status.toLowerCase();
  if (status === 'paid' || status === 'active') return 'paid';
  if (status === 'failed') return 'failed';
  return 'pending';
}

/** The end of a wait: paid, or still pending when the bounded wait ran out. */
export type WaitOutcome = { status: 'paid'; order: Order } | { status: 'pending'; order: Order };

/** Paid resolves, failed rejects (the order and the popup flag), pending resolves as pending. */
function settle(order: Order): WaitOutcome {
  const outcome = orderOutcome(order);
  if (outcome === 'failed') throw new PaymentFailedError(order);
  return { status: outcome === 'paid' ? 'paid' : 'pending', order };
}

/**
 * Follows an order until it settles: `GET orders/{id}` every 2 s. Paid resolves; failed rejects with a
 * PaymentFailedError; a request error rejects with that error (polling stops); after `maxWaitMs` still pending
 * resolves `{ status: 'pending' }`. An order already settled is not asked about.
 */
export async function waitForOrder(
  order: Pick<Order, 'id'> & Partial<Order>,
  options: { signal?: AbortSignal | undefined; maxWaitMs?: number } = {},
): Promise<WaitOutcome> {
  if (order.status !== undefined && orderOutcome(order as Order) !== 'pending') return settle(order as Order);
  const polled = await poll(
    (signal) => fetchOrder(order.id, signal),
    (o) => orderOutcome(o) !== 'pending',
    options,
  );
  return settle(polled.value);
}

/** Follows a cancellation until the order's auto-renewal no longer reads active (undefined: the wait ran out). */
export async function cancellationFinished(orderId: number, signal?: AbortSignal): Promise<Order | undefined> {
  const polled = await poll(
    (s) => fetchOrder(orderId, s),
    (o) => o.auto_renewal !== 'active',
    { signal },
  );
  return polled.settled ? polled.value : undefined;
}

/** Cancels a subscription's auto-renewal (`POST stripe/unsubscribe`): answers processing, then finished. */
export async function cancelAutoRenewal(orderId: number): Promise<'processing' | 'finished'> {
  const answer = await getClient().call(accountApi.unsubscribe, {
    body: { order_id: orderId },
    cache: false,
    retries: 0,
  });
  return answer.data.status;
}

/** Where the viewer manages cards and invoices (`GET stripe/customer-portal`). */
export async function customerPortalUrl(): Promise<string> {
  // The portal's way back leads to this page.
  const back = env().location()?.href.split('#')[0];
  const answer = await getClient().call(accountApi.customerPortal, { query: { return_url: back }, cache: false });
  // Only an http(s) address is followed (url-rules.ts): anything else is the portal's failure message.
  const url = navigationUrl(answer.data.url);
  if (!url) throw new Error('the customer portal answered no http(s) address');
  return url;
}

/** The user's orders for the purchased flags; none for a guest (or when they cannot be had). */
export async function userOrders(signal: AbortSignal): Promise<Order[]> {
  if (!$user.get()) return [];
  try {
    return (await getClient().call(accountApi.orders, { query: { no_limit: 1 }, signal, cache: false })).data;
  } catch (error) {
    if (isCancel(error)) throw error;
    return [];
  }
}
