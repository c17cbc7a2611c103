// The elements in framework apps, as React and Vue teams build them: test/hosts/react (React 19) and test/hosts/vue
// (Vue 3), each built by Vite from the package's npm entry (`npm run build:hosts`) and served by the CMS host, another
// origin than the API. Both apps pass the same checks as the plain pages: the elements render from the apps' state,
// the apps hear the public events, a viewer plays, signs in and buys with the test card, the language follows the
// app, and mounting and unmounting the elements 20 times leaves nothing behind.
import type { CDPSession, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { demoEventIds, HOST_ORIGIN, registerViewer } from './helpers';

test.describe.configure({ timeout: 90_000 });

/** Each app at one width: React on a desktop, Vue on a phone. */
const APPS = [
  { app: 'react', viewport: { width: 1280, height: 720 } },
  { app: 'vue', viewport: { width: 390, height: 844 } },
] as const;

/** The `<video>` of the page's player has played past half a second. */
async function expectPlaying(player: Locator): Promise<void> {
  await expect
    .poll(() => player.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
    .toBeGreaterThan(0.5);
}

async function openApp(page: Page, app: string): Promise<void> {
  await page.goto(`${HOST_ORIGIN}/hosts/${app}/`);
  await expect(page.locator('channel-schedule [part~="event-link"]').first()).toBeVisible({ timeout: 15_000 });
}

/** Live instances of a class in the page after a garbage collection (the DevTools protocol's queryObjects). */
async function liveInstances(cdp: CDPSession, prototype: string): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  // Our own handles go in a group released at once, so the count never keeps what it counts alive.
  const objectGroup = 'leak-check';
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: prototype, objectGroup });
    const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: result.objectId!, objectGroup });
    const { result: count } = await cdp.send('Runtime.callFunctionOn', {
      objectId: objects.objectId!,
      functionDeclaration: 'function () { return this.length; }',
      returnByValue: true,
    });
    return count.value as number;
  } finally {
    await cdp.send('Runtime.releaseObjectGroup', { objectGroup });
  }
}

