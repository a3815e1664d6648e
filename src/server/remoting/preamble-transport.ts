import { ARTEMIS_PREAMBLE, HORNETQ_PREAMBLE } from '../../core/protocol/frame-decoder';
import type { Logger, Transport, TransportHandlers } from '../../core/remoting';

const PREAMBLE_BYTES = HORNETQ_PREAMBLE.length;

/**
 * A transport that takes a leading `HORNETQ` off what its peer sends, as a HornetQ 2.4 server
 * does (the preamble is optional there too), and refuses a peer that starts with `ARTEMIS` (a
 * native Artemis client, which would speak a later protocol) with a log line and a closed link.
 *
 * Why this cannot be confused with a frame: a frame starts with its length, and 'H' or 'A' as its
 * first byte would announce more than a gigabyte, which no frame may be. So the first byte alone
 * tells a preamble from a frame, and the bytes of a preamble split across reads are held until
 * the seventh (at most 7 bytes, once per connection).
 *
 * FrameDecoder.acceptPreamble does the same inside the decoder, but RemotingConnection owns each
 * connection's decoder and has no option to call it: once it has one, the broker uses that instead.
 */
export class PreambleTransport implements Transport {
  private held = Buffer.alloc(0);
  /** Until the start of the stream is known to be a frame or a preamble. */
  private deciding = true;

  constructor(
    private readonly inner: Transport,
    private readonly logger: Logger,
  ) {}

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
      onData: (chunk) => this.onData(chunk, handlers),
      onClose: (error) => handlers.onClose(error),
      ...(handlers.onDrain === undefined ? {} : { onDrain: () => handlers.onDrain?.() }),
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

  private onData(chunk: Buffer, handlers: TransportHandlers): void {
    if (!this.deciding) {
      handlers.onData(chunk);
      return;
    }
    const start = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    const candidate = start.subarray(0, PREAMBLE_BYTES);
    if (isPrefixOf(candidate, HORNETQ_PREAMBLE)) {
      if (start.length < PREAMBLE_BYTES) {
        this.held = Buffer.from(start);
        return;
      }
      this.decided();
      if (start.length > PREAMBLE_BYTES) handlers.onData(start.subarray(PREAMBLE_BYTES));
      return;
    }
    if (isPrefixOf(candidate, ARTEMIS_PREAMBLE)) {
      if (start.length < PREAMBLE_BYTES) {
        this.held = Buffer.from(start);
        return;
      }
      this.decided();
      this.refuseArtemis();
      return;
    }
    // Not a preamble: the peer (our in-VM client, an older one) starts with its first frame.
    this.decided();
    handlers.onData(start);
  }

  private decided(): void {
    this.deciding = false;
    this.held = Buffer.alloc(0);
  }

  private refuseArtemis(): void {
    this.logger.warn(
      { remote: this.inner.remoteAddress, preamble: 'ARTEMIS' },
      `refusing the connection from ${this.inner.remoteAddress}: it opened with the ARTEMIS preamble of a native ActiveMQ Artemis core client; this broker speaks HornetQ 2.4's core protocol (an Artemis client connects through its HornetQ protocol support, or to an Artemis broker)`,
    );
    this.inner.destroy(new Error('native Artemis core clients are not supported (ARTEMIS preamble)'));
  }
}

/** True when `bytes` (at most as long as `preamble`) are the start of `preamble`. */
function isPrefixOf(bytes: Buffer, preamble: Buffer): boolean {
  return bytes.length > 0 && bytes.equals(preamble.subarray(0, bytes.length));
}
