/**
 * The bar under the loader's early video (early-video.ts), shown with its first frame, with the browser's controls on
 * the video: what the player's own bar (src/components/player/MediaBar.tsx) shows of a video the loader may start (a
 * guest's, muted, never resumed, with the browser's engine: one rendition, so no quality menu), with the same texts,
 * parts and classes: Go to live for a live stream, the speed for an on-demand one, and picture-in-picture.
 * Its controls act on the video itself, so the player's bar takes over from it by reading the video: the player's
 * stage carries this bar along when it adopts the video and removes it as its own renders (VideoStage), so a bar is
 * always there and never twice. Dependency-free, as the early video's module is.
 */
import { MEDIA_BAR_TEXTS } from '../i18n/ad-label.js';
import type { EarlyBar } from '../lib/early-video.js';
import type { Lang } from '../lib/lang.js';
import { goLive, inPip, LIVE_EDGE_S, pipAvailable, secondsBehind, SPEEDS, togglePip } from '../lib/media-bar.js';
import { formatClock } from '../lib/time.js';

/** A new element with a class and a part, and these children. */
function make<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  part = '',
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (part) node.setAttribute('part', part);
  node.append(...children);
  return node;
}

/** A hidden-from-assistive-technology span (the live button's dot and how far behind it is). */
const decoration = (className: string, text = '') => {
  const span = make('span', className, '', text);
  span.setAttribute('aria-hidden', 'true');
  return span;
};

/** The bar for `video` (a live stream or not) in `lang`; it follows the video until stopped. */
export function earlyBar(video: HTMLVideoElement, live: boolean, lang: Lang): EarlyBar {
  const texts = MEDIA_BAR_TEXTS[lang];
  const off = new AbortController();
  /** Calls `show` now and whenever one of `types` happens to the video, until the bar stops. */
  const follow = (types: string[], show: () => void) => {
    show();
    for (const type of types) video.addEventListener(type, show, { signal: off.signal });
  };
  const element = make('div', 'media-bar', 'media-bar');
  // Outside the player's frame (which names its language), so named here.
  element.lang = lang;
  element.setAttribute('role', 'group');
  element.setAttribute('aria-label', texts.label);
  if (live) {
    const button = make('button', '', 'button live');
    button.type = 'button';
    button.onclick = () => goLive(video);
    let shown: number | undefined;
    follow(['timeupdate', 'seeked', 'durationchange'], () => {
      const behind = secondsBehind(video);
      const atEdge = behind <= LIVE_EDGE_S;
      // Redrawn only when what it says changes (at the edge, the seconds behind do not show).
      const showing = atEdge ? -1 : behind;
      if (showing === shown) return;
      shown = showing;
      button.className = atEdge ? 'btn live-edge' : 'btn quiet live-edge';
      button.dataset.state = atEdge ? 'edge' : 'behind';
      button.replaceChildren(
        decoration('dot'),
        atEdge ? texts.atLive : texts.goLive,
        ...(atEdge ? [] : [decoration('behind', `−${formatClock(behind)}`)]),
      );
    });
    element.append(button);
  }
  element.append(make('span', 'spacer'));
  if (!live) {
    const select = make('select', '');
    select.onchange = () => (video.playbackRate = Number(select.value));
    follow(['ratechange'], () => {
      const rate = video.playbackRate;
      const speeds: number[] = [...SPEEDS];
      if (!speeds.includes(rate)) speeds.push(rate);
      select.replaceChildren(...speeds.map((s) => new Option(s === 1 ? texts.normal : `${s}×`, String(s))));
      select.value = String(rate);
    });
    element.append(make('label', 'menu', 'speed', make('span', '', '', texts.speed), select));
  }
  if (pipAvailable(video)) {
    const button = make('button', 'btn quiet', 'button pip', texts.pip);
    button.type = 'button';
    button.onclick = () => togglePip(video);
    follow(['enterpictureinpicture', 'leavepictureinpicture'], () =>
      button.setAttribute('aria-pressed', String(inPip(video))),
    );
    element.append(button);
  }
  return {
    element,
    stop() {
      off.abort();
      element.remove();
    },
  };
}
