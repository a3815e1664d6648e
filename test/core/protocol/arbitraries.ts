import fc from 'fast-check';
import { CoreMessage, MessageType } from '../../../src/core/protocol/core-message';
import { ErrorCode, type ErrorCodeName } from '../../../src/core/protocol/error-code';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type { Packet } from '../../../src/core/protocol/packets';
import { PropertyKind, TypedProperties, type TypedValue } from '../../../src/core/protocol/typed-properties';

/**
 * fast-check arbitraries for the wire protocol, shared by the codec, frame-decoder and
 * typed-property tests. Strings are well-formed Unicode: UTF-8 cannot carry lone surrogates.
 */

export const int32 = fc.integer({ min: -0x8000_0000, max: 0x7fff_ffff });

/** Longs as the codec carries them: the whole safe-integer range, with the 32-bit seams made likely. */
export const safeLong = fc.oneof(
  fc.maxSafeInteger(),
  int32,
  fc.constantFrom(
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    0,
    -1,
    1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 32 - 1,
    2 ** 32,
    -(2 ** 32),
    -(2 ** 32) - 1,
  ),
);

export const channelId = fc.oneof(
  fc.maxSafeNat(),
  fc.constantFrom(0, 1, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER),
);

export const text = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 24 }), weight: 4 },
  {
    arbitrary: fc.constantFrom('', 'jms.queue.orders', '日本語キュー', '😀👍🏽‍', 'a\u0000b', '\u{10FFFF}'),
    weight: 2,
  },
  { arbitrary: fc.string({ unit: 'binary', minLength: 200, maxLength: 1200 }), weight: 1 },
);

export const nullableText = fc.option(text, { nil: null });

/** One UTF-16 code unit that is not a surrogate: what a Java char holds and UTF-8 can carry. */
export const char = fc
  .integer({ min: 0, max: 0xffff })
  .filter((code) => code < 0xd800 || code > 0xdfff)
  .map((code) => String.fromCharCode(code));

export const bytes = fc
  .oneof(
    { arbitrary: fc.uint8Array({ maxLength: 64 }), weight: 5 },
    { arbitrary: fc.uint8Array({ minLength: 1000, maxLength: 4000 }), weight: 1 },
  )
  .map((array) => Buffer.from(array));

export const typedValueByKind: Record<PropertyKind, fc.Arbitrary<TypedValue>> = {
  [PropertyKind.NULL]: fc.constant<TypedValue>({ kind: PropertyKind.NULL, value: null }),
  [PropertyKind.BOOLEAN]: fc.boolean().map((value): TypedValue => ({ kind: PropertyKind.BOOLEAN, value })),
  [PropertyKind.BYTE]: fc
    .integer({ min: -128, max: 127 })
    .map((value): TypedValue => ({ kind: PropertyKind.BYTE, value })),
  [PropertyKind.SHORT]: fc
    .integer({ min: -32768, max: 32767 })
    .map((value): TypedValue => ({ kind: PropertyKind.SHORT, value })),
  [PropertyKind.INT]: int32.map((value): TypedValue => ({ kind: PropertyKind.INT, value })),
  [PropertyKind.LONG]: safeLong.map((value): TypedValue => ({ kind: PropertyKind.LONG, value })),
  // fc.float yields 32-bit floats only (NaN, ±Infinity and -0 included), so they survive exactly.
  [PropertyKind.FLOAT]: fc.float().map((value): TypedValue => ({ kind: PropertyKind.FLOAT, value })),
  [PropertyKind.DOUBLE]: fc.double().map((value): TypedValue => ({ kind: PropertyKind.DOUBLE, value })),
  [PropertyKind.STRING]: text.map((value): TypedValue => ({ kind: PropertyKind.STRING, value })),
  [PropertyKind.BYTES]: bytes.map((value): TypedValue => ({ kind: PropertyKind.BYTES, value })),
  [PropertyKind.CHAR]: char.map((value): TypedValue => ({ kind: PropertyKind.CHAR, value })),
};

export const typedValue = fc.oneof(...Object.values(typedValueByKind));

/** Names a plain-object implementation would get wrong. */
export const HOSTILE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  '',
];

export const propertyName = fc.oneof(text, fc.constantFrom(...HOSTILE_NAMES));

export const propertyEntries = fc.uniqueArray(fc.tuple(propertyName, typedValue), {
  selector: ([name]) => name,
  maxLength: 12,
});

