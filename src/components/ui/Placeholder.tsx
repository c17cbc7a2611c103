/** Root component of an element not built yet: a clear "coming soon" panel. */
import type { ReactNode } from 'react';
import { ComingSoon, ElementShell, type ShellProps } from './shell.js';

/** Makes the placeholder component for one element name (an i18n key under `elements.`). */
export function placeholder(name: string) {
  return function Placeholder(props: ShellProps): ReactNode {
    return (
      <ElementShell container={props.container} lang={props.lang} css="">
        {() => <ComingSoon name={name} />}
      </ElementShell>
    );
  };
}
