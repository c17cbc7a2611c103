/**
 * What the loader and the player share about an early video (src/loader/early-video.ts): the marks on the shadow
 * root and the `<video>` the loader sets in a player before its code arrives, what the player reads of them, and
 * how either side stops one. Also the loader's side of the start-up answers the early video reads (copies made the
 * moment each arrives), and the cheap checks that tell the loader whether to fetch the early video's module at all.
 * Dependency-free and small: part of the loader, and imported by the player's code.
 */
import { tokenStorageKey } from '../lib/api-paths.js';
import type { PrerollRule } from '../lib/preroll-rules.js';
import { storedValue, type EarlyAnswer } from './early.js';

/** Marks a shadow root the loader attached for an early video: the element takes it over once (elements/define.ts). */
export const EARLY_ROOT = Symbol.for('channel-elements.early-root');
/** The attribute of the loader's video in a player's shadow root, until the stage adopts it. */
export const EARLY_VIDEO_ATTR = 'data-channel-early';
/** When the early video was set and when it showed its first frame (ms since the epoch): its analytics. */
export const EARLY_AT_ATTR = 'data-channel-early-at';
export const EARLY_FRAME_ATTR = 'data-channel-early-frame';
/**
 * The loader's preroll choice for an early video (a property of the `<video>` under this registered symbol: the
 * loader's and the player's copies of this module share it): `stream`, the event's stream the choice was made for,
 * and `preroll`, the advert the video plays first, or none when the loader chose none (the video plays the stream).
 */
export const EARLY_CHOICE = Symbol.for('channel-elements.early-choice');

/** What EARLY_CHOICE holds. */
export interface EarlyChoice {
  stream: string;
  preroll: PrerollRule | undefined;
}

/** The decision window: the start-up answers an early video needs must all be in this long (ms) after the loader met the player. */
export const EARLY_DECISION_MS = 800;

/**
 * The loader's preroll choice for `video`, made for the event's stream `stream`; undefined when there is none for
 * that stream (the tag's event changed before the player's code came) or the video no longer plays the advert.
 */
export function earlyChoiceOf(video: HTMLVideoElement, stream: string): EarlyChoice | undefined {
  const choice = (video as unknown as Record<symbol, EarlyChoice | undefined>)[EARLY_CHOICE];
  if (!choice || choice.stream !== stream) return undefined;
  return video.getAttribute('src') === (choice.preroll ? choice.preroll.url : stream) ? choice : undefined;
}

/** The early preroll's "Ad" label (before the video in the root, so the rule that hides what follows spares it). */
export const EARLY_LABEL_ATTR = 'data-channel-early-label';

/** The engine a player asks for (`prefer-playback`), lower case; "mse" asks for hls.js. */
export const preferredEngine = (player: Element) => player.getAttribute('prefer-playback')?.trim().toLowerCase();

/**
 * Whether an early video could start on this page for `channelKey`, by what is cheap to tell: a player with
 * `autoplay` and `muted`, a guest (a signed-in viewer's passes, capabilities and resume positions are the
 * profile's), a browser that plays HLS itself. The loader fetches the early video's module only then; the module
 * reads the attributes as the player does.
 */
export function mayStartEarly(channelKey: string, players: Element[]): boolean {
  return (
    storedValue(tokenStorageKey(channelKey)) === undefined &&
    document.createElement('video').canPlayType('application/vnd.apple.mpegurl') !== '' &&
    players.some((p) => p.hasAttribute('autoplay') && p.hasAttribute('muted'))
  );
}

/** Reads a start-up answer the early video needs: its `data`, or undefined (never asked, failed, not JSON). */
export type EarlyData = (name: EarlyAnswer) => Promise<unknown>;

/**
 * Collects the answers of `sendEarly` (pass `watch` as its `watch`): a copy of each, made the moment its request
 * goes out (the client takes the original). `data(name)` answers once every request has gone out when `name` is not
 * in yet (`sending` settles then).
 */
export function earlyAnswers(sending: () => Promise<void>): {
  watch(name: EarlyAnswer, answer: Promise<Response>): void;
  data: EarlyData;
} {
  const answers = new Map<EarlyAnswer, Promise<unknown>>();
  return {
    watch(name, answer) {
      answers.set(
        name,
        answer
          .then((r) => (r.ok ? r.clone().json() : undefined))
          .then((body: { data?: unknown } | undefined) => body?.data)
          .catch(() => undefined),
      );
    },
    data: (name) => answers.get(name) ?? sending().then(() => answers.get(name)),
  };
}

/** Stops a video and detaches its source, so the browser fetches nothing more for it. */
export function stopVideo(video: HTMLVideoElement): void {
  video.pause();
  video.removeAttribute('src');
  video.load();
}

/** The early video in `player`'s shadow root (a child of the root: the stage has not adopted it), if any. */
export function earlyVideoOf(player: Element): HTMLVideoElement | undefined {
  const children = player.shadowRoot?.children ?? [];
  for (const child of children) {
    if (child instanceof HTMLVideoElement && child.hasAttribute(EARLY_VIDEO_ATTR)) return child;
  }
  return undefined;
}

/**
 * Stops and removes the early video of `player`, if it has one nobody adopted, and lets its light DOM show again
 * (the loader's message when the code could not be had).
 */
export function dropEarlyVideo(player: Element): void {
  const video = earlyVideoOf(player);
  if (!video) return;
  stopVideo(video);
  video.remove();
  if (!customElements.get(player.localName)) player.shadowRoot!.appendChild(document.createElement('slot'));
}
