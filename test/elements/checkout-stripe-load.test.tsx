// <channel-checkout> when Stripe.js itself cannot load (a blocker, a firewall, the viewer's network): the card step
// says so in the viewer's language and offers Retry, which loads it once it can. A test file of its own: the page
// must start without `window.Stripe`, so @stripe/stripe-js goes to js.stripe.com for its script (this page holds the
// script's request back and answers its `error` event, as a blocked request does), and Stripe.js, once loaded, stays
// for the page's life.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { Pricing, Settings, Subscription, User } from '../../src/api/contract.js';
import { setEnv } from '../../src/lib/env.js';
import { resetSession } from '../../src/stores/session.js';
import { signIn } from '../../src/stores/sign-in.js';
import { start } from '../../elements/channel-checkout.js';
import { resetFakeStripe, stripeLog } from '../unit/fake-stripe.js';
import { installWorld, ok, teardown, type World } from '../unit/helpers.js';

const API = 'http://api.test/api';
const KEYS = 'http://api.test/keys';

const ANNUAL = Subscription.parse({ id: 32, name: 'All-access annual', price: 99, offer: 'annual', trial_period: 0 });

let world: World;

function useFakePlatform(): void {
  resetSession();
  world = installWorld();
  setEnv({ eventTarget: window });
  world.server
    .on('GET', `${KEYS}/demo.json`, { body: { channel_key: 'ck-demo' } })
    .on('POST', `${API}/get_api_key`, ok({ api_key: 'ak-123' }))
    .on(
      'GET',
      `${API}/settings`,
      ok(
        Settings.parse({
          name: 'Demo',
          language: 'en',
          currency: 'EUR',
          auth: { remote_auth: 0 },
          stripe: { publishable_key: 'pk_demo' },
        }),
      ),
    )
    .on('GET', `${API}/color-settings/web`, ok({}))
    .on('GET', `${API}/geo`, ok({ country_code: 'US' }))
    .on('GET', `${API}/subscriptions/32`, ok(ANNUAL))
    .on('GET', `${API}/orders`, ok([]))
    .on('GET', `${API}/stripe/list-cards`, ok([]))
    .on(
      'GET',
      `${API}/pricing`,
      ok(
        Pricing.parse({
          type: 'subscription',
          id: 32,
          name: 'All-access annual',
          price: 99,
          service_fee: 0,
          discount: 0,
          total: 99,
          currency: 'EUR',
          offer: 'annual',
          trial_period: 0,
          coupon: null,
          participant_id: null,
          purchased: false,
        }),
      ),
    );
  signIn({ token: 'tok-buyer', user: User.parse({ id: 7, email: 'fan@example.com', first_name: 'Ann' }) });
}

/** The Stripe.js scripts the page asked for; each is held back and fails as a blocked request does. */
const blocked: string[] = [];
const appendChild = document.head.appendChild.bind(document.head);

function blockStripeJs(): void {
  document.head.appendChild = <T extends Node>(node: T): T => {
    if (node instanceof HTMLScriptElement && node.src.startsWith('https://js.stripe.com/')) {
      blocked.push(node.src);
      // Not a script type: the browser keeps it in the document but does not fetch it.
      node.type = 'text/x-blocked';
      appendChild(node);
      setTimeout(() => node.dispatchEvent(new Event('error')));
      return node;
    }
    return appendChild(node);
  };
}

const root = (el: Element) => el.shadowRoot!;
const part = (el: Element, name: string) => root(el).querySelector<HTMLElement>(`[part~="${name}"]`);

async function toCardStep(el: Element): Promise<void> {
  await waitUntil(() => part(el, 'continue') !== null, 'the summary', { timeout: 4000 });
  part(el, 'continue')!.click();
  await waitUntil(() => part(el, 'payment') !== null, 'the payment step', { timeout: 4000 });
}

describe('<channel-checkout> when Stripe.js cannot load', () => {
  before(() =>
    start(
      { channelKey: 'demo', apiUrl: API, keysUrl: KEYS, analyticsUrl: 'http://api.test' },
      'http://api.test/channel-elements.js',
    ),
  );
  beforeEach(() => {
    useFakePlatform();
    blockStripeJs();
  });
  afterEach(() => {
    document.head.appendChild = appendChild;
    teardown();
  });

  for (const [lang, message, retry, notReady] of [
    [
      'fr',
      "Le champ de carte sécurisé n'a pas pu être chargé. Veuillez réessayer.",
      'Réessayer',
      'Le champ de carte est encore en cours de chargement. Veuillez patienter un instant.',
    ],
    [
      'en',
      'The secure card field could not be loaded. Please try again.',
      'Try again',
      'The card field is still loading. Please wait a moment.',
    ],
  ] as const) {
    it(`says so in the viewer's language (${lang}), with Retry; and Pay buys nothing`, async () => {
      blocked.length = 0;
      const el = await fixture(html`<channel-checkout subscription-id="32" lang=${lang}></channel-checkout>`);
      await waitUntil(() => part(el, 'continue') !== null, 'the summary', { timeout: 4000 });
      expect(blocked, 'nothing of Stripe before the card step').to.deep.equal([]);
      await toCardStep(el);
      await waitUntil(() => part(el, 'error') !== null, 'the failure', { timeout: 8000 });
      const failure = part(el, 'error')!;
      expect(failure.getAttribute('role')).to.equal('alert');
      expect(failure.querySelector('p')!.textContent).to.equal(message);
      expect(failure.querySelector('button')!.textContent).to.equal(retry);
      // Stripe's own script was asked for (and @stripe/stripe-js tried it once more).
      expect(blocked.length).to.be.at.least(1);
      expect(blocked.every((src) => /^https:\/\/js\.stripe\.com\/[a-z0-9]+\/stripe\.js/.test(src))).to.equal(true);
      expect(el.querySelector('[slot="card"]'), 'no card field').to.equal(null);
      // Pay without the field: the checkout's own refusal, translated; nothing is bought.
      part(el, 'pay')!.click();
      await waitUntil(() => part(el, 'pay-error') !== null, 'the refusal', { timeout: 4000 });
      expect(part(el, 'pay-error')!.textContent).to.equal(notReady);
      expect(world.server.to('POST', `${API}/stripe/buy`)).to.have.length(0);
    });
  }

  it('Retry, once Stripe.js can load, shows the card field', async () => {
    const el = await fixture(html`<channel-checkout subscription-id="32"></channel-checkout>`);
    await toCardStep(el);
    await waitUntil(() => part(el, 'error') !== null, 'the failure', { timeout: 8000 });
    // The network is back: Stripe.js is on the page (the fake in Stripe's shape).
    resetFakeStripe();
    part(el, 'error')!.querySelector('button')!.click();
    await waitUntil(() => el.querySelector('[slot="card"] input') !== null, 'the card field', { timeout: 4000 });
    expect(part(el, 'error')).to.equal(null);
    expect(stripeLog.keys).to.deep.equal(['pk_demo']);
    expect(stripeLog.fields.map((f) => f.options)).to.deep.equal([
      { mode: 'subscription', amount: 9900, currency: 'eur', locale: 'en' },
    ]);
  });
});
