import { BufferWriter } from './buffer-writer';

/** The first slab: an idle connection (pings, a few calls) never needs more. */
const FIRST_SLAB_BYTES = 4 * 1024;
/** The largest slab: about sixty 1 KiB messages, about what one socket write takes at a time. */
const MAX_SLAB_BYTES = 64 * 1024;

/**
 * Room for outgoing frames, carved from large slabs. A Buffer of its own costs each frame an
 * allocation (and, with many per second, garbage collection); frames carved one after another
 * from a slab cost nothing each, and frames written in order lie side by side, so a transport can
 * hand a whole batch to the socket as one view. A slab is never written twice: a frame stays valid
 * as long as anything holds it (a resend buffer, a socket's queue), and the slab goes with the
 * last of its frames. Slabs start small and double each time one fills, so that a thousand idle
 * connections hold little and a busy one allocates rarely.
 */
export class FrameSlab {
  private slabBytes = FIRST_SLAB_BYTES;
  private slab = EMPTY;
  private used = 0;

  constructor(private readonly maxSlabBytes = MAX_SLAB_BYTES) {}

  /**
   * A writer for one frame of about `expectedBytes`. A frame too large to share a slab gets a
   * buffer of its own; a writer that outgrows its room moves to one by itself.
   */
  writer(expectedBytes: number): BufferWriter {
    if (expectedBytes > this.maxSlabBytes / 4) return new BufferWriter(expectedBytes);
    if (this.slab.length - this.used < expectedBytes) this.startSlab(expectedBytes);
    return new BufferWriter(0, this.slab, this.used);
  }

  /** The frame `writer` wrote; the slab's free part starts after it. */
  take(writer: BufferWriter): Buffer {
    const frame = writer.toBuffer();
    if (writer.writesInto(this.slab)) this.used = frame.byteOffset - this.slab.byteOffset + frame.length;
    return frame;
  }

  private startSlab(expectedBytes: number): void {
    if (this.slab !== EMPTY) this.slabBytes = Math.min(this.slabBytes * 2, this.maxSlabBytes);
    this.slab = Buffer.allocUnsafeSlow(Math.max(this.slabBytes, expectedBytes));
    this.used = 0;
  }
}

const EMPTY = Buffer.alloc(0);
