import { BufferReader } from './buffer-reader';
import { BufferWriter } from './buffer-writer';
import { CoreMessage } from './core-message';
import { ErrorCode, errorCodeFromNumber } from './error-code';
import { FRAME_HEADER_BYTES } from './frame-decoder';
import type { FrameSlab } from './frame-slab';
import { PacketType, packetTypeName } from './packet-type';
import {
  EXTENSION_MAGIC,
  type ClusterTopologyChange,
  type CreateQueue,
  type CreateSession,
  type CreateSharedQueue,
  type Packet,
  type QueueStats,
  type TransportConfiguration,
  type TransportParam,
} from './packets';
import { ProtocolError } from './protocol-error';

/** A decoded frame: which channel it travels on and what it carries. */
export interface Frame {
  channelId: number;
  packet: Packet;
  /** Bytes of the whole frame; what confirmation windows count. */
  size: number;
}

/**
 * Frame sizes. Consumer credits count whole frames (length field included), as HornetQ's
 * getPacketSize(): each SESS_RECEIVE_MSG, SESS_RECEIVE_LARGE_MSG and SESS_RECEIVE_CONTINUATION.
 */

/** A SESS_RECEIVE_MSG frame minus its message's encodedSize(): header, consumer id, delivery count. */
export const DELIVERY_FRAME_OVERHEAD = FRAME_HEADER_BYTES + 8 + 4;

/** A SESS_SEND frame minus its message's encodedSize(): header, requires-response flag. */
export const SEND_FRAME_OVERHEAD = FRAME_HEADER_BYTES + 1;

/**
 * A SESS_RECEIVE_LARGE_MSG frame minus its head's headersAndPropertiesSize() (a large message's
 * head has no body and no positions): header, consumer id, delivery count, large message size.
 */
export const LARGE_DELIVERY_FRAME_OVERHEAD = FRAME_HEADER_BYTES + 8 + 4 + 8;

/** A SESS_RECEIVE_CONTINUATION frame minus its chunk: header, chunk length, continues, consumer id. */
export const CONTINUATION_FRAME_OVERHEAD = FRAME_HEADER_BYTES + 4 + 1 + 8;

/** The whole SESS_RECEIVE_MSG frame that delivers `message`, without encoding it. */
export function deliveryFrameBytes(message: CoreMessage): number {
  return DELIVERY_FRAME_OVERHEAD + message.encodedSize();
}

/** The whole SESS_SEND frame that sends `message`. */
export function sendFrameBytes(message: CoreMessage): number {
  return SEND_FRAME_OVERHEAD + message.encodedSize();
}

/** The whole SESS_RECEIVE_LARGE_MSG frame that announces a large message whose head is `head`. */
export function largeDeliveryFrameBytes(head: CoreMessage): number {
  return LARGE_DELIVERY_FRAME_OVERHEAD + head.headersAndPropertiesSize();
}

/** The whole SESS_RECEIVE_CONTINUATION frame that carries a chunk of `chunkBytes`. */
export function continuationFrameBytes(chunkBytes: number): number {
  return CONTINUATION_FRAME_OVERHEAD + chunkBytes;
}

/** The whole SESS_SEND_CONTINUATION frame of a chunk (the last one also carries the body size). */
export function sendContinuationFrameBytes(chunkBytes: number, last: boolean): number {
  return FRAME_HEADER_BYTES + 4 + chunkBytes + 1 + (last ? 8 : 0) + 1;
}

/**
 * Encodes one packet as a whole frame: length, type, channel id, body. With a slab, the frame is
 * carved from it (see FrameSlab) instead of getting a buffer of its own.
 */
export function encodePacket(channelId: number, packet: Packet, slab?: FrameSlab): Buffer {
  const expected = expectedFrameBytes(packet);
  const writer = slab === undefined ? new BufferWriter(expected) : slab.writer(expected);
  writer.writeInt(0);
  writer.writeByte(packet.type);
  writer.writeLong(channelId);
  encodeBody(writer, packet);
  writer.patchInt(0, writer.length - 4);
  return slab === undefined ? writer.toBuffer() : slab.take(writer);
}

