/**
 * What the viewer may watch changed: a purchase here, or a sign-in, sign-out or purchase the host page reports
 * by firing the public event itself. Players and lists follow `$entitlementsVersion`; nobody listens for our own
 * public events (a host page may stop them on their way up).
 */
import { atom, onMount } from 'nanostores';
import { env } from '../../env.js';
import { isOwn } from '../../events/index.js';

/** Public events a host page may fire to say access changed (ours are ignored: the stores already know). */
export const HOST_ACCESS_EVENTS = ['channel-purchase-complete', 'channel-login', 'channel-logout'] as const;

/** Bumped whenever entitlements may have changed; follow it with `.listen()`. */
export const $entitlementsVersion = atom(0);

/** Says entitlements may have changed (an order paid, a trial started, the host reported a change). */
export function entitlementsChanged(): void {
  $entitlementsVersion.set($entitlementsVersion.get() + 1);
}

// One listener for the page while anything follows the version, not one per element.
onMount($entitlementsVersion, () => {
  const target = env().eventTarget;
  const onHostEvent = (event: Event) => {
    if (!isOwn(event)) entitlementsChanged();
  };
  for (const name of HOST_ACCESS_EVENTS) target?.addEventListener(name, onHostEvent);
  return () => {
    for (const name of HOST_ACCESS_EVENTS) target?.removeEventListener(name, onHostEvent);
  };
});
