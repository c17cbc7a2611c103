// <channel-player> as a media element, end to end: its media API and re-dispatched events used from a host page on
// another origin, media-chrome's <media-controller> driving it, prerolls through the API, live DVR, resume, the
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
