import { BufferReader } from './buffer-reader';
import { BufferWriter } from './buffer-writer';
import { CoreMessage } from './core-message';
import { ErrorCode, errorCodeFromNumber } from './error-code';
import { FRAME_HEADER_BYTES } from './frame-decoder';
import type { FrameSlab } from './frame-slab';
import { PacketType, packetTypeName } from './packet-type';
import type { Packet, QueueStats } from './packets';
import { ProtocolError } from './protocol-error';

/** A decoded frame: which channel it travels on and what it carries. */
export interface Frame {
  channelId: number;
  packet: Packet;
  /** Bytes of the whole frame; what confirmation windows count. */
  size: number;
}

/**
 * Bytes a SESS_RECEIVE_MSG frame adds around its message (frame header, consumer id, delivery
 * count), so a consumer can tell a delivery's message size, which credits count, from the frame.
 */
export const DELIVERY_FRAME_OVERHEAD = FRAME_HEADER_BYTES + 8 + 4;

/** Bytes a SESS_SEND frame adds around its message (frame header, requires-response flag). */
export const SEND_FRAME_OVERHEAD = FRAME_HEADER_BYTES + 1;

/** Bytes a SESS_RECEIVE_LARGE_MSG frame adds around its head (delivery overhead, body size). */
export const LARGE_DELIVERY_FRAME_OVERHEAD = DELIVERY_FRAME_OVERHEAD + 8;

/** Bytes a SESS_RECEIVE_CONTINUATION frame adds around its chunk (frame header, consumer id, chunk length, continues). */
export const CONTINUATION_FRAME_OVERHEAD = FRAME_HEADER_BYTES + 8 + 4 + 1;

/** The bytes of the SESS_RECEIVE_MSG frame that delivers `message` whole, without encoding it. */
export function deliveryFrameBytes(message: CoreMessage): number {
  return DELIVERY_FRAME_OVERHEAD + message.encodedSize();
}

/** The bytes of the SESS_RECEIVE_LARGE_MSG frame that announces a large message whose head is `head`. */
export function largeDeliveryFrameBytes(head: CoreMessage): number {
  return LARGE_DELIVERY_FRAME_OVERHEAD + head.encodedSize();
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
  const channelId = reader.readLong();
  let packet: Packet;
  try {
    packet = decodeBody(type, reader);
    if (reader.remaining !== 0) reader.expectEnd(packetTypeName(type));
  } catch (error) {
    if (error instanceof ProtocolError && !error.message.startsWith('unknown packet type')) {
      throw new ProtocolError(`malformed ${packetTypeName(type)} on channel ${channelId}: ${error.message}`);
    }
    throw error;
  }
  return { channelId, packet, size: length };
}

