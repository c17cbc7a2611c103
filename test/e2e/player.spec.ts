// <channel-player> end to end, on the demo's player page against the reference server's real HLS media.
// Each test uses its own event where it changes server state (faults, schedule), since specs run in parallel.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { BUNDLE_ORIGIN, finishedEvents } from './helpers';

test.describe.configure({ timeout: 60_000 });

/** Fixture keys of the demo channel's events to ids (GET /__dev/events). */
async function eventIds(request: APIRequestContext): Promise<Record<string, number>> {
  return (
    (await (await request.get(`${BUNDLE_ORIGIN}/__dev/events?channel_key=demo`)).json()) as {
      data: Record<string, number>;
    }
  ).data;
}

/** Ids of free finished events with a recording (one per test that changes a stream's behaviour). */
async function freeRecordings(request: APIRequestContext): Promise<number[]> {
  return (await finishedEvents(request)).filter((e) => e.type === 'free' && e.has_recording).map((e) => e.id);
}

/** Media requests the server received for a stream (GET /__dev/media-requests). */
async function mediaRequests(request: APIRequestContext, stream: string | number) {
  const body = (await (await request.get(`${BUNDLE_ORIGIN}/__dev/media-requests?stream=${stream}`)).json()) as {
    data: { kind: string; status: number; path: string }[];
  };
  return body.data;
}

