/**
 * `<channel-schedule>`'s root: parses the attributes once per change and renders, in the shell, the schedule view
 * or (`kind="library"`) the library view. The library is a chunk of its own, fetched only by a library tag, so an
 * events schedule downloads none of it; while it downloads, a shell with the loading text stands in (and starts
 * the session meanwhile).
 */
import { Suspense, type ComponentProps, type ReactNode } from 'react';
import { ErrorBoundary } from '../ui/boundary.js';
import { lazyChunk } from '../ui/lazy.js';
import { useAttributes } from '../ui/attributes.js';
import { LoadingPanel } from '../ui/panels.js';
import { ElementShell, type ShellProps } from '../ui/shell.js';
import { parseScheduleTag, SCHEDULE_PROPS, type ScheduleProps } from './attributes.js';
import { ScheduleView } from './ScheduleView.js';
import { scheduleCss } from './styles.js';

type LibraryTagProps = ComponentProps<typeof import('../library/LibraryTag.js').LibraryTag>;
const LibraryTag = lazyChunk<LibraryTagProps>('the library', () =>
  import('../library/index.js').then((m) => ({ default: m.LibraryTag })),
);

/** The element's root component. */
export function Schedule(props: ScheduleProps & ShellProps): ReactNode {
  // Parsed by attribute values: the shell re-renders its body whenever a session store changes, and new options
  // would re-render every loaded card.
  const { options, notices } = useAttributes('channel-schedule', SCHEDULE_PROPS, props, parseScheduleTag);
  if (options.view === 'library')
    return (
      // The library's code is a chunk: until it is in, and should it not load, the element's own frame says so.
      <ErrorBoundary
        tag="channel-schedule"
        frame={(panel) => (
          <ElementShell container={props.container} lang={props.lang} css={[]}>
            {() => panel}
          </ElementShell>
        )}
      >
        <Suspense
          fallback={
            <ElementShell container={props.container} lang={props.lang} css={[]}>
              {() => <LoadingPanel />}
            </ElementShell>
          }
        >
          <LibraryTag container={props.container} lang={props.lang} options={options.options} notices={notices} />
        </Suspense>
      </ErrorBoundary>
    );
  return (
    <ElementShell container={props.container} lang={props.lang} css={scheduleCss}>
      {() => <ScheduleView options={options.options} notices={notices} />}
    </ElementShell>
  );
}
