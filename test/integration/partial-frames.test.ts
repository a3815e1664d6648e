import { CoreMessage, DEFAULT_MAX_FRAME_BYTES, PacketType, encodePacket } from '../../src/core/protocol';
import { RAW_SESSION_CHANNEL, RawClient, createSessionPacket } from '../support/raw-client';
import { useTestBrokers, waitFor } from '../support/test-broker';

/**
 * A connection that announces a big frame and sends only a few bytes of it costs the broker what
 * it sent: the frame's buffer grows as its bytes arrive (FrameDecoder), so many such connections
 * cannot make the broker set aside maxFrameBytes each.
 */

const CONNECTIONS = 16;
const MiB = 1024 * 1024;

/** A SESS_SEND frame of nearly the broker's maximum (10 MiB), answered when it arrives whole. */
function bigSend(): Buffer {
  const message = new CoreMessage();
  message.address = 'partial.nowhere';
  message.body = Buffer.alloc(DEFAULT_MAX_FRAME_BYTES - 1024, 1);
  return encodePacket(RAW_SESSION_CHANNEL, { type: PacketType.SESS_SEND, message, requiresResponse: true });
}

describe('frames announced but not yet sent', () => {
  const env = useTestBrokers();

  test('cost the broker the bytes received, and the frame is accepted once it is complete', async () => {
    const broker = await env.startBroker();
    const frame = bigSend();
    const before = process.memoryUsage().arrayBuffers;
    const connections = await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => env.track(await RawClient.connect(broker.getPort()))),
    );
    // One write: the broker meets the big frame's header in the read that opens the session.
    for (const connection of connections) {
      connection.socket.write(
        Buffer.concat([encodePacket(1, createSessionPacket()), frame.subarray(0, 1000)]),
      );
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

    const [first] = connections as [RawClient];
    first.socket.write(frame.subarray(1000));
    await waitFor(() => first.has(PacketType.NULL_RESPONSE), 'the completed big frame to be answered');
  });
});
