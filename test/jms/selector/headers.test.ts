import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { parseSelector } from '../../../src/jms/selector';
import { matches, message, rejection, truthOf, type Headers, type Value } from './support';

type Case = [selector: string, properties: Record<string, Value>, headers: Headers, expected: boolean];

/**
 * jms-conformance.md §2.3: HornetQ jms-tests selector.SelectorTest. The broker-level scenarios
 * (many consumers, redelivery, expiry) rest on these per-message decisions, tested here on the
 * core message the broker evaluates.
 */
describe('HornetQ jms-tests SelectorTest (§2.3)', () => {
  const cases: Array<[test: string, ...Case]> = [
    ['testSelectiveClosingConsumer', "color = 'red'", { color: 'red' }, {}, true],
    ['testSelectiveClosingConsumer', "color = 'red'", { color: 'blue' }, {}, false],
    ['testManyTopic', "beatle = 'john'", { beatle: 'john' }, {}, true],
    ['testManyTopic', "beatle = 'john'", { beatle: 'kermit' }, {}, false],
    ['testWithSelector', "beatle = 'jesus'", { beatle: 'ringo' }, {}, false],
    ['testManyConsumersWithDifferentSelectors', 'weight = 1', { weight: 1 }, {}, true],
    ['testManyConsumersWithDifferentSelectors', 'weight = 2', { weight: 1 }, {}, false],
    ['testDeliveryModeOnSelector', "JMSDeliveryMode = 'PERSISTENT'", {}, { durable: true }, true],
    ['testDeliveryModeOnSelector', "JMSDeliveryMode = 'PERSISTENT'", {}, { durable: false }, false],
    ['testDeliveryModeOnSelector', "JMSDeliveryMode = 'NON_PERSISTENT'", {}, { durable: false }, true],
    ['testJMSMessageIDOnSelector', "JMSMessageID = 'ID:msg-2'", {}, { userId: 'msg-2' }, true],
    ['testJMSMessageIDOnSelector', "JMSMessageID = 'ID:msg-2'", {}, { userId: 'msg-1' }, false],
    ['testJMSMessageIDOnSelector', "JMSMessageID = 'msg-2'", {}, { userId: 'msg-2' }, false],
    ['testJMSPriorityOnSelector', 'JMSPriority = 2', {}, { priority: 2 }, true],
    ['testJMSPriorityOnSelector', 'JMSPriority = 2', {}, { priority: 4 }, false],
    ['testJMSTimestampOnSelector', 'JMSTimestamp = 1700000000123', {}, { timestamp: 1700000000123 }, true],
    ['testJMSTimestampOnSelector', 'JMSTimestamp = 1700000000123', {}, { timestamp: 1700000000124 }, false],
    ['testJMSExpirationOnSelector', 'JMSExpiration = 1700000060000', {}, { expiration: 1700000060000 }, true],
    ['testJMSExpirationOnSelector', 'JMSExpiration = 1700000060000', {}, { expiration: 0 }, false],
    ['testJMSTypeOnSelector', "JMSType = 'type2'", { JMSType: 'type2' }, {}, true],
    ['testJMSTypeOnSelector', "JMSType = 'type2'", { JMSType: 'type1' }, {}, false],
    ['testJMSCorrelationIDOnSelector', "JMSCorrelationID = 'cid2'", { JMSCorrelationID: 'cid2' }, {}, true],
    ['testJMSCorrelationIDOnSelector', "JMSCorrelationID = 'cid2'", { JMSCorrelationID: 'cid1' }, {}, false],
  ];
  it.each(cases)('%s: %s → %s', (_test, selector, properties, headers, expected) => {
    expect(matches(selector, message(properties, headers))).toBe(expected);
  });
});

