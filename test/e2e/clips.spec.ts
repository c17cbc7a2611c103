// Clips end to end, in <channel-app> on the CMS host (another origin, loaded by the script tag), against the
// reference server cutting for real with ffmpeg: fan@example.com clips 10 s of a finished event and of the live
// event, sees each being made and then ready, downloads the MP4 (ffprobe reads its length), opens the share link
// as a guest in a fresh browser and it plays, deletes the clip in the profile and the link says so. A viewer
// without `clipping` sees no Clip control and the server refuses them; the maker checks before sending; French
// on demo-fr; axe on the open maker.
import { execFileSync } from 'node:child_process';
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { FFPROBE } from '../../server/media/ffmpeg.js';
import { expect, test } from './fixtures';
import { BUNDLE_ORIGIN, HOST_ORIGIN } from './helpers';

test.describe.configure({ timeout: 90_000 });

const SITE = `${HOST_ORIGIN}/site`;
const SITE_FR = `${HOST_ORIGIN}/site-fr`;

let serial = 0;
const unique = (name: string) => `${name} ${Date.now().toString(36)}${process.pid}${serial++}`;

async function apiKey(request: APIRequestContext, channel: string): Promise<string> {
  const answer = await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: channel } });
  return ((await answer.json()) as { data: { api_key: string } }).data.api_key;
}

