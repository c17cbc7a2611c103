// <channel-checkout> end to end on the demo's checkout page: the reference server's payments in test mode, the
// Stripe.js test double (/stripe-test-double.js, installed by the page before the bundle) and Stripe's test cards.
// Every test buys as its own freshly registered viewer, so tests run side by side without sharing orders.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { BUNDLE_ORIGIN, HOST_ORIGIN, devOrders, enterCard } from './helpers';

test.describe.configure({ timeout: 60_000 });
// Refused forms (a bad coupon, a team pass without a team) answer 422; the card errors of the fake Stripe 402.
test.use({ allowConsoleErrors: [/status of (422|402)/] });

const CARD_OK = '4242 4242 4242 4242';
const CARD_DECLINED = '4000 0000 0000 0002';
const CARD_NO_FUNDS = '4000 0000 0000 9995';
const CARD_AUTH = '4000 0025 0000 3155';

let serial = 0;
const freshEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${process.pid}-${serial++}@example.com`;

async function apiKey(request: APIRequestContext): Promise<string> {
  const body = (await (
    await request.post(`${BUNDLE_ORIGIN}/api/get_api_key`, { data: { channel_key: 'demo' } })
  ).json()) as {
    data: { api_key: string };
  };
  return body.data.api_key;
}

/** Registers a fresh viewer and stores their sign-in where the session reads it, before the page loads. */
async function signedInViewer(
  page: Page,
  request: APIRequestContext,
  tag: string,
): Promise<{ email: string; token: string }> {
  const email = freshEmail(tag);
  const answer = await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/register`, {
    data: {
      api_key: await apiKey(request),
      email,
      password: 'buyer-pass-1',
      password_confirmation: 'buyer-pass-1',
      first_name: 'Bea',
      last_name: 'Buyer',
      terms: true,
    },
  });
  const token = ((await answer.json()) as { data: { token: string } }).data.token;
  await page.addInitScript(
    (value) => localStorage.setItem('rudy_token.demo', JSON.stringify({ v: value, e: Date.now() + 3_600_000 })),
    token,
  );
  return { email, token };
}

async function openCheckout(page: Page, query: string): Promise<Locator> {
  await page.goto(`${BUNDLE_ORIGIN}/checkout.html?${query}`);
  const checkout = page.locator('#checkout');
  await expect(checkout.locator('[part~="summary"], [part~="offers"], [part~="sign-in"]').first()).toBeVisible({
    timeout: 10_000,
  });
  return checkout;
}

const total = (checkout: Locator) => checkout.locator('[part~="total"]').first().innerText();