/** jms-conformance.md §4 K3: how each header identifier reads a core message. */
describe('header identifiers (§4 K3)', () => {
  const cases: Case[] = [
    // A message whose id was disabled has no JMSMessageID.
    ['JMSMessageID IS NULL', {}, { userId: null }, true],
    ['JMSMessageID IS NULL', {}, { userId: 'x' }, false],
    ["JMSMessageID LIKE 'ID:%'", {}, { userId: 'abc' }, true],
    ['JMSPriority BETWEEN 0 AND 3', {}, { priority: 3 }, true],
    ['JMSPriority > 4', {}, { priority: 9 }, true],
    // The header is an int: it equals 2.0 and is not the string '2'.
    ['JMSPriority = 2.0', {}, { priority: 2 }, true],
    ["JMSPriority = '2'", {}, { priority: 2 }, false],
    ['JMSTimestamp - 1000 = 0', {}, { timestamp: 1000 }, true],
    ['JMSExpiration = 0', {}, {}, true],
    // The header wins over a property of the same name: the properties map cannot fake it.
    ['JMSPriority = 7', { JMSPriority: 7 }, { priority: 4 }, false],
    ["JMSDeliveryMode = 'NON_PERSISTENT'", { JMSDeliveryMode: 'PERSISTENT' }, { durable: false }, true],
    // JMSXGroupID is stored as HornetQ's _HQ_GROUP_ID property.
    ["JMSXGroupID = 'g1'", { _HQ_GROUP_ID: 'g1' }, {}, true],
    ["JMSXGroupID = 'g1'", { JMSXGroupID: 'g1' }, {}, false],
    ['JMSXGroupID IS NULL', {}, {}, true],
    // The broker does not know the consumer-side delivery count.
    ['JMSXDeliveryCount IS NULL', { JMSXDeliveryCount: 3 }, {}, true],
    // Other JMS header names are ordinary, normally absent, properties.
    ['JMSDestination IS NULL', {}, {}, true],
    ['JMSReplyTo IS NULL', {}, {}, true],
    ['JMSRedelivered IS NULL', {}, {}, true],
    ['JMSRedelivered = TRUE', { JMSRedelivered: true }, {}, true],
    // Property names are case-sensitive: jmsPriority is not the header.
    ['jmsPriority IS NULL', {}, { priority: 4 }, true],
    // JMSX and JMS_ prefixes are ordinary identifiers.
    ["JMSXUserID = 'bob'", { JMSXUserID: 'bob' }, {}, true],
    ["JMS_HQ_Vendor = 'x'", { JMS_HQ_Vendor: 'x' }, {}, true],
  ];
  it.each(cases)('%s', (selector, properties, headers, expected) => {
    expect(matches(selector, message(properties, headers))).toBe(expected);
  });

  it('JMSXDeliveryCount compares as UNKNOWN on the broker', () => {
    expect(truthOf('JMSXDeliveryCount > 1', message())).toBe('UNKNOWN');
  });

  it('a JMSCorrelationID set as bytes is not equal to any string', () => {
    const m = message();
    m.properties.set('JMSCorrelationID', { kind: PropertyKind.BYTES, value: Buffer.from('cid') });
    expect(truthOf("JMSCorrelationID = 'cid'", m)).toBe('FALSE');
    expect(matches('JMSCorrelationID IS NOT NULL', m)).toBe(true);
  });
});

/**
 * jms-conformance.md §3.2: HornetQ SelectorTranslatorTest. HornetQ rewrites JMS header names into
 * core filter names as whole identifiers outside string literals; we evaluate JMS selectors
 * directly, so the same cases become: only the bare identifier is the header, and a header name
 * inside a literal or inside a longer identifier is left alone.
 */
describe('HornetQ SelectorTranslatorTest (§3.2)', () => {
  const cases: Case[] = [
    ["JMSDeliveryMode='NON_PERSISTENT'", {}, { durable: false }, true],
    ["JMSDeliveryMode='NON_PERSISTENT'", {}, { durable: true }, false],
    ["JMSDeliveryMode='PERSISTENT'", {}, { durable: true }, true],
    // The core names are not JMS: 'DURABLE' is just a string that no delivery mode equals.
    ["JMSDeliveryMode='DURABLE'", {}, { durable: true }, false],
    ["color = 'red' AND 'NON_PERSISTENT' = JMSDeliveryMode", { color: 'red' }, { durable: false }, true],
    ["color = 'red' AND 'NON_PERSISTENT' = JMSDeliveryMode", { color: 'red' }, { durable: true }, false],
    ["animal_name = 'xyzJMSPriorityxyz'", { animal_name: 'xyzJMSPriorityxyz' }, { priority: 1 }, true],
    ['xyzJMSPriorityxyz = 1', {}, { priority: 1 }, false],
    ['OtherJMSPriority = 321', { OtherJMSPriority: 321 }, { priority: 4 }, true],
    ['OtherJMSPriority = 4', {}, { priority: 4 }, false],
    ["note = 'PERSISTENT'", { note: 'PERSISTENT' }, { durable: false }, true],
    ["JMSMessageID = 'ID:42'", {}, { userId: '42' }, true],
    ['JMSExpiration = 99', {}, { expiration: 99 }, true],
    ['JMSTimestamp = 12345', {}, { timestamp: 12345 }, true],
    [
      "color = 'red' OR cheese = 'stilton' OR (age = 3 AND shoesize = 12)",
      { age: 3, shoesize: 12 },
      {},
      true,
    ],
    [
      "color = 'red' OR cheese = 'stilton' OR (age = 3 AND shoesize = 12)",
      { age: 3, shoesize: 11 },
      {},
      false,
    ],
    ["color = 'red' OR cheese = 'stilton' OR (age = 3 AND shoesize = 12)", { cheese: 'stilton' }, {}, true],
  ];
  it.each(cases)('%s', (selector, properties, headers, expected) => {
    expect(matches(selector, message(properties, headers))).toBe(expected);
  });

  it('rejects the translator test string that is not a JMS selector (two comparisons without AND)', () => {
    // The translator only rewrites text; as a selector the missing AND is a syntax error.
    const error = rejection("animal = 'lion' JMSPriority = 321 OR animal_name = 'xyzJMSPriorityxyz'");
    expect(error.message).toContain("identifier 'JMSPriority' at character 17");
  });

  it('one parsed selector decides on many messages, keeping no state between them', () => {
    const selector = parseSelector("JMSDeliveryMode = 'PERSISTENT' AND JMSPriority >= 5");
    expect(selector.match(message({}, { durable: true, priority: 5 }))).toBe(true);
    expect(selector.match(message({}, { durable: true, priority: 4 }))).toBe(false);
    expect(selector.match(message({}, { durable: false, priority: 9 }))).toBe(false);
  });
});
