import { CoreMessage } from '../../../src/core/protocol/core-message';
import { HornetQException } from '../../../src/core/protocol/hornetq-exception';
import { encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type { Packet } from '../../../src/core/protocol/packets';
import { silentLogger } from '../../../src/core/remoting/logger';
import {
  FIRST_SESSION_CHANNEL,
  LARGE_FRAME_BYTES,
  RemotingConnection,
  type RemotingConnectionOptions,
} from '../../../src/core/remoting/remoting-connection';
import type { Transport, TransportHandlers } from '../../../src/core/remoting/transport';

/** A transport driven by the test: it feeds bytes in and sees what the connection writes. */
class FakeTransport implements Transport {
  readonly remoteAddress = 'fake://peer';
  pendingBytes = 0;
  readingPaused = false;
  handlers: TransportHandlers | null = null;
  written: Buffer[] = [];
  destroyed: Array<Error | undefined> = [];
  closeCalls = 0;

  get closed(): boolean {
    return this.closeCalls > 0 || this.destroyed.length > 0;
  }

  setHandlers(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }

  write(frame: Buffer): void {
    this.written.push(frame);
    this.pendingBytes += frame.length;
  }

  /** The peer takes everything written so far. */
  drain(): void {
    this.pendingBytes = 0;
    this.handlers?.onDrain?.();
  }

  pauseReading(): void {
    this.readingPaused = true;
  }

  resumeReading(): void {
    this.readingPaused = false;
  }

  close(): void {
    this.closeCalls++;
  }

  destroy(error?: Error): void {
    this.destroyed.push(error);
  }

  receive(chunk: Buffer): void {
    (this.handlers as TransportHandlers).onData(chunk);
  }
}

const CHANNEL = FIRST_SESSION_CHANNEL;
const WINDOWLESS = { confirmationWindowSize: -1, callTimeoutMs: 1000 };

function setUp(options: Partial<RemotingConnectionOptions> = {}): {
  transport: FakeTransport;
  conn: RemotingConnection;
  failures: HornetQException[];
} {
  const transport = new FakeTransport();
  const conn = new RemotingConnection(transport, { logger: silentLogger, ...options });
  const failures: HornetQException[] = [];
  conn.addFailureListener((error) => failures.push(error));
  return { transport, conn, failures };
}

function sendOfBodySize(bodyBytes: number): Packet {
  const message = new CoreMessage();
  message.address = 'jms.queue.q';
  message.body = Buffer.alloc(bodyBytes, 0x61);
  return { type: PacketType.SESS_SEND, message, requiresResponse: false };
}

/** A frame whose body is cut short, with the length field adjusted so the framing itself is valid. */
function truncatedFrame(): Buffer {
  const whole = encodePacket(CHANNEL, { type: PacketType.SESS_FLOWTOKEN, consumerId: 1, credits: 100 });
  const cut = Buffer.from(whole.subarray(0, whole.length - 2));
  cut.writeInt32BE(cut.length - 4, 0);
  return cut;
}

describe('RemotingConnection bad input', () => {
  it('a malformed frame fails the connection once, with UNSUPPORTED_PACKET', () => {
    const { transport, conn, failures } = setUp();
    const handled: Packet[] = [];
    conn.createChannel(CHANNEL, WINDOWLESS).setHandler((packet) => handled.push(packet));
    transport.receive(truncatedFrame());
    expect(failures).toHaveLength(1);
    expect(failures[0]?.code).toBe('UNSUPPORTED_PACKET');
    expect(failures[0]?.message).toMatch(/malformed SESS_FLOWTOKEN/);
    expect(conn.closed).toBe(true);
    expect(transport.destroyed).toEqual([failures[0]]);
    expect(handled).toEqual([]);

    // More bad input, or the transport closing, does not report the failure again.
    transport.receive(truncatedFrame());
    transport.receive(Buffer.from([0, 0, 0, 1, 0]));
    transport.handlers?.onClose(new Error('reset'));
    expect(failures).toHaveLength(1);
    expect(transport.destroyed).toHaveLength(1);
  });

  it('a frame length below the minimum fails the connection', () => {
    const { transport, failures } = setUp();
    transport.receive(Buffer.from([0, 0, 0, 3, 1, 2, 3]));
    expect(failures.map((f) => f.code)).toEqual(['UNSUPPORTED_PACKET']);
    expect(failures[0]?.message).toMatch(/below the minimum/);
  });

  it('an unknown packet type fails the connection', () => {
    const { transport, failures } = setUp();
    const frame = Buffer.alloc(13);
    frame.writeInt32BE(9, 0);
    frame.writeUInt8(200, 4);
    frame.writeBigInt64BE(BigInt(CHANNEL), 5);
    transport.receive(frame);
    expect(failures.map((f) => f.code)).toEqual(['UNSUPPORTED_PACKET']);
    expect(failures[0]?.message).toMatch(/200/);
  });

  it('a packet for a channel that does not exist fails the connection', () => {
    const { transport, conn, failures } = setUp();
    conn.createChannel(CHANNEL, WINDOWLESS).setHandler(() => undefined);
    transport.receive(encodePacket(CHANNEL + 5, { type: PacketType.SESS_START }));
    expect(failures).toHaveLength(1);
    expect(failures[0]?.code).toBe('UNSUPPORTED_PACKET');
    expect(failures[0]?.message).toMatch(/channel 15, which does not exist/);
  });

  it('drops a late confirmation for a channel it closed, and only a confirmation', () => {
    const { transport, conn, failures } = setUp();
    conn.createChannel(CHANNEL, WINDOWLESS).close();
    transport.receive(encodePacket(CHANNEL, { type: PacketType.PACKETS_CONFIRMED, commandId: 1023 }));
    expect(failures).toEqual([]);
    transport.receive(encodePacket(CHANNEL, { type: PacketType.SESS_START }));
    expect(failures.map((f) => f.message)).toEqual([
      expect.stringMatching(/SESS_START.*channel 10, which does not exist/),
    ]);
  });

  // HornetQ's Java client flushes a session's confirmations on its new connection as soon as it
  // moves the channel there, before the REATTACH_SESSION that moves the session on the broker.
  it('drops a confirmation for a channel not open yet, and the channel opened after it works', () => {
    const { transport, conn, failures } = setUp();
    transport.receive(encodePacket(CHANNEL, { type: PacketType.PACKETS_CONFIRMED, commandId: 7 }));
    expect(failures).toEqual([]);
    const received: number[] = [];
    conn.createChannel(CHANNEL, WINDOWLESS).setHandler((packet) => received.push(packet.type));
    transport.receive(encodePacket(CHANNEL, { type: PacketType.SESS_START }));
    expect(received).toEqual([PacketType.SESS_START]);
    expect(failures).toEqual([]);
  });

  it('gives packets for unopened channels below the session range to the unrouted handler only', () => {
    const { transport, conn, failures } = setUp();
    const unrouted: Array<[number, number]> = [];
    conn.setUnroutedHandler((packet, channelId) => unrouted.push([packet.type, channelId]));
    transport.receive(encodePacket(0, { type: PacketType.PING, connectionTtl: 60000 }));
    transport.receive(encodePacket(1, { type: PacketType.DISCONNECT, nodeId: null }));
    expect(unrouted).toEqual([
      [PacketType.PING, 0],
      [PacketType.DISCONNECT, 1],
    ]);
    expect(failures).toEqual([]);
    transport.receive(encodePacket(CHANNEL, { type: PacketType.SESS_START }));
    expect(unrouted).toHaveLength(2);
    expect(failures.map((f) => f.code)).toEqual(['UNSUPPORTED_PACKET']);
  });

  it('a handler that throws fails the connection with INTERNAL_ERROR', () => {
    const { transport, conn, failures } = setUp();
    const cause = new Error('handler broke');
    conn.createChannel(CHANNEL, WINDOWLESS).setHandler(() => {
      throw cause;
    });
    transport.receive(encodePacket(CHANNEL, { type: PacketType.SESS_START }));
    expect(failures).toHaveLength(1);
    expect(failures[0]?.code).toBe('INTERNAL_ERROR');
    expect(failures[0]?.cause).toBe(cause);
  });

  it('refuses a frame over the pre-authentication cap from its header alone', () => {
    const { transport, conn, failures } = setUp({ preAuthMaxFrameBytes: 1024 });
    const handled: Packet[] = [];
    conn.createChannel(CHANNEL, WINDOWLESS).setHandler((packet) => handled.push(packet));
    const frame = encodePacket(CHANNEL, sendOfBodySize(2000));
    transport.receive(frame.subarray(0, 13));
    expect(failures).toHaveLength(1);
    expect(failures[0]?.code).toBe('UNSUPPORTED_PACKET');
    expect(failures[0]?.message).toMatch(/exceeds the maximum of 1024 bytes/);
    expect(handled).toEqual([]);
  });

  it('accepts frames up to the pre-authentication cap before authenticate()', () => {
    const { transport, conn, failures } = setUp({ preAuthMaxFrameBytes: 1024 });
    const handled: Packet[] = [];
    conn.createChannel(CHANNEL, WINDOWLESS).setHandler((packet) => handled.push(packet));
    const small = encodePacket(CHANNEL, sendOfBodySize(100));
    expect(small.length).toBeLessThanOrEqual(1024);
    transport.receive(small);
    expect(handled).toHaveLength(1);
    expect(failures).toEqual([]);
  });

  it('after authenticate() a frame larger than the pre-authentication cap passes', () => {
    const { transport, conn, failures } = setUp({ preAuthMaxFrameBytes: 1024 });
    const handled: Packet[] = [];
    conn.createChannel(CHANNEL, WINDOWLESS).setHandler((packet) => handled.push(packet));
    conn.authenticate();
    const frame = encodePacket(CHANNEL, sendOfBodySize(2000));
    // Split, so the decoder has to assemble it under the lifted cap.
    transport.receive(frame.subarray(0, 10));
    transport.receive(frame.subarray(10));
    expect(failures).toEqual([]);
    expect(handled).toHaveLength(1);
    expect((handled[0] as { message: CoreMessage }).message.body.length).toBe(2000);
  });

  it('after authenticate() the connection cap still applies', () => {
    const { transport, conn, failures } = setUp({ preAuthMaxFrameBytes: 1024, maxFrameBytes: 4096 });
    conn.createChannel(CHANNEL, WINDOWLESS).setHandler(() => undefined);
    conn.authenticate();
    const frame = Buffer.alloc(13);
    frame.writeInt32BE(5000, 0);
    transport.receive(frame);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.message).toMatch(/exceeds the maximum of 4096 bytes/);
  });

  it('an unrouted packet whose handler throws fails the connection, and a failure listener that throws is logged, not thrown', () => {
    const logged: string[] = [];
    const logger = {
      ...silentLogger,
      error: (_object: object, message?: string) => logged.push(message ?? ''),
    };
    const { transport, conn, failures } = setUp({ logger: { ...logger, child: () => logger } });
    conn.addFailureListener(() => {
      throw new Error('listener exploded');
    });
    const after: HornetQException[] = [];
    conn.addFailureListener((error) => after.push(error));
    conn.setUnroutedHandler(() => {
      throw new Error('handler exploded');
    });
    expect(() =>
      transport.receive(encodePacket(0, { type: PacketType.PING, connectionTtl: 1 })),
    ).not.toThrow();
    expect(failures.map((f) => [f.code, f.message])).toEqual([['INTERNAL_ERROR', 'handler exploded']]);
    expect(after).toEqual(failures);
    expect(logged.some((line) => /failure listener .* threw: listener exploded/.test(line))).toBe(true);
  });

  it('notes that data arrived, for the liveness check to take', () => {
    const { transport, conn } = setUp();
    conn.setUnroutedHandler(() => undefined);
    expect(conn.takeDataReceived()).toBe(false);
    transport.receive(encodePacket(0, { type: PacketType.PING, connectionTtl: 1 }));
    expect(conn.takeDataReceived()).toBe(true);
    expect(conn.takeDataReceived()).toBe(false);
  });

  it('pings on channel 0 with the TTL given, and flushes confirmations until it is closed', () => {
    const { transport, conn } = setUp();
    conn.writePing(500);
    expect(transport.written).toEqual([encodePacket(0, { type: PacketType.PING, connectionTtl: 500 })]);
    const windowed = conn.createChannel(CHANNEL, { confirmationWindowSize: 1 << 20, callTimeoutMs: 1000 });
    // Handled packets are confirmed by their handler (as a session does).
    windowed.setHandler((_packet, commandId, size) => windowed.confirm(commandId, size));
    transport.receive(
      encodePacket(CHANNEL, { type: PacketType.SESS_FLOWTOKEN, consumerId: 1, credits: 100 }),
    );
    transport.receive(
      encodePacket(CHANNEL, { type: PacketType.SESS_FLOWTOKEN, consumerId: 1, credits: 100 }),
    );
    expect(transport.written).toHaveLength(1); // well inside the window: nothing confirmed yet
    conn.flushConfirmations();
    expect(transport.written.slice(1)).toEqual([
      encodePacket(CHANNEL, { type: PacketType.PACKETS_CONFIRMED, commandId: 1 }),
    ]);
    transport.receive(
      encodePacket(CHANNEL, { type: PacketType.SESS_FLOWTOKEN, consumerId: 1, credits: 100 }),
    );
    conn.close();
    conn.flushConfirmations();
    expect(transport.written).toHaveLength(2);
  });
});

