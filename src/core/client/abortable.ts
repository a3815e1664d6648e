/** The options of every operation that can be cancelled, as its last parameter. */
export interface AbortOptions {
  /** Aborting it ends the operation: it rejects with the signal's reason (an AbortError by default). */
  signal?: AbortSignal | undefined;
}

/**
 * Settles as `operation` does, or rejects with the signal's reason as soon as the signal aborts,
 * whichever comes first; `onAbort` runs once when the abort comes first, to release what the
 * operation holds. The listener it adds is removed when `operation` settles, so one long-lived
 * signal can serve any number of operations. A failure of `operation` after the abort is handled
 * here (it has nobody left to hear it).
 */
export function abortable<T>(
  operation: Promise<T>,
  signal: AbortSignal | undefined,
  onAbort?: (reason: unknown) => void,
): Promise<T> {
  if (signal === undefined) return operation;
  if (signal.aborted) {
    operation.catch(ignore);
    onAbort?.(signal.reason);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => {
      reject(signal.reason);
      onAbort?.(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
    operation.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

/** True when `error` is the reason of `signal`'s abort: it passes through every layer unchanged. */
export function isAbortOf(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && error === signal.reason;
}

function ignore(): void {}
