import { connect, type Socket } from 'node:net';
import { CLIENT_VERSION } from '../../src/core/client';
import {
  FrameDecoder,
  PacketType,
  decodeFrame,
  encodePacket,
  type Frame,
  type Packet,
} from '../../src/core/protocol';
import { waitFor } from './test-broker';

/** The session channel a RawClient opens its (first) session on. */
export const RAW_SESSION_CHANNEL = 10;

/** A CREATESESSION as a well-behaved client sends it, for a session on `channelId`. */
export function createSessionPacket(
  channelId = RAW_SESSION_CHANNEL,
  options: { windowSize?: number; correlationId?: number; transacted?: boolean } = {},
): Packet {
  return {
    type: PacketType.CREATESESSION,
    correlationId: options.correlationId ?? 1,
    name: `raw-${channelId}`,
    sessionChannelId: channelId,
    version: CLIENT_VERSION,
    username: null,
    password: null,
    minLargeMessageSize: 100 * 1024,
    xa: false,
    autoCommitSends: options.transacted !== true,
    autoCommitAcks: options.transacted !== true,
    preAcknowledge: false,
    windowSize: options.windowSize ?? -1,
    defaultAddress: null,
  };
}

/**
 * A client that writes the wire format by hand, so that a test can send anything at all, and
 * reads only while told to: the abusive peer of the bad-input and resource tests (one that sends
 * garbage, never reads, never creates a session, asks for any TTL...).
 */
export class RawClient {
  readonly frames: Frame[] = [];
  /** The local port: the broker's log names the connection by it (tcp://127.0.0.1:<port>). */
  readonly port: number;
  private closedFlag = false;
  private readonly decoder = new FrameDecoder(64 * 1024 * 1024);
  private nextCorrelationId = 1;

  private constructor(readonly socket: Socket) {
    this.port = socket.localPort ?? -1;
    socket.on('data', (chunk: Buffer) =>
      this.decoder.feed(chunk, (frame) => this.frames.push(decodeFrame(frame))),
    );
    // The broker may reset the link while bytes are still unread on its side.
    socket.on('error', () => undefined);
    socket.on('close', () => (this.closedFlag = true));
  }

  static connect(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.off('error', reject);
        resolve(new RawClient(socket));
      });
      socket.once('error', reject);
    });
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Stops reading: what the broker writes backs up in the kernel, then in the broker. */
  stopReading(): void {
    this.socket.pause();
  }

  write(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  send(channelId: number, packet: Packet): void {
    this.write(encodePacket(channelId, packet));
  }

  /** Whether the broker has sent a packet of this type. */
  has(type: number): boolean {
    return this.frames.some((frame) => frame.packet.type === type);
  }

  /** Sends a request on a session channel and waits for the next packet the broker sends. */
  async roundTrip(packet: Packet, channelId = RAW_SESSION_CHANNEL): Promise<Packet> {
    const before = this.frames.length;
    this.send(channelId, packet);
    await waitFor(() => this.frames.length > before || this.closed, `an answer to ${packet.type}`);
    const answer = this.frames[before];
    if (answer === undefined) throw new Error('the connection closed instead of answering');
    return answer.packet;
  }

  /** Opens a session on `channelId`; resolves with the broker's answer (a response or an EXCEPTION). */
  async createSession(
    channelId = RAW_SESSION_CHANNEL,
    options: { windowSize?: number } = {},
  ): Promise<Packet> {
    const correlationId = this.nextCorrelationId++;
    const before = this.frames.length;
    this.send(1, createSessionPacket(channelId, { ...options, correlationId }));
    await waitFor(
      () => this.frames.slice(before).some((frame) => frame.channelId === 1) || this.closed,
      `the answer to CREATESESSION on channel ${channelId}`,
    );
    const answer = this.frames.slice(before).find((frame) => frame.channelId === 1);
    if (answer === undefined) throw new Error('the connection closed instead of answering');
    return answer.packet;
  }

  /**
   * A consumer on `queue` with no flow control (credits -1), started: it takes whatever the broker
   * gives it, as fast as the broker writes.
   */
  consumeWithoutFlowControl(queue: string, channelId = RAW_SESSION_CHANNEL, consumerId = 0): void {
    this.send(channelId, {
      type: PacketType.SESS_CREATECONSUMER,
      consumerId,
      queueName: queue,
      filter: null,
      browseOnly: false,
      requiresResponse: false,
    });
    this.send(channelId, { type: PacketType.SESS_FLOWTOKEN, consumerId, credits: -1 });
    this.send(channelId, { type: PacketType.SESS_START });
  }

  /** Messages received so far (whole deliveries). */
  get deliveries(): number {
    return this.frames.filter((frame) => frame.packet.type === PacketType.SESS_RECEIVE_MSG).length;
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.destroy();
    });
  }
}
