import {
  BufferReader,
  MessageType,
  PropertyKind,
  type CoreMessage,
  type TypedValue,
} from '../../core/protocol';
import type { MessageReference } from '../postoffice/message-reference';
import type {
  BodyView,
  MessageTypeName,
  MessageView,
  PropertyTypeName,
  PropertyView,
} from './management-views';

const TYPE_NAMES: ReadonlyMap<number, MessageTypeName> = new Map([
  [MessageType.DEFAULT, 'default'],
  [MessageType.OBJECT, 'object'],
  [MessageType.TEXT, 'text'],
  [MessageType.BYTES, 'bytes'],
  [MessageType.MAP, 'map'],
  [MessageType.STREAM, 'stream'],
]);

const KIND_NAMES: Readonly<Record<TypedValue['kind'], PropertyTypeName>> = {
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

/** Where a browsed message is: waiting for a consumer, waiting for its time, or with a consumer. */
export interface MessagePlace {
  state: MessageView['state'];
  scheduledTime: number | null;
}

/** A message as management shows it, its body cut to `bodyBytes`. */
export function messageView(
  reference: MessageReference,
  place: MessagePlace,
  bodyBytes: number,
): MessageView {
  const message = reference.message;
  return {
    id: message.messageId,
    userId: message.userId,
    address: message.address,
    type: TYPE_NAMES.get(message.type) ?? 'default',
    durable: message.durable,
    priority: message.priority,
    timestamp: message.timestamp,
    expiration: message.expiration,
    deliveryCount: reference.deliveryCount,
    state: place.state,
    scheduledTime: place.scheduledTime,
    properties: propertyViews(message),
    body: bodyView(message, bodyBytes),
  };
}

/** The properties, JSON-ready: a long beyond the safe integers as its decimal string, bytes as base64. */
export function propertyViews(message: CoreMessage): PropertyView[] {
  const views: PropertyView[] = [];
  for (const [name, typed] of message.properties.entries()) {
    views.push({ name, type: KIND_NAMES[typed.kind], value: jsonValue(typed) });
  }
  return views;
}

/** A property's value as JSON can carry it. */
export function jsonValue(typed: TypedValue): string | number | boolean | null {
  if (typed.kind === PropertyKind.BYTES) return typed.value.toString('base64');
  if (typeof typed.value === 'bigint') return typed.value.toString();
  return typed.value;
}

function bodyView(message: CoreMessage, bodyBytes: number): BodyView {
  const body = message.body;
  const shown = body.subarray(0, bodyBytes);
  const text = message.type === MessageType.TEXT ? textStart(body, bodyBytes) : null;
  return {
    size: body.length,
    text,
    base64: shown.toString('base64'),
    truncated: body.length > bodyBytes,
  };
}

/**
 * The start of a text message's text (its body is a nullable SimpleString, two bytes a
 * character): null for a null text or a body that does not decode as one.
 */
function textStart(body: Buffer, bodyBytes: number): string | null {
  if (body.length === 0) return null;
  try {
    const text = new BufferReader(body).readNullableSimpleString();
    return text === null ? null : text.slice(0, bodyBytes);
  } catch {
    return null;
  }
}
