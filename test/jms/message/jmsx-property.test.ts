import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import {
  MessageFormatException,
  MessageNotWriteableException,
  NumberFormatException,
} from '../../../src/jms/exceptions';
import { HornetQMessage } from '../../../src/jms/message/hornetq-message';
import { HornetQTextMessage } from '../../../src/jms/message/hornetq-text-message';
import { MessageProperty } from '../../../src/jms/message/property-names';
import { transfer } from './wire';

/**
 * JORAM JMSXPropertyTest, HornetQ's JMSXDeliveryCountTest (message side) and
 * MessagePropertyConversionTest.testJMSXDeliveryCountConversion, plus the HornetQ feature
 * properties of research §5.1–5.3 (scheduled delivery, duplicate id, groups).
 */

describe('JMSXGroupID ↔ _HQ_GROUP_ID', () => {
  it('testJMSXGroupID_1: a string JMSXGroupID round-trips with the body intact', () => {
    const message = new HornetQTextMessage('testJMSXGroupID_1');
    message.setStringProperty('JMSXGroupID', 'testSupportsJMSXGroupID_1:group');
    expect(message.getCoreMessage().properties.get('_HQ_GROUP_ID')).toEqual({
      kind: PropertyKind.STRING,
      value: 'testSupportsJMSXGroupID_1:group',
    });
    expect(message.getCoreMessage().properties.has('JMSXGroupID')).toBe(false);
    const received = transfer(message);
    expect(received.getStringProperty('JMSXGroupID')).toBe('testSupportsJMSXGroupID_1:group');
    expect(received.getObjectProperty('JMSXGroupID')).toBe('testSupportsJMSXGroupID_1:group');
    expect(received.getText()).toBe('testJMSXGroupID_1');
  });

  it('is listed and exists only when set; _HQ_GROUP_ID itself is never listed', () => {
    const message = new HornetQMessage();
    expect(message.propertyExists('JMSXGroupID')).toBe(false);
    expect(transfer(message).propertyExists('JMSXGroupID')).toBe(false);
    message.setObjectProperty('JMSXGroupID', 'g');
    expect(message.propertyExists('JMSXGroupID')).toBe(true);
    expect(message.getPropertyNames()).toEqual(['JMSXGroupID']);
    expect(transfer(message).getPropertyNames().sort()).toEqual(['JMSXDeliveryCount', 'JMSXGroupID']);
  });

  it('setting the core name directly is the same property', () => {
    const message = new HornetQMessage();
    message.setStringProperty('_HQ_GROUP_ID', 'g2');
    expect(message.getStringProperty('JMSXGroupID')).toBe('g2');
  });

  it('must be a string; null removes it', () => {
    const message = new HornetQMessage();
    expect(() => message.setIntProperty('JMSXGroupID', 5)).toThrow(MessageFormatException);
    expect(() => message.setObjectProperty('JMSXGroupID', true)).toThrow(MessageFormatException);
    message.setStringProperty('JMSXGroupID', 'g');
    message.setStringProperty('JMSXGroupID', null);
    expect(message.propertyExists('JMSXGroupID')).toBe(false);
    expect(message.getCoreMessage().properties.has('_HQ_GROUP_ID')).toBe(false);
  });

  it('is read-only on a received message and cleared by clearProperties', () => {
    const message = new HornetQMessage();
    message.setStringProperty('JMSXGroupID', 'g');
    const received = transfer(message);
    expect(() => received.setStringProperty('JMSXGroupID', 'h')).toThrow(MessageNotWriteableException);
    received.clearProperties();
    expect(received.propertyExists('JMSXGroupID')).toBe(false);
  });
});

