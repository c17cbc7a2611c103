/**
 * Records each CSS part our elements render, under the nearest `channel-*` tag whose shadow root holds it: a part
 * counts when it is set on an element in one of our shadow roots (as an attribute or as the `part` property, which
 * some renderers set), or when an element carrying one is put there (a subtree is built before it is inserted). Each new (tag, part) goes to `window.__channelPartSeen` when the
 * page has it (the Playwright fixtures expose it), else into `window.__channelParts`.
 * Self-contained (it is also handed to Playwright's addInitScript, which sends its source to the page).
 * `npm test` checks what the tests saw against elements/surface.ts (scripts/manifest.ts --parts).
 */
export function installPartsProbe(): void {
  const w = window as unknown as {
    __channelParts?: Record<string, string[]>;
    __channelPartSeen?: (tag: string, part: string) => unknown;
  };
  if (w.__channelParts) return;
  const seen: Record<string, string[]> = {};
  w.__channelParts = seen;
  const ownerTag = (node: Node): string | undefined => {
    let root = node.getRootNode();
    while (root instanceof ShadowRoot) {
      if (root.host.localName.startsWith('channel-')) return root.host.localName;
      root = root.host.getRootNode();
    }
    return undefined;
  };
  const record = (element: Element) => {
    const value = element.getAttribute('part');
    const tag = value ? ownerTag(element) : undefined;
    if (!value || !tag) return;
    const list = (seen[tag] ??= []);
    for (const part of value.split(/\s+/)) {
      if (!part || list.includes(part)) continue;
      list.push(part);
      w.__channelPartSeen?.(tag, part);
    }
  };
  const recordTree = (node: Node) => {
    if (!(node instanceof Element) && !(node instanceof DocumentFragment)) return;
    if (!(node.getRootNode() instanceof ShadowRoot)) return;
    if (node instanceof Element) record(node);
    node.querySelectorAll('[part]').forEach(record);
  };
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
    setAttribute.call(this, name, value);
    if (name === 'part') record(this);
  };
  // A renderer may set `part` as a property (its value goes to the attribute without setAttribute).
  const partProperty = Object.getOwnPropertyDescriptor(Element.prototype, 'part');
  if (partProperty?.set) {
    const setPart = partProperty.set;
    Object.defineProperty(Element.prototype, 'part', {
      ...partProperty,
      set(this: Element, value: string) {
        setPart.call(this, value);
        record(this);
      },
    });
  }
  const appendChild = Node.prototype.appendChild;
  Node.prototype.appendChild = function <T extends Node>(this: Node, node: T): T {
    const result = appendChild.call(this, node) as T;
    recordTree(node);
    return result;
  };
  const insertBefore = Node.prototype.insertBefore;
  Node.prototype.insertBefore = function <T extends Node>(this: Node, node: T, child: Node | null): T {
    const result = insertBefore.call(this, node, child) as T;
    recordTree(node);
    return result;
  };
}
