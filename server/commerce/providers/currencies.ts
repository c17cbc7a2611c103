/**
 * Amounts as Stripe's API takes them: whole numbers of the currency's smallest unit. Most currencies have two
 * decimals (10.00 USD is 1000); the zero-decimal ones have none (500 JPY is 500); the three-decimal ones have three,
 * with the last digit 0 (5.124 KWD is 5120); ISK is written with two decimals that must be 00 (Stripe's "special
 * cases", https://docs.stripe.com/currencies).
 */

/** Stripe's zero-decimal currencies. */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
/** Stripe's three-decimal currencies (amounts rounded to a multiple of 10). */
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);
/** Two decimals in the API, whole units only. */
const WHOLE_UNITS = new Set(['ISK']);

/** How many minor units make one major unit. */
export function minorPerMajor(currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL.has(code)) return 1;
  if (THREE_DECIMAL.has(code)) return 1000;
  return 100;
}

/** An amount (major units, as the channel prices it) in the currency's minor units, as Stripe takes it. */
export function toMinorUnits(amount: number, currency: string): number {
  const code = currency.toUpperCase();
  const per = minorPerMajor(code);
  if (THREE_DECIMAL.has(code)) return Math.round((amount * per) / 10) * 10;
  if (WHOLE_UNITS.has(code)) return Math.round(amount) * per;
  return Math.round(amount * per);
}

/** Minor units (a Stripe amount) back in major units. */
export function toMajorUnits(minor: number, currency: string): number {
  return minor / minorPerMajor(currency);
}
