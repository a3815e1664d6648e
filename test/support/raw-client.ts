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

/**
 * A client that writes the wire format by hand and reads only when told to: the abusive peer of
 * the resource tests (one that never reads, never creates a session, asks for any TTL...).
 */
export class RawClient {
  readonly frames: Frame[] = [];
  private closedFlag = false;
  private readonly decoder = new FrameDecoder(64 * 1024 * 1024);
  private nextCorrelationId = 1;

  private constructor(readonly socket: Socket) {
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

  send(channelId: number, packet: Packet): void {
    this.socket.write(encodePacket(channelId, packet));
  }

  /** Opens a session on `channelId`; resolves with the broker's answer (a response or an EXCEPTION). */
  async createSession(
    channelId = RAW_SESSION_CHANNEL,
    options: { windowSize?: number } = {},
  ): Promise<Packet> {
    const correlationId = this.nextCorrelationId++;
    const before = this.frames.length;
    this.send(1, {
      type: PacketType.CREATESESSION,
      correlationId,
      name: `raw-${channelId}`,
      sessionChannelId: channelId,
      version: CLIENT_VERSION,
      username: null,
      password: null,
      minLargeMessageSize: 100 * 1024,
      xa: false,
      autoCommitSends: true,
      autoCommitAcks: true,
      preAcknowledge: false,
      windowSize: options.windowSize ?? -1,
      defaultAddress: null,
    });
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
