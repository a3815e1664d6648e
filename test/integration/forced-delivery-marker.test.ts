import { PacketType, encodePacket, type Packet } from '../../src/core/protocol';
import { FORCED_DELIVERY_SEQUENCE_PROPERTY } from '../../src/core/protocol/packets';
import { MARKER_CREDIT_WAIT_MS } from '../../src/server/session/server-consumer';
import { RAW_SESSION_CHANNEL, RawClient } from '../support/raw-client';
import { sequenced, useTestBrokers, waitFor } from '../support/test-broker';

/**
 * The forced-delivery marker (HornetQ's answer to receiveNoWait: nothing more is waiting) must come
 * after every message it answers for, and must not be taken before any of them by HornetQ's Java
 * client, whose buffer orders deliveries by priority (highest first). A QueueBrowser ends at the
 * marker: one that overtakes a message ends the browse short (issue 24).
 */

const QUEUE = 'jms.queue.priorities';
const PER_PRIORITY = 4;
const CONSUMER = 0;

/** What a raw client received on its session channel, in order: deliveries and the marker. */
interface Arrival {
  kind: 'message' | 'marker';
  priority: number;
  sequence?: number;
}

function arrivals(client: RawClient): Arrival[] {
  return arrivalsOf(client.packetsOn(RAW_SESSION_CHANNEL));
}

function arrivalsOf(packets: readonly Packet[]): Arrival[] {
  return packets
    .filter((packet): packet is Extract<Packet, { type: typeof PacketType.SESS_RECEIVE_MSG }> => {
      return packet.type === PacketType.SESS_RECEIVE_MSG;
    })
    .map((packet) => {
      const marker = packet.message.properties.get(FORCED_DELIVERY_SEQUENCE_PROPERTY);
      return marker === undefined
        ? { kind: 'message', priority: packet.message.priority }
        : { kind: 'marker', priority: packet.message.priority, sequence: Number(marker.value) };
    });
}

/**
 * The order a HornetQ Java client's buffer hands out what `arrived` holds: highest priority first,
 * in arrival order within one priority (its PriorityLinkedList).
 */
function javaBufferOrder(arrived: readonly Arrival[]): Arrival[] {
  return [...arrived].sort((a, b) => b.priority - a.priority);
}

