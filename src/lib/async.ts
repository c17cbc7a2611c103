/** The one shape of state that loads: lists, panels, offers and favourites all use it. */

/** Something that loads: not asked for yet, loading, there, or failed (with the typed error). */
export type Async<T, E = unknown> =
  { status: 'idle' } | { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: E };

/** The states without a value. */
export const IDLE = { status: 'idle' } as const;
/** Loading. */
export const LOADING = { status: 'loading' } as const;

/** A loaded value. */
export function ready<T>(value: T): { status: 'ready'; value: T } {
  return { status: 'ready', value };
}

/** A failure. */
export function failed<E>(error: E): { status: 'error'; error: E } {
  return { status: 'error', error };
}
