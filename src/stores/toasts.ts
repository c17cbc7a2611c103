/** Toasts: success, error or info, shown 5 s by default. One list per element. */
import { atom, type ReadableAtom } from 'nanostores';
import { env } from '../lib/env.js';

/** How long a toast stays by default. */
export const TOAST_MS = 5_000;

/** One toast. */
export interface Toast {
  id: number;
  text: string;
  type: 'success' | 'error' | 'info';
}

/** A list of toasts and its actions. */
export interface Toasts {
  $toasts: ReadableAtom<Toast[]>;
  show(text: string, type?: Toast['type'], ms?: number): void;
  dismiss(id: number): void;
  destroy(): void;
}

/** Creates a toast list whose timers are cleared by `destroy()`. */
export function createToasts(): Toasts {
  const $toasts = atom<Toast[]>([]);
  const timers = new Map<number, unknown>();
  let next = 1;
  const dismiss = (id: number) => {
    env().clearTimeout(timers.get(id));
    timers.delete(id);
    $toasts.set($toasts.get().filter((t) => t.id !== id));
  };
  return {
    $toasts,
    show(text, type = 'info', ms = TOAST_MS) {
      // The same message twice in a row replaces the first rather than stacking.
      for (const t of $toasts.get()) if (t.text === text) dismiss(t.id);
      const id = next++;
      $toasts.set([...$toasts.get(), { id, text, type }]);
      timers.set(
        id,
        env().setTimeout(() => dismiss(id), ms),
      );
    },
    dismiss,
    destroy() {
      for (const id of timers.keys()) env().clearTimeout(timers.get(id));
      timers.clear();
      $toasts.set([]);
    },
  };
}
