/**
 * Dev mode's Stripe double on the channel server's own origin (server.ts mounts these only in dev mode):
 *
 *   /__stripe/…                            the double (dev/stripe.ts) for the browser: Stripe.js's double calls its
 *          API with the channel's publishable key, shows its 3-D Secure challenges, and the customer portal's pages
 *          live here. The server itself calls the double on its own loopback port.
 *
 * and, like the other `/__dev/` endpoints, only with the start's dev secret (`X-Channel-Dev-Secret`), what a channel's
 * operator does in Stripe's dashboard, for the demo and the end-to-end tests:
 *
 *   GET  /__dev/stripe/payments[?email=]     the payment intents of the customers of that email (every one without),
 *        newest first: { data: [{ id, status, amount, currency, metadata, charges: [{ id, refunded, disputed }] }] }
 *   GET  /__dev/stripe/events[?type=]        the events it sent, newest first, with their deliveries' statuses
 *   POST /__dev/stripe/refund?channel_key=&order_id=      refunds the order's payment (a subscription's last paid
 *        invoice): charge.refunded goes to the webhook endpoints
 *   POST /__dev/stripe/dispute?channel_key=&order_id=[&reason=fraudulent]   the cardholder disputes it
 *   POST /__dev/stripe/renew?channel_key=&order_id=       the order's subscription reaches its period's end: the
 *        next period is billed (or it ends, when it was to cancel then)
 *   POST /__dev/stripe/cancel?channel_key=&order_id=      the order's subscription is cancelled at once
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasDevSecret } from '../app/exposure.js';
import { HttpError, sendJson } from '../http/http.js';
import type { PathHandler } from '../http/types.js';
import type { StripeDouble } from './stripe.js';
import type { PaymentIntent, Subscription } from './stripe-objects.js';

/** The double for the browser, under `/__stripe/`. */
export function stripeMount(double: StripeDouble): PathHandler {
  return async (req, res, url) => {
    if (!url.pathname.startsWith('/__stripe/')) return false;
    await double.handle(req, res, url.pathname.slice('/__stripe'.length), url.search);
    return true;
  };
}

/** The Stripe objects a channel's order was paid through (by the metadata the channel server gives them). */
function objectsOf(double: StripeDouble, url: URL): { intent?: PaymentIntent; subscription?: Subscription } {
  const channel = url.searchParams.get('channel_key') ?? 'demo';
  const order = url.searchParams.get('order_id') ?? '';
  const ours = (metadata: Record<string, string>) => metadata.channel === channel && metadata.order_id === order;
  const subscription = [...double.billing.subscriptions.values()].find((s) => ours(s.metadata));
  let intent = [...double.ledger.paymentIntents.values()].find((i) => ours(i.metadata));
  if (subscription) {
    const paid = [...double.billing.invoices.values()]
      .filter(
        (i) =>
          i.parent.subscription_details.subscription === subscription.id && i.status === 'paid' && i.amount_paid > 0,
      )
      .at(-1);
    const payment = paid && double.billing.paymentsOf({ invoice: paid.id })[0];
    intent = payment ? double.ledger.paymentIntents.get(payment.payment.payment_intent) : undefined;
  }
  if (!intent && !subscription) throw new HttpError(404, `No Stripe payment of order ${order} of channel ${channel}.`);
  return { intent, subscription };
}

const send = (res: ServerResponse, status: number, body: unknown) => sendJson(res, status, body, {}, { cors: false });

/** The `/__dev/stripe/` endpoints (see the file comment). */
export function stripeDevEndpoints(double: StripeDouble, secret: string): PathHandler {
  return async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const path = url.pathname.replace(/\/+$/, '');
    if (!path.startsWith('/__dev/stripe/')) return false;
    if (!hasDevSecret(req, secret)) throw new HttpError(403, "The dev endpoints need this start's dev secret.");
    const { ledger, billing, webhooks } = double;
    const method = req.method ?? 'GET';
    if (path === '/__dev/stripe/payments' && method === 'GET') {
      const email = url.searchParams.get('email')?.toLowerCase();
      const customers = new Set(
        [...ledger.customers.values()].filter((c) => !email || c.email?.toLowerCase() === email).map((c) => c.id),
      );
      const data = [...ledger.paymentIntents.values()]
        .filter((i) => i.customer !== null && customers.has(i.customer))
        .reverse()
        .map((i) => ({
          id: i.id,
          status: i.status,
          amount: i.amount,
          currency: i.currency,
          metadata: i.metadata,
          charges: [...ledger.charges.values()]
            .filter((c) => c.payment_intent === i.id)
            .map((c) => ({ id: c.id, refunded: c.refunded, disputed: c.disputed })),
        }));
      send(res, 200, { data });
      return true;
    }
    if (path === '/__dev/stripe/events' && method === 'GET') {
      const type = url.searchParams.get('type');
      const data = webhooks.events
        .filter((e) => !type || e.type === type)
        .reverse()
        .map((e) => ({
          id: e.id,
          type: e.type,
          deliveries: webhooks.deliveries.filter((d) => d.event === e.id).map((d) => d.status),
        }));
      send(res, 200, { data });
      return true;
    }
    if (method !== 'POST') throw new HttpError(404, 'Not found.');
    const { intent, subscription } = objectsOf(double, url);
    if (path === '/__dev/stripe/refund') {
      if (!intent) throw new HttpError(422, 'Nothing of this order was paid.');
      send(res, 200, { data: ledger.refund({ paymentIntent: intent.id }) });
    } else if (path === '/__dev/stripe/dispute') {
      if (!intent) throw new HttpError(422, 'Nothing of this order was paid.');
      send(res, 200, { data: ledger.dispute(intent.id, url.searchParams.get('reason') ?? 'fraudulent') });
    } else if (path === '/__dev/stripe/renew' || path === '/__dev/stripe/cancel') {
      if (!subscription) throw new HttpError(422, 'This order is not a subscription.');
      const next = path.endsWith('renew')
        ? billing.advance(subscription.id)
        : billing.cancelSubscription(subscription.id);
      send(res, 200, { data: next });
    } else {
      throw new HttpError(404, 'Not found.');
    }
    return true;
  };
}
