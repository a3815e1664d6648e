import { NamingException } from './naming-exceptions';

const JAVA = 'java:';

/**
 * The canonical form of a name: no leading '/', no empty components ('a//b' is 'a/b'), and
 * 'java:' names as 'java:/rest' ('java:x', 'java:/x' and '/java:/x' are one name). Everything else
 * (dots, spaces, '#', '*', backslashes) is part of the name as written.
 */
export function normalizeName(name: string): string {
  const { java, path } = splitName(name, 'a name');
  if (path.length === 0) throw new NamingException(`'${name}' is not a name: it is empty`);
  return java ? `${JAVA}/${path}` : path;
}

/**
 * The canonical form of a name's beginning, for listing: as normalizeName, except that it may be
 * empty ('' and '/' begin every name, 'java:' and 'java:/' every 'java:' name) and a trailing '/'
 * is kept, so that 'queue/' begins only the names in the context 'queue'.
 */
export function normalizePrefix(prefix: string): string {
  const { java, path, context } = splitName(prefix, 'a prefix');
  const rest = context && path.length > 0 ? `${path}/` : path;
  return java ? `${JAVA}/${rest}` : rest;
}

/** Whether it is a 'java:' name, its components joined by '/', and whether it ends with '/'. */
function splitName(name: string, what: string): { java: boolean; path: string; context: boolean } {
  if (typeof name !== 'string') throw new NamingException(`${what} must be a string, got ${typeof name}`);
  const trimmed = stripSlashes(name);
  const java = trimmed.startsWith(JAVA);
  const rest = java ? trimmed.slice(JAVA.length) : trimmed;
  const path = rest
    .split('/')
    .filter((part) => part.length > 0)
    .join('/');
  return { java, path, context: rest.endsWith('/') };
}

function stripSlashes(name: string): string {
  let start = 0;
  while (name[start] === '/') start++;
  return name.slice(start);
}

/** The contexts a name implies: 'a/b/c' → ['a', 'a/b']; 'java:/a/b' → ['java:/a']. */
export function parentContexts(name: string): string[] {
  const java = name.startsWith(`${JAVA}/`);
  const parts = (java ? name.slice(JAVA.length + 1) : name).split('/');
  const parents: string[] = [];
  for (let i = 1; i < parts.length; i++) {
    const path = parts.slice(0, i).join('/');
    parents.push(java ? `${JAVA}/${path}` : path);
  }
  return parents;
}
