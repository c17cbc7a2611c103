/**
 * The request stores as an answering view (a profile, a checkout) hears them: our views' requests, and the same
 * requests when the host page fires `channel-login-request` or `channel-purchase-request` itself. One page listener
 * per kind while some view listens; our own events (marked with `own()`) are already in the stores.
 * Only the answering views import this, so pages without them carry none of it.
 */
import { onMount, type ReadableAtom } from 'nanostores';
import { isOwn } from '../events/viewer.js';
import { env } from '../lib/env.js';
import { ID_PATTERN } from '../lib/ids.js';
import {
  $purchaseRequest,
  $signInRequest,
  requestPurchase,
  requestSignIn,
  type PurchaseRequest,
  type SignInReason,
  type SignInRequest,
} from './requests.js';

export { $purchaseRequest, $signInRequest };

function follow<T>(
  store: ReadableAtom<unknown>,
  type: string,
  accept: (detail: unknown) => T | undefined,
  make: (r: T) => void,
) {
  onMount(store, () => {
    const target = env().eventTarget;
    const onEvent = (event: Event) => {
      if (isOwn(event)) return;
      const request = accept((event as CustomEvent<unknown>).detail);
      if (request) make(request);
    };
    target?.addEventListener(type, onEvent);
    return () => target?.removeEventListener(type, onEvent);
  });
}

/** An id as a host page may write it: a number, or digits in a string. */
function id(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  return typeof value === 'string' && ID_PATTERN.test(value) ? Number(value) : undefined;
}

const REASONS: readonly SignInReason[] = ['watch', 'favourite', 'purchase'];

follow(
  $signInRequest,
  'channel-login-request',
  (detail): SignInRequest => {
    const d = (detail ?? {}) as { reason?: unknown; eventId?: unknown };
    const reason = REASONS.find((r) => r === d.reason) ?? 'watch';
    return { reason, eventId: id(d.eventId) };
  },
  requestSignIn,
);

follow(
  $purchaseRequest,
  'channel-purchase-request',
  (detail): PurchaseRequest | undefined => {
    const d = (detail ?? {}) as { eventId?: unknown; offer?: { type?: unknown; id?: unknown; packageId?: unknown } };
    const offer = d.offer;
    const offerId = id(offer?.id);
    if (!offer || offerId === undefined) return undefined;
    if (offer.type !== 'event' && offer.type !== 'package' && offer.type !== 'subscription') return undefined;
    return { eventId: id(d.eventId), offer: { type: offer.type, id: offerId, packageId: id(offer.packageId) } };
  },
  requestPurchase,
);
