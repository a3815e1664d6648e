import { ProtocolError } from './protocol-error';

/** Length field (4) + type (1) + channel id (8). */
export const FRAME_HEADER_BYTES = 13;
/** The smallest legal value of the length field: type + channel id. */
const MIN_FRAME_LENGTH = 9;
export const DEFAULT_MAX_FRAME_BYTES = 10 * 1024 * 1024;
/** Until a session is authenticated a peer may send only small handshake frames. */
export const DEFAULT_PRE_AUTH_MAX_FRAME_BYTES = 16 * 1024;
/** What a frame split across chunks starts with: one socket read's worth. */
const FIRST_PARTIAL_BYTES = 64 * 1024;

/**
 * Splits a byte stream into frames (each returned whole, length field included). A frame that
 * announces more than `maxFrameBytes` is refused before any of it is buffered. A frame that lies
 * within one chunk is returned as a view of that chunk; a frame split across chunks is assembled
 * into one buffer of exactly its size. That buffer grows with the bytes that arrive rather than
 * being sized by the length field: a peer that announces big frames and sends a few bytes of each
 * then costs what it sent, not `maxFrameBytes` per connection.
 */
export class FrameDecoder {
  private header = Buffer.alloc(4);
  private headerFilled = 0;
  private partial: Buffer | null = null;
  private partialFilled = 0;
  /** The size of the frame in `partial` (which may be smaller until its bytes arrive). */
  private partialTotal = 0;

  constructor(public maxFrameBytes = DEFAULT_MAX_FRAME_BYTES) {}

  /** Bytes received of a frame not yet complete. */
  get bufferedBytes(): number {
    return this.headerFilled + this.partialFilled;
  }

  /** Memory set aside for the frame not yet complete: at most about twice what has arrived of it. */
  get heldBytes(): number {
    return this.partial?.length ?? 0;
  }

  feed(chunk: Buffer, onFrame: (frame: Buffer) => void): void {
    this.feedRegions(chunk, (buffer, start, end) => onFrame(buffer.subarray(start, end)));
  }

  /**
   * As feed(), but each frame is given as the buffer that holds it and where it lies in it, so
   * that the hot path creates no view per frame (see decodeFrameAt).
   */
  feedRegions(chunk: Buffer, onFrame: (buffer: Buffer, start: number, end: number) => void): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.partial !== null) {
        offset = this.fillPartial(chunk, offset, onFrame);
      } else if (this.headerFilled > 0 || chunk.length - offset < 4) {
        offset = this.fillHeader(chunk, offset);
      } else {
        const total = 4 + this.checkLength(chunk.readInt32BE(offset));
        if (chunk.length - offset >= total) {
          onFrame(chunk, offset, offset + total);
          offset += total;
        } else {
          this.startPartial(total);
        }
      }
    }
  }

  private fillHeader(chunk: Buffer, offset: number): number {
    const take = Math.min(4 - this.headerFilled, chunk.length - offset);
    chunk.copy(this.header, this.headerFilled, offset, offset + take);
    this.headerFilled += take;
    if (this.headerFilled === 4) {
      this.startPartial(4 + this.checkLength(this.header.readInt32BE(0)));
      this.header.copy(this.partial as Buffer, 0, 0, 4);
      this.partialFilled = 4;
      this.headerFilled = 0;
      return offset + take;
    }
    return offset + take;
  }

  private startPartial(total: number): void {
    this.partial = Buffer.allocUnsafe(Math.min(total, FIRST_PARTIAL_BYTES));
    this.partialFilled = 0;
    this.partialTotal = total;
  }

  private fillPartial(
    chunk: Buffer,
    offset: number,
    onFrame: (buffer: Buffer, start: number, end: number) => void,
  ): number {
    const take = Math.min(this.partialTotal - this.partialFilled, chunk.length - offset);
    const partial = this.roomFor(this.partialFilled + take);
    chunk.copy(partial, this.partialFilled, offset, offset + take);
    this.partialFilled += take;
    if (this.partialFilled === this.partialTotal) {
      this.partial = null;
      this.partialFilled = 0;
      onFrame(partial, 0, partial.length);
    }
    return offset + take;
  }

  /**
   * The partial frame's buffer with room for `bytes`: grown by doubling (so the copies cost no
   * more than the frame once more), never past the frame's size, so a complete frame fills it.
   */
  private roomFor(bytes: number): Buffer {
    const partial = this.partial as Buffer;
    if (bytes <= partial.length) return partial;
    const grown = Buffer.allocUnsafe(Math.min(this.partialTotal, Math.max(bytes, partial.length * 2)));
    partial.copy(grown, 0, 0, this.partialFilled);
    this.partial = grown;
    return grown;
  }

  private checkLength(length: number): number {
    if (length < MIN_FRAME_LENGTH) {
      throw new ProtocolError(`frame length ${length} is below the minimum of ${MIN_FRAME_LENGTH}`);
    }
    if (length + 4 > this.maxFrameBytes) {
      throw new ProtocolError(
        `frame of ${length + 4} bytes exceeds the maximum of ${this.maxFrameBytes} bytes`,
      );
    }
    return length;
  }
}
