import {
  bytes,
  char,
  double,
  float,
  long,
  matches,
  message,
  rejection,
  short,
  truthOf,
  type Truth,
} from './support';

/** jms-conformance.md §4 K: the selector rules of JMS 1.1 §3.8, one table per group. */
const m = message({
  name: 'James',
  s: '2',
  t: 'b',
  age: 17,
  trueProp: true,
  falseProp: false,
  flag: true,
  flag2: false,
  targetMessage: true,
  blob: bytes(1),
  shortProp: short(1),
  longProp: long(9007199254740991),
  floatProp: float(3.14159),
  half: float(0.5),
  doubleProp: double(2.25),
  c: char('x'),
  größe: 3,
  日本: 'x',
  $: 1,
  _: 2,
  a$b_c: 3,
  ORDER: 4,
  notes: 'n',
  Isabel: 5,
  ın: 6,
});

function check(cases: Array<[selector: string, expected: Truth]>): void {
  it.each(cases)('%s is %s', (selector, expected) => {
    expect(truthOf(selector, m)).toBe(expected);
  });
}

function reject(selectors: string[]): void {
  it.each(selectors)('rejects %j', (selector) => {
    expect(rejection(selector).errorCode).toBe('INVALID_FILTER_EXPRESSION');
  });
}

describe('K1 lexical', () => {
  describe('keywords are case-insensitive', () => {
    check([
      ['age between 15 AnD 19', 'TRUE'],
      ['age NoT bEtWeEn 15 and 19', 'FALSE'],
      ['missing iS nOt NuLl', 'FALSE'],
      ["name In ('James')", 'TRUE'],
      ["name nOt lIkE 'J%'", 'FALSE'],
      ['tRuE', 'TRUE'],
      ['flag = fAlSe', 'FALSE'],
      ['nOt flag', 'FALSE'],
      ['flag2 oR flag', 'TRUE'],
    ]);
  });

  describe('identifiers: Java identifier rules, case-sensitive, keywords inside them are fine', () => {
    check([
      ["Name = 'James'", 'UNKNOWN'],
      ['NAME IS NULL', 'TRUE'],
      ['größe = 3', 'TRUE'],
      ["日本 = 'x'", 'TRUE'],
      ['$ = 1', 'TRUE'],
      ['_ = 2', 'TRUE'],
      ['a$b_c = 3', 'TRUE'],
      ['ORDER = 4', 'TRUE'],
      ["notes = 'n'", 'TRUE'],
      ['Isabel = 5', 'TRUE'],
      // Dotless ı upper-cases to I, but only ASCII spellings are keywords.
      ['ın = 6', 'TRUE'],
    ]);
    reject(['1abc = 1', 'a@b = 1', 'a.b = 1', '#a = 1', '"a" = 1', '`a` = 1']);
  });

  describe("string literals: single quotes, '' for a quote", () => {
    const quoted = message({ q: "'", qq: "a''b", e: '', u: '😀 naïve' });
    it.each([
      ["q = ''''", true],
      ["qq = 'a''''b'", true],
      ["e = ''", true],
      ["u = '😀 naïve'", true],
      ["q = ''", false],
    ])('%s → %s', (selector, expected) => {
      expect(matches(selector, quoted)).toBe(expected);
    });
    reject(["name = 'James", "name = 'James''", "name = 'Ja'mes'"]);
  });

  describe('exact numerics: Java integer literal syntax, long range', () => {
    check([
      ['57 = 57', 'TRUE'],
      ['+62 = 62', 'TRUE'],
      ['-957 < 0', 'TRUE'],
      ['0 = -0', 'TRUE'],
      ['9223372036854775807 > 0', 'TRUE'],
      ['-9223372036854775808 < 0', 'TRUE'],
      ['57L = 57', 'TRUE'],
      ['57l = 57', 'TRUE'],
      ['0x1F = 31', 'TRUE'],
      ['0X1f = 31', 'TRUE'],
      ['0x7fffffffffffffffL > 0', 'TRUE'],
      // Java reads a 64-bit hexadecimal long as two's complement.
      ['0xFFFFFFFFFFFFFFFF = -1', 'TRUE'],
      ['017 = 15', 'TRUE'],
      ['00 = 0', 'TRUE'],
      ['longProp = 9007199254740991', 'TRUE'],
      ['longProp = 9007199254740990', 'FALSE'],
    ]);
    reject([
      'x = 9223372036854775808',
      'x = -9223372036854775809',
      'x = 0x10000000000000000',
      'x = 08',
      'x = 0x',
      'x = 0xG',
      'x = 12abc',
      'x = 5LL',
    ]);
  });

  describe('approximate numerics: Java floating-point literal syntax, double range', () => {
    check([
      ['7E3 = 7000', 'TRUE'],
      ['-57.9E2 = -5790', 'TRUE'],
      ['7. = 7', 'TRUE'],
      ['+6.2 > 6', 'TRUE'],
      ['1.5d = 1.5', 'TRUE'],
      ['1D = 1', 'TRUE'],
      ['0.5f = 0.5', 'TRUE'],
      ['09.5 = 9.5', 'TRUE'],
      // A float literal is rounded to single precision: 0.1f is not the double 0.1.
      ['0.1f = 0.1', 'FALSE'],
      ['floatProp = 3.14159f', 'TRUE'],
      ['floatProp = 3.14159', 'FALSE'],
      ['1.7976931348623157E308 > 0', 'TRUE'],
      ['4.9E-324 > 0', 'TRUE'],
    ]);
    reject(['x = 1E309', 'x = 1E-400', 'x = 3.5E39f', 'x = 1.2.3', 'x = 1E', 'x = 1E+', 'x = .', 'x = 1.5L']);
  });

  describe('booleans, and empty or whitespace-only selectors', () => {
    check([
      ['TRUE', 'TRUE'],
      ['FALSE', 'FALSE'],
      ['flag = TRUE', 'TRUE'],
    ]);
    it.each(['', ' ', '\t\r\n\f '])('%j selects everything', (selector) => {
      expect(matches(selector, message())).toBe(true);
    });
    reject(['a == 1', 'a != 1', 'a = 1;', 'a = 1 && b = 2', 'a = 1 || b = 2', 'a % 2 = 0', '\u00a0a = 1']);
  });
});