/** Signs in through the API; answers the token (and the api key it was made with). */
async function login(request: APIRequestContext, channel: string, email: string, password: string) {
  const key = await apiKey(request, channel);
  const answer = await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/login`, { data: { api_key: key, email, password } });
  return { key, token: ((await answer.json()) as { data: { token: string } }).data.token };
}

/** Stores a sign-in where the site's session reads it, before any page script runs. */
async function signIn(page: Page, request: APIRequestContext, email: string, password: string, channel = 'demo') {
  const { token } = await login(request, channel, email, password);
  await page.addInitScript(
    ([value, name]) =>
      localStorage.setItem(`rudy_token.${name}`, JSON.stringify({ v: value, e: Date.now() + 3_600_000 })),
    [token, channel] as const,
  );
}

/** Fixture keys of a channel's events to ids. */
async function eventIds(request: APIRequestContext, channel = 'demo'): Promise<Record<string, number>> {
  const answer = await request.get(`${BUNDLE_ORIGIN}/__dev/events?channel_key=${channel}`);
  return ((await answer.json()) as { data: Record<string, number> }).data;
}

/**
 * A free finished event with a recording that no other spec plays: player.spec.ts counts the media requests of the
 * first seven free recordings (each its own), so clips take the last one.
 */
async function clipEvent(request: APIRequestContext): Promise<number> {
  const key = await apiKey(request, 'demo');
  const answer = await request.get(`${BUNDLE_ORIGIN}/api/events?stream_status=finished&limit=200&api_key=${key}`);
  const free = ((await answer.json()) as { data: { id: number; type: string; has_recording: boolean }[] }).data
    .filter((e) => e.type === 'free' && e.has_recording)
    .map((e) => e.id);
  expect(free.length).toBeGreaterThan(7);
  return free.at(-1)!;
}

const app = (page: Page): Locator => page.locator('channel-app');
const video = (scope: Locator): Locator => scope.locator('video[part~="video"]');

/** Waits until the video shows frames and moves. */
async function expectPlaying(scope: Locator): Promise<void> {
  await expect(video(scope)).toHaveCount(1, { timeout: 20_000 });
  await expect
    .poll(() => video(scope).evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.currentTime > 0.2), {
      timeout: 30_000,
    })
    .toBe(true);
}

/** Pauses the video at `seconds` (exactly, so Set start / Set end read whole seconds). */
async function pauseAt(scope: Locator, seconds: number): Promise<void> {
  await video(scope).evaluate(async (v: HTMLVideoElement, at: number) => {
    v.pause();
    v.currentTime = at;
    await new Promise((resolve) => v.addEventListener('seeked', resolve, { once: true }));
  }, seconds);
}

/** The seconds of an MP4, read by ffprobe. */
function mp4Seconds(file: string): number {
  const out = execFileSync(FFPROBE, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(String(out).trim());
}

/** Presses Copy link as a viewer does, sees it confirmed, and answers what landed on the clipboard. */
async function copiedLink(page: Page, panel: Locator): Promise<string> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: HOST_ORIGIN });
  await panel.locator('[part~="clip-copy"]').click();
  await expect(panel.locator('[part~="clip-copied"]')).toBeVisible();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Opens a share link in a fresh browser context (a guest: nothing stored) and answers the page. */
async function asGuest(browser: Browser, url: string): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  return { page, close: () => context.close() };
}

test('fan clips 10 s of a finished event: made, downloaded (a real MP4), shared to a guest, deleted', async ({
  page,
  request,
  browser,
  makeAxeBuilder,
}) => {
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/clip') posts.push(r.postData() ?? '');
  });
  await signIn(page, request, 'fan@example.com', 'fan-pass-1');
  const eventId = await clipEvent(request);
  await page.goto(`${SITE}/watch/${eventId}`);
  const site = app(page);
  await expectPlaying(site);

  await site.locator('[part~="clip-button"]').click();
  const panel = site.locator('[part~="clip-panel"]');
  await expect(panel).toBeVisible();
  await expect(panel.locator('[part~="clip-selection"]')).toBeVisible();
  expect((await makeAxeBuilder().analyze()).violations).toEqual([]);

  // Checked before anything is sent: a name, a tag, and at most 60 s.
  await panel.locator('[part~="clip-submit"]').click();
  await expect(panel.locator('[part~="field-error"]')).toHaveText([
    'Please fill in the input field',
    'Please select tag',
  ]);
  await pauseAt(site, 5);
  await panel.locator('[part~="clip-set-start"]').click();
  await pauseAt(site, 80);
  await panel.locator('[part~="clip-set-end"]').click();
  await panel.locator('[part~="clip-name"] input').fill('Too long');
  await panel.locator('[part~="clip-tag"]', { hasText: 'Goal' }).click();
  await panel.locator('[part~="clip-submit"]').click();
  await expect(panel.locator('[part~="field-error"]')).toHaveText(['The clip can be at most 60 seconds long']);
  expect(posts).toEqual([]);

  // 0:20 to 0:30, named, tagged: sent once, made, ready.
  await pauseAt(site, 30);
  await panel.locator('[part~="clip-set-end"]').click();
  await pauseAt(site, 20);
  await panel.locator('[part~="clip-set-start"]').click();
  await expect(panel.locator('[part~="clip-selection"]')).toHaveText('From 0:20 to 0:30 (0:10)');
  const name = unique('Finished ten');
  await panel.locator('[part~="clip-name"] input').fill(name);
  await panel.locator('[part~="clip-submit"]').click();
  await expect(panel.locator('[part~="clip-progress"]')).toBeVisible();
  await expect(panel.locator('[part~="clip-ready"]')).toBeVisible({ timeout: 60_000 });
  expect(posts.map((body) => JSON.parse(body) as Record<string, unknown>)).toEqual([
    expect.objectContaining({ event_id: eventId, name, start_time: 20, duration: 10, tags: ['goal'] }),
  ]);

  // The download is the clip's MP4, 10 s long.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.locator('[part~="clip-download"]').click(),
  ]);
  const file = test.info().outputPath('clip.mp4');
  await download.saveAs(file);
  expect(mp4Seconds(file)).toBeCloseTo(10, 0);

  // The share link plays for a guest in a fresh browser, with the clip's name and its event.
  const link = await copiedLink(page, panel);
  expect(link).toMatch(new RegExp(`^${SITE}/share/\\d+/[0-9a-f-]{36}$`));
  const guest = await asGuest(browser, link);
  const shared = app(guest.page);
  await expect(shared).toContainText(name, { timeout: 15_000 });
  await shared.locator('[part~="button"][part~="play"]').click();
  await expectPlaying(shared);

  // Deleted in the profile (after a confirmation): gone there, and the link says so.
  await page.goto(`${SITE}/profile/clips`);
  const row = site.locator('[part~="clip"]', { hasText: name });
  await expect(row).toBeVisible({ timeout: 15_000 });
  await row.locator('[part~="clip-delete"]').click();
  await row.locator('[part~="clip-confirm-delete"]').click();
  await expect(site.locator('[part~="clip"]', { hasText: name })).toHaveCount(0);
  await guest.page.reload();
  await expect(app(guest.page)).toContainText('This clip is no longer available', { timeout: 15_000 });
  await expect(video(app(guest.page))).toHaveCount(0);
  await guest.close();
});

test('fan clips the last 10 s of the live event; it is made and plays from its share link', async ({
  page,
  request,
  browser,
}) => {
  await signIn(page, request, 'fan@example.com', 'fan-pass-1');
  // An event of its own (free to signed-in viewers; player.spec.ts counts the seeded live events' media requests),
  // made live two minutes ago for an hour, and put back afterwards.
  const eventId = (await eventIds(request))['register-finished']!;
  await request.post(`${BUNDLE_ORIGIN}/__dev/events/${eventId}/start-in`, { data: { seconds: -120, duration: 3600 } });
  try {
    await page.goto(`${SITE}/watch/${eventId}`);
    const site = app(page);
    await expectPlaying(site);
    await site.locator('[part~="clip-button"]').click();
    const panel = site.locator('[part~="clip-panel"]');
    // The selection starts as the 10 s before the live position.
    await expect(panel.locator('[part~="clip-selection"]')).toContainText('(0:10)');
    const name = unique('Live ten');
    await panel.locator('[part~="clip-name"] input').fill(name);
    await panel.locator('[part~="clip-tag"]', { hasText: 'Highlight' }).click();
    // Paused a while before sending: the clip is still what was on screen, not the last 10 s before the send.
    const guestKey = await apiKey(request, 'demo');
    const event = (await (await request.get(`${BUNDLE_ORIGIN}/api/events/${eventId}?api_key=${guestKey}`)).json()) as {
      data: { event_utc_ts: number };
    };
    await video(site).evaluate((v: HTMLVideoElement) => v.pause());
    const pausedAt = Date.now() / 1000 - event.data.event_utc_ts;
    await page.waitForTimeout(4_000);
    await panel.locator('[part~="clip-submit"]').click();
    await expect(panel.locator('[part~="clip-progress"]')).toBeVisible();
    await expect(panel.locator('[part~="clip-ready"]')).toBeVisible({ timeout: 60_000 });
    const link = await copiedLink(page, panel);
    const guest = await asGuest(browser, link);
    await expect(app(guest.page)).toContainText(name, { timeout: 15_000 });
    await app(guest.page).locator('[part~="button"][part~="play"]').click();
    await expectPlaying(app(guest.page));
    await guest.close();

    // Cut from the live window, not the recording.
    const { key, token } = await login(request, 'demo', 'fan@example.com', 'fan-pass-1');
    const mine = await request.get(`${BUNDLE_ORIGIN}/api/clips/user?api_key=${key}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const made = (
      (await mine.json()) as { data: { name: string; source: string; start_time: number; duration: number }[] }
    ).data.find((c) => c.name === name);
    expect(made).toMatchObject({ source: 'live', duration: 10 });
    // It ends where the video was paused, which was a few seconds behind live (the player's latency).
    const end = made!.start_time + made!.duration;
    expect(end).toBeLessThanOrEqual(pausedAt + 1);
    expect(end).toBeGreaterThanOrEqual(pausedAt - 14);
  } finally {
    await request.post(`${BUNDLE_ORIGIN}/__dev/events/${eventId}/reset`);
  }
});

