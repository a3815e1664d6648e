import { brandError, hasBrand } from '../lang/brand';
import { JndiErrorCode } from './jndi-error-code';

/** One thing wrong (or worth a warning) in a configuration file, and where. */
export interface ConfigurationProblem {
  file: string | null;
  line: number | null;
  /** The element's name as written, without angle brackets; null when no element is at fault. */
  element: string | null;
  /** What is wrong; about an element, it starts with it (`<element> must be ...`), so it reads alone. */
  message: string;
}

/** `file:line: <element> message`, leaving out what is not known (the message names the element). */
export function formatProblem(problem: ConfigurationProblem): string {
  const place =
    problem.file === null
      ? ''
      : problem.line === null
        ? `${problem.file}: `
        : `${problem.file}:${problem.line}: `;
  return `${place}${problem.message}`;
}

/**
 * A configuration file that cannot be used. The message lists every problem found, one per line,
 * each as `file:line: <element> what was expected`; `file`, `line` and `element` are the first's.
 */
export class ConfigurationException extends Error {
  static readonly brand: string = 'ConfigurationException';
  readonly code = JndiErrorCode.CONFIGURATION;
  /** Never: the file must change first. */
  readonly retriable = false;
  readonly file: string | null;
  readonly line: number | null;
  readonly element: string | null;
  readonly problems: ReadonlyArray<ConfigurationProblem>;

  constructor(problems: readonly ConfigurationProblem[] | string = 'invalid configuration') {
    const list: ConfigurationProblem[] =
      typeof problems === 'string'
        ? [{ file: null, line: null, element: null, message: problems }]
        : problems.map((problem) => ({ ...problem }));
    super(list.map(formatProblem).join('\n'));
    brandError(this, new.target);
    const first = list[0];
    this.file = first?.file ?? null;
    this.line = first?.line ?? null;
    this.element = first?.element ?? null;
    this.problems = Object.freeze(list);
  }

  /** True for a ConfigurationException from any copy of this package. */
  static is(value: unknown): value is ConfigurationException {
    return hasBrand(value, ConfigurationException);
  }
}
