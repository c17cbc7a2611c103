/**
 * The REST routes of the Stripe double (dev/stripe.ts): the subset of Stripe's API the channel server calls with
 * its secret key (customers, payment methods, payment intents, setup intents, products, prices, coupons,
 * subscriptions, invoices, invoice payments, refunds, billing portal sessions, events), and what Stripe.js calls
 * with a publishable key (confirmation tokens and payment methods from the card the viewer typed, an intent read by
 * its client secret, the 3-D Secure challenge's answer).
 */
import type { Billing } from './stripe-billing.js';
import type { Ledger, Source } from './stripe-ledger.js';
import { invalid, list, missing, StripeRefusal, type PaymentMethod, type Recurring } from './stripe-objects.js';
import { flag, integer, metadataOf, nested, required, text, texts, type Params } from './stripe-params.js';
import type { Webhooks } from './stripe-webhooks.js';

/** Who may call a route: the secret key (the server), a publishable key (Stripe.js), or anyone with the link. */
export type Access = 'secret' | 'publishable' | 'anyone';

/** What a route's handler gets. */
export interface Call {
  params: Params;
  /** The path's captured ids. */
  ids: string[];
  /** A publishable key's call: reads need the intent's client secret. */
  browser: boolean;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: RegExp;
  access: Access;
  run(call: Call): unknown;
}

/** The objects the routes act on. */
export interface ApiState {
  ledger: Ledger;
  billing: Billing;
  webhooks: Webhooks;
  /** A new billing portal session of a customer: its URL. */
  portalSession(customer: string, returnUrl: string): unknown;
}

const ID = '([A-Za-z0-9_-]+)';
const route = (method: Route['method'], path: string, access: Access, run: Route['run']): Route => ({
  method,
  path: new RegExp(`^/v1/${path.replace(/:id/g, ID)}$`),
  access,
  run,
});

/** What a confirmation uses (`payment_method` or `confirmation_token`). */
const sourceOf = (params: Params): Source => ({
  paymentMethod: text(params, 'payment_method'),
  confirmationToken: text(params, 'confirmation_token'),
});

/** The card fields and billing details of `payment_method_data` (or a payment method's own `card`). */
function cardData(params: Params): { card: Params; billing: PaymentMethod['billing_details'] } {
  if (text(params, 'type') !== 'card')
    throw invalid('The Stripe double takes card payment methods only (type=card).', 'type');
  const billing = nested(params, 'billing_details');
  return {
    card: nested(params, 'card'),
    billing: { name: text(billing, 'name') ?? null, email: text(billing, 'email') ?? null },
  };
}

/** The intent a browser reads or confirms: only with its client secret, as Stripe.js does. */
function withSecret<T extends { client_secret: string }>(call: Call, intent: T): T {
  if (call.browser && text(call.params, 'client_secret') !== intent.client_secret)
    throw missing(intent.client_secret.startsWith('seti_') ? 'setupintent' : 'payment_intent', call.ids[0]!, 'intent');
  return intent;
}

const limit = <T>(items: T[], params: Params) => items.slice(-(integer(params, 'limit') ?? 10)).reverse();

