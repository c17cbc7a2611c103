/**
 * Windowing for long lists of blocks: only the blocks near the viewport are rendered, with spacers standing in
 * for the others at their measured (or estimated) heights. A list of 5,000 events then keeps a few dozen cards
 * in the DOM, so layout, paint and every React commit stay the same size wherever the reader is.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { listenShared } from './shared.js';

/** Blocks rendered before the first measurement. */
const INITIAL_BLOCKS = 3;
/** Space rendered above and below the viewport, in viewport heights. */
const MARGIN_ABOVE = 1;
const MARGIN_BELOW = 1.5;

/** Which blocks to render, and the heights the spacers stand in for. */
export interface BlockWindow {
  start: number;
  end: number;
  /** Height of the blocks before `start`, gaps included. */
  before: number;
  /** Height of the blocks from `end` on, gaps included. */
  after: number;
  /** Ref callback for block `index` (measures it while rendered). */
  measure(index: number): (node: HTMLElement | null) => void;
}

/**
 * `list` is the element holding the blocks; `gap` the space after each block. Blocks keep their heights once
 * measured; unmeasured ones count as the average measured height (or `estimate` before any).
 */
export function useBlockWindow(
  list: RefObject<HTMLElement>,
  count: number,
  estimate: number,
  gap: number,
): BlockWindow {
  const heights = useRef<(number | undefined)[]>([]);
  const [range, setRange] = useState({ start: 0, end: Math.min(count, INITIAL_BLOCKS) });
  const [, setMeasured] = useState(0);
  const focused = useRef<number | undefined>(undefined);

  /** The height each block takes, gap included: measured, else the average measured, else the estimate. */
  const slots = useCallback((): number[] => {
    let sum = 0;
    let n = 0;
    for (const h of heights.current) {
      if (h === undefined) continue;
      sum += h;
      n++;
    }
    const average = n ? sum / n : estimate;
    return Array.from({ length: count }, (_, i) => (heights.current[i] ?? average) + gap);
  }, [count, estimate, gap]);

  const update = useCallback(() => {
    const node = list.current;
    if (!node || !node.isConnected) return;
    const top = node.getBoundingClientRect().top;
    const viewport = window.innerHeight || document.documentElement.clientHeight || 800;
    const from = -top - viewport * MARGIN_ABOVE;
    const to = -top + viewport * (1 + MARGIN_BELOW);
    const slot = slots();
    let y = 0;
    let i = 0;
    for (; i < count; i++) {
      const h = slot[i] ?? 0;
      if (y + h > from) break;
      y += h;
    }
    let start = Math.min(i, Math.max(0, count - 1));
    for (; i < count && y < to; i++) y += slot[i] ?? 0;
    let end = Math.max(i, Math.min(count, start + 1));
    // The block holding focus stays rendered, so scrolling away never drops the reader's place.
    const f = focused.current;
    if (f !== undefined && f < count) {
      start = Math.min(start, f);
      end = Math.max(end, f + 1);
    }
    setRange((prev) => (prev.start === start && prev.end === end ? prev : { start, end }));
  }, [list, count, slots]);

  // The listeners below live as long as the list and always call the latest `update` (which changes with
  // every page appended), so a new page never re-subscribes them.
  const latest = useRef(update);
  latest.current = update;

  // Re-window on scroll of the page or any scrolling ancestor in the host's document, and on resize (one page
  // listener for every list, see shared.ts).
  useEffect(() => {
    let frame = 0;
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(() => ((frame = 0), latest.current()));
    };
    schedule();
    const stops = [listenShared(window, 'scroll', schedule), listenShared(window, 'resize', schedule)];
    const node = list.current;
    const onFocus = (e: FocusEvent) => {
      const block = (e.target as Element | null)?.closest?.('[data-block]');
      focused.current = block ? Number(block.getAttribute('data-block')) : undefined;
    };
    const onBlur = () => (focused.current = undefined);
    node?.addEventListener('focusin', onFocus);
    node?.addEventListener('focusout', onBlur);
    return () => {
      cancelAnimationFrame(frame);
      stops.forEach((stop) => stop());
      node?.removeEventListener('focusin', onFocus);
      node?.removeEventListener('focusout', onBlur);
    };
  }, [list]);

  // One observer measures every rendered block; a changed height moves the spacers and the window.
  const observer = useRef<ResizeObserver | undefined>(undefined);
  const nodes = useRef(new Map<number, HTMLElement>());
  useLayoutEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    let frame = 0;
    const ro = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const index = Number((entry.target as HTMLElement).dataset.block);
        const height = (entry.target as HTMLElement).offsetHeight;
        if (Number.isFinite(index) && height > 0 && heights.current[index] !== height) {
          heights.current[index] = height;
          changed = true;
        }
      }
      if (changed && !frame) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          setMeasured((n) => n + 1);
          latest.current();
        });
      }
    });
    observer.current = ro;
    for (const node of nodes.current.values()) ro.observe(node);
    return () => {
      cancelAnimationFrame(frame);
      ro.disconnect();
      observer.current = undefined;
    };
  }, []);

  const refs = useRef(new Map<number, (node: HTMLElement | null) => void>());
  const measure = useCallback((index: number) => {
    let ref = refs.current.get(index);
    if (!ref) {
      ref = (node: HTMLElement | null) => {
        const old = nodes.current.get(index);
        if (old && old !== node) {
          observer.current?.unobserve(old);
          nodes.current.delete(index);
        }
        if (node) {
          nodes.current.set(index, node);
          observer.current?.observe(node);
        }
      };
      refs.current.set(index, ref);
    }
    return ref;
  }, []);

  // A shorter list (new query) or more blocks (a new page): keep the window inside the list, then re-window.
  heights.current.length = Math.min(heights.current.length, count);
  const start = Math.min(range.start, Math.max(0, count - 1));
  const end = Math.min(Math.max(range.end, Math.min(count, INITIAL_BLOCKS)), count);
  useEffect(() => {
    update();
  }, [count, update]);

  const slot = slots();
  let before = 0;
  for (let i = 0; i < start; i++) before += slot[i] ?? 0;
  let after = 0;
  for (let i = end; i < count; i++) after += slot[i] ?? 0;
  return { start, end, before, after, measure };
}
