/**
 * Presses outside an open popover. A press on the host page never reaches the shadow root, so only the document
 * sees it; rather than one capture listener per popover (per view), the page gets a single one, and only while
 * some popover is open.
 */

type Watcher = (path: EventTarget[]) => void;

const watchers = new Map<Document, Set<Watcher>>();

function onPointerDown(this: Document, e: PointerEvent): void {
  const path = e.composedPath();
  for (const watcher of [...(watchers.get(this) ?? [])]) watcher(path);
}

/** Calls `onOutside` on each press (pointerdown) anywhere outside `node`, until the returned stop is called. */
export function watchPressOutside(node: HTMLElement, onOutside: () => void): () => void {
  const doc = node.ownerDocument;
  let set = watchers.get(doc);
  if (!set) {
    set = new Set();
    watchers.set(doc, set);
    // Capture: a press the page stops on its way down still closes the popover.
    doc.addEventListener('pointerdown', onPointerDown, true);
  }
  const watcher: Watcher = (path) => {
    if (!path.includes(node)) onOutside();
  };
  set.add(watcher);
  return () => {
    set.delete(watcher);
    if (set.size > 0) return;
    watchers.delete(doc);
    doc.removeEventListener('pointerdown', onPointerDown, true);
  };
}
