import { PropertyKind, type CoreMessage, type TypedValue } from '../../core/protocol';
import { DeliveryMode, type HornetQMessage } from '../../jms';
import type { Destination } from '../../jms/destination';
import { HornetQDestination } from '../../jms/destination';
import { MessageProperty } from '../../jms/message/property-names';
import { javaLiteral } from './java-literal';
import { readBody, type MessageBody } from './message-body';

/** A typed value in JSON: its Java type by name, and a value JSON can hold without loss. */
export interface TypedJson {
  type: string;
  value: string | number | boolean | null;
}

const TYPE_NAMES: Record<PropertyKind, string> = {
  [PropertyKind.NULL]: 'null',
  [PropertyKind.BOOLEAN]: 'boolean',
  [PropertyKind.BYTE]: 'byte',
  [PropertyKind.BYTES]: 'bytes',
  [PropertyKind.SHORT]: 'short',
  [PropertyKind.INT]: 'int',
  [PropertyKind.LONG]: 'long',
  [PropertyKind.FLOAT]: 'float',
  [PropertyKind.DOUBLE]: 'double',
  [PropertyKind.STRING]: 'string',
  [PropertyKind.CHAR]: 'char',
};

/**
 * One received message as one line of JSON, for `hornetq consumer --json`: the headers (times in
 * milliseconds since the epoch, 0 for none, as JMS keeps them), the properties with their types,
 * and the body by kind (bytes in base64). A body that does not decode has its kind and an `error`
 * saying why, in place of its content.
 */
export function messageJson(message: HornetQMessage): string {
  const core = message.getCoreMessage();
  return JSON.stringify({
    id: message.getJMSMessageID(),
    destination: destinationUri(message.getJMSDestination()),
    deliveryMode: message.getJMSDeliveryMode() === DeliveryMode.PERSISTENT ? 'persistent' : 'non-persistent',
    priority: message.getJMSPriority(),
    timestamp: message.getJMSTimestamp(),
    expiration: message.getJMSExpiration(),
    correlationId: message.getJMSCorrelationID(),
    replyTo: destinationUri(message.getJMSReplyTo()),
    type: message.getJMSType(),
    redelivered: message.getJMSRedelivered(),
    properties: propertiesOf(message, core),
    body: bodyJson(readBody(message)),
  });
}

/** A long beyond a double's exact range, a NaN and the infinities are strings: JSON has no such numbers. */
export function typedJson(typed: TypedValue): TypedJson {
  const type = TYPE_NAMES[typed.kind];
  switch (typed.kind) {
    case PropertyKind.BYTES:
      return { type, value: typed.value.toString('base64') };
    case PropertyKind.LONG:
      return { type, value: typeof typed.value === 'bigint' ? String(typed.value) : typed.value };
    case PropertyKind.FLOAT:
      // The fewest digits that give the float back (1.1, not 1.100000023841858), as Java prints it.
      return {
        type,
        value: Number.isFinite(typed.value) ? Number(javaLiteral(typed).slice(0, -1)) : String(typed.value),
      };
    case PropertyKind.DOUBLE:
      return { type, value: Number.isFinite(typed.value) ? typed.value : String(typed.value) };
    default:
      return { type, value: typed.value };
  }
}

/** queue://X, topic://X, temp-queue://X or temp-topic://X; null for none. */
function destinationUri(destination: Destination | null): string | null {
  if (!(destination instanceof HornetQDestination)) return null;
  const kind = destination.isQueue ? 'queue' : 'topic';
  return `${destination.isTemporary ? `temp-${kind}` : kind}://${destination.name}`;
}

/** The application's properties (JMSXDeliveryCount is the broker's count, not one of them). */
function propertiesOf(message: HornetQMessage, core: CoreMessage): Record<string, TypedJson> {
  const shown = namedEntries();
  for (const name of message.getPropertyNames().sort()) {
    if (name === MessageProperty.JMSX_DELIVERY_COUNT) continue;
    const typed = core.properties.get(name);
    if (typed !== undefined) shown[name] = typedJson(typed);
  }
  return shown;
}

/**
 * Names come from the sender: without a prototype, one named `__proto__` is an entry like any
 * other (on a plain object it would set the prototype and vanish from the line).
 */
function namedEntries(): Record<string, TypedJson> {
  return Object.create(null) as Record<string, TypedJson>;
}

function bodyJson(body: MessageBody): Record<string, unknown> {
  switch (body.kind) {
    case 'text':
      return { kind: 'text', text: body.text };
    case 'bytes':
    case 'object':
      return { kind: body.kind, base64: body.bytes.toString('base64') };
    case 'map': {
      const entries = namedEntries();
      for (const [name, typed] of body.entries) entries[name] = typedJson(typed);
      return { kind: 'map', entries };
    }
    case 'stream':
      return { kind: 'stream', fields: body.fields.map(typedJson) };
    case 'none':
      return { kind: 'none' };
    case 'unreadable':
      return { kind: body.of, error: `the body does not decode: ${body.reason}` };
  }
}
