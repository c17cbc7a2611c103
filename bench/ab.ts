/**
 * `npm run bench:ab`: two builds of the bundle side by side on the player page, to keep or drop a first-frame idea
 * by measurement. Build each variant and copy its dist/ folder away, then:
 *
 *   DIST_A=/tmp/dist-before DIST_B=/tmp/dist-after npm run bench:ab
 *
 * Each build gets its own reference server (in-process, dev mode, a fresh database, the same seed); rounds load
 * `<channel-player>` on the bench channel from each server's CMS host (another origin, the hostile theme) in a
 * fresh browser context, alternating which goes first, with the same settling pause as `npm run bench`.
 * AB_ROUNDS (default 21) rounds after one uncounted warm-up round; the median first frame of each and every sample
 * are printed, and the median time to the player's controls (the bar under a playing video, or the "Ad" label of
 * a preroll). AB_PAGE=player-demo compares on the demo channel instead (a new visitor's preroll first).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
// @ts-expect-error: a plain .mjs helper without type declarations
import { launchOptions } from '../scripts/chromium.mjs';
import { startServer } from '../server/app/server.js';
import { watchMarks } from './marks.js';
import { FIRST_FRAME_PROBE, shadowProbe } from './player.js';

const dists = [process.env.DIST_A, process.env.DIST_B];
if (!dists[0] || !dists[1]) {
  console.error('bench:ab needs DIST_A and DIST_B: two built dist/ folders to compare.');
  process.exit(2);
}
const ROUNDS = Number(process.env.AB_ROUNDS ?? 21);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) {
  console.error('bench:ab: AB_ROUNDS must be a whole number of rounds');
  process.exit(2);
}
const SETTLE_MS = 500;
const PAGE = process.env.AB_PAGE ?? 'player-bench';
/** When the player's controls first show: the bar under the video, or a preroll's label. */
const CONTROLS_PROBE = shadowProbe('__controls', 'channel-player', '[part~="media-bar"], [part~="ad-label"]');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

for (const dist of dists) {
  if (!existsSync(join(dist!, 'channel-elements.js'))) {
    console.error(`bench:ab: ${dist} is not a built dist/ folder (no channel-elements.js in it)`);
    process.exit(2);
  }
}
const dataDirs = dists.map(() => mkdtempSync(join(tmpdir(), 'channel-ab-')));
const servers = await Promise.all(
  dists.map((distDir, i) =>
    startServer({
      mode: 'dev',
      port: 0,
      dataDir: dataDirs[i]!,
      distDir,
      rateLimitMax: 1_000_000,
      apiKeyRateMax: 1_000_000,
      databaseTemplates: join(import.meta.dirname, '..', '.cache', 'db-templates'),
    }),
  ),
);
const browser = await chromium.launch(launchOptions() as Parameters<typeof chromium.launch>[0]);
try {
  const eventId = await benchEvent(servers[0]!.origin, PAGE === 'player-demo' ? 'demo' : 'bench');
  const samples: number[][] = [[], []];
  const controls: number[][] = [[], []];
  // Round -1 warms both servers and the browser up (the very first load is always far slower) and is not counted.
  for (let round = -1; round < ROUNDS; round++) {
    for (const side of round % 2 ? [1, 0] : [0, 1]) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript(FIRST_FRAME_PROBE);
      await page.addInitScript(CONTROLS_PROBE);
      const { marks } = await watchMarks(page, ['__firstFrame', '__controls']);
      await page.goto(`${servers[side]!.hostOrigin}/bench/${PAGE}.html?event=${eventId}`);
      const seen = await marks;
      const ms = Math.round(seen.__firstFrame);
      const shown = Math.round(seen.__controls);
      if (round >= 0) samples[side]!.push(ms);
      if (round >= 0) controls[side]!.push(shown);
      await context.close();
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    }
  }
  const [a, b] = samples as [number[], number[]];
  console.log(`A ${dists[0]}: median ${median(a)} ms (${a.join(' ')})`);
  console.log(`B ${dists[1]}: median ${median(b)} ms (${b.join(' ')})`);
  console.log(`B / A = ${(median(b) / median(a)).toFixed(2)}`);
  const [ca, cb] = controls as [number[], number[]];
  console.log(
    `controls: A median ${median(ca)} ms, B median ${median(cb)} ms (B / A = ${(median(cb) / median(ca)).toFixed(2)})`,
  );
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.stop()));
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}

/** A free finished event of a channel with a recording (the seed is the same on both servers). */
async function benchEvent(origin: string, channelKey: string): Promise<number> {
  const key = (await (
    await fetch(`${origin}/api/get_api_key`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel_key: channelKey }),
    })
  ).json()) as { data: { api_key: string } };
  const list = (await (
    await fetch(`${origin}/api/events?stream_status=finished&limit=100&api_key=${key.data.api_key}`)
  ).json()) as { data: { id: number; type: string; media?: { type: string }[] }[] };
  const event = list.data.find((e) => e.type === 'free' && e.media?.some((m) => m.type === 'vod'));
  if (!event) throw new Error(`bench:ab: the ${channelKey} channel has no free finished event with a recording`);
  return event.id;
}
