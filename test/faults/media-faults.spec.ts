// Media faults as a viewer meets them (issue 17 §4): the master playlist, a media playlist or the segments of a
// stream answer 404, 403, 500, never answer (a timeout) or fail CORS, on the live event and on a recording; and a
// stalled live edge, a discontinuity, a stream that never shows a first frame and a failing preroll. Each case
// asserts what the viewer sees (a translated message with Try again, never a spinner or a blank stage forever),
// that the requests to the failing URL stop (hls.js's load policies as src/media/playback.ts configures them, and
// our own reconnect budget on top), and that Try again plays once the fault is lifted.
//
// The page is a host page on another origin (the stream is cross-origin to it, as on a customer's site), so a
// response without Access-Control-Allow-Origin is a real CORS failure. Faults are page routes: each test's own,
// so the shared live event serves the other specs untouched. Long waits (hls.js's load timeouts, the live
// give-up) run on the page's fake clock (page.clock), jumped forward in small steps while the network answers.
import type { Page, Request, Route } from '@playwright/test';
import { expect, test } from '../e2e/fixtures.js';
import { BUNDLE_ORIGIN, demoEventIds, HOST_ORIGIN } from '../e2e/helpers.js';

test.describe.configure({ timeout: 90_000 });

// The browser logs every failed media request; these are the ones this spec provokes.
test.use({ allowConsoleErrors: [/status of (403|404|500)|net::ERR_FAILED|MEDIA_ERR/] });

// src/media/playback.ts, as configured there (a Node spec does not import the browser module):
/** GIVE_UP_MS + STALL_MS: the longest a live stream reconnects before it gives up. */
const LIVE_BUDGET_MS = 30_000 + 2_500;
/** RELOAD_EVERY_MS: a stalled live stream asks hls.js to load again this often. */
const RELOAD_EVERY_MS = 3_000;
/** FIRST_FRAME_MS: the longest the viewer waits for a first frame before the error with Try again. */
const FIRST_FRAME_MS = 30_000;
/** HLS_LOAD_POLICIES: the attempts hls.js makes of one URL (1 + its retries: errors for 5xx, else timeouts). */
const ATTEMPTS: Record<Target, number> = { master: 1 + 1, playlist: 1 + 2, segment: 1 + 3 };
/** The renditions of the reference server's streams (hls.js tries the other one before an error is fatal). */
const RENDITIONS = 2;

type Target = 'master' | 'playlist' | 'segment';
type Fault = 404 | 403 | 500 | 'timeout' | 'cors';

/** Which requests of the main stream each target is (signed media URLs on the API origin). */
const TARGETS: Record<Target, RegExp> = {
  master: /\/media\/s\/[^/]+\/[^/]+\/master\.m3u8$/,
  playlist: /\/media\/s\/[^/]+\/[^/]+\/\d+p\/index\.m3u8$/,
  segment: /\/media\/s\/[^/]+\/[^/]+\/\d+p\/\d+\.ts$/,
};
const FAULTS: Fault[] = [404, 403, 500, 'timeout', 'cors'];

/** A fault on one kind of request, switched off by `lift`; counts the requests it saw. */
interface Injected {
  /** Requests made to the failing URLs (the failing ones and, after `lift`, the working ones). */
  count(): number;
  lift(): void;
}

const pathOf = (url: string) => new URL(url).pathname;

async function inject(page: Page, target: Target, fault: Fault): Promise<Injected> {
  let on = true;
  let count = 0;
  const matches = (url: string) => TARGETS[target].test(pathOf(url));
  page.on('request', (request: Request) => {
    if (matches(request.url())) count++;
  });
  await page.route(
    (url) => matches(url.href),
    async (route: Route) => {
      if (!on) return route.continue();
      if (typeof fault === 'number')
        return route.fulfill({
          status: fault,
          contentType: 'application/json',
          headers: { 'Access-Control-Allow-Origin': '*' },
          body: '{"message":"Injected fault."}',
        });
      // A CORS failure reaches the page as a network error without a status (the XHR's status 0, a fetch's
      // TypeError), which is what an aborted request is too. (An answer fulfilled here without its
      // Access-Control-Allow-Origin header was still let through to the page.)
      if (fault === 'cors') return route.abort('failed');
      // A timeout: the request is left unanswered.
    },
  );
  return {
    count: () => count,
    lift: () => {
      on = false;
    },
  };
}

