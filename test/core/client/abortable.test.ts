import { getEventListeners } from 'node:events';
import { abortable, isAbortOf } from '../../../src/core/client/abortable';

/** A promise and the functions that settle it, for driving abortable() by hand. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('abortable', () => {
  test('without a signal it is the operation itself', async () => {
    const operation = Promise.resolve(7);
    expect(abortable(operation, undefined)).toBe(operation);
    await expect(abortable(operation, undefined)).resolves.toBe(7);
  });

  test('settles as the operation does while the signal does not abort', async () => {
    const controller = new AbortController();
    await expect(abortable(Promise.resolve('done'), controller.signal)).resolves.toBe('done');
    const failure = new Error('broker said no');
    await expect(abortable(Promise.reject(failure), controller.signal)).rejects.toBe(failure);
  });

  test('an aborted signal rejects at once with its reason and runs onAbort once', async () => {
    const reason = new Error('stop');
    const onAbort = jest.fn();
    const operation = deferred<number>();
    const result = abortable(operation.promise, AbortSignal.abort(reason), onAbort);
    await expect(result).rejects.toBe(reason);
    expect(onAbort).toHaveBeenCalledTimes(1);
    expect(onAbort).toHaveBeenCalledWith(reason);
  });

  test('the default reason is an AbortError DOMException, as fetch rejects with', async () => {
    const controller = new AbortController();
    const result = abortable(deferred<number>().promise, controller.signal);
    controller.abort();
    const error: unknown = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect(isAbortOf(error, controller.signal)).toBe(true);
  });

  test('an abort during the operation rejects with the reason; a later outcome changes nothing', async () => {
    const controller = new AbortController();
    const operation = deferred<string>();
    const onAbort = jest.fn();
    const result = abortable(operation.promise, controller.signal, onAbort);
    controller.abort('user gave up');
    operation.resolve('too late');
    await expect(result).rejects.toBe('user gave up');
    expect(onAbort).toHaveBeenCalledTimes(1);
  });

  test('an operation failing after the abort is not an unhandled rejection', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const controller = new AbortController();
      const operation = deferred<string>();
      const result = abortable(operation.promise, controller.signal);
      controller.abort();
      await result.catch(() => undefined);
      operation.reject(new Error('failed afterwards'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  test('onAbort does not run when the operation settles first', async () => {
    const controller = new AbortController();
    const onAbort = jest.fn();
    await abortable(Promise.resolve(1), controller.signal, onAbort);
    controller.abort();
    expect(onAbort).not.toHaveBeenCalled();
  });

  test('its listener is removed when the operation settles: 1000 operations leave none on one signal', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 1000; i++) {
      await abortable(Promise.resolve(i), controller.signal);
      await abortable(Promise.reject(new Error('no')), controller.signal).catch(() => undefined);
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('isAbortOf', () => {
  test('only the reason of an aborted signal counts', () => {
    const controller = new AbortController();
    const reason = new Error('reason');
    expect(isAbortOf(reason, controller.signal)).toBe(false);
    controller.abort(reason);
    expect(isAbortOf(reason, controller.signal)).toBe(true);
    expect(isAbortOf(new Error('other'), controller.signal)).toBe(false);
    expect(isAbortOf(reason, undefined)).toBe(false);
  });
});