test('buys the single-event pass with 4242: paid, then the player on the page plays and the schedule shows it purchased', async ({
  page,
  request,
}) => {
  await signedInViewer(page, request, 'single');
  const checkout = await openCheckout(page, 'event=paid-live');
  const player = page.locator('#checkout-player');
  await expect(player.locator('[part~="paywall"]')).toBeVisible({ timeout: 10_000 });
  const schedule = page.locator('#checkout-schedule');
  await expect(schedule.locator('[part~="event-link"]').first()).toBeVisible({ timeout: 10_000 });
  await expect(schedule.locator('[part~="badge-purchased"]')).toHaveCount(0);
  await expect(checkout.locator('[part~="taxes"]')).toBeVisible();
  await expect(checkout.locator('[part~="terms"], [part~="final"]').first()).toContainText('All sales are final');
  await enterCard(checkout, CARD_OK);
  await checkout.locator('[part~="pay"]').click();
  // Stripe answers 4242 at once: the order comes back paid.
  await expect(checkout.locator('[part~="success"]')).toContainText('Payment successful', { timeout: 20_000 });
  // The purchase reaches the player on the same page: unlocked, and it plays.
  await expect(player.locator('[part~="paywall"]')).toHaveCount(0, { timeout: 10_000 });
  // ...and to the schedule, whose paid game now reads as purchased.
  await expect(schedule.locator('[part~="badge-purchased"]')).toHaveCount(1, { timeout: 10_000 });
  await player.locator('[part~="play"]').click();
  await expect
    .poll(() => player.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
    .toBeGreaterThan(0.5);
});

test('a declined card shows its message in a popup and no order is paid', async ({ page, request }) => {
  const { email } = await signedInViewer(page, request, 'declined');
  const checkout = await openCheckout(page, 'event=paid-live');
  await enterCard(checkout, CARD_DECLINED);
  await checkout.locator('[part~="pay"]').click();
  const dialog = checkout.locator('[part~="failed-dialog"]');
  await expect(dialog).toContainText('Your card was declined.', { timeout: 20_000 });
  expect((await devOrders(request, email)).filter((o) => o.status.toLowerCase() === 'paid')).toEqual([]);
  await dialog.locator('[part~="failed-ok"]').click();
  await expect(checkout.locator('[part~="payment"]')).toBeVisible();
});

test('a card without funds shows "Your card has insufficient funds."', async ({ page, request }) => {
  const { email } = await signedInViewer(page, request, 'funds');
  const checkout = await openCheckout(page, 'event=paid-live');
  await enterCard(checkout, CARD_NO_FUNDS);
  await checkout.locator('[part~="pay"]').click();
  await expect(checkout.locator('[part~="failed-dialog"]')).toContainText('Your card has insufficient funds.', {
    timeout: 20_000,
  });
  expect((await devOrders(request, email)).filter((o) => o.status.toLowerCase() === 'paid')).toEqual([]);
});

test('coupons: a bad code says "Promo code is invalid", a good one lowers the total', async ({ page, request }) => {
  await signedInViewer(page, request, 'coupon');
  const checkout = await openCheckout(page, 'package=1');
  const before = await total(checkout);
  const coupon = checkout.locator('[part~="coupon"]');
  await coupon.getByLabel('Promo code').fill('NOT-A-CODE');
  await coupon.locator('[part~="coupon-apply"]').click();
  await expect(checkout.locator('[part~="coupon-error"]')).toHaveText('Promo code is invalid');
  expect(await total(checkout)).toBe(before);
  await coupon.getByLabel('Promo code').fill('SAVE10');
  await coupon.locator('[part~="coupon-apply"]').click();
  await expect(checkout.locator('[part~="discount"]')).toBeVisible();
  await expect.poll(() => total(checkout)).not.toBe(before);
});

test('a team pass asks for a team before it can be bought', async ({ page, request }) => {
  await signedInViewer(page, request, 'team');
  const checkout = await openCheckout(page, 'package=2');
  const select = checkout.locator('[part~="team-select"] select, select[part~="team-select"]').first();
  await expect(select).toBeVisible();
  await expect.poll(() => select.locator('option').count()).toBeGreaterThan(1);
  // No team yet: the refusal message, and no way on to payment.
  await expect(checkout.getByRole('alert')).toContainText('Package is TeamPass but team not selected');
  await expect(checkout.locator('[part~="continue"]')).toBeDisabled();
  const team = (await select.locator('option').allTextContents()).find(
    (text) => text.trim() && !text.includes('Choose'),
  )!;
  // A team with squads of its own (the seed's Northfield men's soccer): the pass covers them too, and says so.
  await select.selectOption({ label: "Northfield Huskies Men's Soccer" });
  await expect(checkout.locator('[part~="team-children"]')).toHaveText(
    "This pass covers its teams too: Northfield Huskies Men's Soccer Reserves and Northfield Huskies Men's Soccer U21.",
  );
  await select.selectOption({ label: team });
  await checkout.locator('[part~="continue"]').click();
  await expect(checkout.locator('[part~="payment"]')).toBeVisible();
});

test('the monthly subscription starts its free trial with a card', async ({ page, request }) => {
  const { email } = await signedInViewer(page, request, 'trial');
  const checkout = await openCheckout(page, 'subscription=1');
  await expect(checkout.locator('[part~="renewal"]')).toContainText('Renews every 30 days');
  await expect(checkout.locator('[part~="trial"]').first()).toContainText('7 days');
  await enterCard(checkout, CARD_OK);
  await checkout.locator('[part~="pay"]').click();
  await expect(checkout.locator('[part~="success"]')).toContainText('free trial', { timeout: 20_000 });
  expect((await devOrders(request, email)).map((o) => o.type)).toEqual(['subscription']);
});

test('a reload while the payment is processing picks the wait up again', async ({ page, request }) => {
  await signedInViewer(page, request, 'reload');
  const checkout = await openCheckout(page, 'event=paid-live');
  // A card that asks for 3-D Secure: the order waits for the bank's challenge.
  await enterCard(checkout, CARD_AUTH);
  await checkout.locator('[part~="pay"]').click();
  const frame = page.locator('dialog.stripe-double-challenge iframe');
  await expect(frame).toBeVisible({ timeout: 10_000 });
  const challenge = (await frame.getAttribute('src'))!;
  await page.reload();
  const again = page.locator('#checkout');
  await expect(again.locator('[part~="waiting"]')).toContainText('Processing your payment…', { timeout: 10_000 });
  // The cardholder completes the authentication elsewhere (the bank's app); Stripe's webhook pays the order.
  const done = await request.post(challenge, { form: { result: 'complete' } });
  expect(done.ok(), await done.text()).toBe(true);
  await expect(again.locator('[part~="success"]')).toContainText('Payment successful', { timeout: 20_000 });
});

test('a double click on Pay buys once', async ({ page, request }) => {
  const { email } = await signedInViewer(page, request, 'double');
  const checkout = await openCheckout(page, 'event=paid-live');
  await enterCard(checkout, CARD_OK);
  const buys: string[] = [];
  page.on('request', (r) => r.url().endsWith('/api/stripe/buy') && buys.push(r.url()));
  await checkout.locator('[part~="pay"]').dblclick();
  await expect(checkout.locator('[part~="success"]')).toContainText('Payment successful', { timeout: 20_000 });
  expect(buys).toHaveLength(1);
  expect(await devOrders(request, email)).toHaveLength(1);
});

test('a guest is asked to sign in first, and carries on where they were once signed in', async ({ page, request }) => {
  const email = freshEmail('guest');
  const key = await apiKey(request);
  await request.post(`${BUNDLE_ORIGIN}/api/v2/auth/register`, {
    data: {
      api_key: key,
      email,
      password: 'guest-pass-1',
      password_confirmation: 'guest-pass-1',
      first_name: 'Gus',
      last_name: 'Guest',
      terms: true,
    },
  });
  const checkout = await openCheckout(page, 'event=paid-live');
  await expect(checkout.locator('[part~="sign-in"]')).toContainText('Sign in to buy');
  await checkout.locator('[part~="sign-in-button"]').click();
  // <channel-profile> on the page answers the request: its sign-in form, email focused.
  const profile = page.locator('#account');
  const form = profile.locator('[part~="sign-in"]');
  await expect(form.getByLabel(/^Email/)).toBeFocused();
  await form.getByLabel(/^Email/).fill(email);
  await form.getByLabel(/^Password/).fill('guest-pass-1');
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(checkout.locator('[part~="summary"]')).toBeVisible({ timeout: 10_000 });
  await expect(checkout.locator('[part~="sign-in"]')).toHaveCount(0);
});

test('the paywall of the player opens the matching offer in the checkout', async ({ page, request }) => {
  await signedInViewer(page, request, 'paywall');
  const checkout = await openCheckout(page, '');
  const player = page.locator('#checkout-player');
  await player.locator('[part~="offer-button"]').first().click();
  await expect(checkout.locator('[part~="summary"]')).toBeVisible();
});

test('cancel auto-renewal from the profile: processing, then cancelled', async ({ page, request }) => {
  const { email, token } = await signedInViewer(page, request, 'renewal');
  // An annual subscription bought through the API: a ConfirmationToken of a card from the Stripe double (what the
  // Payment Element makes in the browser), then stripe/buy.
  const card = (await (
    await request.post(`${BUNDLE_ORIGIN}/__stripe/v1/confirmation_tokens`, {
      headers: { Authorization: 'Bearer pk_test_demo' },
      form: {
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': '4242424242424242',
        'payment_method_data[card][exp_month]': '12',
        'payment_method_data[card][exp_year]': '2034',
        'payment_method_data[card][cvc]': '123',
      },
    })
  ).json()) as { id: string };
  const bought = await request.post(`${BUNDLE_ORIGIN}/api/stripe/buy`, {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      api_key: await apiKey(request),
      type: 'subscription',
      id: 2,
      confirmation_token: card.id,
      idempotency_key: `e2e-${Date.now()}`,
    },
  });
  expect(bought.status()).toBe(200);
  await expect
    .poll(async () => (await devOrders(request, email)).map((o) => o.status.toLowerCase()), { timeout: 15_000 })
    .toEqual(['paid']);
  await page.goto(`${BUNDLE_ORIGIN}/profile.html`);
  const profile = page.locator('#profile');
  const order = profile.locator('[part~="order"]').filter({ hasText: 'All-Access Annual' });
  await expect(order.locator('[part~="auto-renewal"]')).toHaveText('Auto-renewal: Active', { timeout: 20_000 });
  await order.locator('[part~="cancel-renewal"]').click();
  const confirm = profile.locator('[part~="confirm-dialog"]');
  await expect(confirm).toBeVisible();
  await confirm.locator('[part~="confirm-cancel"]').click();
  await expect(order.locator('[part~="renewal-status"]')).toContainText('Auto-renewal is cancelled', {
    timeout: 10_000,
  });
  await expect(order.locator('[part~="auto-renewal"]')).toHaveText('Auto-renewal: Cancelled');
  await expect(order.locator('[part~="cancel-renewal"]')).toHaveCount(0);
});