/**
 * Decodes a whole frame (as FrameDecoder yields it). Throws ProtocolError naming the packet type
 * when the body is malformed, truncated, has trailing bytes, or the type is unknown, and when the
 * length field disagrees with the frame's size (the buffer is not the frame it claims to be).
 *
 * A message's bytes are a view of the frame, which is a view of the socket read it came in (up
 * to 64 KiB): no copy, but a message kept keeps that read. With `detach`, each message gets a
 * copy of its own instead; the broker detaches, since what it keeps is up to its clients, and a
 * tiny message left behind in every read would hold far more memory than address sizes count.
 */
export function decodeFrame(frame: Buffer, detach = false): Frame {
  return decodeFrameAt(frame, 0, frame.length, detach);
}

/** decodeFrame() of the frame that lies in `buffer` from `start` to `end` (see FrameDecoder.feedRegions). */
export function decodeFrameAt(buffer: Buffer, start: number, end: number, detach = false): Frame {
  const length = end - start;
  if (length < FRAME_HEADER_BYTES) throw new ProtocolError(`frame of ${length} bytes is too short`);
  const declared = buffer.readInt32BE(start);
  if (declared !== length - 4) {
    throw new ProtocolError(`frame length field ${declared} does not match the ${length - 4} bytes after it`);
  }
  const reader = new BufferReader(buffer, start + 4, end, detach);
  const type = reader.readByte();
  const channelId = readChannelId(reader, type);
  let packet: Packet;
  try {
    packet = decodeBody(type, reader);
    if (reader.remaining !== 0 && !IGNORES_TRAILING_BYTES.has(type)) reader.expectEnd(packetTypeName(type));
  } catch (error) {
    if (error instanceof ProtocolError && !error.message.startsWith('unknown packet type')) {
      throw new ProtocolError(`malformed ${packetTypeName(type)} on channel ${channelId}: ${error.message}`);
    }
    if (error instanceof ProtocolError) throw new ProtocolError(`${error.message} on channel ${channelId}`);
    throw error;
  }
  return { channelId, packet, size: length };
}

function readChannelId(reader: BufferReader, type: number): number {
  try {
    return reader.readLong();
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    throw new ProtocolError(`malformed ${packetTypeName(type)}: its channel id: ${error.message}`);
  }
}

/**
 * The session handshake packets, whose extension trailer a real peer ignores: HornetQ and Artemis
 * read exactly their fields and leave the rest, so bytes after them (a trailer of a later
 * extension version, say) are ignored here too. Anywhere else, trailing bytes mean the peer and
 * we disagree on the packet, and are a ProtocolError.
 */
const IGNORES_TRAILING_BYTES: ReadonlySet<number> = new Set([
  PacketType.CREATESESSION,
  PacketType.CREATESESSION_RESP,
  PacketType.REATTACH_SESSION,
]);

/** Room to set aside for a frame: exact or a little more for messages, a guess for the rest. */
function expectedFrameBytes(packet: Packet): number {
  if (packet.type === PacketType.SESS_SEND || packet.type === PacketType.SESS_RECEIVE_MSG) {
    return DELIVERY_FRAME_OVERHEAD + packet.message.encodedSize();
  }
  if (packet.type === PacketType.SESS_SEND_LARGE || packet.type === PacketType.SESS_RECEIVE_LARGE_MSG) {
    return LARGE_DELIVERY_FRAME_OVERHEAD + packet.message.headersAndPropertiesSize();
  }
  if (
    packet.type === PacketType.SESS_SEND_CONTINUATION ||
    packet.type === PacketType.SESS_RECEIVE_CONTINUATION
  ) {
    return 64 + packet.chunk.length;
  }
  return 128;
}