/** Room to set aside for a frame: exact or a little more for messages, a guess for the rest. */
function expectedFrameBytes(packet: Packet): number {
  if (
    packet.type === PacketType.SESS_SEND ||
    packet.type === PacketType.SESS_RECEIVE_MSG ||
    packet.type === PacketType.SESS_SEND_LARGE ||
    packet.type === PacketType.SESS_RECEIVE_LARGE_MSG
  ) {
    return FRAME_HEADER_BYTES + 8 + 4 + 8 + packet.message.encodedSize();
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
      return w.writeNullableString(p.reason);
    case PacketType.EXCEPTION:
      w.writeInt(p.correlationId);
      w.writeInt(ErrorCode[p.code]);
      return w.writeNullableString(p.message);
    case PacketType.NULL_RESPONSE:
      return w.writeInt(p.correlationId);
    case PacketType.PACKETS_CONFIRMED:
      return w.writeInt(p.commandId);
    case PacketType.CREATESESSION:
      w.writeInt(p.correlationId);
      w.writeString(p.name);
      w.writeLong(p.sessionChannelId);
      w.writeInt(p.version);
      w.writeNullableString(p.username);
      w.writeNullableString(p.password);
      w.writeInt(p.minLargeMessageSize);
      w.writeBoolean(p.xa);
      w.writeBoolean(p.autoCommitSends);
      w.writeBoolean(p.autoCommitAcks);
      w.writeBoolean(p.preAcknowledge);
      w.writeInt(p.windowSize);
      return w.writeNullableString(p.defaultAddress);
    case PacketType.CREATESESSION_RESP:
      w.writeInt(p.correlationId);
      w.writeInt(p.serverVersion);
      w.writeString(p.sessionName);
      return w.writeString(p.reattachToken);
    case PacketType.REATTACH_SESSION:
      w.writeInt(p.correlationId);
      w.writeString(p.sessionName);
      w.writeString(p.reattachToken);
      w.writeNullableString(p.username);
      w.writeNullableString(p.password);
      return w.writeInt(p.lastConfirmedCommandId);
    case PacketType.REATTACH_SESSION_RESP:
      w.writeInt(p.correlationId);
      w.writeInt(p.lastConfirmedCommandId);
      return w.writeBoolean(p.reattached);
    case PacketType.CREATE_QUEUE:
      w.writeString(p.address);
      w.writeString(p.queueName);
      w.writeNullableString(p.filter);
      w.writeBoolean(p.durable);
      w.writeBoolean(p.temporary);
      return w.writeBoolean(p.requiresResponse);
    case PacketType.DELETE_QUEUE:
      return w.writeString(p.queueName);
    case PacketType.SESS_CREATECONSUMER:
      w.writeLong(p.consumerId);
      w.writeString(p.queueName);
      w.writeNullableString(p.filter);
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
    case PacketType.SESS_COMMIT:
    case PacketType.SESS_START:
    case PacketType.SESS_STOP:
    case PacketType.SESS_CLOSE:
      return;
    case PacketType.SESS_ROLLBACK:
      w.writeInt(p.seenConsumerIds.length);
      for (const id of p.seenConsumerIds) w.writeLong(id);
      return;
    case PacketType.SESS_QUEUEQUERY:
      return w.writeString(p.queueName);
    case PacketType.SESS_QUEUEQUERY_RESP:
      w.writeInt(p.correlationId);
      w.writeBoolean(p.exists);
      w.writeNullableString(p.address);
      w.writeBoolean(p.durable);
      w.writeBoolean(p.temporary);
      w.writeNullableString(p.filter);
      w.writeInt(p.consumerCount);
      return w.writeLong(p.messageCount);
    case PacketType.SESS_QUEUE_STATS:
      w.writeInt(p.start);
      return w.writeInt(p.maxCount);
    case PacketType.SESS_QUEUE_STATS_RESP:
      w.writeInt(p.correlationId);
      w.writeInt(p.queues.length);
      for (const queue of p.queues) writeQueueStats(w, queue);
      return w.writeBoolean(p.more);
    case PacketType.SESS_BINDINGQUERY:
      return w.writeString(p.address);
    case PacketType.SESS_BINDINGQUERY_RESP:
      w.writeInt(p.correlationId);
      w.writeBoolean(p.exists);
      w.writeInt(p.queueNames.length);
      for (const name of p.queueNames) w.writeString(name);
      return;
    case PacketType.SESS_FLOWTOKEN:
      w.writeLong(p.consumerId);
      return w.writeInt(p.credits);
    case PacketType.SESS_SEND:
      p.message.encode(w);
      return w.writeBoolean(p.requiresResponse);
    case PacketType.SESS_SEND_LARGE:
      p.message.encode(w);
      return w.writeLong(p.bodySize);
    case PacketType.SESS_SEND_CONTINUATION:
      w.writeBytes(p.chunk);
      w.writeBoolean(p.continues);
      return w.writeBoolean(p.requiresResponse);
    case PacketType.SESS_RECEIVE_LARGE_MSG:
      w.writeLong(p.consumerId);
      w.writeInt(p.deliveryCount);
      p.message.encode(w);
      return w.writeLong(p.bodySize);
    case PacketType.SESS_RECEIVE_CONTINUATION:
      w.writeLong(p.consumerId);
      w.writeBytes(p.chunk);
      return w.writeBoolean(p.continues);
    case PacketType.SESS_CONSUMER_CLOSE:
      return w.writeLong(p.consumerId);
    case PacketType.SESS_RECEIVE_MSG:
      w.writeLong(p.consumerId);
      w.writeInt(p.deliveryCount);
      return p.message.encode(w);
    case PacketType.SESS_FORCE_CONSUMER_DELIVERY:
    case PacketType.SESS_FORCED_DELIVERY_EMPTY:
      w.writeLong(p.consumerId);
      return w.writeLong(p.sequence);
    case PacketType.SESS_PRODUCER_REQUEST_CREDITS:
    case PacketType.SESS_PRODUCER_CREDITS:
    case PacketType.SESS_PRODUCER_FAIL_CREDITS:
      w.writeRecurringString(p.address);
      return w.writeInt(p.credits);
    case PacketType.SESS_UNIQUE_ADD_METADATA:
      w.writeString(p.key);
      return w.writeString(p.data);
    case PacketType.SESS_CREATEPRODUCER:
      w.writeLong(p.producerId);
      return w.writeNullableString(p.address);
    case PacketType.SESS_CLOSEPRODUCER:
      return w.writeLong(p.producerId);
  }
}

