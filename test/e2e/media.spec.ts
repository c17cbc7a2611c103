// <channel-player> as a media element, end to end: its media API and re-dispatched events used from a host page on
// another origin, media-chrome's <media-controller> driving it, prerolls from the settings, live DVR, resume, the
// quality and speed menus and Picture-in-Picture, against the reference server's real HLS media.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { BUNDLE_ORIGIN, HOST_ORIGIN } from './helpers';

test.describe.configure({ timeout: 60_000 });

/** The media events the element re-dispatches that a played, paused, seeked and muted video fires. */
const EVENTS = [
  'loadedmetadata',
  'durationchange',
  'play',
  'playing',
  'timeupdate',
  'progress',
  'pause',
  'seeking',
  'seeked',
  'volumechange',
  'ratechange',
  'waiting',
  'ended',
  'error',
] as const;

async function apiKey(request: APIRequestContext): Promise<string> {
  const answer = await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: 'demo' } });
  return ((await answer.json()) as { data: { api_key: string } }).data.api_key;
}

/** Free finished events with a recording, and the free live event. */
async function freeEvents(request: APIRequestContext): Promise<{ recordings: number[]; live: number }> {
  const key = await apiKey(request);
  const list = (await (
    await request.get(`${BUNDLE_ORIGIN}/api/events?stream_status=finished&limit=200&api_key=${key}`)
  ).json()) as { data: { id: number; type: string; has_recording: boolean }[] };
  const ids = (
    (await (await request.get(`${BUNDLE_ORIGIN}/__dev/events?channel_key=demo`)).json()) as {
      data: Record<string, number>;
    }
  ).data;
  return {
    recordings: list.data.filter((e) => e.type === 'free' && e.has_recording).map((e) => e.id),
    live: ids['free-live']!,
  };
}

/**
 * The media element demo on the CMS origin (demo/site/media-chrome.html): media-chrome's controller around the
 * player, or with `plain` the player alone, for event `id`.
 */
async function hostPage(page: Page, id: number, plain = false): Promise<void> {
  await page.goto(`${HOST_ORIGIN}/media-chrome.html?event=${id}${plain ? '&plain' : ''}`);
  await page.waitForFunction(() => customElements.get('channel-player') !== undefined);
}

/** Starts recording the element's events in the page (`window.heard`, in order). */
async function listen(page: Page, names: readonly string[]): Promise<void> {
  await page.evaluate((names) => {
    const w = window as unknown as { heard: string[] };
    w.heard = [];
    const player = document.querySelector('channel-player')!;
    for (const name of names) player.addEventListener(name, () => w.heard.push(name));
  }, names);
}

const heard = (page: Page) => page.evaluate(() => (window as unknown as { heard: string[] }).heard);