function encodeBody(w: BufferWriter, p: Packet): void {
  switch (p.type) {
    case PacketType.PING:
      return w.writeLong(p.connectionTtl);
    case PacketType.DISCONNECT:
      return w.writeNullableSimpleString(p.nodeId);
    case PacketType.DISCONNECT_CONSUMER:
    case PacketType.SESS_CONSUMER_CLOSE:
      return w.writeLong(p.consumerId);
    case PacketType.EXCEPTION:
    case PacketType.SESS_ASYNC_EXCEPTION:
      w.writeInt(ErrorCode[p.code]);
      return w.writeNullableHqString(p.message);
    case PacketType.SESS_SEND_REFUSED:
      w.writeInt(p.commandId);
      w.writeInt(ErrorCode[p.code]);
      return w.writeNullableHqString(p.message);
    case PacketType.NULL_RESPONSE:
    case PacketType.SESS_COMMIT:
    case PacketType.SESS_START:
    case PacketType.SESS_STOP:
    case PacketType.SESS_CLOSE:
      return;
    case PacketType.PACKETS_CONFIRMED:
      return w.writeInt(p.commandId);
    case PacketType.CREATESESSION:
      return writeCreateSession(w, p);
    case PacketType.CREATESESSION_RESP:
      w.writeInt(p.serverVersion);
      if (p.extension !== null) {
        w.writeInt(EXTENSION_MAGIC);
        w.writeByte(p.extension.version);
      }
      return;
    case PacketType.REATTACH_SESSION:
      w.writeHqString(p.name);
      w.writeInt(p.lastConfirmedCommandId);
      if (p.extension !== null) {
        w.writeInt(EXTENSION_MAGIC);
        writeSecret(w, p.extension.reattachSecret);
        w.writeNullableHqString(p.extension.username);
        w.writeNullableHqString(p.extension.password);
      }
      return;
    case PacketType.REATTACH_SESSION_RESP:
      w.writeInt(p.lastConfirmedCommandId);
      return w.writeBoolean(p.reattached);
    case PacketType.SUBSCRIBE_TOPOLOGY:
      return w.writeBoolean(p.clusterConnection);
    case PacketType.SUBSCRIBE_TOPOLOGY_V2:
      w.writeBoolean(p.clusterConnection);
      return w.writeInt(p.clientVersion);
    case PacketType.CLUSTER_TOPOLOGY:
    case PacketType.CLUSTER_TOPOLOGY_V2:
      return writeTopology(w, p);
    case PacketType.NODE_ANNOUNCE:
      w.writeHqString(p.nodeId);
      w.writeNullableHqString(p.nodeName);
      w.writeBoolean(p.backup);
      w.writeLong(p.currentEventId);
      writeOptionalTransport(w, p.connector);
      return writeOptionalTransport(w, p.backupConnector);
    case PacketType.CREATE_QUEUE:
    case PacketType.CREATE_SHARED_QUEUE:
      return writeQueueToCreate(w, p);
    case PacketType.DELETE_QUEUE:
    case PacketType.SESS_QUEUEQUERY:
      return w.writeSimpleString(p.queueName);
    case PacketType.SESS_CREATECONSUMER:
      w.writeLong(p.consumerId);
      w.writeSimpleString(p.queueName);
      w.writeNullableSimpleString(p.filter);
      w.writeBoolean(p.browseOnly);
      return w.writeBoolean(p.requiresResponse);
    case PacketType.SESS_EXPIRED:
    case PacketType.SESS_DELIVERY_REFUSED:
      w.writeLong(p.consumerId);
      return w.writeLong(p.messageId);
    case PacketType.SESS_ACKNOWLEDGE:
    case PacketType.SESS_INDIVIDUAL_ACKNOWLEDGE:
      w.writeLong(p.consumerId);
      w.writeLong(p.messageId);
      return w.writeBoolean(p.requiresResponse);
    case PacketType.SESS_ROLLBACK:
      return w.writeBoolean(p.considerLastMessageAsDelivered);
    case PacketType.SESS_QUEUEQUERY_RESP:
      w.writeBoolean(p.exists);
      w.writeBoolean(p.durable);
      w.writeBoolean(p.temporary);
      w.writeInt(p.consumerCount);
      w.writeLong(p.messageCount);
      w.writeNullableSimpleString(p.filter);
      w.writeNullableSimpleString(p.address);
      return w.writeNullableSimpleString(p.name);
    case PacketType.SESS_QUEUE_STATS:
      w.writeInt(p.start);
      return w.writeInt(p.maxCount);
    case PacketType.SESS_QUEUE_STATS_RESP:
      w.writeInt(p.queues.length);
      for (const queue of p.queues) writeQueueStats(w, queue);
      return w.writeBoolean(p.more);
    case PacketType.SESS_BINDINGQUERY:
      return w.writeSimpleString(p.address);
    case PacketType.SESS_BINDINGQUERY_RESP:
      w.writeBoolean(p.exists);
      w.writeInt(p.queueNames.length);
      for (const name of p.queueNames) w.writeSimpleString(name);
      return;
    case PacketType.SESS_FLOWTOKEN:
      w.writeLong(p.consumerId);
      return w.writeInt(p.credits);
    case PacketType.SESS_SEND:
      p.message.encode(w);
      return w.writeBoolean(p.requiresResponse);
    case PacketType.SESS_SEND_LARGE:
      return p.message.encodeHeadersAndProperties(w);
    case PacketType.SESS_SEND_CONTINUATION:
      w.writeBytes(p.chunk);
      w.writeBoolean(p.continues);
      if (!p.continues) w.writeLong(p.messageBodySize);
      return w.writeBoolean(p.requiresResponse);
    case PacketType.SESS_RECEIVE_LARGE_MSG:
      w.writeLong(p.consumerId);
      w.writeInt(p.deliveryCount);
      w.writeLong(p.largeMessageSize);
      return p.message.encodeHeadersAndProperties(w);
    case PacketType.SESS_RECEIVE_CONTINUATION:
      w.writeBytes(p.chunk);
      w.writeBoolean(p.continues);
      return w.writeLong(p.consumerId);
    case PacketType.SESS_RECEIVE_MSG:
      p.message.encode(w);
      w.writeLong(p.consumerId);
      return w.writeInt(p.deliveryCount);
    case PacketType.SESS_FORCE_CONSUMER_DELIVERY:
      w.writeLong(p.consumerId);
      return w.writeLong(p.sequence);
    case PacketType.SESS_PRODUCER_REQUEST_CREDITS:
    case PacketType.SESS_PRODUCER_CREDITS:
    case PacketType.SESS_PRODUCER_FAIL_CREDITS:
      w.writeInt(p.credits);
      return w.writeRecurringSimpleString(p.address);
    case PacketType.SESS_ADD_METADATA:
      w.writeHqString(p.key);
      return w.writeHqString(p.data);
    case PacketType.SESS_ADD_METADATA2:
    case PacketType.SESS_UNIQUE_ADD_METADATA:
      w.writeHqString(p.key);
      w.writeHqString(p.data);
      return w.writeBoolean(p.requiresConfirmation);
    case PacketType.SESS_CREATEPRODUCER:
      w.writeLong(p.producerId);
      return w.writeNullableSimpleString(p.address);
    case PacketType.SESS_CLOSEPRODUCER:
      return w.writeLong(p.producerId);
  }
}

