// Money and data under faults (issue 17, §5). Every purchase case buys with Stripe's 4242 test card as a fresh viewer
// and ends on the same three checks: exactly one order on the server (GET /__dev/orders) with exactly one paid
// transaction, every `stripe/buy` that went over the wire carried the same idempotency key, and the viewer has the
// product (a new page's checkout says it is purchased). The faults: a double click, the answer of stripe/buy lost or
// a 500 after the server committed (the client's own retry, then the viewer pressing Pay again), a reload while the
// order waits for 3-D Secure, two tabs (shared storage) and two devices (none) paying at once, a tab paying what
// another one has just bought, the network dropping between the purchase and the first poll, and a page that never
// comes back (Stripe's webhook pays the order on its own). 4242 is paid in stripe/buy's answer: a case that needs an
// order to wait for pays with Stripe's 3-D Secure card (4000 0025 0000 3155) and completes the bank's challenge.
// The forms: registration, a profile edit and the site's contact form keep every typed value through a failed submit
// (a 500, a network fault), say so in the viewer's language, and a retry sends what was typed.
import type { APIRequestContext, Browser, BrowserContext, Locator, Page, Request, Route } from '@playwright/test';
import { expect, test } from '../e2e/fixtures.js';
import {
  BUNDLE_ORIGIN,
  CARD_3DS,
  HOST_ORIGIN,
  completeChallenge,
  devOrders,
  enterCard,
  registerViewer,
  signInWith,
  stripeChallenge,
  type DevOrder,
} from '../e2e/helpers.js';

test.describe.configure({ timeout: 90_000 });
// The faults themselves: aborted requests, injected 500s, and the 422 of a product already bought.
test.use({ allowConsoleErrors: [/net::ERR_|status of (500|502|422)/] });

const CARD_OK = '4242 4242 4242 4242';

/** What is sold: the query of the demo's checkout page. */
const PRODUCTS = [
  { name: 'the single-event pass', query: 'event=paid-live' },
  { name: 'the Hockey Season Pass', query: 'package=1' },
  { name: 'the annual subscription', query: 'subscription=2' },
] as const;
type Product = (typeof PRODUCTS)[number];

const isBuy = (r: Request) => new URL(r.url()).pathname === '/api/stripe/buy' && r.method() === 'POST';
const isOrderPoll = (r: Request) => /^\/api\/orders\/\d+$/.test(new URL(r.url()).pathname);

/** Every stripe/buy any page of the context sends (over the wire: the idempotency key of each). */
function recordBuys(context: BrowserContext): string[] {
  const keys: string[] = [];
  context.on('request', (r) => {
    if (isBuy(r)) keys.push(String((r.postDataJSON() as { idempotency_key?: unknown }).idempotency_key));
  });
  return keys;
}

async function openCheckout(page: Page, product: Product): Promise<Locator> {
  await page.goto(`${BUNDLE_ORIGIN}/checkout.html?${product.query}`);
  const checkout = page.locator('#checkout');
  await expect(checkout.locator('[part~="continue"]')).toBeEnabled({ timeout: 15_000 });
  return checkout;
}

const success = (checkout: Locator) =>
  expect(checkout.locator('[part~="success"]')).toContainText('Payment successful', { timeout: 20_000 });

/**
 * The end of every purchase case: one order, paid, with one paid transaction; every buy sent carried one key; and
 * a new page of the viewer's context sees the product as theirs.
 */
async function exactlyOneOrder(
  request: APIRequestContext,
  context: BrowserContext,
  email: string,
  product: Product,
  /** The keys of the buys sent; undefined where two attempts may each have their own (two devices). */
  keys: string[] | undefined,
): Promise<DevOrder> {
  await expect
    .poll(async () => (await devOrders(request, email)).map((o) => o.status), { timeout: 15_000 })
    .toEqual(['paid']);
  const [order] = await devOrders(request, email);
  expect(order!.transactions.map((t) => t.status)).toEqual(['paid']);
  if (keys) {
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys).size, `the keys sent: ${keys.join(', ')}`).toBe(1);
  }
  const again = await context.newPage();
  await again.goto(`${BUNDLE_ORIGIN}/checkout.html?${product.query}`);
  await expect(again.locator('#checkout [part~="purchased"]')).toBeVisible({ timeout: 15_000 });
  await again.close();
  return order!;
}

/** A fresh viewer signed in in every page of `context`. */
async function viewer(request: APIRequestContext, context: BrowserContext, tag: string): Promise<string> {
  const { email, token } = await registerViewer(request, tag);
  await signInWith(context, token);
  return email;
}

