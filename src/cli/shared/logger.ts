import pino, { type Logger as PinoLogger } from 'pino';
import pinoPretty from 'pino-pretty';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The broker's log on stdout: readable lines on a terminal, one JSON object per line otherwise
 * (for log shippers). Both write synchronously, so nothing is lost when the process exits.
 */
export function createLogger(level: LogLevel): PinoLogger {
  if (process.stdout.isTTY === true) {
    return pino(
      { level },
      pinoPretty({
        destination: 1,
        sync: true,
        colorize: true,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
        singleLine: true,
      }),
    );
  }
  return pino({ level }, pino.destination({ dest: 1, sync: true }));
}