/** The settings with an empty preroll list: these cases are about the main stream (the preroll has its own case). */
async function noPrerolls(page: Page): Promise<void> {
  await page.route(
    (url) => url.pathname === '/api/settings',
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: Record<string, unknown> };
      body.data.prerolls = [];
      await route.fulfill({ response, json: body });
    },
  );
}

/** Moves the page's fake clock `ms` forward in small jumps, letting the network answer between them. */
async function advance(page: Page, ms: number, step = 500): Promise<void> {
  for (let done = 0; done < ms; done += step) {
    await page.clock.fastForward(step);
    await page.waitForTimeout(40);
  }
}

/** The host page's player for event `id`, started by its Play button. */
async function play(page: Page, id: number, attributes: Record<string, string> = {}) {
  await page.goto(`${HOST_ORIGIN}/media-chrome.html?event=${id}&plain`);
  await page.waitForFunction(() => customElements.get('channel-player') !== undefined);
  const player = page.locator('channel-player');
  await player.evaluate((el, attrs) => {
    for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  }, attributes);
  await player.locator('[part~="play"]').click();
  return player;
}

/** Waits until the main stream plays, its time advancing (after a Retry, from where it is). */
async function expectPlaying(page: Page, timeoutMs = 30_000): Promise<void> {
  const video = page.locator('channel-player video');
  const at = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => (!v.paused && v.readyState >= 2 ? v.currentTime : -1)), {
      timeout: timeoutMs,
    })
    .toBeGreaterThan(at + 1);
}

async function freeRecording(page: Page): Promise<number> {
  const key = (
    (await (await page.request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: 'demo' } })).json()) as {
      data: { api_key: string };
    }
  ).data.api_key;
  const list = (await (
    await page.request.get(`${BUNDLE_ORIGIN}/api/events?stream_status=finished&limit=200&api_key=${key}`)
  ).json()) as { data: { id: number; type: string; has_recording: boolean }[] };
  return list.data.find((e) => e.type === 'free' && e.has_recording)!.id;
}

const TEXT = {
  gaveUp: 'The live stream was lost.',
  error: 'The video could not be played.',
  denied404: 'This stream could not be found.',
  denied403: 'Access to this stream was refused.',
};

const FAST = [
  'live: the master answers 404',
  'live: the segment answers 500',
  'live: the media playlist answers timeout',
  'on demand: the segment answers 403',
  'on demand: the media playlist answers cors',
];

/** What the viewer is told of a fault that stays. */
function expected(live: boolean, target: Target, fault: Fault): string {
  // The master playlist is read first: a refusal or a missing stream is said at once.
  if (target === 'master' && fault === 404) return TEXT.denied404;
  // 403: a signed URL refused (all of them share the grant); fresh and never played, so not renewed.
  if (fault === 403) return TEXT.denied403;
  return live ? TEXT.gaveUp : TEXT.error;
}

for (const live of [true, false]) {
  for (const target of Object.keys(TARGETS) as Target[]) {
    for (const fault of FAULTS) {
      const name = `${live ? 'live' : 'on demand'}: the ${target === 'playlist' ? 'media playlist' : target} answers ${fault}`;
      // The fast share in `npm test`: one case of each fault kind; the rest run in `npm run test:faults`.
      const fast = FAST.includes(name);
      test(name, fast ? {} : { tag: '@full' }, async ({ page, request }) => {
        const ids = await demoEventIds(request);
        const id = live ? ids['free-live']! : await freeRecording(page);
        await page.clock.install();
        await noPrerolls(page);
        const injected = await inject(page, target, fault);
        const player = await play(page, id, { 'prefer-playback': 'mse' });
        const message = player.getByRole('alert');
        // The viewer is told within the bound: hls.js's retries, then (live) the reconnect budget.
        for (let i = 0; i < 120 && !(await message.isVisible()); i++) await advance(page, 1_000);
        await expect(message).toBeVisible();
        const text = await message.innerText();
        expect(text).toContain(expected(live, target, fault));
        await expect(player.locator('[part~="reconnecting"]')).toHaveCount(0);
        // Bounded: one round of hls.js's attempts of each rendition (and our own first read of the master
        // playlist), and for a live stream one more round per reconnect in its budget.
        const rounds = live ? 2 + Math.ceil(LIVE_BUDGET_MS / RELOAD_EVERY_MS) : 1;
        expect(injected.count()).toBeLessThanOrEqual(1 + rounds * RENDITIONS * ATTEMPTS[target]);
        // Nothing more is asked of the failing URL.
        const seen = injected.count();
        await advance(page, 20_000);
        expect(injected.count()).toBe(seen);
        // Lifted, Try again plays.
        injected.lift();
        await message.getByRole('button', { name: 'Try again' }).click();
        await expectPlaying(page);
        await expect(message).toHaveCount(0);
      });
    }
  }
}

