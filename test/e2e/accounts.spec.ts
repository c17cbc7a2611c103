// Accounts end to end: <channel-profile> on the demo pages against the reference server (its outbox, social
// stand-in pages and TV device codes). Every test that registers makes its own account, so tests run side by side.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { BUNDLE_ORIGIN } from './helpers';

test.describe.configure({ timeout: 60_000 });
// Refused forms (wrong password, taken email) answer 422, which the browser logs as a failed resource.
test.use({ allowConsoleErrors: [/status of 422/] });

/** A fresh email per call, so tests never share an account. */
let serial = 0;
const freshEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${process.pid}-${serial++}@example.com`;

/** The links of the newest email the server "sent" to `to` (GET /__dev/outbox). */
async function outboxLinks(request: APIRequestContext, to: string): Promise<string[]> {
  let links: string[] = [];
  await expect
    .poll(async () => {
      const body = (await (await request.get(`${BUNDLE_ORIGIN}/__dev/outbox?to=${encodeURIComponent(to)}`)).json()) as {
        data: { links: string[] }[];
      };
      links = body.data[0]?.links ?? [];
      return links.length;
    })
    .toBeGreaterThan(0);
  return links;
}

/** A fresh api key of the demo channel. */
async function apiKey(request: APIRequestContext): Promise<string> {
  return (
    (await (await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: 'demo' } })).json()) as {
      data: { api_key: string };
    }
  ).data.api_key;
}

/** Registers an account through the API (for tests about what follows registration). */
async function registerByApi(request: APIRequestContext, email: string, password: string): Promise<void> {
  const key = await apiKey(request);
  const answer = await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/register`, {
    data: {
      api_key: key,
      email,
      password,
      password_confirmation: password,
      first_name: 'Test',
      last_name: 'Viewer',
      terms: true,
    },
  });
  expect(answer.status()).toBe(200);
}

async function openProfile(page: Page, path = '/profile.html'): Promise<Locator> {
  await page.goto(`${BUNDLE_ORIGIN}${path}`);
  const profile = page.locator('channel-profile').first();
  await expect(profile.locator('[part~="sign-in"], [part~="tabs"], [part~="edit"]').first()).toBeVisible({
    timeout: 10_000,
  });
  return profile;
}

