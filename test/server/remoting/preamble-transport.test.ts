import type { Transport, TransportHandlers } from '../../../src/core/remoting';
import { PreambleTransport } from '../../../src/server/remoting/preamble-transport';
import { CapturingLogger } from '../../support/test-broker';

/** A transport the test feeds by hand, recording what its owner is given and whether it was destroyed. */
class FedTransport implements Transport {
  readonly remoteAddress = 'tcp://127.0.0.1:4242';
  readonly pendingBytes = 0;
  closed = false;
  destroyedWith: Error | undefined | null = null;
  private handlers: TransportHandlers | null = null;

  setHandlers(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }
  feed(bytes: Buffer): void {
    this.handlers?.onData(bytes);
  }
  write(): void {}
  pauseReading(): void {}
  resumeReading(): void {}
  close(): void {
    this.closed = true;
  }
  destroy(error?: Error): void {
    this.closed = true;
    this.destroyedWith = error;
    this.handlers?.onClose(error);
  }
}

function wrapped(): {
  inner: FedTransport;
  received: Buffer[];
  closes: Array<Error | undefined>;
  logger: CapturingLogger;
} {
  const inner = new FedTransport();
  const logger = new CapturingLogger();
  const transport = new PreambleTransport(inner, logger);
  const received: Buffer[] = [];
  const closes: Array<Error | undefined> = [];
  transport.setHandlers({
    onData: (chunk) => received.push(Buffer.from(chunk)),
    onClose: (error) => closes.push(error),
  });
  return { inner, received, closes, logger };
}

/** A frame header as a frame starts: its length (small), then anything. */
const FRAME = Buffer.from([0, 0, 0, 9, 10, 0, 0, 0, 0, 0, 0, 0, 0]);

describe('PreambleTransport', () => {
  it('takes a leading HORNETQ off the stream and passes the frames after it unchanged', () => {
    const setup = wrapped();
    setup.inner.feed(Buffer.concat([Buffer.from('HORNETQ'), FRAME]));
    setup.inner.feed(FRAME);
    expect(Buffer.concat(setup.received).equals(Buffer.concat([FRAME, FRAME]))).toBe(true);
  });

  it('recognises the preamble split across reads, one byte at a time', () => {
    const setup = wrapped();
    for (const byte of Buffer.concat([Buffer.from('HORNETQ'), FRAME])) setup.inner.feed(Buffer.from([byte]));
    expect(Buffer.concat(setup.received).equals(FRAME)).toBe(true);
  });

  it('passes a stream without a preamble as it is (a frame never starts with a preamble byte)', () => {
    const setup = wrapped();
    setup.inner.feed(FRAME.subarray(0, 2));
    setup.inner.feed(FRAME.subarray(2));
    expect(Buffer.concat(setup.received).equals(FRAME)).toBe(true);
  });

  it('passes bytes that only start like the preamble to the decoder, which refuses them as a frame', () => {
    const setup = wrapped();
    setup.inner.feed(Buffer.from('HORNEXX'));
    expect(Buffer.concat(setup.received).toString('latin1')).toBe('HORNEXX');
  });

  it('refuses a native Artemis client (ARTEMIS) with a clear log line and closes the link', () => {
    const setup = wrapped();
    setup.inner.feed(Buffer.from('ARTE'));
    expect(setup.inner.closed).toBe(false);
    setup.inner.feed(Buffer.concat([Buffer.from('MIS'), FRAME]));
    expect(setup.received).toEqual([]);
    expect(setup.inner.closed).toBe(true);
    expect(setup.closes).toHaveLength(1);
    expect(
      setup.logger.find(/ARTEMIS preamble of a native ActiveMQ Artemis core client/, ['warn']),
    ).toHaveLength(1);
  });
});
