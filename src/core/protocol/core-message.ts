import type { BufferReader } from './buffer-reader';
import type { BufferWriter } from './buffer-writer';
import { ProtocolError } from './protocol-error';
import { TypedProperties } from './typed-properties';
import { utf8Length } from './short-strings';
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
 * Bytes of a message's fixed fields: id, address length, type, durable, expiration, timestamp,
 * priority, user-id flag, body length (the properties count their own).
 */
const FIXED_ENCODED_BYTES = 8 + 4 + 1 + 1 + 8 + 8 + 1 + 1 + 4;

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
  /** The client-chosen unique id (JMSMessageID without 'ID:'), or null when disabled. */
  userId: string | null = null;
  properties = new TypedProperties();
  body: Buffer = EMPTY;
  /** How the message arrived, while it still says the same (see WireImage); null if built here. */
  private wire: WireImage | null = null;

  /** Exactly the bytes `encode` writes: what producer and consumer credits count. */
  encodedSize(): number {
    const wire = this.currentWire();
    if (wire !== null) return wire.length;
    let size = FIXED_ENCODED_BYTES + utf8Length(this.address) + this.body.length;
    if (this.userId !== null) size += 4 + Buffer.byteLength(this.userId);
    return size + this.properties.encodedSize();
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

  encode(writer: BufferWriter): void {
    const wire = this.currentWire();
    if (wire !== null) {
      const start = writer.length;
      writer.writeRaw(wire.source, wire.start, wire.end);
      writer.patchLong(start, this.messageId);
      return;
    }
    writer.writeLong(this.messageId);
    writer.writeRecurringString(this.address);
    writer.writeByte(this.type);
    writer.writeBoolean(this.durable);
    writer.writeLong(this.expiration);
    writer.writeLong(this.timestamp);
    writer.writeByte(this.priority);
    writer.writeNullableString(this.userId);
    this.properties.encode(writer);
    writer.writeBytes(this.body);
  }

  /**
   * Reads a message without copying it: the body is a view of the frame, and the message keeps
   * the frame's bytes to re-send them as they are while nothing changes. Like the payloads of most
   * Node protocol libraries, a received message therefore shares memory with the socket read it
   * came in (at most 64 KiB, held while any message from it is), unless the reader detaches (the
   * broker's do): then the message's bytes are copied once, and the body is a view of the copy.
   */
  static decode(reader: BufferReader): CoreMessage {
    const start = reader.position;
    const message = new CoreMessage();
    message.messageId = reader.readLong();
    message.address = reader.readRecurringString();
    message.type = reader.readByte();
    message.durable = reader.readBoolean();
    message.expiration = reader.readLong();
    message.timestamp = reader.readLong();
    message.priority = reader.readByte();
    if (message.priority > 9) throw new ProtocolError(`message priority ${message.priority} is not in 0..9`);
    message.userId = reader.readNullableString();
    message.properties.decodeFrom(reader);
    const bodyStart = reader.skipBytes() - start;
    const end = reader.position;
    const source = reader.keepFrom(start);
    const base = reader.detaching ? 0 : start;
    message.body = source.subarray(base + bodyStart, base + end - start);
    message.wire = new WireImage(source, base, base + end - start, message);
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
