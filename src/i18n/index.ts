/**
 * A private i18next instance: the host page's global i18next (if any) is never touched or initialised.
 * English is bundled; French is a separate chunk fetched only when an element speaks French.
 */
import { loadChunk } from '../lib/chunks.js';
import i18next, { type TFunction } from 'i18next';
import { atom, computed } from 'nanostores';
import type { Lang } from '../lib/lang.js';
import { en } from './en.js';

const instance = i18next.createInstance();
void instance.init({
  resources: { en: { translation: en } },
  lng: 'en',
  fallbackLng: 'en',
  // Resources are bundled, so initialisation finishes synchronously and the first render is translated.
  initAsync: false,
  // React escapes text itself; escaping here too would show entities.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/**
 * The namespaces of texts: `translation` (English bundled), `forms`, `checkout`, `site`, `library` and `clips`
 * (each language its own chunk).
 */
export type Namespace = 'translation' | 'forms' | 'checkout' | 'site' | 'library' | 'clips';

type Texts = Record<string, unknown>;

/** Where each namespace's texts come from, per language; English `translation` is bundled above. */
const sources: Record<Namespace, Partial<Record<Lang, () => Promise<Texts>>>> = {
  translation: { fr: () => import('./fr.js').then((m) => m.fr) },
  forms: {
    en: () => import('./forms-en.js').then((m) => m.formsEn),
    fr: () => import('./forms-fr.js').then((m) => m.formsFr),
  },
  checkout: {
    en: () => import('./checkout-en.js').then((m) => m.checkoutEn),
    fr: () => import('./checkout-fr.js').then((m) => m.checkoutFr),
  },
  site: {
    en: () => import('./site-en.js').then((m) => m.siteEn),
    fr: () => import('./site-fr.js').then((m) => m.siteFr),
  },
  library: {
    en: () => import('./library-en.js').then((m) => m.libraryEn),
    fr: () => import('./library-fr.js').then((m) => m.libraryFr),
  },
  clips: {
    en: () => import('./clips-en.js').then((m) => m.clipsEn),
    fr: () => import('./clips-fr.js').then((m) => m.clipsFr),
  },
};

/** The namespaces whose texts are in, as `lang:namespace`; views re-render when one arrives. */
export const $namespaces = atom<readonly string[]>(['en:translation']);
/** Languages whose `translation` texts are loaded; elements re-render when one arrives. */
export const $languages = computed($namespaces, (keys) =>
  keys.filter((key) => key.endsWith(':translation')).map((key) => key.slice(0, key.indexOf(':')) as Lang),
);

const pending = new Map<string, Promise<void>>();

/** True once the texts of `ns` in `lang` are in (a render may use them right away). */
export function hasNamespace(lang: Lang, ns: Namespace): boolean {
  return $namespaces.get().includes(`${lang}:${ns}`);
}

/**
 * Loads the texts of one namespace in one language, once; read them with `t('forms:validation.email')`. Resolves
 * either way: a failed load leaves the texts out (English `translation` stays in place) and may be tried again.
 */
export function loadNamespace(lang: Lang, ns: Namespace): Promise<void> {
  const key = `${lang}:${ns}`;
  const source = sources[ns][lang];
  if (hasNamespace(lang, ns) || !source) return Promise.resolve();
  let loading = pending.get(key);
  if (!loading) {
    // Within the chunk-load timeout: a language's texts that never arrive are tried again on the next ask.
    loading = loadChunk(`the ${lang} ${ns} texts`, source).then(
      (texts) => {
        instance.addResourceBundle(lang, ns, texts);
        $namespaces.set([...$namespaces.get(), key]);
      },
      () => void pending.delete(key),
    );
    pending.set(key, loading);
  }
  return loading;
}

/**
 * Adds English texts that travel with the code that shows them (the player's, ./player.ts; the favourites panel's,
 * the schedule's filters' and calendar's; the site's content pages' and device check's, in `site`) to a namespace,
 * merged into what is there; called as that code is evaluated, before it renders. A namespace's own chunk, loaded
 * later, merges beside them: it no longer holds those keys.
 */
export function addBundledTexts(lang: Lang, texts: Texts, ns: Namespace = 'translation'): void {
  instance.addResourceBundle(lang, ns, texts, true, true);
}

/** A translate function bound to one language (each element may speak its own). */
export function translator(lang: Lang): TFunction {
  return instance.getFixedT(lang);
}

export type { TFunction };
