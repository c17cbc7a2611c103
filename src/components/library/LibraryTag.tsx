/**
 * `<channel-schedule kind="library">`'s body: the library view in the element's shell with the library's CSS. The
 * schedule tag imports it lazily, so an events schedule downloads none of the library, not even its styles.
 */
import type { ReactNode } from 'react';
import type { AttributeNotice } from '../ui/attributes.js';
import { ElementShell, type ShellProps } from '../ui/shell.js';
import { LibraryView } from './LibraryView.js';
import type { LibraryOptions } from './options.js';
import { libraryCss } from './styles.js';

/** The library tag's shell and view. */
export function LibraryTag(props: {
  container: ShellProps['container'];
  lang: string | undefined;
  options: LibraryOptions;
  notices: readonly AttributeNotice[];
}): ReactNode {
  return (
    <ElementShell container={props.container} lang={props.lang} css={libraryCss}>
      {() => <LibraryView options={props.options} notices={props.notices} />}
    </ElementShell>
  );
}