function decodeBody(type: number, r: BufferReader): Packet {
  switch (type) {
    case PacketType.PING:
      return { type, connectionTtl: r.readLong() };
    case PacketType.DISCONNECT:
      return { type, reason: r.readNullableString() };
    case PacketType.EXCEPTION:
      return {
        type,
        correlationId: r.readInt(),
        code: errorCodeFromNumber(r.readInt()),
        message: r.readNullableString(),
      };
    case PacketType.NULL_RESPONSE:
      return { type, correlationId: r.readInt() };
    case PacketType.PACKETS_CONFIRMED:
      return { type, commandId: r.readInt() };
    case PacketType.CREATESESSION:
      return {
        type,
        correlationId: r.readInt(),
        name: r.readString(),
        sessionChannelId: r.readLong(),
        version: r.readInt(),
        username: r.readNullableString(),
        password: r.readNullableString(),
        minLargeMessageSize: r.readInt(),
        xa: r.readBoolean(),
        autoCommitSends: r.readBoolean(),
        autoCommitAcks: r.readBoolean(),
        preAcknowledge: r.readBoolean(),
        windowSize: r.readInt(),
        defaultAddress: r.readNullableString(),
      };
    case PacketType.CREATESESSION_RESP:
      return {
        type,
        correlationId: r.readInt(),
        serverVersion: r.readInt(),
        sessionName: r.readString(),
        reattachToken: r.readString(),
      };
    case PacketType.REATTACH_SESSION:
      return {
        type,
        correlationId: r.readInt(),
        sessionName: r.readString(),
        reattachToken: r.readString(),
        username: r.readNullableString(),
        password: r.readNullableString(),
        lastConfirmedCommandId: r.readInt(),
      };
    case PacketType.REATTACH_SESSION_RESP:
      return {
        type,
        correlationId: r.readInt(),
        lastConfirmedCommandId: r.readInt(),
        reattached: r.readBoolean(),
      };
    case PacketType.CREATE_QUEUE:
      return {
        type,
        address: r.readString(),
        queueName: r.readString(),
        filter: r.readNullableString(),
        durable: r.readBoolean(),
        temporary: r.readBoolean(),
        requiresResponse: r.readBoolean(),
      };
    case PacketType.DELETE_QUEUE:
      return { type, queueName: r.readString() };
    case PacketType.SESS_CREATECONSUMER:
      return {
        type,
        consumerId: r.readLong(),
        queueName: r.readString(),
        filter: r.readNullableString(),
        browseOnly: r.readBoolean(),
        requiresResponse: r.readBoolean(),
      };
    case PacketType.SESS_EXPIRED:
    case PacketType.SESS_DELIVERY_REFUSED:
      return { type, consumerId: r.readLong(), messageId: r.readLong() };
    case PacketType.SESS_ACKNOWLEDGE:
    case PacketType.SESS_INDIVIDUAL_ACKNOWLEDGE:
      return { type, consumerId: r.readLong(), messageId: r.readLong(), requiresResponse: r.readBoolean() };
    case PacketType.SESS_COMMIT:
    case PacketType.SESS_START:
    case PacketType.SESS_STOP:
    case PacketType.SESS_CLOSE:
      return { type };
    case PacketType.SESS_ROLLBACK: {
      const count = r.readCount('consumer id', 8);
      const seenConsumerIds: number[] = [];
      for (let i = 0; i < count; i++) seenConsumerIds.push(r.readLong());
      return { type, seenConsumerIds };
    }
    case PacketType.SESS_QUEUEQUERY:
      return { type, queueName: r.readString() };
    case PacketType.SESS_QUEUEQUERY_RESP:
      return {
        type,
        correlationId: r.readInt(),
        exists: r.readBoolean(),
        address: r.readNullableString(),
        durable: r.readBoolean(),
        temporary: r.readBoolean(),
        filter: r.readNullableString(),
        consumerCount: r.readInt(),
        messageCount: r.readLong(),
      };
    case PacketType.SESS_QUEUE_STATS:
      return { type, start: r.readInt(), maxCount: r.readInt() };
    case PacketType.SESS_QUEUE_STATS_RESP: {
      const correlationId = r.readInt();
      const count = r.readCount('queue', QUEUE_STATS_MIN_BYTES);
      const queues: QueueStats[] = [];
      for (let i = 0; i < count; i++) queues.push(readQueueStats(r));
      return { type, correlationId, queues, more: r.readBoolean() };
    }
    case PacketType.SESS_BINDINGQUERY:
      return { type, address: r.readString() };
    case PacketType.SESS_BINDINGQUERY_RESP: {
      const correlationId = r.readInt();
      const exists = r.readBoolean();
      const count = r.readCount('queue name', 4);
      const queueNames: string[] = [];
      for (let i = 0; i < count; i++) queueNames.push(r.readString());
      return { type, correlationId, exists, queueNames };
    }
    case PacketType.SESS_FLOWTOKEN:
      return { type, consumerId: r.readLong(), credits: r.readInt() };
    case PacketType.SESS_SEND:
      return { type, message: CoreMessage.decode(r), requiresResponse: r.readBoolean() };
    case PacketType.SESS_SEND_LARGE:
      return { type, message: CoreMessage.decode(r), bodySize: readSize(r) };
    case PacketType.SESS_SEND_CONTINUATION:
      return { type, chunk: r.readBytes(), continues: r.readBoolean(), requiresResponse: r.readBoolean() };
    case PacketType.SESS_RECEIVE_LARGE_MSG:
      return {
        type,
        consumerId: r.readLong(),
        deliveryCount: r.readInt(),
        message: CoreMessage.decode(r),
        bodySize: readSize(r),
      };
    case PacketType.SESS_RECEIVE_CONTINUATION:
      return { type, consumerId: r.readLong(), chunk: r.readBytes(), continues: r.readBoolean() };
    case PacketType.SESS_CONSUMER_CLOSE:
      return { type, consumerId: r.readLong() };
    case PacketType.SESS_RECEIVE_MSG:
      return { type, consumerId: r.readLong(), deliveryCount: r.readInt(), message: CoreMessage.decode(r) };
    case PacketType.SESS_FORCE_CONSUMER_DELIVERY:
    case PacketType.SESS_FORCED_DELIVERY_EMPTY:
      return { type, consumerId: r.readLong(), sequence: r.readLong() };
    case PacketType.SESS_PRODUCER_REQUEST_CREDITS:
    case PacketType.SESS_PRODUCER_CREDITS:
    case PacketType.SESS_PRODUCER_FAIL_CREDITS:
      return { type, address: r.readRecurringString(), credits: r.readInt() };
    case PacketType.SESS_UNIQUE_ADD_METADATA:
      return { type, key: r.readString(), data: r.readString() };
    case PacketType.SESS_CREATEPRODUCER:
      return { type, producerId: r.readLong(), address: r.readNullableString() };
    case PacketType.SESS_CLOSEPRODUCER:
      return { type, producerId: r.readLong() };
    default:
      throw new ProtocolError(`unknown packet type ${type}`);
  }
}

/** Two string lengths, a null flag, two booleans, an int and seven longs. */
const QUEUE_STATS_MIN_BYTES = 4 + 4 + 1 + 2 + 4 + 7 * 8;

function writeQueueStats(w: BufferWriter, queue: QueueStats): void {
  w.writeString(queue.name);
  w.writeString(queue.address);
  w.writeNullableString(queue.filter);
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
    name: r.readString(),
    address: r.readString(),
    filter: r.readNullableString(),
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

/** A large message's announced body size: never negative (each side also caps it). */
function readSize(r: BufferReader): number {
  const size = r.readLong();
  if (size < 0) throw new ProtocolError(`negative large message size ${size}`);
  return size;
}
