/** `<channel-app>`: the whole channel site in one element (routes, start-up, menus, home, pages, 404). */
import { App, APP_PROPS } from '../src/components/app/App.js';
import { applyConfig } from '../src/start.js';
import { elementStarted } from '../src/stores/analytics/port.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * The element class. Its attributes, events, slots, parts and custom properties are written in elements/surface.ts
 * (the generated reference: elements/README.md).
 */
export const createAppElement = () => makeElement(App, APP_PROPS);

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  elementStarted('channel-app');
  defineOnce('channel-app', createAppElement);
}