describe('the forced-delivery marker', () => {
  const env = useTestBrokers();

  async function brokerWithEveryPriority() {
    const broker = await env.startBroker({
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: false }],
    });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(QUEUE);
    for (let priority = 0; priority <= 9; priority++) {
      for (let i = 0; i < PER_PRIORITY; i++) await producer.send(sequenced(i, { priority }));
    }
    const client = env.track(await RawClient.connect(broker.getPort()));
    expect((await client.createSession()).type).toBe(PacketType.CREATESESSION_RESP);
    const browser = { consumerId: CONSUMER, queueName: QUEUE, filter: null, browseOnly: true };
    await client.request(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_CREATECONSUMER,
      ...browser,
      requiresResponse: true,
    });
    return { broker, client };
  }

  /** Writes `packets` in one write: the broker reads them in one go. */
  function sendTogether(client: RawClient, packets: Packet[]): void {
    client.write(Buffer.concat(packets.map((packet) => encodeOn(packet))));
  }

  test('comes after every delivery of the same pass, at the lowest priority delivered: a priority-ordered buffer takes it last', async () => {
    const { client } = await brokerWithEveryPriority();
    // Credits and the request in one read, as the broker gets them from a busy client.
    sendTogether(client, [
      { type: PacketType.SESS_FLOWTOKEN, consumerId: CONSUMER, credits: 1024 * 1024 },
      { type: PacketType.SESS_FORCE_CONSUMER_DELIVERY, consumerId: CONSUMER, sequence: 0 },
    ]);
    await waitFor(() => arrivals(client).some((arrival) => arrival.kind === 'marker'), 'the marker');
    const arrived = arrivals(client);
    expect(arrived).toHaveLength(10 * PER_PRIORITY + 1);
    expect(arrived.at(-1)).toEqual({ kind: 'marker', priority: 0, sequence: 0 });
    expect(javaBufferOrder(arrived).at(-1)?.kind).toBe('marker');
  });

  /**
   * HornetQ 2.4's Java QueueBrowser, played over a raw connection: its consumer buffer hands out the
   * highest priority first; a receiveNoWait that finds the buffer empty asks for a forced delivery
   * and, unless a message comes first, ends at the marker of that request (any other is skipped); credits go back
   * a window at a time, after the request when `creditsAfterRequest` (its credits leave from a
   * thread of their own, so they can), before it otherwise. Returns how many messages it browsed.
   */
  async function javaBrowse(
    client: RawClient,
    window: number,
    creditsAfterRequest: boolean,
  ): Promise<number> {
    let read = client.frames.length;
    const buffer: Array<Arrival & { size: number }> = [];
    const pump = (): void => {
      for (; read < client.frames.length; read++) {
        const frame = client.frames[read];
        if (frame === undefined || frame.channelId !== RAW_SESSION_CHANNEL) continue;
        const [arrival] = arrivalsOf([frame.packet]);
        if (arrival !== undefined) buffer.push({ ...arrival, size: frame.size });
      }
    };
    const poll = (): (Arrival & { size: number }) | undefined => {
      let best = -1;
      buffer.forEach((a, i) => {
        if (best === -1 || a.priority > (buffer[best]?.priority ?? -1)) best = i;
      });
      return best === -1 ? undefined : buffer.splice(best, 1)[0];
    };
    const credits = (amount: number): Packet => ({
      type: PacketType.SESS_FLOWTOKEN,
      consumerId: CONSUMER,
      credits: amount,
    });
    sendTogether(client, [credits(window)]);
    let sequence = 0;
    let asked = -1;
    let creditsToSend = 0;
    let browsed = 0;
    for (;;) {
      pump();
      const next = poll();
      if (next === undefined) {
        asked = sequence++;
        const force: Packet = {
          type: PacketType.SESS_FORCE_CONSUMER_DELIVERY,
          consumerId: CONSUMER,
          sequence: asked,
        };
        const owed = creditsToSend >= window ? [credits(creditsToSend)] : [];
        if (owed.length > 0) creditsToSend = 0;
        sendTogether(client, creditsAfterRequest ? [force] : [...owed, force]);
        if (creditsAfterRequest && owed.length > 0) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          sendTogether(client, owed);
        }
        await waitFor(() => client.frames.length > read, `an answer to forced delivery ${asked}`);
        continue;
      }
      if (next.kind === 'marker') {
        if (next.sequence === asked) return browsed;
        continue;
      }
      browsed++;
      creditsToSend += next.size;
      // That receive call is over: the next one's marker is the one of its own request.
      asked = -1;
    }
  }

  test.each([
    ['before', false],
    ['after', true],
  ])(
    "HornetQ's Java QueueBrowser over every priority, a few messages a window, credits %s the request: never short",
    async (_when, creditsAfterRequest) => {
      const { client } = await brokerWithEveryPriority();
      expect(await javaBrowse(client, 600, creditsAfterRequest)).toBe(10 * PER_PRIORITY);
    },
  );

  test("HornetQ's Java QueueBrowser over every priority with the default window (1 MiB): never short, browse after browse", async () => {
    const { broker } = await brokerWithEveryPriority();
    for (let round = 0; round < 5; round++) {
      const client = env.track(await RawClient.connect(broker.getPort()));
      await client.createSession();
      await client.request(RAW_SESSION_CHANNEL, {
        type: PacketType.SESS_CREATECONSUMER,
        consumerId: CONSUMER,
        queueName: QUEUE,
        filter: null,
        browseOnly: true,
        requiresResponse: true,
      });
      expect(await javaBrowse(client, 1024 * 1024, round % 2 === 1)).toBe(10 * PER_PRIORITY);
      await client.close();
    }
  });

  test("a browser's marker asked for before the credits that pay for its messages waits for them (HornetQ's Java client sends credits from another thread)", async () => {
    const { client } = await brokerWithEveryPriority();
    sendTogether(client, [
      { type: PacketType.SESS_FORCE_CONSUMER_DELIVERY, consumerId: CONSUMER, sequence: 0 },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(arrivals(client)).toEqual([]);
    sendTogether(client, [{ type: PacketType.SESS_FLOWTOKEN, consumerId: CONSUMER, credits: 1024 * 1024 }]);
    await waitFor(() => arrivals(client).some((a) => a.kind === 'marker'), 'the marker');
    const arrived = arrivals(client);
    expect(arrived.filter((a) => a.kind === 'message')).toHaveLength(10 * PER_PRIORITY);
    expect(arrived.at(-1)).toMatchObject({ kind: 'marker', sequence: 0 });
  });

  test('a browser whose client never sends credits gets its marker after MARKER_CREDIT_WAIT_MS all the same', async () => {
    const { client } = await brokerWithEveryPriority();
    const asked = Date.now();
    sendTogether(client, [
      { type: PacketType.SESS_FORCE_CONSUMER_DELIVERY, consumerId: CONSUMER, sequence: 7 },
    ]);
    await waitFor(() => arrivals(client).length > 0, 'the marker');
    expect(Date.now() - asked).toBeGreaterThanOrEqual(MARKER_CREDIT_WAIT_MS - 50);
    expect(arrivals(client)).toEqual([{ kind: 'marker', priority: 4, sequence: 7 }]);
  });

  test('a consumer that only ever got priority 4 and above gets its marker at 4 (the Java client keeps batching acknowledgements)', async () => {
    const broker = await env.startBroker({
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: false }],
    });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(QUEUE);
    for (const priority of [4, 9, 6]) await producer.send(sequenced(priority, { priority }));
    const client = env.track(await RawClient.connect(broker.getPort()));
    await client.createSession();
    await client.request(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_CREATECONSUMER,
      consumerId: CONSUMER,
      queueName: QUEUE,
      filter: null,
      browseOnly: false,
      requiresResponse: true,
    });
    sendTogether(client, [
      { type: PacketType.SESS_START },
      { type: PacketType.SESS_FLOWTOKEN, consumerId: CONSUMER, credits: 1024 * 1024 },
      { type: PacketType.SESS_FORCE_CONSUMER_DELIVERY, consumerId: CONSUMER, sequence: 3 },
    ]);
    await waitFor(() => arrivals(client).some((a) => a.kind === 'marker'), 'the marker');
    expect(arrivals(client)).toEqual([
      { kind: 'message', priority: 9 },
      { kind: 'message', priority: 6 },
      { kind: 'message', priority: 4 },
      { kind: 'marker', priority: 4, sequence: 3 },
    ]);
  });
});

function encodeOn(packet: Packet): Buffer {
  return encodePacket(RAW_SESSION_CHANNEL, packet);
}
