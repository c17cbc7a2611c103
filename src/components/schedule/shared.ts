/**
 * Page-wide listeners shared by every view: scrolls and resizes re-window each list, and a press anywhere closes
 * an open follow popover (a press on the host page never reaches a shadow root, so only the window or document
 * sees it). Rather than one listener per view, the page gets one per target and type, and only while some view
 * follows it.
 */

type Handler = (event: Event) => void;

interface Hub {
  handlers: Set<Handler>;
  dispatch(event: Event): void;
}

const hubs = new WeakMap<EventTarget, Map<string, Hub>>();
// Capture: a scroll of any scrolling ancestor, or a press the page stops on its way down, still counts.
// Passive: nobody here prevents the default.
const OPTIONS = { capture: true, passive: true } as const;

/** Calls `handler` on each `type` event at `target` through the one shared listener; returns the unsubscription. */
export function listenShared(target: EventTarget, type: string, handler: Handler): () => void {
  let byType = hubs.get(target);
  if (!byType) hubs.set(target, (byType = new Map()));
  let hub = byType.get(type);
  if (!hub) {
    const handlers = new Set<Handler>();
    hub = { handlers, dispatch: (event) => [...handlers].forEach((h) => h(event)) };
    byType.set(type, hub);
    target.addEventListener(type, hub.dispatch, OPTIONS);
  }
  const own = hub;
  own.handlers.add(handler);
  return () => {
    own.handlers.delete(handler);
    if (own.handlers.size > 0 || byType.get(type) !== own) return;
    byType.delete(type);
    target.removeEventListener(type, own.dispatch, OPTIONS);
  };
}

/** Calls `onOutside` on each press (pointerdown) anywhere outside `node`, until the returned stop is called. */
export function watchPressOutside(node: HTMLElement, onOutside: () => void): () => void {
  return listenShared(node.ownerDocument, 'pointerdown', (event) => {
    if (!event.composedPath().includes(node)) onOutside();
  });
}
