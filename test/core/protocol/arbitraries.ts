import fc from 'fast-check';
import { CoreMessage, MessageType } from '../../../src/core/protocol/core-message';
import { ErrorCode, type ErrorCodeName } from '../../../src/core/protocol/error-code';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type { Packet, TransportConfiguration, TransportParam } from '../../../src/core/protocol/packets';
import { PropertyKind, TypedProperties, type TypedValue } from '../../../src/core/protocol/typed-properties';

/**
 * fast-check arbitraries for the wire protocol, shared by the codec, frame-decoder and
 * typed-property tests. Strings are any UTF-16 (lone surrogates included), as Java's are: every
 * HornetQ string form carries each UTF-16 unit as it is.
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

/** Any 64-bit long as a TypedProperties LONG holds it: a number when safe, else a bigint. */
export const anyLong: fc.Arbitrary<number | bigint> = fc.oneof(
  safeLong,
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((value) => {
    const asNumber = Number(value);
    return Number.isSafeInteger(asNumber) ? asNumber : value;
  }),
  fc.constantFrom(2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n, -(2n ** 53n)),
);

export const channelId = fc.oneof(
  fc.maxSafeNat(),
  fc.constantFrom(0, 1, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER),
);

export const text = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 24 }), weight: 4 },
  {
    arbitrary: fc.constantFrom(
      '',
      'jms.queue.orders',
      '日本語キュー',
      '😀👍🏽‍',
      'a\u0000b\u007f',
      '\u{10FFFF}',
      '\ud800x',
    ),
    weight: 2,
  },
  { arbitrary: fc.string({ unit: 'binary', minLength: 200, maxLength: 1200 }), weight: 1 },
  // Around the three-way String's switch from writeUTF to a SimpleString at 4095 chars.
  { arbitrary: fc.string({ unit: 'binary-ascii', minLength: 4093, maxLength: 4097 }), weight: 1 },
);

export const nullableText = fc.option(text, { nil: null });

/** One UTF-16 code unit, a lone surrogate included: what a Java char holds. */
export const char = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** A message user id: a canonical lowercase UUID. */
export const userId = fc.uuid().map((uuid) => uuid.toLowerCase());

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
  [PropertyKind.LONG]: anyLong.map((value): TypedValue => ({ kind: PropertyKind.LONG, value })),
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
    userId: fc.option(userId, { nil: null }),
    properties: typedProperties,
    body: bytes,
  })
  .map((fields) => Object.assign(new CoreMessage(), fields));

/** A large message's head: headers and properties, no body (none travels with it). */
export const largeMessageHead: fc.Arbitrary<CoreMessage> = coreMessage.map((message) => {
  message.body = Buffer.alloc(0);
  return message;
});

const errorCodeName = fc.constantFrom(...(Object.keys(ErrorCode) as ErrorCodeName[]));

const secret = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((array) => Buffer.from(array));

const transportParam: fc.Arbitrary<TransportParam> = fc.oneof(
  fc.boolean().map((value): TransportParam => ({ type: 'boolean', value })),
  int32.map((value): TransportParam => ({ type: 'int', value })),
  safeLong.map((value): TransportParam => ({ type: 'long', value })),
  text.map((value): TransportParam => ({ type: 'string', value })),
);

const transport: fc.Arbitrary<TransportConfiguration> = fc.record({
  name: text,
  factoryClassName: text,
  params: fc.array(fc.tuple(text, transportParam), { maxLength: 4 }),
});

/** Exit messages carry no connectors and no `last`; V1 has no event id and no node name. */
function topology(type: typeof PacketType.CLUSTER_TOPOLOGY | typeof PacketType.CLUSTER_TOPOLOGY_V2) {
  const v2 = type === PacketType.CLUSTER_TOPOLOGY_V2;
  return fc
    .record({
      exit: fc.boolean(),
      nodeId: text,
      uniqueEventId: v2 ? safeLong : fc.constant(0),
      live: fc.option(transport, { nil: null }),
      backup: fc.option(transport, { nil: null }),
      last: fc.boolean(),
      nodeName: v2 ? nullableText : fc.constant(null),
    })
    .map((fields): Packet => ({
      type,
      ...fields,
      ...(fields.exit ? { live: null, backup: null, last: false } : {}),
    }));
}

