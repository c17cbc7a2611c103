/**
 * The early video's handover: what the loader's early video (src/loader/early-video.ts) started in a
 * `<channel-player>` before the player's code came, and what the player takes over. It is one object, an
 * `EarlyVideo`, on the element under one registered symbol (the loader's and the player's bundles each have a copy of
 * this module; the symbol is the same), and that object is the video's one owner: every path that ends it (the
 * player's code never came, the view shows something else or goes, the stage that adopted it goes) calls `release()`.
 * The player's element renders into the shadow root the loader attached (`takeEarlyRoot`, on the player's class only).
 * Dependency-free and small: the loader, the early video's module and the player's chunks all bundle it.
 */
import type { PrerollRule } from './preroll-rules.js';

const EARLY_VIDEO = Symbol.for('channel-elements.early-video');

/** The decision window: the start-up answers an early video needs must all be in this long (ms) after the loader met the player. */
export const EARLY_DECISION_MS = 800;

/** What the loader chose for a player: the event's stream, and the advert it plays first (or none). */
export interface EarlyChoice {
  stream: string;
  /** Whether the stream is live (its bar offers Go to live rather than the speed). */
  live: boolean;
  preroll: PrerollRule | undefined;
}

/** The bar the loader shows under its early video from its first frame (src/loader/early-bar.ts). */
export interface EarlyBar {
  readonly element: HTMLElement;
  /** Removes the bar and stops it following the video. */
  stop(): void;
}

/** What the loader started in a player, and what the player takes over. */
export interface EarlyVideo extends EarlyChoice {
  /** The playing video: a child of the player's shadow root until a stage adopts it. */
  readonly video: HTMLVideoElement;
  /** The shadow root the loader attached: the element renders into it (once). */
  readonly root: ShadowRoot;
  /** The early preroll's "Ad" label, while it shows. */
  readonly label: HTMLElement | undefined;
  /** The bar under the event's stream, from its first frame until the player's own bar replaces it. */
  bar: EarlyBar | undefined;
  /** When the video was set and when it showed its first frame (ms since the epoch): its analytics. */
  readonly startedAt: number;
  framedAt: number | undefined;
  /** Adopted by a stage, or released: no longer the loader's to hand over. */
  taken: boolean;
  /** Whether the element took the root over already. */
  rooted: boolean;
}

type Marked = Element & Record<symbol, EarlyVideo | undefined>;

/** Registers `early` on its player (the loader, as it starts it). */
export function setEarlyVideo(player: Element, early: EarlyVideo): void {
  (player as Marked)[EARLY_VIDEO] = early;
}

/** The early video of `player` that nobody has adopted or released yet, if any. */
export function earlyVideoOf(player: Element): EarlyVideo | undefined {
  const early = (player as Marked)[EARLY_VIDEO];
  return early && !early.taken ? early : undefined;
}

/** Stops a video and detaches its source, so the browser fetches nothing more for it. */
export function stopVideo(video: HTMLVideoElement): void {
  video.pause();
  video.removeAttribute('src');
  video.load();
}

/**
 * The owner's one way out: stops the early video (its label goes when it empties: the loader listens) and removes
 * its bar. One nobody
 * adopted is also removed, and the player's light DOM shows again where its code never came (the loader's message);
 * one a stage adopted stays where the stage put it. Idempotent: released again, it is out of the root.
 */
export function releaseEarlyVideo(early: EarlyVideo): void {
  const { video, root } = early;
  early.taken = true;
  dropEarlyBar(early);
  stopVideo(video);
  if (video.parentNode !== root) return;
  video.remove();
  if (!customElements.get(root.host.localName)) root.appendChild(document.createElement('slot'));
}

/**
 * Puts `node` into `parent` before `child`, keeping its state where the browser can (`moveBefore`): a video the viewer
 * put in full screen or picture-in-picture stays there, a focused control keeps the focus. Elsewhere, a plain insert
 * that gives the focus back.
 */