async function signIn(profile: Locator, email: string, password: string): Promise<void> {
  const form = profile.locator('[part~="sign-in"]');
  await form.getByLabel(/^Email/).fill(email);
  await form.getByLabel(/^Password/).fill(password);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const signedIn = (profile: Locator) => expect(profile.locator('[part~="sign-out"]')).toBeVisible({ timeout: 10_000 });

test('a wrong password shows the server message by the form, and the email stays', async ({ page }) => {
  const profile = await openProfile(page);
  await signIn(profile, 'viewer@example.com', 'not-the-password');
  await expect(profile.getByText('Invalid email or password. Please try again.')).toBeVisible();
  await expect(profile.locator('[part~="sign-in"]').getByLabel(/^Email/)).toHaveValue('viewer@example.com');
  await expect(profile.locator('[part~="sign-out"]')).toHaveCount(0);
});

test('registration without the terms is refused and nothing is sent; with them, verify-notice then the outbox link verifies', async ({
  page,
  request,
}) => {
  const email = freshEmail('register');
  const profile = await openProfile(page);
  await profile.locator('[part~="to-register"]').click();
  const form = profile.locator('[part~="register"]');
  await form.getByLabel(/^First name/).fill('Rita');
  await form.getByLabel(/^Last name/).fill('Register');
  await form.getByLabel(/^Email/).fill(email);
  await form.getByLabel(/^Password/).fill('rita-pass-1');
  await form.getByLabel(/^Confirm password/).fill('rita-pass-1');
  const sent: string[] = [];
  page.on('request', (r) => r.url().includes('/auth/register') && sent.push(r.url()));
  await form.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(form.getByText(/Please accept terms/).first()).toBeVisible();
  expect(sent).toEqual([]);

  await form.getByLabel(/I accept the terms/).check();
  await form.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(profile.locator('[part~="verify-notice"]')).toContainText(`We sent a link to ${email}`);

  const [link] = await outboxLinks(request, email);
  expect(new URL(link!).pathname).toBe('/verify-email');
  await page.goto(link!);
  await expect(page.locator('channel-profile')).toContainText('Your email address is verified.');
  // The one-time values leave the address bar; the channel the link names stays (a reload still finds it).
  expect([...new URL(page.url()).searchParams.keys()]).toEqual(['channel_key']);
});

test('social sign-in: the Google stand-in round trip signs in and comes back to the page', async ({ page }) => {
  const profile = await openProfile(page);
  await profile.locator('[part~="social-google"]').click();
  await expect(page).toHaveURL(/\/__social\/google\/authorize/);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(`${BUNDLE_ORIGIN}/profile.html`, { timeout: 10_000 });
  await signedIn(page.locator('channel-profile'));
});

test('social sign-in cancelled on the provider page says so', async ({ page }) => {
  const profile = await openProfile(page);
  await profile.locator('[part~="social-facebook"]').click();
  await expect(page).toHaveURL(/\/__social\/facebook\/authorize/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('channel-profile')).toContainText('Sign-in was cancelled.', { timeout: 10_000 });
});

test('a temporary password cannot leave the edit screen until a new one is saved', async ({ page }) => {
  const profile = await openProfile(page);
  await signIn(profile, 'temp@example.com', 'temp-pass-1');
  await expect(profile.locator('[part~="edit"]')).toBeVisible();
  await expect(profile).toContainText('You signed in with a temporary password.');
  await expect(profile.locator('[part~="tab"]')).toHaveCount(0);
  // The host asks for another section: still the edit screen.
  await page.evaluate(() => document.querySelector('channel-profile')!.setAttribute('section', 'orders'));
  await expect(profile.locator('[part~="edit"]')).toBeVisible();
  await expect(profile.locator('[part~="orders"]')).toHaveCount(0);
  // Saving without a new password is refused; the temporary password itself is asked for as the current one.
  await expect(profile.getByLabel('Current password')).toBeVisible();
  await profile.locator('[part~="edit"]').getByRole('button', { name: 'Save', exact: true }).click();
  await expect(profile.locator('[part~="field-error"]').first()).toBeVisible();
  await expect(profile.locator('[part~="tab"]')).toHaveCount(0);
});

test('changing the password asks for the current one, refuses a wrong one, and ends the other sessions', async ({
  page,
  request,
}) => {
  const email = freshEmail('change');
  await registerByApi(request, email, 'first-pass-1');
  // Another device signed in with the same account.
  const key = (
    (await (await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: 'demo' } })).json()) as {
      data: { api_key: string };
    }
  ).data.api_key;
  const other = (
    (await (
      await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/login`, {
        data: { api_key: key, email, password: 'first-pass-1' },
      })
    ).json()) as {
      data: { token: string };
    }
  ).data.token;
  const profile = await openProfile(page);
  await signIn(profile, email, 'first-pass-1');
  await signedIn(profile);
  await page.evaluate(() => document.querySelector('channel-profile')!.setAttribute('section', 'edit'));
  const edit = profile.locator('[part~="edit"]');
  await edit.getByLabel('New password', { exact: true }).fill('second-pass-2');
  await edit.getByLabel('Confirm the new password', { exact: true }).fill('second-pass-2');
  await edit.getByLabel('Current password').fill('not-my-password');
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(edit).toContainText('The current password is incorrect.');
  await edit.getByLabel('Current password').fill('first-pass-1');
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(edit).toContainText('Your profile was saved.');
  const after = await request.get(`${BUNDLE_ORIGIN}/api/profile?api_key=${key}`, {
    headers: { Authorization: `Bearer ${other}` },
  });
  expect(after.status()).toBe(401);
});

test('signing in inside <channel-profile> unlocks the subscriber-only <channel-player> on the page, without a reload', async ({
  page,
}) => {
  const profile = await openProfile(page);
  const player = page.locator('#subscriber-player');
  await expect(player.locator('[part~="paywall"]')).toBeVisible({ timeout: 10_000 });
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await signIn(profile, 'fan@example.com', 'fan-pass-1');
  await signedIn(profile);
  await expect(player.locator('[part~="paywall"]')).toHaveCount(0, { timeout: 10_000 });
  await expect(player.locator('video')).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
});

test('logout clears the user and fetches a fresh anonymous api key', async ({ page }) => {
  const profile = await openProfile(page);
  await signIn(profile, 'viewer@example.com', 'viewer-pass-1');
  await signedIn(profile);
  const storedKey = () =>
    page.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith('rudy_api_key.'))
        .map((k) => localStorage.getItem(k))
        .join(),
    );
  const before = await storedKey();
  expect(before).not.toBe('');
  const keyRequest = page.waitForRequest((r) => r.url().endsWith('/api/get_api_key') && r.method() === 'POST');
  const logout = page.waitForRequest((r) => r.url().endsWith('/api/auth/logout'));
  await profile.locator('[part~="sign-out"]').click();
  await logout;
  await keyRequest;
  await expect(profile.locator('[part~="sign-in"]')).toBeVisible();
  await expect.poll(storedKey).not.toBe(before);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('rudy_token.')))).toEqual([]);
});

test('signing in in one tab signs the other tab in too', async ({ context }) => {
  const first = await context.newPage();
  const second = await context.newPage();
  const one = await openProfile(first);
  const two = await openProfile(second);
  await signIn(one, 'viewer@example.com', 'viewer-pass-1');
  await signedIn(one);
  await signedIn(two);
});

test('password reset: the emailed link sets a new password that then signs in', async ({ page, request }) => {
  const email = freshEmail('reset');
  await registerByApi(request, email, 'first-pass-1');
  const profile = await openProfile(page);
  await profile.locator('[part~="forgot"]').click();
  await profile.getByLabel(/^Email/).fill(email);
  await profile.getByRole('button', { name: 'Send the link' }).click();
  await expect(profile).toContainText(`If an account exists for ${email}`);
  const links = await outboxLinks(request, email);
  const reset = links.find((l) => new URL(l).pathname === '/password-reset')!;
  await page.goto(reset);
  const account = page.locator('channel-profile');
  await account.getByLabel(/^New password/).fill('second-pass-2');
  await account.getByLabel(/^Confirm the new password/).fill('second-pass-2');
  await account.getByRole('button', { name: 'Save the new password' }).click();
  await expect(account).toContainText('Your password was changed.');
  const again = await openProfile(page);
  await signIn(again, email, 'second-pass-2');
  await signedIn(again);
});

test('the account paths open their own screens and the address follows the screen, Back too (phone width, English and French)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`${BUNDLE_ORIGIN}/registration`);
  const profile = page.locator('channel-profile');
  await expect(profile.locator('[part~="register"]')).toBeVisible({ timeout: 10_000 });
  const box = (await profile.boundingBox())!;
  expect(box.x + box.width, 'the element fits the phone').toBeLessThanOrEqual(390);
  await profile.locator('[part~="register"]').getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(profile.locator('[part~="sign-in"]')).toBeVisible();
  await expect(page).toHaveURL(`${BUNDLE_ORIGIN}/login`);
  await profile.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(profile.locator('[part~="reset-request"]')).toBeVisible();
  await expect(page).toHaveURL(`${BUNDLE_ORIGIN}/password-reset-request`);
  await page.goBack();
  await expect(page).toHaveURL(`${BUNDLE_ORIGIN}/login`);
  await expect(profile.locator('[part~="sign-in"]')).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(`${BUNDLE_ORIGIN}/registration`);
  await expect(profile.locator('[part~="register"]')).toBeVisible();
  // A reload of an address the element moved to opens the same screen.
  await page.goto(`${BUNDLE_ORIGIN}/password-reset-request`);
  await expect(profile.locator('[part~="reset-request"]')).toBeVisible({ timeout: 10_000 });
  await profile.evaluate((el) => el.setAttribute('lang', 'fr'));
  await expect(profile.locator('[part~="reset-request"]').getByRole('heading')).toHaveText(
    'Réinitialiser votre mot de passe',
  );
});

test("a signed-in viewer opening another account's reset link is told so, signs out from there and sets that account's password", async ({
  page,
  request,
}) => {
  const mine = freshEmail('signed-in');
  const theirs = freshEmail('other');
  await registerByApi(request, mine, 'mine-pass-1');
  await registerByApi(request, theirs, 'their-pass-1');
  await request.post(`${BUNDLE_ORIGIN}/api/auth/password-reset-request`, {
    data: { api_key: await apiKey(request), email: theirs },
  });
  const reset = (await outboxLinks(request, theirs)).find((l) => new URL(l).pathname === '/password-reset')!;

  const profile = await openProfile(page, '/login');
  await signIn(profile, mine, 'mine-pass-1');
  await signedIn(profile);
  await page.goto(reset);
  const account = page.locator('channel-profile');
  await expect(account.locator('[part~="signed-in-as"]')).toHaveText(
    `This link is for ${theirs}, but you are signed in as ${mine}. Sign out to choose a new password for ${theirs}.`,
    { timeout: 10_000 },
  );
  await expect(account.getByLabel(/^New password/)).toHaveCount(0);
  await account.getByRole('button', { name: 'Sign out and continue' }).click();
  await account.getByLabel(/^New password/).fill('their-pass-2');
  await account.getByLabel(/^Confirm the new password/).fill('their-pass-2');
  await account.getByRole('button', { name: 'Save the new password' }).click();
  await expect(account).toContainText('Your password was changed.');
  // The link's channel stays in the address (a reload on a server of several channels keeps it); its token goes.
  await expect(page).toHaveURL(`${BUNDLE_ORIGIN}/login?channel_key=demo`);
  await signIn(account, theirs, 'their-pass-2');
  await signedIn(account);
});

test('account deletion: confirmed through the emailed link, after which the account cannot sign in', async ({
  page,
  request,
}) => {
  const email = freshEmail('delete');
  await registerByApi(request, email, 'delete-pass-1');
  const profile = await openProfile(page);
  await signIn(profile, email, 'delete-pass-1');
  await signedIn(profile);
  await profile.getByRole('tab', { name: 'Edit profile' }).click();
  await profile.getByRole('button', { name: 'Delete account' }).click();
  await profile.getByRole('button', { name: 'Send the confirmation link' }).click();
  await expect(profile).toContainText('We sent you a link to confirm the deletion of your account.');
  const links = await outboxLinks(request, email);
  const confirm = links.find((l) => new URL(l).pathname === '/confirm-account-deletion')!;
  await page.goto(confirm);
  const account = page.locator('channel-profile');
  await account.getByRole('button', { name: 'Delete my account' }).click();
  await expect(account).toContainText('Your account was deleted.');
  const again = await openProfile(page);
  await signIn(again, email, 'delete-pass-1');
  await expect(again.getByText('Invalid email or password. Please try again.')).toBeVisible();
});

test('favourites: a team added in the profile appears, then is removed', async ({ page, request }) => {
  const email = freshEmail('favourites');
  await registerByApi(request, email, 'fav-pass-1');
  const profile = await openProfile(page);
  await signIn(profile, email, 'fav-pass-1');
  await signedIn(profile);
  await profile.getByRole('tab', { name: 'Favourites' }).click();
  const panel = profile.locator('[part~="favourites"]');
  const teams = panel.locator('[part~="favourite-group"]').first();
  const picker = teams.locator('select');
  await expect(picker).toBeVisible();
  // The channel's teams load with the panel: wait for them before choosing.
  await expect.poll(() => picker.locator('option').count()).toBeGreaterThan(1);
  const option = (await picker.locator('option').allTextContents()).find(
    (text) => text.trim() && !/choose|select/i.test(text),
  )!;
  await picker.selectOption({ label: option });
  await teams.locator('[part~="favourite-add"]').getByRole('button', { name: 'Add', exact: true }).click();
  await expect(teams.locator('[part~="favourite"]')).toContainText([option]);
  await teams.locator('[part~="favourite-remove"]').first().click();
  await expect(teams.locator('[part~="favourite"]')).toHaveCount(0);
});

test.describe('device linking', () => {
  // Both change or depend on the channel's remote_auth setting: one after the other.
  test.describe.configure({ mode: 'serial' });
  test.afterAll(async ({ request }) => {
    await request.delete(`${BUNDLE_ORIGIN}/__dev/settings?channel_key=demo`);
  });

  test('with remote auth on, the code a TV shows links it', async ({ context }) => {
    const tv = await context.newPage();
    await tv.goto(`${BUNDLE_ORIGIN}/tv.html`);
    await expect(tv.locator('#tv-code')).toHaveText(/^[A-Z2-9]{6}$/, { timeout: 10_000 });
    const code = (await tv.locator('#tv-code').textContent())!;
    const page = await context.newPage();
    const profile = await openProfile(page);
    await signIn(profile, 'fan@example.com', 'fan-pass-1');
    await signedIn(profile);
    await profile.getByRole('tab', { name: 'Devices' }).click();
    await profile.getByLabel(/^Device code/).fill(code);
    await profile.getByRole('button', { name: 'Link device' }).click();
    await expect(profile).toContainText('Your device is now linked.');
    await expect(tv.locator('#tv-status')).toContainText('Linked to fan@example.com', { timeout: 10_000 });
  });

  test('with remote auth off, section="devices" shows the active orders and there is no Devices tab', async ({
    page,
    request,
  }) => {
    await request.post(`${BUNDLE_ORIGIN}/__dev/settings?channel_key=demo`, { data: { auth: { remote_auth: 0 } } });
    await page.goto(`${BUNDLE_ORIGIN}/profile.html`);
    await page.evaluate(() => document.querySelector('channel-profile')!.setAttribute('section', 'devices'));
    const profile = page.locator('channel-profile');
    await signIn(profile, 'fan@example.com', 'fan-pass-1');
    await signedIn(profile);
    await expect(profile.locator('[part~="orders"]')).toBeVisible();
    await expect(profile.getByRole('tab', { name: 'Devices' })).toHaveCount(0);
    await expect(profile.locator('[part~="devices"]')).toHaveCount(0);
  });
});

test('fan@example.com sees active orders with statuses and auto-renewal, and transactions with their labels', async ({
  page,
}) => {
  const profile = await openProfile(page);
  await signIn(profile, 'fan@example.com', 'fan-pass-1');
  await signedIn(profile);
  const orders = profile.locator('[part~="orders"]');
  await expect(orders.locator('[part~="order"]').first()).toBeVisible();
  await expect(orders).toContainText('Auto-renewal: Active');
  await profile.getByRole('tab', { name: 'Transactions' }).click();
  await expect(profile.locator('[part~="transactions"]')).toContainText('New subscription');
});

test('in French: sign-in texts and the server message', async ({ page }) => {
  await page.goto(`${BUNDLE_ORIGIN}/profile.html`);
  await page.evaluate(() => document.querySelector('channel-profile')!.setAttribute('lang', 'fr'));
  const profile = page.locator('channel-profile');
  const form = profile.locator('[part~="sign-in"]');
  await expect(form.getByRole('heading')).toHaveText('Connexion', { timeout: 10_000 });
  await form.getByLabel(/^E-mail/).fill('viewer@example.com');
  await form.getByLabel(/^Mot de passe/).fill('wrong-password');
  await form.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await expect(profile.getByText('E-mail ou mot de passe invalide. Veuillez réessayer.')).toBeVisible();
});

test('axe finds no WCAG 2.1 A/AA violations in sign-in, registration and the signed-in profile', async ({
  page,
  makeAxeBuilder,
}) => {
  const profile = await openProfile(page);
  expect((await makeAxeBuilder().include('channel-profile').analyze()).violations).toEqual([]);
  await profile.locator('[part~="to-register"]').click();
  await expect(profile.locator('[part~="register"]')).toBeVisible();
  expect((await makeAxeBuilder().include('channel-profile').analyze()).violations).toEqual([]);
  await profile.locator('[part~="register"]').getByRole('button', { name: 'Sign in' }).click();
  await signIn(profile, 'fan@example.com', 'fan-pass-1');
  await signedIn(profile);
  await expect(profile.locator('[part~="order"]').first()).toBeVisible();
  expect((await makeAxeBuilder().include('channel-profile').analyze()).violations).toEqual([]);
});

test("<channel-schedule favourites> asks a guest to sign in, then shows the favourites' events once signed in", async ({
  page,
}) => {
  const profile = await openProfile(page);
  const schedule = page.locator('#favourite-schedule');
  await expect(schedule.locator('[part~="sign-in"]')).toBeVisible({ timeout: 10_000 });
  await signIn(profile, 'fan@example.com', 'fan-pass-1');
  await signedIn(profile);
  await expect(schedule.locator('[part~="event-link"]').first()).toBeVisible({ timeout: 10_000 });
  await expect(schedule.locator('[part~="sign-in"]')).toHaveCount(0);
});

test('the star on a schedule card follows a team of the event', async ({ page, request }) => {
  const email = freshEmail('star');
  await registerByApi(request, email, 'star-pass-1');
  const profile = await openProfile(page);
  await signIn(profile, email, 'star-pass-1');
  await signedIn(profile);
  await page.goto(`${BUNDLE_ORIGIN}/schedule.html`);
  const schedule = page.locator('channel-schedule').first();
  const card = schedule.locator('[part~="event"]').first();
  await card.locator('[part~="favourite"]').click();
  const popover = schedule.locator('[part~="favourite-popover"]');
  await expect(popover).toBeVisible();
  await popover.locator('[part~="favourite-toggle"]').first().click();
  await page.keyboard.press('Escape');
  await expect(popover).toHaveCount(0);
  await expect(card.locator('[part~="favourite-following"]')).toHaveCount(1);
});
