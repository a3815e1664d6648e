import { NamingException } from './naming-exceptions';

const JAVA = 'java:';

/**
 * The canonical form of a name: no leading '/', no empty components ('a//b' is 'a/b'), and
 * 'java:' names as 'java:/rest' ('java:x', 'java:/x' and '/java:/x' are one name). Everything else
 * (dots, spaces, '#', '*', backslashes) is part of the name as written.
 */
export function normalizeName(name: string): string {
  if (typeof name !== 'string') throw new NamingException(`a name must be a string, got ${typeof name}`);
  const trimmed = stripSlashes(name);
  const java = trimmed.startsWith(JAVA);
  const path = stripSlashes(java ? trimmed.slice(JAVA.length) : trimmed)
    .split('/')
    .filter((part) => part.length > 0)
    .join('/');
  if (path.length === 0) throw new NamingException(`'${name}' is not a name: it is empty`);
  return java ? `${JAVA}/${path}` : path;
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
