import { parseSelector } from '../../../src/jms/selector';
import { message, rejection, type Headers, type Value } from './support';

/** jms-conformance.md §1.12: JORAM selector.SelectorSyntaxTest, creation succeeds or throws. */
describe('JORAM SelectorSyntaxTest (§1.12)', () => {
  const valid: Array<[string, string]> = [
    ['testValidIdentifiersStart', '_correct IS NULL'],
    ['testValidIdentifiersStart', '$correct IS NULL'],
    ['testEmptyStringAsSelector', ''],
    ['testNull', 'prop_name IS NULL'],
    ['testNull', 'prop_name IS NOT NULL'],
    ['testLike', "phone LIKE '12%3'"],
    ['testLike', "word LIKE 'l_se'"],
    ['testLike', "underscored LIKE '\\_%' ESCAPE '\\'"],
    ['testLike', "phone NOT LIKE '12%3'"],
    ['testIn', "Country IN ('UK', 'US', 'France')"],
    ['testIn', "Country NOT IN ('UK', 'US', 'France')"],
    ['testBetween', 'age BETWEEN 15 and 19'],
    ['testBetween', 'age NOT BETWEEN 15 and 19'],
    ['testApproximateNumericLiteral', 'average = +6.2'],
    ['testApproximateNumericLiteral', 'average = -95.7'],
    ['testApproximateNumericLiteral', 'average = 7.'],
    ['testExactNumericLiteral', 'average = +62'],
    ['testExactNumericLiteral', 'max = -957'],
    ['testExactNumericLiteral', 'max = 57'],
    ['testZero', 'max = 0'],
    ['testZero', 'max = 0.0'],
    ['testZero', 'max = 0.'],
    ['testString', "string = 'literal'"],
    ['testString', "string = 'literal''s'"],
  ];
  it.each(valid)('%s: accepts %j', (_test, selector) => {
    expect(parseSelector(selector).expression).toBe(selector);
  });

  const invalid: Array<[string, string]> = [
    ['testInvalidIdentifiersStart', '1uncorrect IS NULL'],
    ['testInvalidIdentifiersStart', '%uncorrect IS NULL'],
    ['testIdentifierNULL', 'NULL = ZERO'],
    ['testIdentifierTRUE', 'TRUE > 0'],
    ['testIdentifierFALSE', 'FALSE > 0'],
    ['testIdentifierNOT', 'NOT > 0'],
    ['testIdentifierAND', 'AND > 0'],
    ['testIdentifierOR', 'OR > 0'],
    ['testIdentifierBETWEEN', 'BETWEEN > 0'],
    ['testIdentifierLIKE', 'LIKE > 0'],
    ['testIdentifierIN', 'IN > 0'],
    ['testIdentifierIS', 'IS > 0'],
    ['testIdentifierESCAPE', 'ESCAPE > 0'],
  ];
  it.each(invalid)('%s: rejects %j with InvalidSelectorException', (_test, selector) => {
    expect(rejection(selector).message).toMatch(/at character \d+/);
  });
});

/**
 * jms-conformance.md §1.13: JORAM selector.SelectorTest. Each case sends a non-matching message
 * and then a matching one; the consumer must receive the matching one first, so the selector
 * must reject the first and accept the second.
 */
describe('JORAM SelectorTest (§1.13)', () => {
  type Case = [
    test: string,
    selector: string,
    nonMatching: [Record<string, Value>, Headers?],
    matching: [Record<string, Value>, Headers?],
  ];
  const cases: Case[] = [
    ['testStringLiterals', "string = 'literal''s'", [{ string: 'literal' }], [{ string: "literal's" }]],
    [
      'testJMSDeliveryModeInSelector',
      "JMSDeliveryMode = 'PERSISTENT'",
      [{}, { durable: false }],
      [{}, { durable: true }],
    ],
    // No string → number conversion in selectors: the string "2" is not > 1.
    ['testIdentifierConversion', 'NumberOfOrders > 1', [{ NumberOfOrders: '2' }], [{ NumberOfOrders: 2 }]],
    [
      'testSelectorExampleFromSpecs',
      "JMSType = 'car' AND color = 'blue' AND weight > 2500",
      [{ JMSType: 'car', color: 'red', weight: 3000 }],
      [{ JMSType: 'car', color: 'blue', weight: 3000 }],
    ],
    ['testGreaterThan', 'weight > 2500', [{ weight: 1000 }], [{ weight: 3000 }]],
    ['testEquals', 'weight = 2500', [{ weight: 1000 }], [{ weight: 2500 }]],
    ['testNotEquals', 'weight <> 2500', [{ weight: 2500 }], [{ weight: 1000 }]],
    ['testBetween', 'age BETWEEN 15 and 19', [{ age: 20 }], [{ age: 17 }]],
    ['testIn', "Country IN ('UK', 'US', 'France')", [{ Country: 'Peru' }], [{ Country: 'UK' }]],
    [
      'testLikeEscape',
      "underscored LIKE '\\_%' ESCAPE '\\'",
      [{ underscored: 'bar' }],
      [{ underscored: '_foo' }],
    ],
    ['testLike_1', "phone LIKE '12%3'", [{ phone: '1234' }], [{ phone: '12993' }]],
    ['testLike_2', "word LIKE 'l_se'", [{ word: 'loose' }], [{ word: 'lose' }]],
    ['testNull', 'prop_name IS NULL', [{ prop_name: 'not null' }], [{}]],
  ];
  it.each(cases)('%s: %s', (_test, selector, [nonProps, nonHeaders], [props, headers]) => {
    const parsed = parseSelector(selector);
    expect(parsed.match(message(nonProps, nonHeaders))).toBe(false);
    expect(parsed.match(message(props, headers))).toBe(true);
  });

  it('testEmptyStringAsSelector: "" selects any message', () => {
    const parsed = parseSelector('');
    expect(parsed.match(message())).toBe(true);
    expect(parsed.match(message({ anything: 1 }, { durable: true, priority: 9 }))).toBe(true);
  });
});