/** Lets the server handle a request, then loses its answer (`abort`) or swaps it for a 500. */
function afterCommit(outcome: 'lost' | '500') {
  return async (route: Route) => {
    await route.fetch();
    if (outcome === 'lost') await route.abort('connectionreset');
    else await route.fulfill({ status: 500, json: { message: 'Server Error' } });
  };
}

/** The purchase faults: each pays on `page` (already on the card step) and waits for the checkout's success. */
const PURCHASE_CASES: {
  title: string;
  /** Runs in `npm test` too for this product (the others are @full). */
  fast?: Product['query'];
  /** The card typed (4242, paid in stripe/buy's answer, unless the case needs an order to wait for: 3-D Secure). */
  card?: string;
  run(ctx: { page: Page; checkout: Locator; keys: string[]; request: APIRequestContext }): Promise<void>;
}[] = [
  {
    title: 'a double click on Pay sends one purchase',
    fast: 'event=paid-live',
    async run({ checkout, keys }) {
      await checkout.locator('[part~="pay"]').dblclick();
      await success(checkout);
      expect(keys).toHaveLength(1);
    },
  },
  ...(['lost', '500'] as const).map((outcome) => ({
    title: `${outcome === 'lost' ? 'the answer of stripe/buy is lost' : 'a 500'} after the server committed: the client’s retry gets the same order`,
    fast: outcome === 'lost' ? ('package=1' as const) : undefined,
    async run({ page, checkout, keys }: { page: Page; checkout: Locator; keys: string[] }) {
      await page.route('**/api/stripe/buy', afterCommit(outcome), { times: 1 });
      await checkout.locator('[part~="pay"]').click();
      await success(checkout);
      expect(keys).toHaveLength(2);
    },
  })),
  {
    title: 'both answers lost after the server committed: the message shows, Pay again gets the same order',
    fast: 'subscription=2',
    async run({ page, checkout, keys }) {
      await page.route('**/api/stripe/buy', afterCommit('lost'), { times: 2 });
      await checkout.locator('[part~="pay"]').click();
      await expect(checkout.locator('[part~="pay-error"]')).toContainText(
        'The channel cannot be reached. Check your connection and try again.',
        { timeout: 10_000 },
      );
      expect(keys).toHaveLength(2);
      await checkout.locator('[part~="pay"]').click();
      await success(checkout);
      expect(keys).toHaveLength(3);
    },
  },
  {
    title: 'a reload while the order waits for 3-D Secure picks the same order up again',
    card: CARD_3DS,
    async run({ page, checkout, keys, request }) {
      await checkout.locator('[part~="pay"]').click();
      const frame = stripeChallenge(page).dialog.locator('iframe');
      await expect(frame).toBeVisible({ timeout: 10_000 });
      const challenge = (await frame.getAttribute('src'))!;
      await page.reload();
      await expect(page.locator('#checkout [part~="waiting"]')).toBeVisible({ timeout: 10_000 });
      await page.waitForRequest(isOrderPoll);
      // The cardholder completes the authentication elsewhere (the bank's app); Stripe's webhook pays the order.
      expect((await request.post(challenge, { form: { result: 'complete' } })).ok()).toBe(true);
      await success(page.locator('#checkout'));
      expect(keys).toHaveLength(1);
    },
  },
  {
    title: 'the network drops between the purchase and the first poll: the check fails, Try again finds it paid',
    fast: 'event=paid-live',
    card: CARD_3DS,
    async run({ page, checkout, keys }) {
      await page.route('**/api/orders/*', (route) => route.abort('internetdisconnected'));
      await checkout.locator('[part~="pay"]').click();
      await completeChallenge(page);
      const error = checkout.locator('[part~="error"]');
      await expect(error).toContainText('We could not check your payment', { timeout: 15_000 });
      await expect(error).toContainText('The channel cannot be reached.');
      await page.unroute('**/api/orders/*');
      await error.getByRole('button').click();
      await success(checkout);
      expect(keys).toHaveLength(1);
    },
  },
];

