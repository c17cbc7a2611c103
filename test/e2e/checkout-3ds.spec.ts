// Card payments through Stripe's Payment Element and 3-D Secure, end to end on the demo's checkout page: the
// reference server charges through the Stripe SDK against its Stripe double, whose browser half
// (/stripe-test-double.js) is the Payment Element and shows the bank's challenge over the page; the double's
// signed webhooks settle the orders. At desktop (1280) and phone (390) widths, in English and French
// (`?lang=fr`). Every test buys as its own freshly registered viewer, so tests run side by side.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  BUNDLE_ORIGIN,
  CARD_3DS,
  completeChallenge,
  devOrders,
  enterCard,
  registerViewer,
  signInWith,
  stripeChallenge,
} from './helpers';

test.describe.configure({ timeout: 60_000 });
// The card errors of the Stripe double answer 402; a failed authentication's order its 422 on a later try.
test.use({ allowConsoleErrors: [/status of (402|422)/] });

const AUTH_ALWAYS = '4000 0027 6000 3184';
const CARD_OK = '4242 4242 4242 4242';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** What each language shows. */
const WORDS = {
  en: {
    success: 'Payment successful',
    trial: 'Your free trial of',
    authFailed:
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    cancel: 'Cancel auto-renewal',
    cancelled: 'Auto-renewal is cancelled',
    portal: 'Manage cards and invoices',
    refunded: 'Refunded',
    renewal: 'Subscription Renewal',
  },
  fr: {
    success: 'Paiement réussi',
    trial: 'Votre essai gratuit de',
    authFailed:
      'Nous ne parvenons pas à authentifier votre moyen de paiement. Veuillez choisir un autre moyen de paiement et réessayer.',
    cancel: 'Annuler le renouvellement automatique',
    cancelled: 'Le renouvellement automatique est annulé',
    portal: 'Gérer les cartes et les factures',
    refunded: 'Remboursée',
    renewal: "Renouvellement d'abonnement",
  },
} as const;
type Lang = keyof typeof WORDS;

/** A fresh viewer, signed in on every page of the context before the bundle. */
async function viewer(page: Page, request: APIRequestContext, tag: string): Promise<string> {
  const { email, token } = await registerViewer(request, tag);
  await signInWith(page.context(), token);
  return email;
}

async function openCheckout(page: Page, query: string, lang: Lang): Promise<Locator> {
  await page.goto(`${BUNDLE_ORIGIN}/checkout.html?${query}&lang=${lang}`);
  const checkout = page.locator('#checkout');
  await expect(checkout.locator('[part~="summary"]')).toBeVisible({ timeout: 10_000 });
  return checkout;
}

/** The Stripe double's payments of a viewer, newest first, with their charges. */
async function stripePayments(
  request: APIRequestContext,
  email: string,
): Promise<
  {
    id: string;
    status: string;
    amount: number;
    currency: string;
    charges: { id: string; refunded: boolean; disputed: boolean }[];
  }[]
> {
  const answer = await request.get(`${BUNDLE_ORIGIN}/__dev/stripe/payments?email=${encodeURIComponent(email)}`);
  expect(answer.ok(), await answer.text()).toBe(true);
  return ((await answer.json()) as { data: never[] }).data;
}

const charges = async (request: APIRequestContext, email: string) =>
  (await stripePayments(request, email)).flatMap((p) => p.charges).length;

const paid = async (request: APIRequestContext, email: string) =>
  (await devOrders(request, email)).filter((o) => o.status.toLowerCase() === 'paid');

