/**
 * Public events. Each is a class with its name and `{ bubbles: true, composed: true }` built in. `detail`
 * never carries tokens or personal data.
 */

/** Fired by `<channel-schedule>` when the viewer activates an event; cancel it to keep the link from being followed. */
export class ChannelEventSelectEvent extends CustomEvent<{ id: number }> {
  static readonly type = 'channel-event-select';
  constructor(detail: { id: number }) {
    super(ChannelEventSelectEvent.type, { detail, bubbles: true, composed: true, cancelable: true });
  }
}

/** Fired by `<channel-player>` when a guest asks to sign in to watch; `<channel-profile>` or the host answers it. */
export class ChannelLoginRequestEvent extends CustomEvent<{ reason: 'watch'; eventId?: number | undefined }> {
  static readonly type = 'channel-login-request';
  constructor(detail: { reason: 'watch'; eventId?: number | undefined }) {
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

declare global {
  interface GlobalEventHandlersEventMap {
    'channel-event-select': ChannelEventSelectEvent;
    'channel-login-request': ChannelLoginRequestEvent;
    'channel-purchase-request': ChannelPurchaseRequestEvent;
  }
}
