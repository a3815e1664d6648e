import { escapeXml } from './entities';

/** Where placeholder values come from: environment variables by default. */
export type Environment = Readonly<Record<string, string | undefined>>;

export interface UnsetPlaceholder {
  name: string;
  /** The line the placeholder is on. */
  line: number;
  /**
   * The element whose attribute or text holds it (its name and the line of its tag): problems
   * found later about that element follow from the missing value.
   */
  element: { name: string; line: number };
}

const PLACEHOLDER = /\$\{([^{}:\s]+)(?::([^{}]*))?\}/g;
const COMMENT = /<!--[\s\S]*?-->/g;

/** The environment variable a placeholder reads besides its own name: upper case, '.' and '-' as '_'. */
export function placeholderVariable(name: string): string {
  return name.toUpperCase().replace(/[.-]/g, '_');
}

/**
 * The name as written, else upper-cased with '.' and '-' as '_' (so `hornetq.remoting.netty.port`
 * reads HORNETQ_REMOTING_NETTY_PORT), else undefined.
 */
export function lookupPlaceholder(name: string, env: Environment): string | undefined {
  return env[name] ?? env[placeholderVariable(name)];
}

/**
 * Replaces `${name}` and `${name:default}` as HornetQ does with system properties, from `env`.
 * A value from the environment is escaped, so it is always text: it cannot add elements or
 * attributes, and a newline in it does not shift the lines errors report. A default is XML as
 * written in the file. A placeholder with neither becomes '' and is reported through `onUnset`.
 * Comments are left as written: a placeholder mentioned in one is not a value the file needs (and
 * a value with `--` in it would end the comment early).
 */
export function substitutePlaceholders(
  source: string,
  env: Environment,
  onUnset: (placeholder: UnsetPlaceholder) => void,
): string {
  const comments = commentRanges(source);
  return source.replace(
    PLACEHOLDER,
    (match: string, name: string, fallback: string | undefined, offset: number) => {
      if (comments.some(([start, end]) => offset >= start && offset < end)) return match;
      const value = lookupPlaceholder(name, env);
      if (value !== undefined) return escapeXml(value);
      if (fallback !== undefined) return fallback;
      onUnset({ name, line: lineAt(source, offset), element: tagAround(source, offset) });
      return '';
    },
  );
}

/** The tag that opens before `offset`: its name as written and its line. */
function tagAround(source: string, offset: number): { name: string; line: number } {
  const start = Math.max(0, source.lastIndexOf('<', offset));
  const name = /^<([^\s/>]+)/.exec(source.slice(start, offset))?.[1] ?? '';
  return { name, line: lineAt(source, start) };
}

function commentRanges(source: string): Array<[number, number]> {
  return [...source.matchAll(COMMENT)].map((match) => [match.index, match.index + match[0].length]);
}

function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) line++;
  return line;
}
