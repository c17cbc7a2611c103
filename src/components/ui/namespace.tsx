/**
 * Texts a view needs beyond the bundled ones (the `forms` or `checkout` namespace, in the view's language): one
 * hook and one wrapper, so that every view waits for its texts the same way.
 */
import { useStore } from '@nanostores/react';
import { useEffect, type ReactNode } from 'react';
import { $namespaces, loadNamespace, type Namespace } from '../../i18n/index.js';
import { useElement } from './context.js';
import { LoadingPanel } from './panels.js';

/** Whether the `ns` texts of the view's language are in; asks for them when they are not. */
export function useNamespace(ns: Namespace): boolean {
  const { lang } = useElement();
  const ready = useStore($namespaces).includes(`${lang}:${ns}`);
  useEffect(() => {
    if (!ready) void loadNamespace(lang, ns);
  }, [lang, ns, ready]);
  return ready;
}

/** Renders its children once the `ns` texts of the view's language are in, the loading panel until then. */
export function NamespaceReady(props: { ns: Namespace; children: ReactNode }): ReactNode {
  return useNamespace(props.ns) ? props.children : <LoadingPanel />;
}