describe('RemotingConnection lifecycle', () => {
  it('a write after close is a no-op', () => {
    const { transport, conn, failures } = setUp();
    conn.write(0, { type: PacketType.PING, connectionTtl: 1 });
    expect(transport.written).toHaveLength(1);
    conn.close();
    expect(transport.closeCalls).toBe(1);
    conn.write(0, { type: PacketType.PING, connectionTtl: 1 });
    conn.writeFrame(Buffer.from([1, 2, 3]));
    expect(transport.written).toHaveLength(1);
    // A clean close reports no failure, even when the transport then says it closed.
    transport.handlers?.onClose(undefined);
    conn.close();
    expect(transport.closeCalls).toBe(1);
    expect(failures).toEqual([]);
  });

  it('a write after a failure is a no-op', () => {
    const { transport, conn } = setUp();
    conn.fail(new HornetQException('NOT_CONNECTED', 'gone'));
    conn.write(0, { type: PacketType.PING, connectionTtl: 1 });
    expect(transport.written).toEqual([]);
  });

  it('the transport closing fails the connection once with NOT_CONNECTED', () => {
    const { transport, conn, failures } = setUp();
    const cause = new Error('read ECONNRESET');
    transport.handlers?.onClose(cause);
    transport.handlers?.onClose(cause);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.code).toBe('NOT_CONNECTED');
    expect(failures[0]?.message).toContain('ECONNRESET');
    expect(failures[0]?.cause).toBe(cause);
    expect(conn.closed).toBe(true);
  });

  it('a removed failure listener hears nothing', () => {
    const { conn, failures } = setUp();
    const other: HornetQException[] = [];
    const listener = (error: HornetQException): void => {
      other.push(error);
    };
    conn.addFailureListener(listener);
    conn.removeFailureListener(listener);
    conn.fail(new HornetQException('NOT_CONNECTED', 'gone'));
    expect(failures).toHaveLength(1);
    expect(other).toEqual([]);
  });

  it('refuses a second channel with the same id and keeps channel ids unique', () => {
    const { conn } = setUp();
    expect(conn.generateChannelId()).toBe(FIRST_SESSION_CHANNEL);
    conn.createChannel(20, WINDOWLESS);
    expect(() => conn.createChannel(20, WINDOWLESS)).toThrow(
      expect.objectContaining({ code: 'ILLEGAL_STATE' }) as Error,
    );
    expect(conn.generateChannelId()).toBe(21);
    expect(conn.channelCount).toBe(1);
    conn.removeChannel(20);
    expect(conn.getChannel(20)).toBeUndefined();
  });

  it('refuses to encode a packet over its maximum frame size', () => {
    const { conn, transport } = setUp({ maxFrameBytes: 1024 });
    expect(() => conn.write(CHANNEL, sendOfBodySize(2000))).toThrow(
      expect.objectContaining({ code: 'INTERNAL_ERROR' }) as Error,
    );
    expect(transport.written).toEqual([]);
  });
});

