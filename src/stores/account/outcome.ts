/**
 * How every account action runs and answers: one submission per action at a time, and an outcome the UI shows
 * as is (a value, or a failure with its messages).
 */
import { isCancel } from '../../api/errors.js';
import { failureOf, type Failure, type Msg } from './messages.js';

/** What an action answers. */
export type Outcome<T = void> = { ok: true; value: T } | { ok: false; failure: Failure };

/** A successful outcome. */
export const done = <T>(value: T): Outcome<T> => ({ ok: true, value });

/** A failed outcome with field messages and an optional form message. */
export const fail = (fields: Record<string, Msg>, message?: Msg): Outcome<never> => ({
  ok: false,
  failure: { fields, message },
});

/** Turns local problems into a failed outcome (with an optional form message), or undefined when all is well. */
export function refuse(fields: Record<string, Msg>, message?: Msg): Outcome<never> | undefined {
  return Object.keys(fields).length ? fail(fields, message) : undefined;
}

/** Runs an API call; its failure becomes an outcome (a cancelled call is rethrown, to be ignored). */
export async function attempt<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return done(await run());
  } catch (error) {
    if (isCancel(error)) throw error;
    return { ok: false, failure: failureOf(error) };
  }
}

const inflight = new Map<string, Promise<unknown>>();

/** One submission per action at a time: a second submit while the first is in flight joins it (sends nothing). */
export function once<T>(action: string, run: () => Promise<T>): Promise<T> {
  const pending = inflight.get(action) as Promise<T> | undefined;
  if (pending) return pending;
  const started = Promise.resolve().then(run);
  const forget = () => inflight.delete(action);
  started.then(forget, forget);
  inflight.set(action, started);
  return started;
}