/** Serves every media playlist of the main stream through `rewrite` (the real answer's body in, the new one out). */
async function rewritePlaylists(page: Page, rewrite: (body: string) => string): Promise<{ lift(): void }> {
  let on = true;
  await page.route(
    (url) => TARGETS.playlist.test(url.pathname),
    async (route) => {
      const answer = await route.fetch();
      const body = await answer.text();
      await route.fulfill({ response: answer, body: on ? rewrite(body) : body });
    },
  );
  return { lift: () => void (on = false) };
}

const playlistRequests = (page: Page) => {
  let count = 0;
  page.on('request', (r) => void (TARGETS.playlist.test(pathOf(r.url())) && count++));
  return () => count;
};

test('live: a stalled live edge (the playlist stops advancing) reconnects, then gives up with Try again', async ({
  page,
  request,
}) => {
  const ids = await demoEventIds(request);
  await page.clock.install();
  await noPrerolls(page);
  // Each rendition's playlist is frozen at its first answer: no new segment ever appears.
  const frozen = new Map<string, string>();
  let on = true;
  await page.route(
    (url) => TARGETS.playlist.test(url.pathname),
    async (route) => {
      const answer = await route.fetch();
      const rendition = pathOf(route.request().url()).split('/').at(-2)!;
      if (on && !frozen.has(rendition)) frozen.set(rendition, await answer.text());
      await route.fulfill({ response: answer, body: on ? frozen.get(rendition)! : await answer.text() });
    },
  );
  const requests = playlistRequests(page);
  const player = await play(page, ids['free-live']!);
  await expectPlaying(page);
  // The buffer runs out at the frozen edge: "Reconnecting…", then within the budget the message.
  const reconnecting = player.locator('[part~="reconnecting"]');
  await expect(reconnecting).toHaveText('Reconnecting…', { timeout: 30_000 });
  const message = player.getByRole('alert');
  for (let i = 0; i < 60 && !(await message.isVisible()); i++) await advance(page, 1_000);
  await expect(message).toContainText(TEXT.gaveUp);
  await expect(reconnecting).toHaveCount(0);
  // The playlist is no longer reloaded.
  const seen = requests();
  await advance(page, 30_000);
  expect(requests()).toBe(seen);
  on = false;
  await message.getByRole('button', { name: 'Try again' }).click();
  await expectPlaying(page);
  await expect(message).toHaveCount(0);
});

for (const engine of ['mse', 'native'] as const) {
  test(
    `on demand (${engine === 'mse' ? 'hls.js' : 'the browser’s HLS'}): a discontinuity in the playlist, playback continues through it to the end`,
    engine === 'mse' ? {} : { tag: '@full' },
    async ({ page }) => {
      const id = await freeRecording(page);
      await noPrerolls(page);
      // Three segments, a discontinuity, then three from much later in the recording (their timestamps jump 34 s).
      await rewritePlaylists(page, (body) => {
        const lines = body.trimEnd().split('\n');
        const head = lines.filter((l) => l.startsWith('#EXT') && !l.startsWith('#EXTINF') && l !== '#EXT-X-ENDLIST');
        const segments = (from: number) => [from, from + 1, from + 2].flatMap((n) => ['#EXTINF:2.000,', `${n}.ts`]);
        return [...head, ...segments(0), '#EXT-X-DISCONTINUITY', ...segments(20), '#EXT-X-ENDLIST', ''].join('\n');
      });
      const player = await play(page, id, { 'prefer-playback': engine });
      const video = player.locator('video');
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
        .toBeGreaterThan(8);
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.ended), { timeout: 15_000 }).toBe(true);
      expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(12);
      await expect(player.getByRole('alert')).toHaveCount(0);
    },
  );
}

