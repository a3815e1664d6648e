import { outOfRange } from '../../../lang/argument-errors';
import { crc32c } from './crc32c';

/**
 * The record frame (big-endian): u32 length of the whole record, u8 type, u32 file id, u32 flush
 * number, payload, u32 CRC32C of everything before it, u32 the length again. The leading length
 * lets the loader step from record to record; the trailing one and the CRC tell a complete record
 * from a torn or flipped one; the file id tells it from a stale record of the file's earlier life;
 * the flush number (consecutive over the whole journal) tells the last flush, which alone may be
 * torn, from the flushes before it, which were synced.
 */
export const RecordType = {
  ADD: 1,
  UPDATE: 2,
  DELETE: 3,
  ADD_TX: 4,
  UPDATE_TX: 5,
  DELETE_TX: 6,
  /** Ends a transaction: tx id + how many records of it precede (all in the same write). */
  COMMIT: 7,
} as const;
export type RecordType = (typeof RecordType)[keyof typeof RecordType];

export const FRAME_HEADER_SIZE = 13;
export const FRAME_TRAILER_SIZE = 8;
export const FRAME_OVERHEAD = FRAME_HEADER_SIZE + FRAME_TRAILER_SIZE;
const ID_SIZE = 8;
const USER_TYPE_SIZE = 1;
const COUNT_SIZE = 4;
const TWO_32 = 0x1_0000_0000;

/** The frame length of a record of `type` with a body of `bodyLength` bytes. */
export function recordLength(type: RecordType, bodyLength: number): number {
  return FRAME_OVERHEAD + fixedPayloadSize(type) + (hasBody(type) ? bodyLength : 0);
}

function fixedPayloadSize(type: RecordType): number {
  switch (type) {
    case RecordType.ADD:
    case RecordType.UPDATE:
      return ID_SIZE + USER_TYPE_SIZE;
    case RecordType.DELETE:
      return ID_SIZE;
    case RecordType.ADD_TX:
    case RecordType.UPDATE_TX:
      return ID_SIZE + ID_SIZE + USER_TYPE_SIZE;
    case RecordType.DELETE_TX:
      return ID_SIZE + ID_SIZE;
    case RecordType.COMMIT:
      return ID_SIZE + COUNT_SIZE;
  }
}

function hasBody(type: RecordType): boolean {
  return (
    type === RecordType.ADD ||
    type === RecordType.UPDATE ||
    type === RecordType.ADD_TX ||
    type === RecordType.UPDATE_TX
  );
}

export function isTransactional(type: RecordType): boolean {
  return type === RecordType.ADD_TX || type === RecordType.UPDATE_TX || type === RecordType.DELETE_TX;
}

function isRecordType(value: number): value is RecordType {
  return value >= RecordType.ADD && value <= RecordType.COMMIT;
}

/** Ids (record and transaction) are non-negative safe integers, stored as two u32 halves. */
export function checkRecordId(what: string, id: number): void {
  if (!Number.isSafeInteger(id) || id < 0) {
    throw outOfRange(`journal ${what} must be a non-negative safe integer, got ${id}`);
  }
}

export function checkUserType(userType: number): void {
  if (!Number.isInteger(userType) || userType < 0 || userType > 255) {
    throw outOfRange(`journal record user type must be an integer in 0..255, got ${userType}`);
  }
}

function writeId(target: Buffer, offset: number, id: number): number {
  target.writeUInt32BE(Math.floor(id / TWO_32), offset);
  target.writeUInt32BE(id % TWO_32, offset + 4);
  return offset + ID_SIZE;
}

function readId(source: Buffer, offset: number): number {
  return source.readUInt32BE(offset) * TWO_32 + source.readUInt32BE(offset + 4);
}

export interface RecordFields {
  type: RecordType;
  fileId: number;
  flush: number;
  /** The transaction id (tx types and COMMIT), else 0. */
  txId: number;
  /** The record id (all but COMMIT), else 0. */
  id: number;
  userType: number;
  /** COMMIT: how many records of the transaction precede it. */
  count: number;
  body: Buffer | null;
}