for (const product of PRODUCTS) {
  test.describe(`buying ${product.name}`, () => {
    for (const fault of PURCHASE_CASES) {
      const fast = fault.fast === product.query;
      test(
        `${fault.title}: exactly one order, and the viewer has it`,
        fast ? {} : { tag: '@full' },
        async ({ page, context, request }) => {
          const email = await viewer(request, context, 'money');
          const keys = recordBuys(context);
          const checkout = await openCheckout(page, product);
          await enterCard(checkout, fault.card ?? CARD_OK);
          await fault.run({ page, checkout, keys, request });
          await exactlyOneOrder(request, context, email, product, keys);
        },
      );
    }

    for (const instant of [true, false]) {
      test(
        instant
          ? 'two tabs press Pay at the same instant: one order, both tabs say it is paid'
          : 'a second tab pays while the first tab’s order is processed: the same attempt, one order, both paid',
        product.query === 'package=1' && instant ? {} : { tag: '@full' },
        async ({ context, request }) => {
          const email = await viewer(request, context, 'tabs');
          const keys = recordBuys(context);
          const checkouts = [];
          const tabs = [await context.newPage(), await context.newPage()];
          for (const tab of tabs) {
            const checkout = await openCheckout(tab, product);
            // 4242 is paid in stripe/buy's answer: an order that waits is one whose card asks for 3-D Secure.
            await enterCard(checkout, instant ? CARD_OK : CARD_3DS);
            checkouts.push(checkout);
          }
          if (instant) {
            await Promise.all(checkouts.map((checkout) => checkout.locator('[part~="pay"]').click()));
          } else {
            // The first tab's order waits for the bank's challenge when the second tab pays: the same attempt, so
            // the same order and the same challenge; the cardholder completes it in the first tab, then answers the
            // second tab's (the bank says it is over).
            await checkouts[0]!.locator('[part~="pay"]').click();
            await expect(stripeChallenge(tabs[0]!).dialog).toBeVisible({ timeout: 10_000 });
            await checkouts[1]!.locator('[part~="pay"]').click();
            await expect(stripeChallenge(tabs[1]!).dialog).toBeVisible({ timeout: 10_000 });
            await completeChallenge(tabs[0]!);
            await completeChallenge(tabs[1]!);
          }
          await Promise.all(checkouts.map(success));
          // Pressed at once, each tab may have made its own attempt: the tabs' processes share local storage a
          // moment later, so the server answers the second key with the order being paid.
          const order = await exactlyOneOrder(request, context, email, product, instant ? undefined : keys);
          expect(keys).toHaveLength(2);
          for (const checkout of checkouts) await expect(checkout).toContainText(`Order reference ${order.reference}`);
        },
      );
    }

    test(
      'two devices (no shared storage) pay at once: one order, both say it is paid',
      { tag: '@full' },
      async ({ browser, context, request }) => {
        const { email, token } = await registerViewer(request, 'devices');
        await signInWith(context, token);
        const other = await watchedContext(browser, token);
        const keys = recordBuys(context);
        const otherKeys = recordBuys(other.context);
        const checkouts = [];
        for (const tab of [await context.newPage(), await other.context.newPage()]) {
          const checkout = await openCheckout(tab, product);
          await enterCard(checkout, CARD_OK);
          checkouts.push(checkout);
        }
        await Promise.all(checkouts.map((checkout) => checkout.locator('[part~="pay"]').click()));
        // Two attempts, two keys. 4242 is paid in Stripe's answer to stripe/buy: a device whose purchase arrives
        // while the other's is being paid gets that order; one that arrives once it is paid is told the viewer has
        // it already. Never a second order or charge.
        const outcomes = await Promise.all(
          checkouts.map(async (checkout) => {
            const done = checkout.locator('[part~="success"], [part~="pay-error"]');
            await expect(done.first()).toBeVisible({ timeout: 20_000 });
            return (await checkout.locator('[part~="success"]').count()) > 0 ? 'paid' : await done.first().innerText();
          }),
        );
        expect(outcomes).toContain('paid');
        for (const outcome of outcomes)
          if (outcome !== 'paid') expect(outcome).toContain('You have already purchased this.');
        expect(otherKeys).toHaveLength(1);
        const order = await exactlyOneOrder(request, context, email, product, keys);
        for (const [i, checkout] of checkouts.entries())
          if (outcomes[i] === 'paid') await expect(checkout).toContainText(`Order reference ${order.reference}`);
        await other.done();
      },
    );
  });
}

test('a tab that pays what another tab has just bought is told so, and nothing is ordered twice', async ({
  context,
  request,
}) => {
  const product = PRODUCTS[0];
  const email = await viewer(request, context, 'late-tab');
  const keys = recordBuys(context);
  const [first, late] = [await context.newPage(), await context.newPage()];
  const lateCheckout = await openCheckout(late, product);
  await enterCard(lateCheckout, CARD_OK);
  const checkout = await openCheckout(first, product);
  await enterCard(checkout, CARD_OK);
  await checkout.locator('[part~="pay"]').click();
  await success(checkout);
  await lateCheckout.locator('[part~="pay"]').click();
  await expect(lateCheckout.locator('[part~="pay-error"]')).toContainText('You have already purchased this.');
  expect(keys).toHaveLength(2);
  await expect.poll(async () => (await devOrders(request, email)).map((o) => o.status)).toEqual(['paid']);
});

