import { parseSelector } from '../../../src/jms/selector';
import { bytes, double, long, matches, message, NULL, rejection, truthOf, type Value } from './support';

/**
 * jms-conformance.md §3.1: HornetQ's core filter tests (FilterTest, FilterParserTest,
 * OperatorTest), as they apply to JMS 1.1 selectors. Where HornetQ 2.4 departs from the JMS
 * specification (§6), the specification is asserted and the case says so.
 */

describe('FilterTest (§3.1 F1–F25)', () => {
  it('F1: % matches newlines', () => {
    expect(matches("fooprop LIKE '%1234%'", message({ fooprop: 'hello1234\n' }))).toBe(true);
  });

  it('F2: a filter keeps no state between messages', () => {
    const filter = parseSelector("color = 'RED'");
    expect(filter.match(message({ color: 'RED' }))).toBe(true);
    expect(filter.match(message())).toBe(false);
    expect(filter.match(message({ color: 'RED' }))).toBe(true);
  });

  it.each(["color = 'red", '3'])('F3: %j is rejected at creation', (selector) => {
    rejection(selector);
  });

  it.each(['', '   ', '\t\n'])('F4: %j is no filter: everything matches', (selector) => {
    expect(matches(selector, message())).toBe(true);
  });

  // F5–F7 use HornetQ's core names (HQDurable, HQPriority, HQTimestamp); a JMS selector reaches
  // the same fields through the header names SelectorTranslator maps them from. F8 (HQSize) has
  // no JMS header.
  it.each([
    [true, "JMSDeliveryMode = 'PERSISTENT'", true],
    [false, "JMSDeliveryMode = 'PERSISTENT'", false],
    [true, "JMSDeliveryMode = 'NON_PERSISTENT'", false],
    [false, "JMSDeliveryMode = 'NON_PERSISTENT'", true],
  ])('F5: durable=%s, %s → %s', (durable, selector, expected) => {
    expect(matches(selector, message({}, { durable }))).toBe(expected);
  });

  it('F6: JMSPriority=3 selects priority 3 only', () => {
    const filter = parseSelector('JMSPriority=3');
    const selected = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((priority) =>
      filter.match(message({}, { priority })),
    );
    expect(selected).toEqual([3]);
  });

  it.each([
    [87654321, false],
    [12345678, true],
  ])('F7: JMSTimestamp=12345678 with timestamp %d → %s', (timestamp, expected) => {
    expect(matches('JMSTimestamp=12345678', message({}, { timestamp }))).toBe(expected);
  });

  it.each([
    ['MyBoolean=true', true, true],
    ['MyBoolean=true', false, false],
    ['MyBoolean', true, true],
    ['MyBoolean', false, false],
    ['MyBoolean=false', true, false],
    ['MyBoolean=false', false, true],
  ])('F9: %s with MyBoolean=%s → %s', (selector, value, expected) => {
    expect(matches(selector, message({ MyBoolean: value }))).toBe(expected);
  });

  // HornetQ 2.4 selects both (F10, F11: a missing property compares as not equal). The JMS
  // specification makes a comparison with NULL UNKNOWN, and NOT UNKNOWN is UNKNOWN: not selected.
  it("F10: prop <> 'foo' with prop absent is UNKNOWN (HornetQ: true)", () => {
    expect(matches("prop <> 'foo'", message())).toBe(false);
    expect(truthOf("prop <> 'foo'", message())).toBe('UNKNOWN');
  });
  it("F11: NOT (prop = 'foo') with prop absent is UNKNOWN (HornetQ: true)", () => {
    expect(matches("NOT (prop = 'foo')", message())).toBe(false);
  });

  type Row = [selector: string, value: Value | undefined, expected: boolean];
  const rows: Array<[id: string, ...Row]> = [
    ['F12', "prop <> 'foo'", 'bar', true],
    ['F12', "prop <> 'foo'", 'foo', false],
    ['F13', "MyString=''", '', true],
    ['F13', "MyString=''", 'NOTastring', false],
    ['F14', "myNullProp NOT IN ('foo','jms','test')", undefined, false],
    ['F14', "myNullProp NOT IN ('foo','jms','test')", 'JMS', true],
    ['F14', "myNullProp NOT IN ('foo','jms','test')", 'jms', false],
    ['F15', "myNullProp NOT LIKE '1_3'", undefined, false],
    ['F15', "myNullProp NOT LIKE '1_3'", 'JMS', true],
    ['F15', "myNullProp NOT LIKE '1_3'", '123', false],
    ['F16', 'myNullProp IS NOT NULL', undefined, false],
    ['F16', 'myNullProp IS NOT NULL', 'set', true],
    ...(
      [
        [undefined, false],
        ['astring', true],
        ['NOTastring', false],
        ['astringNOT', false],
        ['astNOTring', false],
        ['ASTRING', false],
        ['', false],
      ] as const
    ).map(([v, e]): [string, ...Row] => ['F17', "MyString LIKE 'astring'", v, e]),
    ...(
      [
        [undefined, false],
        ['a', true],
        ['aaaaa', false],
        ['', false],
      ] as const
    ).map(([v, e]): [string, ...Row] => ['F18', "MyString LIKE '_'", v, e]),
    ...(
      [
        ['abcdf', true],
        ['aXcdf', false],
        ['abXdf', false],
        ['abcdX', false],
        ['', false],
        ['XXXabcdf', false],
        ['abcdfXXX', false],
        ['bcdf', false],
      ] as const
    ).map(([v, e]): [string, ...Row] => ['F19', "MyString LIKE '_bcdf'", v, e]),
    ...(
      [
        [undefined, false],
        ['a', true],
        ['aaaaa', true],
        ['abcdf', true],
        ['', true],
      ] as const
    ).map(([v, e]): [string, ...Row] => ['F20', "MyString LIKE '%'", v, e]),
    ...(
      [
        ['Xbcdf', true],
        ['XXbcdf', true],
        ['bcdf', true],
        ['abXdf', false],
        ['abcdX', false],
        ['', false],
        ['abcdfXXX', false],
      ] as const
    ).map(([v, e]): [string, ...Row] => ['F21', "MyString LIKE '%bcdf'", v, e]),
    ...(
      [
        ['abXdf', true],
        ['abXXXdf', true],
        ['abdf', true],
        ['aXbdf', false],
        ['abdfX', false],
        ['Xabdf', false],
        ['', false],
      ] as const
    ).map(([v, e]): [string, ...Row] => ['F22', "MyString LIKE 'ab%df'", v, e]),
    ['F23', "NOT (MyString LIKE '%')", undefined, false],
  ];
  it.each(rows)('%s: %s with %j → %s', (_id, selector, value, expected) => {
    const name = /^\s*(?:NOT \()?(\w+)/.exec(selector)?.[1] as string;
    expect(matches(selector, message(value === undefined ? {} : { [name]: value }))).toBe(expected);
  });

  const metacharacters = [
    'a^$b',
    'a\\dc',
    '[abc]',
    '[^abc]',
    '[a-c]',
    '[:alpha]',
    '(abc)',
    'a|bc',
    '(abc)?',
    '(abc)*',
    '(abc)+',
    '(abc){3}',
    '(abc){3,5}',
    '(abc){3,}',
    '(?=abc)',
    '(?!abc)',
    'a.c',
  ];
  it.each(metacharacters)('F24: LIKE %j matches only itself: regex syntax is literal', (pattern) => {
    const selector = `MyString LIKE '${pattern}'`;
    expect(matches(selector, message({ MyString: pattern }))).toBe(true);
  });
  it.each([
    ["MyString LIKE 'a.c'", 'abc'],
    ["MyString LIKE '[abc]'", 'a'],
    ["MyString LIKE 'a|bc'", 'a'],
    ["MyString LIKE '(abc)*'", ''],
    ["MyString LIKE 'a\\dc'", 'a1c'],
  ])('F24: %s does not match %j', (selector, value) => {
    expect(matches(selector, message({ MyString: value }))).toBe(false);
  });

  it('F25 (HORNETQ-545): a 4800-character string literal tokenizes and compares', () => {
    const literal = 'a'.repeat(2400) + "''" + 'b'.repeat(2398);
    const selector = `MyString = '${literal}'`;
    const value = 'a'.repeat(2400) + "'" + 'b'.repeat(2398);
    expect(literal.length).toBe(4800);
    expect(matches(selector, message({ MyString: value }))).toBe(true);
    expect(matches(selector, message({ MyString: value + 'b' }))).toBe(false);
  });
});

describe('FilterParserTest (§3.1 P1–P4)', () => {
  it.each([
    '-12345 = -1 * 12345',
    '-1 * 12345.67 = -12345.67',
    '-(1 * 12345.67) = -12345.67',
    '4 + 2 * 3 / 2 = 7',
    '4 * -2 / -1 - 4 = 4',
    '4 * ((-2 / -1) - 4) = -8',
  ])('P1/P2: %s is TRUE', (selector) => {
    expect(truthOf(selector, message())).toBe('TRUE');
  });

  it.each([
    ["Status IN ('new','cleared','acknowledged')", 'new', true],
    ["Status IN ('new','cleared','acknowledged')", 'none', false],
    ["Status NOT IN ('new','cleared','acknowledged')", 'new', false],
    ["Status NOT IN ('new','cleared','acknowledged')", 'none', true],
    ["(Status = 'new') OR (Status = 'cleared') OR (Status= 'acknowledged')", 'new', true],
    ["(Status = 'new') OR (Status = 'cleared') OR (Status= 'acknowledged')", 'acknowledged', true],
    ["(Status = 'new') OR (Status = 'cleared') OR (Status= 'acknowledged')", 'none', false],
  ])('P3/P4: %s with Status=%j → %s', (selector, status, expected) => {
    expect(matches(selector, message({ Status: status }))).toBe(expected);
  });
});

/**
 * OperatorTest exercises HornetQ's operators on Java values directly; here each operand is a
 * literal or a property holding that value (nullProp is an explicit NULL property).
 */
describe('OperatorTest (§3.1)', () => {
  const m = message({
    nullProp: NULL,
    trueProp: true,
    two: 2,
    intMax: 2147483647,
    longMax: long(Number.MAX_SAFE_INTEGER),
    half: double(0.5),
    blob: bytes(1, 2, 3),
  });
  const cases: Array<[selector: string, expected: 'TRUE' | 'FALSE' | 'UNKNOWN', note?: string]> = [
    ['1 = 1.0', 'TRUE'],
    ['1 = nullProp', 'UNKNOWN'],
    ["'foo' = nullProp", 'UNKNOWN', 'HornetQ: false; spec: NULL makes a comparison UNKNOWN'],
    ['nullProp = 1.0', 'UNKNOWN', 'HornetQ: false'],
    ['2 <> nullProp', 'UNKNOWN'],
    ['nullProp <> 1.0', 'UNKNOWN', 'HornetQ: true'],
    ['nullProp <> nullProp', 'UNKNOWN', 'HornetQ: false'],
    ['trueProp > 1', 'FALSE'],
    ['trueProp >= 1', 'FALSE'],
    ['trueProp < 1', 'FALSE'],
    ['trueProp <= 1', 'FALSE'],
    ['nullProp > 1', 'UNKNOWN'],
    ['nullProp <= 1', 'UNKNOWN'],
    // Integer arithmetic is long arithmetic: int + int does not wrap at 32 bits.
    ['intMax + 1 = 2147483648', 'TRUE'],
    ['intMax * intMax = 4611686014132420609', 'TRUE'],
    ['two + two = 4', 'TRUE'],
    ['two + half = 2.5', 'TRUE'],
    ['two * half = 1', 'TRUE'],
    ['two / 2 = 1', 'TRUE'],
    ['2 / 2 = 1', 'TRUE'],
    ['3 / 2 = 1', 'TRUE'],
    ['-3 / 2 = -1', 'TRUE'],
    ['3 / 2.0 = 1.5', 'TRUE'],
    ['3.0 / 2 = 1.5', 'TRUE'],
    ['-two = -2', 'TRUE'],
    ['- -two = 2', 'TRUE'],
    ['2 * nullProp = 0', 'UNKNOWN'],
    ['nullProp / 2 = 0', 'UNKNOWN'],
    // HornetQ throws on arithmetic with a boolean (the filter then rejects); the value is UNKNOWN here.
    ['trueProp + 1 = 2', 'UNKNOWN'],
    ['-trueProp = 1', 'UNKNOWN'],
    ['blob + 1 = 2', 'UNKNOWN'],
    // Integer division by zero throws in Java; UNKNOWN here. Floating division follows IEEE 754.
    ['two / 0 = 0', 'UNKNOWN'],
    ['two / 0.0 > 1E308', 'TRUE'],
    ['-two / 0.0 < -1E308', 'TRUE'],
    ['longMax + 1 = 9007199254740992', 'TRUE'],
    // HornetQ throws when AND/OR/NOT meet a number; a non-boolean operand is UNKNOWN here.
    ['two AND trueProp', 'UNKNOWN'],
    ['two OR trueProp', 'TRUE'],
    ['NOT two', 'UNKNOWN'],
    ['2 BETWEEN 1 AND 3', 'TRUE'],
    ['two BETWEEN 1 AND 3', 'TRUE'],
    ['two BETWEEN 2 AND 2', 'TRUE'],
    ['two BETWEEN 3 AND 1', 'FALSE'],
    ['trueProp BETWEEN 1 AND 3', 'FALSE'],
    ['nullProp BETWEEN nullProp AND 3', 'UNKNOWN'],
    ['two BETWEEN 1 AND nullProp', 'UNKNOWN'],
    ['two BETWEEN 3 AND nullProp', 'FALSE'],
    ["nullProp LIKE 'a%'", 'UNKNOWN'],
    ["nullProp NOT LIKE 'a%'", 'UNKNOWN'],
  ];
  it.each(cases)('%s is %s %s', (selector, expected) => {
    expect(truthOf(selector, m)).toBe(expected);
  });

  it('IN with an empty list is a syntax error (JMS grammar needs one literal; HornetQ: false)', () => {
    rejection('two IN ()');
    rejection('two NOT IN ()');
  });

  it.each(["s LIKE 'a%' ESCAPE 'ab'", "s LIKE 'a%' ESCAPE ''"])(
    '%s: ESCAPE must be one character',
    (selector) => {
      expect(rejection(selector).message).toContain('ESCAPE');
    },
  );

  it.each(['TRUE + 1 = 2', "'a' * 2 = 2", '2 AND TRUE', "NOT 'a'", 'TRUE BETWEEN 1 AND 2', "1 < 'a'"])(
    '%s: an operand whose literal type cannot apply is a syntax error',
    (selector) => {
      rejection(selector);
    },
  );
});