function decodeBody(type: number, r: BufferReader): Packet {
  switch (type) {
    case PacketType.PING:
      return { type, connectionTtl: r.readLong() };
    case PacketType.DISCONNECT:
      return { type, nodeId: r.readNullableSimpleString() };
    case PacketType.DISCONNECT_CONSUMER:
    case PacketType.SESS_CONSUMER_CLOSE:
      return { type, consumerId: r.readLong() };
    case PacketType.EXCEPTION:
    case PacketType.SESS_ASYNC_EXCEPTION:
      return { type, code: errorCodeFromNumber(r.readInt()), message: r.readNullableHqString() };
    case PacketType.SESS_SEND_REFUSED:
      return {
        type,
        commandId: r.readInt(),
        code: errorCodeFromNumber(r.readInt()),
        message: r.readNullableHqString(),
      };
    case PacketType.NULL_RESPONSE:
    case PacketType.SESS_COMMIT:
    case PacketType.SESS_START:
    case PacketType.SESS_STOP:
    case PacketType.SESS_CLOSE:
      return { type };
    case PacketType.PACKETS_CONFIRMED:
      return { type, commandId: r.readInt() };
    case PacketType.CREATESESSION:
      return readCreateSession(r);
    case PacketType.CREATESESSION_RESP:
      return {
        type,
        serverVersion: r.readInt(),
        extension: startsTrailer(r) ? { version: r.readByte() } : null,
      };
    case PacketType.REATTACH_SESSION:
      return {
        type,
        name: r.readHqString(),
        lastConfirmedCommandId: r.readInt(),
        extension: startsTrailer(r)
          ? {
              reattachSecret: r.readRaw(REATTACH_SECRET_BYTES),
              username: r.readNullableHqString(),
              password: r.readNullableHqString(),
            }
          : null,
      };
    case PacketType.REATTACH_SESSION_RESP:
      return { type, lastConfirmedCommandId: r.readInt(), reattached: r.readBoolean() };
    case PacketType.SUBSCRIBE_TOPOLOGY:
      return { type, clusterConnection: r.readBoolean() };
    case PacketType.SUBSCRIBE_TOPOLOGY_V2:
      return { type, clusterConnection: r.readBoolean(), clientVersion: r.readInt() };
    case PacketType.CLUSTER_TOPOLOGY:
    case PacketType.CLUSTER_TOPOLOGY_V2:
      return readTopology(type, r);
    case PacketType.NODE_ANNOUNCE:
      return {
        type,
        nodeId: r.readHqString(),
        nodeName: r.readNullableHqString(),
        backup: r.readBoolean(),
        currentEventId: r.readLong(),
        connector: readOptionalTransport(r),
        backupConnector: readOptionalTransport(r),
      };
    case PacketType.CREATE_QUEUE:
    case PacketType.CREATE_SHARED_QUEUE:
      return readQueueToCreate(type, r);
    case PacketType.DELETE_QUEUE:
    case PacketType.SESS_QUEUEQUERY:
      return { type, queueName: r.readSimpleString() };
    case PacketType.SESS_CREATECONSUMER:
      return {
        type,
        consumerId: r.readLong(),
        queueName: r.readSimpleString(),
        filter: r.readNullableSimpleString(),
        browseOnly: r.readBoolean(),
        requiresResponse: r.readBoolean(),
      };
    case PacketType.SESS_EXPIRED:
    case PacketType.SESS_DELIVERY_REFUSED:
      return { type, consumerId: r.readLong(), messageId: r.readLong() };
    case PacketType.SESS_ACKNOWLEDGE:
    case PacketType.SESS_INDIVIDUAL_ACKNOWLEDGE:
      return { type, consumerId: r.readLong(), messageId: r.readLong(), requiresResponse: r.readBoolean() };
    case PacketType.SESS_ROLLBACK:
      return { type, considerLastMessageAsDelivered: r.readBoolean() };
    case PacketType.SESS_QUEUEQUERY_RESP:
      return {
        type,
        exists: r.readBoolean(),
        durable: r.readBoolean(),
        temporary: r.readBoolean(),
        consumerCount: r.readInt(),
        messageCount: r.readLong(),
        filter: r.readNullableSimpleString(),
        address: r.readNullableSimpleString(),
        name: r.readNullableSimpleString(),
      };
    case PacketType.SESS_QUEUE_STATS:
      return { type, start: r.readInt(), maxCount: r.readInt() };
    case PacketType.SESS_QUEUE_STATS_RESP: {
      const count = r.readCount('queue', QUEUE_STATS_MIN_BYTES);
      const queues: QueueStats[] = [];
      for (let i = 0; i < count; i++) queues.push(readQueueStats(r));
      return { type, queues, more: r.readBoolean() };
    }
    case PacketType.SESS_BINDINGQUERY:
      return { type, address: r.readSimpleString() };
    case PacketType.SESS_BINDINGQUERY_RESP: {
      const exists = r.readBoolean();
      const count = r.readCount('queue name', 4);
      const queueNames: string[] = [];
      for (let i = 0; i < count; i++) queueNames.push(r.readSimpleString());
      return { type, exists, queueNames };
    }
    case PacketType.SESS_FLOWTOKEN:
      return { type, consumerId: r.readLong(), credits: r.readInt() };
    case PacketType.SESS_SEND:
      return { type, message: CoreMessage.decode(r), requiresResponse: r.readBoolean() };
    case PacketType.SESS_SEND_LARGE:
      return { type, message: CoreMessage.decodeHeadersAndProperties(r) };
    case PacketType.SESS_SEND_CONTINUATION: {
      const chunk = r.readBytes();
      const continues = r.readBoolean();
      const messageBodySize = continues ? NOT_ON_THE_WIRE : readSize(r, 'message body size');
      return { type, chunk, continues, messageBodySize, requiresResponse: r.readBoolean() };
    }
    case PacketType.SESS_RECEIVE_LARGE_MSG:
      return {
        type,
        consumerId: r.readLong(),
        deliveryCount: r.readInt(),
        largeMessageSize: readSize(r, 'large message size'),
        message: CoreMessage.decodeHeadersAndProperties(r),
      };
    case PacketType.SESS_RECEIVE_CONTINUATION:
      return { type, chunk: r.readBytes(), continues: r.readBoolean(), consumerId: r.readLong() };
    case PacketType.SESS_RECEIVE_MSG:
      return { type, message: CoreMessage.decode(r), consumerId: r.readLong(), deliveryCount: r.readInt() };
    case PacketType.SESS_FORCE_CONSUMER_DELIVERY:
      return { type, consumerId: r.readLong(), sequence: r.readLong() };
    case PacketType.SESS_PRODUCER_REQUEST_CREDITS:
    case PacketType.SESS_PRODUCER_CREDITS:
    case PacketType.SESS_PRODUCER_FAIL_CREDITS:
      return { type, credits: r.readInt(), address: r.readRecurringSimpleString() };
    case PacketType.SESS_ADD_METADATA:
      return { type, key: r.readHqString(), data: r.readHqString() };
    case PacketType.SESS_ADD_METADATA2:
    case PacketType.SESS_UNIQUE_ADD_METADATA:
      return { type, key: r.readHqString(), data: r.readHqString(), requiresConfirmation: r.readBoolean() };
    case PacketType.SESS_CREATEPRODUCER:
      return { type, producerId: r.readLong(), address: r.readNullableSimpleString() };
    case PacketType.SESS_CLOSEPRODUCER:
      return { type, producerId: r.readLong() };
    default:
      throw new ProtocolError(`unknown packet type ${type}`);
  }
}

