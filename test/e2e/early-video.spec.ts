// The early video (src/loader/early-video.ts) as a host page meets it: the benchmark's page on the CMS host (another
// origin, its hostile theme, the async script tag), an autoplaying muted <channel-player> of the `bench` channel
// (no prerolls). The loader plays the stream before the player's code is even asked for; the player's stage then
// adopts that very <video>, playing. Where the player would show anything else, nothing starts early.
import type { APIRequestContext, Page, Route } from '@playwright/test';
import { expect, test } from './fixtures';
import { BUNDLE_ORIGIN, builtBundle, chunkTables, finishedEvents, HOST_ORIGIN } from './helpers';

test.describe.configure({ timeout: 60_000 });

/** The bench channel's finished events. */
const benchRecordings = (request: APIRequestContext) => finishedEvents(request, 'bench', 100);

/**
 * A free recording of the demo channel that no other spec plays: player.spec.ts counts the media requests of the first
 * seven (a stream played here would show there), clips.spec.ts takes the last one.
 */
async function demoRecording(request: APIRequestContext): Promise<{ id: number }> {
  const free = (await finishedEvents(request)).filter((e) => e.type === 'free' && e.has_recording);
  return free.at(-2)!;
}

/** Every request the page makes, in order, as `media`, `chunk` (a tag's or shared chunk) or `api`. */
function requestLog(page: Page): { kind: string; url: string }[] {
  const log: { kind: string; url: string }[] = [];
  page.on('request', (r) => {
    const url = r.url();
    const kind = /\.m3u8(\?|$)/.test(url)
      ? 'media'
      : /\/chunks\/[^/]+\.js/.test(url)
        ? 'chunk'
        : /\/api\//.test(url)
          ? 'api'
          : 'other';
    log.push({ kind, url });
  });
  return log;
}

const first = (log: { kind: string; url: string }[], test: (e: { kind: string; url: string }) => boolean) =>
  log.findIndex(test);
const playerChunk = (e: { kind: string; url: string }) => /\/chunks\/channel-player-[^/]+\.js/.test(e.url);

/**
 * Opens the page until the loader starts its early video. It starts only when the start-up answers come within its
 * window (0.8 s), which one stall of a busy test machine can make them miss; the player then starts as usual (with
 * its code, held here, which the tests need to hold): the page is opened again, three times at most. `log` starts
 * afresh with each opening.
 */
