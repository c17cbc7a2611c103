// Element tests of <channel-checkout>: attributes in, requests out, what a buyer sees at each step, the public
// events, keyboard and screen-reader behaviour. The element runs against the unit tests' fake world
// (test/unit/helpers.ts): a fake fetch answering the keys host and the channel API with contract-valid fixtures
// and recording every request, and a fake clock for the order polling. Stripe.js is a fake `window.Stripe` in
// Stripe's shape (test/unit/fake-stripe.ts) whose card field is a plain input labelled "Card number".
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import {
  Event as ChannelEvent,
  Order,
  Package,
  Pricing,
  Settings,
  Subscription,
  User,
} from '../../src/api/contract.js';
import { setEnv } from '../../src/lib/env.js';
import { ChannelPurchaseRequestEvent } from '../../src/events/index.js';
import { MAX_WAIT_MS, POLL_MS } from '../../src/stores/commerce/orders.js';
import { resetSession } from '../../src/stores/session.js';
import { signIn } from '../../src/stores/sign-in.js';
import { setConfig } from '../../src/stores/config.js';
import { start } from '../../elements/channel-checkout.js';
import { makeElement } from '../../elements/define.js';
import { SubscriptionActions } from '../../src/components/profile/SubscriptionActions.js';
import { ElementShell, type ShellProps } from '../../src/components/ui/shell.js';
import { AUTH_FAILED, resetFakeStripe, stripeLog, typeCard } from '../unit/fake-stripe.js';
import {
  captureNavigation,
  flush,
  installWorld,
  ok,
  T0,
  teardown,
  type Recorded,
  type World,
} from '../unit/helpers.js';

const API = 'http://api.test/api';
const KEYS = 'http://api.test/keys';
const TOKEN = 'tok-buyer-secret';
const NOW_S = T0 / 1000;

// ------------------------------------------------------------------ fixtures (contract-valid)

// Fixtures go through their contract schemas: no test passes against data no server sends.
const SETTINGS = (fields: Record<string, unknown> = {}) =>
  Settings.parse({
    name: 'Demo',
    language: 'en',
    currency: 'EUR',
    auth: { remote_auth: 0 },
    stripe: { publishable_key: 'pk_demo' },
    ...fields,
  });

const USER = (fields: Record<string, unknown> = {}) =>
  User.parse({ id: 7, email: 'fan@example.com', first_name: 'Ann', ...fields });

const EVENT = ChannelEvent.parse({
  id: 501,
  name: 'Spring Final',
  type: 'paid',
  event_utc_ts: NOW_S + 3600,
  stream_status: 'upcoming',
  single_event_package_id: 900,
  participants: [
    { id: 21, name: 'Northfield Huskies', short_name: 'NFU' },
    { id: 22, name: 'Lakeside State Lakers', short_name: 'LSU' },
  ],
  home_team_id: 21,
});

const PACKAGES = [
  { id: 900, name: 'Final single pass', price: 12.5, type: 'single', weight: 3 },
  { id: 901, name: "Men's Hockey pass", price: 49, base_price: 59, type: 'category', event_categories: [7], weight: 1 },
  {
    id: 903,
    name: 'Huskies team pass',
    price: 25,
    type: 'team',
    is_team_pass: true,
    participants: [21, 22],
    weight: 2,
  },
].map((p) => Package.parse(p));

const SUBSCRIPTIONS = [
  { id: 31, name: 'All-access monthly', price: 9.99, offer: 'monthly', trial_period: 7, weight: 1 },
  { id: 32, name: 'All-access annual', price: 99, offer: 'annual', trial_period: 0, weight: 2 },
].map((s) => Subscription.parse(s));

/** Price lists by `type-id` (the server's answer is computed from the query, coupon included). */
const PRICES: Record<
  string,
  { name: string; price: number; base_price?: number; service_fee: number; offer?: string; trial_period?: number }
> = {
  'event-501': { name: 'Spring Final', price: 12.5, base_price: 15, service_fee: 0.63 },
  'package-901': { name: "Men's Hockey pass", price: 49, base_price: 59, service_fee: 2 },
  'package-903': { name: 'Huskies team pass', price: 25, service_fee: 1 },
  'subscription-31': { name: 'All-access monthly', price: 9.99, service_fee: 0, offer: 'monthly', trial_period: 7 },
  'subscription-32': { name: 'All-access annual', price: 99, service_fee: 0, offer: 'annual', trial_period: 0 },
};
const cents = (n: number) => Math.round(n * 100) / 100;

const ORDER = (fields: Record<string, unknown> = {}) =>
  Order.parse({
    id: 70,
    type: 'event',
    status: 'created',
    activity_status: null,
    product: { id: 501, name: 'Spring Final' },
    price: 13.13,
    currency: 'EUR',
    reference: 'ORD-70',
    created_at: NOW_S,
    ...fields,
  });
const PAID = ORDER({ status: 'paid', activity_status: 'active' });
const DECLINED = ORDER({ status: 'failed', error: 'Your card was declined.' });

// ------------------------------------------------------------------ fake platform

let world: World;
/** Items the server says the user already holds (`type-id`). */
let purchased: Set<string>;

function useFakePlatform(settings: Record<string, unknown> = {}): void {
  resetSession();
  world = installWorld();
  setEnv({ eventTarget: window });
  resetFakeStripe();
  purchased = new Set();
  world.server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-demo' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-123' }))
    .on('GET', `${API}/settings`, ok(SETTINGS(settings)))
    .on('GET', `${API}/color-settings/web`, ok({}))
    .on('GET', `${API}/geo`, ok({ country_code: 'US' }))
    .on('GET', `${API}/events/501`, ok(EVENT))
    .on('GET', `${API}/packages`, ok(PACKAGES))
    .on('GET', `${API}/subscriptions`, ok(SUBSCRIPTIONS))
    .on('GET', `${API}/orders`, ok([]))
    .on('GET', `${API}/participants`, ok(EVENT.participants))
    .on('GET', `${API}/stripe/list-cards`, ok([]))
    .on('POST', `${API}/stripe/buy`, ok({ order: ORDER() }))
    .on('GET', `${API}/orders/70`, ok(PAID))
    .on('GET', `${API}/pricing`, (req) => {
      const key = `${req.query.type}-${req.query.id}`;
      const base = PRICES[key]!;
      const discount = req.query.coupon === 'SAVE10' ? cents(base.price / 10) : 0;
      return ok(
        Pricing.parse({
          type: req.query.type,
          id: Number(req.query.id),
          ...base,
          discount,
          total: cents(base.price - discount + base.service_fee),
          currency: 'EUR',
          coupon: req.query.coupon ?? null,
          participant_id: req.query.participant_id ? Number(req.query.participant_id) : null,
          purchased: purchased.has(key),
        }),
      );
    })
    .on('GET', `${API}/apply_coupon`, (req) =>
      req.query.code === 'SAVE10'
        ? ok({ code: 'SAVE10', discount: 1.25, percent: 10 })
        : { status: 422, body: { message: 'Wrong promo code' } },
    );
  for (const pkg of PACKAGES) world.server.on('GET', `${API}/packages/${pkg.id}`, ok(pkg));
  for (const sub of SUBSCRIPTIONS) world.server.on('GET', `${API}/subscriptions/${sub.id}`, ok(sub));
}

