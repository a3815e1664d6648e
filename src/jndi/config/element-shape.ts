import type { Problems } from '../problems';
import type { XmlElement } from '../xml/xml-element';

/** What an element may hold: its attributes, and its child elements with how often each may occur. */
export interface Shape {
  required?: readonly string[];
  optional?: readonly string[];
  /** Child name → 'one' (at most once) or 'many'. Absent: no children allowed. */
  children?: ReadonlyMap<string, 'one' | 'many'>;
}

/**
 * Checks an element against its shape, reporting every unknown or missing attribute, unknown child
 * (an element HornetQ does not know there, including one nested at the wrong level), repeated child
 * and stray text. Returns the allowed children by name, in document order.
 */
export function checkShape(element: XmlElement, shape: Shape, problems: Problems): Map<string, XmlElement[]> {
  checkAttributes(element, shape, problems);
  const found = new Map<string, XmlElement[]>();
  const allowed = shape.children ?? new Map<string, 'one' | 'many'>();
  for (const child of element.children) {
    const occurs = allowed.get(child.name);
    if (occurs === undefined) {
      problems.error(child, unknownChildMessage(element, child, allowed));
      continue;
    }
    const list = found.get(child.name) ?? [];
    if (occurs === 'one' && list.length > 0) {
      problems.error(child, `may appear only once in <${element.name}> (first at line ${list[0]?.line})`);
      continue;
    }
    list.push(child);
    found.set(child.name, list);
  }
  const text = element.text.trim();
  if (text.length > 0) {
    problems.error(
      element,
      `holds elements, not text (found '${text.length > 40 ? `${text.slice(0, 40)}…` : text}')`,
    );
  }
  return found;
}

function unknownChildMessage(
  parent: XmlElement,
  child: XmlElement,
  allowed: ReadonlyMap<string, 'one' | 'many'>,
): string {
  if (allowed.size === 0) return `is not allowed in <${parent.name}>, which holds no elements`;
  const nearest = nearestName(child.name, [...allowed.keys()]);
  if (nearest !== null) return `is not allowed in <${parent.name}>: did you mean <${nearest}>?`;
  return `is not allowed in <${parent.name}> (expected one of: ${[...allowed.keys()].join(', ')})`;
}

/**
 * The allowed name a misspelt one most likely meant: the nearest by edit distance, when it is close
 * enough to be a slip of the keyboard (a few letters, fewer for a short name) rather than another word.
 */
function nearestName(name: string, candidates: readonly string[]): string | null {
  const tolerance = Math.min(3, Math.max(1, Math.floor(name.length / 4)));
  let best: string | null = null;
  let bestDistance = tolerance + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance: the insertions, deletions and substitutions that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function checkAttributes(element: XmlElement, shape: Shape, problems: Problems): void {
  const known = new Set([...(shape.required ?? []), ...(shape.optional ?? [])]);
  for (const name of element.attributes.keys()) {
    if (!known.has(name)) {
      const expected = known.size === 0 ? 'none' : [...known].join(', ');
      problems.error(element, `has an unknown attribute '${name}' (expected: ${expected})`);
    }
  }
  for (const name of shape.required ?? []) {
    const value = element.attributes.get(name);
    if (value === undefined) problems.error(element, `requires the attribute '${name}'`);
    else if (value.trim().length === 0) problems.error(element, `attribute '${name}' must not be empty`);
  }
}

/** The first child of that name, if any. */
export function first(children: Map<string, XmlElement[]>, name: string): XmlElement | undefined {
  return children.get(name)?.[0];
}

export const shapeChildren = (
  entries: ReadonlyArray<[string, 'one' | 'many']>,
): ReadonlyMap<string, 'one' | 'many'> => new Map(entries);