describe('RemotingConnection output high-water mark', () => {
  const ping: Packet = { type: PacketType.PING, connectionTtl: 1000 };

  it('reports congestion once when what waits for the peer passes the mark, and relief once when it drains', () => {
    const { transport, conn } = setUp({ outputHighWaterMark: 100 });
    const heard: boolean[] = [];
    conn.setCongestionListener((congested) => heard.push(congested));
    while (transport.pendingBytes <= 100) conn.write(0, ping);
    expect(conn.congested).toBe(true);
    conn.write(0, ping);
    expect(heard).toEqual([true]);

    transport.drain();
    expect(conn.congested).toBe(false);
    transport.drain();
    expect(heard).toEqual([true, false]);
  });

  it('a drain that leaves more than the mark pending is not relief', () => {
    const { transport, conn } = setUp({ outputHighWaterMark: 100 });
    const heard: boolean[] = [];
    conn.setCongestionListener((congested) => heard.push(congested));
    while (transport.pendingBytes <= 100) conn.write(0, ping);
    transport.handlers?.onDrain?.();
    expect(conn.congested).toBe(true);
    expect(heard).toEqual([true]);
  });

  it('without a mark the output is never congested', () => {
    const { transport, conn } = setUp();
    for (let i = 0; i < 1000; i++) conn.write(0, ping);
    expect(transport.pendingBytes).toBeGreaterThan(10_000);
    expect(conn.congested).toBe(false);
  });
});

