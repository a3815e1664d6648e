import { brandError, hasBrand, type ClassOf, type InstanceOf } from '../../core/protocol/brand';
import { ConfigurationException, formatProblem } from '../../jndi';

/** The `code` of the command's own errors. */
export const CliErrorCode = {
  /** CliError: a mistake the user can fix. */
  CLI: 'ERR_CLI',
  /** Interrupted: Ctrl-C or a termination request. */
  INTERRUPTED: 'ERR_CLI_INTERRUPTED',
} as const;

/** A mistake the user can fix (a bad value, an unknown name, no broker there): one line, no stack. */
export class CliError extends Error {
  static readonly brand: string = 'CliError';
  readonly code: string = CliErrorCode.CLI;

  constructor(
    message: string,
    /** The process exit code; 1 unless the mistake deserves its own. */
    readonly exitCode = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    brandError(this, new.target);
  }

  /** True for an instance of the class it is called on (or of a subclass), from any copy of this package. */
  static is<C extends ClassOf<CliError>>(this: C, value: unknown): value is InstanceOf<C> {
    return hasBrand(value, this);
  }
}

/** Ctrl-C or a termination request ended the command early: 130 (SIGINT) or 143 (SIGTERM). */
export class Interrupted extends CliError {
  static override readonly brand: string = 'Interrupted';
  override readonly code: string = CliErrorCode.INTERRUPTED;

  constructor(signal: NodeJS.Signals) {
    super(`interrupted by ${signal}`, signal === 'SIGINT' ? 130 : 143);
  }
}

/** What the user reads for any failure: one line, whatever the error's shape. */
export function errorLine(error: unknown): string {
  if (CliError.is(error)) return error.message;
  if (ConfigurationException.is(error)) {
    const [first, ...more] = error.problems;
    const line = first === undefined ? error.message : formatProblem(first);
    return more.length === 0
      ? line
      : `${line} (and ${more.length} more problem${more.length === 1 ? '' : 's'}: --verbose lists them)`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** Everything known about a failure, for --verbose: every problem, the stack and each cause. */
export function errorDetails(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (depth > 0) lines.push('caused by:');
    if (ConfigurationException.is(current)) lines.push(...current.problems.map(formatProblem));
    lines.push(current instanceof Error ? (current.stack ?? current.message) : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.join('\n');
}

/** The errno-style code (ECONNREFUSED, EADDRINUSE...) anywhere in an error's cause chain. */
export function systemErrorCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    current = current.cause;
  }
  return null;
}
