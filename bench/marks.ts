/**
 * Waiting for a page's probes without running anything in the page. Playwright's `waitForFunction` (and its first
 * `evaluate` with a function) compiles Playwright's own injected script, some hundreds of KB, into the page under
 * measurement. Traced on the player bench (2026-11-29): a 77 ms task at the page's load event, in the middle of our
 * player's start-up chain (between the api key's answer and the event's request), and a long task in a page that is
 * counting them. Each probe sets a mark on window (`window.__firstFrame`); the small script added here prints the
 * marks on the console once all are set, which Playwright hears over the protocol.
 */
import type { Page } from '@playwright/test';

/** The start of the console line with the marks' values (JSON, in the order asked for). */
const LINE = 'channel-bench:marks ';

/**
 * Watches `names` (window properties the page's probes set to a `performance.now()` time). Call before
 * `page.goto`; `marks` settles with each name's value once every one is set (or rejects after `timeout`).
 */
export async function watchMarks<N extends string>(
  page: Page,
  names: N[],
  timeout = 60_000,
): Promise<{ marks: Promise<Record<N, number>> }> {
  const list = JSON.stringify(names);
  // A string, not a function: tsx's keepNames would wrap inner functions in a __name() helper the page lacks.
  await page.addInitScript(`{
  const names = ${list};
  const look = () => {
    if (names.every((n) => window[n] !== undefined)) console.debug(${JSON.stringify(LINE)} + JSON.stringify(names.map((n) => window[n])));
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}`);
  const line = page.waitForEvent('console', { predicate: (message) => message.text().startsWith(LINE), timeout });
  const marks = line.then((message) => {
    const values = JSON.parse(message.text().slice(LINE.length)) as number[];
    return Object.fromEntries(names.map((name, i) => [name, values[i]])) as Record<N, number>;
  });
  // A page that fails before its marks (goto throws) must not leave a rejection nobody heard.
  marks.catch(() => undefined);
  return { marks };
}