export function propertiesOf(entries: ReadonlyArray<readonly [string, TypedValue]>): TypedProperties {
  const properties = new TypedProperties();
  for (const [name, value] of entries) properties.set(name, value);
  return properties;
}

export const typedProperties = propertyEntries.map(propertiesOf);

export const coreMessage: fc.Arbitrary<CoreMessage> = fc
  .record({
    messageId: safeLong,
    address: text,
    type: fc.oneof(fc.constantFrom(...Object.values(MessageType)), fc.integer({ min: 0, max: 255 })),
    durable: fc.boolean(),
    expiration: safeLong,
    timestamp: safeLong,
    priority: fc.integer({ min: 0, max: 9 }),
    userId: nullableText,
    properties: typedProperties,
    body: bytes,
  })
  .map((fields) => Object.assign(new CoreMessage(), fields));

const errorCodeName = fc.constantFrom(...(Object.keys(ErrorCode) as ErrorCodeName[]));

/** One arbitrary per packet type; typed as a Record so a new PacketType without one does not compile. */
export const packetArbitraries: Record<PacketType, fc.Arbitrary<Packet>> = {
  [PacketType.PING]: fc.record({ type: fc.constant(PacketType.PING), connectionTtl: safeLong }),
  [PacketType.DISCONNECT]: fc.record({ type: fc.constant(PacketType.DISCONNECT), reason: nullableText }),
  [PacketType.EXCEPTION]: fc.record({
    type: fc.constant(PacketType.EXCEPTION),
    correlationId: int32,
    code: errorCodeName,
    message: nullableText,
  }),
  [PacketType.NULL_RESPONSE]: fc.record({
    type: fc.constant(PacketType.NULL_RESPONSE),
    correlationId: int32,
  }),
  [PacketType.PACKETS_CONFIRMED]: fc.record({
    type: fc.constant(PacketType.PACKETS_CONFIRMED),
    commandId: int32,
  }),
  [PacketType.CREATESESSION]: fc.record({
    type: fc.constant(PacketType.CREATESESSION),
    correlationId: int32,
    name: text,
    sessionChannelId: safeLong,
    version: int32,
    username: nullableText,
    password: nullableText,
    minLargeMessageSize: int32,
    xa: fc.boolean(),
    autoCommitSends: fc.boolean(),
    autoCommitAcks: fc.boolean(),
    preAcknowledge: fc.boolean(),
    windowSize: int32,
    defaultAddress: nullableText,
  }),
  [PacketType.CREATESESSION_RESP]: fc.record({
    type: fc.constant(PacketType.CREATESESSION_RESP),
    correlationId: int32,
    serverVersion: int32,
    sessionName: text,
    reattachToken: text,
  }),
  [PacketType.REATTACH_SESSION]: fc.record({
    type: fc.constant(PacketType.REATTACH_SESSION),
    correlationId: int32,
    sessionName: text,
    reattachToken: text,
    username: nullableText,
    password: nullableText,
    lastConfirmedCommandId: int32,
  }),
  [PacketType.REATTACH_SESSION_RESP]: fc.record({
    type: fc.constant(PacketType.REATTACH_SESSION_RESP),
    correlationId: int32,
    lastConfirmedCommandId: int32,
    reattached: fc.boolean(),
  }),
  [PacketType.CREATE_QUEUE]: fc.record({
    type: fc.constant(PacketType.CREATE_QUEUE),
    address: text,
    queueName: text,
    filter: nullableText,
    durable: fc.boolean(),
    temporary: fc.boolean(),
    requiresResponse: fc.boolean(),
  }),
  [PacketType.DELETE_QUEUE]: fc.record({ type: fc.constant(PacketType.DELETE_QUEUE), queueName: text }),
  [PacketType.SESS_CREATECONSUMER]: fc.record({
    type: fc.constant(PacketType.SESS_CREATECONSUMER),
    consumerId: safeLong,
    queueName: text,
    filter: nullableText,
    browseOnly: fc.boolean(),
    requiresResponse: fc.boolean(),
  }),
  [PacketType.SESS_ACKNOWLEDGE]: fc.record({
    type: fc.constant(PacketType.SESS_ACKNOWLEDGE),
    consumerId: safeLong,
    messageId: safeLong,
    requiresResponse: fc.boolean(),
  }),
  [PacketType.SESS_INDIVIDUAL_ACKNOWLEDGE]: fc.record({
    type: fc.constant(PacketType.SESS_INDIVIDUAL_ACKNOWLEDGE),
    consumerId: safeLong,
    messageId: safeLong,
    requiresResponse: fc.boolean(),
  }),
  [PacketType.SESS_COMMIT]: fc.record({ type: fc.constant(PacketType.SESS_COMMIT) }),
  [PacketType.SESS_ROLLBACK]: fc.record({
    type: fc.constant(PacketType.SESS_ROLLBACK),
    seenConsumerIds: fc.array(safeLong, { maxLength: 5 }),
  }),
  [PacketType.SESS_QUEUEQUERY]: fc.record({ type: fc.constant(PacketType.SESS_QUEUEQUERY), queueName: text }),
  [PacketType.SESS_QUEUEQUERY_RESP]: fc.record({
    type: fc.constant(PacketType.SESS_QUEUEQUERY_RESP),
    correlationId: int32,
    exists: fc.boolean(),
    address: nullableText,
    durable: fc.boolean(),
    temporary: fc.boolean(),
    filter: nullableText,
    consumerCount: int32,
    messageCount: safeLong,
  }),
  [PacketType.SESS_QUEUE_STATS]: fc.record({
    type: fc.constant(PacketType.SESS_QUEUE_STATS),
    start: int32,
    maxCount: int32,
  }),
  [PacketType.SESS_QUEUE_STATS_RESP]: fc.record({
    type: fc.constant(PacketType.SESS_QUEUE_STATS_RESP),
    correlationId: int32,
    queues: fc.array(
      fc.record({
        name: text,
        address: text,
        filter: nullableText,
        durable: fc.boolean(),
        temporary: fc.boolean(),
        consumerCount: int32,
        messageCount: safeLong,
        deliveringCount: safeLong,
        scheduledCount: safeLong,
        messagesAdded: safeLong,
        messagesAcknowledged: safeLong,
        messagesExpired: safeLong,
        messagesKilled: safeLong,
      }),
      { maxLength: 5 },
    ),
    more: fc.boolean(),
  }),
  [PacketType.SESS_BINDINGQUERY]: fc.record({
    type: fc.constant(PacketType.SESS_BINDINGQUERY),
    address: text,
  }),
  [PacketType.SESS_BINDINGQUERY_RESP]: fc.record({
    type: fc.constant(PacketType.SESS_BINDINGQUERY_RESP),
    correlationId: int32,
    exists: fc.boolean(),
    queueNames: fc.array(text, { maxLength: 8 }),
  }),
  [PacketType.SESS_START]: fc.record({ type: fc.constant(PacketType.SESS_START) }),
  [PacketType.SESS_STOP]: fc.record({ type: fc.constant(PacketType.SESS_STOP) }),
  [PacketType.SESS_CLOSE]: fc.record({ type: fc.constant(PacketType.SESS_CLOSE) }),
  [PacketType.SESS_FLOWTOKEN]: fc.record({
    type: fc.constant(PacketType.SESS_FLOWTOKEN),
    consumerId: safeLong,
    credits: int32,
  }),
  [PacketType.SESS_SEND]: fc.record({
    type: fc.constant(PacketType.SESS_SEND),
    message: coreMessage,
    requiresResponse: fc.boolean(),
  }),
  [PacketType.SESS_CONSUMER_CLOSE]: fc.record({
    type: fc.constant(PacketType.SESS_CONSUMER_CLOSE),
    consumerId: safeLong,
  }),
  [PacketType.SESS_RECEIVE_MSG]: fc.record({
    type: fc.constant(PacketType.SESS_RECEIVE_MSG),
    consumerId: safeLong,
    deliveryCount: int32,
    message: coreMessage,
  }),
  [PacketType.SESS_EXPIRED]: fc.record({
    type: fc.constant(PacketType.SESS_EXPIRED),
    consumerId: safeLong,
    messageId: safeLong,
  }),
  [PacketType.SESS_DELIVERY_REFUSED]: fc.record({
    type: fc.constant(PacketType.SESS_DELIVERY_REFUSED),
    consumerId: safeLong,
    messageId: safeLong,
  }),
  [PacketType.SESS_SEND_LARGE]: fc.record({
    type: fc.constant(PacketType.SESS_SEND_LARGE),
    message: coreMessage,
    bodySize: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
  }),
  [PacketType.SESS_SEND_CONTINUATION]: fc.record({
    type: fc.constant(PacketType.SESS_SEND_CONTINUATION),
    chunk: bytes,
    continues: fc.boolean(),
    requiresResponse: fc.boolean(),
  }),
  [PacketType.SESS_RECEIVE_LARGE_MSG]: fc.record({
    type: fc.constant(PacketType.SESS_RECEIVE_LARGE_MSG),
    consumerId: safeLong,
    deliveryCount: int32,
    message: coreMessage,
    bodySize: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
  }),
  [PacketType.SESS_RECEIVE_CONTINUATION]: fc.record({
    type: fc.constant(PacketType.SESS_RECEIVE_CONTINUATION),
    consumerId: safeLong,
    chunk: bytes,
    continues: fc.boolean(),
  }),
  [PacketType.SESS_FORCE_CONSUMER_DELIVERY]: fc.record({
    type: fc.constant(PacketType.SESS_FORCE_CONSUMER_DELIVERY),
    consumerId: safeLong,
    sequence: safeLong,
  }),
  [PacketType.SESS_FORCED_DELIVERY_EMPTY]: fc.record({
    type: fc.constant(PacketType.SESS_FORCED_DELIVERY_EMPTY),
    consumerId: safeLong,
    sequence: safeLong,
  }),
  [PacketType.SESS_PRODUCER_REQUEST_CREDITS]: fc.record({
    type: fc.constant(PacketType.SESS_PRODUCER_REQUEST_CREDITS),
    address: text,
    credits: int32,
  }),
  [PacketType.SESS_PRODUCER_CREDITS]: fc.record({
    type: fc.constant(PacketType.SESS_PRODUCER_CREDITS),
    address: text,
    credits: int32,
  }),
  [PacketType.SESS_PRODUCER_FAIL_CREDITS]: fc.record({
    type: fc.constant(PacketType.SESS_PRODUCER_FAIL_CREDITS),
    address: text,
    credits: int32,
  }),
  [PacketType.SESS_UNIQUE_ADD_METADATA]: fc.record({
    type: fc.constant(PacketType.SESS_UNIQUE_ADD_METADATA),
    key: text,
    data: text,
  }),
  [PacketType.SESS_CREATEPRODUCER]: fc.record({
    type: fc.constant(PacketType.SESS_CREATEPRODUCER),
    producerId: safeLong,
    address: nullableText,
  }),
  [PacketType.SESS_CLOSEPRODUCER]: fc.record({
    type: fc.constant(PacketType.SESS_CLOSEPRODUCER),
    producerId: safeLong,
  }),
};

