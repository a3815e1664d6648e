import { BufferReader, readTypedValue, TypedProperties, type CoreMessage } from '../../core/protocol';
import {
  DeliveryMode,
  HornetQBytesMessage,
  HornetQMapMessage,
  HornetQObjectMessage,
  HornetQStreamMessage,
  HornetQTextMessage,
  type HornetQMessage,
} from '../../jms';
import { HornetQDestination } from '../../jms/destination';
import { MessageProperty } from '../../jms/message/property-names';
import { hexPreview, javaLiteral } from './java-literal';
import { preview } from './output';

/** The first two bytes of a Java serialization stream (ObjectStreamConstants.STREAM_MAGIC). */
const JAVA_SERIALIZATION_MAGIC = 0xaced;
/** HornetQ's ObjectMessage body starts with the length of what follows. */
const OBJECT_LENGTH_BYTES = 4;

/**
 * One line about a received message, for `hornetq browse`: its id, delivery mode, priority and
 * timestamp; the headers a sender set (expiration, JMSType, JMSCorrelationID, JMSReplyTo,
 * JMSRedelivered); its properties, sorted, each in Java's literal syntax (javaLiteral) so that a
 * Java sender's types show; then its body, `bodyWidth` characters (or bytes, in hex) at most.
 */
export function messageSummary(message: HornetQMessage, bodyWidth: number): string {
  const core = message.getCoreMessage();
  const mode = message.getJMSDeliveryMode() === DeliveryMode.PERSISTENT ? 'persistent' : 'non-persistent';
  const timestamp = message.getJMSTimestamp();
  return [
    message.getJMSMessageID() ?? '(no id)',
    mode,
    `priority=${message.getJMSPriority()}`,
    `timestamp=${timestamp === 0 ? 'none' : new Date(timestamp).toISOString()}`,
    ...headers(message),
    ...properties(message, core),
    bodyOf(message, core, bodyWidth),
  ].join('  ');
}

function headers(message: HornetQMessage): string[] {
  const shown: string[] = [];
  const expiration = message.getJMSExpiration();
  if (expiration !== 0) shown.push(`expiration=${new Date(expiration).toISOString()}`);
  const type = message.getJMSType();
  if (type !== null) shown.push(`JMSType=${JSON.stringify(type)}`);
  const correlation = correlationId(message);
  if (correlation !== null) shown.push(`JMSCorrelationID=${correlation}`);
  const replyTo = message.getJMSReplyTo();
  if (replyTo instanceof HornetQDestination) shown.push(`JMSReplyTo=${destinationUri(replyTo)}`);
  if (message.getJMSRedelivered()) shown.push('JMSRedelivered=true');
  return shown;
}

/** A string id quoted; one a Java sender set as bytes (setJMSCorrelationIDAsBytes) in hex. */
function correlationId(message: HornetQMessage): string | null {
  const text = message.getJMSCorrelationID();
  if (text !== null) return JSON.stringify(text);
  const bytes = message.getJMSCorrelationIDAsBytes();
  return bytes === null ? null : `bytes[${bytes.length}] ${hexPreview(bytes, 32)}`;
}

/** queue://X, topic://X, temp-queue://X or temp-topic://X: the JMS name, and which kind it is. */
function destinationUri(destination: HornetQDestination): string {
  const kind = destination.isQueue ? 'queue' : 'topic';
  return `${destination.isTemporary ? `temp-${kind}` : kind}://${destination.name}`;
}

/**
 * The application's properties, typed as they travel; JMSXDeliveryCount is the broker's count.
 * JMSXGroupID is the group id (_HQ_GROUP_ID) unless a property has that very name: HornetQ's Java
 * setObjectProperty("JMSXGroupID", ...) stores it so, and that is what the sender set.
 */
function properties(message: HornetQMessage, core: CoreMessage): string[] {
  return message
    .getPropertyNames()
    .filter((name) => name !== MessageProperty.JMSX_DELIVERY_COUNT)
    .sort()
    .map((name) => {
      const typed =
        core.properties.get(name) ??
        (name === MessageProperty.JMSX_GROUP_ID ? core.properties.get(MessageProperty.GROUP_ID) : undefined);
      return `${name}=${typed === undefined ? 'null' : javaLiteral(typed)}`;
    });
}

function bodyOf(message: HornetQMessage, core: CoreMessage, width: number): string {
  if (message instanceof HornetQTextMessage) {
    const text = message.getText();
    return text === null ? 'text: null' : `text: ${preview(text, width)}`;
  }
  if (message instanceof HornetQBytesMessage) {
    return `bytes: ${core.body.length} bytes ${hexPreview(core.body, Math.floor(width / 2))}`.trimEnd();
  }
  if (message instanceof HornetQMapMessage) return `map: ${mapBody(core.body, width)}`;
  if (message instanceof HornetQStreamMessage) return `stream: ${streamBody(core.body, width)}`;
  if (message instanceof HornetQObjectMessage) return `object: ${objectBody(message, core.body, width)}`;
  return 'no body';
}

/** {name=value, ...}, sorted by name. */
function mapBody(body: Buffer, width: number): string {
  return bracketed(
    () => {
      // As HornetQ's MapMessage reads it: the properties block, and nothing after it.
      const map = TypedProperties.decode(new BufferReader(body));
      return [...map.entries()].map(([name, typed]) => `${name}=${javaLiteral(typed)}`).sort();
    },
    ['{', '}'],
    width,
    'entries',
  );
}

/** [field, ...] in the order they were written; decoded one at a time, so a huge body is not held twice. */
function streamBody(body: Buffer, width: number): string {
  return bracketed(
    function* fields() {
      const reader = new BufferReader(body);
      while (reader.remaining > 0) {
        yield javaLiteral(readTypedValue(reader, 'stream'));
      }
    },
    ['[', ']'],
    width,
    'fields',
  );
}

/**
 * The items in brackets, as many whole ones as fit in `width` characters; when some are left out,
 * `...` stands for them and the count says how many there were (the rest are only counted). A
 * body that does not decode says why instead (the rest of the message is still shown).
 */
function bracketed(
  items: () => Iterable<string>,
  [open, close]: [string, string],
  width: number,
  noun: string,
): string {
  const shown: string[] = [];
  let length = 0;
  let count = 0;
  try {
    for (const item of items()) {
      count++;
      if (count !== shown.length + 1) continue;
      length += (shown.length === 0 ? 0 : 2) + item.length;
      if (length <= width) shown.push(item);
    }
  } catch (error) {
    return `unreadable (${(error as Error).message})`;
  }
  if (shown.length === count) return `${open}${shown.join(', ')}${close}`;
  return `${open}${[...shown, '...'].join(', ')}${close} (${count} ${noun})`;
}

/**
 * A Java client's object is a Java serialization stream, which cannot be read here (nothing from
 * the wire names classes to load): its size says it is there. Ours is JSON, shown as text.
 */
function objectBody(message: HornetQObjectMessage, body: Buffer, width: number): string {
  if (body.length === 0) return 'null';
  if (
    body.length >= OBJECT_LENGTH_BYTES + 2 &&
    body.readUInt16BE(OBJECT_LENGTH_BYTES) === JAVA_SERIALIZATION_MAGIC
  ) {
    return `Java-serialized, ${body.length - OBJECT_LENGTH_BYTES} bytes (it cannot be read here)`;
  }
  try {
    const json = JSON.stringify(message.getObject());
    return json.length > width ? `${json.slice(0, width)}... (${json.length} characters of JSON)` : json;
  } catch (error) {
    return `unreadable (${(error as Error).message})`;
  }
}