describe('JMSXDeliveryCount', () => {
  it('testJMSXDeliveryCount: 1 on first delivery, 2 on the next, with JMSRedelivered', () => {
    const message = new HornetQTextMessage('x');
    const first = transfer(message, 1);
    expect(first.getJMSRedelivered()).toBe(false);
    expect(first.getIntProperty('JMSXDeliveryCount')).toBe(1);
    const second = transfer(message, 2);
    expect(second.getJMSRedelivered()).toBe(true);
    expect(second.getIntProperty('JMSXDeliveryCount')).toBe(2);
  });

  it('testSimpleJMSXDeliveryCount: exists on a received message, not on one made here', () => {
    const message = new HornetQMessage();
    expect(message.propertyExists('JMSXDeliveryCount')).toBe(false);
    expect(message.getPropertyNames()).toEqual([]);
    expect(() => message.getIntProperty('JMSXDeliveryCount')).toThrow(NumberFormatException);
    expect(transfer(message).propertyExists('JMSXDeliveryCount')).toBe(true);
  });

  it('testJMSXDeliveryCountConversion: readable as int, long, string and object; it is an int', () => {
    const received = transfer(new HornetQMessage(), 3);
    expect(received.getIntProperty('JMSXDeliveryCount')).toBe(3);
    expect(received.getLongProperty('JMSXDeliveryCount')).toBe(3);
    expect(received.getStringProperty('JMSXDeliveryCount')).toBe('3');
    expect(received.getObjectProperty('JMSXDeliveryCount')).toBe(3);
    expect(() => received.getShortProperty('JMSXDeliveryCount')).toThrow(MessageFormatException);
    expect(() => received.getDoubleProperty('JMSXDeliveryCount')).toThrow(MessageFormatException);
  });

  it('is set by the provider only, even after clearProperties', () => {
    const message = new HornetQMessage();
    expect(() => message.setIntProperty('JMSXDeliveryCount', 5)).toThrow(MessageNotWriteableException);
    const received = transfer(message, 2);
    received.clearProperties();
    expect(() => received.setIntProperty('JMSXDeliveryCount', 5)).toThrow(MessageNotWriteableException);
    expect(received.getIntProperty('JMSXDeliveryCount')).toBe(2);
    expect(received.getPropertyNames()).toEqual(['JMSXDeliveryCount']);
  });

  it('does not travel as a property: the count comes from the delivery', () => {
    const received = transfer(new HornetQMessage(), 4);
    expect(received.toCoreMessage().properties.has('JMSXDeliveryCount')).toBe(false);
    expect(transfer(received, 1).getIntProperty('JMSXDeliveryCount')).toBe(1);
  });

  it('an application JMSXGroupSeq is an ordinary int property', () => {
    const message = new HornetQMessage();
    message.setIntProperty('JMSXGroupSeq', 3);
    const received = transfer(message);
    expect(received.getIntProperty('JMSXGroupSeq')).toBe(3);
    expect(received.getPropertyNames()).toContain('JMSXGroupSeq');
  });
});

describe('scheduled delivery: _HQ_SCHED_DELIVERY (LONG)', () => {
  it.each<[string, (m: HornetQMessage) => void]>([
    ['setLongProperty', (m) => m.setLongProperty('_HQ_SCHED_DELIVERY', 1_700_000_005_000)],
    ['setObjectProperty', (m) => m.setObjectProperty('_HQ_SCHED_DELIVERY', 1_700_000_005_000)],
  ])('set with %s it is stored as a LONG, read by getJMSDeliveryTime and hidden', (_, set) => {
    const message = new HornetQMessage();
    set(message);
    expect(message.getCoreMessage().properties.get(MessageProperty.SCHEDULED_DELIVERY_TIME)).toEqual({
      kind: PropertyKind.LONG,
      value: 1_700_000_005_000,
    });
    expect(message.getPropertyNames()).toEqual([]);
    const received = transfer(message);
    expect(received.getLongProperty('_HQ_SCHED_DELIVERY')).toBe(1_700_000_005_000);
    expect(received.getJMSDeliveryTime()).toBe(1_700_000_005_000);
    expect(received.getPropertyNames()).toEqual(['JMSXDeliveryCount']);
  });

  it('a small int is widened to LONG (the broker reads a long)', () => {
    const message = new HornetQMessage();
    message.setIntProperty('_HQ_SCHED_DELIVERY', 5);
    expect(message.getCoreMessage().properties.get('_HQ_SCHED_DELIVERY')).toEqual({
      kind: PropertyKind.LONG,
      value: 5,
    });
  });

  it('anything but an integer is a MessageFormatException; null removes it; default delivery time is 0', () => {
    const message = new HornetQMessage();
    expect(message.getJMSDeliveryTime()).toBe(0);
    expect(() => message.setStringProperty('_HQ_SCHED_DELIVERY', '5')).toThrow(MessageFormatException);
    expect(() => message.setDoubleProperty('_HQ_SCHED_DELIVERY', 5)).toThrow(MessageFormatException);
    message.setLongProperty('_HQ_SCHED_DELIVERY', 10);
    message.setObjectProperty('_HQ_SCHED_DELIVERY', null);
    expect(message.propertyExists('_HQ_SCHED_DELIVERY')).toBe(false);
    expect(message.getJMSDeliveryTime()).toBe(0);
  });
});