describe('K2 grammar and precedence', () => {
  check([
    ['1 + 2 * 3 = 7', 'TRUE'],
    ['(1 + 2) * 3 = 9', 'TRUE'],
    ['10 - 4 - 3 = 3', 'TRUE'],
    ['100 / 10 / 5 = 2', 'TRUE'],
    ['2 * 3 / 4 = 1', 'TRUE'],
    ['-2 * -3 = 6', 'TRUE'],
    ['- (2 + 3) = -5', 'TRUE'],
    ['1 + 1 = 2 AND 2 * 2 = 4', 'TRUE'],
    // AND binds tighter than OR; NOT tighter than AND.
    ['trueProp OR trueProp AND falseProp', 'TRUE'],
    ['falseProp AND falseProp OR trueProp', 'TRUE'],
    ['NOT falseProp AND falseProp', 'FALSE'],
    ['NOT (falseProp AND falseProp)', 'TRUE'],
    ['NOT 1 = 2', 'TRUE'],
    ['NOT NOT trueProp', 'TRUE'],
    ['((((trueProp))))', 'TRUE'],
    ['flag', 'TRUE'],
    ['name', 'UNKNOWN'],
  ]);
  // A selector must be a boolean expression; comparisons do not chain.
  reject([
    '3',
    '3+5',
    "'abc'",
    '(1)',
    '-age',
    'True AND 3+5',
    'age = 1 = TRUE',
    'age < 1 < 2',
    '(age = 1',
    'age = 1)',
    '()',
  ]);
});

