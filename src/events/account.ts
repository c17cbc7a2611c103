/**
 * The events that tell the host page the account changed: a sign-in, a sign-out, a purchase. Apart from the
 * viewer's events (./viewer.ts) because only the profile, the checkout and the site fire them: a page with a
 * schedule alone never loads this code. Same rules: `{ bubbles: true, composed: true }`, no token or personal data
 * in `detail`.
 */

/** How a viewer signed in (`channel-login`'s detail: the method only, never who). */
export type LoginMethod = 'password' | 'register' | 'google' | 'facebook';

/**
 * Fired by `<channel-profile>` after a sign-in (by password, registration or a social provider). Every element
 * already follows the shared user; the event is for the host page. A host page that signs someone in itself may
 * fire it, and players then reload their access.
 */
export class ChannelLoginEvent extends CustomEvent<{ method: LoginMethod }> {
  static readonly type = 'channel-login';
  constructor(detail: { method: LoginMethod }) {
    super(ChannelLoginEvent.type, { detail, bubbles: true, composed: true });
  }
}

/** Fired by `<channel-profile>` after a sign-out (or after the signed-in account was deleted). */
export class ChannelLogoutEvent extends CustomEvent<Record<string, never>> {
  static readonly type = 'channel-logout';
  constructor() {
    super(ChannelLogoutEvent.type, { detail: {}, bubbles: true, composed: true });
  }
}

/** What `channel-purchase-complete` carries: ids only, never a token, card data or a client secret. */
export interface PurchaseComplete {
  orderId: number;
  product: { type: 'event' | 'package' | 'subscription'; id: number };
}

/**
 * Fired by `<channel-checkout>` when an order is paid (or a trial started), for the host page: players and
 * schedules on the page already follow the purchase through the shared stores. A host page that sold something
 * itself may fire it, and they then reload.
 */
export class ChannelPurchaseCompleteEvent extends CustomEvent<PurchaseComplete> {
  static readonly type = 'channel-purchase-complete';
  constructor(detail: PurchaseComplete) {
    super(ChannelPurchaseCompleteEvent.type, {
      detail: { orderId: detail.orderId, product: { type: detail.product.type, id: detail.product.id } },
      bubbles: true,
      composed: true,
    });
  }
}
