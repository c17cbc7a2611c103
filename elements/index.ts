/**
 * The npm entry: `configure({ channelKey, apiUrl, lang })` starts the same product as the script tag. Each tag's
 * code is a chunk loaded when that tag appears on the page.
 */
import { autoload, type Tag } from '../src/loader/autoload.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { installConsentApi, setConsent } from '../src/lib/consent-api.js';

export type { ConfigureOptions } from '../src/stores/config.js';
// The element interfaces, their attributes and events, and the HTMLElementTagNameMap entries (generated).
export type * from './tags.js';
export {
  ChannelEventSelectEvent,
  ChannelLoginEvent,
  ChannelLoginRequestEvent,
  ChannelLogoutEvent,
  ChannelPurchaseCompleteEvent,
  ChannelPurchaseRequestEvent,
  ChannelVodSelectEvent,
} from '../src/events/index.js';

const chunks: Record<Tag, () => Promise<{ start(options: ConfigureOptions, base: string): void }>> = {
  'channel-schedule': () => import('./channel-schedule.js'),
  'channel-player': () => import('./channel-player.js'),
  'channel-checkout': () => import('./channel-checkout.js'),
  'channel-profile': () => import('./channel-profile.js'),
  'channel-app': () => import('./channel-app.js'),
};

let stop: (() => void) | undefined;

/**
 * The page's analytics consent: `consent(true)` lets analytics run (in consent mode, `configure({ consent:
 * 'required' })`, nothing is sent before it), `consent(false)` stops them. The script tag's page calls
 * `channelElements.consent()` instead, which is the same switch.
 */
export function consent(granted: boolean): void {
  setConsent(granted);
}

/**
 * Starts channel elements on this page. `apiUrl` defaults to this page's origin + `/api`.
 * Call it once; calling it again replaces the configuration. Without a DOM (server-side rendering) it does nothing,
 * and importing the package touches no browser API, so it can be imported where a server renders the page.
 */
export function configure(options: ConfigureOptions): void {
  // Rendering on a server (Next.js, Nuxt): no page to load elements into; the browser's own call starts them.
  if (typeof window === 'undefined' || typeof document === 'undefined') return;
  installConsentApi(window as unknown as Record<string, unknown>);
  const base = typeof location === 'undefined' ? 'http://localhost/' : location.href;
  const settings = { ...options, keysUrl: options.keysUrl ?? keysBesideApi(options.apiUrl) };
  stop?.();
  stop = autoload(async (tag) => (await chunks[tag]()).start(settings, base));
}

/**
 * From npm the bundle is part of the app, so "the bundle's origin" (the script tag's default for the keys host) is
 * the app's own: the keys host defaults to the API's origin instead, where the channel's server keeps both.
 */
function keysBesideApi(apiUrl: string | null | undefined): string | undefined {
  if (!apiUrl) return undefined;
  try {
    return `${new URL(apiUrl).origin}/keys`;
  } catch {
    return undefined; // the session reports the API URL itself as unusable
  }
}
