import type { BufferReader } from './buffer-reader';
import type { BufferWriter } from './buffer-writer';
import { ProtocolError } from './protocol-error';
import { simpleStringBytes } from './short-strings';
import { TypedProperties } from './typed-properties';
import { USER_ID_BYTES, userIdFromHex, writeUserIdBytes } from './user-id';
import { WireImage } from './wire-image';

/** Message body types, HornetQ's numbers (Message.DEFAULT_TYPE … STREAM_TYPE). */
export const MessageType = {
  DEFAULT: 0,
  OBJECT: 2,
  TEXT: 3,
  BYTES: 4,
  MAP: 5,
  STREAM: 6,
} as const;

/**
 * Where HornetQ's messages start in a frame (after its 13-byte header): the offsets a message
 * carries count from the frame's first byte, so they are this much more than offsets into the
 * message. Our encoder and decoder add it, wherever the message lies (a frame, a journal record).
 */
export const MESSAGE_START_OFFSET = 13;
/** The endOfBodyPosition of a message with an empty body (MessageImpl.BODY_OFFSET). */
const BODY_OFFSET = MESSAGE_START_OFFSET + 4;
/** The two position ints, endOfBodyPosition before the body and endOfMessagePosition after it. */
const POSITION_BYTES = 4 + 4;

/** Header bytes besides the address and the user id: id, two markers, type, durable, two times, priority. */
const FIXED_HEADER_BYTES = 8 + 1 + 1 + 1 + 1 + 8 + 8 + 1;

/**
 * Heap bytes a received message costs besides its encoding and its properties, measured with
 * bench/message-memory.mjs (Node 20, 64-bit): the CoreMessage, its TypedProperties, its WireImage,
 * the Buffer objects of its kept encoding and of its body, and the broker's RoutedMessage.
 */
export const MESSAGE_MEMORY_OVERHEAD = 1024;

/**
 * A message as the core layer moves it: headers, typed properties and an opaque body. The broker
 * assigns `messageId` when it routes the message; the JMS layer maps its headers onto these fields.
 */
export class CoreMessage {
  messageId = 0;
  address = '';
  type: number = MessageType.DEFAULT;
  durable = false;
  /** Epoch ms after which the message expires; 0 means never. */
  expiration = 0;
  timestamp = 0;
  /** 0 (lowest) … 9 (highest). */
  priority = 4;
  /**
   * The client-chosen unique id (JMSMessageID without 'ID:'), a lowercase UUID (see user-id.ts:
   * newUserId), or null when disabled. Encoding any other string is a RangeError.
   */
  userId: string | null = null;
  properties = new TypedProperties();
  body: Buffer = EMPTY;
  /** How the message arrived, while it still says the same (see WireImage); null if built here. */
  private wire: WireImage | null = null;

  /**
   * Exactly the bytes `encode` writes: HornetQ's getEncodeSize() (4 + body + 4 + headers and
   * properties), which is what a producer acquires producer credits for and what `HQSize` is.
   * Consumer credits count whole frames instead (see deliveryFrameBytes).
   */
  encodedSize(): number {
    const wire = this.currentWire();
    if (wire !== null) return wire.length;
    return POSITION_BYTES + this.body.length + this.headersAndPropertiesSize();
  }

  /** Exactly the bytes `encodeHeadersAndProperties` writes: a large message's head. */
  headersAndPropertiesSize(): number {
    const address = this.address === '' ? 0 : 4 + simpleStringBytes(this.address);
    const userId = this.userId === null ? 0 : USER_ID_BYTES;
    return FIXED_HEADER_BYTES + address + userId + this.properties.encodedSize();
  }

  /**
   * At least what this message costs in memory once the broker holds it (HornetQ's
   * getMemoryEstimate), which is what an address' max-size-bytes bounds: the copy of the bytes it
   * arrived as (its body is a view of them), its decoded properties, which cost several times
   * their encoding, and its address and user id as strings (two bytes a character at most). A
   * message built or changed here holds no more than if it had arrived as it is now (a moved copy
   * shares its original's body), so the same count bounds it. Walks the properties once, as
   * decoding them did.
   */
  memoryEstimate(): number {
    const strings = 2 * (this.address.length + (this.userId?.length ?? 0));
    return MESSAGE_MEMORY_OVERHEAD + this.encodedSize() + this.properties.memoryEstimate() + strings;
  }

  /** A copy whose properties can change without touching the original (routing to several queues). */
  copy(): CoreMessage {
    const copy = new CoreMessage();
    copy.messageId = this.messageId;
    copy.address = this.address;
    copy.type = this.type;
    copy.durable = this.durable;
    copy.expiration = this.expiration;
    copy.timestamp = this.timestamp;
    copy.priority = this.priority;
    copy.userId = this.userId;
    copy.properties = this.properties.copy();
    copy.body = this.body;
    copy.wire = this.wire;
    return copy;
  }

