/**
 * Requests one view makes of another: a guest asked to sign in (a player, a star, a checkout), a viewer chose an
 * offer on a paywall. A profile answers the first, a checkout the second, wherever they are on the page. The host
 * page may make the same requests by firing `channel-login-request` or `channel-purchase-request` itself.
 * Answering views `.listen()` (a request made before they appeared is not replayed).
 */
import { atom, onMount, type ReadableAtom } from 'nanostores';
import { env } from '../lib/env.js';
import { isOwn, type PurchaseOffer } from '../events/index.js';

/** Why a guest is asked to sign in. */
export type SignInReason = 'watch' | 'favourite' | 'purchase';

/** A request to sign in. */
export interface SignInRequest {
  reason: SignInReason;
  eventId?: number | undefined;
}

/** A request to buy an offer. */
export interface PurchaseRequest {
  eventId?: number | undefined;
  offer: PurchaseOffer;
}

/** A request with a sequence number (the same request twice is two requests). */
export interface Numbered<T> {
  seq: number;
  request: T;
}

let seq = 0;
const signIns = atom<Numbered<SignInRequest> | undefined>(undefined);
const purchases = atom<Numbered<PurchaseRequest> | undefined>(undefined);

/** The latest sign-in request. */
export const $signInRequest: ReadableAtom<Numbered<SignInRequest> | undefined> = signIns;
/** The latest purchase request. */
export const $purchaseRequest: ReadableAtom<Numbered<PurchaseRequest> | undefined> = purchases;

/** Asks whichever view signs people in to do so. */
export function requestSignIn(request: SignInRequest): void {
  signIns.set({ seq: ++seq, request });
}

/** Asks whichever view sells to open this offer. */
export function requestPurchase(request: PurchaseRequest): void {
  purchases.set({ seq: ++seq, request });
}

/** Follows requests the host page fires as public events while an answering view listens. */
function hostRequests<T>(
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

const REASONS: readonly SignInReason[] = ['watch', 'favourite', 'purchase'];

hostRequests(
  signIns,
  'channel-login-request',
  (detail) => {
    const d = (detail ?? {}) as Partial<SignInRequest>;
    return {
      reason: REASONS.includes(d.reason as SignInReason) ? (d.reason as SignInReason) : 'watch',
      eventId: typeof d.eventId === 'number' ? d.eventId : undefined,
    };
  },
  requestSignIn,
);

hostRequests(
  purchases,
  'channel-purchase-request',
  (detail) => {
    const d = (detail ?? {}) as Partial<PurchaseRequest>;
    const offer = d.offer;
    if (!offer || typeof offer !== 'object' || typeof offer.id !== 'number') return undefined;
    if (offer.type !== 'event' && offer.type !== 'package' && offer.type !== 'subscription') return undefined;
    return {
      eventId: typeof d.eventId === 'number' ? d.eventId : undefined,
      offer: {
        type: offer.type,
        id: offer.id,
        packageId: typeof offer.packageId === 'number' ? offer.packageId : undefined,
      },
    };
  },
  requestPurchase,
);
