/**
 * The player benchmark (part of `npm run bench`): time from navigation to the first video frame, and the gzip
 * JavaScript loaded before it, for pages playing the same first stream, side by side in one run, on two channels:
 * the bench channel (no preroll: the event's recording first) and the demo channel (a new visitor's preroll first,
 * which the peers are given as their stream):
 * - demo/site/bench/player-bench.html: `<channel-player>` embedded the usual way (the async script tag), including
 *   its API calls (keys, settings with the prerolls, event); player-demo.html the same on the demo channel;
 * - demo/site/bench/hls.html: a bare page with hls.js light and a <video>;
 * - demo/site/bench/mux.html: `@mux/mux-player` (a devDependency for this comparison only).
 * Each round runs every page once, in a shuffled order (benchPlayers), so that machine noise spreads evenly.
 * Besides the ratio of two pages' medians, the ratio of their loads in each round is given as a median and
 * quartiles: the machine's load drifts over a run, moving both medians, less so the two loads of one round.
 * A returning visitor's load on the demo channel (the keys stored) is timed too, against the peers' second visits. The
 * files are fetched again: the bench's server (dev mode) sends them no-cache without validators.
 */
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from '@playwright/test';
import { apiKeyStorageKey, STORAGE_PREFIX } from '../src/lib/api-paths.js';
import { watchMarks } from './marks.js';

/** One page's results. */
export interface PlayerBench {
  page: string;
  /** One per round, in round order (so that pages' samples of one round pair up). */
  firstFrameMs: number[];
  medianMs: number;
  jsGzipBytes: number;
  jsFiles: { url: string; gzip_bytes: number }[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

/**
 * Records, inside the page, when the first video frame is presented: it looks for a <video> (also inside open
 * shadow roots, however deep) every animation frame and asks it for its first frame callback.
 * A string, not a function: tsx's keepNames would wrap inner functions in a __name() helper the page lacks.
 */
export const FIRST_FRAME_PROBE = `
  window.__firstFrame = undefined;
  const find = (root) => {
    const direct = root.querySelector('video');
    if (direct) return direct;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const v = find(el.shadowRoot); if (v) return v; }
    return null;
  };
  const watched = new WeakSet();
  const look = () => {
    if (window.__firstFrame !== undefined) return;
    const video = document.documentElement && find(document);
    if (video && !watched.has(video)) {
      watched.add(video);
      video.requestVideoFrameCallback(() => { if (window.__firstFrame === undefined) window.__firstFrame = performance.now(); });
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
`;

/**
 * A page script that sets `window[name]` to the time (performance.now()) at which `selector` first matches in the
 * open shadow root of the page's `tag`, looking every animation frame.
 */
export function shadowProbe(name: string, tag: string, selector: string): string {
  // In a block of its own: several probes run as scripts of one page, and top-level names would clash.
  const [key, host, match] = [name, tag, selector].map((text) => JSON.stringify(text));
  return `{
  window[${key}] = undefined;
  const look = () => {
    const root = document.querySelector(${host})?.shadowRoot;
    if (root && root.querySelector(${match})) window[${key}] = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}`;
}

/**
 * A page of the comparison. With `before`, a returning visitor's load: the same browser context first visits
 * `before.url` (not timed) until the page expression `before.ready` holds, so that the timed load finds what a viewer
 * coming back has (for our player, the channel and api keys stored; the browser's cache has nothing the dev server
 * lets it reuse).
 */
export interface BenchPage {
  name: string;
  url: string;
  before?: { url: string; ready: string };
}

/**
 * Loads `page.url` once in a fresh context (cold cache, nothing stored; or after `page.before`) and returns the first
 * frame time and the JS before it.
 */
async function once(
  browser: Browser,
  { url, before }: BenchPage,
): Promise<{ ms: number; js: { url: string; gzip_bytes: number }[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (before) {
    const visit = await context.newPage();
    visit.on('pageerror', (e) => console.error(`page error (${before.url}):`, e.message));
    await visit.addInitScript(FIRST_FRAME_PROBE);
    await visit.goto(before.url);
    // Not the page under measurement: Playwright's injected script may run here.
    await visit.waitForFunction(before.ready, undefined, { timeout: 30_000 });
    await visit.close();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  }
  const page: Page = await context.newPage();
  const bodies: Promise<{ url: string; gzip_bytes: number } | undefined>[] = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!/javascript/.test(type)) return;
    bodies.push(
      response.body().then(
        (body) => ({ url: response.url(), gzip_bytes: gzipSync(body, { level: 9 }).length }),
        // A file still arriving when the page closes came after the first frame anyway.
        () => undefined,
      ),
    );
  });
  page.on('pageerror', (e) => console.error(`page error (${url}):`, e.message));
  await page.addInitScript(FIRST_FRAME_PROBE);
  const { marks } = await watchMarks(page, ['__firstFrame']);
  await page.goto(url);
  const ms = (await marks).__firstFrame;
  // Only what had arrived by the first frame counts (analytics and the rest load after it by design): the page's
  // own resource timings say when each file's last byte came, on the first frame's clock.
  const arrived = new Map(
    (await page.evaluate("performance.getEntriesByType('resource').map((e) => [e.name, e.responseEnd])")) as [
      string,
      number,
    ][],
  );
  const files = (await Promise.all(bodies)).filter(
    (f): f is { url: string; gzip_bytes: number } => f !== undefined && (arrived.get(f.url) ?? Infinity) <= ms,
  );
  await context.close();
  // Let the closed page's renderer wind down before the next page starts, so that no page pays for the last.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return { ms, js: files };
}

