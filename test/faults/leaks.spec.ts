// Mount and unmount (issue 17, §6): each of the five elements is added to a page, left to start up and fetch what it
// shows, and removed, 100 times. An init script counts what the page keeps outstanding (timers not yet fired or
// cleared, intervals, listeners on window and document, fetches and XHRs not yet answered); the DevTools protocol
// forces garbage collections, reads the heap and counts live objects (the elements, videos, MediaSources and hls.js
// instances). After the cycles, nothing the elements started is left: the outstanding counts are back to what they
// were after the first few cycles (the session's own, shared by every element, start with the first), no request
// is pending, the heap grew by less than 5 MB, no MediaSource, video with a source or hls.js instance is left, and at
// most one removed element is alive: React DOM keeps a pointer to the last root it rendered until it renders again.
import type { CDPSession, Page } from '@playwright/test';
import { expect, test } from '../e2e/fixtures.js';
import { BUNDLE_ORIGIN, demoEventIds } from '../e2e/helpers.js';

const CYCLES = 100;
/** Cycles before the baseline: the session, the channel's settings and the shared stores start with the first. */
const WARM_UP = 5;
const HEAP_BUDGET = 5 * 1024 * 1024;

test.describe.configure({ timeout: 420_000 });

/** What the page keeps outstanding, counted by the init script below. */
interface Outstanding {
  timeouts: number;
  intervals: number;
  listeners: number;
  fetches: number;
  xhrs: number;
}

/** Installed before any page script: counts timers, window/document listeners and requests still outstanding. */
function instrument(): void {
  const w = window as unknown as { __outstanding: () => Outstanding };
  const timeouts = new Set<unknown>();
  const intervals = new Set<unknown>();
  const listeners = new Set<string>();
  let fetches = 0;
  let xhrs = 0;
  const { setTimeout: st, clearTimeout: ct, setInterval: si, clearInterval: ci, fetch: f } = window;
  window.setTimeout = ((handler: TimerHandler, ms?: number, ...rest: unknown[]) => {
    const id = st(
      (...args: unknown[]) => {
        timeouts.delete(id);
        if (typeof handler === 'function') (handler as (...a: unknown[]) => void)(...args);
      },
      ms,
      ...rest,
    );
    timeouts.add(id);
    return id;
  }) as typeof setTimeout;
  // A cleared timer is no longer outstanding.
  const clearing = (set: Set<unknown>, clear: (id?: number) => void) => (id?: number) => {
    set.delete(id);
    clear(id);
  };
  window.clearTimeout = clearing(timeouts, ct) as typeof clearTimeout;
  window.setInterval = ((handler: TimerHandler, ms?: number, ...rest: unknown[]) => {
    const id = si(handler, ms, ...rest);
    intervals.add(id);
    return id;
  }) as typeof setInterval;
  window.clearInterval = clearing(intervals, ci) as typeof clearInterval;
  window.fetch = (...args: Parameters<typeof fetch>) => {
    fetches++;
    return f(...args).finally(() => fetches--);
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body) {
    xhrs++;
    this.addEventListener('loadend', () => xhrs--, { once: true });
    return send.call(this, body);
  };
  // Listeners on the page's window and document only: an element's own go with it.
  const ids = new WeakMap<object, number>();
  let next = 0;
  const key = (target: EventTarget, type: string, listener: unknown, options: unknown) => {
    if (!listener || (typeof listener !== 'object' && typeof listener !== 'function')) return undefined;
    if (!ids.has(listener)) ids.set(listener, next++);
    const capture = typeof options === 'boolean' ? options : Boolean((options as { capture?: boolean })?.capture);
    return `${target === window ? 'window' : 'document'} ${type} ${ids.get(listener)} ${capture}`;
  };
  type Listen = (type: string, listener: EventListenerOrEventListenerObject | null, options?: unknown) => void;
  for (const target of [window, document] as EventTarget[]) {
    const add = target.addEventListener.bind(target);
    const remove = target.removeEventListener.bind(target);
    const listen: Listen = (type, listener, options) => {
      const k = key(target, type, listener, options);
      const signal = (options as { signal?: AbortSignal } | undefined)?.signal;
      const once = (options as { once?: boolean } | undefined)?.once;
      if (k && !signal?.aborted) {
        listeners.add(k);
        signal?.addEventListener('abort', () => listeners.delete(k));
        // A once listener is gone after it ran: count it out when its event comes (it runs after this one).
        if (once)
          add(type, () => listeners.delete(k), { once: true, capture: (options as { capture?: boolean }).capture });
      }
      add(type, listener, options as AddEventListenerOptions);
    };
    const unlisten: Listen = (type, listener, options) => {
      const k = key(target, type, listener, options);
      if (k) listeners.delete(k);
      remove(type, listener, options as EventListenerOptions);
    };
    target.addEventListener = listen;
    target.removeEventListener = unlisten;
  }
  w.__outstanding = () => ({
    timeouts: timeouts.size,
    intervals: intervals.size,
    listeners: listeners.size,
    fetches,
    xhrs,
  });
}

