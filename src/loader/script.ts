/**
 * `channel-elements.js`, the one classic script a page adds. It reads its own data attributes, then loads each
 * tag's chunk (relative to this script's URL, never the page's or its <base>) when that tag appears.
 * Works with async, defer, plain and type="module"; a second copy on the page does nothing.
 */
import { autoload, type Tag } from './autoload.js';

const GUARD = Symbol.for('channel-elements.loader');
const w = window as unknown as Record<symbol, unknown>;

if (!w[GUARD]) {
  w[GUARD] = true;
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
  };
  autoload((tag: Tag) =>
    import(/* webpackIgnore: true */ new URL(`chunks/${tag}.js`, base).href).then(
      (chunk: { start(o: typeof options, b: string): void }) => chunk.start(options, base),
    ),
  );
}
