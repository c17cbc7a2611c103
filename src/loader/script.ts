/**
 * `channel-elements.js`, the one classic script a page adds (also at its release's own URL,
 * `channel-elements@<version>.js`). It reads its own data attributes, then loads each tag's chunk (relative to this
 * script's URL, never the page's or its <base>) when that tag appears, each chunk verified against the build's
 * integrity table, itself verified against the hash the build wrote into this script (integrity.ts).
 * Works with async, defer, plain and type="module"; a second copy on the page does nothing.
 */
import { autoload, type Tag } from './autoload.js';
import { baseUrl, bundleOrigin } from '../lib/base-urls.js';
import { earlyAnswers, mayStartEarly, sendEarly } from './early.js';
import { EARLY_DECISION_MS, earlyVideoOf, releaseEarlyVideo } from '../lib/early-video.js';
import { ID_PATTERN } from '../lib/ids.js';
import { installConsentApi } from '../lib/consent-api.js';
import { ChunkLoadError, loadChunk } from '../lib/chunks.js';
import { reportUnloaded, showUnloaded } from './fallback.js';
import { installVerifier, type TableRef } from './integrity.js';

/**
 * Filled in by the build: for each tag (and the early video, whose code opens the player's file), the file under
 * chunks/ of the integrity table
 * that holds its root with what its first render fetches (each chunk with its hash and static imports), and that
 * file's own sha256. Tags that share most of their chunks share a file; under '', the file of the roots not listed.
 */
declare const __CHUNK_TABLE__: Record<string, TableRef>;

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
  // What the elements' start reads: every data attribute of the tag (a missing channel key is reported there, once).
  const options = { ...data };
  const chunkBase = new URL('chunks/', base).href;
  // The API's and the keys' base URLs, resolved the way the session resolves them.
  const origin = bundleOrigin(base, location.origin);
  const apiUrl = baseUrl(data.apiUrl, `${origin}/api`);
  const keysUrl = baseUrl(data.keysUrl, `${origin}/keys`);
  const http = /^https?:\/\//i;
  const table = __CHUNK_TABLE__;
  const verifier = installVerifier(table, chunkBase);
  /** A tag's root chunk by its name in the table, verified, then imported. */
  const importVerified = <T>(name: string, at?: (url: string) => void) =>
    verifier.tagUrl(name).then((url) => {
      at?.(url);
      return verifier.verify(url).then(() => import(/* webpackIgnore: true */ url) as Promise<T>);
    });
  let early = false;
  let videos: { start(players: Element[], since: number): Promise<void> } | undefined;
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
        if (http.test(apiUrl) && http.test(keysUrl)) {
          const channelKey = data.channelKey.trim();
          const answers = earlyAnswers(() => sending);
          const events = players().map((player) => player.getAttribute('event-id')!.trim());
          const sending = sendEarly(channelKey, apiUrl, keysUrl, events, answers.watch);
          videos = {
            start(found, since) {
              // The early video's code opens the player's group's table file, which the player's chunk needs
              // anyway: one request, asked for with the first tag, brings both. It runs only when it may start
              // something, and is waited for only within the decision window: a file that does not come in time
              // (or fails) leaves the player to start as it always has.
              if (!mayStartEarly(channelKey, found)) return Promise.resolve();
              const timeUp = new Promise<undefined>((resolve) =>
                setTimeout(resolve, since + EARLY_DECISION_MS - Date.now()),
              );
              const module = verifier.group('early-video') as Promise<unknown> as Promise<
                typeof import('./early-video.js')
              >;
              return Promise.race([module, timeUp])
                .then((module) => module?.startEarlyVideos(channelKey, found, answers.data, since, data.lang))
                .catch(() => undefined);
            },
          };
        }
      } catch {
        // Nothing here may keep the chunk from loading: the session reports a bad configuration itself.
      }
    }
    let gate: Promise<void> | undefined;
    if (tag === 'channel-player' && videos) {
      try {
        gate = videos.start(players(), Date.now());
      } catch {
        // As above: the chunk loads as it always has.
      }
    }
    // The chunk is asked for with its shared chunks rather than once it has been parsed (each preloaded with its
    // integrity).
    // What a failure names: the tag's root, or the table when it could not be had.
    let chunkUrl = chunkBase + (table[tag] ?? table[''])![0];
    const fetchChunk = () =>
      loadChunk(`<${tag}>`, () =>
        importVerified<{ start(o: Record<string, string | undefined>, b: string): void }>(
          tag,
          (url) => (chunkUrl = url),
        ),
      );
    const loaded = (gate ? gate.then(fetchChunk) : fetchChunk()).catch((error: unknown) => {
      // Besides the console line (autoload), a log entry and a message where the element would be (an early
      // video there stops).
      const logUrl = data.logUrl?.trim() || `${apiUrl}/logs`;
      const message = `${(error as Error).message} (${chunkUrl})`;
      const refused = error instanceof ChunkLoadError && error.refused;
      if (data.channelKey && http.test(logUrl)) reportUnloaded(logUrl, data.channelKey.trim(), message, chunkUrl);
      for (const element of document.querySelectorAll(tag)) {
        const early = earlyVideoOf(element);
        if (early) releaseEarlyVideo(early);
      }
      showUnloaded(tag, data.lang, refused);
      throw new Error(
        `${message}: ${refused ? "serve this build's chunks/ unchanged" : "check the network and this build's chunks/"}.`,
      );
    });
    return loaded.then((chunk) => chunk.start(options, base));
  });
}
