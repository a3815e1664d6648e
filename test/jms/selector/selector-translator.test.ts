import { toHornetQFilter } from '../../../src/jms/selector/selector-translator';
import { matches, message } from './support';

/**
 * The JMS selector → HornetQ core filter translation, as HornetQ 2.4's SelectorTranslator does it
 * (hornetq-jms-client org/hornetq/jms/client/SelectorTranslator.java, read for its rules): the
 * header identifiers become HQ identifiers, 'PERSISTENT' / 'NON_PERSISTENT' become HQDurable's
 * values; identifiers inside string literals and parts of longer identifiers stay.
 */
describe('toHornetQFilter', () => {
  it.each<[string, string]>([
    ["JMSDeliveryMode = 'PERSISTENT'", "HQDurable = 'DURABLE'"],
    ["JMSDeliveryMode='NON_PERSISTENT'", "HQDurable='NON_DURABLE'"],
    ['JMSPriority > 4', 'HQPriority > 4'],
    ['JMSTimestamp < 1700000000000', 'HQTimestamp < 1700000000000'],
    [
      "JMSMessageID = 'ID:1b4e28ba-2fa1-11d2-883f-0016d3cca427'",
      "HQUserID = 'ID:1b4e28ba-2fa1-11d2-883f-0016d3cca427'",
    ],
    ['JMSExpiration = 0', 'HQExpiration = 0'],
    // Several at once, and each as often as it occurs.
    [
      'JMSPriority = 1 OR JMSPriority = 9 AND (JMSExpiration > 0)',
      'HQPriority = 1 OR HQPriority = 9 AND (HQExpiration > 0)',
    ],
    // The JMS identifiers HornetQ keeps as properties are left alone.
    [
      "JMSType = 'a' AND JMSCorrelationID = 'b' AND JMSXGroupID = 'g'",
      "JMSType = 'a' AND JMSCorrelationID = 'b' AND JMSXGroupID = 'g'",
    ],
    // Inside a string literal an identifier is text.
    ["color = 'JMSPriority'", "color = 'JMSPriority'"],
    ["note = 'it''s JMSPriority' AND JMSPriority = 2", "note = 'it''s JMSPriority' AND HQPriority = 2"],
    // Part of a longer identifier: not replaced.
    [
      'MyJMSPriority = 1 AND JMSPriority2 = 2 AND JMSPriority_x = 3 AND $JMSPriority = 4',
      'MyJMSPriority = 1 AND JMSPriority2 = 2 AND JMSPriority_x = 3 AND $JMSPriority = 4',
    ],
    ['(JMSPriority)=3', '(HQPriority)=3'],
    // Java counts the controls it ignores in identifiers as identifier characters; a tab is not one.
    ['\u0001JMSPriority = 1', '\u0001JMSPriority = 1'],
    ['\tJMSPriority = 1', '\tHQPriority = 1'],
    // HornetQ replaces the delivery-mode literals wherever they stand, a property's comparison too.
    ["state = 'PERSISTENT'", "state = 'DURABLE'"],
    ["JMSDeliveryMode IN ('PERSISTENT', 'NON_PERSISTENT')", "HQDurable IN ('DURABLE', 'NON_DURABLE')"],
    // ...but only as a whole literal.
    ["state = 'PERSISTENT_X'", "state = 'PERSISTENT_X'"],
    ["state = 'NOT PERSISTENT'", "state = 'NOT PERSISTENT'"],
    // HornetQ's matcher does not retry the character that broke a partial match: in 'it''PERSISTENT'
    // the first quote of the pair starts a match that the second breaks, so the second starts none.
    ["s = 'it''PERSISTENT'", "s = 'it''PERSISTENT'"],
    // Here the third quote starts a fresh match after the second broke one.
    ["s = '''PERSISTENT'", "s = '''DURABLE'"],
    // The noLocal filter HornetQ's session appends.
    ["JMSPriority = 2 AND __HQ_CID<>'c1'", "HQPriority = 2 AND __HQ_CID<>'c1'"],
    ['', ''],
  ])('%s → %s', (selector, filter) => {
    expect(toHornetQFilter(selector)).toBe(filter);
  });

  it('a translated selector selects on our broker what the JMS selector selects', () => {
    const durable = message(
      {},
      { durable: true, priority: 7, userId: '1b4e28ba-2fa1-11d2-883f-0016d3cca427' },
    );
    const nonDurable = message({}, { durable: false, priority: 1, userId: null });
    for (const selector of [
      "JMSDeliveryMode = 'PERSISTENT'",
      "JMSDeliveryMode = 'NON_PERSISTENT'",
      'JMSPriority > 4',
      "JMSMessageID = 'ID:1b4e28ba-2fa1-11d2-883f-0016d3cca427'",
    ]) {
      for (const m of [durable, nonDurable]) {
        expect([selector, matches(toHornetQFilter(selector), m)]).toEqual([selector, matches(selector, m)]);
      }
    }
  });
});