const signedIn = (fields: Record<string, unknown> = {}) => signIn({ token: TOKEN, user: USER(fields) });

// ------------------------------------------------------------------ DOM helpers

const root = (el: Element) => el.shadowRoot!;
const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => root(el).querySelector<T>(selector);
const $$ = <T extends Element = HTMLElement>(el: Element, selector: string) => [
  ...root(el).querySelectorAll<T>(selector),
];
const text = (el: Element) => root(el).textContent ?? '';
const part = <T extends Element = HTMLElement>(el: Element, name: string) => $<T>(el, `[part~="${name}"]`);
const has = (el: Element, name: string) => part(el, name) !== null;
/** A part's text, no-break spaces (French numbers have them) read as spaces. */
const partText = (el: Element, name: string) => part(el, name)?.textContent?.replace(/[\u00a0\u202f]/g, ' ') ?? null;
const calls = (method: string, path: string): Recorded[] => world.server.to(method, `${API}/${path}`);

async function shows(el: Element, words: string): Promise<void> {
  await waitUntil(() => text(el).includes(words), `expected the element to show "${words}"; it shows "${text(el)}"`, {
    timeout: 4000,
  });
}
async function showsPart(el: Element, name: string): Promise<void> {
  await waitUntil(() => has(el, name), `expected part "${name}"; the element shows "${text(el)}"`, { timeout: 4000 });
}
const press = (el: Element, name: string) => {
  const button = part<HTMLButtonElement>(el, name);
  if (!button) throw new Error(`no part "${name}" in "${text(el)}"`);
  button.click();
};
/** Types into a React-controlled input (the native setter, then an input event). */
function type(input: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}
function choose(select: HTMLSelectElement, value: string): void {
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}
/** The element whose focus the page sees inside the shadow root. */
const focused = (el: Element) => root(el).activeElement;

/** From the summary of a product to the payment step (saved cards loaded). */
async function toPayment(el: Element): Promise<void> {
  await showsPart(el, 'total');
  press(el, 'continue');
  await showsPart(el, 'pay');
  await waitUntil(() => !part<HTMLButtonElement>(el, 'pay')!.disabled, 'Pay enabled', { timeout: 4000 });
}
/** Waits for Stripe's card field to be mounted in the element's light DOM, and types a number in it. */
async function enterCard(el: Element, number: string): Promise<void> {
  await waitUntil(() => el.querySelector('[slot="card"] input') !== null, 'the card field', { timeout: 4000 });
  typeCard(number);
}

/** Runs `act` and returns the events of `type` that reached the document meanwhile. */
function listen(type: string): { seen: CustomEvent[]; stop(): void } {
  const seen: CustomEvent[] = [];
  const on = (e: Event) => seen.push(e as CustomEvent);
  document.addEventListener(type, on);
  return { seen, stop: () => document.removeEventListener(type, on) };
}

/** Advances the fake clock by one poll interval and lets the element render. */
async function poll(): Promise<void> {
  await world.advance(POLL_MS);
  await flush();
}

/**
 * A channel with a tag manager: its script is any harmless file of an origin the page allows
 * (src/lib/url-rules.ts). Answers the e-commerce events sent so far (the page's own page_view aside), the whole data
 * layer as text, and the clean-up.
 */
function useTagManager(): { ecommerce(): unknown[][]; layer(): string; done(): void } {
  useFakePlatform({ 'google-analytics': 'G-CHECKOUT', gtag_url: `${location.origin}/demo/site/demo-events.js` });
  const w = window as unknown as { dataLayer?: IArguments[]; gtag?: unknown };
  delete w.dataLayer;
  delete w.gtag;
  return {
    ecommerce: () => (w.dataLayer ?? []).map((a) => [...a]).filter((a) => a[0] === 'event' && a[1] !== 'page_view'),
    layer: () => JSON.stringify(w.dataLayer),
    done() {
      document.querySelectorAll('script[src*="/demo/site/demo-events.js"]').forEach((script) => script.remove());
      delete w.dataLayer;
      delete w.gtag;
    },
  };
}

// ------------------------------------------------------------------ tests

/** The page's configuration, as the script tag would give it. */
// The page's own origin may serve the tag manager's script (data-script-origins): the test's stand-in is a file there.
const CONFIGURATION = {
  channelKey: 'demo',
  apiUrl: API,
  keysUrl: KEYS,
  analyticsUrl: 'http://api.test',
  scriptOrigins: location.origin,
};