test('a viewer without clipping sees no Clip control, and the server refuses their clip (403)', async ({
  page,
  request,
}) => {
  await signIn(page, request, 'viewer@example.com', 'viewer-pass-1');
  const eventId = await clipEvent(request);
  await page.goto(`${SITE}/watch/${eventId}`);
  await expectPlaying(app(page));
  await expect(app(page).locator('[part~="clip-button"]')).toHaveCount(0);

  const { key, token } = await login(request, 'demo', 'viewer@example.com', 'viewer-pass-1');
  const refused = await request.post(`${BUNDLE_ORIGIN}/api/clip`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { api_key: key, event_id: eventId, name: 'Nope', start_time: 0, duration: 10, tags: ['goal'] },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe('Your account cannot make clips.');
});

test('the server checks what the maker checks, with the same messages', async ({ request }) => {
  const eventId = await clipEvent(request);
  const { key, token } = await login(request, 'demo', 'fan@example.com', 'fan-pass-1');
  const post = async (body: Record<string, unknown>) => {
    const answer = await request.post(`${BUNDLE_ORIGIN}/api/clip`, {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        api_key: key,
        event_id: eventId,
        name: 'Check',
        start_time: 10,
        duration: 10,
        tags: ['goal'],
        ...body,
      },
    });
    expect(answer.status()).toBe(422);
    return ((await answer.json()) as { errors: Record<string, string[]> }).errors;
  };
  expect((await post({ name: '' })).name).toEqual(['Please fill in the input field']);
  expect((await post({ tags: [] })).tags).toEqual(['Please select tag']);
  expect((await post({ start_time: 85, duration: 10 })).duration).toEqual([
    'Your clip duration is longer than the end time',
  ]);
  expect((await post({ duration: 61 })).duration).toEqual(['The clip can be at most 60 seconds long']);
});

test('French on demo-fr: the maker, its checks and a shared clip read in French', async ({
  page,
  request,
  browser,
}) => {
  await signIn(page, request, 'supporter@sports-demo.example', 'demo-password', 'demo-fr');
  const ids = await eventIds(request, 'demo-fr');
  await page.goto(`${SITE_FR}/watch/${ids['free-finished'] ?? Object.values(ids)[0]}`);
  const site = app(page);
  await expectPlaying(site);
  await site.locator('[part~="clip-button"]').click();
  const panel = site.locator('[part~="clip-panel"]');
  await panel.locator('[part~="clip-submit"]').click();
  await expect(panel.locator('[part~="field-error"]')).toHaveText([
    'Veuillez remplir le champ',
    'Veuillez choisir une étiquette',
  ]);
  const name = unique('But du match');
  await panel.locator('[part~="clip-name"] input').fill(name);
  await panel.locator('[part~="clip-tag"]').first().click();
  await panel.locator('[part~="clip-submit"]').click();
  await expect(panel.locator('[part~="clip-ready"]')).toBeVisible({ timeout: 60_000 });
  const link = await copiedLink(page, panel);
  expect(link.startsWith(`${SITE_FR}/share/`)).toBe(true);
  const guest = await asGuest(browser, link);
  await expect(app(guest.page).locator('h1[part~="page-title"]')).toHaveText('Extrait partagé', { timeout: 15_000 });
  await expect(app(guest.page)).toContainText(name);
  await app(guest.page).locator('[part~="button"][part~="play"]').click();
  await expectPlaying(app(guest.page));
  await guest.close();
});
