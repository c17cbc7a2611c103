/**
 * `<channel-schedule>`'s root: parses the attributes once per change and renders, in the shell, the schedule view
 * or (`kind="library"`) the library view. The library view is a chunk of its own, fetched only by a library tag,
 * so an events schedule downloads none of it (only the library's CSS text comes along).
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { libraryCss } from '../library/styles.js';
import { useAttributes } from '../ui/attributes.js';
import { LoadingPanel } from '../ui/panels.js';
import { ElementShell, type ShellProps } from '../ui/shell.js';
import { parseScheduleTag, SCHEDULE_PROPS, type ScheduleProps } from './attributes.js';
import { ScheduleView } from './ScheduleView.js';
import { scheduleCss } from './styles.js';

const LibraryView = lazy(() => import('../library/LibraryView.js').then((m) => ({ default: m.LibraryView })));

/** The element's root component. */
export function Schedule(props: ScheduleProps & ShellProps): ReactNode {
  // Parsed by attribute values: the shell re-renders its body whenever a session store changes, and new options
  // would re-render every loaded card.
  const { options, notices } = useAttributes('channel-schedule', SCHEDULE_PROPS, props, parseScheduleTag);
  return (
    <ElementShell
      container={props.container}
      lang={props.lang}
      css={options.view === 'library' ? libraryCss : scheduleCss}
    >
      {() =>
        options.view === 'library' ? (
          <Suspense fallback={<LoadingPanel />}>
            <LibraryView options={options.options} notices={notices} />
          </Suspense>
        ) : (
          <ScheduleView options={options.options} notices={notices} />
        )
      }
    </ElementShell>
  );
}