async function openWithEarlyVideo(page: Page, url: string, log?: { kind: string; url: string }[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (log) log.length = 0;
    await page.goto(url);
    try {
      await page.waitForFunction(
        () => document.querySelector('channel-player')?.shadowRoot?.querySelector('video'),
        undefined,
        { timeout: 10_000 },
      );
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Lets a held request go on; one of a page opened again meanwhile is gone, which is fine. */
const proceed = (route: Route) => route.continue().catch(() => undefined);

/** Holds every request for the player's own chunk until the returned function is called. */
async function holdPlayerCode(page: Page): Promise<() => void> {
  let release!: () => void;
  const ready = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/chunks\/channel-player-[^/]+\.js/, async (route) => {
    await ready;
    await proceed(route);
  });
  return release;
}

/**
 * Opens the bench page of a free recording of the bench channel, with the player's code held until the returned
 * `release` is called, until the loader has started its early video.
 */
async function openHeld(page: Page, request: APIRequestContext, query = ''): Promise<() => void> {
  const event = (await benchRecordings(request)).find((e) => e.type === 'free' && e.has_recording)!;
  const release = await holdPlayerCode(page);
  await openWithEarlyVideo(page, `${HOST_ORIGIN}/bench/player-bench.html?event=${event.id}${query}`);
  return release;
}

/**
 * Notes how many bars the player shows in each frame the browser paints from now on (bars inside the player's shadow
 * root, the early one or the player's own); the returned function stops and answers the distinct counts seen, once
 * the player's own bar has shown (a marked early bar is not the player's).
 */
async function countBars(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const root = document.querySelector('channel-player')!.shadowRoot!;
    const w = window as unknown as { barCounts: Set<number>; ownBar: boolean };
    w.barCounts = new Set();
    for (const early of root.querySelectorAll('[part~="media-bar"]')) (early as HTMLElement).dataset.early = '';
    const look = () => {
      const all = [...root.querySelectorAll<HTMLElement>('[part~="media-bar"]')];
      w.barCounts.add(all.length);
      if (all.some((b) => b.dataset.early === undefined)) w.ownBar = true;
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  return async () => {
    await page.waitForFunction(() => (window as unknown as { ownBar?: boolean }).ownBar === true);
    return page.evaluate(() => [...(window as unknown as { barCounts: Set<number> }).barCounts]);
  };
}

/** Marks the loader's video the moment it appears, and notes whether its source is ever reset or it pauses. */
async function markEarlyVideo(page: Page): Promise<{ width: number; height: number }> {
  await page.waitForFunction(() => document.querySelector('channel-player')?.shadowRoot?.querySelector('video'));
  return page.evaluate(() => {
    const player = document.querySelector('channel-player')!;
    const video = player.shadowRoot!.querySelector('video')! as HTMLVideoElement & Record<string, unknown>;
    video.__early = true;
    video.addEventListener('emptied', () => (video.__emptied = true));
    video.addEventListener('pause', () => (video.__paused = true));
    const box = video.getBoundingClientRect();
    return { width: box.width, height: box.height };
  });
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`an autoplaying player shows its stream before its code arrives, and keeps that video (${viewport.name})`, async ({
    page,
    request,
    makeAxeBuilder,
  }) => {
    await page.setViewportSize(viewport);
    const event = (await benchRecordings(request)).find((e) => e.type === 'free' && e.has_recording)!;
    const log = requestLog(page);
    // The player's code is held until the early video is marked and listened to, so it cannot arrive first.
    const release = await holdPlayerCode(page);
    await openWithEarlyVideo(page, `${HOST_ORIGIN}/bench/player-bench.html?event=${event.id}`, log);
    const early = await markEarlyVideo(page);
    const player = page.locator('channel-player');
    // With its first frame, the stream has the player's controls, before the player's code: the browser's, and the
    // bar under the video, which passes the audit. The viewer's speed carries over to the player's own bar below.
    const bar = player.locator('[part~="media-bar"]');
    await expect(bar).toBeVisible({ timeout: 20_000 });
    await expect(bar).toHaveAttribute('aria-label', 'Playback');
    await expect(bar.locator('[part~="speed"]')).toContainText('Speed');
    await expect(bar.locator('select')).toHaveValue('1');
    await expect(bar.locator('[part~="button"][part~="pip"]')).toHaveText('Picture-in-picture');
    expect(await player.locator('video').evaluate((v: HTMLVideoElement) => v.controls)).toBe(true);
    expect((await makeAxeBuilder().analyze()).violations).toEqual([]);
    await bar.locator('select').selectOption('1.5');
    const bars = await countBars(page);
    // A host page listening before the player's code came hears what its video did meanwhile.
    await page.evaluate(() => {
      const player = document.querySelector('channel-player')! as Element & { heard?: string[] };
      player.heard = [];
      for (const name of ['loadedmetadata', 'durationchange', 'loadeddata', 'play', 'playing'])
        player.addEventListener(name, () => player.heard!.push(name));
    });
    release();

    // The element's code was not asked for before the stream.
    await page.waitForFunction(() => customElements.get('channel-player'));
    // The early video's code came verified, as every chunk does (preloaded with the build's hash), in the player's
    // file of the table: one file, and never the module on its own.
    const preloaded = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')]
        .filter((l) => /\/chunks\/(integrity|early-video)-[\w-]{8}\.js$/.test(l.href))
        .map((l) => [new URL(l.href).pathname.slice(1), l.integrity]),
    );
    const { fileOf, rest } = chunkTables();
    expect(preloaded.map(([file]) => file).filter((file) => file !== `chunks/${rest}`)).toEqual([
      `chunks/${fileOf('channel-player')}`,
    ]);
    for (const [file, integrity] of preloaded) expect(integrity, file).toBe(builtBundle().chunks[file!]);
    const stream = first(log, (e) => e.kind === 'media');
    expect(stream).toBeGreaterThanOrEqual(0);
    expect(first(log, playerChunk)).toBeGreaterThan(stream);

    // The stage adopted the loader's video: the same element, playing on, its source never reset, with the
    // browser's controls and the bar under it (the player's own now, at the viewer's speed), named by the event.
    await expect(player.locator('[part~="stage"]')).toBeVisible();
    await expect(bar).toHaveCount(1);
    await expect(bar).toBeVisible();
    await expect(bar.locator('select')).toHaveValue('1.5');
    expect(await bars(), 'one bar in every frame painted from the early one to the player’s').toEqual([1]);
    await expect(player.locator('video')).toHaveCount(1);
    const video = player.locator('[part~="stage"] video');
    const state = await video.evaluate((v: HTMLVideoElement & Record<string, unknown>) => ({
      early: v.__early === true,
      emptied: v.__emptied === true,
      paused: v.__paused === true,
      controls: v.controls,
      label: v.getAttribute('aria-label'),
    }));
    expect(state).toEqual({
      early: true,
      emptied: false,
      paused: false,
      controls: true,
      label: expect.stringMatching(/\S/) as unknown as string,
    });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(1);

    // No jump: the stage has the size the early video had.
    const stage = await player.locator('[part~="stage"]').boundingBox();
    expect(Math.abs(stage!.width - early.width)).toBeLessThan(2);
    expect(Math.abs(stage!.height - early.height)).toBeLessThan(2);

    expect(await player.evaluate((el: Element & { heard?: string[] }) => el.heard)).toEqual(
      expect.arrayContaining(['loadedmetadata', 'durationchange', 'loadeddata', 'play', 'playing']),
    );

    // The host page drives it through the media API, and hears its events.
    const heard = await player.evaluate(async (el: HTMLElement & { pause(): void; paused: boolean }) => {
      const paused = new Promise<string>((resolve) => el.addEventListener('pause', (e) => resolve(e.type)));
      el.pause();
      return { event: await paused, paused: el.paused };
    });
    expect(heard).toEqual({ event: 'pause', paused: true });

    // One early set of start-up requests: the client took every answer the loader asked for.
    const api = log.filter((e) => e.kind === 'api').map((e) => new URL(e.url).pathname);
    expect(api.filter((p) => p.endsWith(`/events/${event.id}`))).toHaveLength(1);
    expect(api.filter((p) => p.endsWith('/geo'))).toHaveLength(1);
    expect((await makeAxeBuilder().analyze()).violations).toEqual([]);
  });
}

test('the early bar speaks the player’s language, and the player’s own bar takes over in it (French)', async ({
  page,
  request,
}) => {
  const release = await openHeld(page, request, '&lang=fr');
  const player = page.locator('channel-player');
  const bar = player.locator('[part~="media-bar"]');
  await expect(bar).toBeVisible({ timeout: 20_000 });
  await expect(bar).toHaveAttribute('aria-label', 'Lecture');
  await expect(bar.locator('[part~="speed"]')).toContainText('Vitesse');
  await expect(bar.locator('select option:checked')).toHaveText('Normale');
  await expect(bar.locator('[part~="button"][part~="pip"]')).toHaveText('Image dans l’image');
  const bars = await countBars(page);
  release();
  expect(await bars()).toEqual([1]);
  await expect(bar).toHaveCount(1);
  await expect(bar).toHaveAttribute('aria-label', 'Lecture');
  await expect(bar.locator('select option:checked')).toHaveText('Normale');
});

test('what the viewer did with the early video’s controls stays when the player takes over', async ({
  page,
  request,
}) => {
  const release = await openHeld(page, request);
  await markEarlyVideo(page);
  const player = page.locator('channel-player');
  const bar = player.locator('[part~="media-bar"]');
  await expect(bar).toBeVisible({ timeout: 20_000 });
  // The sound on and a pause (as with the browser's controls), and the keyboard on the bar's picture-in-picture.
  await player.locator('video').evaluate((v: HTMLVideoElement) => {
    v.muted = false;
    v.pause();
  });
  await bar.locator('[part~="pip"]').focus();
  const bars = await countBars(page);
  release();
  expect(await bars()).toEqual([1]);
  const video = player.locator('[part~="stage"] video');
  await expect(video).toHaveCount(1);
  // Still paused, with sound, the player saying so (its Play in the browser's controls), after a moment to undo it.
  await page.waitForTimeout(500);
  expect(
    await video.evaluate((v: HTMLVideoElement & Record<string, unknown>) => ({
      early: v.__early === true,
      muted: v.muted,
      paused: v.paused,
      controls: v.controls,
    })),
  ).toEqual({ early: true, muted: false, paused: true, controls: true });
  // The focus moved to the same control of the player's own bar.
  const focused = await page.evaluate(() => {
    const active = document.querySelector('channel-player')!.shadowRoot!.activeElement as HTMLElement | null;
    return { part: active?.getAttribute('part'), early: active?.closest('[data-early]') !== null };
  });
  expect(focused).toEqual({ part: 'button pip', early: false });
});

test('a full screen entered on the early video stays when the player takes over', async ({ page, request }) => {
  const release = await openHeld(page, request);
  const player = page.locator('channel-player');
  await expect(player.locator('[part~="media-bar"]')).toBeVisible({ timeout: 20_000 });
  // Full screen, asked for with a user's gesture (as the browser's button does).
  const cdp = await page.context().newCDPSession(page);
  const full = await cdp.send('Runtime.evaluate', {
    expression:
      "document.querySelector('channel-player').shadowRoot.querySelector('video').requestFullscreen().then(() => 'full')",
    awaitPromise: true,
    userGesture: true,
  });
  expect(full.result.value).toBe('full');
  release();
  await expect(player.locator('[part~="stage"] video')).toHaveCount(1);
  // The stage moved the video keeping its state (Chromium's moveBefore): still in full screen, playing.
  expect(
    await page.evaluate(() => {
      const root = document.querySelector('channel-player')!.shadowRoot!;
      const video = root.querySelector<HTMLVideoElement>('[part~="stage"] video')!;
      return { full: root.fullscreenElement === video, paused: video.paused };
    }),
  ).toEqual({ full: true, paused: false });
});

test('nothing starts early where the player shows something else: a paywall', async ({ page, request }) => {
  const paid = (await benchRecordings(request)).find((e) => e.type === 'paid')!;
  const log = requestLog(page);
  await page.goto(`${HOST_ORIGIN}/bench/player-bench.html?event=${paid.id}`);
  const player = page.locator('channel-player');
  await expect(player.locator('[part~="paywall"]')).toBeVisible();
  expect(log.filter((e) => e.kind === 'media')).toHaveLength(0);
  await expect(player.locator('video')).toHaveCount(0);
});

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`a preroll first (the demo channel): the loader plays the one the player's rules choose, the player adopts it, counts it and goes on to the event (${viewport.name})`, async ({
    page,
    request,
    makeAxeBuilder,
  }) => {
    await page.setViewportSize(viewport);
    const event = await demoRecording(request);
    const log = requestLog(page);
    const release = await holdPlayerCode(page);
    await openWithEarlyVideo(page, `${HOST_ORIGIN}/bench/player-demo.html?event=${event.id}`, log);
    await markEarlyVideo(page);
    // The early video plays an advert of the channel's list, not the event's stream.
    const adUrl = await page.evaluate(() =>
      document.querySelector('channel-player')!.shadowRoot!.querySelector('video')!.getAttribute('src')!,
    );
    const prerolls = (await (await request.get(`${BUNDLE_ORIGIN}/api/settings?channel_key=demo`)).json()) as {
      data: { prerolls: { id: number; url: string }[] };
    };
    const chosen = prerolls.data.prerolls.find((p) => p.url === adUrl);
    expect(chosen, `${adUrl} is one of the channel's prerolls`).toBeTruthy();
    // Labelled as the player labels it, before the player's code has come.
    const early = page.locator('channel-player [part~="ad-label"]');
    await expect(early).toBeVisible();
    await expect(early).toHaveText('Ad');
    await expect(early).toHaveAttribute('aria-label', 'Advertisement before the video');
    // An advert has no bar (the player's shows none during one).
    await expect(page.locator('channel-player [part~="media-bar"]')).toHaveCount(0);
    expect(await page.evaluate(() => customElements.get('channel-player'))).toBeUndefined();
    release();

    // The player came after the advert's stream, and adopted that very video as its preroll: the "Ad" label, the
    // video never reset, and no second preroll (the advert's playlist asked for once).
    await page.waitForFunction(() => customElements.get('channel-player'));
    expect(first(log, playerChunk)).toBeGreaterThan(first(log, (e) => e.kind === 'media'));
    const player = page.locator('channel-player');
    // The player's own label in place of the loader's: one label.
    await expect(player.locator('[part~="stage"] [part~="ad-label"]')).toBeVisible();
    await expect(player.locator('[part~="ad-label"]')).toHaveCount(1);
    const video = player.locator('[part~="stage"] video');
    expect(
      await video.evaluate((v: HTMLVideoElement & Record<string, unknown>) => ({
        early: v.__early === true,
        emptied: v.__emptied === true,
        src: v.getAttribute('src'),
      })),
    ).toEqual({ early: true, emptied: false, src: adUrl });
    // Counted as seen: its suppression is stored for this visitor and event.
    const stored = await page.evaluate(
      ([id, preroll]) =>
        Object.keys(localStorage).filter((k) => k.endsWith(`.${id}.${preroll}`) && k.includes('preroll.visitor-')),
      [event.id, chosen!.id] as const,
    );
    expect(stored).toHaveLength(1);
    expect((await makeAxeBuilder().analyze()).violations).toEqual([]);

    // Then the event's stream, in the same video: the bar under it.
    await expect(player.locator('[part~="media-bar"]')).toBeVisible({ timeout: 30_000 });
    await expect(player.locator('[part~="ad-label"]')).toHaveCount(0);
    const adRequests = log.filter((e) => e.url.split('?')[0] === adUrl.split('?')[0]);
    expect(adRequests).toHaveLength(1);
    const api = log.filter((e) => e.kind === 'api').map((e) => new URL(e.url).pathname);
    // The list came with the settings, read once for the loader and the player.
    expect(api.filter((p) => p.endsWith('/prerolls'))).toHaveLength(0);
    expect(api.filter((p) => p.endsWith('/settings'))).toHaveLength(1);
  });
}

