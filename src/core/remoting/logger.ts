/**
 * The logging surface this package writes to: pino's level methods (a pino logger fits it as it
 * is, as do bunyan's and winston's child loggers). The broker, the core client, the JMS factory
 * and InitialContext each take one; without it they write nothing (a library does not write to
 * the application's stderr).
 */
export interface Logger {
  debug(object: object, message?: string): void;
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};

const LOGGER_METHODS = ['debug', 'info', 'warn', 'error', 'child'] as const;

/**
 * What keeps `value` from being a Logger (the methods it lacks), or null. Checked where a logger is
 * given, so that a wrong object fails there and not at the first warning, far from its cause.
 */
export function loggerProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null)
    return `logger must be an object with ${LOGGER_METHODS.join(', ')} methods (actual value: ${String(value)})`;
  const missing = LOGGER_METHODS.filter(
    (method) => typeof (value as Record<string, unknown>)[method] !== 'function',
  );
  return missing.length === 0 ? null : `logger lacks the method(s) ${missing.join(', ')} (pino's shape)`;
}