/** The bytes of the reattach secret in the extension trailers. */
export const REATTACH_SECRET_BYTES = 16;

/** SendContinuation.messageBodySize of a chunk that is not the last: HornetQ sends none there. */
const NOT_ON_THE_WIRE = -1;

function writeCreateSession(w: BufferWriter, p: CreateSession): void {
  w.writeHqString(p.name);
  w.writeLong(p.sessionChannelId);
  w.writeInt(p.version);
  w.writeNullableHqString(p.username);
  w.writeNullableHqString(p.password);
  w.writeInt(p.minLargeMessageSize);
  w.writeBoolean(p.xa);
  w.writeBoolean(p.autoCommitSends);
  w.writeBoolean(p.autoCommitAcks);
  w.writeInt(p.windowSize);
  w.writeBoolean(p.preAcknowledge);
  w.writeNullableHqString(p.defaultAddress);
  if (p.extension !== null) {
    w.writeInt(EXTENSION_MAGIC);
    w.writeByte(p.extension.version);
    writeSecret(w, p.extension.reattachSecret);
  }
}

function readCreateSession(r: BufferReader): CreateSession {
  return {
    type: PacketType.CREATESESSION,
    name: r.readHqString(),
    sessionChannelId: r.readLong(),
    version: r.readInt(),
    username: r.readNullableHqString(),
    password: r.readNullableHqString(),
    minLargeMessageSize: r.readInt(),
    xa: r.readBoolean(),
    autoCommitSends: r.readBoolean(),
    autoCommitAcks: r.readBoolean(),
    windowSize: r.readInt(),
    preAcknowledge: r.readBoolean(),
    defaultAddress: r.readNullableHqString(),
    extension: startsTrailer(r)
      ? { version: r.readByte(), reattachSecret: r.readRaw(REATTACH_SECRET_BYTES) }
      : null,
  };
}

