/**
 * Records every uncaught exception and unhandled rejection while a test runs, and fails the test
 * if there was one: the broker runs in the test's process, so an error that escaped it to the
 * event loop would otherwise kill jest's worker or pass unseen. Call inside a describe block.
 */
export function useNoUncaughtErrors(): { readonly errors: readonly string[] } {
  const errors: string[] = [];
  const onUncaught = (error: unknown): void => void errors.push(`uncaught: ${String(error)}`);
  const onUnhandled = (reason: unknown): void => void errors.push(`unhandled rejection: ${String(reason)}`);

  beforeEach(() => {
    errors.length = 0;
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUnhandled);
  });

  afterEach(() => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUnhandled);
    expect(errors).toEqual([]);
  });

  return { errors };
}