/** Live instances of a class in the page after a garbage collection (as in test/e2e/frameworks.spec.ts). */
async function liveInstances(
  cdp: CDPSession,
  prototype: string,
  /** Counts only the instances this keeps (a function of `this`, the array of instances). */
  filter = 'function () { return this.length; }',
): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const objectGroup = 'leak-check';
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: prototype, objectGroup });
    if (!result.objectId) return 0;
    const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: result.objectId, objectGroup });
    const { result: count } = await cdp.send('Runtime.callFunctionOn', {
      objectId: objects.objectId!,
      functionDeclaration: filter,
      returnByValue: true,
    });
    return count.value as number;
  } finally {
    await cdp.send('Runtime.releaseObjectGroup', { objectGroup });
  }
}

async function heap(cdp: CDPSession): Promise<number> {
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

/** What the page has outstanding once it is quiet (no request pending; timers that were due have run). */
async function quiet(page: Page): Promise<Outstanding> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __outstanding: () => Outstanding }).__outstanding()), {
      timeout: 15_000,
    })
    .toMatchObject({ fetches: 0, xhrs: 0 });
  // Short timers (a debounce, a retry) run out.
  await page.waitForTimeout(1_500);
  return page.evaluate(() => (window as unknown as { __outstanding: () => Outstanding }).__outstanding());
}

interface Case {
  tag: string;
  /** Attributes of the element. */
  attributes(ids: Record<string, number>): Record<string, string>;
  /** Shown once it has started up and fetched what it shows. */
  started: string;
  fast?: boolean;
}

const CASES: Case[] = [
  {
    tag: 'channel-schedule',
    attributes: () => ({ kind: 'live', limit: '6' }),
    started: '[part~="event-link"], [part~="empty"]',
    fast: true,
  },
  {
    tag: 'channel-player',
    // hls.js (Media Source Extensions) plays even where the browser plays HLS itself: its instances are counted.
    attributes: (ids) => ({ 'event-id': String(ids['free-live']), autoplay: '', muted: '', 'prefer-playback': 'mse' }),
    started: 'video[src^="blob:"]',
  },
  { tag: 'channel-profile', attributes: () => ({}), started: '[part~="sign-in"]' },
  { tag: 'channel-checkout', attributes: () => ({}), started: '[part~="offers"] [part~="offer"]' },
  { tag: 'channel-app', attributes: () => ({}), started: '[part~="header"]' },
];