test('inside the suppression window the event’s own stream starts early (the demo channel)', async ({
  page,
  request,
}) => {
  const event = await demoRecording(request);
  const url = `${HOST_ORIGIN}/bench/player-demo.html?event=${event.id}`;
  // A first view: its preroll plays and is counted (the player's own label, not the loader's).
  await page.goto(url);
  const player = page.locator('channel-player');
  await expect(player.locator('[part~="stage"] [part~="ad-label"]')).toBeVisible({ timeout: 20_000 });
  // Every preroll of the list suppressed for this visitor and event, as seen ones are.
  const prerolls = (await (await request.get(`${BUNDLE_ORIGIN}/api/settings?channel_key=demo`)).json()) as {
    data: { prerolls: { id: number }[] };
  };
  await page.evaluate(
    ([id, ids]) => {
      const visitor = (JSON.parse(localStorage.getItem('rudy_visitor')!) as { v: string }).v;
      for (const preroll of ids)
        localStorage.setItem(
          `rudy_preroll.visitor-${visitor}.${id}.${preroll}`,
          JSON.stringify({ v: true, e: Date.now() + 3_600_000 }),
        );
    },
    [event.id, prerolls.data.prerolls.map((p) => p.id)] as const,
  );
  const log = requestLog(page);
  await openWithEarlyVideo(page, url, log);
  const src = await page.evaluate(() =>
    document.querySelector('channel-player')!.shadowRoot!.querySelector('video')!.getAttribute('src')!,
  );
  expect(src).not.toContain('/prerolls/');
  await expect(player.locator('[part~="media-bar"]')).toBeVisible({ timeout: 20_000 });
  await expect(player.locator('[part~="ad-label"]')).toHaveCount(0);
});