/** Writes the frame at `offset` (which must have room for recordLength bytes); returns its length. */
export function writeRecord(target: Buffer, offset: number, fields: RecordFields): number {
  const length = recordLength(fields.type, fields.body?.length ?? 0);
  target.writeUInt32BE(length, offset);
  target.writeUInt8(fields.type, offset + 4);
  target.writeUInt32BE(fields.fileId >>> 0, offset + 5);
  target.writeUInt32BE(fields.flush >>> 0, offset + 9);
  let at = offset + FRAME_HEADER_SIZE;
  if (isTransactional(fields.type) || fields.type === RecordType.COMMIT)
    at = writeId(target, at, fields.txId);
  if (fields.type === RecordType.COMMIT) {
    target.writeUInt32BE(fields.count, at);
    at += COUNT_SIZE;
  } else {
    at = writeId(target, at, fields.id);
  }
  if (hasBody(fields.type)) {
    target.writeUInt8(fields.userType, at);
    at += USER_TYPE_SIZE;
    if (fields.body !== null) at += fields.body.copy(target, at);
  }
  target.writeUInt32BE(crc32c(target, offset, at), at);
  target.writeUInt32BE(length, at + 4);
  return length;
}

/** A record read back; `body` is a view of the read buffer, valid until the buffer is reused. */
export interface DecodedRecord extends RecordFields {
  length: number;
}

/**
 * Checks the frame at `offset` of `source` (`available` bytes readable from there) against every
 * rule: length bounds, known type, payload size for the type, file id, trailing length, CRC.
 * Returns null when it is a valid record, else what failed. `available` must cover the whole
 * frame (the caller reads `length` bytes first), or the frame is reported as running past the end.
 */
export function checkRecord(
  source: Buffer,
  offset: number,
  available: number,
  fileId: number,
): string | null {
  if (available < FRAME_OVERHEAD) return 'record header runs past the end of the file';
  const length = source.readUInt32BE(offset);
  const type = source[offset + 4]!;
  if (!isRecordType(type)) return `unknown record type ${type}`;
  const minimum = recordLength(type, 0);
  if (length < minimum || (!hasBody(type) && length !== minimum)) {
    return `length ${length} is not valid for record type ${type}`;
  }
  if (length > available) return `length ${length} runs past the end of the file`;
  if (source.readUInt32BE(offset + 5) !== fileId >>> 0) return 'file id does not match the file header';
  if (source.readUInt32BE(offset + length - 4) !== length) return 'trailing length does not match';
  if (source.readUInt32BE(offset + length - 8) !== crc32c(source, offset, offset + length - 8)) {
    return 'CRC32C does not match';
  }
  return null;
}

/** Decodes a frame that checkRecord accepted. */
export function decodeRecord(source: Buffer, offset: number): DecodedRecord {
  const length = source.readUInt32BE(offset);
  const type = source[offset + 4] as RecordType;
  const record: DecodedRecord = {
    type,
    length,
    fileId: source.readUInt32BE(offset + 5),
    flush: source.readUInt32BE(offset + 9),
    txId: 0,
    id: 0,
    userType: 0,
    count: 0,
    body: null,
  };
  let at = offset + FRAME_HEADER_SIZE;
  if (isTransactional(type) || type === RecordType.COMMIT) {
    record.txId = readId(source, at);
    at += ID_SIZE;
  }
  if (type === RecordType.COMMIT) {
    record.count = source.readUInt32BE(at);
    return record;
  }
  record.id = readId(source, at);
  at += ID_SIZE;
  if (hasBody(type)) {
    record.userType = source[at]!;
    record.body = source.subarray(at + USER_TYPE_SIZE, offset + length - FRAME_TRAILER_SIZE);
  }
  return record;
}
