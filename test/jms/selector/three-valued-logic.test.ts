import { matches, message, NULL, truthOf, type Truth } from './support';

/**
 * jms-conformance.md §3.3 (Artemis UnknownHandlingSelectorTest) and §4 K4: SQL three-valued
 * logic. trueProp and falseProp are booleans, nullProp an explicit NULL property, unknownProp
 * absent. UNKNOWN means neither the selector nor its negation selects the message.
 */
const m = message({ trueProp: true, falseProp: false, nullProp: NULL });

describe('UnknownHandlingSelectorTest (§3.3)', () => {
  const table: Array<[selector: string, expected: Truth]> = [
    ['not(trueProp)', 'FALSE'],
    ['not(falseProp)', 'TRUE'],
    ['not(unknownProp)', 'UNKNOWN'],
    ['trueProp AND unknownProp', 'UNKNOWN'],
    ['unknownProp AND trueProp', 'UNKNOWN'],
    ['unknownProp AND unknownProp', 'UNKNOWN'],
    ['falseProp AND unknownProp', 'FALSE'],
    ['unknownProp AND falseProp', 'FALSE'],
    ['trueProp OR unknownProp', 'TRUE'],
    ['unknownProp OR trueProp', 'TRUE'],
    ['falseProp OR unknownProp', 'UNKNOWN'],
    ['unknownProp OR falseProp', 'UNKNOWN'],
    ['unknownProp OR unknownProp', 'UNKNOWN'],
    ...['unknownProp', 'nullProp'].flatMap((p): Array<[string, Truth]> =>
      [
        `${p} = 0`,
        `${p} > 0`,
        `${p} >= 0`,
        `${p} < 0`,
        `${p} <= 0`,
        `${p} <> 0`,
        `${p} LIKE 'zero'`,
        `${p} NOT LIKE 'zero'`,
        `${p} IN ('zero')`,
        `${p} NOT IN ('zero')`,
        `${p} BETWEEN 1 AND 2`,
        `${p} NOT BETWEEN 1 AND 2`,
      ].map((selector): [string, Truth] => [selector, 'UNKNOWN']),
    ),
    ['unknownProp IS NULL', 'TRUE'],
    ['nullProp IS NULL', 'TRUE'],
    ['trueProp IS NULL', 'FALSE'],
    ['unknownProp IS NOT NULL', 'FALSE'],
    ['nullProp IS NOT NULL', 'FALSE'],
    ['trueProp IS NOT NULL', 'TRUE'],
    ['-unknownProp = 0', 'UNKNOWN'],
    ['+unknownProp = 0', 'UNKNOWN'],
    ['unknownProp * 2 = 0', 'UNKNOWN'],
    ['unknownProp / 2 = 0', 'UNKNOWN'],
    ['unknownProp + 2 = 0', 'UNKNOWN'],
    ['unknownProp - 2 = 0', 'UNKNOWN'],
    ['2 - unknownProp = 0', 'UNKNOWN'],
  ];
  it.each(table)('%s is %s', (selector, expected) => {
    expect(truthOf(selector, m)).toBe(expected);
  });
});

describe('truth tables (§4 K4)', () => {
  const operand: Record<Truth, string> = { TRUE: 'trueProp', FALSE: 'falseProp', UNKNOWN: 'unknownProp' };
  const values: Truth[] = ['TRUE', 'FALSE', 'UNKNOWN'];

  const and: Record<Truth, Record<Truth, Truth>> = {
    TRUE: { TRUE: 'TRUE', FALSE: 'FALSE', UNKNOWN: 'UNKNOWN' },
    FALSE: { TRUE: 'FALSE', FALSE: 'FALSE', UNKNOWN: 'FALSE' },
    UNKNOWN: { TRUE: 'UNKNOWN', FALSE: 'FALSE', UNKNOWN: 'UNKNOWN' },
  };
  const or: Record<Truth, Record<Truth, Truth>> = {
    TRUE: { TRUE: 'TRUE', FALSE: 'TRUE', UNKNOWN: 'TRUE' },
    FALSE: { TRUE: 'TRUE', FALSE: 'FALSE', UNKNOWN: 'UNKNOWN' },
    UNKNOWN: { TRUE: 'TRUE', FALSE: 'UNKNOWN', UNKNOWN: 'UNKNOWN' },
  };
  const not: Record<Truth, Truth> = { TRUE: 'FALSE', FALSE: 'TRUE', UNKNOWN: 'UNKNOWN' };
  const pairs = values.flatMap((a) => values.map((b): [Truth, Truth] => [a, b]));

  it.each(pairs)('%s AND %s', (a, b) => {
    expect(truthOf(`${operand[a]} AND ${operand[b]}`, m)).toBe(and[a][b]);
  });
  it.each(pairs)('%s OR %s', (a, b) => {
    expect(truthOf(`${operand[a]} OR ${operand[b]}`, m)).toBe(or[a][b]);
  });
  it.each(values)('NOT %s', (a) => {
    expect(truthOf(`NOT ${operand[a]}`, m)).toBe(not[a]);
  });

  // The same operands as comparisons rather than boolean properties, and in longer chains.
  const comparison: Record<Truth, string> = { TRUE: '1 = 1', FALSE: '1 = 2', UNKNOWN: 'unknownProp = 1' };
  it.each(values.flatMap((a) => pairs.map(([b, c]): [Truth, Truth, Truth] => [a, b, c])))(
    '(%s AND %s) OR %s, as comparisons',
    (a, b, c) => {
      const selector = `${comparison[a]} AND ${comparison[b]} OR ${comparison[c]}`;
      expect(truthOf(selector, m)).toBe(or[and[a][b]][c]);
    },
  );
  it.each(values.flatMap((a) => pairs.map(([b, c]): [Truth, Truth, Truth] => [a, b, c])))(
    'NOT %s AND NOT (%s OR %s)',
    (a, b, c) => {
      const selector = `NOT ${comparison[a]} AND NOT (${comparison[b]} OR ${comparison[c]})`;
      expect(truthOf(selector, m)).toBe(and[not[a]][not[or[b][c]]]);
    },
  );

  it.each(values)('a selector that is %s selects the message only if TRUE', (value) => {
    expect(matches(operand[value], m)).toBe(value === 'TRUE');
    expect(matches(comparison[value], m)).toBe(value === 'TRUE');
  });
});
