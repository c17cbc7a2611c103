/**
 * Prices as every view shows them: one formatter (`usePrice`) in the spec's form, "USD $9.99 / month". An offer's
 * price with its regular price struck through is `Price` (./offer-price.tsx), which only the paywall's and the
 * checkout's offers show.
 */
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
