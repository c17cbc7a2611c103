/**
 * `channelElements.consent(granted)`, the host page's way to give or refuse analytics consent: installed by the loader
 * script and by the npm entry's start, not by the elements' shared code (which only reads the record: ./consent.ts).
 */
import { consentRecord } from './consent.js';

/** Records the page's decision and tells every follower. Anything but `true` is a refusal. */
export function setConsent(granted: unknown): void {
  const record = consentRecord();
  const value = granted === true;
  if (record.granted === value) return;
  record.granted = value;
  for (const listener of [...record.listeners]) {
    try {
      listener(value);
    } catch {
      // One follower's failure must not keep the decision from the others.
    }
  }
}

/**
 * The page's public API object, `window.channelElements`, with `consent(granted)` on it. A value the page had put
 * there keeps its other members; one that is not an object is left alone (and the API is not installed).
 */
export function installConsentApi(target: Record<string, unknown>): void {
  const existing = target.channelElements;
  if (existing !== undefined && (existing === null || typeof existing !== 'object')) return;
  const api = (existing ?? {}) as Record<string, unknown>;
  if (typeof api.consent !== 'function') {
    Object.defineProperty(api, 'consent', {
      value: (granted: unknown) => setConsent(granted),
      configurable: true,
      enumerable: true,
    });
  }
  if (existing === undefined) target.channelElements = api;
}