/** One arbitrary per packet type; typed as a Record so a new PacketType without one does not compile. */
export const packetArbitraries: Record<PacketType, fc.Arbitrary<Packet>> = {
  [PacketType.PING]: fc.record({ type: fc.constant(PacketType.PING), connectionTtl: safeLong }),
  [PacketType.DISCONNECT]: fc.record({ type: fc.constant(PacketType.DISCONNECT), nodeId: nullableText }),
  [PacketType.NODE_ANNOUNCE]: fc.record({
    type: fc.constant(PacketType.NODE_ANNOUNCE),
    nodeId: text,
    nodeName: nullableText,
    backup: fc.boolean(),
    currentEventId: safeLong,
    connector: fc.option(transport, { nil: null }),
    backupConnector: fc.option(transport, { nil: null }),
  }),
  [PacketType.DISCONNECT_CONSUMER]: fc.record({
    type: fc.constant(PacketType.DISCONNECT_CONSUMER),
    consumerId: safeLong,
  }),
  [PacketType.EXCEPTION]: fc.record({
    type: fc.constant(PacketType.EXCEPTION),
    code: errorCodeName,
    message: nullableText,
  }),
  [PacketType.SESS_ASYNC_EXCEPTION]: fc.record({
    type: fc.constant(PacketType.SESS_ASYNC_EXCEPTION),
    code: errorCodeName,
    message: nullableText,
  }),
  [PacketType.SESS_SEND_REFUSED]: fc.record({
    type: fc.constant(PacketType.SESS_SEND_REFUSED),
    commandId: int32,
    code: errorCodeName,
    message: nullableText,
  }),
  [PacketType.NULL_RESPONSE]: fc.record({ type: fc.constant(PacketType.NULL_RESPONSE) }),
  [PacketType.PACKETS_CONFIRMED]: fc.record({
    type: fc.constant(PacketType.PACKETS_CONFIRMED),
    commandId: int32,
  }),
  [PacketType.CREATESESSION]: fc.record({
    type: fc.constant(PacketType.CREATESESSION),
    name: text,
    sessionChannelId: safeLong,
    version: int32,
    username: nullableText,
    password: nullableText,
    minLargeMessageSize: int32,
    xa: fc.boolean(),
    autoCommitSends: fc.boolean(),
    autoCommitAcks: fc.boolean(),
    windowSize: int32,
    preAcknowledge: fc.boolean(),
    defaultAddress: nullableText,
    extension: fc.option(fc.record({ version: fc.integer({ min: 0, max: 255 }), reattachSecret: secret }), {
      nil: null,
    }),
  }),
  [PacketType.CREATESESSION_RESP]: fc.record({
    type: fc.constant(PacketType.CREATESESSION_RESP),
    serverVersion: int32,
    extension: fc.option(fc.record({ version: fc.integer({ min: 0, max: 255 }) }), { nil: null }),
  }),
  [PacketType.REATTACH_SESSION]: fc.record({
    type: fc.constant(PacketType.REATTACH_SESSION),
    name: text,
    lastConfirmedCommandId: int32,
    extension: fc.option(
      fc.record({ reattachSecret: secret, username: nullableText, password: nullableText }),
      { nil: null },
    ),
  }),
  [PacketType.REATTACH_SESSION_RESP]: fc.record({
    type: fc.constant(PacketType.REATTACH_SESSION_RESP),
    lastConfirmedCommandId: int32,
    reattached: fc.boolean(),
  }),
  [PacketType.SUBSCRIBE_TOPOLOGY]: fc.record({
    type: fc.constant(PacketType.SUBSCRIBE_TOPOLOGY),
    clusterConnection: fc.boolean(),
  }),
  [PacketType.SUBSCRIBE_TOPOLOGY_V2]: fc.record({
    type: fc.constant(PacketType.SUBSCRIBE_TOPOLOGY_V2),
    clusterConnection: fc.boolean(),
    clientVersion: int32,
  }),
  [PacketType.CLUSTER_TOPOLOGY]: topology(PacketType.CLUSTER_TOPOLOGY),
  [PacketType.CLUSTER_TOPOLOGY_V2]: topology(PacketType.CLUSTER_TOPOLOGY_V2),
  [PacketType.CREATE_QUEUE]: fc.record({
    type: fc.constant(PacketType.CREATE_QUEUE),
    address: text,
    queueName: text,
    filter: nullableText,
    durable: fc.boolean(),
    temporary: fc.boolean(),
    requiresResponse: fc.boolean(),
  }),
  [PacketType.CREATE_SHARED_QUEUE]: fc.record({
    type: fc.constant(PacketType.CREATE_SHARED_QUEUE),
    address: text,
    queueName: text,
    filter: nullableText,
    durable: fc.boolean(),
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
    considerLastMessageAsDelivered: fc.boolean(),
  }),
  [PacketType.SESS_QUEUEQUERY]: fc.record({ type: fc.constant(PacketType.SESS_QUEUEQUERY), queueName: text }),
  [PacketType.SESS_QUEUEQUERY_RESP]: fc.record({
    type: fc.constant(PacketType.SESS_QUEUEQUERY_RESP),
    exists: fc.boolean(),
    durable: fc.boolean(),
    temporary: fc.boolean(),
    consumerCount: int32,
    messageCount: safeLong,
    filter: nullableText,
    address: nullableText,
    name: nullableText,
  }),
  [PacketType.SESS_QUEUE_STATS]: fc.record({
    type: fc.constant(PacketType.SESS_QUEUE_STATS),
    start: int32,
    maxCount: int32,
  }),
  [PacketType.SESS_QUEUE_STATS_RESP]: fc.record({
    type: fc.constant(PacketType.SESS_QUEUE_STATS_RESP),
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
    message: coreMessage,
    consumerId: safeLong,
    deliveryCount: int32,
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
    message: largeMessageHead,
  }),
  [PacketType.SESS_SEND_CONTINUATION]: fc
    .record({
      type: fc.constant(PacketType.SESS_SEND_CONTINUATION),
      chunk: bytes,
      continues: fc.boolean(),
      messageBodySize: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
      requiresResponse: fc.boolean(),
    })
    .map((packet): Packet => ({
      ...packet,
      messageBodySize: packet.continues ? -1 : packet.messageBodySize,
    })),
  [PacketType.SESS_RECEIVE_LARGE_MSG]: fc.record({
    type: fc.constant(PacketType.SESS_RECEIVE_LARGE_MSG),
    consumerId: safeLong,
    deliveryCount: int32,
    largeMessageSize: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
    message: largeMessageHead,
  }),
  [PacketType.SESS_RECEIVE_CONTINUATION]: fc.record({
    type: fc.constant(PacketType.SESS_RECEIVE_CONTINUATION),
    chunk: bytes,
    continues: fc.boolean(),
    consumerId: safeLong,
  }),
  [PacketType.SESS_FORCE_CONSUMER_DELIVERY]: fc.record({
    type: fc.constant(PacketType.SESS_FORCE_CONSUMER_DELIVERY),
    consumerId: safeLong,
    sequence: safeLong,
  }),
  [PacketType.SESS_PRODUCER_REQUEST_CREDITS]: fc.record({
    type: fc.constant(PacketType.SESS_PRODUCER_REQUEST_CREDITS),
    credits: int32,
    address: text,
  }),
  [PacketType.SESS_PRODUCER_CREDITS]: fc.record({
    type: fc.constant(PacketType.SESS_PRODUCER_CREDITS),
    credits: int32,
    address: text,
  }),
  [PacketType.SESS_PRODUCER_FAIL_CREDITS]: fc.record({
    type: fc.constant(PacketType.SESS_PRODUCER_FAIL_CREDITS),
    credits: int32,
    address: text,
  }),
  [PacketType.SESS_ADD_METADATA]: fc.record({
    type: fc.constant(PacketType.SESS_ADD_METADATA),
    key: text,
    data: text,
  }),
  [PacketType.SESS_ADD_METADATA2]: fc.record({
    type: fc.constant(PacketType.SESS_ADD_METADATA2),
    key: text,
    data: text,
    requiresConfirmation: fc.boolean(),
  }),
  [PacketType.SESS_UNIQUE_ADD_METADATA]: fc.record({
    type: fc.constant(PacketType.SESS_UNIQUE_ADD_METADATA),
    key: text,
    data: text,
    requiresConfirmation: fc.boolean(),
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
    return { ...(plain(packet) as object), message: describeMessage(packet.message) };
  }
  return plain(packet);
}

/**
 * A deep plain copy: fc.record builds objects without a prototype, which toStrictEqual would
 * flag, and Buffers become their hex so that equality is by content.
 */
function plain(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return describeBuffer(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object' || value instanceof CoreMessage) return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, plain(field)]));
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