describe('<channel-checkout>', () => {
  // Each test file has its own page: the element is defined once, each test then gets a fresh fake world.
  before(() => start(CONFIGURATION, 'http://api.test/channel-elements.js'));
  beforeEach(() => useFakePlatform());
  afterEach(teardown);

  describe('attributes', () => {
    it('a bad id is ignored with a translated notice and a console warning', async () => {
      signedIn();
      const el = await fixture(
        html`<channel-checkout event-id="abc" package-id="901" subscription-id="31"></channel-checkout>`,
      );
      // event-id is ignored, package-id wins: its summary shows; subscription-id is one too many.
      await showsPart(el, 'summary');
      expect($$(el, '[part~="notice"]').map((n) => n.textContent)).to.deep.equal([
        'Ignored event-id="abc": digits only.',
        'Ignored subscription-id="31": only one of event-id, package-id and subscription-id.',
      ]);
      expect(world.lines.warn).to.include('<channel-checkout>: ignored event-id="abc"; expected digits only.');
    });

    it('with no attribute the offers list shows', async () => {
      const el = await fixture(html`<channel-checkout event-id=""></channel-checkout>`);
      await showsPart(el, 'offers');
      expect(has(el, 'notice')).to.equal(false);
    });
  });

  describe('the offers list (/packages)', () => {
    it('lists every package (but single-event passes) and subscription with name, price, period and trial; choosing one opens it; Back returns', async () => {
      const el = await fixture(html`<channel-checkout></channel-checkout>`);
      await waitUntil(() => $$(el, '[part~="offer"]').length === 4, 'four offers', { timeout: 4000 });
      // What a sighted viewer reads (the words for screen readers left out), in the spec's currency form.
      const rows = $$(el, '[part~="offer"]').map((li) =>
        [...li.querySelectorAll('span:not(.sr-only)')].map((s) =>
          [...s.childNodes]
            .filter((n) => !(n instanceof Element && n.classList.contains('sr-only')))
            .map((n) => n.textContent)
            .join('')
            .replace(/\u00a0/g, ' '),
        ),
      );
      expect(rows).to.deep.equal([
        ['Category pass', "Men's Hockey pass", 'EUR €49.00EUR €59.00'],
        ['Team pass', 'Huskies team pass', 'EUR €25.00'],
        ['Monthly subscription', 'All-access monthly', 'EUR €9.99 / month', '7-day free trial'],
        ['Annual subscription', 'All-access annual', 'EUR €99.00 / year'],
      ]);
      // The regular price (higher than the price) is struck through, and screen readers hear it in words.
      const pass = $$(el, '[part~="offer-price"]')[0]!;
      expect(pass.querySelector('s')!.textContent!.replace(/\u00a0/g, ' ')).to.equal('EUR €59.00');
      expect(pass.querySelector('s')!.getAttribute('aria-hidden')).to.equal('true');
      expect(pass.textContent!.replace(/\u00a0/g, ' ')).to.match(/^EUR €49\.00, regular price EUR €59\.00/);
      expect($$(el, '[part~="offer-price"]')[1]!.querySelector('s'), 'no regular price without one').to.equal(null);
      expect(stripeLog.fields, 'no Stripe on the list').to.have.length(0);
      // A guest chooses the annual subscription: asked to sign in, then continues there once signed in.
      $$<HTMLButtonElement>(el, '[part~="offer-select"]')[3]!.click();
      await showsPart(el, 'sign-in');
      expect(text(el)).to.include('Sign in or create an account to buy All-access annual.');
      signedIn();
      await shows(el, 'Renews every 12 months');
      expect(partText(el, 'total')).to.equal('TotalEUR €99.00');
      press(el, 'back');
      await waitUntil(() => $$(el, '[part~="offer"]').length === 4, 'the list again', { timeout: 4000 });
    });

    it('nothing on sale: says so instead of an empty list', async () => {
      world.server.on('GET', `${API}/packages`, ok([])).on('GET', `${API}/subscriptions`, ok([]));
      const el = await fixture(html`<channel-checkout></channel-checkout>`);
      await showsPart(el, 'empty');
      expect(partText(el, 'empty')).to.equal('Nothing is on sale right now.');
      expect(has(el, 'offers')).to.equal(false);
      await expect(el).shadowDom.to.be.accessible();
    });

    it('marks what a signed-in viewer already holds', async () => {
      signedIn();
      world.server.on(
        'GET',
        `${API}/orders`,
        ok([ORDER({ id: 9, type: 'subscription', status: 'paid', activity_status: 'active', product: { id: 31 } })]),
      );
      const el = await fixture(html`<channel-checkout></channel-checkout>`);
      await showsPart(el, 'purchased');
      const flagged = $$(el, '[part~="offer"]').filter((li) => li.querySelector('[part~="purchased"]'));
      expect(flagged.map((li) => li.querySelector('.offer-name')!.textContent)).to.deep.equal(['All-access monthly']);
    });
  });

  describe('summary', () => {
    it('a single-event pass: price, base price, Taxes, total in euros, All sales are final, focus on its heading', async () => {
      signedIn();
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await showsPart(el, 'total');
      expect(partText(el, 'title')).to.equal('LSU @ NFU');
      expect(focused(el), 'a page load leaves focus alone').to.equal(null);
      expect(partText(el, 'price')).to.equal('PriceEUR €12.50');
      expect(partText(el, 'base-price')).to.equal('Regular priceEUR €15.00');
      expect(part(el, 'base-price')!.querySelector('s'), 'struck through').to.not.equal(null);
      expect(partText(el, 'taxes')).to.equal('TaxesEUR €0.63');
      expect(partText(el, 'total')).to.equal('TotalEUR €13.13');
      expect(partText(el, 'terms')).to.equal('All sales are final');
      expect(has(el, 'discount')).to.equal(false);
      expect(calls('GET', 'pricing')[0]!.query).to.include({
        type: 'event',
        id: '501',
        single_event_package_id: '900',
      });
      press(el, 'continue');
      await showsPart(el, 'payment');
      await waitUntil(() => focused(el)?.textContent === 'Payment', 'focus on the Payment heading', { timeout: 4000 });
    });

    it('a free event has nothing to buy', async () => {
      signedIn();
      world.server.on('GET', `${API}/events/501`, ok({ ...EVENT, type: 'free' }));
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await showsPart(el, 'free');
      expect(text(el)).to.include('LSU @ NFU is free: there is nothing to buy.');
      expect(calls('GET', 'pricing')).to.have.length(0);
    });

    it('a monthly subscription: Renews every 30 days and the trial length', async () => {
      signedIn();
      const el = await fixture(html`<channel-checkout subscription-id="31"></channel-checkout>`);
      await showsPart(el, 'terms');
      expect(partText(el, 'renewal')).to.equal('Renews every 30 days');
      expect(partText(el, 'trial')).to.equal(
        'Free for 7 days. A card is needed; it is charged automatically when the trial ends.',
      );
      expect(partText(el, 'final')).to.equal('All sales are final');
    });

    it('a viewer who used a trial gets none', async () => {
      signedIn({ trial_period_used: true });
      const el = await fixture(html`<channel-checkout subscription-id="31"></channel-checkout>`);
      await showsPart(el, 'terms');
      expect(has(el, 'trial')).to.equal(false);
    });

    it('already purchased: says so, no way to pay', async () => {
      signedIn();
      purchased.add('package-901');
      const el = await fixture(html`<channel-checkout package-id="901"></channel-checkout>`);
      await showsPart(el, 'purchased');
      expect(partText(el, 'purchased')).to.equal("You already have Men's Hockey pass.");
      expect(has(el, 'continue')).to.equal(false);
      expect(has(el, 'pay')).to.equal(false);
      expect(has(el, 'coupon')).to.equal(false);
    });

    it('a team pass needs a team: the refusal message and no price request until one is chosen', async () => {
      signedIn();
      const el = await fixture(html`<channel-checkout package-id="903"></channel-checkout>`);
      await shows(el, 'Package is TeamPass but team not selected');
      expect(part(el, 'error')!.getAttribute('role')).to.equal('alert');
      expect(calls('GET', 'pricing')).to.have.length(0);
      expect(part<HTMLButtonElement>(el, 'continue')!.disabled).to.equal(true);
      const select = $<HTMLSelectElement>(el, '[part~="team-select"] select')!;
      expect([...select.options].map((o) => o.textContent)).to.deep.equal([
        'Choose a team…',
        'Northfield Huskies',
        'Lakeside State Lakers',
      ]);
      expect(select.labels[0]!.textContent).to.equal('Team');
      choose(select, '21');
      await showsPart(el, 'total');
      expect(calls('GET', 'pricing')[0]!.query).to.include({ type: 'package', id: '903', participant_id: '21' });
      expect(text(el)).not.to.include('team not selected');
    });
  });

  describe('a team with teams of its own', () => {
    /** Northfield has two squads of its own (children); the team pass covers them with the team. */
    const withSquads = () =>
      world.server.on(
        'GET',
        `${API}/participants`,
        ok([
          {
            ...EVENT.participants[0],
            children: [
              { id: 31, name: 'Huskies U21' },
              { id: 32, name: 'Huskies Reserves' },
            ],
          },
          EVENT.participants[1],
          { id: 31, name: 'Huskies U21' },
          { id: 32, name: 'Huskies Reserves' },
        ]),
      );

    it("says which of the chosen team's teams the pass covers too, in English and French", async () => {
      // A configuration of its own, so the catalogues (kept per configuration) are fetched afresh.
      setConfig({ ...CONFIGURATION }, 'http://api.test/channel-elements.js');
      withSquads();
      signedIn();
      for (const [lang, words] of [
        ['en', 'This pass covers its teams too: Huskies U21 and Huskies Reserves.'],
        ['fr', 'Ce passe couvre aussi ses équipes : Huskies U21 et Huskies Reserves.'],
      ] as const) {
        const el = await fixture(html`<channel-checkout package-id="903" lang=${lang}></channel-checkout>`);
        await showsPart(el, 'team-select');
        const select = $<HTMLSelectElement>(el, '[part~="team-select"] select')!;
        choose(select, '21');
        await showsPart(el, 'team-children');
        expect(partText(el, 'team-children')).to.equal(words);
        expect(select.getAttribute('aria-describedby')).to.equal(part(el, 'team-children')!.id);
        choose(select, '22');
        await waitUntil(() => !has(el, 'team-children'), 'a team without teams of its own says nothing more');
        expect(select.hasAttribute('aria-describedby')).to.equal(false);
        el.remove();
      }
    });
  });

  describe('coupons', () => {
    it('a bad code: Promo code is invalid; a good one: the discount and the new total', async () => {
      signedIn();
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await showsPart(el, 'total');
      const input = $<HTMLInputElement>(el, '[part~="coupon"] input')!;
      expect(input.labels![0]!.textContent).to.equal('Promo code');
      type(input, 'NOPE');
      press(el, 'coupon-apply');
      await showsPart(el, 'coupon-error');
      expect(partText(el, 'coupon-error')).to.equal('Promo code is invalid');
      expect(part(el, 'coupon-error')!.getAttribute('role')).to.equal('alert');
      expect(input.getAttribute('aria-invalid')).to.equal('true');
      expect(calls('GET', 'apply_coupon')[0]!.query).to.include({ code: 'NOPE', type: 'event', id: '501' });
      type(input, 'SAVE10');
      press(el, 'coupon-apply');
      await showsPart(el, 'discount');
      expect(partText(el, 'discount')).to.equal('Discount (SAVE10)−EUR €1.25');
      expect(partText(el, 'total')).to.equal('TotalEUR €11.88');
      expect(calls('GET', 'pricing').at(-1)!.query).to.include({ coupon: 'SAVE10' });
      expect(has(el, 'coupon-error')).to.equal(false);
    });
  });

  describe('guest', () => {
    it('is asked to sign in first (channel-login-request), then continues where they were', async () => {
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await showsPart(el, 'sign-in');
      expect(text(el)).to.include('Sign in to buy');
      expect(calls('GET', 'pricing'), 'nothing priced for a guest').to.have.length(0);
      const requests = listen('channel-login-request');
      press(el, 'sign-in-button');
      requests.stop();
      expect(requests.seen.map((e) => e.detail)).to.deep.equal([{ reason: 'purchase', eventId: 501 }]);
      expect(requests.seen[0]!.composed).to.equal(true);
      // <channel-profile> (or another tab) signs the viewer in: the checkout continues at the summary.
      signedIn();
      await showsPart(el, 'total');
      expect(partText(el, 'title')).to.equal('LSU @ NFU');
    });
  });

  describe('payment', () => {
    it('Stripe loads only at the payment step; the Payment Element (the price as a deferred intent) mounts in light DOM through the card slot', async () => {
      signedIn();
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await showsPart(el, 'total');
      expect(stripeLog.fields).to.have.length(0);
      await toPayment(el);
      await waitUntil(
        () => stripeLog.fields.length === 1 && stripeLog.fields[0]!.node !== undefined,
        'the card mounted',
        { timeout: 4000 },
      );
      // EUR 13.13 in cents, the viewer's language.
      expect(stripeLog.fields[0]!.options).to.deep.equal({
        mode: 'payment',
        amount: 1313,
        currency: 'eur',
        locale: 'en',
      });
      const node = stripeLog.fields[0]!.node!;
      expect(node.parentElement, 'a light-DOM child of the element').to.equal(el);
      expect(node.getAttribute('slot')).to.equal('card');
      const slot = $<HTMLSlotElement>(el, '[part~="card"] slot[name="card"]')!;
      expect(slot.assignedElements()).to.deep.equal([node]);
      expect(part(el, 'card')!.getAttribute('aria-labelledby')).to.be.a('string');
      expect(text(el)).to.include('256-bit encryption');
      // Leaving the step removes the field.
      press(el, 'back');
      await showsPart(el, 'summary');
      expect(node.isConnected).to.equal(false);
    });

    it('saved cards: choose one or a new card; neither gives the refusal message', async () => {
      signedIn();
      world.server.on(
        'GET',
        `${API}/stripe/list-cards`,
        ok([{ id: 'pm_saved', brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 }]),
      );
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await toPayment(el);
      expect(partText(el, 'saved-card')).to.equal('Visa ending in 4242, expires 04/2031');
      expect(has(el, 'new-card'), 'no card field until asked').to.equal(false);
      press(el, 'pay');
      await showsPart(el, 'pay-error');
      expect(partText(el, 'pay-error')).to.equal('Please select one of your saved cards or enter new one');
      expect(calls('POST', 'stripe/buy')).to.have.length(0);
      $<HTMLInputElement>(el, '[part~="new-card-option"] input')!.click();
      await showsPart(el, 'new-card');
      $<HTMLInputElement>(el, '[part~="saved-card"] input')!.click();
      press(el, 'pay');
      await showsPart(el, 'waiting');
      expect(calls('POST', 'stripe/buy')[0]!.body).to.include({ payment_method: 'pm_saved' });
      expect(calls('POST', 'stripe/buy')[0]!.body).not.to.have.property('confirmation_token');
      expect(stripeLog.tokens).to.have.length(0);
    });

    it('a double click buys once: waiting, then Payment successful and channel-purchase-complete with ids only', async () => {
      signedIn();
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await toPayment(el);
      await enterCard(el, '4242 4242 4242 4242');
      world.server.on('GET', `${API}/orders/70`, ok(ORDER()), ok(PAID));
      const completes = listen('channel-purchase-complete');
      const pay = part<HTMLButtonElement>(el, 'pay')!;
      pay.click();
      pay.click();
      await showsPart(el, 'waiting');
      expect(partText(el, 'waiting')).to.include('Processing your payment…');
      expect(calls('POST', 'stripe/buy'), 'one buy').to.have.length(1);
      expect(stripeLog.tokens).to.have.length(1);
      expect(calls('POST', 'stripe/buy')[0]!.body).to.include({ confirmation_token: 'ctoken_4242' });
      await poll();
      expect(has(el, 'waiting')).to.equal(true);
      await poll();
      await showsPart(el, 'success');
      completes.stop();
      expect(text(el)).to.include('Payment successful');
      expect(text(el)).to.include('Thank you! LSU @ NFU is yours.');
      expect(text(el)).to.include('Order reference ORD-70');
      expect(completes.seen).to.have.length(1);
      const event = completes.seen[0]!;
      expect(event.detail).to.deep.equal({ orderId: 70, product: { type: 'event', id: 501 } });
      expect(event.bubbles && event.composed).to.equal(true);
      expect(JSON.stringify(event.detail)).not.to.match(/tok-|pm_|secret|4242|ak-/);
      await waitUntil(() => focused(el)?.textContent === 'Payment successful', 'focus on the success heading', {
        timeout: 4000,
      });
    });

    it('sends the e-commerce events to the tag manager when the channel has one', async () => {
      const tags = useTagManager();
      signedIn();
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await toPayment(el);
      await enterCard(el, '4242 4242 4242 4242');
      press(el, 'pay');
      await poll();
      await showsPart(el, 'success');
      // Sent at idle moments, never in the middle of the payment.
      await waitUntil(() => tags.ecommerce().length === 5, 'the e-commerce events', { timeout: 4000 });
      const events = tags.ecommerce();
      expect(events.map((a) => a[1])).to.deep.equal([
        'view_buy_page',
        'add_to_cart',
        'begin_checkout',
        'purchase',
        'purchase_success',
      ]);
      expect(events.at(-1)![2]).to.deep.include({
        currency: 'EUR',
        price: 12.5,
        fee: 0.63,
        tax: 0.63,
        discount: 0,
        value: 13.13,
        transaction_id: '70',
      });
      expect(tags.layer()).not.to.match(/tok-|pm_|ctoken_|secret|4242|ak-/);
      expect(document.querySelectorAll('script[src*="/demo/site/demo-events.js"]')).to.have.length(1);
      tags.done();
    });

    it('a declined card: the order error in a modal alert dialog; Escape returns to Pay; the next try is a new attempt', async () => {
      signedIn();
      world.server.on('GET', `${API}/orders/70`, ok(DECLINED));
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await toPayment(el);
      await enterCard(el, '4000 0000 0000 0002');
      press(el, 'pay');
      await showsPart(el, 'waiting');
      await poll();
      await showsPart(el, 'failed-dialog');
      const dialog = part<HTMLDialogElement>(el, 'failed-dialog')!;
      expect(dialog.getAttribute('role')).to.equal('alertdialog');
      expect(dialog.open && dialog.matches(':modal')).to.equal(true);
      expect(dialog.textContent).to.include('Payment failed');
      expect(dialog.textContent).to.include('Your card was declined.');
      expect(focused(el)).to.equal(part(el, 'failed-ok'));
      // Tab stays inside the dialog.
      part(el, 'failed-ok')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
      expect(focused(el)).to.equal(part(el, 'failed-ok'));
      await expect(el).shadowDom.to.be.accessible();
      dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      await waitUntil(() => !has(el, 'failed-dialog'), 'the dialog closed', { timeout: 4000 });
      expect(has(el, 'payment')).to.equal(true);
      await waitUntil(() => focused(el) === part(el, 'pay'), 'focus back on Pay', { timeout: 4000 });
      // A new attempt: a new idempotency key.
      world.server.on('POST', `${API}/stripe/buy`, ok({ order: ORDER({ id: 71 }) }));
      world.server.on('GET', `${API}/orders/71`, ok(ORDER({ id: 71, status: 'paid', activity_status: 'active' })));
      await enterCard(el, '4242 4242 4242 4242');
      press(el, 'pay');
      await showsPart(el, 'waiting');
      const keys = calls('POST', 'stripe/buy').map((r) => (r.body as { idempotency_key: string }).idempotency_key);
      expect(keys).to.have.length(2);
      expect(keys[0]).not.to.equal(keys[1]);
    });

    it('a buy lost on the way (the network) or that the server cannot take says so; Pay again retries the same attempt (same idempotency key)', async () => {
      signedIn();
      world.server.on(
        'POST',
        `${API}/stripe/buy`,
        new TypeError('Failed to fetch'),
        { status: 503, body: {} },
        ok({ order: ORDER() }),
      );
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await toPayment(el);
      await enterCard(el, '4242 4242 4242 4242');
      press(el, 'pay');
      await waitUntil(() => calls('POST', 'stripe/buy').length === 1, 'the first try', { timeout: 4000 });
      await world.advance(1_000);
      await showsPart(el, 'pay-error');
      expect(partText(el, 'pay-error')).to.match(/^Your payment could not be sent\. Please try again\./);
      expect(part<HTMLButtonElement>(el, 'pay')!.disabled).to.equal(false);
      press(el, 'pay');
      await showsPart(el, 'waiting');
      const keys = calls('POST', 'stripe/buy').map((r) => (r.body as { idempotency_key: string }).idempotency_key);
      expect(keys).to.have.length(3);
      expect(new Set(keys).size).to.equal(1);
    });

    it('a card Stripe refuses shows its message at once and sends nothing', async () => {
      signedIn();
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await toPayment(el);
      await enterCard(el, '1234 5678');
      press(el, 'pay');
      await showsPart(el, 'pay-error');
      expect(partText(el, 'pay-error')).to.equal('Your card number is incorrect.');
      expect(calls('POST', 'stripe/buy')).to.have.length(0);
    });

    for (const [lang, connection] of [
      ['en', 'We could not reach our payment provider. Check your connection and try again.'],
      ['fr', "Nous n'avons pas pu joindre notre prestataire de paiement. Vérifiez votre connexion et réessayez."],
    ] as const) {
      it(`Stripe out of reach (${lang}): says so, translated, and sends nothing; Pay again once it is back`, async () => {
        signedIn();
        const el = await fixture(html`<channel-checkout event-id="501" lang=${lang}></channel-checkout>`);
        await toPayment(el);
        await enterCard(el, '4242 4242 4242 4242');
        // Stripe.js cannot reach Stripe (the viewer's connection dropped): no token, nothing goes to our API.
        stripeLog.offline = true;
        press(el, 'pay');
        await showsPart(el, 'pay-error');
        expect(partText(el, 'pay-error')).to.equal(connection);
        expect(part(el, 'pay-error')!.getAttribute('role')).to.equal('alert');
        expect(calls('POST', 'stripe/buy')).to.have.length(0);
        expect(stripeLog.tokens).to.have.length(0);
        stripeLog.offline = false;
        press(el, 'pay');
        await showsPart(el, 'waiting');
        expect(calls('POST', 'stripe/buy')).to.have.length(1);
        await poll();
        await showsPart(el, 'success');
      });
    }

    it('the bounded wait ends in "we\'ll let you know" with the order reference; a request error offers Retry', async () => {
      signedIn();
      world.server.on('GET', `${API}/orders/70`, ok(ORDER()));
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await toPayment(el);
      await enterCard(el, '4242424242424242');
      press(el, 'pay');
      await showsPart(el, 'waiting');
      for (let t = 0; t < MAX_WAIT_MS; t += POLL_MS) await world.advance(POLL_MS);
      await showsPart(el, 'pending');
      expect(text(el)).to.include("We'll let you know when your payment is confirmed. Order reference ORD-70");
      expect(text(el)).not.to.match(/failed/i);
      // Checking again: the server cannot be reached; Retry resumes.
      world.server.on('GET', `${API}/orders/70`, { status: 404, body: { message: 'Order not found' } }, ok(PAID));
      press(el, 'retry');
      await showsPart(el, 'waiting');
      await poll();
      await shows(el, 'We could not check your payment');
      press(el, 'retry');
      await poll();
      await showsPart(el, 'success');
    }).timeout(15000);

    it('a trial: Start your 7-day free trial with a card (its setup through 3-D Secure), then the trial has started', async () => {
      signedIn();
      const trial = { id: 80, type: 'subscription', product: { id: 31 } };
      world.server
        .on(
          'POST',
          `${API}/stripe/subscription/start_trial`,
          ok({ order: ORDER({ ...trial, status: 'created' }), action: { client_secret: 'seti_9_secret_t' } }),
        )
        .on('GET', `${API}/orders/80`, ok(ORDER({ ...trial, status: 'active', activity_status: 'active' })));
      const completes = listen('channel-purchase-complete');
      const el = await fixture(html`<channel-checkout subscription-id="31"></channel-checkout>`);
      await showsPart(el, 'total');
      expect(partText(el, 'continue')).to.equal('Start your 7-day free trial');
      await toPayment(el);
      expect(partText(el, 'pay')).to.equal('Start your 7-day free trial');
      // Nothing is charged now: the Payment Element saves a card.
      expect(stripeLog.fields.at(-1)!.options).to.deep.equal({ mode: 'setup', currency: 'eur', locale: 'en' });
      expect(has(el, 'new-card') && !text(el).includes('Save this card'), 'a trial saves its card anyway').to.equal(
        true,
      );
      await enterCard(el, '4000 0025 0000 3155');
      press(el, 'pay');
      await showsPart(el, 'waiting');
      expect(stripeLog.nextActions).to.deep.equal(['seti_9_secret_t']);
      await poll();
      await showsPart(el, 'success');
      completes.stop();
      expect(text(el)).to.include('Your free trial of All-access monthly has started.');
      expect(calls('POST', 'stripe/subscription/start_trial')[0]!.body).to.include({
        subscription_id: 31,
        confirmation_token: 'ctoken_3155',
      });
      expect(calls('POST', 'stripe/setup-intent'), 'the server makes the setup intent').to.have.length(0);
      expect(calls('POST', 'stripe/buy')).to.have.length(0);
      expect(completes.seen.map((e) => e.detail)).to.deep.equal([
        { orderId: 80, product: { type: 'subscription', id: 31 } },
      ]);
    });
  });

  describe('3-D Secure', () => {
    const ACTION = { client_secret: 'pi_3ds_secret_x' };

    it('the card asks for authentication: the challenge (handleNextAction), then the order poll, then success', async () => {
      signedIn();
      world.server.on('POST', `${API}/stripe/buy`, ok({ order: ORDER(), action: ACTION }));
      const completes = listen('channel-purchase-complete');
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await toPayment(el);
      await enterCard(el, '4000 0025 0000 3155');
      press(el, 'pay');
      await showsPart(el, 'waiting');
      expect(stripeLog.nextActions).to.deep.equal(['pi_3ds_secret_x']);
      expect(calls('POST', 'stripe/buy')[0]!.body).to.include({ confirmation_token: 'ctoken_3155' });
      await poll();
      await showsPart(el, 'success');
      completes.stop();
      expect(completes.seen.map((e) => e.detail)).to.deep.equal([{ orderId: 70, product: { type: 'event', id: 501 } }]);
    });

    it('a saved card that asks for authentication goes through the challenge too', async () => {
      signedIn();
      world.server
        .on(
          'GET',
          `${API}/stripe/list-cards`,
          ok([{ id: 'pm_3184', brand: 'visa', last4: '3184', exp_month: 4, exp_year: 2031 }]),
        )
        .on('POST', `${API}/stripe/buy`, ok({ order: ORDER(), action: ACTION }));
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await toPayment(el);
      $<HTMLInputElement>(el, '[part~="saved-card"] input')!.click();
      press(el, 'pay');
      await showsPart(el, 'waiting');
      expect(calls('POST', 'stripe/buy')[0]!.body).to.include({ payment_method: 'pm_3184' });
      expect(stripeLog.nextActions).to.deep.equal(['pi_3ds_secret_x']);
      await poll();
      await showsPart(el, 'success');
    });

    for (const [lang, message] of [
      ['en', AUTH_FAILED],
      [
        'fr',
        'Nous ne parvenons pas à authentifier votre moyen de paiement. Veuillez choisir un autre moyen de paiement et réessayer.',
      ],
    ] as const) {
      it(`the authentication failed (${lang}): back at the card step with Stripe’s message, the card field kept; the next Pay is a new attempt`, async () => {
        signedIn();
        world.server.on('POST', `${API}/stripe/buy`, ok({ order: ORDER(), action: ACTION }));
        stripeLog.nextAction = 'fail';
        const el = await fixture(html`<channel-checkout event-id="501" lang=${lang}></channel-checkout>`);
        await toPayment(el);
        await enterCard(el, '4000 0027 6000 3184');
        press(el, 'pay');
        await showsPart(el, 'pay-error');
        expect(partText(el, 'pay-error')).to.equal(message);
        expect(part(el, 'pay-error')!.getAttribute('role')).to.equal('alert');
        expect(has(el, 'payment') && !has(el, 'waiting') && !has(el, 'failed-dialog')).to.equal(true);
        expect(part<HTMLButtonElement>(el, 'pay')!.disabled).to.equal(false);
        expect(stripeLog.fields, 'the same field').to.have.length(1);
        expect(stripeLog.fields[0]!.node!.isConnected).to.equal(true);
        expect(calls('GET', 'orders/70'), 'no wait for it').to.have.length(0);
        // Another card: a new attempt (a new key), and the challenge completes this time.
        stripeLog.nextAction = 'complete';
        world.server.on('POST', `${API}/stripe/buy`, ok({ order: ORDER({ id: 71 }) }));
        world.server.on('GET', `${API}/orders/71`, ok(ORDER({ id: 71, status: 'paid', activity_status: 'active' })));
        typeCard('4242 4242 4242 4242');
        press(el, 'pay');
        await showsPart(el, 'waiting');
        expect(has(el, 'pay-error')).to.equal(false);
        const keys = calls('POST', 'stripe/buy').map((r) => (r.body as { idempotency_key: string }).idempotency_key);
        expect(keys).to.have.length(2);
        expect(keys[0]).not.to.equal(keys[1]);
        await poll();
        await showsPart(el, 'success');
      });
    }

    it('sends purchase_failed for an order whose authentication failed', async () => {
      const tags = useTagManager();
      signedIn();
      world.server.on('POST', `${API}/stripe/buy`, ok({ order: ORDER(), action: ACTION }));
      stripeLog.nextAction = 'fail';
      const el = await fixture(html`<channel-checkout event-id="501"></channel-checkout>`);
      await toPayment(el);
      await enterCard(el, '4000 0000 0000 3220');
      press(el, 'pay');
      await showsPart(el, 'pay-error');
      await waitUntil(() => tags.ecommerce().length === 5, 'the e-commerce events', { timeout: 4000 });
      expect(tags.ecommerce().map((a) => a[1])).to.deep.equal([
        'view_buy_page',
        'add_to_cart',
        'begin_checkout',
        'purchase',
        'purchase_failed',
      ]);
      expect(tags.ecommerce().at(-1)![2]).to.deep.include({ transaction_id: '70' });
      expect(tags.layer()).not.to.match(/ctoken_|pi_|secret|3220/);
      tags.done();
    });
  });

  describe('channel-purchase-request', () => {
    it('a paywall offer elsewhere on the page opens that offer here', async () => {
      signedIn();
      const el = await fixture(html`<channel-checkout></channel-checkout>`);
      await showsPart(el, 'offer');
      const paywall = document.createElement('div');
      document.body.append(paywall);
      paywall.dispatchEvent(
        new ChannelPurchaseRequestEvent({ eventId: 501, offer: { type: 'event', id: 501, packageId: 900 } }),
      );
      paywall.remove();
      await showsPart(el, 'total');
      expect(partText(el, 'title')).to.equal('LSU @ NFU');
      expect(calls('GET', 'pricing')[0]!.query).to.include({
        type: 'event',
        id: '501',
        single_event_package_id: '900',
      });
      expect(has(el, 'back'), 'not opened from the list').to.equal(false);
      await waitUntil(() => focused(el) === part(el, 'title'), 'focus on the offer heading', { timeout: 4000 });
    });
  });

  describe('French', () => {
    it('lang="fr" shows the checkout in French', async () => {
      signedIn();
      const el = await fixture(html`<channel-checkout subscription-id="32" lang="fr"></channel-checkout>`);
      await showsPart(el, 'total');
      expect(partText(el, 'renewal')).to.equal('Renouvelé tous les 12 mois');
      expect(partText(el, 'final')).to.equal('Toutes les ventes sont définitives');
      expect(partText(el, 'total')).to.equal('TotalEUR €99,00');
      expect(partText(el, 'continue')).to.equal('Continuer vers le paiement');
      const input = $<HTMLInputElement>(el, '[part~="coupon"] input')!;
      type(input, 'NOPE');
      press(el, 'coupon-apply');
      await showsPart(el, 'coupon-error');
      expect(partText(el, 'coupon-error')).to.equal('Le code promo est invalide');
    });
  });

  describe('accessibility', () => {
    it('the offers list, the summary and the payment step pass an axe audit', async () => {
      signedIn();
      world.server.on(
        'GET',
        `${API}/stripe/list-cards`,
        ok([{ id: 'pm_saved', brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 }]),
      );
      const el = await fixture(html`<channel-checkout></channel-checkout>`);
      await waitUntil(() => $$(el, '[part~="offer"]').length === 4, 'four offers', { timeout: 4000 });
      await expect(el).shadowDom.to.be.accessible();
      $$<HTMLButtonElement>(el, '[part~="offer-select"]')[1]!.click();
      await showsPart(el, 'team-select');
      await shows(el, 'team not selected');
      await expect(el).shadowDom.to.be.accessible();
      choose($<HTMLSelectElement>(el, '[part~="team-select"] select')!, '22');
      await toPayment(el);
      press(el, 'pay');
      await showsPart(el, 'pay-error');
      await expect(el).shadowDom.to.be.accessible();
    });
  });

  describe('subscription actions (mounted in the profile orders list)', () => {
    const SUBSCRIPTION = ORDER({
      id: 1,
      type: 'subscription',
      status: 'paid',
      activity_status: 'active',
      product: { id: 31, name: 'All-access monthly' },
      subscription_status: 'active',
      auto_renewal: 'active',
    });
    /** A bare element around the component, as the profile's shell would hold it. */
    function Harness(props: ShellProps) {
      return (
        <ElementShell container={props.container} lang={undefined} css="">
          {() => <SubscriptionActions order={SUBSCRIPTION} />}
        </ElementShell>
      );
    }
    before(() => {
      if (!customElements.get('test-subscription-actions'))
        customElements.define('test-subscription-actions', makeElement(Harness as never, []));
    });
    let stay: (() => void) | undefined;
    afterEach(() => stay?.());

    it('Cancel auto-renewal asks first in a modal dialog (Escape keeps it), then processing, then finished', async () => {
      signedIn();
      world.server
        .on('POST', `${API}/stripe/unsubscribe`, ok({ status: 'processing' }))
        .on('GET', `${API}/orders/1`, ok({ ...SUBSCRIPTION, auto_renewal: 'cancelled' }));
      const el = await fixture(html`<test-subscription-actions></test-subscription-actions>`);
      await showsPart(el, 'cancel-renewal');
      press(el, 'cancel-renewal');
      await showsPart(el, 'confirm-dialog');
      const dialog = part<HTMLDialogElement>(el, 'confirm-dialog')!;
      expect(dialog.matches(':modal')).to.equal(true);
      expect(dialog.getAttribute('aria-labelledby')).to.be.a('string');
      expect(focused(el), 'the safe choice has focus').to.equal(part(el, 'keep'));
      // Tab and Shift+Tab wrap inside the dialog.
      part(el, 'keep')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
      expect(focused(el)).to.equal(part(el, 'confirm-cancel'));
      part(el, 'confirm-cancel')!.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true }),
      );
      expect(focused(el)).to.equal(part(el, 'keep'));
      await expect(el).shadowDom.to.be.accessible();
      dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      await waitUntil(() => !has(el, 'confirm-dialog'), 'closed', { timeout: 4000 });
      expect(calls('POST', 'stripe/unsubscribe')).to.have.length(0);
      press(el, 'cancel-renewal');
      await showsPart(el, 'confirm-cancel');
      press(el, 'confirm-cancel');
      await shows(el, 'Cancelling auto-renewal…');
      expect(calls('POST', 'stripe/unsubscribe')[0]!.body).to.include({ order_id: 1 });
      await poll();
      await shows(el, 'Auto-renewal is cancelled. Your subscription ends with the paid period.');
      expect(has(el, 'cancel-renewal')).to.equal(false);
    });

    it('Manage cards and invoices opens the customer portal in this tab', async () => {
      signedIn();
      world.server.on('GET', `${API}/stripe/customer-portal`, ok({ url: 'https://pay.test/portal/session-1' }));
      const capture = captureNavigation();
      stay = capture.restore;
      const opened = capture.assigned;
      const el = await fixture(html`<test-subscription-actions></test-subscription-actions>`);
      await showsPart(el, 'customer-portal');
      expect(partText(el, 'customer-portal')).to.equal('Manage cards and invoices');
      press(el, 'customer-portal');
      await waitUntil(() => opened.length === 1, 'the portal opened', { timeout: 4000 });
      expect(opened).to.deep.equal(['https://pay.test/portal/session-1']);
    });

    it('a portal address that is not an http(s) URL is the portal’s failure, and the page goes nowhere', async () => {
      signedIn();
      world.server.on('GET', `${API}/stripe/customer-portal`, ok({ url: 'javascript:alert(document.domain)' }));
      const capture = captureNavigation();
      stay = capture.restore;
      const el = await fixture(html`<test-subscription-actions></test-subscription-actions>`);
      await showsPart(el, 'customer-portal');
      press(el, 'customer-portal');
      await showsPart(el, 'portal-error');
      expect(capture.assigned).to.deep.equal([]);
    });
  });
});
