import { brandError, hasBrand, type ClassOf, type InstanceOf } from '../../lang/brand';
import { ConfigurationException, formatProblem } from '../../jndi/configuration-exception';

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

/** How deep a cause chain is followed (a chain may even loop). */
const MAX_CAUSE_DEPTH = 8;

/**
 * What --verbose prints about a failure: its configuration problems, each once on its own
 * `error:` line with file:line (else the one line), then every error of the cause chain with its
 * stack frames. A ConfigurationException's message is its problems again: it is not repeated.
 */
export function verboseReport(error: unknown): string {
  const problems = configurationProblems(error);
  const said = problems.map((problem) => `error: ${problem}`);
  // A wrapper's own words come first; a ConfigurationException has none besides its problems.
  if (problems.length === 0 || !ConfigurationException.is(error)) said.unshift(`error: ${errorLine(error)}`);
  return [...said, errorDetails(error)].join('\n');
}

/** Each error of the cause chain: its name and message (its problems' count instead), and its stack frames. */
function errorDetails(error: unknown): string {
  return causeChain(error)
    .flatMap((current, depth) => [...(depth === 0 ? [] : ['caused by:']), ...described(current)])
    .join('\n');
}

/** Every problem of every ConfigurationException in the cause chain, formatted, each once. */
function configurationProblems(error: unknown): string[] {
  const problems = new Set<string>();
  for (const current of causeChain(error)) {
    if (ConfigurationException.is(current))
      for (const problem of current.problems) problems.add(formatProblem(problem));
  }
  return [...problems];
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current !== undefined && current !== null && chain.length < MAX_CAUSE_DEPTH) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

function described(error: unknown): string[] {
  if (!(error instanceof Error)) return [String(error)];
  // The frames only: the stack's first lines are the message, said here once.
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const count = ConfigurationException.is(error) ? error.problems.length : 0;
  const summary = count === 0 ? error.message : `${count} problem${count === 1 ? '' : 's'}, listed above`;
  return [`${error.name}: ${summary}`, ...frames];
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
