/**
 * JSON for the wire and for storage, whatever the host page did to the built-in prototypes. Old libraries
 * (Prototype.js and its kin) give `Array.prototype`, `String.prototype` and others a `toJSON` of their own, which
 * `JSON.stringify` calls: `{ tags: ['a'] }` would go out as `{"tags":"[\"a\"]"}`. While we serialize, those
 * methods are set aside and put back at once (synchronously, so the host never sees them missing).
 */

const PROTOTYPES: object[] = [Array.prototype, String.prototype, Number.prototype, Boolean.prototype, Object.prototype];

/** `JSON.stringify`, unaffected by `toJSON` methods a host page added to the built-in prototypes. */
export function toJson(value: unknown): string {
  const added: [object, PropertyDescriptor][] = [];
  for (const proto of PROTOTYPES) {
    const own = Object.getOwnPropertyDescriptor(proto, 'toJSON');
    if (own?.configurable && Reflect.deleteProperty(proto, 'toJSON')) added.push([proto, own]);
  }
  try {
    return JSON.stringify(value);
  } finally {
    for (const [proto, own] of added) Object.defineProperty(proto, 'toJSON', own);
  }
}
