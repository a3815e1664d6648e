import { CoreMessage, PacketType, encodePacket } from '../../src/core/protocol';
import { RAW_SESSION_CHANNEL, RawClient, createSessionPacket } from '../support/raw-client';
import { useTestBrokers, waitFor } from '../support/test-broker';

/**
 * A HornetQ 2.4 Java producer writes a large-message chunk (100 KiB) and waits until it is in its
 * 32 KiB socket buffer, so it waits for our TCP acknowledgement after each part: the broker
 * answers a read that ends inside a frame of 32 KiB or more with a ping, which carries it at once
 * (without one, Linux delays it by 40 ms, and a 50 MiB message took 22 s instead of 1).
 */
describe('a large frame arriving in parts', () => {
  const env = useTestBrokers();

  /** A blocking send of `bodyBytes` to an address nobody listens on, answered once whole. */
  function sendFrame(bodyBytes: number): Buffer {
    const message = new CoreMessage();
    message.address = 'ping.nowhere';
    message.body = Buffer.alloc(bodyBytes, 1);
    return encodePacket(RAW_SESSION_CHANNEL, { type: PacketType.SESS_SEND, message, requiresResponse: true });
  }

  async function sessionOn(port: number): Promise<RawClient> {
    const client = env.track(await RawClient.connect(port));
    client.send(1, createSessionPacket());
    await waitFor(() => client.has(PacketType.CREATESESSION_RESP), 'the session to be created');
    return client;
  }

  const pings = (client: RawClient): number =>
    client.packetsOn(0).filter((packet) => packet.type === PacketType.PING).length;

  test('the broker pings as soon as part of it has arrived, and answers it once whole', async () => {
    const broker = await env.startBroker();
    const client = await sessionOn(broker.getPort());
    const frame = sendFrame(100 * 1024);
    client.write(frame.subarray(0, 40 * 1024));
    await waitFor(() => pings(client) >= 1, 'a ping for the part received');
    expect(client.has(PacketType.NULL_RESPONSE)).toBe(false);
    client.write(frame.subarray(40 * 1024));
    await waitFor(() => client.has(PacketType.NULL_RESPONSE), 'the whole frame to be answered');
  });

  test('small frames split across reads earn no ping', async () => {
    const broker = await env.startBroker();
    const client = await sessionOn(broker.getPort());
    const frame = sendFrame(16 * 1024);
    for (let i = 0; i < 10; i++) {
      client.write(frame.subarray(0, 8 * 1024));
      await new Promise((resolve) => setTimeout(resolve, 5));
      client.write(frame.subarray(8 * 1024));
    }
    await waitFor(
      () => client.packetsOn(RAW_SESSION_CHANNEL).length >= 10,
      'every small send to be answered',
    );
    expect(pings(client)).toBe(0);
  });
});
