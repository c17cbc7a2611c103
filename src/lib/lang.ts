/** The product's languages and how a language tag maps onto them. */

/** Languages the product speaks. */
export const LANGUAGES = ['en', 'fr'] as const;
/** One of the product's languages. */
export type Lang = (typeof LANGUAGES)[number];

/** Normalises a language tag to one of ours: `fr-CA` -> `fr`; anything else -> undefined. */
export function toLang(tag: string | null | undefined): Lang | undefined {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return base === 'en' || base === 'fr' ? base : undefined;
}