/** Signs in through the API and stores the token where the session reads it (the accounts UI comes later). */
async function signInStored(page: Page, request: APIRequestContext, email: string): Promise<void> {
  const key = (
    (await (await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: 'demo' } })).json()) as {
      data: { api_key: string };
    }
  ).data.api_key;
  const login = (await (
    await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/login`, {
      data: { api_key: key, email, password: 'demo-password' },
    })
  ).json()) as { data: { token: string } };
  await page.evaluate(
    (token) => localStorage.setItem('rudy_token.demo', JSON.stringify({ v: token, e: Date.now() + 3_600_000 })),
    login.data.token,
  );
}

/** Opens the player page and sets the player's attributes (replacing the page's own). */
async function showPlayer(page: Page, attributes: Record<string, string>): Promise<Locator> {
  await page.goto(`${BUNDLE_ORIGIN}/player.html`);
  await page.evaluate((attrs) => {
    const player = document.getElementById('player')!;
    for (const name of player.getAttributeNames()) if (name !== 'id') player.removeAttribute(name);
    for (const [name, value] of Object.entries(attrs)) player.setAttribute(name, value);
  }, attributes);
  return page.locator('#player');
}

/** Waits until the main stream (not a preroll) plays and its time advances past `seconds`. */
async function expectMainPlaying(player: Locator, seconds = 2): Promise<void> {
  const video = player.locator('video');
  await expect
    .poll(
      async () =>
        video.evaluate((v: HTMLVideoElement) =>
          /\/media\/s\//.test(v.currentSrc) || v.currentSrc.startsWith('blob:') ? v.currentTime : 0,
        ),
      {
        timeout: 40_000,
      },
    )
    .toBeGreaterThan(seconds);
}

test.describe('the free live stream', () => {
  // Both watch the one free live stream's request log: one after the other, never side by side.
  test.describe.configure({ mode: 'serial' });

  test('free live plays: the main stream after the preroll, time advancing', async ({ page, request }) => {
    const ids = await eventIds(request);
    const player = await showPlayer(page, { 'event-id': String(ids['free-live']), autoplay: '', muted: '' });
    await expect(player.locator('[part~="badge-live"]')).toHaveText('Live');
    await expectMainPlaying(player);
    await expect(player.locator('[part~="reconnecting"], [part~="playback-error"]')).toHaveCount(0);
  });

  test('removing the element stops every request', async ({ page, request }) => {
    const ids = await eventIds(request);
    const id = ids['free-live']!;
    const player = await showPlayer(page, {
      'event-id': String(id),
      autoplay: '',
      muted: '',
      'prefer-playback': 'mse',
    });
    await expectMainPlaying(player, 1);
    await page.evaluate(() => document.getElementById('player')!.remove());
    await page.waitForTimeout(500);
    const count = (await mediaRequests(request, id)).length;
    // A live playlist is reloaded every segment (2 s): silence for 6 s means nothing is left running.
    await page.waitForTimeout(6_000);
    expect((await mediaRequests(request, id)).length).toBe(count);
  });
});

test('free on demand plays, and the keyboard drives it', async ({ page, request }) => {
  const [id] = await freeRecordings(request);
  const player = await showPlayer(page, { 'event-id': String(id) });
  // Not autoplaying: a Play button, and no stream request until it is pressed.
  await expect(player.locator('[part~="play"]')).toBeVisible();
  expect(await mediaRequests(request, id!)).toEqual([]);
  await player.locator('[part~="play"]').click();
  await expectMainPlaying(player, 1);
  const video = player.locator('video');
  await video.focus();
  await page.keyboard.press('k');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  const before = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(before + 5);
  await page.keyboard.press('m');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
  await page.keyboard.press(' ');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
});

test('paid without access shows the paywall with the offers that unlock it, and asks for a purchase', async ({
  page,
  request,
}) => {
  const ids = await eventIds(request);
  const player = await showPlayer(page, { 'event-id': String(ids['paid-live-category']), autoplay: '' });
  const paywall = player.locator('[part~="paywall"]');
  await expect(paywall.getByRole('heading')).toHaveText('Get a pass to watch');
  const offers = paywall.locator('[part~="offer"]');
  await expect(offers).toHaveCount(4);
  await expect(offers.nth(0)).toContainText('Single event pass');
  await expect(offers.nth(1)).toContainText('Hockey Season Pass');
  await expect(offers.nth(1)).toContainText('USD $29.99');
  await expect(offers.nth(2)).toContainText('All-Access Monthly');
  await expect(offers.nth(2)).toContainText('USD $9.99 / month');
  await expect(offers.nth(2)).toContainText('7-day free trial');
  await expect(offers.nth(3)).toContainText('USD $99.99 / year');
  await offers.nth(1).getByRole('button', { name: 'Buy Hockey Season Pass' }).click();
  await expect(page.locator('#event-log')).toContainText('channel-purchase-request');
  await expect(page.locator('#event-log')).toContainText('"type":"package","id":1');
  expect(await mediaRequests(request, ids['paid-live-category']!)).toEqual([]);
});

test('register-only asks a guest to sign in', async ({ page, request }) => {
  const ids = await eventIds(request);
  const player = await showPlayer(page, { 'event-id': String(ids['register-live']) });
  await player.getByRole('button', { name: 'Sign in to watch' }).click();
  await expect(page.locator('#event-log')).toHaveText(
    `channel-login-request: {"reason":"watch","eventId":${ids['register-live']}}`,
  );
  expect(await mediaRequests(request, ids['register-live']!)).toEqual([]);
});

test('upcoming shows a countdown and starts by itself when the event goes live', async ({ page, request }) => {
  const ids = await eventIds(request);
  const id = ids.countdown!;
  // 12 s ahead: time for the page to load and show the countdown on a busy machine (5 s was not always enough).
  test.setTimeout(60_000);
  await request.post(`${BUNDLE_ORIGIN}/__dev/events/${id}/start-in`, { data: { seconds: 12, duration: 600 } });
  try {
    const player = await showPlayer(page, { 'event-id': String(id), autoplay: '', muted: '' });
    await expect(player.locator('[part~="countdown-clock"]')).toHaveText(/^00:00:(0\d|1[0-2])$/);
    await expect(player.locator('[part~="badge-live"]')).toBeVisible({ timeout: 30_000 });
    await expectMainPlaying(player, 1);
  } finally {
    await request.post(`${BUNDLE_ORIGIN}/__dev/events/${id}/reset`);
  }
});

test('geo-blocked shows the message and requests no stream', async ({ page, request }) => {
  const ids = await eventIds(request);
  const player = await showPlayer(page, { 'event-id': String(ids['geo-blocked']), autoplay: '' });
  await expect(player.getByRole('alert')).toHaveText('The content is not available in your region');
  await expect(player.locator('video')).toHaveCount(0);
  expect(await mediaRequests(request, ids['geo-blocked']!)).toEqual([]);
});

test('a finished event without a recording says so', async ({ page, request }) => {
  const ids = await eventIds(request);
  const player = await showPlayer(page, { 'event-id': String(ids['no-recording']) });
  await expect(player.locator('[part~="no-recording"]')).toHaveText(
    'This event has finished and no recording is available.',
  );
});

test('the preroll plays once, labelled, then is suppressed for this visitor and event', async ({ page, request }) => {
  const id = (await freeRecordings(request))[1]!;
  let player = await showPlayer(page, { 'event-id': String(id), autoplay: '', muted: '' });
  await expect(player.locator('[part~="ad-label"]')).toContainText('Ad');
  await expect(player.locator('video')).toHaveAttribute('src', /\/media\/prerolls\//);
  await expectMainPlaying(player, 1);
  await expect(player.locator('[part~="ad-label"]')).toHaveCount(0);
  // Again, after a reload: straight to the main stream.
  player = await showPlayer(page, { 'event-id': String(id), autoplay: '', muted: '' });
  await expect(player.locator('video')).toHaveAttribute('src', /\/media\/s\//);
  await expect(player.locator('[part~="ad-label"]')).toHaveCount(0);
  await expectMainPlaying(player, 1);
});

test.describe('stream faults', () => {
  // The browser logs the failed responses these tests cause on purpose.
  test.use({ allowConsoleErrors: [/status of (403|500)/] });

  test('a failed segment does not stop playback (hls.js)', async ({ page, request }) => {
    const id = (await freeRecordings(request))[2]!;
    await request.post(`${BUNDLE_ORIGIN}/__dev/faults`, { data: { stream: String(id), segment: 'once' } });
    try {
      const player = await showPlayer(page, {
        'event-id': String(id),
        autoplay: '',
        muted: '',
        'prefer-playback': 'mse',
      });
      await expectMainPlaying(player, 4);
      const segments = (await mediaRequests(request, id)).filter((r) => r.kind === 'segment');
      expect(segments.some((r) => r.status === 500)).toBe(true);
      await expect(player.locator('[part~="playback-error"]')).toHaveCount(0);
    } finally {
      await request.delete(`${BUNDLE_ORIGIN}/__dev/faults?stream=${id}`);
    }
  });

  test('a 403 manifest shows its message without retry loops', async ({ page, request }) => {
    const id = (await freeRecordings(request))[3]!;
    await request.post(`${BUNDLE_ORIGIN}/__dev/faults`, { data: { stream: String(id), manifest: 403 } });
    try {
      const player = await showPlayer(page, { 'event-id': String(id), autoplay: '', muted: '' });
      await expect(player.locator('[part~="denied"] p')).toHaveText('Access to this stream was refused.', {
        timeout: 30_000,
      });
      const count = (await mediaRequests(request, id)).length;
      await page.waitForTimeout(4_000);
      expect((await mediaRequests(request, id)).length).toBe(count);
    } finally {
      await request.delete(`${BUNDLE_ORIGIN}/__dev/faults?stream=${id}`);
    }
  });
});

test('embed is the plain layout: the video, no header', async ({ page, request }) => {
  const ids = await eventIds(request);
  const player = await showPlayer(page, { 'event-id': String(ids['free-live']), embed: '' });
  await expect(player.locator('[part~="stage"]')).toBeVisible();
  await expect(player.locator('[part~="play"]')).toBeVisible();
  await expect(player.locator('[part~="header"], [part~="title"]')).toHaveCount(0);
});

test('a sign-in in another tab unlocks the paid event without a reload', async ({ page, context, request }) => {
  const ids = await eventIds(request);
  const player = await showPlayer(page, { 'event-id': String(ids['paid-live']) });
  await expect(player.locator('[part~="paywall"]')).toBeVisible();
  // The buyer (who holds an order for this event) signs in in a second tab of the same site.
  const other = await context.newPage();
  await other.goto(`${BUNDLE_ORIGIN}/player.html`);
  const key = (
    (await (await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: 'demo' } })).json()) as {
      data: { api_key: string };
    }
  ).data.api_key;
  const login = (await (
    await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/login`, {
      data: { api_key: key, email: 'buyer@demo-sports.example', password: 'demo-password' },
    })
  ).json()) as { data: { token: string } };
  await other.evaluate(
    (token) => localStorage.setItem('rudy_token.demo', JSON.stringify({ v: token, e: Date.now() + 3_600_000 })),
    login.data.token,
  );
  await expect(player.locator('[part~="paywall"]')).toHaveCount(0, { timeout: 15_000 });
  await player.locator('[part~="play"]').click();
  await expectMainPlaying(player, 1);
});

