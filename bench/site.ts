/**
 * The site benchmark (part of `npm run bench`): `<channel-app>` as a channel runs it, on the CMS host's /site page
 * (the demo channel, a fresh browser context each load):
 * - the gzip JavaScript loaded before the home page's first content (a slide or an event card);
 * - the time from navigation to that first slide or card (median of several loads);
 * - a route change with cached data: from the click on a link to the new page's content, for pages visited before
 *   in the same visit (their chunks and answers are in), median over several changes.
 */
import { gzipSync } from 'node:zlib';
import type { Browser } from '@playwright/test';
import { watchMarks } from './marks.js';
import { shadowProbe } from './player.js';

/** The site's figures. */
export interface SiteBench {
  /** Our bundle's JavaScript (the loader and its chunks) before the home page's first content. */
  homeJsGzipBytes: number;
  /** What else the demo page loads meanwhile: the dev stand-ins of Stripe and the tag manager, not ours. */
  otherJsGzipBytes: number;
  homeJsFiles: { url: string; gzip_bytes: number }[];
  firstContentMs: number[];
  firstContentMedianMs: number;
  routeChangeMs: number[];
  routeChangeMedianMs: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

/** Notes, inside the page, when the site first shows a slide or an event card. */
const FIRST_CONTENT_PROBE = shadowProbe('__firstContent', 'channel-app', '[part~="slide"], [part~="event"]');

/** Runs the site benchmark against the server's CMS host. */
export async function benchSite(browser: Browser, hostOrigin: string, runs: number): Promise<SiteBench> {
  const home = `${hostOrigin}/site/`;

  // JavaScript before the first content (a fresh context: nothing cached).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const files: { url: string; gzip_bytes: number }[] = [];
  const pending: Promise<void>[] = [];
  let counting = true;
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!counting || !/javascript/.test(type)) return;
    pending.push(
      response
        .body()
        .then((body) => void files.push({ url: response.url(), gzip_bytes: gzipSync(body, { level: 9 }).length }))
        .catch(() => undefined),
    );
  });
  await page.addInitScript(FIRST_CONTENT_PROBE);
  const first = await watchMarks(page, ['__firstContent']);
  await page.goto(home);
  await first.marks;
  counting = false;
  await Promise.all(pending);
  await context.close();

  // Navigation to first slide or card.
  const firstContentMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    await p.addInitScript(FIRST_CONTENT_PROBE);
    const { marks } = await watchMarks(p, ['__firstContent']);
    await p.goto(home);
    firstContentMs.push((await marks).__firstContent);
    await ctx.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  // Route changes with cached data: visit each page once, then time going back to each.
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p = await ctx.newPage();
  await p.goto(home);
  await p.locator('channel-app [part~="slide"], channel-app [part~="event"]').first().waitFor({ timeout: 60_000 });
  const targets = ['/faq', '/live', '/about', '/schedule', '/contacts', '/'];
  // A string, not a function (tsx's keepNames): a link inside the site's shadow root, clicked as a viewer would,
  // timed until a new page heading shows with no loading panel left in the page.
  const visit = async (path: string): Promise<number> =>
    (await p.evaluate(`(async () => {
      const root = document.querySelector('channel-app').shadowRoot;
      const link = document.createElement('a');
      link.href = ${JSON.stringify(`/site${path === '/' ? '/' : path}`)};
      root.querySelector('main').appendChild(link);
      const before = root.querySelector('h1[part~="page-title"]');
      const started = performance.now();
      link.click();
      link.remove();
      return await new Promise((resolve) => {
        const check = () => {
          const heading = root.querySelector('h1[part~="page-title"]');
          const loading = root.querySelector('main [part~="loading"], main .skeleton');
          if (heading && heading !== before && !loading) resolve(performance.now() - started);
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      });
    })()`)) as number;
  for (const path of targets) await visit(path);
  const routeChangeMs: number[] = [];
  for (let round = 0; round < Math.max(1, Math.ceil(runs / 2)); round++)
    for (const path of targets) routeChangeMs.push(await visit(path));
  await ctx.close();

  const ours = (f: { url: string }) => /\/(chunks\/[^/]+|channel-elements)\.js$/.test(new URL(f.url).pathname);
  return {
    homeJsGzipBytes: files.filter(ours).reduce((sum, f) => sum + f.gzip_bytes, 0),
    otherJsGzipBytes: files.filter((f) => !ours(f)).reduce((sum, f) => sum + f.gzip_bytes, 0),
    homeJsFiles: files.sort((a, b) => b.gzip_bytes - a.gzip_bytes),
    firstContentMs,
    firstContentMedianMs: median(firstContentMs),
    routeChangeMs,
    routeChangeMedianMs: median(routeChangeMs),
  };
}
