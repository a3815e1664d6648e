import { HornetQBytesMessage } from '../../../src/jms/message/hornetq-bytes-message';
import { HornetQMapMessage } from '../../../src/jms/message/hornetq-map-message';
import { HornetQMessage } from '../../../src/jms/message/hornetq-message';
import { HornetQObjectMessage } from '../../../src/jms/message/hornetq-object-message';
import { HornetQStreamMessage } from '../../../src/jms/message/hornetq-stream-message';
import { HornetQTextMessage } from '../../../src/jms/message/hornetq-text-message';
import { DeliveryMode, Message } from '../../../src/jms/message/message';

/** JORAM MessageDefaultTest and research §4 C1.1: constants and the headers of a new message. */

describe('MessageDefaultTest', () => {
  it('testDEFAULT_DELIVERY_MODE: PERSISTENT', () => {
    expect(Message.DEFAULT_DELIVERY_MODE).toBe(DeliveryMode.PERSISTENT);
    expect(DeliveryMode).toEqual({ NON_PERSISTENT: 1, PERSISTENT: 2 });
  });

  it('testDEFAULT_PRIORITY: 4; DEFAULT_TIME_TO_LIVE: 0', () => {
    expect(Message.DEFAULT_PRIORITY).toBe(4);
    expect(Message.DEFAULT_TIME_TO_LIVE).toBe(0);
  });
});

describe.each([
  ['Message', () => new HornetQMessage()],
  ['TextMessage', () => new HornetQTextMessage()],
  ['BytesMessage', () => new HornetQBytesMessage()],
  ['MapMessage', () => new HornetQMapMessage()],
  ['StreamMessage', () => new HornetQStreamMessage()],
  ['ObjectMessage', () => new HornetQObjectMessage()],
])('a new %s (C1.1)', (_, create) => {
  it('has no id, type, correlation id, reply-to or destination', () => {
    const message = create();
    expect(message.getJMSMessageID()).toBeNull();
    expect(message.getJMSType()).toBeNull();
    expect(message.getJMSCorrelationID()).toBeNull();
    expect(message.getJMSCorrelationIDAsBytes()).toBeNull();
    expect(message.getJMSReplyTo()).toBeNull();
    expect(message.getJMSDestination()).toBeNull();
  });

  it('has the default delivery mode and priority, no timestamp, no expiration, not redelivered', () => {
    const message = create();
    expect(message.getJMSDeliveryMode()).toBe(Message.DEFAULT_DELIVERY_MODE);
    expect(message.getJMSPriority()).toBe(Message.DEFAULT_PRIORITY);
    expect(message.getJMSTimestamp()).toBe(0);
    expect(message.getJMSExpiration()).toBe(0);
    expect(message.getJMSRedelivered()).toBe(false);
    expect(message.getDeliveryCount()).toBe(0);
  });

  it('has no properties', () => {
    expect(create().getPropertyNames()).toEqual([]);
  });
});
