import { settingProblem, type Setting } from '../../lang/settings';
import type { Problems } from '../problems';
import type { XmlElement } from '../xml/xml-element';

/** Says what is wrong with a number, HornetQ's way, or null when it is fine. */
export type RangeCheck = (value: number) => string | null;

const actual = (value: number): string => `(actual value: ${value})`;

/** HornetQ's Validators, with their messages. */
export const GT_ZERO: RangeCheck = (v) => (v > 0 ? null : `must be greater than 0 ${actual(v)}`);
export const GE_ZERO: RangeCheck = (v) => (v >= 0 ? null : `must be greater than or equal to 0 ${actual(v)}`);
export const MINUS_ONE_OR_GT_ZERO: RangeCheck = (v) =>
  v === -1 || v > 0 ? null : `must be -1 or greater than 0 ${actual(v)}`;
export const MINUS_ONE_OR_GE_ZERO: RangeCheck = (v) =>
  v === -1 || v >= 0 ? null : `must be -1 or greater than or equal to 0 ${actual(v)}`;
export const PERCENTAGE: RangeCheck = (v) =>
  v >= 0 && v <= 100 ? null : `must be between 0 and 100 ${actual(v)}`;
export const THREAD_PRIORITY: RangeCheck = (v) =>
  v >= 1 && v <= 10 ? null : `must be between 1 and 10 ${actual(v)}`;
export const PORT: RangeCheck = (v) =>
  v >= 0 && v <= 65535 ? null : `must be between 0 and 65535 ${actual(v)}`;

/** Node fires a timer longer than this after 1 ms, so periods are capped (ours). */
export const MAX_TIMER_MS = 2_147_483_647;
export const both =
  (...checks: RangeCheck[]): RangeCheck =>
  (v) => {
    for (const check of checks) {
      const problem = check(v);
      if (problem !== null) return problem;
    }
    return null;
  };
export const AT_MOST_TIMER: RangeCheck = (v) =>
  v <= MAX_TIMER_MS ? null : `must be at most ${MAX_TIMER_MS} ms (Node's timer limit) ${actual(v)}`;

export type ValueKind =
  'long' | 'int' | 'double' | 'boolean' | 'string' | 'non-empty-string' | readonly string[];

/** The type (xsd) of a simple element or attribute and the range check HornetQ applies to it. */
export interface ValueSpec {
  kind: ValueKind;
  check?: RangeCheck;
}

export type Value = number | boolean | string;

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INT_MIN = -2_147_483_648;
const INT_MAX = 2_147_483_647;

/** Parses text as the kind says; returns the value, or a message saying what was expected. */
export function parseValue(raw: string, spec: ValueSpec): { value: Value } | { problem: string } {
  const text = raw.trim();
  const kind = spec.kind;
  if (Array.isArray(kind)) {
    return kind.includes(text)
      ? { value: text }
      : { problem: `must be one of ${kind.join(', ')} (actual value: '${text}')` };
  }
  switch (kind) {
    case 'boolean':
      if (text === 'true' || text === '1') return { value: true };
      if (text === 'false' || text === '0') return { value: false };
      return { problem: `must be true or false (actual value: '${text}')` };
    case 'string':
      return { value: text };
    case 'non-empty-string':
      return text.length > 0 ? { value: text } : { problem: 'must not be empty' };
    default:
      return parseNumber(text, kind as 'long' | 'int' | 'double', spec.check);
  }
}

function parseNumber(
  text: string,
  kind: 'long' | 'int' | 'double',
  check?: RangeCheck,
): { value: Value } | { problem: string } {
  const typeName = kind === 'long' ? 'Long' : kind === 'int' ? 'Integer' : 'Double';
  const value = Number(text);
  const parsed =
    kind === 'double'
      ? DECIMAL.test(text) && Number.isFinite(value)
      : INTEGER.test(text) &&
        Number.isSafeInteger(value) &&
        (kind === 'long' || (value >= INT_MIN && value <= INT_MAX));
  if (!parsed)
    return {
      problem: `requires a valid ${typeName} value, but '${text}' cannot be parsed as ${kind === 'int' ? 'an' : 'a'} ${typeName}`,
    };
  const problem = check?.(value) ?? null;
  return problem === null ? { value } : { problem };
}

/** Reads a simple element's text as the spec says, reporting a bad value at the element's line. */
export function readValue(element: XmlElement, spec: ValueSpec, problems: Problems): Value | undefined {
  if (element.children.length > 0) {
    problems.error(element, `holds a value, not elements (found <${element.children[0]?.name}>)`);
    return undefined;
  }
  const result = parseValue(element.text, spec);
  if ('problem' in result) {
    problems.error(element, result.problem);
    return undefined;
  }
  return result.value;
}

const KIND_OF_JAVA_TYPE: Readonly<Record<Setting['javaType'], ValueKind>> = {
  int: 'int',
  long: 'long',
  double: 'double',
  boolean: 'boolean',
  String: 'string',
};

/** How the XML text of a number or boolean setting is read: its Java type, then its range. */
export function specOf(setting: Setting): ValueSpec {
  return { kind: KIND_OF_JAVA_TYPE[setting.javaType], check: (value) => settingProblem(setting, value) };
}

/**
 * Reads a setting's element: its text as the setting's Java type, then its value against the
 * setting's range (the one the setters and the core options check), reported at the element's line.
 */
export function readSetting(element: XmlElement, setting: Setting, problems: Problems): Value | undefined {
  const value = readValue(element, { kind: KIND_OF_JAVA_TYPE[setting.javaType] }, problems);
  if (value === undefined) return undefined;
  const problem = settingProblem(setting, value);
  if (problem === null) return value;
  problems.error(element, problem);
  return undefined;
}
