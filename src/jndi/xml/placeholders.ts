import { escapeXml } from './entities';

/** Where placeholder values come from: environment variables by default. */
export type Environment = Readonly<Record<string, string | undefined>>;

export interface UnsetPlaceholder {
  name: string;
  line: number;
}

const PLACEHOLDER = /\$\{([^{}:\s]+)(?::([^{}]*))?\}/g;

/**
 * The name as written, else upper-cased with '.' and '-' as '_' (so `hornetq.remoting.netty.port`
 * reads HORNETQ_REMOTING_NETTY_PORT), else undefined.
 */
export function lookupPlaceholder(name: string, env: Environment): string | undefined {
  return env[name] ?? env[name.toUpperCase().replace(/[.-]/g, '_')];
}

/**
 * Replaces `${name}` and `${name:default}` as HornetQ does with system properties, from `env`.
 * A value from the environment is escaped, so it is always text: it cannot add elements or
 * attributes, and a newline in it does not shift the lines errors report. A default is XML as
 * written in the file. A placeholder with neither becomes '' and is reported through `onUnset`.
 */
export function substitutePlaceholders(
  source: string,
  env: Environment,
  onUnset: (placeholder: UnsetPlaceholder) => void,
): string {
  return source.replace(
    PLACEHOLDER,
    (_match: string, name: string, fallback: string | undefined, offset: number) => {
      const value = lookupPlaceholder(name, env);
      if (value !== undefined) return escapeXml(value);
      if (fallback !== undefined) return fallback;
      onUnset({ name, line: lineAt(source, offset) });
      return '';
    },
  );
}

function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) line++;
  return line;
}