test('video analytics reach the datalake and the Mux beacon collector after the first frame, without the token', async ({
  page,
  request,
}) => {
  const id = (await freeRecordings(request))[4]!;
  const since = Date.now();
  const player = await showPlayer(page, { 'event-id': String(id), autoplay: '', muted: '' });
  await expectMainPlaying(player, 1);
  const datalake = async () =>
    (
      (await (await request.get(`${BUNDLE_ORIGIN}/__dev/datalake?kind=video-event&since=${since}`)).json()) as {
        data: { body: Record<string, unknown> }[];
      }
    ).data;
  await expect
    .poll(async () => (await datalake()).some((e) => e.body.stream_id === String(id) && e.body.event === 'first_frame'))
    .toBe(true);
  // What is watched, from the event: its category, its home team's sport and gender, school and the school's league.
  const first = (await datalake()).find((e) => e.body.stream_id === String(id) && e.body.event === 'first_frame')!;
  expect(first.body).toMatchObject({ stream_type: 'vod', profile: 'demo-analytics-profile' });
  for (const field of ['category', 'sport', 'gender', 'school', 'league', 'title'])
    expect(typeof first.body[field], field).toBe('string');
  const beacons = async () =>
    ((await (await request.get(`${BUNDLE_ORIGIN}/__dev/beacons?since=${since}`)).json()) as { data: unknown[] }).data;
  await expect.poll(async () => (await beacons()).length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(JSON.stringify([await datalake(), await beacons()])).not.toMatch(/token|api_key/i);
  // Signed stream URLs stay out of them too (the grant path segment is replaced with '-').
  expect(JSON.stringify([await datalake(), await beacons()])).not.toMatch(/\/media\/s\/(?!-\/)/);
});

test('captions: the browser shows the stream subtitles, or the player offers them through hls.js', async ({
  page,
  request,
}) => {
  const id = (await freeRecordings(request))[6]!;
  const player = await showPlayer(page, { 'event-id': String(id), autoplay: '', muted: '' });
  await expectMainPlaying(player, 1);
  const video = player.locator('video');
  const showing = () =>
    video.evaluate((v: HTMLVideoElement) => [...v.textTracks].filter((track) => track.mode === 'showing').length);
  if ((await video.evaluate((v: HTMLVideoElement) => v.textTracks.length)) === 0) {
    // This browser's own HLS engine leaves subtitles out (Chromium's does): a Captions button switches engines.
    await player.getByRole('button', { name: 'Captions' }).click();
    await expect.poll(showing, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => (v.currentSrc.startsWith('blob:') ? v.currentTime : 0)))
      .toBeGreaterThan(2);
  } else {
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.textTracks.length)).toBeGreaterThan(0);
  }
});

