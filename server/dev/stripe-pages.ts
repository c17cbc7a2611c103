/**
 * The Stripe double's pages (dev/stripe.ts): the customer portal a billing portal session's URL opens (the
 * customer's cards with Remove, their subscriptions with Cancel or Renew at the period's end, their invoices, and the
 * way back to the site), and the 3-D Secure challenge page of an authentication card (Complete and Fail), which
 * Stripe.js's double shows in the page itself. Plain HTML with forms: no script, no inline style.
 */
import type { ServerResponse } from 'node:http';
import type { Billing } from './stripe-billing.js';
import type { Ledger } from './stripe-ledger.js';
import type { PortalSession } from './stripe-objects.js';
import { html, seeOther, standInPage } from './stand-in-page.js';

/** What the pages are drawn with. */
export interface PageContext {
  ledger: Ledger;
  billing: Billing;
  /** The origin whose demo styles the pages use (the channel server's in dev mode). */
  styleOrigin(): string;
  /** Where the browser reaches the double. */
  browserBase(): string;
}

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const money = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`;

/** The portal's answer to a form: remove a card, cancel a subscription at its period's end, or renew it. */
export function portalAction(ctx: PageContext, session: PortalSession, form: URLSearchParams): string {
  const { ledger, billing } = ctx;
  const action = form.get('action');
  if (action === 'remove') {
    const method = ledger.paymentMethods.get(form.get('payment_method') ?? '');
    if (method?.customer === session.customer) ledger.detach(method.id);
    return 'The card was removed.';
  }
  const subscription = billing.subscriptions.get(form.get('subscription') ?? '');
  if (subscription?.customer !== session.customer) return '';
  if (action === 'cancel') {
    billing.updateSubscription(subscription.id, { cancelAtPeriodEnd: true });
    return 'Your plan will be cancelled at the end of the period.';
  }
  if (action === 'renew') {
    billing.updateSubscription(subscription.id, { cancelAtPeriodEnd: false });
    return 'Your plan will renew.';
  }
  return '';
}

/** The portal page of a session (after a form, back to it with what was done). */
export function portalPage(res: ServerResponse, ctx: PageContext, session: PortalSession, done: string): void {
  const { ledger, billing } = ctx;
  const customer = ledger.customer(session.customer);
  const cards = [...ledger.paymentMethods.values()].filter((m) => m.customer === customer.id);
  const subscriptions = [...billing.subscriptions.values()].filter(
    (s) => s.customer === customer.id && s.status !== 'incomplete',
  );
  const invoices = [...billing.invoices.values()]
    .filter((i) => i.customer === customer.id && i.amount_due > 0)
    .reverse();
  const form = (fields: Record<string, string>, label: string, aria: string) =>
    `<form method="post" class="stand-in-actions">${Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${html(name)}" value="${html(value)}">`)
      .join('')}<button type="submit" aria-label="${html(aria)}">${html(label)}</button></form>`;
  const cardList = cards.length
    ? `<ul class="outbox-list">${cards
        .map((m) => {
          const card = m.card;
          const name = `${card.brand.toUpperCase()} •••• ${card.last4}`;
          return `<li class="outbox-email"><span>${html(name)}, expires ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}</span>
${form({ action: 'remove', payment_method: m.id }, 'Remove', `Remove the card ending in ${card.last4}`)}</li>`;
        })
        .join('\n')}</ul>`
    : '<p>No saved cards.</p>';
  const planList = subscriptions.length
    ? `<ul class="outbox-list">${subscriptions
        .map((s) => {
          const item = s.items.data[0]!;
          const name = billing.products.get(item.price.product)?.name ?? item.price.product;
          const live = s.status !== 'canceled';
          const when = !live
            ? `ended ${day(s.ended_at ?? s.canceled_at ?? item.current_period_end)}`
            : s.cancel_at_period_end
              ? `cancels on ${day(item.current_period_end)}`
              : `renews on ${day(item.current_period_end)}`;
          const button = !live
            ? ''
            : s.cancel_at_period_end
              ? form({ action: 'renew', subscription: s.id }, 'Renew plan', `Renew ${name}`)
              : form({ action: 'cancel', subscription: s.id }, 'Cancel plan', `Cancel ${name}`);
          return `<li class="outbox-email" data-subscription="${html(s.status)}"><span>${html(name)}: ${html(s.status)}, ${when}</span>\n${button}</li>`;
        })
        .join('\n')}</ul>`
    : '<p>No plans.</p>';
  const invoiceList = invoices.length
    ? `<ul class="outbox-list">${invoices
        .map(
          (i) =>
            `<li class="outbox-email"><span>${day(i.created)}: ${money(i.amount_due, i.currency)}, ${html(i.status)}</span></li>`,
        )
        .join('\n')}</ul>`
    : '<p>No invoices.</p>';
  standInPage(
    res,
    ctx.styleOrigin(),
    200,
    'Billing',
    `<section class="stand-in" aria-labelledby="cards-title">
<p>This page stands in for Stripe's customer portal so the demo runs offline. Signed in as <strong>${html(customer.email ?? customer.id)}</strong>.</p>
${done ? `<p role="status">${html(done)}</p>` : ''}
<h2 id="cards-title">Payment methods</h2>
${cardList}
<h2>Current plans</h2>
${planList}
<h2>Invoice history</h2>
${invoiceList}
<p><a href="${html(session.return_url)}">Return to the site</a></p>
</section>`,
  );
}

/** A portal link that expired (or never was). */
export function portalGone(res: ServerResponse, ctx: PageContext): void {
  standInPage(
    res,
    ctx.styleOrigin(),
    404,
    'Billing',
    '<p class="stand-in-error" role="alert">This link has expired. Open the customer portal again from the site.</p>',
  );
}

/** Back to the portal page after a form (303), saying what was done. */
export function backToPortal(res: ServerResponse, ctx: PageContext, id: string, done: string): void {
  seeOther(res, `${ctx.browserBase()}/portal/${encodeURIComponent(id)}`, done ? { done } : {});
}

/** The 3-D Secure challenge page of an open challenge: Complete or Fail, as Stripe's test page offers. */
export function challengePage(res: ServerResponse, ctx: PageContext, challenge: string, open: boolean): void {
  const body = open
    ? `<section class="stand-in" aria-labelledby="challenge-title">
<h2 id="challenge-title">3D Secure 2 test page</h2>
<p>This card asks the cardholder to authenticate the payment. Complete it, or fail it as a bank would refuse it.</p>
<form method="post" class="stand-in-actions"><input type="hidden" name="result" value="complete"><button type="submit">Complete authentication</button></form>
<form method="post" class="stand-in-actions"><input type="hidden" name="result" value="fail"><button type="submit">Fail authentication</button></form>
</section>`
    : '<p role="status">This authentication is over. You can close this page.</p>';
  const title = `Authentication ${html(challenge.slice(0, 8))}`;
  // 200 for a challenge that is over too: it is the answer to the page's own form. Any page may frame it, as any
  // page may frame Stripe's own challenge pages (hooks.stripe.com): a host page's origin is not known in advance.
  standInPage(res, ctx.styleOrigin(), 200, title, body, ['*']);
}
