/**
 * What Stripe's objects say, as the processor's facts (provider.ts): a payment intent (a one-time payment's, or an
 * invoice's: then its invoice's and subscription's), an invoice, a subscription read back, a refund or a dispute of a
 * charge, and the facts of each webhook event, its objects read back from the API where their state matters (events
 * come in any order, and one sent again may be old).
 */
import Stripe from 'stripe';
import { toMajorUnits } from './currencies.js';
import type { IntentState, PaymentFact, PaymentRefs, SubscriptionStatus } from './provider.js';

/** An object's id, whether Stripe answered it or its object. */
export const id = (value: string | { id: string } | null | undefined): string | undefined =>
  typeof value === 'string' ? value : (value?.id ?? undefined);
/** The channel's order a Stripe object's metadata names. */
export const orderIdOf = (metadata: Stripe.Metadata | null | undefined) => {
  const n = Number(metadata?.order_id);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** An intent's state (a payment's or a card's setup). */
export function stateOf(intent: Stripe.PaymentIntent | Stripe.SetupIntent): IntentState {
  const error = intent.object === 'payment_intent' ? intent.last_payment_error : intent.last_setup_error;
  switch (intent.status) {
    case 'succeeded':
      return { status: 'succeeded' };
    case 'requires_action':
      return intent.client_secret
        ? { status: 'requires_action', clientSecret: intent.client_secret }
        : { status: 'pending' };
    case 'canceled':
      return { status: 'failed', message: error?.message ?? 'The payment was not completed.' };
    case 'requires_payment_method':
      return error ? { status: 'failed', message: error.message ?? 'The payment failed.' } : { status: 'pending' };
    default:
      return { status: 'pending' };
  }
}

/** Reading facts through one Stripe client; `now` is the server clock (ms). */
export function stripeFacts(stripe: Stripe, now: () => number) {
  const seconds = () => Math.floor(now() / 1000);

  /** The facts of a payment intent: a one-time payment's, or (an invoice's) its invoice's and subscription's. */
  async function intentFacts(intentId: string): Promise<PaymentFact[]> {
    const intent = await stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] });
    const payments = await stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: intent.id },
    });
    const invoice = payments.data[0]?.invoice;
    if (invoice) return invoiceFacts(id(invoice)!, true);
    const refs: PaymentRefs = {
      channel: intent.metadata.channel,
      orderId: orderIdOf(intent.metadata),
      paymentIntent: intent.id,
    };
    const facts: PaymentFact[] = [{ kind: 'payment', refs, state: stateOf(intent), at: seconds() }];
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    if (charge?.refunded) facts.push({ kind: 'refund', refs, invoice: null, at: seconds() });
    if (charge?.disputed) facts.push({ kind: 'dispute', refs, reason: 'disputed', at: seconds() });
    return facts;
  }

  /** The facts of a subscription's invoice (paid, or refused), and of the subscription with `subscription`. */
  async function invoiceFacts(invoiceId: string, subscription: boolean): Promise<PaymentFact[]> {
    const invoice = await stripe.invoices.retrieve(invoiceId, { expand: ['payments.data.payment.payment_intent'] });
    const details = invoice.parent?.subscription_details;
    const subscriptionId = id(details?.subscription);
    if (!subscriptionId) return [];
    const refs: PaymentRefs = {
      channel: details?.metadata?.channel,
      orderId: orderIdOf(details?.metadata),
      subscription: subscriptionId,
    };
    const intent = invoice.payments?.data[0]?.payment.payment_intent;
    const lastError = typeof intent === 'object' ? intent?.last_payment_error : null;
    const facts: PaymentFact[] = [];
    const paid = invoice.status === 'paid';
    if (paid || lastError || invoice.attempt_count > 0) {
      facts.push({
        kind: 'invoice',
        refs,
        invoice: invoice.id!,
        paid,
        amount: toMajorUnits(paid ? invoice.amount_paid : invoice.amount_due, invoice.currency),
        currency: invoice.currency.toUpperCase(),
        periodEnd: invoice.lines.data[0]?.period.end ?? invoice.period_end,
        first: invoice.billing_reason === 'subscription_create',
        message: paid ? null : (lastError?.message ?? 'The payment failed.'),
        at: seconds(),
      });
    }
    if (subscription) facts.push(...(await subscriptionFacts(subscriptionId, false)));
    return facts;
  }

  /** A subscription's state read back (and with `invoices`, its paid invoices and its pending card setup). */
  async function subscriptionFacts(subscriptionId: string, invoices: boolean): Promise<PaymentFact[]> {
    const readAt = now();
    const sub = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['pending_setup_intent'] });
    const refs: PaymentRefs = { channel: sub.metadata.channel, orderId: orderIdOf(sub.metadata), subscription: sub.id };
    const facts: PaymentFact[] = [];
    if (invoices) {
      const list = await stripe.invoices.list({ subscription: sub.id, limit: 24 });
      for (const invoice of [...list.data].reverse()) facts.push(...(await invoiceFacts(invoice.id!, false)));
      const setup = sub.pending_setup_intent;
      if (setup && typeof setup === 'object')
        facts.push({
          kind: 'setup',
          refs: { ...refs, setupIntent: setup.id },
          state: stateOf(setup),
          paymentMethod: id(setup.payment_method) ?? null,
          at: seconds(),
        });
      // The first charge waiting for the buyer (3-D Secure): its client secret, for a purchase sent again.
      const first = list.data.find((i) => i.billing_reason === 'subscription_create' && i.status === 'open');
      if (first) {
        const payment = (await stripe.invoicePayments.list({ invoice: first.id! })).data[0];
        const intentId = id(payment?.payment.payment_intent);
        if (intentId) {
          const intent = await stripe.paymentIntents.retrieve(intentId);
          facts.push({
            kind: 'payment',
            refs: { ...refs, paymentIntent: intent.id },
            state: stateOf(intent),
            at: seconds(),
          });
        }
      }
    }
    const item = sub.items.data[0];
    facts.push({
      kind: 'subscription',
      refs,
      status: sub.status as SubscriptionStatus,
      // Ended at its period's end (expired) rather than before (canceled), whatever the flag says once it ended.
      cancelAtPeriodEnd:
        sub.cancel_at_period_end ||
        (sub.status === 'canceled' && item !== undefined && (sub.ended_at ?? 0) >= item.current_period_end),
      periodEnd: item?.current_period_end ?? 0,
      trialEnd: sub.trial_end,
      readAt,
      at: seconds(),
    });
    return facts;
  }

  /** The facts of a charge's refund or dispute: of its payment intent, one-time or a subscription's invoice's. */
  async function chargeRefs(intentId: string): Promise<{ refs: PaymentRefs; invoice: string | null }> {
    const payments = await stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: intentId },
    });
    const invoiceId = id(payments.data[0]?.invoice);
    if (invoiceId) {
      const invoice = await stripe.invoices.retrieve(invoiceId);
      const details = invoice.parent?.subscription_details;
      return {
        refs: {
          channel: details?.metadata?.channel,
          orderId: orderIdOf(details?.metadata),
          subscription: id(details?.subscription),
        },
        invoice: invoiceId,
      };
    }
    const intent = await stripe.paymentIntents.retrieve(intentId);
    return {
      refs: { channel: intent.metadata.channel, orderId: orderIdOf(intent.metadata), paymentIntent: intent.id },
      invoice: null,
    };
  }

  async function factsOf(event: Stripe.Event): Promise<PaymentFact[]> {
    const object = event.data.object as { id?: string };
    switch (event.type) {
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed':
      case 'payment_intent.canceled':
        return intentFacts(object.id!);
      case 'invoice.paid':
      case 'invoice.payment_failed':
        return invoiceFacts(object.id!, true);
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return subscriptionFacts(object.id!, false);
      case 'setup_intent.succeeded':
      case 'setup_intent.setup_failed': {
        const setup = await stripe.setupIntents.retrieve(object.id!);
        return [
          {
            kind: 'setup',
            refs: { setupIntent: setup.id },
            state: stateOf(setup),
            paymentMethod: id(setup.payment_method) ?? null,
            at: seconds(),
          },
        ];
      }
      case 'charge.refunded': {
        const charge = await stripe.charges.retrieve(object.id!);
        const intentId = id(charge.payment_intent);
        if (!charge.refunded || !intentId) return []; // a partial refund leaves the order as it is
        const { refs, invoice } = await chargeRefs(intentId);
        return [{ kind: 'refund', refs, invoice, at: seconds() }];
      }
      case 'charge.dispute.created': {
        const dispute = event.data.object;
        const intentId = id(dispute.payment_intent);
        if (!intentId) return [];
        const { refs } = await chargeRefs(intentId);
        return [{ kind: 'dispute', refs, reason: dispute.reason, at: seconds() }];
      }
      default:
        return [];
    }
  }

  return { factsOf, intentFacts, subscriptionFacts };
}
