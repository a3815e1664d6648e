import { BufferReader, BufferWriter, CoreMessage } from '../../core/protocol';
import { brandError, hasBrand } from '../../lang/brand';
import { ServerErrorCode } from '../server-error-code';
import { pageChecksum } from './page-checksum';

/** One queue a paged message was routed to, with what its reference there carried. */
export interface PagedTarget {
  queueName: string;
  /** Deliveries made before the message was paged (a message loaded from the journal may have some). */
  deliveryCount: number;
  /** Epoch ms before which it is not delivered; 0 for none. */
  scheduledTime: number;
}

/** A message in a page file and the queues it goes to when it is read back. */
export interface PageEntry {
  message: CoreMessage;
  targets: PagedTarget[];
}

/** A page file holds something that is not an entry the page store wrote: named by file and offset. */
export class PageCorruptError extends Error {
  static readonly brand: string = 'PageCorruptError';
  readonly code = ServerErrorCode.PAGE_CORRUPT;

  constructor(
    readonly file: string,
    readonly offset: number,
    reason: string,
  ) {
    super(`page file ${file} is corrupt at offset ${offset}: ${reason}`);
    brandError(this, new.target);
  }

  static is(value: unknown): value is PageCorruptError {
    return hasBrand(value, PageCorruptError);
  }
}

/** Bytes around an entry's payload: its length before, its check after. */
const FRAME_BYTES = 8;
/** Bytes one target takes at least: an empty name's length, the delivery count, the time. */
const MIN_TARGET_BYTES = 4 + 4 + 8;

/**
 * Writes one framed entry at the end of `writer` (big-endian): u32 payload length, the payload
 * (the targets, then the message as the wire encodes it), u32 check of the length and payload.
 */
export function writePageEntry(writer: BufferWriter, entry: PageEntry): void {
  const start = writer.length;
  writer.writeInt(0);
  writer.writeInt(entry.targets.length);
  for (const { queueName, deliveryCount, scheduledTime } of entry.targets) {
    writer.writeSimpleString(queueName);
    writer.writeInt(deliveryCount);
    writer.writeLong(scheduledTime);
  }
  entry.message.encode(writer);
  writer.patchInt(start, writer.length - start - 4);
  const framed = writer.toBuffer();
  // As a signed int: the writer's ints are Java's.
  writer.writeInt(pageChecksum(framed.subarray(start, writer.length)) | 0);
}

/** An entry's targets, read and checked without decoding its message (see readPageEntryHeader). */
export interface PageEntryHeader {
  targets: PagedTarget[];
  /** Where the next entry starts. */
  next: number;
  /** Where the entry's message starts and its payload ends. */
  messageStart: number;
  end: number;
}

/**
 * Reads the entry framed at `offset` of a page; returns it and where the next one starts. The
 * message is copied out of the page (a detached read), so that the page's buffer can go as soon as
 * it has been read, whatever becomes of its messages.
 */
export function readPageEntry(
  page: Buffer,
  offset: number,
  file: string,
): { entry: PageEntry; next: number } {
  const header = readPageEntryHeader(page, offset, file);
  return {
    entry: { message: readPageMessage(page, header, offset, file), targets: header.targets },
    next: header.next,
  };
}

/**
 * Checks the entry framed at `offset` and reads its targets only: a queue's cursor passes over
 * the entries of other queues without decoding their messages.
 */
export function readPageEntryHeader(page: Buffer, offset: number, file: string): PageEntryHeader {
  if (page.length - offset < FRAME_BYTES)
    throw new PageCorruptError(file, offset, `${page.length - offset} bytes left, too few for an entry`);
  const length = page.readUInt32BE(offset);
  const end = offset + 4 + length;
  if (end + 4 > page.length)
    throw new PageCorruptError(
      file,
      offset,
      `entry length ${length} runs past the page's ${page.length} bytes`,
    );
  const expected = page.readUInt32BE(end);
  const actual = pageChecksum(page.subarray(offset, end)) >>> 0;
  if (actual !== expected)
    throw new PageCorruptError(
      file,
      offset,
      `checksum ${hex(actual)} does not match the stored ${hex(expected)}`,
    );
  try {
    const reader = new BufferReader(page, offset + 4, end, true);
    const targets = decodeTargets(reader);
    return { targets, next: end + 4, messageStart: reader.position, end };
  } catch (error) {
    throw undecodable(file, offset, error);
  }
}

/** Decodes the message of an entry whose header readPageEntryHeader read at `offset`. */
export function readPageMessage(
  page: Buffer,
  header: PageEntryHeader,
  offset: number,
  file: string,
): CoreMessage {
  try {
    const reader = new BufferReader(page, header.messageStart, header.end, true);
    const message = CoreMessage.decode(reader);
    reader.expectEnd('a page entry');
    return message;
  } catch (error) {
    throw undecodable(file, offset, error);
  }
}

function undecodable(file: string, offset: number, error: unknown): PageCorruptError {
  const reason = error instanceof Error ? error.message : String(error);
  return new PageCorruptError(file, offset, `the entry does not decode (${reason})`);
}

function decodeTargets(reader: BufferReader): PagedTarget[] {
  const count = reader.readCount('page entry target', MIN_TARGET_BYTES);
  const targets: PagedTarget[] = [];
  for (let i = 0; i < count; i++) {
    targets.push({
      queueName: reader.readSimpleString(),
      deliveryCount: reader.readInt(),
      scheduledTime: reader.readLong(),
    });
  }
  return targets;
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`;
}