export function moveNode(parent: ParentNode, node: Node, child: Node | null): void {
  const move = (parent as ParentNode & { moveBefore?(node: Node, child: Node | null): void }).moveBefore;
  try {
    if (move) return move.call(parent, node, child);
  } catch {
    // Not movable so (another root): inserted below.
  }
  const active = (node.getRootNode() as Document | ShadowRoot).activeElement as HTMLElement | null;
  parent.insertBefore(node, child);
  if (active && node.contains(active)) active.focus();
}

/** Hands the video to the stage that puts it in place: from then on that stage releases it when it goes. */
export function adoptEarlyVideo(early: EarlyVideo): HTMLVideoElement {
  early.taken = true;
  return early.video;
}

/** Removes the early video's bar (the player's stage shows its own, or none). */
export function dropEarlyBar(early: EarlyVideo): void {
  early.bar?.stop();
  early.bar = undefined;
}

/**
 * Where in the early video's bar the keyboard focus is, if it is there: a selector of the same control in the
 * player's bar (both use the same parts), for the stage to give its own bar that focus when the early one goes.
 */
export function earlyBarFocus(early: EarlyVideo): string | undefined {
  const bar = early.bar?.element;
  const focused = bar && (bar.getRootNode() as Document | ShadowRoot).activeElement;
  const named = focused && bar.contains(focused) ? focused.closest('[part]') : null;
  const part = named && named !== bar ? named.getAttribute('part') : null;
  return part ? `[part="${part}"]${named === focused ? '' : ` ${focused!.localName}`}` : undefined;
}

/** Removes the early preroll's label (the player adopting it shows its own). */
export function dropEarlyLabel(early: EarlyVideo): void {
  early.label?.remove();
}

/**
 * The player's element class asks here before it attaches its shadow root: the root the loader attached for an early
 * video, once, emptied of all but the video (while no stage has it), its label and its bar; else undefined (the
 * platform's own rule then holds: one root per element).
 */
export function takeEarlyRoot(player: Element): ShadowRoot | undefined {
  const early = (player as Marked)[EARLY_VIDEO];
  if (!early || early.rooted) return undefined;
  early.rooted = true;
  for (const node of [...early.root.childNodes])
    if (node !== early.video && node !== early.label && node !== early.bar?.element) node.remove();
  return early.root;
}

/**
 * The early video's look, its label's and its bar's, in the loader's root (the player's own styles repeat it once they
 * are adopted). The early video, its label and its bar are the root's only direct children of their kind: the
 * player's own video, label and bar live in its stage, and the stage takes the early bar along under the video. What
 * follows the early video but its bar (the player rendering behind it) stays hidden until the stage has it.
 */
export const EARLY_CSS = `:host{display:block;position:relative}:host>video{display:block;width:100%;aspect-ratio:16/9;background:#000}:host>video~:not(.media-bar){display:none!important}:host>[part=ad-label]{position:absolute;top:10px;left:10px;z-index:2;padding:2px 10px;border-radius:6px;background:#ffd23f;color:#1b1b1b;font:800 .85em/1.5 system-ui,sans-serif;letter-spacing:.04em}:host>.media-bar{display:flex;flex-wrap:wrap;align-items:center;gap:8px 12px;padding:8px;font:.9em/1.4 system-ui,sans-serif;letter-spacing:normal;text-transform:none}:host>.media-bar .spacer{flex:1}:host>.media-bar :is(.btn,select){min-height:32px;padding:4px 12px;border-radius:999px;border:1px solid #8886;background:none;color:inherit;font:inherit;font-weight:600;letter-spacing:inherit}:host>.media-bar .menu select{padding:4px 8px;border-radius:8px;font-weight:400}:host>.media-bar .menu{display:inline-flex;align-items:center;gap:6px}:host>.media-bar [aria-pressed=true]{background:#444;color:#fff}:host>.media-bar .live-edge{display:inline-flex;align-items:center;gap:6px}:host>.media-bar [data-state=edge]{background:#d62828;color:#fff}:host>.media-bar .dot{width:8px;height:8px;border-radius:50%;background:currentColor}`;
