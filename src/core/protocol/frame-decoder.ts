import type { InputBudget } from './input-budget';
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
 * What a HornetQ client writes on a new TCP connection before its first frame (NettyConnector): a
 * broker that listens for several protocols picks the core protocol by it (Artemis' HORNETQ
 * acceptor among them), ours skips it. In-VM links carry none, as HornetQ's in-VM connector.
 */
export const HORNETQ_PREAMBLE = Buffer.from('HORNETQ', 'ascii');
/** What a native ActiveMQ Artemis client writes instead, whose protocol is not HornetQ 2.4's. */
export const ARTEMIS_PREAMBLE = Buffer.from('ARTEMIS', 'ascii');
const PREAMBLE_BYTES = 7;

/**
 * Splits a byte stream into frames (each returned whole, length field included). A frame that
 * announces more than `maxFrameBytes` is refused before any of it is buffered. A frame that lies
 * within one chunk is returned as a view of that chunk; a frame split across chunks is assembled
 * into one buffer of exactly its size. That buffer grows with the bytes that arrive rather than
 * being sized by the length field: a peer that announces big frames and sends a few bytes of each
 * then costs what it sent, not `maxFrameBytes` per connection. With a shared `budget`, every
 * byte set aside for an unfinished frame is taken from it first, and a frame that does not fit is
 * a ProtocolError that says so (the broker closes that connection); release() gives back what the
 * decoder holds when its connection goes.
 */
export class FrameDecoder {
  private header = Buffer.alloc(4);
  private headerFilled = 0;
  private partial: Buffer | null = null;
  private partialFilled = 0;
  /** The size of the frame in `partial` (which may be smaller until its bytes arrive). */
  private partialTotal = 0;
  /** Bytes of a preamble seen so far while one may still come (see acceptPreamble), else null. */
  private preamble: Buffer | null = null;
  private preambleFilled = 0;

  constructor(
    public maxFrameBytes = DEFAULT_MAX_FRAME_BYTES,
    private readonly budget: InputBudget | null = null,
  ) {}

  /** Drops the unfinished frame, giving its memory back to the budget (its connection has gone). */
  release(): void {
    this.budget?.give(this.partial?.length ?? 0);
    this.partial = null;
    this.partialFilled = 0;
    this.headerFilled = 0;
  }

  /**
   * Lets the stream start with HornetQ's 7-byte preamble, which is then skipped (a broker calls
   * this before feeding a new connection). A stream may also start with a frame at once. One that
   * starts with Artemis' preamble is a ProtocolError that says so. Call it before the first feed.
   */
  acceptPreamble(): void {
    this.preamble = Buffer.alloc(PREAMBLE_BYTES);
    this.preambleFilled = 0;
  }

  /** Bytes received of a frame not yet complete. */
  get bufferedBytes(): number {
    return this.headerFilled + this.partialFilled;
  }

  /** The whole size (length field included) of the frame not yet complete, or 0 when none is begun. */
  get incompleteFrameBytes(): number {
    return this.partial === null ? 0 : this.partialTotal;
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
    let offset = this.preamble === null ? 0 : this.takePreamble(chunk);
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

  /**
   * Takes what the chunk has of a preamble; returns where frames start in it. A frame's length
   * starts with a small byte (frames are far below 1 GiB) and a preamble with a capital letter, so
   * the first byte decides; the rest must then spell one of the two preambles.
   */
  private takePreamble(chunk: Buffer): number {
    const preamble = this.preamble as Buffer;
    if (this.preambleFilled === 0 && chunk.length > 0 && !startsPreamble(chunk[0] as number)) {
      this.preamble = null;
      return 0;
    }
    const take = Math.min(PREAMBLE_BYTES - this.preambleFilled, chunk.length);
    chunk.copy(preamble, this.preambleFilled, 0, take);
    this.preambleFilled += take;
    if (this.preambleFilled < PREAMBLE_BYTES) return take;
    this.preamble = null;
    if (preamble.equals(HORNETQ_PREAMBLE)) return take;
    if (preamble.equals(ARTEMIS_PREAMBLE)) {
      throw new ProtocolError(
        "the peer is a native ActiveMQ Artemis client (preamble 'ARTEMIS'): this broker speaks HornetQ 2.4's core protocol; use a HornetQ 2.4 client",
      );
    }
    throw new ProtocolError(
      `the stream starts with neither a frame nor the HORNETQ preamble (0x${preamble.toString('hex')})`,
    );
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
    const size = Math.min(total, FIRST_PARTIAL_BYTES);
    this.take(size, total, 0);
    this.partial = Buffer.allocUnsafe(size);
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
      // The whole frame belongs to the packet made of it from now on (what keeps a message is bounded elsewhere).
      this.budget?.give(partial.length);
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
    const size = Math.min(this.partialTotal, Math.max(bytes, partial.length * 2));
    this.take(size - partial.length, this.partialTotal, this.partialFilled);
    const grown = Buffer.allocUnsafe(size);
    partial.copy(grown, 0, 0, this.partialFilled);
    this.partial = grown;
    return grown;
  }

  /** Takes `bytes` more for the frame of `total` bytes (`received` so far) from the budget, or refuses it. */
  private take(bytes: number, total: number, received: number): void {
    if (this.budget === null || this.budget.tryTake(bytes)) return;
    throw new ProtocolError(
      `input held in unfinished frames across all connections would exceed ${this.budget.limitBytes} bytes (max-unfinished-frame-bytes; ${this.budget.heldBytes} held): a frame of ${total} bytes, ${received} of them received, is refused`,
    );
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

/** The first bytes of HORNETQ_PREAMBLE and ARTEMIS_PREAMBLE. */
function startsPreamble(byte: number): boolean {
  return byte === (HORNETQ_PREAMBLE[0] as number) || byte === (ARTEMIS_PREAMBLE[0] as number);
}
