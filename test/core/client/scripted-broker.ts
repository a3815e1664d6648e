import net from 'node:net';
import { FrameDecoder } from '../../../src/core/protocol/frame-decoder';
import { decodeFrame, encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type { Packet } from '../../../src/core/protocol/packets';

/** A frame the broker received, with its channel and its whole size. */
export interface ReceivedFrame {
  channelId: number;
  packet: Packet;
  size: number;
}

export interface ScriptedBrokerOptions {
  /** Answer SUBSCRIBE_TOPOLOGY_V2 with CLUSTER_TOPOLOGY_V2 (a real broker always does). */
  answerTopology?: boolean;
  /** Append our extension's trailer to CREATESESSION_RESP (a hornetq-js broker), or not (HornetQ). */
  extended?: boolean;
  serverVersion?: number;
  /**
   * Sees each frame first; true when it answered (or meant not to answer) the frame itself, so the
   * default handling is skipped. For a test that plays a broker's reattach or timing.
   */
  intercept?: (frame: ReceivedFrame, reply: (packet: Packet) => void) => boolean;
}

/**
 * A broker played by the test over real TCP on 127.0.0.1: it reads the client's preamble, decodes
 * its frames with the codec, answers the handshake as a non-clustered HornetQ 2.4 broker does,
 * answers the session requests that want an answer, and lets the test write any packet to the
 * client. Everything it received is kept, in order, for the test to inspect.
 */
export class ScriptedBroker {
  readonly received: ReceivedFrame[] = [];
  /** The bytes before the first frame on each connection. */
  readonly preambles: Buffer[] = [];
  /** Frames that did not decode. */
  readonly errors: unknown[] = [];
  private readonly sockets: net.Socket[] = [];
  private server: net.Server | null = null;

  constructor(private readonly options: ScriptedBrokerOptions = {}) {}

  async start(): Promise<number> {
    const server = net.createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as net.AddressInfo).port;
  }

  /** Writes a packet to the newest client connection. */
  send(channelId: number, packet: Packet): void {
    this.write(encodePacket(channelId, packet));
  }

  /** Writes bytes (part of a frame, say) to the newest client connection. */
  write(bytes: Buffer): void {
    this.sockets[this.sockets.length - 1]?.write(bytes);
  }

  /** The received packets of one type, in order. */
  packets<T extends Packet['type']>(type: T): Array<Extract<Packet, { type: T }>> {
    return this.received
      .filter((frame) => frame.packet.type === type)
      .map((frame) => frame.packet as Extract<Packet, { type: T }>);
  }

  /** Resets every client connection (a crash of the link); the listener stays up. */
  dropConnections(): void {
    for (const socket of this.sockets.splice(0)) socket.resetAndDestroy();
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = null;
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    this.sockets.push(socket);
    socket.on('error', () => undefined);
    const decoder = new FrameDecoder();
    let preamble: Buffer | null = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      let data = chunk;
      if (preamble !== null) {
        // The client's first 7 bytes are its preamble; frames follow.
        const joined = Buffer.concat([preamble, data]);
        if (joined.length < 7) {
          preamble = joined;
          return;
        }
        this.preambles.push(joined.subarray(0, 7));
        preamble = null;
        data = joined.subarray(7);
      }
      try {
        decoder.feed(data, (frame) => this.handle(socket, decodeFrame(Buffer.from(frame))));
      } catch (error) {
        // What the client sent does not decode: the test sees it, and the link goes as a broker's would.
        this.errors.push(error);
        socket.destroy();
      }
    });
  }

  private handle(socket: net.Socket, frame: ReceivedFrame): void {
    this.received.push(frame);
    const reply = (packet: Packet): void => void socket.write(encodePacket(frame.channelId, packet));
    if (this.options.intercept?.(frame, reply) === true) return;
    const { packet } = frame;
    switch (packet.type) {
      case PacketType.PING:
        reply(packet);
        return;
      case PacketType.SUBSCRIBE_TOPOLOGY_V2:
        if (this.options.answerTopology === false) return;
        reply({
          type: PacketType.CLUSTER_TOPOLOGY_V2,
          exit: false,
          nodeId: '7a5e8a2e-0f5c-11ee-9a43-0242ac120002',
          uniqueEventId: Date.now(),
          live: null,
          backup: null,
          last: true,
          nodeName: null,
        });
        return;
      case PacketType.CREATESESSION:
        reply({
          type: PacketType.CREATESESSION_RESP,
          serverVersion: this.options.serverVersion ?? 124,
          extension: this.options.extended === true ? { version: 1 } : null,
        });
        return;
      case PacketType.REATTACH_SESSION:
        // A broker that lost every session (restarted): the client must re-create.
        reply({ type: PacketType.REATTACH_SESSION_RESP, lastConfirmedCommandId: -1, reattached: false });
        return;
      case PacketType.SESS_CREATECONSUMER:
        if (!packet.requiresResponse) return;
        reply({
          type: PacketType.SESS_QUEUEQUERY_RESP,
          exists: true,
          durable: true,
          temporary: false,
          consumerCount: 0,
          messageCount: 0,
          filter: null,
          address: packet.queueName,
          name: packet.queueName,
        });
        return;
      case PacketType.SESS_ADD_METADATA2:
      case PacketType.SESS_UNIQUE_ADD_METADATA:
        if (packet.requiresConfirmation) reply({ type: PacketType.NULL_RESPONSE });
        return;
      case PacketType.SESS_STOP:
      case PacketType.SESS_CLOSE:
      case PacketType.SESS_ROLLBACK:
      case PacketType.SESS_COMMIT:
      case PacketType.SESS_CONSUMER_CLOSE:
        reply({ type: PacketType.NULL_RESPONSE });
        return;
      default:
        return;
    }
  }
}
