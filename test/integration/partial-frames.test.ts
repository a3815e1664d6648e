import { connect, type Socket } from 'node:net';
import { CLIENT_VERSION } from '../../src/core/client';
import {
  CoreMessage,
  DEFAULT_MAX_FRAME_BYTES,
  FrameDecoder,
  PacketType,
  decodeFrame,
  encodePacket,
  type Packet,
} from '../../src/core/protocol';
import { useTestBrokers, waitFor } from '../support/test-broker';

/**
 * A connection that announces a big frame and sends only a few bytes of it costs the broker what
 * it sent: the frame's buffer grows as its bytes arrive (FrameDecoder), so many such connections
 * cannot make the broker set aside maxFrameBytes each.
 */

const SESSION_CHANNEL = 10;
const CONNECTIONS = 16;
const MiB = 1024 * 1024;

function createSession(): Packet {
  return {
    type: PacketType.CREATESESSION,
    correlationId: 1,
    name: 'partial',
    sessionChannelId: SESSION_CHANNEL,
    version: CLIENT_VERSION,
    username: null,
    password: null,
    minLargeMessageSize: 100 * 1024,
    xa: false,
    autoCommitSends: true,
    autoCommitAcks: true,
    preAcknowledge: false,
    windowSize: -1,
    defaultAddress: null,
  };
}

/** A SESS_SEND frame of nearly the broker's maximum (10 MiB), answered when it arrives whole. */
function bigSend(): Buffer {
  const message = new CoreMessage();
  message.address = 'partial.nowhere';
  message.body = Buffer.alloc(DEFAULT_MAX_FRAME_BYTES - 1024, 1);
  return encodePacket(SESSION_CHANNEL, { type: PacketType.SESS_SEND, message, requiresResponse: true });
}

/** A raw connection that records the packets the broker sends. */
class RawConnection {
  readonly packets: Packet[] = [];
  private readonly decoder = new FrameDecoder();

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) =>
      this.decoder.feed(chunk, (frame) => this.packets.push(decodeFrame(frame).packet)),
    );
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  has(type: number): boolean {
    return this.packets.some((packet) => packet.type === type);
  }

  close(): void {
    this.socket.destroy();
  }
}

describe('frames announced but not yet sent', () => {
  const env = useTestBrokers();

  test('cost the broker the bytes received, and the frame is accepted once it is complete', async () => {
    const broker = await env.startBroker();
    const frame = bigSend();
    const before = process.memoryUsage().arrayBuffers;
    const connections = await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => env.track(await RawConnection.open(broker.getPort()))),
    );
    // One write: the broker meets the big frame's header in the read that opens the session.
    for (const connection of connections) {
      connection.socket.write(Buffer.concat([encodePacket(1, createSession()), frame.subarray(0, 1000)]));
    }
    await waitFor(
      () => connections.every((connection) => connection.has(PacketType.CREATESESSION_RESP)),
      'every session to be created',
    );
    let peak = 0;
    const deadline = Date.now() + 200;
    while (Date.now() < deadline) {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Setting aside the announced size would be CONNECTIONS x 10 MiB.
    expect(peak).toBeLessThan(CONNECTIONS * MiB);
    expect(broker.getConnectionCount()).toBe(CONNECTIONS);

    const [first] = connections as [RawConnection];
    first.socket.write(frame.subarray(1000));
    await waitFor(() => first.has(PacketType.NULL_RESPONSE), 'the completed big frame to be answered');
  });
});
