import { selectorError } from './selector-error';

/** The reserved words of the JMS 1.1 selector grammar; matched case-insensitively. */
export const KEYWORDS = [
  'NOT',
  'AND',
  'OR',
  'BETWEEN',
  'LIKE',
  'IN',
  'IS',
  'ESCAPE',
  'NULL',
  'TRUE',
  'FALSE',
] as const;
export type Keyword = (typeof KEYWORDS)[number];

export const OPERATORS = ['=', '<>', '<', '<=', '>', '>=', '+', '-', '*', '/', '(', ')', ','] as const;
export type Operator = (typeof OPERATORS)[number];

/** How an integer literal was written: Java integer literal syntax allows all three. */
export type Radix = 10 | 16 | 8;

export type Token =
  | { readonly type: 'identifier'; readonly position: number; readonly text: string }
  | { readonly type: 'keyword'; readonly position: number; readonly text: string; readonly keyword: Keyword }
  | { readonly type: 'operator'; readonly position: number; readonly text: Operator }
  | { readonly type: 'string'; readonly position: number; readonly text: string; readonly value: string }
  | {
      readonly type: 'integer';
      readonly position: number;
      readonly text: string;
      readonly magnitude: bigint;
      readonly radix: Radix;
    }
  | {
      readonly type: 'float';
      readonly position: number;
      readonly text: string;
      readonly value: number;
      /** Written with an `f`/`F` suffix: a Java float, rounded to single precision. */
      readonly single: boolean;
    }
  | { readonly type: 'end'; readonly position: number };

const KEYWORD_BY_NAME: ReadonlyMap<string, Keyword> = new Map(KEYWORDS.map((k) => [k, k]));

/*
 * Java's Character.isJavaIdentifierStart / isJavaIdentifierPart, by Unicode general category.
 * Each test sees one code point, so these cannot backtrack.
 */
const IDENTIFIER_START = /^[\p{L}\p{Nl}\p{Sc}\p{Pc}]$/u;
const IDENTIFIER_PART = /^[\p{L}\p{Nl}\p{Sc}\p{Pc}\p{Nd}\p{Mn}\p{Mc}\p{Cf}]$/u;

function isIdentifierStart(cp: number): boolean {
  if (cp < 0x80)
    return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f || cp === 0x24;
  return IDENTIFIER_START.test(String.fromCodePoint(cp));
}

function isIdentifierPart(cp: number): boolean {
  if (cp < 0x80) return isIdentifierStart(cp) || isDigit(cp);
  return IDENTIFIER_PART.test(String.fromCodePoint(cp));
}

function isDigit(cp: number): boolean {
  return cp >= 0x30 && cp <= 0x39;
}

function isHexDigit(cp: number): boolean {
  return isDigit(cp) || (cp >= 0x41 && cp <= 0x46) || (cp >= 0x61 && cp <= 0x66);
}

/** JMS whitespace: space, tab, form feed and line terminators (as in the Java language). */
function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0c || c === 0x0a || c === 0x0d;
}

/** 1-based, as an editor shows a column. */
function at(position: number): string {
  return `at character ${position + 1}`;
}

/** Splits a selector into tokens, ending with one `end` token. Linear in the input's length. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source.charCodeAt(i);
    if (isWhitespace(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === 0x27) {
      i = readString(source, i, tokens);
    } else if (isDigit(c) || (c === 0x2e && isDigit(source.charCodeAt(i + 1)))) {
      i = readNumber(source, i, tokens);
    } else {
      const cp = source.codePointAt(i) ?? c;
      if (isIdentifierStart(cp)) {
        i += cp > 0xffff ? 2 : 1;
        for (let next = source.codePointAt(i); next !== undefined && isIdentifierPart(next);) {
          i += next > 0xffff ? 2 : 1;
          next = source.codePointAt(i);
        }
        const text = source.slice(start, i);
        const keyword = KEYWORD_BY_NAME.get(text.toUpperCase());
        // ASCII only: 'ın' must not become the keyword IN through Unicode case mapping.
        if (keyword !== undefined && /^[A-Za-z]+$/.test(text)) {
          tokens.push({ type: 'keyword', position: start, text, keyword });
        } else {
          tokens.push({ type: 'identifier', position: start, text });
        }
      } else {
        const two = source.slice(i, i + 2);
        const op = (two === '<>' || two === '<=' || two === '>=' ? two : source[i]) as Operator;
        if (!OPERATORS.includes(op)) {
          const shown = String.fromCodePoint(cp);
          throw selectorError(`unexpected character '${shown}' ${at(i)}`);
        }
        tokens.push({ type: 'operator', position: start, text: op });
        i += op.length;
      }
    }
  }
  tokens.push({ type: 'end', position: source.length });
  return tokens;
}

function readString(source: string, start: number, tokens: Token[]): number {
  const parts: string[] = [];
  let from = start + 1;
  for (;;) {
    const quote = source.indexOf("'", from);
    if (quote < 0) throw selectorError(`unterminated string literal starting ${at(start)}`);
    parts.push(source.slice(from, quote));
    if (source.charCodeAt(quote + 1) !== 0x27) {
      const end = quote + 1;
      tokens.push({
        type: 'string',
        position: start,
        text: source.slice(start, end),
        value: parts.join("'"),
      });
      return end;
    }
    from = quote + 2;
  }
}

/**
 * Java integer and floating-point literal syntax, as the JMS specification prescribes: decimal,
 * hexadecimal (0x…) and octal (0…) integers with an optional L suffix; decimal floats with an
 * optional exponent and an optional f/F/d/D suffix.
 */
