/**
 * Shared by every element chunk: applies the page's configuration once (the first chunk to load does it).
 */
import { setConfig, type ConfigureOptions } from './stores/config.js';

let applied: string | undefined;

/** Applies the configuration unless the same one was already applied. */
export function applyConfig(options: ConfigureOptions, base: string): void {
  const key = JSON.stringify([options, base]);
  if (applied === key) return;
  applied = key;
  setConfig(options, base);
}
