import type { Transport, TransportHandlers } from '../remoting';

/** Enough to name what a peer speaks: 'HTTP', 'SSH-', '220 ' (SMTP)... */
const KEPT_BYTES = 4;

/**
 * A transport that keeps the first bytes the peer sent, so that a connection which fails on them
 * (they are not a HornetQ frame) can say what answered instead of a broker.
 */
export class FirstBytesTransport implements Transport {
  private first = Buffer.alloc(0);

  constructor(private readonly inner: Transport) {}

  /** The first bytes as text when they are printable ASCII, else in hex; null before any came. */
  get firstBytes(): string | null {
    if (this.first.length === 0) return null;
    const printable = [...this.first].every((byte) => byte >= 0x20 && byte <= 0x7e);
    return printable ? this.first.toString('latin1') : `0x${this.first.toString('hex')}`;
  }

  /** The first bytes themselves (up to four), empty before any came. */
  get firstBytesReceived(): Buffer {
    return this.first;
  }

  get remoteAddress(): string {
    return this.inner.remoteAddress;
  }

  get pendingBytes(): number {
    return this.inner.pendingBytes;
  }

  get closed(): boolean {
    return this.inner.closed;
  }

  setHandlers(handlers: TransportHandlers): void {
    this.inner.setHandlers({
      onData: (chunk) => {
        if (this.first.length < KEPT_BYTES) {
          this.first = Buffer.concat([this.first, chunk.subarray(0, KEPT_BYTES - this.first.length)]);
        }
        handlers.onData(chunk);
      },
      onClose: (error) => handlers.onClose(error),
      onDrain: () => handlers.onDrain?.(),
    });
  }

  write(frame: Buffer): void {
    this.inner.write(frame);
  }

  pauseReading(): void {
    this.inner.pauseReading();
  }

  resumeReading(): void {
    this.inner.resumeReading();
  }

  close(): void {
    this.inner.close();
  }

  destroy(error?: Error): void {
    this.inner.destroy(error);
  }
}