describe('JMSDeliveryTime reads and writes _HQ_SCHED_DELIVERY (HornetQMessage.java 2.4, JMS 2.0)', () => {
  it('setJMSDeliveryTime stores a LONG that travels and is hidden; a received message takes it too (a header)', () => {
    const message = new HornetQMessage();
    message.setJMSDeliveryTime(1_700_000_009_000);
    expect(message.getCoreMessage().properties.get(MessageProperty.SCHEDULED_DELIVERY_TIME)).toEqual({
      kind: PropertyKind.LONG,
      value: 1_700_000_009_000,
    });
    const received = transfer(message);
    expect(received.getJMSDeliveryTime()).toBe(1_700_000_009_000);
    expect(received.getPropertyNames()).toEqual(['JMSXDeliveryCount']);
    received.setJMSDeliveryTime(5);
    expect(received.getJMSDeliveryTime()).toBe(5);
  });

  it('a value that is no integer is refused, naming the header', () => {
    const message = new HornetQMessage();
    for (const bad of [1.5, Number.NaN, 2 ** 60]) {
      expect(() => message.setJMSDeliveryTime(bad)).toThrow(/JMSDeliveryTime must be a safe integer/);
    }
    expect(message.getJMSDeliveryTime()).toBe(0);
  });

  it('a peer value that is no long reads as 0, as HornetQ answers it; a numeric string reads as its long', () => {
    const message = new HornetQMessage();
    message
      .getCoreMessage()
      .properties.set('_HQ_SCHED_DELIVERY', { kind: PropertyKind.STRING, value: 'soon' });
    expect(transfer(message).getJMSDeliveryTime()).toBe(0);
    message.getCoreMessage().properties.set('_HQ_SCHED_DELIVERY', { kind: PropertyKind.STRING, value: '42' });
    expect(transfer(message).getJMSDeliveryTime()).toBe(42);
  });
});

describe('duplicate detection: _HQ_DUPL_ID (STRING)', () => {
  it('round-trips as a string and is never listed', () => {
    const message = new HornetQMessage();
    message.setStringProperty('_HQ_DUPL_ID', 'abcdefg');
    const received = transfer(message);
    expect(received.getStringProperty('_HQ_DUPL_ID')).toBe('abcdefg');
    expect(received.getCoreMessage().properties.get(MessageProperty.DUPLICATE_ID)).toEqual({
      kind: PropertyKind.STRING,
      value: 'abcdefg',
    });
    expect(received.getPropertyNames()).toEqual(['JMSXDeliveryCount']);
    expect(received.propertyExists('_HQ_DUPL_ID')).toBe(true);
  });

  it('must be a string', () => {
    const message = new HornetQMessage();
    expect(() => message.setLongProperty('_HQ_DUPL_ID', 5)).toThrow(MessageFormatException);
    expect(message.propertyExists('_HQ_DUPL_ID')).toBe(false);
  });

  it('is removed by clearProperties, as HornetQ removes every non-header property', () => {
    const message = new HornetQMessage();
    message.setStringProperty('_HQ_DUPL_ID', 'x');
    message.clearProperties();
    expect(message.propertyExists('_HQ_DUPL_ID')).toBe(false);
  });
});

describe('other provider properties', () => {
  it('__HQ_ properties from the client internals are hidden', () => {
    const message = new HornetQMessage();
    const core = message.toCoreMessage();
    core.properties.set('__HQ_CID', { kind: PropertyKind.STRING, value: 'conn-1' });
    const received = new HornetQMessage();
    received.initReceived(core, 1);
    expect(received.getPropertyNames()).toEqual(['JMSXDeliveryCount']);
  });
});
