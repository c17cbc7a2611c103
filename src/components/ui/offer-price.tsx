/**
 * An offer's price (the paywall's, the checkout's): the price paid and, when it is higher, the regular price struck
 * through after it, with words for screen readers (a strike-through alone is not read out). Apart from `usePrice`
 * (./price.tsx), which a schedule's cards use too, so that a schedule-only page does not carry it.
 */
import type { ReactNode } from 'react';
import { useElement } from './context.js';
import { usePrice, type PricePeriod } from './price.js';

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
