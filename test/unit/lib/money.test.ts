/** Prices (src/lib/money.ts) as a reader sees them, in English and French. */
import { expect } from '@open-wc/testing';
import { formatPrice } from '../../../src/lib/money.js';
import { plain } from '../helpers.js';

describe('formatPrice', () => {
  it("writes the spec's form: the code, the currency's sign and the amount, in each language's digits", () => {
    expect(plain(formatPrice(9.99, 'USD', 'en'))).to.equal('USD $9.99');
    expect(plain(formatPrice(1234.5, 'USD', 'en'))).to.equal('USD $1,234.50');
    expect(plain(formatPrice(9.99, 'CAD', 'en'))).to.equal('CAD $9.99');
    expect(plain(formatPrice(9.99, 'CAD', 'fr'))).to.equal('CAD $9,99');
    expect(plain(formatPrice(1234.5, 'USD', 'fr'))).to.equal('USD $1 234,50');
    expect(plain(formatPrice(12.5, 'EUR', 'fr'))).to.equal('EUR €12,50');
    expect(plain(formatPrice(12.5, 'GBP', 'en'))).to.equal('GBP £12.50');
  });

  it('writes a plain space after the code (a narrow cell may wrap there) and signs a negative amount', () => {
    expect(formatPrice(5, 'USD', 'en')).to.equal('USD $5.00');
    expect(plain(formatPrice(-1.25, 'USD', 'en'))).to.equal('-USD $1.25');
  });

  it("uses the currency's own number of decimals, and no sign where the code is all Intl knows", () => {
    expect(plain(formatPrice(1500, 'JPY', 'en'))).to.equal('JPY ¥1,500');
    expect(plain(formatPrice(12.5, 'CHF', 'en'))).to.equal('CHF 12.50');
    expect(plain(formatPrice(12.5, 'XQQ', 'en'))).to.equal('XQQ 12.50');
  });

  it('defaults to USD and accepts a lower-case code', () => {
    expect(plain(formatPrice(5, null, 'en-US'))).to.equal('USD $5.00');
    expect(plain(formatPrice(5, '', 'en-US'))).to.equal('USD $5.00');
    expect(plain(formatPrice(5, 'eur', 'en-US'))).to.equal('EUR €5.00');
  });

  it('falls back to USD for a malformed currency code instead of throwing', () => {
    expect(plain(formatPrice(12.5, 'dollars', 'en-US'))).to.equal('USD $12.50');
    expect(plain(formatPrice(12.5, '$', 'en-US'))).to.equal('USD $12.50');
  });
});
