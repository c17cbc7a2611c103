/** The element context: language, translator and currency, provided by the root (a tag's shell or the site). */
import { createContext, useContext, useLayoutEffect } from 'react';
import type { TFunction } from '../../i18n/index.js';
import type { Lang } from '../../stores/config.js';

/** What every component inside an element may ask for. */
export interface ElementInfo {
  lang: Lang;
  t: TFunction;
  currency: string;
}

/** The context itself (roots provide it). */
export const ElementContext = createContext<ElementInfo | null>(null);

/** The element's language, translator and currency (its element is the root's alone: see `useViewHost`). */
export function useElement(): ElementInfo {
  const info = useContext(ElementContext);
  if (!info) throw new Error('useElement() outside <ElementShell>');
  return info;
}

/** Adds stylesheets to the element's shadow root (the shell's), each removed by the function `add` answers. */
export interface StylesHost {
  add(css: string): () => void;
}

/** The shell's style host (the context is the shell's; outside one, `useStyles` does nothing). */
export const StylesContext = createContext<StylesHost | null>(null);

/**
 * Adopts `css` into the element's shadow root while the calling component is shown, before the browser paints it:
 * the CSS of a part fetched on demand (the calendar, the filters, a follow star) travels in that part's chunk, not
 * in the code every page loads first. Several components may add the same text; it stays until the last one goes.
 */
export function useStyles(...css: string[]): void {
  const styles = useContext(StylesContext);
  // One key for the effect; each text stays a sheet of its own.
  const key = css.join('\u0000');
  useLayoutEffect(() => {
    if (!styles) return;
    const removals = key.split('\u0000').map((sheet) => styles.add(sheet));
    return () => removals.forEach((remove) => remove());
  }, [styles, key]);
}