export function apiRoutes(state: ApiState): Route[] {
  const { ledger, billing } = state;
  return [
    // Customers and their cards.
    route('POST', 'customers', 'secret', ({ params }) =>
      ledger.createCustomer({ email: text(params, 'email'), name: text(params, 'name'), metadata: metadataOf(params) }),
    ),
    route('GET', 'customers/:id', 'secret', ({ ids }) => ledger.customer(ids[0]!)),
    route('POST', 'customers/:id', 'secret', ({ ids, params }) => {
      const customer = ledger.customer(ids[0]!);
      const method = text(nested(params, 'invoice_settings'), 'default_payment_method');
      if (method) customer.invoice_settings.default_payment_method = ledger.paymentMethod(method).id;
      customer.metadata = { ...customer.metadata, ...metadataOf(params) };
      return customer;
    }),
    route('GET', 'customers/:id/payment_methods', 'secret', ({ ids, params }) => {
      const customer = ledger.customer(ids[0]!);
      const mine = [...ledger.paymentMethods.values()].filter((m) => m.customer === customer.id);
      return list(limit(mine, params), `/v1/customers/${customer.id}/payment_methods`);
    }),
    route('POST', 'payment_methods', 'publishable', ({ params }) => {
      const { card, billing } = cardData(params);
      return ledger.createPaymentMethod(card, billing);
    }),
    route('GET', 'payment_methods/:id', 'secret', ({ ids }) => ledger.paymentMethod(ids[0]!)),
    route('POST', 'payment_methods/:id/attach', 'secret', ({ ids, params }) => {
      const method = ledger.paymentMethod(ids[0]!);
      ledger.attach(method, ledger.customer(required(params, 'customer')).id);
      return method;
    }),
    route('POST', 'payment_methods/:id/detach', 'secret', ({ ids }) => ledger.detach(ids[0]!)),
    route('POST', 'confirmation_tokens', 'publishable', ({ params }) => {
      const { card, billing } = cardData(nested(params, 'payment_method_data'));
      return ledger.createConfirmationToken(card, billing, text(params, 'setup_future_usage') ?? null);
    }),
    route('GET', 'confirmation_tokens/:id', 'secret', ({ ids }) => {
      const token = ledger.tokens.get(ids[0]!);
      if (!token) throw missing('confirmationtoken', ids[0]!);
      return token;
    }),

    // Payment intents.
    route('POST', 'payment_intents', 'secret', ({ params }) => {
      const usage = text(params, 'setup_future_usage');
      if (usage !== undefined && usage !== 'off_session' && usage !== 'on_session')
        throw invalid(`Invalid setup_future_usage: ${usage}`, 'setup_future_usage');
      const intent = ledger.createPaymentIntent({
        amount: integer(params, 'amount') ?? NaN,
        currency: required(params, 'currency'),
        customer: text(params, 'customer'),
        description: text(params, 'description'),
        metadata: metadataOf(params),
        setupFutureUsage: usage,
        types: texts(params, 'allowed_payment_method_types'),
      });
      if (flag(params, 'confirm'))
        return ledger.confirmPayment(intent, sourceOf(params), flag(params, 'off_session') ?? false);
      if (text(params, 'payment_method'))
        intent.payment_method = ledger.paymentMethod(text(params, 'payment_method')!).id;
      return intent;
    }),
    route('GET', 'payment_intents', 'secret', ({ params }) => {
      const customer = text(params, 'customer');
      const found = [...ledger.paymentIntents.values()].filter((i) => !customer || i.customer === customer);
      return list(limit(found, params), '/v1/payment_intents');
    }),
    route('GET', 'payment_intents/:id', 'publishable', (call) => withSecret(call, ledger.paymentIntent(call.ids[0]!))),
    route('POST', 'payment_intents/:id/confirm', 'secret', ({ ids, params }) =>
      ledger.confirmPayment(ledger.paymentIntent(ids[0]!), sourceOf(params), flag(params, 'off_session') ?? false),
    ),
    route('POST', 'payment_intents/:id/cancel', 'secret', ({ ids, params }) =>
      ledger.cancelPayment(ledger.paymentIntent(ids[0]!), text(params, 'cancellation_reason')),
    ),

    // Setup intents.
    route('POST', 'setup_intents', 'secret', ({ params }) =>
      ledger.createSetupIntent({ customer: text(params, 'customer'), metadata: metadataOf(params) }),
    ),
    route('GET', 'setup_intents/:id', 'publishable', (call) => withSecret(call, ledger.setupIntent(call.ids[0]!))),
    route('POST', 'setup_intents/:id/confirm', 'secret', ({ ids, params }) =>
      ledger.confirmSetup(ledger.setupIntent(ids[0]!), sourceOf(params)),
    ),

    // 3-D Secure: the challenge's answer (its id in the address is all it needs, as Stripe's challenge pages).
    route('POST', '3ds/:id', 'anyone', ({ ids, params }) => {
      const intent = ledger.authenticate(ids[0]!, text(params, 'result') === 'complete');
      return { object: 'three_d_secure', status: intent.status };
    }),

    // Charges, refunds.
    route('GET', 'charges/:id', 'secret', ({ ids }) => ledger.charge(ids[0]!)),
    route('POST', 'refunds', 'secret', ({ params }) =>
      ledger.refund({
        paymentIntent: text(params, 'payment_intent'),
        charge: text(params, 'charge'),
        amount: integer(params, 'amount'),
        reason: text(params, 'reason'),
      }),
    ),

    // Products, prices, coupons.
    route('POST', 'products', 'secret', ({ params }) =>
      billing.createProduct({ id: text(params, 'id'), name: required(params, 'name'), metadata: metadataOf(params) }),
    ),
    route('GET', 'products/:id', 'secret', ({ ids }) => billing.product(ids[0]!)),
    route('POST', 'products/:id', 'secret', ({ ids, params }) =>
      billing.updateProduct(ids[0]!, {
        name: text(params, 'name'),
        active: flag(params, 'active'),
        metadata: metadataOf(params),
      }),
    ),
    route('POST', 'prices', 'secret', ({ params }) => {
      const recurring = nested(params, 'recurring');
      // Without `recurring`: a one-time price (a package's).
      const interval = Object.keys(recurring).length ? required(recurring, 'interval', 'recurring[interval]') : null;
      if (interval !== null && !['day', 'week', 'month', 'year'].includes(interval))
        throw invalid(`Invalid interval: ${interval}`, 'recurring[interval]');
      return billing.createPrice({
        product: required(params, 'product'),
        unit_amount: integer(params, 'unit_amount') ?? 0,
        currency: required(params, 'currency'),
        recurring:
          interval === null
            ? null
            : {
                interval: interval as Recurring['interval'],
                interval_count: integer(recurring, 'interval_count') ?? 1,
              },
        lookup_key: text(params, 'lookup_key'),
        metadata: metadataOf(params),
      });
    }),
    route('GET', 'prices/:id', 'secret', ({ ids }) => billing.price(ids[0]!)),
    route('POST', 'prices/:id', 'secret', ({ ids, params }) =>
      billing.updatePrice(ids[0]!, { active: flag(params, 'active'), metadata: metadataOf(params) }),
    ),
    route('GET', 'prices', 'secret', ({ params }) =>
      list(billing.findPrices(texts(params, 'lookup_keys')), '/v1/prices'),
    ),
    route('POST', 'coupons', 'secret', ({ params }) => {
      const duration = text(params, 'duration') ?? 'once';
      if (duration !== 'once' && duration !== 'forever' && duration !== 'repeating')
        throw invalid(`Invalid duration: ${duration}`, 'duration');
      const amountOff = integer(params, 'amount_off');
      const percent = text(params, 'percent_off');
      return billing.createCoupon({
        id: text(params, 'id'),
        amount_off: amountOff ?? null,
        percent_off: percent === undefined ? null : Number(percent),
        currency: amountOff === undefined ? null : required(params, 'currency'),
        duration,
        duration_in_months: integer(params, 'duration_in_months') ?? null,
        name: text(params, 'name') ?? null,
        metadata: metadataOf(params),
      });
    }),
    route('GET', 'coupons/:id', 'secret', ({ ids }) => billing.coupon(ids[0]!)),

    // Subscriptions and invoices.
    route('POST', 'subscriptions', 'secret', ({ params }) => {
      const behaviour = text(params, 'payment_behavior');
      if (behaviour !== 'default_incomplete')
        throw invalid(
          'The Stripe double makes subscriptions with payment_behavior=default_incomplete only.',
          'payment_behavior',
        );
      return billing.createSubscription({
        customer: required(params, 'customer'),
        price: required(nested(nested(params, 'items'), '0'), 'price', 'items[0][price]'),
        trialDays: integer(params, 'trial_period_days'),
        coupon: text(nested(nested(params, 'discounts'), '0'), 'coupon'),
        defaultPaymentMethod: text(params, 'default_payment_method'),
        saveDefault: text(nested(params, 'payment_settings'), 'save_default_payment_method'),
        metadata: metadataOf(params),
      });
    }),
    route('GET', 'subscriptions', 'secret', ({ params }) => {
      const customer = text(params, 'customer');
      const found = [...billing.subscriptions.values()].filter((s) => !customer || s.customer === customer);
      return list(limit(found, params), '/v1/subscriptions');
    }),
    route('GET', 'subscriptions/:id', 'secret', ({ ids }) => billing.subscription(ids[0]!)),
    route('POST', 'subscriptions/:id', 'secret', ({ ids, params }) =>
      billing.updateSubscription(ids[0]!, {
        cancelAtPeriodEnd: flag(params, 'cancel_at_period_end'),
        defaultPaymentMethod: text(params, 'default_payment_method'),
        metadata: metadataOf(params),
      }),
    ),
    route('DELETE', 'subscriptions/:id', 'secret', ({ ids }) => billing.cancelSubscription(ids[0]!)),
    route('GET', 'invoices', 'secret', ({ params }) => {
      const [subscription, status] = [text(params, 'subscription'), text(params, 'status')];
      const found = [...billing.invoices.values()].filter(
        (i) =>
          (!subscription || i.parent.subscription_details.subscription === subscription) &&
          (!status || i.status === status),
      );
      return list(limit(found, params), '/v1/invoices');
    }),
    route('GET', 'invoices/:id', 'secret', ({ ids }) => billing.invoice(ids[0]!)),
    route('GET', 'invoice_payments', 'secret', ({ params }) => {
      const payment = nested(params, 'payment');
      if (!text(params, 'invoice') && !text(payment, 'payment_intent'))
        throw invalid('Provide an invoice or a payment to list invoice payments of.');
      return list(
        billing.paymentsOf({ invoice: text(params, 'invoice'), paymentIntent: text(payment, 'payment_intent') }),
        '/v1/invoice_payments',
      );
    }),

    // The customer portal, and the events.
    route('POST', 'billing_portal/sessions', 'secret', ({ params }) =>
      state.portalSession(ledger.customer(required(params, 'customer')).id, required(params, 'return_url')),
    ),
    route('GET', 'events/:id', 'secret', ({ ids }) => {
      const event = state.webhooks.events.find((e) => e.id === ids[0]);
      if (!event) throw missing('event', ids[0]!);
      return event;
    }),
  ];
}

/** A route that is not one of these: Stripe's answer. */
export const unknownRoute = (method: string, path: string) =>
  new StripeRefusal(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
