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

/**
 * The language of an element: its own `lang`, else the page's choice for the elements (the script's `data-lang`),
 * else the nearest `[lang]` around it, else the channel's language setting, else English. The player's shell and
 * the loader's early video (its preroll's label) both ask here.
 */
export function elementLang(
  host: Element,
  ownLang: string | null | undefined,
  pageLang: Lang | undefined,
  channelLang: string | undefined,
): Lang {
  const around =
    host.parentElement?.closest('[lang]')?.getAttribute('lang') ??
    (host.getRootNode() as ShadowRoot).host?.closest('[lang]')?.getAttribute('lang');
  return toLang(ownLang) ?? pageLang ?? toLang(around) ?? toLang(channelLang) ?? 'en';
}
