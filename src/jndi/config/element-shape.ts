import type { Problems } from '../problems';
import type { XmlElement } from '../xml/xml-element';
import { nearestName } from './nearest-name';

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

function checkAttributes(element: XmlElement, shape: Shape, problems: Problems): void {
  const known = [...(shape.required ?? []), ...(shape.optional ?? [])];
  const absent = known.filter((name) => !element.attributes.has(name));
  // A required attribute that a misspelt one is taken for is that one mistake, said once.
  const meant = new Set<string>();
  for (const name of element.attributes.keys()) {
    if (known.includes(name)) continue;
    const nearest = nearestName(name, absent);
    if (nearest !== null) meant.add(nearest);
    problems.error(element, unknownAttributeMessage(name, nearest, known.join(', ') || 'none'));
  }
  for (const name of shape.required ?? []) {
    const value = element.attributes.get(name);
    if (value === undefined) {
      if (!meant.has(name)) problems.error(element, `requires the attribute '${name}'`);
    } else if (value.trim().length === 0) problems.error(element, `attribute '${name}' must not be empty`);
  }
}

/** The same "did you mean" as for a misspelt element, else what the allowed attributes are. */
export function unknownAttributeMessage(name: string, nearest: string | null, expected: string): string {
  if (nearest !== null) return `has an unknown attribute '${name}': did you mean '${nearest}'?`;
  return `has an unknown attribute '${name}' (expected: ${expected})`;
}

/** The first child of that name, if any. */
export function first(children: Map<string, XmlElement[]>, name: string): XmlElement | undefined {
  return children.get(name)?.[0];
}

export const shapeChildren = (
  entries: ReadonlyArray<[string, 'one' | 'many']>,
): ReadonlyMap<string, 'one' | 'many'> => new Map(entries);
