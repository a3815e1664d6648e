import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A real garbage collection for heap measurements: global.gc under --expose-gc, otherwise V8's gc
 * function fetched by turning the flag on at run time (it exists only in contexts created after
 * that). Null if neither works; the caller then asserts a generous bound instead.
 */
export function exposeGc(): (() => void) | null {
  const global = globalThis as { gc?: () => void };
  if (typeof global.gc === 'function') return global.gc;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

/** Heap in use, after three collections when `gc` is given. */
export function measureHeap(gc: (() => void) | null): number {
  if (gc !== null) for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}