test('the media API from a host page: play, seek, pause, volume, speed, and the events from the element', async ({
  page,
  request,
}) => {
  const { recordings } = await freeEvents(request);
  const id = recordings[6]!;
  await hostPage(page, id, true);
  await listen(page, [...EVENTS, 'channel-ad-start', 'channel-ad-end']);
  const player = page.locator('channel-player');

  // Before anything plays: a paused element with nothing loaded.
  expect(
    await player.evaluate((el: HTMLVideoElement) => ({
      paused: el.paused,
      time: el.currentTime,
      ready: el.readyState,
      seekable: el.seekable.length,
      duration: el.duration,
    })),
  ).toEqual({ paused: true, time: 0, ready: 0, seekable: 0, duration: NaN });

  // play() starts the session (the preroll first, for a new visitor): its promise resolves once something plays.
  await player.evaluate((el: HTMLVideoElement) => el.play());
  expect(await player.evaluate((el: HTMLVideoElement) => el.paused)).toBe(false);
  // The preroll: the API says so, and refuses seeking it.
  await expect.poll(() => player.evaluate((el: HTMLVideoElement & { adPlaying: boolean }) => el.adPlaying)).toBe(true);
  expect(await heard(page)).toContain('channel-ad-start');
  const adTime = await player.evaluate((el: HTMLVideoElement) => {
    el.currentTime = 500;
    el.playbackRate = 2;
    return { time: el.currentTime, rate: el.playbackRate };
  });
  expect(adTime.time).toBeLessThan(20);
  expect(adTime.rate).toBe(1);
  // Then the main stream.
  await expect
    .poll(() => player.evaluate((el: HTMLVideoElement & { adPlaying: boolean }) => el.adPlaying), { timeout: 30_000 })
    .toBe(false);
  expect(await heard(page)).toContain('channel-ad-end');
  await expect
    .poll(() => player.evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(1);
  const playing = await player.evaluate((el: HTMLVideoElement) => ({
    duration: el.duration,
    ready: el.readyState,
    seekable: el.seekable.length > 0 ? el.seekable.end(0) : 0,
    buffered: el.buffered.length,
    muted: el.muted,
    streamType: (el as unknown as { streamType: string }).streamType,
  }));
  expect(playing.duration).toBeGreaterThan(60);
  expect(playing.ready).toBeGreaterThanOrEqual(2);
  expect(playing.seekable).toBeGreaterThan(60);
  expect(playing.buffered).toBeGreaterThan(0);
  expect(playing.muted).toBe(true);
  expect(playing.streamType).toBe('on-demand');

  // Seek, pause, volume and speed, seen on the video inside and as events outside.
  await player.evaluate((el: HTMLVideoElement) => {
    el.currentTime = 40;
  });
  await expect.poll(() => player.evaluate((el: HTMLVideoElement) => el.currentTime)).toBeGreaterThanOrEqual(40);
  await player.evaluate((el: HTMLVideoElement) => el.pause());
  await expect.poll(() => player.evaluate((el: HTMLVideoElement) => el.paused)).toBe(true);
  await player.evaluate((el: HTMLVideoElement) => {
    el.muted = false;
    el.volume = 0.4;
    el.playbackRate = 1.5;
  });
  const inner = player.locator('video');
  expect(
    await inner.evaluate((v: HTMLVideoElement) => ({ muted: v.muted, volume: v.volume, rate: v.playbackRate })),
  ).toEqual({ muted: false, volume: 0.4, rate: 1.5 });
  // To the end: `ended`.
  await player.evaluate((el: HTMLVideoElement) => {
    el.currentTime = el.duration - 1;
    return el.play();
  });
  await expect.poll(() => player.evaluate((el: HTMLVideoElement) => el.ended), { timeout: 15_000 }).toBe(true);

  const seen = new Set(await heard(page));
  for (const name of EVENTS.filter((n) => n !== 'error' && n !== 'waiting')) expect(seen, name).toContain(name);
});

test('media-chrome drives the player: play, mute, and the time range', async ({ page, request }) => {
  const { recordings } = await freeEvents(request);
  const id = recordings[7]!;
  await hostPage(page, id);
  const player = page.locator('channel-player');
  await page.locator('media-play-button').click();
  // media-chrome called play(): the preroll, then the main stream.
  await expect
    .poll(() => player.evaluate((el: HTMLVideoElement & { adPlaying: boolean }) => !el.paused && !el.adPlaying), {
      timeout: 30_000,
    })
    .toBe(true);
  await expect.poll(() => player.evaluate((el: HTMLVideoElement) => el.currentTime)).toBeGreaterThan(0.5);
  // The controller follows our events: its play button shows "pause", its time display the duration.
  await expect(page.locator('media-controller')).not.toHaveAttribute('mediapaused', /.*/);
  await expect(page.locator('media-time-display')).toHaveAttribute('mediaduration', '90');

  await page.locator('media-play-button').click();
  await expect.poll(() => player.evaluate((el: HTMLVideoElement) => el.paused)).toBe(true);
  await expect(page.locator('media-controller')).toHaveAttribute('mediapaused', '');

  // Muted by the attribute; the mute button unmutes through the `muted` property.
  await expect(page.locator('media-controller')).toHaveAttribute('mediamuted', '');
  await page.locator('media-mute-button').click();
  await expect.poll(() => player.locator('video').evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);
  await expect(page.locator('media-controller')).not.toHaveAttribute('mediamuted', /.*/);

  // A click three quarters along the time range seeks there.
  const range = page.locator('media-time-range');
  const box = (await range.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
  await expect.poll(() => player.evaluate((el: HTMLVideoElement) => el.currentTime / el.duration)).toBeGreaterThan(0.6);
});

type Player = HTMLVideoElement & { adPlaying: boolean; streamType: string };

/** Plays the host page's player through its API and waits for the main stream (after any preroll). */
async function playMain(page: Page): Promise<void> {
  const player = page.locator('channel-player');
  await player.evaluate((el: Player) => el.play());
  await expect
    .poll(() => player.evaluate((el: Player) => !el.adPlaying && !el.paused && el.currentTime > 0), {
      timeout: 40_000,
    })
    .toBe(true);
}

test('live DVR: pause, seek back 30 s in the live window, Go to live returns to the edge; the arrow keys seek in it', async ({
  page,
  request,
}) => {
  const { live } = await freeEvents(request);
  await hostPage(page, live, true);
  await playMain(page);
  const player = page.locator('channel-player');
  const position = () =>
    player.evaluate((el: Player) => ({
      time: el.currentTime,
      start: el.seekable.length ? el.seekable.start(0) : NaN,
      end: el.seekable.length ? el.seekable.end(el.seekable.length - 1) : NaN,
      type: el.streamType,
      paused: el.paused,
    }));
  const start = await position();
  expect(start.type).toBe('live');
  // The reference server keeps 10 minutes; the free live event started long enough ago for more than a minute.
  expect(start.end - start.start).toBeGreaterThan(60);
  const liveButton = player.locator('[part~="live"]');
  await expect(liveButton).toHaveAttribute('data-state', 'edge');
  await expect(liveButton).toHaveText('Live');

  // Paused, and 30 s back: behind the edge, still playing from there.
  await player.evaluate((el: Player) => el.pause());
  expect((await position()).paused).toBe(true);
  const target = (await position()).time - 30;
  await player.evaluate((el: Player, t: number) => {
    el.currentTime = t;
    return el.play();
  }, target);
  await expect.poll(async () => (await position()).time, { timeout: 15_000 }).toBeGreaterThan(target + 1);
  const back = await position();
  expect(back.time).toBeLessThan(back.end - 25);
  await expect(liveButton).toHaveAttribute('data-state', 'behind');
  await expect(liveButton).toContainText('Go to live');
  await expect(liveButton).toContainText(/−0:[234]\d/);

  // The keyboard seeks in the window too: 10 s back.
  await player.locator('video[part~="video"]').focus();
  const before = (await position()).time;
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await position()).time).toBeLessThan(before - 5);

  // Go to live: back at the edge, playing.
  await liveButton.click();
  await expect(liveButton).toHaveAttribute('data-state', 'edge', { timeout: 15_000 });
  const edge = await position();
  expect(edge.time).toBeGreaterThan(edge.end - 15);
  expect(edge.paused).toBe(false);
});

