import { randomBytes, randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import {
  EXTENSION_VERSION,
  FrameDecoder,
  PacketType,
  decodeFrame,
  encodePacket,
  type CreateSession,
  type Frame,
  type Packet,
} from '../../src/core/protocol';
import { waitFor } from './test-broker';

/** The session channel a RawClient opens its (first) session on. */
export const RAW_SESSION_CHANNEL = 10;
/** HornetQ 2.4's client version: what a 2.4.x Java client puts in CREATESESSION. */
export const HORNETQ_CLIENT_VERSION = 124;
/** What a HornetQ 2.4 client writes before its first frame. */
export const HORNETQ_PREAMBLE = Buffer.from('HORNETQ', 'ascii');

export interface RawSessionOptions {
  windowSize?: number;
  transacted?: boolean;
  /** The session's name (a fresh UUID, as a HornetQ client picks, when absent). */
  name?: string;
  version?: number;
  username?: string | null;
  password?: string | null;
  xa?: boolean;
  /** CREATESESSION's defaultAddress: where a message sent without an address goes. */
  defaultAddress?: string;
  /** Our extension's trailer with this reattach secret, as our client sends it; none when absent. */
  reattachSecret?: Buffer;
  /** The extension version the trailer offers (EXTENSION_VERSION, as our client, by default). */
  extensionVersion?: number;
}

/** A CREATESESSION as a well-behaved client sends it, for a session on `channelId`. */
export function createSessionPacket(
  channelId = RAW_SESSION_CHANNEL,
  options: RawSessionOptions = {},
): CreateSession {
  return {
    type: PacketType.CREATESESSION,
    name: options.name ?? randomUUID(),
    sessionChannelId: channelId,
    version: options.version ?? HORNETQ_CLIENT_VERSION,
    username: options.username ?? null,
    password: options.password ?? null,
    minLargeMessageSize: 100 * 1024,
    xa: options.xa ?? false,
    autoCommitSends: options.transacted !== true,
    autoCommitAcks: options.transacted !== true,
    windowSize: options.windowSize ?? -1,
    preAcknowledge: false,
    defaultAddress: options.defaultAddress ?? null,
    extension:
      options.reattachSecret === undefined
        ? null
        : { version: options.extensionVersion ?? EXTENSION_VERSION, reattachSecret: options.reattachSecret },
  };
}

/** A fresh 16-byte reattach secret, as our client picks one. */
export function newReattachSecret(): Buffer {
  return randomBytes(16);
}

/**
 * A client that writes the wire format by hand, so that a test can send anything at all, and
 * reads only while told to: the abusive peer of the bad-input and resource tests (one that sends
 * garbage, never reads, never creates a session, asks for any TTL...), and a stand-in for a
 * HornetQ Java client where a test needs its exact packets. It opens with HornetQ's preamble
 * unless told not to.
 */
export class RawClient {
  readonly frames: Frame[] = [];
  /** The local port: the broker's log names the connection by it (tcp://127.0.0.1:<port>). */
  readonly port: number;
  private closedFlag = false;
  private readonly decoder = new FrameDecoder(64 * 1024 * 1024);

  private constructor(readonly socket: Socket) {
    this.port = socket.localPort ?? -1;
    socket.on('data', (chunk: Buffer) =>
      this.decoder.feed(chunk, (frame) => this.frames.push(decodeFrame(frame))),
    );
    // The broker may reset the link while bytes are still unread on its side.
    socket.on('error', () => undefined);
    socket.on('close', () => (this.closedFlag = true));
  }

  static connect(port: number, options: { preamble?: Buffer | null } = {}): Promise<RawClient> {
    const preamble = options.preamble === undefined ? HORNETQ_PREAMBLE : options.preamble;
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.off('error', reject);
        if (preamble !== null) socket.write(preamble);
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

  /** The packets received on `channelId`, in order. */
  packetsOn(channelId: number): Packet[] {
    return this.frames.filter((frame) => frame.channelId === channelId).map((frame) => frame.packet);
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

  /**
   * Sends a request on `channelId` and waits for the next packet on that channel that is not a
   * confirmation (the broker's PACKETS_CONFIRMED answer nothing).
   */
  async request(channelId: number, packet: Packet): Promise<Packet> {
    const before = this.frames.length;
    const isAnswer = (frame: Frame): boolean =>
      frame.channelId === channelId && frame.packet.type !== PacketType.PACKETS_CONFIRMED;
    this.send(channelId, packet);
    await waitFor(
      () => this.frames.slice(before).some(isAnswer) || this.closed,
      `the answer to ${packet.type} on channel ${channelId}`,
    );
    const answer = this.frames.slice(before).find(isAnswer);
    if (answer === undefined) throw new Error('the connection closed instead of answering');
    return answer.packet;
  }

  /** What a HornetQ 2.4 client does right after connecting: subscribe to the topology (V2). */
  subscribeTopology(clientVersion = HORNETQ_CLIENT_VERSION): Promise<Packet> {
    return this.request(0, {
      type: PacketType.SUBSCRIBE_TOPOLOGY_V2,
      clusterConnection: false,
      clientVersion,
    });
  }

  /** Opens a session on `channelId`; resolves with the broker's answer (a response or an EXCEPTION). */
  createSession(channelId = RAW_SESSION_CHANNEL, options: RawSessionOptions = {}): Promise<Packet> {
    return this.request(1, createSessionPacket(channelId, options));
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
