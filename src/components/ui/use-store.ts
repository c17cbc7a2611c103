/**
 * A store's value in a component, which renders again when the value changes: React's `useSyncExternalStore` over
 * the store's `listen`. Ours rather than @nanostores/react's `useStore`, which always carries nanostores' key
 * listener and its path reader for a `keys` option nothing here uses (0.25 KB gzip on every page).
 */
import type { ReadableAtom } from 'nanostores';
import { useCallback, useRef, useSyncExternalStore } from 'react';

export function useStore<T>(store: ReadableAtom<T>): T {
  // The value this render read: the snapshot React compares (a store read afresh may compute a new object each
  // time, which React would take for a change).
  const shown = useRef<T>(undefined as T);
  shown.current = store.get();
  const subscribe = useCallback(
    (changed: () => void) => {
      const follow = (value: T) => {
        if (value === shown.current) return;
        shown.current = value;
        changed();
      };
      const stop = store.listen(follow);
      // A change between this render and the subscription renders again.
      follow(store.get());
      return stop;
    },
    [store],
  );
  return useSyncExternalStore(subscribe, () => shown.current);
}
