/**
 * Prices as every view shows them: one formatter (`usePrice`) in the spec's form, "USD $9.99 / month", and one
 * `Price` that adds the regular price struck through when it is higher than the price paid, with words for
 * screen readers (a strike-through alone is not read out).
 */
import type { ReactNode } from 'react';
import { formatPrice } from '../../lib/money.js';
import { useElement } from './context.js';

/** How often a price is paid: once (no suffix), every month or every year. */
export type PricePeriod = 'monthly' | 'annual' | undefined;

/** Formats amounts for the element's language: its own currency when given, else the channel's; a period suffix. */
export function usePrice(): (amount: number, options?: { currency?: string | null; period?: PricePeriod }) => string {
  const { t, lang, currency } = useElement();
  return (amount, options = {}) => {
    const price = formatPrice(amount, options.currency || currency, lang);
    if (options.period === 'monthly') return t('price.perMonth', { price });
    if (options.period === 'annual') return t('price.perYear', { price });
    return price;
  };
}

/**
 * A price, and the regular price (`base`) struck through after it when that is higher. Screen readers hear
 * "USD $9.99 / month, regular price USD $12.99".
 */
export function Price(props: {
  amount: number;
  base?: number | null | undefined;
  currency?: string | null | undefined;
  period?: PricePeriod;
}): ReactNode {
  const { t } = useElement();
  const price = usePrice();
  const options = { currency: props.currency, period: props.period };
  const base = props.base && props.base > props.amount ? price(props.base, options) : undefined;
  return (
    <>
      {price(props.amount, options)}
      {base ? (
        <>
          <span className="sr-only">{t('price.regular', { price: base })}</span>
          <s className="was" aria-hidden="true">
            {base}
          </s>
        </>
      ) : null}
    </>
  );
}