test('a user with the download right gets a Download button on a finished event', async ({ page, request }) => {
  const id = (await freeRecordings(request))[5]!;
  await page.goto(`${BUNDLE_ORIGIN}/player.html`);
  await signInStored(page, request, 'subscriber@demo-sports.example');
  const player = await showPlayer(page, { 'event-id': String(id) });
  const button = player.getByRole('button', { name: 'Download' });
  await expect(button).toBeVisible();
  const download = page.waitForEvent('download');
  await button.click();
  expect((await download).suggestedFilename()).toMatch(/\.mp4$/);
  await expect(button).toBeEnabled();
});

test('the watch right: an account without it is told so on a paid event it holds, and nothing plays', async ({
  page,
  request,
}) => {
  const ids = await eventIds(request);
  await page.goto(`${BUNDLE_ORIGIN}/player.html`);
  // A monthly subscription, but the channel withdrew its `watch` right.
  await signInStored(page, request, 'suspended@demo-sports.example');
  const player = await showPlayer(page, { 'event-id': String(ids['paid-live']), autoplay: '' });
  await expect(player.locator('[part~="no-watch"]')).toHaveText(
    'Your account cannot watch videos at the moment. Please contact the channel.',
  );
  await expect(player.locator('[part~="paywall"]')).toHaveCount(0);
  await expect(player.locator('video')).toHaveCount(0);
  // In French, as the element's language says.
  await page.evaluate(() => document.getElementById('player')!.setAttribute('lang', 'fr'));
  await expect(player.locator('[part~="no-watch"]')).toHaveText(
    'Votre compte ne peut pas regarder de vidéos pour le moment. Veuillez contacter la chaîne.',
  );
});

test.describe('in French', () => {
  test('the demo-fr channel plays its free live event with French controls', async ({ page }) => {
    await page.goto(`${BUNDLE_ORIGIN}/french.html`);
    const player = page.locator('#fr-player');
    await expect(player.locator('[part~="badge-live"]')).toHaveText('En direct');
    await player.getByRole('button', { name: /^Lire / }).click();
    await expectMainPlaying(player, 1);
  });

  test('the paywall and the region message', async ({ page, request }) => {
    const ids = await eventIds(request);
    const player = await showPlayer(page, { 'event-id': String(ids['paid-live']), lang: 'fr' });
    await expect(player.locator('[part~="paywall"] h3')).toHaveText('Obtenez un passe pour regarder');
    await expect(player.locator('[part~="offer"]').first()).toContainText('Passe pour cet événement');
    const geo = await showPlayer(page, { 'event-id': String(ids['geo-blocked']), lang: 'fr' });
    await expect(geo.getByRole('alert')).toHaveText("Ce contenu n'est pas disponible dans votre région");
  });
});

test('axe finds no WCAG 2.1 A/AA violations on the paywall and the player', async ({
  page,
  request,
  makeAxeBuilder,
}) => {
  const ids = await eventIds(request);
  const player = await showPlayer(page, { 'event-id': String(ids['paid-live']) });
  await expect(player.locator('[part~="offer"]').first()).toBeVisible();
  expect((await makeAxeBuilder().analyze()).violations).toEqual([]);
  const free = await showPlayer(page, { 'event-id': String(ids['free-live']) });
  await expect(free.locator('[part~="play"]')).toBeVisible();
  expect((await makeAxeBuilder().analyze()).violations).toEqual([]);
});