/** The pause after each page load, for the machine to settle. */
const SETTLE_MS = 500;

/** A small seeded generator of numbers in [0, 1) (mulberry32), so that every run shuffles its rounds alike. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Runs every page `runs` times and returns the medians. Each round runs every page once, in an order shuffled anew
 * (the same orders on every run: a fixed seed), so that no page keeps following the same one (a page that follows a
 * heavy one, Mux Player's, tends to be slower) and the pages of a pair change places.
 */
export async function benchPlayers(browser: Browser, pages: BenchPage[], runs: number): Promise<PlayerBench[]> {
  const results = pages.map((p) => ({
    page: p.name,
    firstFrameMs: [] as number[],
    js: [] as { url: string; gzip_bytes: number }[][],
  }));
  // One warm-up round, not counted: the first launch of each page pays for the browser's own start-up.
  for (const p of pages) await once(browser, p);
  const random = seeded(30);
  for (let i = 0; i < runs; i++) {
    const order = pages.map((_, index) => index);
    // Fisher-Yates.
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(random() * (k + 1));
      [order[k], order[j]] = [order[j]!, order[k]!];
    }
    for (const index of order) {
      const p = pages[index]!;
      const run = await once(browser, p);
      results[index]!.firstFrameMs.push(run.ms);
      results[index]!.js.push(run.js);
    }
  }
  return results.map((r) => {
    const js = r.js[0] ?? [];
    return {
      page: r.page,
      firstFrameMs: r.firstFrameMs,
      medianMs: median(r.firstFrameMs),
      jsGzipBytes: js.reduce((sum, f) => sum + f.gzip_bytes, 0),
      jsFiles: js,
    };
  });
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/**
 * The player comparison of `npm run bench`: <channel-player>, a bare <video>, bare hls.js light and Mux Player on
 * the bench channel's stream, then the same four on the demo channel (<channel-player> shows a preroll first; the
 * peers play that preroll's stream), from pages on `hostOrigin`; the table rows with the targets, and the
 * files our player loads before its first frame on each channel.
 */