function writeSecret(w: BufferWriter, secret: Buffer): void {
  if (secret.length !== REATTACH_SECRET_BYTES) {
    throw new RangeError(`a reattach secret is ${REATTACH_SECRET_BYTES} bytes, not ${secret.length}`);
  }
  w.writeRaw(secret);
}

/**
 * Whether our extension's trailer follows the handshake packet's last field (and if so, steps
 * over its magic). Other bytes there are left for decodeFrameAt to ignore, as a real peer would.
 */
function startsTrailer(r: BufferReader): boolean {
  if (r.remaining < 4 || r.peekInt() !== EXTENSION_MAGIC) return false;
  r.readInt();
  return true;
}

/** CREATE_QUEUE and CREATE_SHARED_QUEUE: the same fields, but a shared queue is never temporary. */
function writeQueueToCreate(w: BufferWriter, p: CreateQueue | CreateSharedQueue): void {
  w.writeSimpleString(p.address);
  w.writeSimpleString(p.queueName);
  w.writeNullableSimpleString(p.filter);
  w.writeBoolean(p.durable);
  if (p.type === PacketType.CREATE_QUEUE) w.writeBoolean(p.temporary);
  w.writeBoolean(p.requiresResponse);
}

function readQueueToCreate(
  type: typeof PacketType.CREATE_QUEUE | typeof PacketType.CREATE_SHARED_QUEUE,
  r: BufferReader,
): CreateQueue | CreateSharedQueue {
  const address = r.readSimpleString();
  const queueName = r.readSimpleString();
  const filter = r.readNullableSimpleString();
  const durable = r.readBoolean();
  if (type === PacketType.CREATE_SHARED_QUEUE) {
    return { type, address, queueName, filter, durable, requiresResponse: r.readBoolean() };
  }
  const temporary = r.readBoolean();
  return { type, address, queueName, filter, durable, temporary, requiresResponse: r.readBoolean() };
}

