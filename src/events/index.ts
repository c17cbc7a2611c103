/**
 * Public events, as the npm entry exports them: the viewer's (./viewer.ts) and the account's (./account.ts). Our own
 * code imports the module it needs, so that a page loads only the events its elements fire.
 */
import type { ChannelLoginEvent, ChannelLogoutEvent, ChannelPurchaseCompleteEvent } from './account.js';
import type {
  ChannelEventSelectEvent,
  ChannelLoginRequestEvent,
  ChannelPurchaseRequestEvent,
  ChannelVodSelectEvent,
} from './viewer.js';

export * from './viewer.js';
export * from './account.js';

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