test('resume: a reload mid-video starts where the viewer was, says so, and Start over goes back to the start', async ({
  page,
  request,
}) => {
  const { recordings } = await freeEvents(request);
  await hostPage(page, recordings[8]!, true);
  await playMain(page);
  const player = page.locator('channel-player');
  await player.evaluate((el: Player) => {
    el.currentTime = 50;
  });
  await expect.poll(() => player.evaluate((el: Player) => el.currentTime)).toBeGreaterThan(50.5);
  await player.evaluate((el: Player) => el.pause());
  const left = await player.evaluate((el: Player) => el.currentTime);
  await expect(player.locator('[part~="resumed"]')).toHaveCount(0);

  await page.reload();
  await page.waitForFunction(() => customElements.get('channel-player') !== undefined);
  await playMain(page);
  const resumed = await player.evaluate((el: Player) => el.currentTime);
  expect(Math.abs(resumed - left)).toBeLessThan(2.5);
  // The position kept is the last one the player saved, within a second of what the test read: either rounding.
  const shown = [...new Set([Math.floor(left), Math.round(left), Math.ceil(left)])].join('|');
  await expect(player.locator('[part~="resumed"]')).toHaveText(new RegExp(`^Resumed at 0:(${shown})$`));

  await player.locator('[part~="start-over"]').click();
  await expect.poll(() => player.evaluate((el: Player) => el.currentTime)).toBeLessThan(5);
  await expect(player.locator('[part~="resumed"]')).toHaveCount(0);
});

test('the quality and speed menus, by keyboard, and Picture-in-Picture; axe clean with the bar', async ({
  page,
  request,
  makeAxeBuilder,
}) => {
  const { recordings } = await freeEvents(request);
  await hostPage(page, recordings[5]!, true);
  const player = page.locator('channel-player');
  // The quality menu is where hls.js plays.
  await player.evaluate((el: Player) => el.setAttribute('prefer-playback', 'mse'));
  await playMain(page);
  await listen(page, ['ratechange', 'enterpictureinpicture']);

  const quality = player.locator('[part~="quality"] select');
  await expect(quality).toHaveAccessibleName('Quality');
  await expect(quality.locator('option')).toHaveText([/^Auto \((360|180)p\)$/, '360p', '180p']);
  await quality.focus();
  await quality.selectOption({ label: '180p' });
  await expect.poll(() => player.evaluate((el: Player) => el.videoHeight), { timeout: 20_000 }).toBe(180);
  await quality.selectOption({ index: 0 });
  await expect(quality).toHaveValue('-1');

  const speed = player.locator('[part~="speed"] select');
  await expect(speed).toHaveAccessibleName('Speed');
  await speed.focus();
  await speed.selectOption('1.5');
  await expect.poll(() => player.evaluate((el: Player) => el.playbackRate)).toBe(1.5);
  expect(await heard(page)).toContain('ratechange');

  const pip = player.locator('[part~="pip"]');
  await expect(pip).toHaveAttribute('aria-pressed', 'false');
  await pip.focus();
  await page.keyboard.press('Enter');
  await expect(pip).toHaveAttribute('aria-pressed', 'true', { timeout: 10_000 });
  expect(await heard(page)).toContain('enterpictureinpicture');
  await pip.click();
  await expect(pip).toHaveAttribute('aria-pressed', 'false');

  expect((await makeAxeBuilder().include('channel-player').analyze()).violations).toEqual([]);
});