for (const [name, viewport, lang] of [
  ['desktop, English', DESKTOP, 'en'],
  ['phone, French', PHONE, 'fr'],
  ['desktop, French', DESKTOP, 'fr'],
  ['phone, English', PHONE, 'en'],
] as const) {
  test.describe(`3-D Secure (${name})`, () => {
    test.use({ viewport });

    test('a PPV event bought with 4000 0025 0000 3155 through the challenge plays on the same page', async ({
      page,
      request,
    }) => {
      const email = await viewer(page, request, `3ds-${lang}`);
      const checkout = await openCheckout(page, 'event=paid-live', lang);
      const player = page.locator('#checkout-player');
      await expect(player.locator('[part~="paywall"]')).toBeVisible({ timeout: 10_000 });
      // Stripe.js's loader (the bundle's `stripe` chunk) comes only with the card step.
      const stripeChunks: string[] = [];
      page.on('request', (r) => /\/chunks\/stripe-[\w-]+\.js$/.test(r.url()) && stripeChunks.push(r.url()));
      await expect(checkout.locator('[part~="total"]').first()).toBeVisible();
      expect(stripeChunks, 'no Stripe on the summary').toEqual([]);
      await enterCard(checkout, CARD_3DS);
      expect(stripeChunks).toHaveLength(1);
      await checkout.locator('[part~="pay"]').click();
      const { dialog, frame } = stripeChallenge(page);
      await expect(dialog).toBeVisible({ timeout: 10_000 });
      // The challenge fits the screen.
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      await frame.getByRole('button', { name: 'Complete authentication' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(checkout.locator('[part~="success"]')).toContainText(WORDS[lang].success, { timeout: 20_000 });
      // The purchase reaches the player on the same page: unlocked, and it plays.
      await expect(player.locator('[part~="paywall"]')).toHaveCount(0, { timeout: 10_000 });
      await player.locator('[part~="play"]').click();
      await expect
        .poll(() => player.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
        .toBeGreaterThan(0.5);
      expect(await paid(request, email)).toHaveLength(1);
      const payments = await stripePayments(request, email);
      expect(payments.map((p) => [p.status, p.charges.length])).toEqual([['succeeded', 1]]);
    });

    test('the challenge failed leaves the event locked, back at the card step with Stripe’s message', async ({
      page,
      request,
    }) => {
      const email = await viewer(page, request, `3ds-fail-${lang}`);
      const checkout = await openCheckout(page, 'event=paid-live', lang);
      const player = page.locator('#checkout-player');
      await enterCard(checkout, AUTH_ALWAYS);
      await checkout.locator('[part~="pay"]').click();
      const { dialog, frame } = stripeChallenge(page);
      await frame.getByRole('button', { name: 'Fail authentication' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(checkout.locator('[part~="pay-error"]')).toHaveText(WORDS[lang].authFailed);
      await expect(checkout.locator('[part~="payment"]')).toBeVisible();
      await expect(checkout.locator('[slot="card"] input').first()).toBeVisible();
      await expect(player.locator('[part~="paywall"]')).toBeVisible();
      // The order fails (Stripe's webhook), nothing is charged, and the event stays locked after a reload.
      await expect
        .poll(async () => (await devOrders(request, email)).map((o) => o.status.toLowerCase()), { timeout: 15_000 })
        .toEqual(['failed']);
      expect(await charges(request, email)).toBe(0);
      await page.reload();
      await expect(page.locator('#checkout-player [part~="paywall"]')).toBeVisible({ timeout: 10_000 });
    });
  });
}

for (const [name, viewport, lang] of [
  ['desktop, English', DESKTOP, 'en'],
  ['phone, French', PHONE, 'fr'],
] as const) {
  test.describe(`subscriptions (${name})`, () => {
    test.use({ viewport });

    test('a subscription with a trial started with a card (its setup authenticated), nothing charged now', async ({
      page,
      request,
    }) => {
      const email = await viewer(page, request, `trial-${lang}`);
      const checkout = await openCheckout(page, 'subscription=1', lang);
      await enterCard(checkout, CARD_3DS);
      await checkout.locator('[part~="pay"]').click();
      await completeChallenge(page);
      await expect(checkout.locator('[part~="success"]')).toContainText(WORDS[lang].trial, { timeout: 20_000 });
      expect((await devOrders(request, email)).map((o) => o.type)).toEqual(['subscription']);
      expect(await charges(request, email), 'a trial charges nothing now').toBe(0);
    });

    test('cancelling auto-renew, then the customer portal round trip', async ({ page, request }) => {
      const email = await viewer(page, request, `renew-${lang}`);
      const checkout = await openCheckout(page, 'subscription=2', lang);
      await enterCard(checkout, CARD_OK);
      await checkout.locator('[part~="pay"]').click();
      await expect(checkout.locator('[part~="success"]')).toContainText(WORDS[lang].success, { timeout: 20_000 });
      expect(await charges(request, email)).toBe(1);
      // The account on this page, read again (it reads its orders when it opens): the order, auto-renewal cancelled.
      await page.reload();
      const profile = page.locator('#account');
      const order = profile.locator('[part~="order"]').filter({ hasText: 'All-Access Annual' });
      await expect(order.locator('[part~="cancel-renewal"]')).toHaveText(WORDS[lang].cancel, { timeout: 20_000 });
      await order.locator('[part~="cancel-renewal"]').click();
      await profile.locator('[part~="confirm-cancel"]').click();
      await expect(order.locator('[part~="renewal-status"]')).toContainText(WORDS[lang].cancelled, {
        timeout: 15_000,
      });
      await expect(order.locator('[part~="cancel-renewal"]')).toHaveCount(0);
      // Stripe's customer portal: the saved card and the plan that ends with its period; back to this page.
      const back = page.url();
      await profile.locator('[part~="customer-portal"]').first().click();
      await expect(page).toHaveURL(/\/__stripe\/portal\/bps_/, { timeout: 10_000 });
      await expect(page.getByText('VISA •••• 4242')).toBeVisible();
      await expect(page.locator('[data-subscription="active"]')).toContainText('cancels on');
      await page.getByRole('link', { name: 'Return to the site' }).click();
      await expect(page).toHaveURL(back);
      await expect(page.locator('#checkout [part~="summary"]')).toBeVisible({ timeout: 10_000 });
    });
  });
}

/** Drives the Stripe double as a channel's operator would in Stripe's dashboard (refund, renew, …). */
async function operator(request: APIRequestContext, action: 'refund' | 'renew', orderId: number): Promise<void> {
  const answer = await request.post(`${BUNDLE_ORIGIN}/__dev/stripe/${action}?channel_key=demo&order_id=${orderId}`);
  expect(answer.ok(), await answer.text()).toBe(true);
}

/** The profile's Transactions tab on this page, after a reload (the account reads its lists when it opens). */
async function transactions(page: Page): Promise<Locator> {
  await page.reload();
  const profile = page.locator('#account');
  await profile.getByRole('tab', { name: 'Transactions' }).click();
  return profile.locator('[part~="transaction"]');
}

for (const [name, viewport, lang] of [
  ['desktop, English', DESKTOP, 'en'],
  ['phone, French', PHONE, 'fr'],
] as const) {
  test.describe(`after the payment, Stripe's webhooks (${name})`, () => {
    test.use({ viewport });

    test('a refund locks the event again and shows in the account as refunded', async ({ page, request }) => {
      const email = await viewer(page, request, `refund-${lang}`);
      const checkout = await openCheckout(page, 'event=paid-live', lang);
      const player = page.locator('#checkout-player');
      await enterCard(checkout, CARD_OK);
      await checkout.locator('[part~="pay"]').click();
      await expect(checkout.locator('[part~="success"]')).toContainText(WORDS[lang].success, { timeout: 20_000 });
      await expect(player.locator('[part~="paywall"]')).toHaveCount(0, { timeout: 10_000 });
      const [order] = await paid(request, email);
      await operator(request, 'refund', order!.id);
      // charge.refunded reaches the server: the order is refunded, and its access ends.
      await expect
        .poll(async () => (await devOrders(request, email)).map((o) => o.status.toLowerCase()), { timeout: 15_000 })
        .toEqual(['refunded']);
      expect((await stripePayments(request, email))[0]!.charges).toEqual([expect.objectContaining({ refunded: true })]);
      const rows = await transactions(page);
      await expect(rows).toHaveCount(1, { timeout: 10_000 });
      await expect(rows.first().locator('[part~="transaction-status"]')).toHaveText(WORDS[lang].refunded);
      await expect(page.locator('#checkout-player [part~="paywall"]')).toBeVisible({ timeout: 10_000 });
    });

    test('a renewal (invoice.paid at the period’s end) adds a Subscription Renewal transaction', async ({
      page,
      request,
    }) => {
      const email = await viewer(page, request, `renewal-${lang}`);
      const checkout = await openCheckout(page, 'subscription=2', lang);
      await enterCard(checkout, CARD_OK);
      await checkout.locator('[part~="pay"]').click();
      await expect(checkout.locator('[part~="success"]')).toContainText(WORDS[lang].success, { timeout: 20_000 });
      const [order] = await paid(request, email);
      const before = order!.transactions.length;
      await operator(request, 'renew', order!.id);
      await expect
        .poll(async () => (await devOrders(request, email))[0]!.transactions.map((t) => t.label), { timeout: 15_000 })
        .toContain('Subscription Renewal');
      expect((await devOrders(request, email))[0]!.transactions).toHaveLength(before + 1);
      expect(await charges(request, email), 'the first period and the renewal').toBe(2);
      const rows = await transactions(page);
      await expect(rows.locator('[part~="transaction-label"]', { hasText: WORDS[lang].renewal })).toHaveCount(1, {
        timeout: 10_000,
      });
      await expect(rows).toHaveCount(before + 1);
    });
  });
}

test.describe('one charge', () => {
  test('a double click and a second tab make one order and one charge', async ({ page, request }) => {
    const email = await viewer(page, request, 'once');
    const other = await page.context().newPage();
    const first = await openCheckout(page, 'event=paid-live', 'en');
    const second = await openCheckout(other, 'event=paid-live', 'en');
    await enterCard(first, CARD_OK);
    await enterCard(second, CARD_OK);
    const buys: string[] = [];
    for (const tab of [page, other])
      tab.on('request', (r) => r.url().endsWith('/api/stripe/buy') && buys.push(r.postDataJSON().idempotency_key));
    await Promise.all([first.locator('[part~="pay"]').dblclick(), second.locator('[part~="pay"]').click()]);
    await expect(first.locator('[part~="success"]')).toContainText('Payment successful', { timeout: 20_000 });
    // The other tab: the same attempt (its key), so the same order; or, once it was paid, already purchased.
    await expect(second.locator('[part~="success"], [part~="pay-error"]').first()).toBeVisible({ timeout: 20_000 });
    expect(buys.length, 'one buy per tab').toBeLessThanOrEqual(2);
    expect(await paid(request, email)).toHaveLength(1);
    expect(await devOrders(request, email)).toHaveLength(1);
    expect(await charges(request, email)).toBe(1);
  });
});
