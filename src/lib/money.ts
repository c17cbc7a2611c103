/** Prices through Intl in the channel's currency (default USD). */

const cache = new Map<string, Intl.NumberFormat>();

/** Formats an amount in a currency for a language; a malformed currency code falls back to USD (a well-formed unknown code prints as its letters). */
export function formatPrice(amount: number, currency: string | null | undefined, lang: string): string {
  const code = (currency || 'USD').toUpperCase();
  const key = `${lang}|${code}`;
  let f = cache.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(lang, { style: 'currency', currency: code });
    } catch {
      f = new Intl.NumberFormat(lang, { style: 'currency', currency: 'USD' });
    }
    cache.set(key, f);
  }
  return f.format(amount);
}