test('a page that never comes back after paying: Stripe’s webhook pays the order, and the viewer has it', async ({
  context,
  page,
  request,
}) => {
  const product = PRODUCTS[0];
  const email = await viewer(request, context, 'gone');
  // Nothing the page asks about the order gets through: only the server can settle it.
  await page.route('**/api/orders/**', (route) => route.abort('internetdisconnected'));
  const checkout = await openCheckout(page, product);
  // A card that asks for 3-D Secure: stripe/buy answers the order unpaid, Stripe's webhook pays it later.
  await enterCard(checkout, CARD_3DS);
  const bought = page.waitForResponse((r) => isBuy(r.request()));
  await checkout.locator('[part~="pay"]').click();
  expect((await bought).ok()).toBe(true);
  await completeChallenge(page);
  await page.close();
  // With no page polling: Stripe's webhook paid it, and the dev read finds it paid.
  await expect
    .poll(async () => (await devOrders(request, email)).map((o) => o.status), { timeout: 15_000 })
    .toEqual(['paid']);
  const player = await context.newPage();
  await player.goto(`${BUNDLE_ORIGIN}/checkout.html?${product.query}`);
  // Back on the page later: the checkout picks the stored order up, now paid, and the paid live game is unlocked.
  await success(player.locator('#checkout'));
  await expect(player.locator('#checkout-player [part~="play"], #checkout-player video').first()).toBeVisible({
    timeout: 15_000,
  });
  await expect(player.locator('#checkout-player [part~="paywall"]')).toHaveCount(0);
});

// ------------------------------------------------------------------ forms

type Language = 'en' | 'fr';

/** What a failed submit says, by fault and language (the account forms' texts: src/stores/account/messages.ts). */
const FAILED: Record<'500' | 'network', Record<Language, string>> = {
  '500': {
    en: 'Oops! We are currently experiencing technical difficulties',
    fr: 'Oups ! Nous rencontrons actuellement des difficultés techniques',
  },
  network: {
    en: 'Something went wrong. Please try again or contact technical support',
    fr: "Une erreur s'est produite. Veuillez réessayer ou contacter le support technique",
  },
};

interface OpenForm {
  /** The form (its fields are found by name). */
  form: Locator;
  /** What the viewer types, by field name (true: a checkbox to tick). */
  values: Record<string, string | true>;
  /** The call it submits (a glob for page.route) and its path. */
  glob: string;
  path: string;
  /** The typed values in the body the form sends (the contact form nests them under `values`). */
  typed?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** What the page shows once it went through. */
  sent: (lang: Language) => Locator;
}

let typed = 0;
const FORMS: { name: string; open(page: Page, request: APIRequestContext, lang: Language): Promise<OpenForm> }[] = [
  {
    name: 'registration',
    async open(page, _request, lang) {
      const profile = await openProfile(page, lang);
      await expect(profile.locator('[part~="to-register"]')).toHaveText(
        lang === 'fr' ? 'Créer un compte' : 'Create an account',
      );
      await profile.locator('[part~="to-register"]').click();
      const email = `typed-${Date.now().toString(36)}-${process.pid}-${typed++}@example.com`;
      return {
        form: profile.locator('[part~="register"]'),
        values: {
          first_name: lang === 'fr' ? 'Éloïse' : 'Rita',
          last_name: 'D’Arcy-Register',
          email,
          password: 'typed-pass-1',
          password_confirmation: 'typed-pass-1',
          terms: true,
        },
        glob: '**/api/v2/auth/register',
        path: '/api/v2/auth/register',
        sent: () => profile.locator('[part~="verify-notice"]').filter({ hasText: email }),
      };
    },
  },
  {
    name: 'profile edit',
    async open(page, request, lang) {
      const { token } = await registerViewer(request, 'edit');
      await signInWith(page, token);
      const profile = await openProfile(page, lang);
      await profile.evaluate((element) => element.setAttribute('section', 'edit'));
      const form = profile.locator('[part~="edit"]');
      await expect(form.locator('[name="first_name"]')).toHaveValue('Hana');
      return {
        form,
        values: { first_name: lang === 'fr' ? 'Anaïs' : 'Harriet', last_name: 'O’Typed' },
        glob: '**/api/profile',
        path: '/api/profile',
        sent: (language) =>
          form.getByText(language === 'fr' ? 'Votre profil a été enregistré.' : 'Your profile was saved.'),
      };
    },
  },
  {
    name: 'contact form',
    async open(page, _request, lang) {
      await page.goto(`${HOST_ORIGIN}/${lang === 'fr' ? 'site-fr' : 'site'}/contacts`);
      const form = page.locator('channel-app [part~="contact-form"]');
      await expect(form.locator('[name="message"]')).toBeVisible({ timeout: 15_000 });
      return {
        form,
        values: {
          name: lang === 'fr' ? 'Zoé Contact' : 'Cass Contact',
          email: 'typed-contact@example.com',
          phone: '+1 555 010 0199',
          // The French channel's form has no topic.
          ...(lang === 'en' ? { topic: 'Season pass' } : {}),
          message: 'Typed once, kept through a failed send: line one.\nLine two.',
        },
        glob: '**/api/custom-forms/contact',
        path: '/api/custom-forms/contact',
        typed: (body) => body.values as Record<string, unknown>,
        sent: () => form.locator('[part~="thanks"]').filter({ hasText: /./ }),
      };
    },
  },
];