export async function playerSection(
  browser: Browser,
  hostOrigin: string,
  stream: { eventId: number; url: string },
  demoStream: { eventId: number; prerollUrl: string; otherEventId: number },
  runs: number,
): Promise<{
  players: PlayerBench[];
  /** Our first frame over each peer's, per channel (the ratio of the medians). */
  ratios: Record<'bench' | 'demo', { video: number; hls: number; mux: number }>;
  /** Our first frame over bare hls.js light's in each round: median and quartiles, per channel and for returning visitors. */
  paired: Record<'bench' | 'demo' | 'returning', Spread>;
  /** The returning visitor's ratios of the medians (demo channel). */
  returning: { video: number; hls: number };
  rows: [string, string, string][];
  files: string;
}> {
  const src = encodeURIComponent(stream.url);
  const ad = encodeURIComponent(demoStream.prerollUrl);
  // A returning visitor: the same context visited the page before (our player: another event's page of the channel,
  // until its api key is stored; a suppression is per event, so the timed load still starts with a preroll).
  const shown = 'window.__firstFrame !== undefined';
  const again = (url: string) => ({ url, ready: shown });
  // Our player stores the keys once its code has run, after the first frame.
  const apiKeyStored = `${shown} && Object.keys(localStorage).some((k) => k.startsWith(${JSON.stringify(STORAGE_PREFIX + apiKeyStorageKey(''))}))`;
  const players = await benchPlayers(
    browser,
    [
      { name: '<channel-player>', url: `${hostOrigin}/bench/player-bench.html?event=${stream.eventId}` },
      { name: 'bare <video>', url: `${hostOrigin}/bench/video.html?src=${src}` },
      { name: 'bare hls.js light', url: `${hostOrigin}/bench/hls.html?src=${src}` },
      { name: '@mux/mux-player', url: `${hostOrigin}/bench/mux.html?src=${src}` },
      {
        name: '<channel-player>, demo channel (preroll first)',
        url: `${hostOrigin}/bench/player-demo.html?event=${demoStream.eventId}`,
      },
      { name: 'bare <video>, the preroll', url: `${hostOrigin}/bench/video.html?src=${ad}` },
      { name: 'bare hls.js light, the preroll', url: `${hostOrigin}/bench/hls.html?src=${ad}` },
      { name: '@mux/mux-player, the preroll', url: `${hostOrigin}/bench/mux.html?src=${ad}` },
      {
        name: '<channel-player>, demo channel, returning visitor',
        url: `${hostOrigin}/bench/player-demo.html?event=${demoStream.eventId}`,
        before: {
          url: `${hostOrigin}/bench/player-demo.html?event=${demoStream.otherEventId}`,
          ready: apiKeyStored,
        },
      },
      {
        name: 'bare <video>, the preroll, returning visitor',
        url: `${hostOrigin}/bench/video.html?src=${ad}`,
        before: again(`${hostOrigin}/bench/video.html?src=${ad}`),
      },
      {
        name: 'bare hls.js light, the preroll, returning visitor',
        url: `${hostOrigin}/bench/hls.html?src=${ad}`,
        before: again(`${hostOrigin}/bench/hls.html?src=${ad}`),
      },
    ],
    runs,
  );
  const [ours, video, bare, mux, withPreroll, adVideo, adBare, adMux, back, backVideo, backBare] = players as [
    PlayerBench,
    PlayerBench,
    PlayerBench,
    PlayerBench,
    PlayerBench,
    PlayerBench,
    PlayerBench,
    PlayerBench,
    PlayerBench,
    PlayerBench,
    PlayerBench,
  ];
  const ms = (p: PlayerBench) => `${p.medianMs.toFixed(0)} ms`;
  const ratio = (p: PlayerBench, to = ours) => `${(to.medianMs / p.medianMs).toFixed(2)}x`;
  const paired = { bench: spread(ours, bare), demo: spread(withPreroll, adBare), returning: spread(back, backBare) };
  const perRound = (s: Spread) =>
    `per round: median ${s.median.toFixed(2)}x, quartiles ${s.low.toFixed(2)}x to ${s.high.toFixed(2)}x`;
  const rows: [string, string, string][] = [
    [`player: first frame from navigation, <channel-player> (median of ${ours.firstFrameMs.length})`, ms(ours), ''],
    ['player: first frame, bare <video> given the stream URL', ms(video), 'the floor'],
    ['player: first frame, bare hls.js light page', ms(bare), ''],
    ['player: first frame, @mux/mux-player', ms(mux), ''],
    ['player: ratio to a bare <video>', ratio(video), 'target <= 2.0x'],
    ['player: ratio to bare hls.js light', ratio(bare), `target <= 1.0x; ${perRound(paired.bench)}`],
    ['player: ratio to Mux Player', ratio(mux), 'target <= 0.5x'],
    ['player, demo channel: first frame (the preroll), <channel-player>', ms(withPreroll), ''],
    ['player, demo channel: first frame, bare <video> given the preroll', ms(adVideo), 'the floor'],
    ['player, demo channel: first frame, bare hls.js light, the preroll', ms(adBare), ''],
    ['player, demo channel: first frame, @mux/mux-player, the preroll', ms(adMux), ''],
    ['player, demo channel: ratio to a bare <video>', ratio(adVideo, withPreroll), 'target <= 2.0x'],
    [
      'player, demo channel: ratio to bare hls.js light',
      ratio(adBare, withPreroll),
      `target <= 1.0x; ${perRound(paired.demo)}`,
    ],
    ['player, demo channel: ratio to Mux Player', ratio(adMux, withPreroll), 'target <= 0.5x'],
    ['player, demo, returning visitor: first frame, <channel-player>', ms(back), 'keys stored'],
    ['player, demo, returning visitor: first frame, bare <video>', ms(backVideo), ''],
    ['player, demo, returning visitor: first frame, bare hls.js light', ms(backBare), ''],
    ['player, demo, returning visitor: ratio to a bare <video>', ratio(backVideo, back), ''],
    ['player, demo, returning visitor: ratio to bare hls.js light', ratio(backBare, back), perRound(paired.returning)],
    ['player: JS before first frame, <channel-player>, gzip', `${kb(ours.jsGzipBytes)} KB`, 'budget 100 KB'],
    ['player: JS before first frame, @mux/mux-player, gzip', `${kb(mux.jsGzipBytes)} KB`, ''],
    ['player: JS before first frame, bare hls.js light, gzip', `${kb(bare.jsGzipBytes)} KB`, ''],
    [
      'player, demo channel: JS before first frame, <channel-player>, gzip',
      `${kb(withPreroll.jsGzipBytes)} KB`,
      'budget 100 KB',
    ],
  ];
  const list = (p: PlayerBench) =>
    p.jsFiles.map((f) => `    ${f.url.replace(/^https?:\/\/[^/]+/, '').padEnd(44)} ${kb(f.gzip_bytes).padStart(7)} KB`);
  const files = [
    '\n  files <channel-player> loads before its first frame, bench channel:',
    ...list(ours),
    '  demo channel (the preroll first):',
    ...list(withPreroll),
  ].join('\n');
  const over = (to: PlayerBench, v: PlayerBench, h: PlayerBench, m: PlayerBench) => ({
    video: to.medianMs / v.medianMs,
    hls: to.medianMs / h.medianMs,
    mux: to.medianMs / m.medianMs,
  });
  const ratios = { bench: over(ours, video, bare, mux), demo: over(withPreroll, adVideo, adBare, adMux) };
  const returning = { video: back.medianMs / backVideo.medianMs, hls: back.medianMs / backBare.medianMs };
  return { players, ratios, paired, returning, rows, files };
}

/** The median and quartiles of a set of ratios. */
export interface Spread {
  median: number;
  low: number;
  high: number;
}

/**
 * Our first frame over a peer's, round by round: the two loads of a round run within one round's time, so a ratio of
 * one round is moved less by the machine's load drifting over a run, which moves both medians.
 */
function spread(ours: PlayerBench, peer: PlayerBench): Spread {
  const ratios = ours.firstFrameMs.map((ms, i) => ms / peer.firstFrameMs[i]!).sort((a, b) => a - b);
  const at = (f: number) => ratios[Math.round((ratios.length - 1) * f)] ?? NaN;
  return { median: at(0.5), low: at(0.25), high: at(0.75) };
}