test('axe finds no WCAG 2.1 A/AA violations in the offers, the summary and the payment step', async ({
  page,
  request,
  makeAxeBuilder,
}) => {
  await signedInViewer(page, request, 'axe');
  await openCheckout(page, '');
  expect((await makeAxeBuilder().include('#checkout').analyze()).violations).toEqual([]);
  const checkout = await openCheckout(page, 'package=1');
  expect((await makeAxeBuilder().include('#checkout').analyze()).violations).toEqual([]);
  await checkout.locator('[part~="continue"]').click();
  await expect(checkout.locator('[part~="payment"]')).toBeVisible();
  expect((await makeAxeBuilder().include('#checkout').analyze()).violations).toEqual([]);
});

test('on a partner’s page (data-partner, another origin): the order and every analytics call of the visit carry the partner', async ({
  page,
  request,
}) => {
  const { email } = await signedInViewer(page, request, 'partner');
  // A tracker of this visit alone, to find its analytics among the parallel tests'; the page's own partner wins over it.
  const trk = `visit-${Date.now().toString(36)}-${process.pid}-${serial++}`;
  await page.goto(`${HOST_ORIGIN}/partner.html?trk=${trk}`);
  const checkout = page.locator('#checkout');
  await expect(checkout.locator('[part~="summary"]')).toBeVisible({ timeout: 10_000 });
  await enterCard(checkout, CARD_OK);
  await checkout.locator('[part~="pay"]').click();
  await expect(checkout.locator('[part~="success"]')).toContainText('Payment successful', { timeout: 20_000 });
  const [order] = await devOrders(request, email);
  expect(order).toMatchObject({ type: 'package', status: 'paid', partner: 'springfield-gazette' });

  // The datalake: the session and the page view of this visit, each with the partner (and the visit's trk).
  const rows = async () =>
    (
      (await (await request.get(`${BUNDLE_ORIGIN}/__dev/datalake`)).json()) as {
        data: { kind: string; body: Record<string, unknown> }[];
      }
    ).data.filter((row) => row.body.trk === trk);
  await expect
    .poll(async () => (await rows()).map((row) => row.kind).sort(), { timeout: 15_000 })
    .toEqual(expect.arrayContaining(['event', 'session']));
  for (const row of await rows()) expect(row.body, row.kind).toMatchObject({ partner: 'springfield-gazette' });
  // The tag manager: the order's e-commerce events, each with the partner.
  const orderEvents = async () =>
    (
      (await (await request.get(`${BUNDLE_ORIGIN}/__dev/gtag?kind=event`)).json()) as {
        data: { body: { name: string; params: Record<string, unknown> } }[];
      }
    ).data
      .map((row) => row.body)
      .filter((event) => event.params.transaction_id === String(order!.id));
  await expect
    .poll(async () => (await orderEvents()).map((event) => event.name).sort(), { timeout: 15_000 })
    .toEqual(['purchase', 'purchase_success']);
  for (const event of await orderEvents()) expect(event.params.partner, event.name).toBe('springfield-gazette');
});

test('a visitor who landed through a partner’s link (?trk= a slug) on a page without data-partner: the order carries it', async ({
  page,
  request,
}) => {
  const { email } = await signedInViewer(page, request, 'trk');
  const checkout = await openCheckout(page, 'package=1&trk=Acme-News');
  await enterCard(checkout, CARD_OK);
  await checkout.locator('[part~="pay"]').click();
  await expect(checkout.locator('[part~="success"]')).toContainText('Payment successful', { timeout: 20_000 });
  expect((await devOrders(request, email))[0]).toMatchObject({ status: 'paid', partner: 'acme-news' });
});