/** V1 (110) has neither the event id nor the node name; V2 writes its node name always. */
function writeTopology(w: BufferWriter, p: ClusterTopologyChange): void {
  const v2 = p.type === PacketType.CLUSTER_TOPOLOGY_V2;
  w.writeBoolean(p.exit);
  w.writeHqString(p.nodeId);
  if (v2) w.writeLong(p.uniqueEventId);
  if (!p.exit) {
    writeOptionalTransport(w, p.live);
    writeOptionalTransport(w, p.backup);
    w.writeBoolean(p.last);
  }
  if (v2) w.writeNullableHqString(p.nodeName);
}

/** HornetQ reads V2's node name only when bytes remain (older senders have none). */
function readTopology(
  type: typeof PacketType.CLUSTER_TOPOLOGY | typeof PacketType.CLUSTER_TOPOLOGY_V2,
  r: BufferReader,
): ClusterTopologyChange {
  const v2 = type === PacketType.CLUSTER_TOPOLOGY_V2;
  const exit = r.readBoolean();
  const nodeId = r.readHqString();
  const uniqueEventId = v2 ? r.readLong() : 0;
  const live = exit ? null : readOptionalTransport(r);
  const backup = exit ? null : readOptionalTransport(r);
  const last = exit ? false : r.readBoolean();
  const nodeName = v2 && r.remaining > 0 ? r.readNullableHqString() : null;
  return { type, exit, nodeId, uniqueEventId, live, backup, last, nodeName };
}

