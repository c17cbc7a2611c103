/**
 * The analytics benchmark (part of `npm run bench`): what the analytics layer costs a player page. The same
 * `<channel-player>` page on the bench channel, loaded alternately with analytics on (player-analytics.html names
 * the analytics URL, so the datalake session, page view, tag manager and API request tracker all run) and off
 * (player-bench.html: a localhost page naming none, which sends nothing). For each load, from the page's own
 * timeline: the first frame, the analytics requests started before it (the target is none), the long tasks before
 * it and in the 4 s after it (when analytics run), and the analytics requests of those 4 s.
 */
import type { Browser } from '@playwright/test';
import { watchMarks } from './marks.js';
import { FIRST_FRAME_PROBE } from './player.js';

/** One page's figures. */
export interface AnalyticsSide {
  page: string;
  firstFrameMs: number[];
  analyticsBeforeFirstFrame: number[];
  analyticsAfterFirstFrame: number[];
  longTasksBeforeFirstFrame: number[];
  longTasksAfterFirstFrame: number[];
  longTaskMsAfterFirstFrame: number[];
}

/** An analytics request: the datalake, the tag manager (its script and its collector), Mux's beacons. */
const ANALYTICS = /\/datalake\/|gtag|litix|mux\.com/;

const LONG_TASKS = `
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) {}
`;

/** How long after the first frame analytics are watched. */
const AFTER_MS = 4_000;

async function once(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`page error (${url}):`, e.message));
  await page.addInitScript(FIRST_FRAME_PROBE);
  await page.addInitScript(LONG_TASKS);
  const { marks } = await watchMarks(page, ['__firstFrame']);
  await page.goto(url);
  await marks;
  await page.waitForTimeout(AFTER_MS);
  const seen = (await page.evaluate(`({
    first: window.__firstFrame,
    tasks: window.__longTasks,
    resources: performance.getEntriesByType('resource').map((e) => [e.name, e.startTime]),
  })`)) as { first: number; tasks: [number, number][]; resources: [string, number][] };
  await context.close();
  const analytics = seen.resources.filter(([name]) => ANALYTICS.test(name));
  const after = (at: number) => at >= seen.first && at <= seen.first + AFTER_MS;
  return {
    firstFrameMs: seen.first,
    analyticsBefore: analytics.filter(([, at]) => at < seen.first).length,
    analyticsAfter: analytics.filter(([, at]) => after(at)).length,
    tasksBefore: seen.tasks.filter(([at]) => at < seen.first).length,
    tasksAfter: seen.tasks.filter(([at]) => after(at)).length,
    taskMsAfter: seen.tasks.filter(([at]) => after(at)).reduce((sum, [, d]) => sum + d, 0),
  };
}

/** Loads both pages `runs` times each, alternating. */
export async function benchAnalytics(browser: Browser, origin: string, eventId: number, runs: number) {
  const pages = [
    { page: 'analytics on', url: `${origin}/bench/player-analytics.html?event=${eventId}` },
    { page: 'analytics off', url: `${origin}/bench/player-bench.html?event=${eventId}` },
  ];
  const sides: AnalyticsSide[] = pages.map((p) => ({
    page: p.page,
    firstFrameMs: [],
    analyticsBeforeFirstFrame: [],
    analyticsAfterFirstFrame: [],
    longTasksBeforeFirstFrame: [],
    longTasksAfterFirstFrame: [],
    longTaskMsAfterFirstFrame: [],
  }));
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < pages.length; k++) {
      const index = (i + k) % pages.length;
      const run = await once(browser, pages[index]!.url);
      const side = sides[index]!;
      side.firstFrameMs.push(run.firstFrameMs);
      side.analyticsBeforeFirstFrame.push(run.analyticsBefore);
      side.analyticsAfterFirstFrame.push(run.analyticsAfter);
      side.longTasksBeforeFirstFrame.push(run.tasksBefore);
      side.longTasksAfterFirstFrame.push(run.tasksAfter);
      side.longTaskMsAfterFirstFrame.push(Math.round(run.taskMsAfter));
    }
  }
  return { on: sides[0]!, off: sides[1]! };
}
