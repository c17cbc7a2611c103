/** `<channel-app>`: a "coming soon" placeholder until it is built. */
import { placeholder } from '../src/components/ui/Placeholder.js';
import { applyConfig } from '../src/start.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  defineOnce('channel-app', () => makeElement(placeholder('elements.app'), ['lang']));
}
