import { messageSummary } from '../../../src/cli/shared/message-summary';
import {
  HornetQMapMessage,
  HornetQObjectMessage,
  HornetQStreamMessage,
  HornetQTextMessage,
  fromCoreMessage,
  type HornetQMessage,
} from '../../../src/jms/message';

/**
 * The line `hornetq browse` prints about a message, on messages our own JMS API made (the Java
 * client's are in test/interop/ours-cli.interop.test.ts): received as the broker delivers them.
 */

/** `sent` as a consumer receives it, delivered `deliveryCount` times. */
function received(sent: HornetQMessage, deliveryCount = 1): HornetQMessage {
  return fromCoreMessage(sent.toCoreMessage(), deliveryCount);
}

/** What follows the id and the delivery mode, priority and timestamp. */
function tail(message: HornetQMessage, width = 60): string {
  return messageSummary(message, width).split('  ').slice(4).join('  ');
}

describe('messageSummary', () => {
  it('starts with the id (none before a send), delivery mode, priority and timestamp (none when not set)', () => {
    const message = new HornetQTextMessage('t');
    expect(messageSummary(received(message), 60)).toBe(
      '(no id)  persistent  priority=4  timestamp=none  text: "t"',
    );
  });

  it('shows each property with its type, sorted; JMSRedelivered when delivered before', () => {
    const message = new HornetQTextMessage('t');
    message.setLongProperty('count', 3);
    message.setIntProperty('n', 3);
    message.setDoubleProperty('d', 3);
    message.setStringProperty('JMSXGroupID', 'g');
    expect(tail(received(message, 2))).toBe(
      'JMSRedelivered=true  JMSXGroupID="g"  count=3L  d=3.0  n=3  text: "t"',
    );
  });

  it('shows a map and a stream typed, cut at whole items with their count', () => {
    const map = new HornetQMapMessage();
    map.setLong('big', 2n ** 62n);
    map.setFloat('f', 0.5);
    map.setChar('c', 'x');
    expect(tail(received(map))).toBe("map: {big=4611686018427387904L, c='x', f=0.5f}");
    expect(tail(received(map), 10)).toBe('map: {...} (3 entries)');

    const stream = new HornetQStreamMessage();
    stream.writeShort(1);
    stream.writeBytes(Buffer.from('hi'));
    stream.writeString(null);
    expect(tail(received(stream))).toBe('stream: [(short)1, bytes[2] 6869, null]');
    expect(tail(received(stream), 23)).toBe('stream: [(short)1, bytes[2] 6869, ...] (3 fields)');
  });

  it('shows our ObjectMessage as its JSON, cut to the width', () => {
    const message = new HornetQObjectMessage({ order: 7, items: ['a', 'b'] });
    expect(tail(received(message))).toBe('object: {"order":7,"items":["a","b"]}');
    expect(tail(received(message), 10)).toBe('object: {"order":7... (29 characters of JSON)');
  });

  it('says a body it cannot decode is unreadable, and still shows the rest', () => {
    const stream = new HornetQStreamMessage();
    stream.writeString('a string longer than its body');
    const core = stream.toCoreMessage();
    core.body = core.body.subarray(0, 6);
    expect(tail(fromCoreMessage(core, 1))).toMatch(/^stream: unreadable \(.+\)$/);

    const map = new HornetQMapMessage();
    map.setString('k', 'a value longer than its body');
    const mapCore = map.toCoreMessage();
    mapCore.body = mapCore.body.subarray(0, 7);
    expect(tail(fromCoreMessage(mapCore, 1))).toMatch(/^map: unreadable \(property count 1 exceeds .+\)$/);

    const text = new HornetQTextMessage('a text longer than its body');
    text.setIntProperty('n', 7);
    const textCore = text.toCoreMessage();
    textCore.body = textCore.body.subarray(0, 7);
    expect(tail(fromCoreMessage(textCore, 1))).toMatch(/^n=7 {2}text: unreadable \(corrupt text body: .+\)$/);
  });
});
