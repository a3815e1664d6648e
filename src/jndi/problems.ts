import { ConfigurationException, type ConfigurationProblem } from './configuration-exception';

/** Where a problem is: the element (name and line) it is about. */
export interface ProblemSite {
  readonly name: string;
  readonly line: number;
}

/**
 * A problem about an element (or none): its message starts with the element, `<name> `, so that
 * the message says where even when it is shown without the `element` field.
 */
export function problemAt(
  file: string | null,
  site: ProblemSite | null,
  message: string,
): ConfigurationProblem {
  return {
    file,
    line: site?.line ?? null,
    element: site?.name ?? null,
    message: site === null ? message : `<${site.name}> ${message}`,
  };
}

/**
 * Collects what is wrong with one file, so that a file with several errors reports all of them at
 * once, and the warnings, each said once per file and subject.
 */
export class Problems {
  readonly errors: ConfigurationProblem[] = [];
  readonly warnings: ConfigurationProblem[] = [];
  private readonly warned = new Set<string>();
  /** `line:name` of the elements whose errors an earlier one explains. */
  private readonly explained = new Set<string>();

  constructor(readonly file: string | null) {}

  error(site: ProblemSite | null, message: string): void {
    if (site !== null && this.explained.has(`${site.line}:${site.name}`)) return;
    this.errors.push(this.problem(site, message));
  }

  /**
   * An error already reported explains whatever is wrong with the element at `site` (an unset
   * placeholder left its attribute empty): its other errors would only repeat it, falsely.
   */
  explain(site: ProblemSite): void {
    this.explained.add(`${site.line}:${site.name}`);
  }

  /** A problem at a line, not about one element (malformed XML, a DOCTYPE, ...). */
  errorAtLine(line: number | null, message: string): void {
    this.errors.push({ file: this.file, line, element: null, message });
  }

  /** Warns once per `key` (by default the element's name): one warning names each unsupported element. */
  warn(site: ProblemSite | null, message: string, key: string = site?.name ?? message): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warnings.push(this.problem(site, message));
  }

  /** A warning about a line rather than an element (e.g. a placeholder without a value). */
  warnAtLine(line: number, message: string, key: string = message): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warnings.push({ file: this.file, line, element: null, message });
  }

  get hasErrors(): boolean {
    return this.errors.length > 0;
  }

  throwIfAny(): void {
    if (this.errors.length > 0) throw new ConfigurationException(this.errors);
  }

  private problem(site: ProblemSite | null, message: string): ConfigurationProblem {
    return problemAt(this.file, site, message);
  }
}
