/**
 * Loads an element's chunk only when its tag is on the page: at start, and whenever the host's own scripts add
 * one later (a MutationObserver over the document). Kept dependency-free: it is the whole of the tiny loader.
 */

/** The five tags of the product. */
export const TAGS = [
  'channel-schedule',
  'channel-player',
  'channel-checkout',
  'channel-profile',
  'channel-app',
] as const;
/** One of the product's tags. */
export type Tag = (typeof TAGS)[number];

/** Watches the document and calls `load(tag)` once per tag, the first time that tag appears. */
export function autoload(load: (tag: Tag) => Promise<unknown>, doc: Document = document): () => void {
  const pending = new Set<Tag>(TAGS);
  let observer: MutationObserver | undefined;

  const start = (tag: Tag) => {
    pending.delete(tag);
    load(tag).catch((error: unknown) => {
      // The chunk could not be fetched (offline, blocked): allow a later insertion to try again.
      pending.add(tag);
      console.error(`channel-elements: could not load <${tag}>:`, error);
    });
  };
  const scan = (root: ParentNode) => {
    for (const tag of pending) if (root.querySelector(tag)) start(tag);
  };
  const check = (node: Node) => {
    if (node.nodeType !== 1) return;
    const name = (node as Element).localName as Tag;
    if (pending.has(name)) start(name);
    if (pending.size && (node as Element).firstElementChild) scan(node as Element);
  };

  scan(doc);
  if (typeof MutationObserver !== 'undefined') {
    observer = new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) check(node);
    });
    observer.observe(doc.documentElement, { childList: true, subtree: true });
  }
  return () => observer?.disconnect();
}
