/**
 * `$entitlementsVersion`, bumped when what the viewer may watch changed: a purchase here, or a sign-in, sign-out or
 * purchase the host page reports by firing the public event itself. Players and lists follow the version; nobody
 * listens for our own public events (a host page may stop them on their way up). Which orders count as held and
 * what they cover are in purchases.ts.
 */
import { atom, onMount } from 'nanostores';
import { env } from '../../lib/env.js';
import { isOwn } from '../../events/viewer.js';

/** Public events a host page may fire to say access changed (ours are ignored: the stores already know). */
export const HOST_ACCESS_EVENTS = ['channel-purchase-complete', 'channel-login', 'channel-logout'] as const;

/** Why entitlements changed: a purchase (ours, or one the host page reports), or a sign-in or sign-out the host reports. */
export type EntitlementsChange = 'purchase' | 'session';

/** Bumped whenever entitlements may have changed; follow it with `.listen()`. */
export const $entitlementsVersion = atom(0);

let lastChange: EntitlementsChange = 'purchase';

/** Says entitlements may have changed (an order paid, a trial started, the host reported a change). */
export function entitlementsChanged(reason: EntitlementsChange = 'purchase'): void {
  lastChange = reason;
  $entitlementsVersion.set($entitlementsVersion.get() + 1);
}

/**
 * Why the latest bump happened. Players reload on any; a schedule's purchased badges follow purchases only (a signed
 * in viewer's lists follow the user store already).
 */
export function lastEntitlementsChange(): EntitlementsChange {
  return lastChange;
}

// One listener for the page while anything follows the version, not one per element.
onMount($entitlementsVersion, () => {
  const target = env().eventTarget;
  const onHostEvent = (event: Event) => {
    if (!isOwn(event)) entitlementsChanged(event.type === 'channel-purchase-complete' ? 'purchase' : 'session');
  };
  for (const name of HOST_ACCESS_EVENTS) target?.addEventListener(name, onHostEvent);
  return () => {
    for (const name of HOST_ACCESS_EVENTS) target?.removeEventListener(name, onHostEvent);
  };
});
