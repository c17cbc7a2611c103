/**
 * Public events. Each is a class with its name and `{ bubbles: true, composed: true }` built in. `detail`
 * never carries tokens or personal data. They are output for the host page, never our internal wiring: our
 * elements coordinate through stores (a host may stop any of these). A host page may also fire some of them
 * itself (a sign-in or purchase it made, a request to open sign-in or an offer); `isOwn` tells those from ours.
 */

const ours = new WeakSet<Event>();

/** Marks an event as fired by one of our elements (returns it). */
export function own<E extends Event>(event: E): E {
  ours.add(event);
  return event;
}

/** Whether one of our elements fired this event (as opposed to the host page). */
export function isOwn(event: Event): boolean {
  return ours.has(event);
}

/** Fired by `<channel-schedule>` when the viewer activates an event; cancel it to keep the link from being followed. */
export class ChannelEventSelectEvent extends CustomEvent<{ id: number }> {
  static readonly type = 'channel-event-select';
  constructor(detail: { id: number }) {
    super(ChannelEventSelectEvent.type, { detail, bubbles: true, composed: true, cancelable: true });
  }
}

/**
 * Fired by `<channel-schedule kind="library">` when the viewer activates a library item; cancel it to keep the link
 * from being followed.
 */
export class ChannelVodSelectEvent extends CustomEvent<{ id: number }> {
  static readonly type = 'channel-vod-select';
  constructor(detail: { id: number }) {
    super(ChannelVodSelectEvent.type, { detail, bubbles: true, composed: true, cancelable: true });
  }
}

/**
 * Fired when a guest asks to sign in: `<channel-player>` to watch, `<channel-schedule>` to favourite;
 * `<channel-profile>` or the host answers it.
 */
export class ChannelLoginRequestEvent extends CustomEvent<{
  reason: 'watch' | 'favourite' | 'purchase';
  eventId?: number | undefined;
}> {
  static readonly type = 'channel-login-request';
  constructor(detail: { reason: 'watch' | 'favourite' | 'purchase'; eventId?: number | undefined }) {
    super(ChannelLoginRequestEvent.type, { detail, bubbles: true, composed: true });
  }
}

/** The offer a viewer chose on a paywall (ids only; prices are the checkout's to confirm). */
export interface PurchaseOffer {
  type: 'event' | 'package' | 'subscription';
  id: number;
  /** The single-event package for `event` offers. */
  packageId?: number | undefined;
}

/** Fired by `<channel-player>` when a paywall offer is chosen; `<channel-checkout>` or the host answers it. */
export class ChannelPurchaseRequestEvent extends CustomEvent<{ eventId?: number | undefined; offer: PurchaseOffer }> {
  static readonly type = 'channel-purchase-request';
  constructor(detail: { eventId?: number | undefined; offer: PurchaseOffer }) {
    super(ChannelPurchaseRequestEvent.type, { detail, bubbles: true, composed: true });
  }
}

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

declare global {
  interface GlobalEventHandlersEventMap {
    'channel-purchase-complete': ChannelPurchaseCompleteEvent;
    'channel-event-select': ChannelEventSelectEvent;
    'channel-vod-select': ChannelVodSelectEvent;
    'channel-login-request': ChannelLoginRequestEvent;
    'channel-purchase-request': ChannelPurchaseRequestEvent;
    'channel-login': ChannelLoginEvent;
    'channel-logout': ChannelLogoutEvent;
  }
}