test(
  'live: a stream that never shows a first frame (a playlist with no segment) tells the viewer in a bounded time',
  {
    tag: '@full',
  },
  async ({ page, request }) => {
    const ids = await demoEventIds(request);
    await page.clock.install();
    await noPrerolls(page);
    // A live playlist without a single segment, whatever hls.js reloads.
    const empty = await rewritePlaylists(page, (body) =>
      body
        .split('\n')
        .filter(
          (l) =>
            l.startsWith('#EXT') &&
            !l.startsWith('#EXTINF') &&
            !l.startsWith('#EXT-X-PROGRAM-DATE-TIME') &&
            l !== '#EXT-X-DISCONTINUITY',
        )
        .join('\n'),
    );
    const requests = playlistRequests(page);
    const player = await play(page, ids['free-live']!);
    const message = player.getByRole('alert');
    // hls.js's own verdict on an empty playlist, or at the latest FIRST_FRAME_MS: the viewer is told.
    let waited = 0;
    for (; waited <= FIRST_FRAME_MS + 2_000 && !(await message.isVisible()); waited += 1_000)
      await advance(page, 1_000);
    await expect(message).toContainText(new RegExp(`${TEXT.error}|${TEXT.gaveUp}`.replaceAll('.', '\\.')));
    await expect(player.locator('[part~="reconnecting"]')).toHaveCount(0);
    const seen = requests();
    await advance(page, 20_000);
    expect(requests()).toBe(seen);
    empty.lift();
    await message.getByRole('button', { name: 'Try again' }).click();
    await expectPlaying(page);
  },
);

test(
  'on demand: segments that decode to nothing tell the viewer in a bounded time',
  { tag: '@full' },
  async ({ page }) => {
    const id = await freeRecording(page);
    await page.clock.install();
    await noPrerolls(page);
    let on = true;
    let count = 0;
    await page.route(
      (url) => TARGETS.segment.test(url.pathname),
      (route) => {
        count++;
        // 200 OK with bytes that are no MPEG-TS: nothing to decode.
        if (on) return route.fulfill({ status: 200, contentType: 'video/mp2t', body: Buffer.alloc(188 * 50, 0x47) });
        return route.continue();
      },
    );
    const player = await play(page, id, { 'prefer-playback': 'mse' });
    const message = player.getByRole('alert');
    for (let i = 0; i < 40 && !(await message.isVisible()); i++) await advance(page, 1_000);
    await expect(message).toContainText(TEXT.error);
    const seen = count;
    await advance(page, 20_000);
    expect(count).toBe(seen);
    on = false;
    await message.getByRole('button', { name: 'Try again' }).click();
    await expectPlaying(page);
  },
);

for (const fault of [500, 'timeout'] as const) {
  test(
    `a preroll that ${fault === 500 ? 'fails (500)' : 'never answers'}: the main video plays, no message`,
    fault === 500 ? {} : { tag: '@full' },
    async ({ page }) => {
      const id = await freeRecording(page);
      let count = 0;
      await page.route(
        (url) => url.pathname.startsWith('/media/prerolls/'),
        (route) => {
          count++;
          if (fault === 500)
            return route.fulfill({ status: 500, headers: { 'Access-Control-Allow-Origin': '*' }, body: '' });
        },
      );
      const started = Date.now();
      const player = await play(page, id);
      // The preroll was asked for, and is given up within its bound (PREROLL_TIMEOUT_MS, 8 s, for one that hangs).
      await expect.poll(() => count).toBeGreaterThan(0);
      await expectPlaying(page, 20_000);
      expect(Date.now() - started).toBeLessThan(20_000);
      await expect(player.locator('video')).toHaveAttribute('src', /\/media\/s\/|^blob:/);
      await expect(player.locator('[part~="ad-label"]')).toHaveCount(0);
      await expect(player.getByRole('alert')).toHaveCount(0);
      const seen = count;
      await page.waitForTimeout(3_000);
      expect(count).toBe(seen);
    },
  );
}

test('in French at phone width: the message and Réessayer, inside the player', { tag: '@full' }, async ({ page }) => {
  const id = await freeRecording(page);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.clock.install();
  await noPrerolls(page);
  const injected = await inject(page, 'segment', 500);
  const player = await play(page, id, { 'prefer-playback': 'mse', lang: 'fr' });
  const message = player.getByRole('alert');
  for (let i = 0; i < 60 && !(await message.isVisible()); i++) await advance(page, 1_000);
  await expect(message.locator('p')).toHaveText("La vidéo n'a pas pu être lue.");
  const retry = message.getByRole('button', { name: 'Réessayer' });
  // The message fits the phone's width, its button in reach.
  const box = (await message.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  const button = (await retry.boundingBox())!;
  expect(button.x + button.width).toBeLessThanOrEqual(box.x + box.width);
  injected.lift();
  await retry.click();
  await expectPlaying(page);
});
