import { BufferReader, BufferWriter } from '../../core/protocol';
import { crc32c } from './journal/crc32c';
import type { StoredQueue } from './storage-manager';

/**
 * The journal user-record types the broker writes, HornetQ's numbers (JournalRecordIds, research
 * note §1.4), so that a journal reads the same in either's terms.
 */
export const StorageRecordType = {
  /** Bindings journal, ADD with record id = queue id: name, address, nullable filter. */
  QUEUE_BINDING: 21,
  /** Bindings journal, ADD: the id reservation's high-water mark (ids below it may be in use). */
  ID_COUNTER: 24,
  /** Message journal, ADD with record id = message id: the encoding's length; the bytes are in `<id>.msg`. */
  ADD_LARGE_MESSAGE: 30,
  /** Message journal, ADD with record id = message id: the message as CoreMessage.encode writes it. */
  ADD_MESSAGE: 31,
  /** Message journal, UPDATE on the message id: the queue id (one per queue it was routed to). */
  ADD_REF: 32,
  /** Message journal, UPDATE on the message id: the queue id whose reference is acknowledged. */
  ACKNOWLEDGE_REF: 33,
  /** Message journal, UPDATE on the message id: queue id and delivery count. */
  UPDATE_DELIVERY_COUNT: 34,
  /** Message journal, UPDATE on the message id: queue id and epoch ms. */
  SET_SCHEDULED_DELIVERY_TIME: 36,
  /** Message journal, ADD with a record id of its own: address and duplicate-detection id. */
  DUPLICATE_ID: 37,
} as const;

/** Bytes of a record body holding one queue id (ADD_REF, ACKNOWLEDGE_REF). */
const QUEUE_ID_BYTES = 8;

/** A reader over a whole record body; its end is checked by each decoder (expectEnd). */
function readerOf(body: Buffer): BufferReader {
  return new BufferReader(body, 0, body.length);
}

export function encodeQueueBinding(queue: StoredQueue): Buffer {
  const writer = new BufferWriter(64);
  writer.writeSimpleString(queue.name);
  writer.writeSimpleString(queue.address);
  writer.writeNullableSimpleString(queue.filter);
  return writer.toBuffer();
}

export function decodeQueueBinding(body: Buffer): StoredQueue {
  const reader = readerOf(body);
  const queue = {
    name: reader.readSimpleString(),
    address: reader.readSimpleString(),
    filter: reader.readNullableSimpleString(),
  };
  reader.expectEnd('a queue binding record');
  return queue;
}

export function encodeIdCounter(highWaterMark: number): Buffer {
  const writer = new BufferWriter(8);
  writer.writeLong(highWaterMark);
  return writer.toBuffer();
}

export function decodeIdCounter(body: Buffer): number {
  const reader = readerOf(body);
  const highWaterMark = reader.readLong();
  reader.expectEnd('an id counter record');
  return highWaterMark;
}

/** A large message's journal header: what its file must hold to be the one the journal confirmed. */
export interface LargeMessageHeader {
  /** Bytes of the message's encoding in its file. */
  length: number;
  /** CRC32C of those bytes, as the journal's records have: a torn or flipped file does not match. */
  crc: number;
}

export function largeMessageHeaderOf(encoding: Buffer): LargeMessageHeader {
  return { length: encoding.length, crc: crc32c(encoding) };
}

/** Whether a large-message file holds what its header says (a torn, lost or flipped write does not). */
export function largeMessageMatches(header: LargeMessageHeader, encoding: Buffer): boolean {
  return encoding.length === header.length && crc32c(encoding) === header.crc;
}

export function encodeLargeMessageHeader(header: LargeMessageHeader): Buffer {
  const writer = new BufferWriter(12);
  writer.writeLong(header.length);
  // Unsigned 32 bits: written as a long, as an int would turn the top half negative.
  writer.writeLong(header.crc);
  return writer.toBuffer();
}

export function decodeLargeMessageHeader(body: Buffer): LargeMessageHeader {
  const reader = readerOf(body);
  const header = { length: reader.readLong(), crc: reader.readLong() };
  reader.expectEnd('a large message header record');
  return header;
}

/** ADD_REF and ACKNOWLEDGE_REF bodies. */
export function encodeQueueId(queueId: number): Buffer {
  const writer = new BufferWriter(QUEUE_ID_BYTES);
  writer.writeLong(queueId);
  return writer.toBuffer();
}

export function decodeQueueId(body: Buffer): number {
  const reader = readerOf(body);
  const queueId = reader.readLong();
  reader.expectEnd('a reference record');
  return queueId;
}

export interface DeliveryCountUpdate {
  queueId: number;
  deliveryCount: number;
}

export function encodeDeliveryCount(update: DeliveryCountUpdate): Buffer {
  const writer = new BufferWriter(12);
  writer.writeLong(update.queueId);
  writer.writeInt(update.deliveryCount);
  return writer.toBuffer();
}

export function decodeDeliveryCount(body: Buffer): DeliveryCountUpdate {
  const reader = readerOf(body);
  const update = { queueId: reader.readLong(), deliveryCount: reader.readInt() };
  reader.expectEnd('a delivery count record');
  return update;
}

export interface ScheduledTimeUpdate {
  queueId: number;
  /** Epoch ms; 0 for none. */
  time: number;
}

export function encodeScheduledTime(update: ScheduledTimeUpdate): Buffer {
  const writer = new BufferWriter(16);
  writer.writeLong(update.queueId);
  writer.writeLong(update.time);
  return writer.toBuffer();
}

export function decodeScheduledTime(body: Buffer): ScheduledTimeUpdate {
  const reader = readerOf(body);
  const update = { queueId: reader.readLong(), time: reader.readLong() };
  reader.expectEnd('a scheduled delivery time record');
  return update;
}

export interface DuplicateIdRecord {
  address: string;
  id: string;
}

export function encodeDuplicateId(record: DuplicateIdRecord): Buffer {
  const writer = new BufferWriter(64);
  writer.writeSimpleString(record.address);
  writer.writeSimpleString(record.id);
  return writer.toBuffer();
}

export function decodeDuplicateId(body: Buffer): DuplicateIdRecord {
  const reader = readerOf(body);
  const record = { address: reader.readSimpleString(), id: reader.readSimpleString() };
  reader.expectEnd('a duplicate id record');
  return record;
}