test.describe('when the player’s code cannot be had', () => {
  test.use({ allowConsoleErrors: [/channel-player|Failed to load resource|could not load/] });

  test('the early video stops and the loader’s message shows in its place', async ({ page, request }) => {
    const event = (await benchRecordings(request)).find((e) => e.type === 'free' && e.has_recording)!;
    // The player's code is held until the early video is there, then refused: refused at once, it could fail
    // before the start-up answers came, and the loader would never start a video to stop.
    let refuse!: () => void;
    const refused = new Promise<void>((resolve) => (refuse = resolve));
    await page.route(/\/chunks\/channel-player-[^/]+\.js/, async (route) => {
      await refused;
      await route.abort();
    });
    await page.goto(`${HOST_ORIGIN}/bench/player-bench.html?event=${event.id}`);
    await page.waitForFunction(() => document.querySelector('channel-player')?.shadowRoot?.querySelector('video'));
    const player = page.locator('channel-player');
    // The code is asked for once the video shows its first frame, with its bar.
    await expect(player.locator('[part~="media-bar"]')).toBeVisible({ timeout: 20_000 });
    refuse();
    await expect(player.getByRole('alert')).toContainText('could not be loaded');
    await expect(player.locator('video')).toHaveCount(0);
    await expect(player.locator('[part~="media-bar"]')).toHaveCount(0);
  });
});

test('a tag changed before its code came is not adopted: the stage starts as the tag now says', async ({
  page,
  request,
}) => {
  // The player's code is held until the tag has changed, so it cannot arrive first on a busy machine.
  const release = await openHeld(page, request);
  // The host's script takes autoplay away while the player's code is on its way.
  await page.evaluate(() => {
    const player = document.querySelector('channel-player')!;
    (player.shadowRoot!.querySelector('video') as HTMLVideoElement & { __early?: boolean }).__early = true;
    player.removeAttribute('autoplay');
  });
  release();
  const player = page.locator('channel-player');
  await expect(player.locator('[part~="play"]')).toBeVisible();
  await expect(player.locator('video')).toHaveCount(1);
  // Nor is the early video's bar, if it showed one.
  await expect(player.locator('[part~="media-bar"]')).toHaveCount(0);
  const video = await player.locator('video').evaluate((v: HTMLVideoElement & { __early?: boolean }) => ({
    early: v.__early === true,
    src: v.getAttribute('src'),
  }));
  expect(video).toEqual({ early: false, src: null });
});
