/**
 * Requests one view makes of another: a guest asked to sign in (a player, a star, a checkout), a viewer chose an
 * offer on a paywall. A profile answers the first, a checkout the second, wherever they are on the page. The host
 * page may make the same requests by firing `channel-login-request` or `channel-purchase-request` itself; the
 * answering views hear those through host-requests.ts. Answering views `.listen()` (a request made before they
 * appeared is not replayed).
 */
import { atom, type ReadableAtom } from 'nanostores';
import type { PurchaseOffer } from '../events/viewer.js';

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