describe('K5 types', () => {
  check([
    ['shortProp = 1.0', 'TRUE'],
    ['half = 0.5', 'TRUE'],
    ['half < doubleProp', 'TRUE'],
    ['longProp < 1E16', 'TRUE'],
    ['doubleProp * 4 = 9', 'TRUE'],
    // No conversion from string to number: unlike types compare FALSE, not UNKNOWN.
    ['s > 1', 'FALSE'],
    ['s = 2', 'FALSE'],
    ['s <> 2', 'FALSE'],
    ["s = '2'", 'TRUE'],
    ['flag = 1', 'FALSE'],
    ["flag <> 'true'", 'FALSE'],
    ['name = TRUE', 'FALSE'],
    ['targetMessage = TRUE', 'TRUE'],
    ['flag <> flag2', 'TRUE'],
    // Ordering applies to numbers only.
    ['flag > flag2', 'FALSE'],
    ['s < t', 'FALSE'],
    // A char property reads as a one-character string.
    ["c = 'x'", 'TRUE'],
    ["c LIKE '_'", 'TRUE'],
    ["c IN ('x', 'y')", 'TRUE'],
    // A bytes property is set but compares with nothing.
    ['blob IS NULL', 'FALSE'],
    ['blob = blob', 'FALSE'],
    ["blob IN ('a')", 'FALSE'],
    ["blob LIKE '%'", 'FALSE'],
    ['blob + 1 = 2', 'UNKNOWN'],
    ["JMSDeliveryMode = 'NON_PERSISTENT'", 'TRUE'],
  ]);
  reject([
    "name < 'K'",
    'flag < TRUE',
    'TRUE = 1 > 0',
    "'a' + 'b' = 'ab'",
    "age BETWEEN 'a' AND 'z'",
    '-TRUE = 1',
  ]);
});

describe('K6 operators', () => {
  check([
    ['age BETWEEN 17 AND 19', 'TRUE'],
    ['age BETWEEN 15 AND 17', 'TRUE'],
    ['age BETWEEN 18 AND 19', 'FALSE'],
    ['age NOT BETWEEN 18 AND 19', 'TRUE'],
    ['age BETWEEN 16.5 AND 17.5', 'TRUE'],
    ["age BETWEEN 15 AND 19 AND name = 'James'", 'TRUE'],
    ["age BETWEEN 15 AND 19 AND name = 'Bob'", 'FALSE'],
    ['age BETWEEN 10 + 5 AND 20 - 1', 'TRUE'],
    ['name BETWEEN 1 AND 2', 'FALSE'],
    ["name IN ('james')", 'FALSE'],
    ["name IN ('Bob', 'James')", 'TRUE'],
    ["age IN ('17')", 'FALSE'],
    ["age NOT IN ('17')", 'TRUE'],
    ["name LIKE 'James'", 'TRUE'],
    ["name LIKE 'Jam'", 'FALSE'],
    ["name LIKE 'james'", 'FALSE'],
    ["name LIKE 'J___s'", 'TRUE'],
    ["name LIKE 'J__s'", 'FALSE'],
    ["name LIKE '%m%'", 'TRUE'],
    ["age LIKE '17'", 'FALSE'],
    ["age NOT LIKE '17'", 'TRUE'],
    ['name IS NOT NULL', 'TRUE'],
  ]);
  // IN takes string literals; IN, LIKE and IS NULL take an identifier on the left.
  reject([
    'age IN (17)',
    "age IN ('17', 18)",
    "age IN ('17'",
    "age IN '17'",
    "'a' IN ('a')",
    "'abc' LIKE 'a%'",
    "age + 1 LIKE '1'",
    'name LIKE name',
    "name LIKE 'a' ESCAPE name",
    '1 IS NULL',
    'name IS NOT',
    'name IS 1',
    'name NOT NULL',
    'age NOT = 1',
    "name LIKE 'a' ESCAPE",
  ]);
});
