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

/**
 * Watches the document and calls `load(tag)` once per tag, the first time that tag appears: in the document, or in
 * the open shadow root of a host's own component (each such root is scanned and then watched as well, since
 * component libraries fill their roots after they are connected). Closed shadow roots cannot be seen.
 */
export function autoload(load: (tag: Tag) => Promise<unknown>, doc: Document = document): () => void {
  const pending = new Set<Tag>(TAGS);
  const roots = new WeakSet<ShadowRoot>();
  // Watches the document (below) and each host component's root it enters; `check` is defined further down.
  const observer = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) check(node);
  });

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
  /** A host component's open shadow root: scanned, its own components' roots too, and watched from now on. */
  const enter = (root: ShadowRoot) => {
    if (roots.has(root)) return;
    roots.add(root);
    scan(root);
    shadows(root);
    observer.observe(root, { childList: true, subtree: true });
  };
  /**
   * A host component's root, now or once the component is defined: a library loaded after its tags are in the
   * page upgrades them when it defines them, and only then do they attach their roots.
   */
  const component = (el: Element) => {
    const name = el.localName;
    if (TAGS.includes(name as Tag)) return;
    if (el.shadowRoot) return enter(el.shadowRoot);
    if (!name.includes('-')) return;
    if (customElements.get(name)) return;
    customElements.whenDefined(name).then(
      () => pending.size && el.shadowRoot && enter(el.shadowRoot),
      () => undefined,
    );
  };
  /** The open shadow roots of the host's components in a subtree (ours hold no tags of ours: skipped). */
  const shadows = (root: ParentNode) => {
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot || el.localName.includes('-')) component(el);
  };
  const check = (node: Node) => {
    if (node.nodeType !== 1) return;
    const el = node as Element;
    const name = el.localName as Tag;
    if (pending.has(name)) start(name);
    if (!pending.size) return;
    component(el);
    if (el.firstElementChild) {
      scan(el);
      shadows(el);
    }
  };

  observer.observe(doc.documentElement, { childList: true, subtree: true });
  scan(doc);
  shadows(doc);
  return () => observer.disconnect();
}
