/** The element context: language, translator and currency, provided by the root (a tag's shell or the site). */
import { createContext, useContext } from 'react';
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
