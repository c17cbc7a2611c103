/**
 * Shared by every element chunk: applies the page's configuration once (the first chunk to load does it).
 */
import { setConfig, type ConfigureOptions } from './stores/config.js';
import { startSession } from './stores/session.js';
import { watchUncaughtErrors } from './stores/errors.js';

let applied: string | undefined;

/** Applies the configuration unless the same one was already applied. */
export function applyConfig(options: ConfigureOptions, base: string): void {
  const key = JSON.stringify([options, base]);
  if (applied === key) return;
  applied = key;
  // Our own uncaught errors (never the page's) are reported once each.
  watchUncaughtErrors(base);
  // Start-up (keys, settings) begins as the chunk loads, not after the first render: the elements need it
  // before they can show anything.
  if (setConfig(options, base) === undefined) void startSession();
}
