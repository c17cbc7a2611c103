/**
 * The host page's analytics consent, shared by the loader script (which defines `channelElements.consent()` before
 * any element's code arrives), the npm entry's `consent()` and the analytics stores. It lives on the global object
 * under a registered symbol, so every copy of the code on the page (the script and an npm build, or the script
 * twice) reads and writes one record. Dependency-free: the loader imports it. How the page sets it: ./consent-api.ts.
 *
 * `granted` is undefined until the page says: analytics then run unless the page opted in to consent mode
 * (`data-consent="required"`); `true` lets them run; `false` stops them (in either mode).
 */

/** The page's decision and who follows it. */
export interface ConsentRecord {
  granted: boolean | undefined;
  listeners: Set<(granted: boolean) => void>;
}

const KEY = Symbol.for('channel-elements.consent');

/** The page's one consent record (made on first use). */
export function consentRecord(): ConsentRecord {
  const holder = globalThis as unknown as Record<symbol, ConsentRecord | undefined>;
  let record = holder[KEY];
  if (!record || typeof record !== 'object' || !(record.listeners instanceof Set)) {
    record = { granted: undefined, listeners: new Set() };
    Object.defineProperty(holder, KEY, { value: record, configurable: true });
  }
  return record;
}

/** Follows the page's decisions from now on; returns the removal. */
export function onConsent(listener: (granted: boolean) => void): () => void {
  const record = consentRecord();
  record.listeners.add(listener);
  return () => record.listeners.delete(listener);
}
