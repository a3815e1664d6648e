import { byte, double, float, long, matches, message, rejection, short, type Value } from './support';

/**
 * jms-conformance.md §3.4: ActiveMQ Artemis artemis-selector SelectorTest, on its message. The
 * two Artemis extensions (string concatenation with +, double-quoted identifiers) are not JMS
 * and are rejected here; Artemis's floating division is replaced by Java's integer division
 * (§6.2).
 */
const PUNCTUATION = '!#$&()*+,-./:;<=>?@[\\]^`{|}~';
const artemis = message(
  {
    name: 'James',
    location: 'London',
    byteProp: byte(123),
    byteProp2: byte(33),
    shortProp: short(123),
    intProp: 123,
    longProp: long(123),
    floatProp: float(123),
    doubleProp: double(123),
    rank: 123,
    version: 2,
    quote: "'In God We Trust'",
    foo: '_foo',
    punctuation: PUNCTUATION,
    endingUnderScore: 'XD7xlJIQn_',
    trueProp: true,
    falseProp: false,
    JMSType: 'selector-test',
  },
  { userId: 'connection:1:1:1:1' },
);

describe('Artemis SelectorTest (§3.4)', () => {
  const cases: Array<[selector: string, expected: boolean]> = [
    ['(trueProp OR falseProp) AND trueProp', true],
    ['(trueProp OR falseProp) AND falseProp', false],
    ['falseProp OR falseProp OR falseProp OR falseProp OR falseProp OR falseProp OR trueProp', true],
    ['falseProp OR falseProp OR falseProp OR falseProp OR falseProp OR falseProp OR falseProp', false],
    ['trueProp AND trueProp AND trueProp AND trueProp AND trueProp AND trueProp AND falseProp', false],
    ['trueProp AND trueProp AND trueProp AND trueProp AND trueProp AND trueProp AND trueProp', true],
    ["JMSType = 'selector-test'", true],
    ["JMSType = 'crap'", false],
    // Artemis's message carries this id directly; ours is the core userId behind 'ID:'.
    ["JMSMessageID = 'ID:connection:1:1:1:1'", true],
    ["JMSMessageID = 'ID:connection:1:1:1:2'", false],
    ["name = 'James'", true],
    ['rank > 100', true],
    ['rank >= 123', true],
    ['rank >= 124', false],
    ...['byteProp', 'shortProp', 'intProp', 'longProp', 'floatProp', 'doubleProp'].flatMap(
      (p): Array<[string, boolean]> => [
        [`${p} = 123`, true],
        [`${p} = 10`, false],
      ],
    ),
    ['byteProp2 = 33', true],
    ["name = 'James' and rank < 200", true],
    ["name = 'James' and rank > 200", false],
    ["name = 'Foo' and rank < 200", false],
    ["unknown = 'Foo' and anotherUnknown < 200", false],
    ["name = 'James' or rank > 200", true],
    ["name = 'Foo' or rank < 200", true],
    ["name = 'Foo' or rank > 200", false],
    ["unknown = 'Foo' or anotherUnknown < 200", false],
    ['rank + 2 = 125', true],
    ['(rank + 2) = 125', true],
    ['125 = (rank + 2)', true],
    ['rank + version = 125', true],
    ['rank + 2 < 124', false],
    ['rank - 2 = 121', true],
    ['rank - version = 121', true],
    ['rank - 2 > 122', false],
    ['rank * 2 = 246', true],
    ['rank * version = 246', true],
    ['rank * 2 < 130', false],
    // §6.2: Java integer division. Artemis gives 61.5.
    ['rank / version = 61', true],
    ['rank / version = 61.5', false],
    ['rank / 3 > 100.0', false],
    ['rank / 3 > 100', false],
    ['version / 2 = 1', true],
    ['rank between 100 and 150', true],
    ['rank between 10 and 120', false],
    ["name in ('James', 'Bob', 'Gromit')", true],
    ["name in ('Bob', 'James', 'Gromit')", true],
    ["name in ('Gromit', 'Bob', 'James')", true],
    ["name in ('Gromit', 'Bob', 'Cheddar')", false],
    ["name not in ('Gromit', 'Bob', 'Cheddar')", true],
    ['dummy is null', true],
    ['dummy is not null', false],
    ['name is not null', true],
    ['name is null', false],
    ...[
      '1.0 < 1.1',
      '-1.1 < 1.0',
      '1.0E1 < 1.1E1',
      '-1.1E1 < 1.0E1',
      '1. < 1.1',
      '-1.1 < 1.',
      '1.E1 < 1.1E1',
      '-1.1E1 < 1.E1',
      '.1 < .5',
      '-.5 < .1',
      '.1E1 < .5E1',
      '-.5E1 < .1E1',
      '4E10 < 5E10',
      '5E8 < 5E10',
      '-4E10 < 2E10',
      '-5E8 < 2E2',
      '4E+10 < 5E+10',
      '4E-10 < 5E-10',
    ].map((s): [string, boolean] => [s, true]),
    ["quote = '''In God We Trust'''", true],
    ["quote LIKE '''In G_d We Trust'''", true],
    ["quote LIKE '''In Gd_ We Trust'''", false],
    ["quote NOT LIKE '''In G_d We Trust'''", false],
    ["quote NOT LIKE '''In Gd_ We Trust'''", true],
    ["foo LIKE '%oo'", true],
    ["foo LIKE '%ar'", false],
    ["foo NOT LIKE '%oo'", false],
    ["foo NOT LIKE '%ar'", true],
    ["foo LIKE '!_%' ESCAPE '!'", true],
    ["quote LIKE '!_%' ESCAPE '!'", false],
    ["foo NOT LIKE '!_%' ESCAPE '!'", false],
    ["quote NOT LIKE '!_%' ESCAPE '!'", true],
    [`punctuation LIKE '${PUNCTUATION}'`, true],
    // An escape character not followed by %, _ or itself keeps its own meaning (§6.3).
    ["foo LIKE '%_%' ESCAPE '%'", true],
    ["endingUnderScore LIKE '_D7xlJIQn$_' ESCAPE '$'", true],
    ["endingUnderScore LIKE '_D7xlJIQn__' ESCAPE '_'", true],
    ["endingUnderScore LIKE '%D7xlJIQn%_' ESCAPE '%'", true],
    ["endingUnderScore LIKE '%D7xlJIQn%'  ESCAPE '%'", true],
    ["endingUnderScore LIKE '%D7xlJIQn%%'  ESCAPE '%'", false],
    ["endingUnderScore LIKE '_D7xlJIQn\\_' ESCAPE '\\'", true],
    ["endingUnderScore LIKE '%D7xlJIQn\\_' ESCAPE '\\'", true],
  ];
  it.each(cases)('%s → %s', (selector, expected) => {
    expect(matches(selector, artemis)).toBe(expected);
  });

  describe('the modelClassId selector over its three messages', () => {
    const selector =
      "modelClassId LIKE 'com.whatever.something.%' AND modelInstanceId = '170' AND (modelRequestError IS NULL OR modelCorrelatedClientId = 'whatever')";
    const base = { modelClassId: 'com.whatever.something.Foo', modelInstanceId: '170' };
    it.each([
      ['no error', base, true],
      [
        'an error for another client',
        { ...base, modelRequestError: 'broken', modelCorrelatedClientId: 'another' },
        false,
      ],
      [
        'an error for this client',
        { ...base, modelRequestError: 'broken', modelCorrelatedClientId: 'whatever' },
        true,
      ],
    ])('%s → %s', (_name, properties: Record<string, Value>, expected) => {
      expect(matches(selector, message(properties))).toBe(expected);
    });
  });

  it.each([
    [undefined, false],
    [long(1870414179), true],
    [long(1234), false],
  ])('SessionserverId=1870414179 with %j → %s', (value, expected) => {
    const m = message(value === undefined ? {} : { SessionserverId: value });
    expect(matches('SessionserverId=1870414179', m)).toBe(expected);
  });

  it.each([
    [undefined, false],
    ['Cheese', true],
    ['MirrorLobbyRequest', false],
    ['MirrorLobbyReply', false],
  ])("Command NOT IN ('MirrorLobbyRequest', 'MirrorLobbyReply') with %j → %s", (value, expected) => {
    const m = message(value === undefined ? {} : { Command: value });
    expect(matches("Command NOT IN ('MirrorLobbyRequest', 'MirrorLobbyReply')", m)).toBe(expected);
  });

  it.each([
    '3+5',
    'True AND 3+5',
    "=TEST 'test'",
    "prop1 = prop2 foo AND string = 'Test'",
    'a = 1 AMD  b = 2',
  ])('rejects %j', (selector) => {
    rejection(selector);
  });

  it.each([
    ['"a.test" = \'value\'', 'double-quoted identifier'],
    ["name + '!' = 'James!'", 'string concatenation'],
  ])('rejects the Artemis extension %s (%s is not JMS 1.1)', (selector) => {
    rejection(selector);
  });
});