async function openProfile(page: Page, lang: Language): Promise<Locator> {
  await page.goto(`${BUNDLE_ORIGIN}/profile.html`);
  const profile = page.locator('channel-profile').first();
  await profile.evaluate((element, language) => element.setAttribute('lang', language), lang);
  await expect(profile.locator('[part~="sign-in"], [part~="tabs"], [part~="edit"]').first()).toBeVisible({
    timeout: 15_000,
  });
  // Typing starts once the element speaks the language (its texts load a moment after the attribute changes).
  await expect(profile.locator('[part~="frame"]').first()).toHaveAttribute('lang', lang);
  return profile;
}

async function fill(form: Locator, values: OpenForm['values']): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const field = form.locator(`[name="${name}"]`);
    if (value === true) await field.check();
    else await field.fill(value);
  }
}

async function expectKept(form: Locator, values: OpenForm['values']): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const field = form.locator(`[name="${name}"]`);
    if (value === true) await expect(field, name).toBeChecked();
    else await expect(field, name).toHaveValue(value);
  }
}

for (const { name, open } of FORMS) {
  for (const fault of ['500', 'network'] as const) {
    for (const lang of ['en', 'fr'] as const) {
      const fast = lang === 'en' && fault === '500';
      test(
        `${name}: a failed submit (${fault}) keeps what was typed and says so (${lang}); the retry sends it`,
        fast ? {} : { tag: '@full' },
        async ({ page, request }) => {
          const opened = await open(page, request, lang);
          const { form, values } = opened;
          await fill(form, values);
          const attempts: Request[] = [];
          page.on(
            'request',
            (r) => new URL(r.url()).pathname === opened.path && r.method() === 'POST' && attempts.push(r),
          );
          await page.route(opened.glob, (route) =>
            route.request().method() !== 'POST'
              ? route.fallback()
              : fault === '500'
                ? route.fulfill({ status: 500, json: { message: 'Server Error' } })
                : route.abort('internetdisconnected'),
          );
          await form.locator('button[type="submit"]').click();
          await expect(form.locator('[part~="form-error"]')).toHaveText(FAILED[fault][lang], { timeout: 10_000 });
          await expectKept(form, values);
          expect(attempts.length).toBeGreaterThan(0);
          await page.unroute(opened.glob);
          const retry = page.waitForRequest((r) => new URL(r.url()).pathname === opened.path && r.method() === 'POST');
          await form.locator('button[type="submit"]').click();
          const body = (await retry).postDataJSON() as Record<string, unknown>;
          const sent = opened.typed?.(body) ?? body;
          for (const [field, value] of Object.entries(values)) {
            expect(sent[field], field).toEqual(value === true ? expect.anything() : value);
          }
          await expect(opened.sent(lang)).toBeVisible({ timeout: 10_000 });
        },
      );
    }
  }
}

/** A second browser context (another device) whose pages fail the test on page errors like the fixture's. */
async function watchedContext(
  browser: Browser,
  token: string,
): Promise<{ context: BrowserContext; done(): Promise<void> }> {
  const context = await browser.newContext({ timezoneId: 'America/New_York', locale: 'en-US' });
  const problems: string[] = [];
  context.on('page', (p) => p.on('pageerror', (error) => problems.push(error.message)));
  await signInWith(context, token);
  return {
    context,
    async done() {
      await context.close();
      expect(problems).toEqual([]);
    },
  };
}