for (const c of CASES) {
  test(
    `${CYCLES} mounts and unmounts of <${c.tag}> leave no timer, listener, request, element or stream behind (heap +5 MB at most)`,
    c.fast ? {} : { tag: '@full' },
    async ({ page, request }) => {
      const ids = await demoEventIds(request);
      await page.addInitScript(instrument);
      await page.goto(`${BUNDLE_ORIGIN}/dynamic.html`);
      const cdp = await page.context().newCDPSession(page);
      const element = page.locator(`#slot ${c.tag}`);
      const attributes = c.attributes(ids);
      const mount = async () => {
        await page.evaluate(
          ([tag, attrs]) => {
            const el = document.createElement(tag);
            for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
            document.getElementById('slot')!.append(el);
          },
          [c.tag, attributes] as const,
        );
        await expect(element.locator(c.started).first()).toBeAttached({ timeout: 15_000 });
        if (c.tag === 'channel-player') {
          await expect
            .poll(() => element.evaluate((el) => (el as unknown as { readyState: number }).readyState), {
              timeout: 15_000,
            })
            .toBeGreaterThanOrEqual(2);
        }
      };
      const unmount = () => element.evaluate((el) => el.remove());
      const cycle = async () => {
        await mount();
        await unmount();
      };
      const counts = async () => {
        const left: Record<string, number> = {
          elements: await liveInstances(cdp, `customElements.get('${c.tag}').prototype`),
          mediaSources: await liveInstances(cdp, 'MediaSource.prototype'),
          // A video still holding a stream; the player's media API keeps one blank video with no source (element-api.ts).
          streamingVideos: await liveInstances(
            cdp,
            'HTMLVideoElement.prototype',
            'function () { return this.filter((v) => v.src || v.srcObject).length; }',
          ),
        };
        if (c.tag === 'channel-player') {
          // hls.js's class, from the very chunk the player loaded (the module instance is the same).
          const chunk = await page.evaluate(
            () =>
              performance
                .getEntriesByType('resource')
                .map((e) => e.name)
                .find((name) => /\/chunks\/hls[.-]/.test(name)) ?? '',
          );
          expect(chunk).not.toBe('');
          await page.evaluate(async (url) => {
            const module = (await import(url)) as Record<string, unknown>;
            (window as unknown as { __Hls?: unknown }).__Hls = Object.values(module).find(
              (value) => typeof value === 'function' && 'isSupported' in value,
            );
          }, chunk);
          // Instances only: hls.js's own subclasses' prototypes (two, made when the module loads) have Hls's
          // prototype in their chain too, and an own `constructor` tells them apart.
          left.hls = await liveInstances(
            cdp,
            'window.__Hls.prototype',
            'function () { return this.filter((h) => !Object.prototype.hasOwnProperty.call(h, "constructor")).length; }',
          );
          // Not destroyed: still attached to a video or loading a URL (destroy() drops both).
          left.hlsAttached = await liveInstances(
            cdp,
            'window.__Hls.prototype',
            'function () { return this.filter((h) => h.media || h.url).length; }',
          );
        }
        return left;
      };
      for (let i = 0; i < WARM_UP; i++) await cycle();
      const before = await quiet(page);
      const heapBefore = await heap(cdp);
      for (let i = WARM_UP; i < CYCLES; i++) await cycle();
      const after = await quiet(page);
      const heapAfter = await heap(cdp);

      // Nothing more than after the first cycles (the session's and the shared stores' own), and no request.
      const grown = Object.entries(after).filter(([kind, n]) => n > before[kind as keyof Outstanding]);
      expect(grown, `outstanding ${JSON.stringify(after)}, after ${WARM_UP} cycles ${JSON.stringify(before)}`).toEqual(
        [],
      );
      expect(after).toMatchObject({ fetches: 0, xhrs: 0 });
      expect(heapAfter - heapBefore, `heap ${heapBefore} -> ${heapAfter} bytes`).toBeLessThan(HEAP_BUDGET);
      // The counts see what is there: one more element, started, and what it holds.
      await mount();
      const mounted = await counts();
      expect(mounted.elements).toBeGreaterThanOrEqual(1);
      if (c.tag === 'channel-player') {
        expect(mounted, `a playing player: ${JSON.stringify(mounted)}`).toMatchObject({
          mediaSources: 1,
          streamingVideos: 1,
          hls: 1,
          hlsAttached: 1,
        });
      }
      await unmount();
      await quiet(page);
      // React DOM keeps its last root (the last removed element) until it renders again; nothing it held is left
      // playing: the removed player's hls.js instance is gone with its MediaSource.
      const left = await counts();
      const limits: Record<string, number> = {
        elements: 1,
        mediaSources: 0,
        streamingVideos: 0,
        hlsAttached: 0,
        hls: 0,
      };
      for (const [kind, count] of Object.entries(left))
        expect(
          count,
          `${kind} left: ${JSON.stringify(left)} (mounted: ${JSON.stringify(mounted)})`,
        ).toBeLessThanOrEqual(limits[kind]!);
    },
  );
}
