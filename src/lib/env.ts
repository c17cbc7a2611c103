/**
 * The one injection point for platform services: fetch, storage, clock, logger, the page's address and history,
 * script injection, the window to fire global events on, the page's visibility, the clipboard and the share sheet.
 * Browser code reads them through `env()` at call time (never capturing the host page's `fetch` at load), and tests
 * swap them with `setEnv()`.
 */
import { ExpiringStorage, type KeyValueStorage } from './storage.js';

/** The services the product uses from its platform. */
export interface Environment {
  fetch: typeof fetch;
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (id: unknown) => void;
  storage: ExpiringStorage;
  /** Developer-facing console lines (English, say how to fix). */
  logger: Pick<Console, 'error' | 'warn' | 'info'>;
  /** Where global custom events (api_key_error) are dispatched; undefined outside a browser. */
  eventTarget: EventTarget | undefined;
  /** The page's address, read at call time; undefined outside a browser. */
  location: () => PageLocation | undefined;
  /** Replaces the page's address without navigating (one-time values leave the address bar). */
  replaceUrl: (url: string) => void;
  /** Reloads the page (the start-up error's Reload, as the spec says); does nothing outside a browser. */
  reloadPage: () => void;
  /** Adds an entry to the session history without navigating (a route change of the site). */
  pushUrl: (url: string) => void;
  /** Per-tab storage (a social sign-in's return address); null where the browser refuses it. */
  sessionStorage: () => KeyValueStorage | null;
  /** Adds a script to the page once (the tag manager); does nothing outside a browser. */
  injectScript: (src: string) => void;
  /** The document's base URL, against which relative URLs from settings resolve; undefined outside a browser. */
  baseUrl: () => string | undefined;
  /** Whether the page is shown (false while its tab is hidden); true outside a browser. */
  pageVisible: () => boolean;
  /** Calls `listener` whenever the page is shown or hidden; returns the removal. */
  onVisibilityChange: (listener: () => void) => () => void;
  /** Puts text on the clipboard; rejects where the browser refuses it. */
  copyText: (text: string) => Promise<void>;
  /** The browser's share sheet (Web Share API), or undefined where the browser has none. */
  webShare: () => ((data: { title: string; url: string }) => Promise<void>) | undefined;
  /**
   * Queues a small text body to `url` that survives the page going away (`navigator.sendBeacon`); false where the
   * browser has none or refuses it (the caller then posts it itself).
   */
  sendBeacon: (url: string, body: string) => boolean;
  /** Calls `listener` when the page is being left or put in the back/forward cache (`pagehide`); returns the removal. */
  onPageHide: (listener: () => void) => () => void;
  /** The document's title (a page view's title outside the site); '' outside a browser. */
  pageTitle: () => string;
  /** Runs `fn` when the main thread is idle (or after `timeout` ms at the latest); returns the cancel. */
  whenIdle: (fn: () => void, timeout: number) => () => void;
  /** What an analytics session says of the device: the browser's user agent and the screen; undefined outside one. */
  device: () => { userAgent: string; screen: string | undefined } | undefined;
}

/** What the product reads of the page's address, and its one way to leave the page. */
export type PageLocation = Pick<Location, 'href' | 'origin' | 'pathname' | 'hostname' | 'search' | 'hash'> & {
  assign(url: string): void;
};

function browserStorage(): KeyValueStorage | null {
  // Reading window.localStorage itself throws in sandboxed iframes without allow-same-origin.
  return typeof window === 'undefined' ? null : window.localStorage;
}

function defaults(): Environment {
  return {
    fetch: (input, init) => globalThis.fetch(input, init),
    now: () => Date.now(),
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (id) => globalThis.clearTimeout(id as number),
    storage: new ExpiringStorage(browserStorage, () => Date.now()),
    logger: console,
    eventTarget: typeof window === 'undefined' ? undefined : window,
    location: () => (typeof location === 'undefined' ? undefined : location),
    replaceUrl: (url) => {
      if (typeof history !== 'undefined') history.replaceState(history.state, '', url);
    },
    reloadPage: () => {
      if (typeof location !== 'undefined') location.reload();
    },
    pushUrl: (url) => {
      if (typeof history !== 'undefined') history.pushState(null, '', url);
    },
    sessionStorage: () => {
      try {
        return typeof window === 'undefined' ? null : window.sessionStorage;
      } catch {
        // Reading window.sessionStorage throws where storage is blocked (sandboxed frames, some privacy modes).
        return null;
      }
    },
    injectScript: (src) => {
      if (typeof document === 'undefined') return;
      // The Trusted Types setter is fetched with the first script a channel's settings name (after the first
      // content): no page needs it sooner. Looked for once it is here, so two calls add one script.
      import('./trusted-types.js').then(
        ({ setScriptSrc }) => {
          if (document.querySelector(`script[src="${CSS.escape(src)}"]`)) return;
          const script = document.createElement('script');
          script.async = true;
          if (setScriptSrc(script, src, env().logger)) document.head.appendChild(script);
        },
        (error: unknown) => env().logger.warn(`channel-elements: the script ${src} is not loaded:`, error),
      );
    },
    baseUrl: () => (typeof document === 'undefined' ? undefined : document.baseURI),
    pageVisible: () => typeof document === 'undefined' || document.visibilityState !== 'hidden',
    onVisibilityChange: (listener) => {
      if (typeof document === 'undefined') return () => undefined;
      document.addEventListener('visibilitychange', listener);
      return () => document.removeEventListener('visibilitychange', listener);
    },
    copyText: async (text) => {
      if (typeof navigator === 'undefined' || !navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
    },
    webShare: () =>
      typeof navigator === 'undefined' || typeof navigator.share !== 'function'
        ? undefined
        : (data) => navigator.share(data),
    sendBeacon: (url, body) => {
      try {
        // A string body is sent as text/plain: a "simple" request, which a beacon to another origin must be.
        return typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function'
          ? navigator.sendBeacon(url, body)
          : false;
      } catch {
        return false;
      }
    },
    onPageHide: (listener) => {
      if (typeof window === 'undefined') return () => undefined;
      window.addEventListener('pagehide', listener);
      return () => window.removeEventListener('pagehide', listener);
    },
    pageTitle: () => (typeof document === 'undefined' ? '' : document.title),
    device: () =>
      typeof navigator === 'undefined'
        ? undefined
        : {
            userAgent: navigator.userAgent,
            screen: typeof screen === 'undefined' ? undefined : `${screen.width}x${screen.height}`,
          },
    whenIdle: (fn, timeout) => {
      if (typeof requestIdleCallback === 'function') {
        const id = requestIdleCallback(fn, { timeout });
        return () => cancelIdleCallback(id);
      }
      const id = globalThis.setTimeout(fn, Math.min(timeout, 200));
      return () => globalThis.clearTimeout(id);
    },
  };
}

let current: Environment | undefined;

/** The current environment (created with browser defaults on first use). */
export function env(): Environment {
  current ??= defaults();
  return current;
}

/** Replaces some services (tests, or an embedding that brings its own fetch). */
export function setEnv(patch: Partial<Environment>): void {
  current = { ...env(), ...patch };
}

/** Restores browser defaults (tests). */
export function resetEnv(): void {
  current = undefined;
}

/** Waits `ms` on the environment's clock; a `signal` that aborts ends the wait with its reason. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    // The timer is cleared by the clock that set it, even if the environment changes meanwhile (tests).
    const clock = env();
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
