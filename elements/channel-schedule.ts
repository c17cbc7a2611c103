/** `<channel-schedule>`: the channel's live, upcoming and on-demand events. */
import { Schedule } from '../src/components/schedule/Schedule.js';
import { SCHEDULE_PROPS } from '../src/components/schedule/attributes.js';
import { applyConfig } from '../src/start.js';
import { elementStarted } from '../src/stores/analytics/port.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * The element class. Its attributes, events, slots, parts and custom properties are written in elements/surface.ts
 * (the generated reference: elements/README.md).
 */
export const createScheduleElement = () => makeElement(Schedule, SCHEDULE_PROPS);

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  elementStarted('channel-schedule');
  defineOnce('channel-schedule', createScheduleElement);
}
