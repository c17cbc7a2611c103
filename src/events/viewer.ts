/**
 * The events a viewer's actions fire: selecting an event or a library item, asking to sign in or to buy. Each is a
 * class with its name and `{ bubbles: true, composed: true }` built in. `detail` never carries tokens or personal
 * data. They are output for the host page, never our internal wiring: our elements coordinate through stores (a
 * host may stop any of these). A host page may also fire some of them itself (a request to open sign-in or an
 * offer); `isOwn` tells those from ours. The account's events are in ./account.ts, the public list in ./index.ts.
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
