/**
 * A private i18next instance: the host page's global i18next (if any) is never touched or initialised.
 * English is bundled; French is a separate chunk fetched only when an element speaks French.
 */
import i18next, { type TFunction } from 'i18next';
import { atom } from 'nanostores';
import type { Lang } from '../stores/config.js';
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

/** Languages whose texts are loaded; elements re-render when one arrives. */
export const $languages = atom<readonly Lang[]>(['en']);

const loading = new Map<Lang, Promise<void>>();

/** Loads a language's texts (a no-op for English). Failure leaves English in place. */
export function loadLanguage(lang: Lang): Promise<void> {
  if ($languages.get().includes(lang)) return Promise.resolve();
  let pending = loading.get(lang);
  if (!pending) {
    pending = import('./fr.js').then(
      ({ fr }) => {
        instance.addResourceBundle(lang, 'translation', fr);
        $languages.set([...$languages.get(), lang]);
      },
      () => {
        loading.delete(lang);
      },
    );
    loading.set(lang, pending);
  }
  return pending;
}

/** A translate function bound to one language (each element may speak its own). */
export function translator(lang: Lang): TFunction {
  return instance.getFixedT(lang);
}

export type { TFunction };

const formsLoading = new Map<Lang, Promise<void>>();

/**
 * Loads the `forms` namespace (validation and server messages) for a language. Elements with forms call it
 * before their first render and translate with `t('forms:validation.email')`.
 */
export function loadForms(lang: Lang): Promise<void> {
  let pending = formsLoading.get(lang);
  if (!pending) {
    pending = (lang === 'fr' ? import('./forms-fr.js').then((m) => m.formsFr) : import('./forms-en.js').then((m) => m.formsEn)).then(
      (texts) => {
        instance.addResourceBundle(lang, 'forms', texts);
      },
      () => {
        formsLoading.delete(lang);
      },
    );
    formsLoading.set(lang, pending);
  }
  return pending;
}

/** The `checkout` texts of each language, each its own chunk. */
const checkoutTexts: Record<Lang, () => Promise<Record<string, unknown>>> = {
  en: () => import('./checkout-en.js').then((m) => m.checkoutEn),
  fr: () => import('./checkout-fr.js').then((m) => m.checkoutFr),
};
const checkoutPending = new Map<Lang, Promise<void>>();

/**
 * Loads the `checkout` namespace (prices, payment steps, subscription actions) for a language, fetched only by
 * what sells or manages passes. Texts are read with `t('checkout:summary.total')`. A failed load may be retried.
 */
export function loadCheckoutTexts(lang: Lang): Promise<void> {
  const known = checkoutPending.get(lang);
  if (known) return known;
  const added = checkoutTexts[lang]().then(
    (texts) => void instance.addResourceBundle(lang, 'checkout', texts),
    () => void checkoutPending.delete(lang),
  );
  checkoutPending.set(lang, added);
  return added;
}

/** True once the `checkout` texts of a language are in (a render may use them right away). */
export function hasCheckoutTexts(lang: Lang): boolean {
  return instance.hasResourceBundle(lang, 'checkout');
}
