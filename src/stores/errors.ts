/**
 * Error reports of the elements (spec section 9): an uncaught error inside an element (a render error its boundary
 * caught, or an error or rejection the page saw come from our code) and a chunk that did not load are posted once
 * each to the logging endpoint, in the log entries' shape (service `element` or `chunk`, status 0), naming the
 * element and never personal data: emails, long tokens and the query and hash of URLs are taken out of the message,
 * which is cut at 300 characters. The host page's own errors are never reported. Never throws.
 */
import { ChunkLoadError } from '../lib/chunks.js';
import { env } from '../lib/env.js';
import { reportedPath } from '../lib/url.js';
import { getClient } from './session.js';
import { $config } from './config.js';

/** The longest message reported. */
export const REPORT_MAX = 300;
/** At most this many distinct errors are reported per page (a loop of new messages cannot flood the log). */
export const REPORTS_MAX = 20;

const reported = new Set<string>();

/** A message without personal data or secrets. */
export function redactMessage(text: string): string {
  return text
    .replace(/[^\s@<>()"']+@[^\s@<>()"']+\.[a-z]{2,}/gi, '[email]')
    .replace(/(https?:\/\/[^\s?#"'<>]*)[?#][^\s"'<>]*/gi, '$1')
    .replace(/\b(?=[A-Za-z0-9_.~+/=-]*\d)(?=[A-Za-z0-9_.~+/=-]*[A-Za-z])[A-Za-z0-9_.~+/=-]{24,}\b/g, '[redacted]')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, REPORT_MAX);
}

/** The first component names of a React component stack ("at Foo (…)" or "Foo@…" lines). */
function componentsOf(stack: string | null | undefined): string {
  if (!stack) return '';
  const names = [...stack.matchAll(/(?:^|\n)\s*(?:at\s+)?([A-Z][\w$]*)/g)].map((m) => m[1]!);
  return [...new Set(names)].slice(0, 3).join(' < ');
}

/** Reports an uncaught error of `tag` once (see the module's comment). */
export function reportElementError(tag: string, error: unknown, componentStack?: string | null): void {
  try {
    const name = error instanceof Error ? error.name : typeof error;
    const message = redactMessage(error instanceof Error ? error.message : String(error));
    const key = `${tag}|${name}|${message}`;
    if (reported.has(key) || reported.size >= REPORTS_MAX) return;
    reported.add(key);
    if (!$config.get()) return;
    const where = componentsOf(componentStack);
    const page = env().location();
    getClient().report(
      error instanceof ChunkLoadError ? 'chunk' : 'element',
      `<${tag}> ${name}: ${message}${where ? ` (in ${where})` : ''}`.slice(0, REPORT_MAX + 80),
      page ? page.origin + reportedPath(page.pathname) : '',
    );
  } catch {
    // Reporting never adds a failure of its own.
  }
}

/** The stack of an error-like value, if it has one. */
const stackOf = (value: unknown): string =>
  value && typeof value === 'object' && typeof (value as Error).stack === 'string' ? (value as Error).stack! : '';

let watching: EventTarget | undefined;

/**
 * Reports the uncaught errors and rejections of our own code: those whose file (or stack) is under `base`'s
 * `chunks/` folder or is the loader itself. The tag is read from the chunk's file name when it tells it.
 */
export function watchUncaughtErrors(base: string): void {
  const target = env().eventTarget;
  if (!target || watching === target) return;
  watching = target;
  let chunks: string;
  try {
    chunks = new URL('chunks/', base).href;
  } catch {
    return;
  }
  const loader = base.replace(/[?#].*$/, '');
  const ours = (text: string) => text.includes(chunks) || (loader !== '' && text.includes(loader));
  const tagOf = (text: string) => /chunks\/(channel-(?:schedule|player|checkout|profile|app))\b/.exec(text)?.[1];
  target.addEventListener('error', (event) => {
    const e = event as ErrorEvent;
    const where = `${e.filename ?? ''}\n${stackOf(e.error)}`;
    if (ours(where)) reportElementError(tagOf(where) ?? 'channel-elements', e.error ?? e.message);
  });
  target.addEventListener('unhandledrejection', (event) => {
    const reason = (event as PromiseRejectionEvent).reason as unknown;
    const where = stackOf(reason);
    if (ours(where)) reportElementError(tagOf(where) ?? 'channel-elements', reason);
  });
}

/** Forgets what was reported (tests). */
export function resetErrorReports(): void {
  reported.clear();
  watching = undefined;
}