  /**
   * HornetQ's layout (MessageImpl): endOfBodyPosition, the body, endOfMessagePosition, then the
   * headers and properties; both positions as if the message began at MESSAGE_START_OFFSET.
   * @internal (the packet codec)
   */
  encode(writer: BufferWriter): void {
    const start = writer.length;
    const wire = this.currentWire();
    if (wire !== null) {
      writer.writeRaw(wire.source, wire.start, wire.end);
      writer.patchLong(start + wire.messageIdOffset, this.messageId);
      return;
    }
    writer.writeInt(BODY_OFFSET + this.body.length);
    writer.writeRaw(this.body);
    const endOfMessageAt = writer.length;
    writer.writeInt(0);
    this.encodeHeadersAndProperties(writer);
    writer.patchInt(endOfMessageAt, MESSAGE_START_OFFSET + writer.length - start);
  }

  /**
   * The headers and properties alone: what follows the body in `encode`, and all a large
   * message's head carries (SESS_SEND_LARGE, SESS_RECEIVE_LARGE_MSG). An empty address travels
   * as HornetQ's null address (no address routes as '').
   * @internal (large messages)
   */
  encodeHeadersAndProperties(writer: BufferWriter): void {
    writer.writeLong(this.messageId);
    if (this.address === '') {
      writer.writeByte(ABSENT);
    } else {
      writer.writeByte(PRESENT);
      writer.writeRecurringSimpleString(this.address);
    }
    if (this.userId === null) {
      writer.writeByte(ABSENT);
    } else {
      writer.writeByte(PRESENT);
      writer.writeFixed(USER_ID_BYTES, this.userId, writeUserIdBytes);
    }
    writer.writeByte(this.type);
    writer.writeBoolean(this.durable);
    writer.writeLong(this.expiration);
    writer.writeLong(this.timestamp);
    writer.writeByte(this.priority);
    this.properties.encode(writer);
  }

  /**
   * Reads a message without copying it: the body is a view of the frame, and the message keeps
   * the frame's bytes to re-send them as they are while nothing changes. Like the payloads of most
   * Node protocol libraries, a received message therefore shares memory with the socket read it
   * came in (at most 64 KiB, held while any message from it is), unless the reader detaches (the
   * broker's do): then the message's bytes are copied once, and the body is a view of the copy.
   * Reads what HornetQ's packet decoder reads, whose endOfMessagePosition it skips; one that
   * disagrees with where the properties end is not kept for re-sending (a HornetQ server that
   * journals those bytes trusts it on restart), so the message is encoded afresh.
   * @internal (the packet codec)
   */
  static decode(reader: BufferReader): CoreMessage {
    const start = reader.position;
    const endOfBody = reader.readInt();
    const bodyLength = endOfBody - BODY_OFFSET;
    if (bodyLength < 0 || bodyLength > reader.remaining - 4) {
      throw new ProtocolError(
        `message endOfBodyPosition ${endOfBody} is outside the message (a body of ${reader.remaining} bytes at most)`,
      );
    }
    reader.skip(bodyLength);
    const endOfMessage = reader.readInt();
    const message = CoreMessage.decodeHeadersAndProperties(reader);
    const length = reader.position - start;
    const source = reader.keepFrom(start);
    const base = reader.detaching ? 0 : start;
    message.body = source.subarray(base + 4, base + 4 + bodyLength);
    if (endOfMessage === MESSAGE_START_OFFSET + length) {
      message.wire = new WireImage(source, base, base + length, 4 + bodyLength + 4, message);
    }
    return message;
  }

  /**
   * Reads what encodeHeadersAndProperties wrote: a message with an empty body.
   * @internal (large messages)
   */
  static decodeHeadersAndProperties(reader: BufferReader): CoreMessage {
    const message = new CoreMessage();
    message.messageId = reader.readLong();
    message.address = reader.readByte() === ABSENT ? '' : reader.readRecurringSimpleString();
    // HornetQ takes the 16 bytes only after exactly NOT_NULL (1).
    if (reader.readByte() === PRESENT) message.userId = userIdFromHex(reader.readHex(USER_ID_BYTES));
    message.type = reader.readByte();
    message.durable = reader.readBoolean();
    message.expiration = reader.readLong();
    message.timestamp = reader.readLong();
    message.priority = reader.readByte();
    if (message.priority > 9) throw new ProtocolError(`message priority ${message.priority} is not in 0..9`);
    message.properties.decodeFrom(reader);
    return message;
  }

  private currentWire(): WireImage | null {
    const wire = this.wire;
    if (wire === null || wire.describes(this)) return wire;
    this.wire = null;
    return null;
  }
}

const EMPTY = Buffer.alloc(0);
/** DataConstants.NULL / NOT_NULL: the marker before the address and the user id. */
const ABSENT = 0;
const PRESENT = 1;
