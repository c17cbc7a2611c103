/** Amounts as Stripe takes them (src/lib/stripe.ts) and the Payment Element's deferred intent for a price. */
import { expect } from '@open-wc/testing';
import { Pricing } from '../../../src/api/contract.js';
import { stripeAmount } from '../../../src/lib/stripe.js';
import { elementsOptions } from '../../../src/stores/checkout/stripe.js';

describe('stripeAmount', () => {
  it('two-decimal currencies in cents, floating-point noise rounded away', () => {
    expect(stripeAmount(9.99, 'usd')).to.equal(999);
    expect(stripeAmount(13.13, 'EUR')).to.equal(1313);
    expect(stripeAmount(0.1 + 0.2, 'USD')).to.equal(30);
    expect(stripeAmount(1234.5, 'cad')).to.equal(123450);
  });

  it('zero-decimal currencies (JPY, KRW...) as they are; three-decimal ones ×1000 ending in 0; ISK whole units ×100', () => {
    expect(stripeAmount(500, 'JPY')).to.equal(500);
    expect(stripeAmount(1500, 'jpy')).to.equal(1500);
    expect(stripeAmount(12000, 'KRW')).to.equal(12000);
    expect(stripeAmount(5.124, 'KWD')).to.equal(5120);
    expect(stripeAmount(990, 'ISK')).to.equal(99000);
  });
});

describe('elementsOptions', () => {
  const pricing = (fields: Record<string, unknown>) =>
    Pricing.parse({
      type: 'event',
      id: 1,
      name: 'Final',
      price: 1500,
      service_fee: 0,
      discount: 0,
      total: 1500,
      currency: 'JPY',
      ...fields,
    });

  it('a payment of the total in minor units, a subscription its first period, a trial a card to save', () => {
    expect(elementsOptions(pricing({}), false, 'fr')).to.deep.equal({
      mode: 'payment',
      amount: 1500,
      currency: 'jpy',
      locale: 'fr',
    });
    expect(elementsOptions(pricing({ type: 'subscription', total: 9.99, currency: 'USD' }), false, 'en')).to.deep.equal(
      {
        mode: 'subscription',
        amount: 999,
        currency: 'usd',
        locale: 'en',
      },
    );
    expect(elementsOptions(pricing({ type: 'subscription', currency: 'EUR' }), true, 'en')).to.deep.equal({
      mode: 'setup',
      currency: 'eur',
      locale: 'en',
    });
  });
});
