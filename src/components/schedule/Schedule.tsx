/** `<channel-schedule>`'s root: parses the attributes once per change and renders the schedule view in the shell. */
import type { ReactNode } from 'react';
import { useAttributes } from '../ui/attributes.js';
import { ElementShell, type ShellProps } from '../ui/shell.js';
import { parseScheduleProps, SCHEDULE_PROPS, type ScheduleProps } from './attributes.js';
import { ScheduleView } from './ScheduleView.js';
import { scheduleCss } from './styles.js';

/** The element's root component. */
export function Schedule(props: ScheduleProps & ShellProps): ReactNode {
  // Parsed by attribute values: the shell re-renders its body whenever a session store changes, and new options
  // would re-render every loaded card.
  const { options, notices } = useAttributes('channel-schedule', SCHEDULE_PROPS, props, parseScheduleProps);
  return (
    <ElementShell container={props.container} lang={props.lang} css={scheduleCss}>
      {() => <ScheduleView options={options} notices={notices} />}
    </ElementShell>
  );
}
