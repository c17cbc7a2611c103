/**
 * Lazily loaded views that can be retried. React.lazy keeps a failed import's rejection for ever; `lazyChunk` adds
 * the 120 s chunk-load timeout (lib/chunks.ts) and, after a failure, gives the next render a fresh import when
 * the error boundary's Retry asks for it (`retryFailedChunks`).
 */
import { createElement, lazy, type ComponentType } from 'react';
import { loadChunk } from '../../lib/chunks.js';
import { env } from '../../lib/env.js';

const failed = new Set<() => void>();

/** A component loaded from `load` on first render; `name` names it in errors. */
export function lazyChunk<P extends object>(
  name: string,
  load: () => Promise<{ default: ComponentType<P> }>,
): ComponentType<P> {
  const make = () =>
    lazy(() =>
      loadChunk(name, load, { setTimeout: env().setTimeout, clearTimeout: env().clearTimeout }).catch(
        (error: unknown) => {
          failed.add(reset);
          throw error;
        },
      ),
    );
  let current = make();
  function reset() {
    current = make();
  }
  function Chunk(props: P) {
    return createElement(current as unknown as ComponentType<P>, props);
  }
  Chunk.displayName = `Chunk(${name})`;
  return Chunk;
}

/** The chunks that failed to load start again on their next render. */
export function retryFailedChunks(): void {
  for (const reset of failed) reset();
  failed.clear();
}
