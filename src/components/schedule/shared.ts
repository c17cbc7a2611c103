/**
 * What a schedule's views share: page-wide listeners, how a day reads, and the parts whose code comes when wanted.
 *
 * Page-wide listeners shared by every view: scrolls and resizes re-window each list, and a press anywhere closes
 * an open follow popover (a press on the host page never reaches a shadow root, so only the window or document
 * sees it). Rather than one listener per view, the page gets one per target and type, and only while some view
 * follows it.
 */

import { useEffect, useState } from 'react';
import { loadChunk } from '../../lib/chunks.js';
import { dateFormat } from '../../lib/time.js';
import { useElement } from '../ui/context.js';

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

/** A `YYYY-MM-DD` day as its noon in UTC, which formats as that same day in the UTC zone whatever the viewer's. */
const noon = (day: string) => new Date(`${day}T12:00:00Z`);

/** How a day reads: its whole date (for its name), its weekday and number (what the strip shows). */
export function useDayText(): (day: string) => { full: string; weekday: string; number: string } {
  const { lang } = useElement();
  return (day) => ({
    full: dateFormat(lang, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
      noon(day),
    ),
    weekday: dateFormat(lang, { weekday: 'short', timeZone: 'UTC' }).format(noon(day)),
    number: dateFormat(lang, { day: 'numeric', timeZone: 'UTC' }).format(noon(day)),
  });
}

/**
 * A hook for a part of a schedule whose code comes only when first wanted (the calendar, the filters, a card's
 * preview, a signed-in viewer's star), fetched once for every view: undefined until it is in, null when it could not
 * come (the view goes on without it; a view mounted later asks again).
 */
export function lazyPart<T>(name: string, load: () => Promise<T>): (wanted: boolean) => T | null | undefined {
  let code: Promise<T> | undefined;
  return function useLazyPart(wanted) {
    const [got, setGot] = useState<{ at: T | null }>();
    useEffect(() => {
      if (!wanted || got) return;
      let live = true;
      code ??= loadChunk(name, load);
      code.then(
        (at) => live && setGot({ at }),
        () => {
          code = undefined;
          if (live) setGot({ at: null });
        },
      );
      return () => {
        live = false;
      };
    }, [wanted, got]);
    return got?.at;
  };
}
