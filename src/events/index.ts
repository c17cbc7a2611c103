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

declare global {
  interface GlobalEventHandlersEventMap {
    'channel-event-select': ChannelEventSelectEvent;
  }
}
