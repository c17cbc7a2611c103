/**
 * `channel-elements.js`, the one classic script a page adds. It reads its own data attributes, then loads each
 * tag's chunk (relative to this script's URL, never the page's or its <base>) when that tag appears.
 * Works with async, defer, plain and type="module"; a second copy on the page does nothing.
 */
import { autoload, type Tag } from './autoload.js';
import { baseUrl, bundleOrigin } from '../lib/base-urls.js';
import { sendEarly } from './early.js';
import { ID_PATTERN } from '../lib/ids.js';
import { installConsentApi } from '../lib/consent.js';
import { loadChunk } from '../lib/chunks.js';
import { reportUnloaded, showUnloaded } from './fallback.js';

/** Filled in by the build: the shared chunks each tag's chunk imports (file names under chunks/). */
declare const __CHUNK_IMPORTS__: Record<string, string[]>;
const CHUNK_IMPORTS: Record<string, string[]> = typeof __CHUNK_IMPORTS__ === 'object' ? __CHUNK_IMPORTS__ : {};

const GUARD = Symbol.for('channel-elements.loader');
const w = window as unknown as Record<symbol, unknown>;

if (!w[GUARD]) {
  w[GUARD] = true;
  // `channelElements.consent(granted)`, callable before any element's code arrives (consent mode: data-consent).
  installConsentApi(window as unknown as Record<string, unknown>);
  // document.currentScript is null for type="module" and after async execution ends; fall back to the tag itself.
  const script = (document.currentScript ??
    document.querySelector('script[data-channel-key][src*="channel-elements"]') ??
    document.querySelector('script[src*="channel-elements"]')) as HTMLScriptElement | null;
  const base = script?.src || location.href;
  const data = script?.dataset ?? {};
  if (!data.channelKey) {
    console.error(
      'channel-elements: missing data-channel-key. Add data-channel-key="your-channel-key" to the <script> tag that loads channel-elements.js.',
    );
  }
  const options = {
    channelKey: data.channelKey,
    apiUrl: data.apiUrl,
    keysUrl: data.keysUrl,
    logUrl: data.logUrl,
    lang: data.lang,
    analyticsUrl: data.analyticsUrl,
    consent: data.consent,
  };
  let early = false;
  autoload((tag: Tag) => {
    // The chunk is asked for first, and its shared chunks with it rather than once it has been parsed (the module
    // map runs each once); then the start-up requests, which must not hold up the code's download.
    const chunkUrl = new URL(`chunks/${tag}.js`, base).href;
    const loaded = loadChunk(`<${tag}>`, () => import(/* webpackIgnore: true */ chunkUrl)).catch((error: unknown) => {
      // Besides the console line (autoload), a log entry and a message where the element would be.
      const origin = bundleOrigin(base, location.origin);
      const logUrl = data.logUrl?.trim() || `${baseUrl(data.apiUrl, `${origin}/api`)}/logs`;
      const message = `${(error as Error).message} (${chunkUrl.replace(/[?#].*$/, '')})`;
      if (data.channelKey && /^https?:\/\//i.test(logUrl))
        reportUnloaded(logUrl, data.channelKey.trim(), message, chunkUrl);
      showUnloaded(tag, data.lang);
      throw new Error(
        `${message}. Check the network (and content blockers), and that the script's URL also serves its chunks/ folder.`,
      );
    });
    for (const file of CHUNK_IMPORTS[tag] ?? []) {
      // A failure here is the tag chunk's too, and reported with it.
      import(/* webpackIgnore: true */ new URL(`chunks/${file}`, base).href).catch(() => undefined);
    }
    // With the first tag, the start-up requests go out alongside its chunk (see early.ts).
    if (!early && data.channelKey) {
      early = true;
      try {
        const origin = bundleOrigin(base, location.origin);
        const [apiUrl, keysUrl] = [baseUrl(data.apiUrl, `${origin}/api`), baseUrl(data.keysUrl, `${origin}/keys`)];
        // The events of the players already on the page (digits only, as the player accepts them).
        const events = [...document.querySelectorAll('channel-player[event-id]')]
          .map((player) => player.getAttribute('event-id')!.trim())
          .filter((id) => ID_PATTERN.test(id));
        if (/^https?:\/\//i.test(apiUrl) && /^https?:\/\//i.test(keysUrl))
          sendEarly(data.channelKey.trim(), apiUrl, keysUrl, events);
      } catch {
        // Nothing here may keep the chunk from loading: the session reports a bad configuration itself.
      }
    }
    return loaded.then((chunk: { start(o: typeof options, b: string): void }) => chunk.start(options, base));
  });
}
