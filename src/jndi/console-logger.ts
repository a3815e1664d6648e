import type { Logger } from '../core/remoting';

/** Used when no logger is given: warnings and errors about configuration files must be seen. */
export const consoleLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (_object, message) => console.warn(message ?? ''),
  error: (_object, message) => console.error(message ?? ''),
  child: () => consoleLogger,
};
