import type { CoreMessage } from '../../core/protocol';
import { DeliveryMode, type HornetQMessage } from '../../jms';
import { HornetQDestination } from '../../jms/destination';
import { MessageProperty } from '../../jms/message/property-names';
import { hexPreview, javaLiteral } from './java-literal';
import { readBody } from './message-body';
import { preview } from './output';

/** The first two bytes of a Java serialization stream (ObjectStreamConstants.STREAM_MAGIC). */
const JAVA_SERIALIZATION_MAGIC = 0xaced;
/** HornetQ's ObjectMessage body starts with the length of what follows. */
const OBJECT_LENGTH_BYTES = 4;

/**
 * One line about a received message, for `hornetq browse`: its id, delivery mode, priority and
 * timestamp; the headers a sender set (expiration, JMSType, JMSCorrelationID, JMSReplyTo,
 * JMSRedelivered); its properties, sorted, each in Java's literal syntax (javaLiteral) so that a
 * Java sender's types show; then its body, `bodyWidth` characters (or bytes, in hex) at most. A
 * body that does not decode says why instead (the rest of the message is still shown).
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
    bodyOf(message, bodyWidth),
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

/** A body in one line: its kind and its start, `width` characters (or bytes, in hex) at most. */
export function bodyOf(message: HornetQMessage, width: number): string {
  const body = readBody(message);
  switch (body.kind) {
    case 'text':
      return body.text === null ? 'text: null' : `text: ${preview(body.text, width)}`;
    case 'bytes':
      return `bytes: ${body.bytes.length} bytes ${hexPreview(body.bytes, Math.floor(width / 2))}`.trimEnd();
    case 'map': {
      const entries = body.entries.map(([name, typed]) => `${name}=${javaLiteral(typed)}`).sort();
      return `map: ${bracketed(entries, (entry) => entry, ['{', '}'], width, 'entries')}`;
    }
    case 'stream':
      return `stream: ${bracketed(body.fields, javaLiteral, ['[', ']'], width, 'fields')}`;
    case 'object':
      return `object: ${objectBody(body.bytes, body.readObject, width)}`;
    case 'none':
      return 'no body';
    case 'unreadable':
      return `${body.of}: unreadable (${body.reason})`;
  }
}

/**
 * The items in brackets, as many whole ones as fit in `width` characters (only those are
 * formatted); when some are left out, `...` stands for them and the count says how many there were.
 */
function bracketed<T>(
  items: readonly T[],
  format: (item: T) => string,
  [open, close]: [string, string],
  width: number,
  noun: string,
): string {
  const shown: string[] = [];
  let length = 0;
  for (const item of items) {
    const text = format(item);
    length += (shown.length === 0 ? 0 : 2) + text.length;
    if (length > width) break;
    shown.push(text);
  }
  if (shown.length === items.length) return `${open}${shown.join(', ')}${close}`;
  return `${open}${[...shown, '...'].join(', ')}${close} (${items.length} ${noun})`;
}

/**
 * A Java client's object is a Java serialization stream, which cannot be read here (nothing from
 * the wire names classes to load): its size says it is there. Ours is JSON, shown as text.
 */
function objectBody(body: Buffer, readObject: () => unknown, width: number): string {
  if (body.length === 0) return 'null';
  if (
    body.length >= OBJECT_LENGTH_BYTES + 2 &&
    body.readUInt16BE(OBJECT_LENGTH_BYTES) === JAVA_SERIALIZATION_MAGIC
  ) {
    return `Java-serialized, ${body.length - OBJECT_LENGTH_BYTES} bytes (it cannot be read here)`;
  }
  try {
    const json = JSON.stringify(readObject());
    return json.length > width ? `${json.slice(0, width)}... (${json.length} characters of JSON)` : json;
  } catch (error) {
    return `unreadable (${(error as Error).message})`;
  }
}
