/**
 * `channel-elements.js`, the one classic script a page adds (also at its release's own URL,
 * `channel-elements@<version>.js`). It reads its own data attributes, then loads each tag's chunk (relative to this
 * script's URL, never the page's or its <base>) when that tag appears, each chunk verified against the integrity
 * hash the build wrote into this script (integrity.ts).
 * Works with async, defer, plain and type="module"; a second copy on the page does nothing.
 */
import { autoload, type Tag } from './autoload.js';
import { baseUrl, bundleOrigin } from '../lib/base-urls.js';
import { sendEarly } from './early.js';
import { dropEarlyVideo, earlyVideos } from './early-video.js';
import { ID_PATTERN } from '../lib/ids.js';
import { installConsentApi } from '../lib/consent.js';
import { ChunkLoadError, loadChunk } from '../lib/chunks.js';
import { reportUnloaded, showUnloaded } from './fallback.js';
import { installVerifier, type ChunkTable } from './integrity.js';

/** Filled in by the build: every chunk with its integrity hash and static imports, and each tag's root. */
declare const __CHUNK_INTEGRITY__: ChunkTable;

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
    partner: data.partner,
  };
  const verifier = installVerifier(__CHUNK_INTEGRITY__, new URL('chunks/', base).href);
  let early = false;
  let videos: { start(players: Element[]): Promise<void> } | undefined;
  /** The players on the page with a valid event id (digits only, as the player accepts them). */
  const players = () =>
    [...document.querySelectorAll('channel-player[event-id]')].filter((player) =>
      ID_PATTERN.test(player.getAttribute('event-id')!.trim()),
    );
  autoload((tag: Tag) => {
    // With the first tag, the start-up requests go out alongside its chunk (see early.ts), with the events of the
    // players already on the page. An autoplaying player's stream may start before its code (early-video.ts): its
    // chunks are then fetched once the video shows a frame.
    if (!early && data.channelKey) {
      early = true;
      try {
        const origin = bundleOrigin(base, location.origin);
        const [apiUrl, keysUrl] = [baseUrl(data.apiUrl, `${origin}/api`), baseUrl(data.keysUrl, `${origin}/keys`)];
        if (/^https?:\/\//i.test(apiUrl) && /^https?:\/\//i.test(keysUrl)) {
          const channelKey = data.channelKey.trim();
          const starter = earlyVideos(channelKey);
          const events = players().map((player) => player.getAttribute('event-id')!.trim());
          const sending = sendEarly(channelKey, apiUrl, keysUrl, events, starter.watch);
          videos = { start: (found) => starter.start(found, sending) };
        }
      } catch {
        // Nothing here may keep the chunk from loading: the session reports a bad configuration itself.
      }
    }
    let gate: Promise<void> | undefined;
    if (tag === 'channel-player' && videos) {
      try {
        gate = videos.start(players());
      } catch {
        // As above: the chunk loads as it always has.
      }
    }
    // The chunk is asked for with its shared chunks rather than once it has been parsed (each preloaded with its
    // integrity).
    const chunkUrl = verifier.tagUrl(tag)!;
    const fetchChunk = () =>
      loadChunk(`<${tag}>`, () => verifier.verify(chunkUrl).then(() => import(/* webpackIgnore: true */ chunkUrl)));
    const loaded = (gate ? gate.then(fetchChunk) : fetchChunk()).catch((error: unknown) => {
      // Besides the console line (autoload), a log entry and a message where the element would be (an early
      // video there stops).
      const origin = bundleOrigin(base, location.origin);
      const logUrl = data.logUrl?.trim() || `${baseUrl(data.apiUrl, `${origin}/api`)}/logs`;
      const message = `${(error as Error).message} (${chunkUrl.replace(/[?#].*$/, '')})`;
      const refused = error instanceof ChunkLoadError && error.refused;
      if (data.channelKey && /^https?:\/\//i.test(logUrl))
        reportUnloaded(logUrl, data.channelKey.trim(), message, chunkUrl);
      for (const element of document.querySelectorAll(tag)) dropEarlyVideo(element);
      showUnloaded(tag, data.lang, refused);
      throw new Error(
        refused
          ? `${message}. The file was changed after the build, or belongs to another release than this script: serve the chunks/ folder of this script's own build, unchanged.`
          : `${message}. Check the network (and content blockers), and that the script's URL also serves its chunks/ folder.`,
      );
    });
    return loaded.then((chunk: { start(o: typeof options, b: string): void }) => chunk.start(options, base));
  });
}