function readNumber(source: string, start: number, tokens: Token[]): number {
  let i = start;
  const cp = (k: number): number => source.codePointAt(k) ?? -1;
  const malformed = (): never => {
    let end = i;
    while (end < source.length && (isIdentifierPart(cp(end)) || cp(end) === 0x2e)) end++;
    throw selectorError(`malformed number '${source.slice(start, Math.max(end, i + 1))}' ${at(start)}`);
  };

  if (cp(i) === 0x30 && (cp(i + 1) === 0x78 || cp(i + 1) === 0x58)) {
    i += 2;
    const digitsFrom = i;
    while (isHexDigit(cp(i))) i++;
    if (i === digitsFrom) malformed();
    const digits = source.slice(digitsFrom, i);
    if (cp(i) === 0x6c || cp(i) === 0x4c) i++;
    if (isIdentifierPart(cp(i)) || cp(i) === 0x2e) malformed();
    const text = source.slice(start, i);
    tokens.push({ type: 'integer', position: start, text, magnitude: BigInt('0x' + digits), radix: 16 });
    return i;
  }

  while (isDigit(cp(i))) i++;
  const integerEnd = i;
  let isFloat = false;
  if (cp(i) === 0x2e) {
    isFloat = true;
    i++;
    while (isDigit(cp(i))) i++;
  }
  if (cp(i) === 0x65 || cp(i) === 0x45) {
    isFloat = true;
    i++;
    if (cp(i) === 0x2b || cp(i) === 0x2d) i++;
    const exponentFrom = i;
    while (isDigit(cp(i))) i++;
    if (i === exponentFrom) malformed();
  }
  const suffix = cp(i);
  let single = false;
  if (suffix === 0x66 || suffix === 0x46 || suffix === 0x64 || suffix === 0x44) {
    isFloat = true;
    single = suffix === 0x66 || suffix === 0x46;
    i++;
  } else if (!isFloat && (suffix === 0x6c || suffix === 0x4c)) {
    i++;
  }
  if (isIdentifierPart(cp(i)) || cp(i) === 0x2e) malformed();
  const text = source.slice(start, i);

  if (isFloat) {
    const numeric = source.slice(start, single || suffix === 0x64 || suffix === 0x44 ? i - 1 : i);
    const parsed = Number(numeric);
    const value = single ? Math.fround(parsed) : parsed;
    if (!Number.isFinite(value)) throw selectorError(`number ${text} ${at(start)} is too large`);
    if (value === 0 && /[1-9]/.test(numeric.replace(/[eE].*$/, ''))) {
      throw selectorError(`number ${text} ${at(start)} is too small`);
    }
    tokens.push({ type: 'float', position: start, text, value, single });
    return i;
  }

  const digits = source.slice(start, integerEnd);
  if (digits.length > 1 && digits.startsWith('0')) {
    if (!/^[0-7]+$/.test(digits)) throw selectorError(`malformed octal number '${text}' ${at(start)}`);
    tokens.push({ type: 'integer', position: start, text, magnitude: BigInt('0o' + digits), radix: 8 });
  } else {
    tokens.push({ type: 'integer', position: start, text, magnitude: BigInt(digits), radix: 10 });
  }
  return i;
}

/** How a token is named in an error message. */
export function describeToken(token: Token): string {
  if (token.type === 'end') return 'the end of the selector';
  const text = token.text.length > 40 ? token.text.slice(0, 37) + '...' : token.text;
  switch (token.type) {
    case 'keyword':
      return `keyword ${token.keyword}`;
    case 'identifier':
      return `identifier '${text}'`;
    case 'string':
      return `string ${text}`;
    case 'integer':
    case 'float':
      return `number ${text}`;
    case 'operator':
      return `'${text}'`;
  }
}

export function describePosition(token: Token): string {
  return at(token.position);
}