export const anyPacket: fc.Arbitrary<Packet> = fc.oneof(...Object.values(packetArbitraries));

/** [name, type, arbitrary] for it.each, one row per PacketType. */
export const packetKinds = (Object.entries(PacketType) as Array<[string, PacketType]>).map(
  ([name, type]) => [name, type, packetArbitraries[type]] as const,
);

/**
 * A plain, deeply comparable picture of a packet: CoreMessage becomes its fields with properties
 * as an ordered entry list, and every Buffer becomes its hex so equality is by content.
 */
export function describePacket(packet: Packet): unknown {
  if ('message' in packet && packet.message instanceof CoreMessage) {
    return { ...packet, message: describeMessage(packet.message) };
  }
  if (packet.type === PacketType.SESS_QUEUE_STATS_RESP) {
    return { ...packet, queues: packet.queues.map((queue) => ({ ...queue })) };
  }
  // A plain copy: fc.record builds objects without a prototype, which toStrictEqual would flag.
  return { ...packet };
}

export function describeMessage(message: CoreMessage): unknown {
  return {
    messageId: message.messageId,
    address: message.address,
    type: message.type,
    durable: message.durable,
    expiration: message.expiration,
    timestamp: message.timestamp,
    priority: message.priority,
    userId: message.userId,
    properties: describeProperties(message.properties),
    body: describeBuffer(message.body),
  };
}

export function describeProperties(properties: TypedProperties): unknown {
  return [...properties.entries()].map(([name, typed]) => [
    name,
    { kind: typed.kind, value: Buffer.isBuffer(typed.value) ? describeBuffer(typed.value) : typed.value },
  ]);
}

function describeBuffer(buffer: unknown): unknown {
  if (!Buffer.isBuffer(buffer)) return { notABuffer: buffer };
  return { hex: buffer.toString('hex') };
}
