/**
 * Prices in the spec's form (section 9: "a currency code plus $ and base price"): the currency's code, its sign and
 * the amount, "USD $9.99" in English and "CAD $9,99" in French (the language decides only the digits). The
 * channel's currency is the default, USD when it has none. The per-period suffix is text, added by the UI.
 */

const amounts = new Map<string, Intl.NumberFormat>();
const signs = new Map<string, string>();

/** The ISO code of a currency setting: upper case; anything that is not three letters is USD. */
export function currencyCode(currency: string | null | undefined): string {
  const code = (currency ?? '').trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : 'USD';
}

/**
 * The currency's own sign in a language: `$` for the dollars (USD, CAD, AUD...), `€`, `£`; '' when Intl knows none
 * but the code itself (a well-formed unknown code, or CHF), so the code is not printed twice.
 */
function signOf(code: string, lang: string): string {
  const key = `${lang}|${code}`;
  let sign = signs.get(key);
  if (sign === undefined) {
    try {
      const parts = new Intl.NumberFormat(lang, {
        style: 'currency',
        currency: code,
        currencyDisplay: 'narrowSymbol',
      }).formatToParts(0);
      sign = parts.find((p) => p.type === 'currency')?.value ?? '';
    } catch {
      sign = '';
    }
    if (sign.toUpperCase() === code) sign = '';
    signs.set(key, sign);
  }
  return sign;
}

/** The amount's digits in a language, with as many decimals as the currency has (2 for USD, 0 for JPY). */
function digitsOf(amount: number, code: string, lang: string): string {
  const key = `${lang}|${code}`;
  let format = amounts.get(key);
  if (!format) {
    let decimals = 2;
    try {
      decimals = new Intl.NumberFormat(lang, { style: 'currency', currency: code }).resolvedOptions()
        .maximumFractionDigits!;
    } catch {
      // An unknown language tag: two decimals, as most currencies have.
    }
    format = new Intl.NumberFormat(lang, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    amounts.set(key, format);
  }
  return format.format(amount);
}

/**
 * Formats an amount: "USD $9.99", "CAD $1 234,50" (fr), "EUR €12.50", a negative one "−USD $5.00". A plain space
 * after the code: a narrow table cell may wrap the code above its amount rather than widen the page.
 */
export function formatPrice(amount: number, currency: string | null | undefined, lang: string): string {
  const code = currencyCode(currency);
  const text = `${code} ${signOf(code, lang)}${digitsOf(Math.abs(amount), code, lang)}`;
  return amount < 0 ? `\u2212${text}` : text;
}
