/**
 * The early video's look and its preroll label, shared by the early module (src/loader/early-video.ts) and the
 * player's stage, which repeats the sheet and takes the label away: never part of the code every page loads.
 */
import { EARLY_LABEL_ATTR, EARLY_VIDEO_ATTR } from './early-protocol.js';

/** The loader's sheet for an early shadow root (the player's own styles repeat it once they are adopted). */
export const EARLY_CSS = `:host{display:block;position:relative}:host>video[${EARLY_VIDEO_ATTR}]{display:block;width:100%;aspect-ratio:16/9;background:#000}:host>video[${EARLY_VIDEO_ATTR}]~*{display:none!important}:host>[${EARLY_LABEL_ATTR}]{position:absolute;top:10px;left:10px;z-index:2;padding:2px 10px;border-radius:6px;background:#ffd23f;color:#1b1b1b;font:800 .85em/1.5 system-ui,sans-serif;letter-spacing:.04em}`;

/** Removes the early preroll's label beside `video`, if any (the player adopting it shows its own). */
export function dropEarlyLabel(video: HTMLVideoElement): void {
  const root = video.getRootNode();
  // The root's own children (`:scope` matches nothing in a shadow root).
  if (root instanceof ShadowRoot)
    for (const child of [...root.children]) if (child.hasAttribute(EARLY_LABEL_ATTR)) child.remove();
}
