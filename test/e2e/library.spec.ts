// The video-on-demand library end to end: <channel-app>'s /vod_library on the CMS host (another origin, loaded by
// the script tag) against the reference server's seeded library. Rails, categories, search as you type and its
// empty state, playback of a free item, a locked item as a guest and then unlocked, French on demo-fr, a phone
// width, axe; and <channel-schedule kind="library"> on a plain CMS page.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { BUNDLE_ORIGIN, HOST_ORIGIN } from './helpers';

test.describe.configure({ timeout: 60_000 });

const SITE = `${HOST_ORIGIN}/site`;
const SITE_FR = `${HOST_ORIGIN}/site-fr`;

const app = (page: Page): Locator => page.locator('channel-app');
const rails = (page: Page): Locator => app(page).locator('[part~="library-rail"]');
const cards = (scope: Locator): Locator => scope.locator('[part~="library-card"]');

/** Signs in through the API and stores the token where the session reads it (before any page script). */
async function signIn(page: Page, request: APIRequestContext, email: string, password: string): Promise<void> {
  const key = (
    (await (await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: 'demo' } })).json()) as {
      data: { api_key: string };
    }
  ).data.api_key;
  const login = (await (
    await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/login`, { data: { api_key: key, email, password } })
  ).json()) as { data: { token: string } };
  await page.addInitScript(
    (token) => localStorage.setItem('rudy_token.demo', JSON.stringify({ v: token, e: Date.now() + 3_600_000 })),
    login.data.token,
  );
}

/** Waits for the video of the page's player to show frames and move. */
async function expectPlaying(player: Locator): Promise<void> {
  const video = player.locator('video[part~="video"]');
  await expect(video).toHaveCount(1, { timeout: 15_000 });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.currentTime > 0.2), { timeout: 20_000 })
    .toBe(true);
}

test('the library: rails with cards 280 to 380 px wide, categories, search as you type and its empty state; axe clean', async ({
  page,
  makeAxeBuilder,
}) => {
  // Reached from the channel's menu.
  await page.goto(`${SITE}/`);
  await app(page).getByRole('link', { name: 'Library', exact: true }).click();
  await expect(page).toHaveURL(`${SITE}/vod_library`);
  await expect(app(page).locator('h1[part~="page-title"]')).toHaveText('Video library', { timeout: 15_000 });
  await expect(rails(page).first()).toBeVisible({ timeout: 15_000 });
  expect(await rails(page).count()).toBeGreaterThanOrEqual(3);
  for (const rail of await rails(page).all()) {
    await expect(rail.locator('[part~="library-rail-title"]')).not.toBeEmpty();
    expect(await cards(rail).count()).toBeGreaterThan(1);
  }
  const widths = await cards(rails(page).first()).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
  for (const width of widths) {
    expect(width).toBeGreaterThanOrEqual(280);
    expect(width).toBeLessThanOrEqual(380);
  }

  // Hovering a card swaps its picture for the preview loop.
  const first = cards(rails(page).first()).first();
  await first.hover();
  await expect(first.locator('video[part~="library-card-preview"]')).toHaveCount(1);

  // Categories: choosing one lists its items.
  const categories = app(page).locator('[part~="categories"]');
  const category = categories.locator('[part~="category"]:not([part~="category-all"])').first();
  await category.click();
  await expect(cards(app(page).locator('[part~="category-items"]')).first()).toBeVisible();

  // Search as you type: debounced (fewer requests than keys, however slow the machine types), and the last one
  // is for the whole word, with the spec's defaults.
  const searches: URL[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/vod-media/search') searches.push(url);
  });
  const input = app(page).locator('[part~="search-input"]');
  await input.pressSequentially('final', { delay: 40 });
  const results = app(page).locator('[part~="results"]');
  await expect(cards(results).first()).toBeVisible();
  await expect.poll(() => searches.at(-1)?.searchParams.get('title')).toBe('final');
  expect(searches.length).toBeLessThan('final'.length);
  expect(Object.fromEntries(searches.at(-1)!.searchParams)).toMatchObject({
    title: 'final',
    limit: '10',
    offset: '0',
    sort_field: 'date',
  });
  await expect(async () => {
    for (const title of await cards(results).locator('[part~="library-card-title"]').allTextContents())
      expect(title.toLowerCase()).toContain('final');
  }).toPass();
  await expect(app(page).locator('[part~="search-status"]')).toContainText(/\d+ videos? found/);

  await input.fill('zzz no such video');
  await expect(results.locator('[part~="empty"]')).toHaveText('No videos match “zzz no such video”');
  expect((await makeAxeBuilder().analyze()).violations).toEqual([]);

  // Clearing the search goes back to what was shown before it: the chosen category.
  await input.fill('');
  await expect(cards(app(page).locator('[part~="category-items"]')).first()).toBeVisible();
});

test('a free item plays for a guest; a locked one says what unlocks it and plays once a subscriber signs in', async ({
  page,
  request,
}) => {
  await page.goto(`${SITE}/vod_library`);
  await expect(rails(page).first()).toBeVisible({ timeout: 15_000 });
  // A free card (no lock) opens its watch page and plays.
  const free = app(page).locator('[part~="library-card"]:not([part~="library-card-locked"])').first();
  const title = (await free.locator('[part~="library-card-title"]').textContent())!;
  await free.click();
  await expect(page).toHaveURL(/\/site\/watch_library\/\d+$/);
  await expect(app(page).locator('h1[part~="page-title"]')).toHaveText(title);
  await expectPlaying(app(page));

  // A paid item, for a guest: the card says who may watch it; its page does not play.
  await page.goto(`${SITE}/vod_library`);
  const locked = app(page).locator('[part~="library-card-locked"]').filter({ hasText: 'Subscribers and VOD members' });
  await expect(locked.first()).toBeVisible({ timeout: 15_000 });
  const href = (await locked.first().getAttribute('href'))!;
  await locked.first().click();
  await expect(page).toHaveURL(new RegExp(`${href.replace(/[/.]/g, '\\$&')}$`));
  await expect(app(page).locator('video[part~="video"]')).toHaveCount(0);
  await expect(app(page).locator('[part~="player"]')).toContainText(/sign in|subscri|pass/i);

  // The same page for a subscriber (vod_media_access) plays.
  const context = await page.context().browser()!.newContext();
  const subscriber = await context.newPage();
  await signIn(subscriber, request, 'subscriber@demo-sports.example', 'demo-password');
  await subscriber.goto(`${HOST_ORIGIN}${href}`);
  await expectPlaying(subscriber.locator('channel-app'));
  await context.close();
});

test('French on demo-fr, at phone width: the library and its search read in French; axe clean', async ({
  page,
  makeAxeBuilder,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${SITE_FR}/vod_library`);
  await expect(app(page).locator('h1[part~="page-title"]')).toHaveText('Vidéothèque', { timeout: 15_000 });
  await expect(rails(page).first()).toBeVisible({ timeout: 15_000 });
  const width = await cards(rails(page).first())
    .first()
    .evaluate((e) => e.getBoundingClientRect().width);
  expect(width).toBeGreaterThanOrEqual(280);
  expect(width).toBeLessThanOrEqual(380);
  // Nothing sticks out of the phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(app(page).locator('[part~="library-card-lock"]').first()).toHaveText(
    /^(Connectez-vous pour regarder|Abonnés et membres vidéo sur demande)$/,
  );
  await app(page).locator('[part~="search-input"]').fill('zzz aucune vidéo');
  await expect(app(page).locator('[part~="results"] [part~="empty"]')).toHaveText(
    'Aucune vidéo ne correspond à « zzz aucune vidéo »',
  );
  expect((await makeAxeBuilder().analyze()).violations).toEqual([]);
});

test('<channel-schedule kind="library"> on a CMS page: a card chosen by keyboard fires channel-vod-select and the host plays it', async ({
  page,
  makeAxeBuilder,
}) => {
  await page.goto('/library.html');
  const library = page.locator('channel-schedule#library');
  await expect(library.locator('[part~="library-rail"]').first()).toBeVisible({ timeout: 15_000 });
  const free = library.locator('[part~="library-card"]:not([part~="library-card-locked"])').nth(1);
  const id = /\/watch_library\/(\d+)$/.exec((await free.getAttribute('href'))!)![1]!;
  await free.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#event-log')).toHaveText(
    `channel-vod-select: item ${id} (plays below; the link was cancelled)`,
  );
  await expect(page).toHaveURL(/\/library\.html$/);
  const player = page.locator('channel-player#library-player');
  await expect(player).toHaveAttribute('vod-id', id);
  await player.locator('[part~="button"][part~="play"]').click();
  await expectPlaying(player);
  expect((await makeAxeBuilder().analyze()).violations).toEqual([]);
});