/** TransportConfiguration's type bytes for its parameter values. */
const TransportParamType = { boolean: 0, int: 1, long: 2, string: 3 } as const;

function writeOptionalTransport(w: BufferWriter, transport: TransportConfiguration | null): void {
  w.writeBoolean(transport !== null);
  if (transport === null) return;
  w.writeHqString(transport.name);
  w.writeHqString(transport.factoryClassName);
  w.writeInt(transport.params.length);
  for (const [key, param] of transport.params) {
    w.writeHqString(key);
    w.writeByte(TransportParamType[param.type]);
    writeTransportParam(w, param);
  }
}

function writeTransportParam(w: BufferWriter, param: TransportParam): void {
  switch (param.type) {
    case 'boolean':
      return w.writeBoolean(param.value);
    case 'int':
      return w.writeInt(param.value);
    case 'long':
      return w.writeLong(param.value);
    case 'string':
      return w.writeHqString(param.value);
  }
}

/** A key (int count) and a type byte at least. */
const TRANSPORT_PARAM_MIN_BYTES = 4 + 1;

function readOptionalTransport(r: BufferReader): TransportConfiguration | null {
  if (!r.readBoolean()) return null;
  const name = r.readHqString();
  const factoryClassName = r.readHqString();
  const count = r.readCount('transport parameter', TRANSPORT_PARAM_MIN_BYTES);
  const params: Array<readonly [string, TransportParam]> = [];
  for (let i = 0; i < count; i++) params.push([r.readHqString(), readTransportParam(r)]);
  return { name, factoryClassName, params };
}

function readTransportParam(r: BufferReader): TransportParam {
  const type = r.readByte();
  switch (type) {
    case TransportParamType.boolean:
      return { type: 'boolean', value: r.readBoolean() };
    case TransportParamType.int:
      return { type: 'int', value: r.readInt() };
    case TransportParamType.long:
      return { type: 'long', value: r.readLong() };
    case TransportParamType.string:
      return { type: 'string', value: r.readHqString() };
    default:
      throw new ProtocolError(`unknown transport parameter type ${type}`);
  }
}

/** Two string lengths, a null marker, two booleans, an int and seven longs. */
const QUEUE_STATS_MIN_BYTES = 4 + 4 + 1 + 2 + 4 + 7 * 8;

function writeQueueStats(w: BufferWriter, queue: QueueStats): void {
  w.writeSimpleString(queue.name);
  w.writeSimpleString(queue.address);
  w.writeNullableSimpleString(queue.filter);
  w.writeBoolean(queue.durable);
  w.writeBoolean(queue.temporary);
  w.writeInt(queue.consumerCount);
  w.writeLong(queue.messageCount);
  w.writeLong(queue.deliveringCount);
  w.writeLong(queue.scheduledCount);
  w.writeLong(queue.messagesAdded);
  w.writeLong(queue.messagesAcknowledged);
  w.writeLong(queue.messagesExpired);
  w.writeLong(queue.messagesKilled);
}

function readQueueStats(r: BufferReader): QueueStats {
  return {
    name: r.readSimpleString(),
    address: r.readSimpleString(),
    filter: r.readNullableSimpleString(),
    durable: r.readBoolean(),
    temporary: r.readBoolean(),
    consumerCount: r.readInt(),
    messageCount: r.readLong(),
    deliveringCount: r.readLong(),
    scheduledCount: r.readLong(),
    messagesAdded: r.readLong(),
    messagesAcknowledged: r.readLong(),
    messagesExpired: r.readLong(),
    messagesKilled: r.readLong(),
  };
}

/** A large message's announced size: never negative (each side also caps it). */
function readSize(r: BufferReader, what: string): number {
  const size = r.readLong();
  if (size < 0) throw new ProtocolError(`negative ${what} ${size}`);
  return size;
}