describe('RemotingConnection large frames arriving in parts', () => {
  /** A connection with a session channel that records its packets, and what the listener heard. */
  const withListener = () => {
    const { transport, conn } = setUp();
    const received: Packet[] = [];
    conn.createChannel(CHANNEL, WINDOWLESS).setHandler((packet) => received.push(packet));
    let told = 0;
    conn.setLargeFrameListener(() => told++);
    return { transport, received, told: () => told };
  };

  it('tells the listener after every read that ends inside a large frame, and not once the frame is whole', () => {
    const { transport, received, told } = withListener();
    const frame = encodePacket(CHANNEL, sendOfBodySize(3 * LARGE_FRAME_BYTES));
    transport.receive(frame.subarray(0, 100));
    expect(told()).toBe(1);
    transport.receive(frame.subarray(100, LARGE_FRAME_BYTES));
    expect(told()).toBe(2);
    transport.receive(frame.subarray(LARGE_FRAME_BYTES));
    expect(told()).toBe(2);
    expect(received).toHaveLength(1);
  });

  it('a read that ends inside a small frame, or between frames, tells nobody', () => {
    const { transport, received, told } = withListener();
    const small = encodePacket(CHANNEL, sendOfBodySize(LARGE_FRAME_BYTES / 2));
    const two = Buffer.concat([small, small]);
    transport.receive(two.subarray(0, small.length + 10));
    transport.receive(two.subarray(small.length + 10));
    transport.receive(small);
    expect(told()).toBe(0);
    expect(received).toHaveLength(3);
  });

  it('a read that completes one large frame and ends inside the next tells the listener', () => {
    const { transport, received, told } = withListener();
    const frame = encodePacket(CHANNEL, sendOfBodySize(LARGE_FRAME_BYTES));
    transport.receive(Buffer.concat([frame, frame.subarray(0, 10)]));
    expect(received).toHaveLength(1);
    expect(told()).toBe(1);
  });
});
