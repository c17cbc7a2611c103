/**
 * Texts a view needs beyond the bundled ones (the `forms` or `checkout` namespace, in the view's language): one
 * hook and one wrapper, so that every view waits for its texts the same way.
 */
import { useStore } from './use-store.js';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { $namespaces, loadNamespace, type Namespace } from '../../i18n/index.js';
import { useElement } from './context.js';
import { LoadingPanel } from './panels.js';

/**
 * Whether the view may render with the `ns` texts of its language: they are in, or loading them failed (the view
 * then shows English, i18next's fallback, rather than a loading line for good). Asks for them when they are not.
 * Once a view has had its texts it keeps them through a change of language: the texts it had (English, the
 * fallback, for the keys of a language still loading) show until the new ones are in, so that a form being filled
 * in, or the screen a viewer has gone to, is never unmounted by the host page setting `lang`.
 */
export function useNamespace(ns: Namespace): boolean {
  const hadTexts = useRef(false);
  const { lang } = useElement();
  const key = `${lang}:${ns}`;
  const ready = useStore($namespaces).includes(key);
  const [settled, setSettled] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (ready) return;
    let live = true;
    void loadNamespace(lang, ns).then(() => live && setSettled(key));
    return () => {
      live = false;
    };
  }, [lang, ns, key, ready]);
  if (ready || settled === key) hadTexts.current = true;
  return hadTexts.current;
}

/** Renders its children once the `ns` texts of the view's language are in, the loading panel until then. */
export function NamespaceReady(props: { ns: Namespace; children: ReactNode }): ReactNode {
  return useNamespace(props.ns) ? props.children : <LoadingPanel />;
}