for (const { app, viewport } of APPS) {
  test.describe(`${app} host app (${viewport.width} px)`, () => {
    test.use({ viewport });

    test('plays from the schedule, signs in, buys with the test card and plays the bought event, in English and French', async ({
      page,
      request,
    }) => {
      const ids = await demoEventIds(request);
      const viewer = await registerViewer(request, `${app}-host`);
      await openApp(page, app);
      const player = page.locator('channel-player');

      // The schedule's event-select is heard by the app, which cancels the navigation and sets the player's event-id.
      await page
        .locator('channel-schedule')
        .getByRole('link', { name: /State Championship Finals/ })
        .first()
        .click();
      await expect(page).toHaveURL(`${HOST_ORIGIN}/hosts/${app}/`);
      await expect(player).toHaveAttribute('event-id', String(ids['free-live']));
      await expectPlaying(player);
      // A property from the app's state: the media API's muted.
      const muted = () => player.evaluate((el: HTMLElement & { muted: boolean }) => el.muted);
      expect(await muted()).toBe(true);
      await page.locator('#mute').click();
      await expect.poll(muted).toBe(false);
      await expect.poll(() => player.locator('video').evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);
      await page.locator('#mute').click();
      await expect.poll(muted).toBe(true);

      // Signing in through the profile: the app hears channel-login.
      const profile = page.locator('channel-profile');
      const form = profile.locator('[part~="sign-in"]');
      await form.getByLabel(/^Email/).fill(viewer.email);
      await form.getByLabel(/^Password/).fill(viewer.password);
      await form.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page.locator('#account-state')).toHaveText('Signed in', { timeout: 10_000 });

      // The paid game: its paywall's single-event pass opens the app's checkout, which sells it for the test card.
      await page.locator('#event-id').fill(String(ids['paid-live']));
      await page.getByRole('button', { name: 'Watch', exact: true }).click();
      const paywall = player.locator('[part~="paywall"]');
      await expect(paywall).toBeVisible({ timeout: 15_000 });
      await paywall.locator('[part~="offer"]').filter({ hasText: 'Single event pass' }).getByRole('button').click();
      const checkout = page.locator('channel-checkout');
      await expect(checkout).toHaveAttribute('event-id', String(ids['paid-live']));
      await checkout.locator('[part~="continue"]').click({ timeout: 15_000 });
      const card = checkout.locator('[slot="card"]');
      await card.getByLabel('Card number').fill('4242 4242 4242 4242');
      await card.getByLabel(/^Expiry/).fill('12 / 34');
      await card.getByLabel('CVC').fill('123');
      await checkout.locator('[part~="pay"]').click();
      // channel-purchase-complete reaches the app, which closes its checkout; the player unlocks and plays.
      await expect(page.locator('#orders')).toHaveText(/^Order \d+ paid$/, { timeout: 30_000 });
      await expect(checkout).toHaveCount(0);
      await expect(paywall).toHaveCount(0, { timeout: 15_000 });
      // The app asked for autoplay: the bought game starts by itself.
      await expectPlaying(player);

      // Nothing of ours is wider than the app's viewport.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      // The app's language reaches every element through its lang attribute.
      await page.locator('#lang').click();
      for (const tag of ['channel-player', 'channel-schedule', 'channel-profile'])
        await expect(page.locator(`${tag} [part~="frame"]`).first()).toHaveAttribute('lang', 'fr');
      await expect(profile.locator('[part~="sign-out"]')).toHaveText(/Se déconnecter|Déconnexion/);
    });

    test('mounting and unmounting the elements 20 times leaves no players, videos or streams behind', async ({
      page,
    }) => {
      await openApp(page, app);
      await page
        .locator('channel-schedule')
        .getByRole('link', { name: /State Championship Finals/ })
        .first()
        .click();
      const player = page.locator('channel-player');
      await expectPlaying(player);
      const cdp = await page.context().newCDPSession(page);
      const counts = async () => ({
        players: await liveInstances(cdp, "customElements.get('channel-player').prototype"),
        schedules: await liveInstances(cdp, "customElements.get('channel-schedule').prototype"),
        videos: await liveInstances(cdp, 'HTMLVideoElement.prototype'),
        mediaSources: await liveInstances(cdp, 'MediaSource.prototype'),
      });
      const heap = async () => {
        await cdp.send('HeapProfiler.collectGarbage');
        return (await cdp.send('Runtime.getHeapUsage')).usedSize;
      };
      const toggle = page.locator('#toggle');
      const hide = async () => {
        await toggle.click();
        await expect(player).toHaveCount(0);
      };
      const show = async () => {
        await toggle.click();
        // The same event plays again each time: the player's own start-up, stream and all.
        await expectPlaying(player);
      };
      await hide();
      const heapBefore = await heap();
      await show();
      for (let i = 2; i <= 20; i++) {
        await hide();
        await show();
      }
      await expect(page.locator('#mounts')).toHaveText('21');
      // The count sees what is there: the mounted player, its video and its stream.
      const mounted = await counts();
      expect(mounted.players).toBeGreaterThanOrEqual(1);
      expect(mounted.videos).toBeGreaterThanOrEqual(1);
      await hide();
      const heapAfter = await heap();
      // 20 players, schedules, videos and streams were made. React DOM (ours, inside the bundle) keeps a pointer to
      // the last root it rendered until it renders again, so the last removed subtree may stay: at most one of each.
      const left = await counts();
      for (const [kind, count] of Object.entries(left))
        expect(count, `${kind} left: ${JSON.stringify(left)}`).toBeLessThanOrEqual(1);
      // 19 more cycles did not grow the heap by more than a few objects' worth each.
      expect(heapAfter - heapBefore, `heap grew from ${heapBefore} to ${heapAfter} bytes`).toBeLessThan(4_000_000);
      // A removed player asks for nothing more: no segment or playlist requests once it is gone.
      const media: string[] = [];
      page.on('request', (r) => r.url().includes('/media/') && media.push(r.url()));
      await page.waitForTimeout(3_000);
      expect(media).toEqual([]);
    });
  });
}
