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
  return toLang(ownLang) ?? pageLang ?? langAround(host) ?? toLang(channelLang) ?? 'en';
}

/** The `lang` of the nearest element around `host` that has one (across a shadow root it sits in). */
function langAround(host: Element): Lang | undefined {
  return toLang(
    host.parentElement?.closest('[lang]')?.getAttribute('lang') ??
      (host.getRootNode() as ShadowRoot).host?.closest('[lang]')?.getAttribute('lang'),
  );
}

/**
 * The language of the whole site (`<channel-app>`): the viewer's choice in its language switch, else the element's
 * `lang` or `data-lang`, else the script's `data-lang`, else the channel's language setting; the nearest `[lang]`
 * around it only while the channel's is unknown (its settings not in: the loading and start-up error screens), else
 * English. Unlike a single element's, a `lang` around the site does not win over the channel's: a CMS page says
 * `<html lang="en">` by default (WordPress's until a site's language is set), which would put the site's own texts
 * in English among a French channel's menu, footer and pages from the API.
 */
export function siteLang(
  host: Element | undefined,
  chosen: Lang | undefined,
  ownLang: string | null | undefined,
  ownDataLang: string | null | undefined,
  pageLang: Lang | undefined,
  channelLang: string | undefined,
): Lang {
  return (
    chosen ??
    toLang(ownLang) ??
    toLang(ownDataLang) ??
    pageLang ??
    toLang(channelLang) ??
    (host && langAround(host)) ??
    'en'
  );
}
