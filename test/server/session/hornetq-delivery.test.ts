import {
  CoreMessage,
  FORCED_DELIVERY_SEQUENCE_PROPERTY,
  PacketType,
  PropertyKind,
  requiresConfirmation,
  type Packet,
  type ReceiveMessage,
} from '../../../src/core/protocol';
import { MAX_UNCONFIRMED_COMMANDS } from '../../../src/core/remoting';
import type { Broker } from '../../../src/server/broker';
import { unconfirmedLimitFor } from '../../../src/server/remoting/handshake-handler';
import { RAW_SESSION_CHANNEL, RawClient, newReattachSecret } from '../../support/raw-client';
import { CapturingLogger, useTestBrokers, waitFor } from '../../support/test-broker';

/**
 * Deliveries as a HornetQ 2.4 client sees them, over real TCP with a raw client: the forced-delivery
 * marker, consumer credits charged per whole frame (normal, large head and continuation) and
 * reset by 0, the queue query's message count, rollback's considerLastMessageAsDelivered,
 * large sends sized by their last chunk, and no command cap for a client that confirms by bytes.
 */

const env = useTestBrokers();
const QUEUE = 'q';
const CONSUMER = 0;

async function brokerWithQueue(config: Parameters<typeof env.startBroker>[0] = {}): Promise<Broker> {
  return env.startBroker({
    queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: false }],
    ...config,
  });
}

async function session(
  broker: Broker,
  options: { windowSize?: number; transacted?: boolean } = {},
): Promise<RawClient> {
  const client = env.track(await RawClient.connect(broker.getPort()));
  expect((await client.createSession(RAW_SESSION_CHANNEL, options)).type).toBe(PacketType.CREATESESSION_RESP);
  return client;
}

function message(body: string): CoreMessage {
  const built = new CoreMessage();
  built.address = QUEUE;
  built.body = Buffer.from(body);
  return built;
}

function sendAll(client: RawClient, bodies: readonly string[]): void {
  for (const body of bodies) {
    client.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_SEND,
      message: message(body),
      requiresResponse: false,
    });
  }
}

/** A consumer on QUEUE, started, with `credits` to begin with (none sent when null). */
async function consumer(client: RawClient, credits: number | null): Promise<void> {
  const answer = await client.request(RAW_SESSION_CHANNEL, {
    type: PacketType.SESS_CREATECONSUMER,
    consumerId: CONSUMER,
    queueName: QUEUE,
    filter: null,
    browseOnly: false,
    requiresResponse: true,
  });
  expect(answer.type).toBe(PacketType.SESS_QUEUEQUERY_RESP);
  if (credits !== null) grant(client, credits);
  client.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_START });
}

function grant(client: RawClient, credits: number): void {
  client.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_FLOWTOKEN, consumerId: CONSUMER, credits });
}

function deliveries(client: RawClient): Array<{ packet: ReceiveMessage; size: number }> {
  return client.frames
    .filter((frame) => frame.packet.type === PacketType.SESS_RECEIVE_MSG)
    .map((frame) => ({ packet: frame.packet as ReceiveMessage, size: frame.size }));
}

function isMarker(packet: ReceiveMessage): boolean {
  return (
    packet.deliveryCount === 0 &&
    packet.message.properties.get(FORCED_DELIVERY_SEQUENCE_PROPERTY) !== undefined
  );
}

/** Asks for a forced delivery with `sequence` and waits for its marker; returns the deliveries before it. */
async function forceDelivery(client: RawClient, sequence: number): Promise<string[]> {
  const before = deliveries(client).length;
  client.send(RAW_SESSION_CHANNEL, {
    type: PacketType.SESS_FORCE_CONSUMER_DELIVERY,
    consumerId: CONSUMER,
    sequence,
  });
  await waitFor(
    () =>
      deliveries(client)
        .slice(before)
        .some(({ packet }) => isMarker(packet)),
    `the forced-delivery marker ${sequence}`,
  );
  const since = deliveries(client).slice(before);
  const marker = since.find(({ packet }) => isMarker(packet))?.packet as ReceiveMessage;
  expect(marker.message.properties.get(FORCED_DELIVERY_SEQUENCE_PROPERTY)).toEqual({
    kind: PropertyKind.LONG,
    value: sequence,
  });
  expect(marker.message.address).toBe(QUEUE);
  return since.filter(({ packet }) => !isMarker(packet)).map(({ packet }) => packet.message.body.toString());
}

/**
 * Confirms what the broker sends on the raw session's channel as HornetQ's ChannelImpl.confirm
 * does: counts every packet that requires confirmation, and sends PACKETS_CONFIRMED for the last
 * one each time `window` bytes of them (whole frames) have come; nothing by count, nothing on a timer.
 */
function confirmByWindow(client: RawClient, window: number) {
  let seen = 0;
  let lastCommandId = -1;
  let bytes = 0;
  let sinceConfirmed = 0;
  const state = { confirmations: 0, mostCommandsUnconfirmed: 0 };
  const pump = setInterval(() => {
    for (; seen < client.frames.length; seen++) {
      const frame = client.frames[seen] as (typeof client.frames)[number];
      if (frame.channelId !== RAW_SESSION_CHANNEL || !requiresConfirmation(frame.packet)) continue;
      lastCommandId++;
      sinceConfirmed++;
      bytes += frame.size;
      state.mostCommandsUnconfirmed = Math.max(state.mostCommandsUnconfirmed, sinceConfirmed);
      if (bytes < window) continue;
      client.send(RAW_SESSION_CHANNEL, { type: PacketType.PACKETS_CONFIRMED, commandId: lastCommandId });
      state.confirmations++;
      bytes = 0;
      sinceConfirmed = 0;
    }
  }, 10);
  return {
    get confirmations() {
      return state.confirmations;
    },
    get mostCommandsUnconfirmed() {
      return state.mostCommandsUnconfirmed;
    },
    stop: () => clearInterval(pump),
  };
}

describe('forced delivery', () => {
  it('ends a forced delivery with HornetQ’s marker message (deliveryCount 0, the sequence, the queue as address, a fresh id), never packet 109', async () => {
    const broker = await brokerWithQueue();
    const client = await session(broker);
    await consumer(client, 1024 * 1024);
    expect(await forceDelivery(client, 7)).toEqual([]);
    sendAll(client, ['a']);
    await waitFor(() => deliveries(client).length === 2, 'the message');
    expect(await forceDelivery(client, 8)).toEqual([]);
    expect(client.has(109)).toBe(false);
    const ids = deliveries(client).map(({ packet }) => packet.message.messageId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('consumer credits', () => {
  it('are charged the whole delivery frame, length field included, and nothing for the marker', async () => {
    const broker = await brokerWithQueue();
    const client = await session(broker);
    sendAll(client, ['first', 'other']);
    await waitFor(() => broker.listQueues()[0]?.messageCount === 2, 'two messages queued');
    // One credit lets one delivery go (credits may go negative by one message).
    await consumer(client, 1);
    await waitFor(() => deliveries(client).length === 1, 'the first delivery');
    const frameBytes = (deliveries(client)[0] as { size: number }).size;
    // What the Java client returns for it: its frame. Charged any less, this would let the next one go.
    grant(client, frameBytes - 1);
    expect(await forceDelivery(client, 1)).toEqual([]);
    // The markers cost nothing: one more credit is all the next delivery needs.
    expect(await forceDelivery(client, 2)).toEqual([]);
    grant(client, 1);
    expect(await forceDelivery(client, 3)).toEqual(['other']);
  });

  it('are charged a large delivery’s head frame and every continuation frame, each whole', async () => {
    const broker = await brokerWithQueue();
    const producer = await session(broker);
    // Over the consumer's min-large-message-size (100 KiB): a head and several chunks.
    const body = 300 * 1024;
    producer.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_SEND_LARGE, message: message('') });
    producer.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_SEND_CONTINUATION,
      chunk: Buffer.alloc(body, 0x61),
      continues: false,
      messageBodySize: body,
      requiresResponse: true,
    });
    sendAll(producer, ['after the large one']);
    await waitFor(() => broker.listQueues()[0]?.messageCount === 2, 'both messages queued');
    const client = await session(broker);
    await consumer(client, 1);
    const largeFrames = (): Array<{ type: number; size: number; last: boolean }> =>
      client.frames
        .filter(
          (frame) =>
            frame.packet.type === PacketType.SESS_RECEIVE_LARGE_MSG ||
            frame.packet.type === PacketType.SESS_RECEIVE_CONTINUATION,
        )
        .map((frame) => ({
          type: frame.packet.type,
          size: frame.size,
          last: frame.packet.type === PacketType.SESS_RECEIVE_CONTINUATION && !frame.packet.continues,
        }));
    // Chunks go as credits come: return each frame as it arrives, as the Java client does as it
    // reads the body, and the next one follows.
    for (let seen = 1; ; seen++) {
      await waitFor(() => largeFrames().length >= seen, `large delivery frame ${seen}`);
      const frame = largeFrames()[seen - 1] as { size: number; last: boolean };
      if (frame.last) break;
      grant(client, frame.size);
    }
    const frames = largeFrames();
    expect(frames[0]?.type).toBe(PacketType.SESS_RECEIVE_LARGE_MSG);
    expect(
      frames.filter((frame) => frame.type === PacketType.SESS_RECEIVE_CONTINUATION).length,
    ).toBeGreaterThan(1);
    // The last chunk's frame, returned one credit short, leaves the balance at 0: nothing more comes.
    grant(client, (frames.at(-1)?.size ?? 0) - 1);
    expect(await forceDelivery(client, 1)).toEqual([]);
    grant(client, 1);
    expect(await forceDelivery(client, 2)).toEqual(['after the large one']);
  });

  it('of 0 reset the balance to nothing, as HornetQ’s slow consumer sends them after a receive that ended empty', async () => {
    const broker = await brokerWithQueue();
    const client = await session(broker);
    // A window of 0: one credit asks for one message; none is there, and the receive ends on the marker.
    await consumer(client, 1);
    expect(await forceDelivery(client, 1)).toEqual([]);
    grant(client, 0);
    sendAll(client, ['not asked for']);
    await waitFor(() => broker.listQueues()[0]?.messageCount === 1, 'the message queued');
    // Still there, not delivered: the credit that asked for a message is gone with the reset.
    expect(await forceDelivery(client, 2)).toEqual([]);
    grant(client, 1);
    expect(await forceDelivery(client, 3)).toEqual(['not asked for']);
  });
});

describe('SESS_QUEUEQUERY', () => {
  it('counts messages delivered and not yet acknowledged in messageCount, as HornetQ’s QueueImpl.getMessageCount does', async () => {
    const broker = await brokerWithQueue();
    const client = await session(broker);
    sendAll(client, ['one', 'two', 'three']);
    await consumer(client, 1);
    await waitFor(() => deliveries(client).length === 1, 'one delivery');
    const query = async (): Promise<unknown> =>
      client.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_QUEUEQUERY, queueName: QUEUE });
    expect(await query()).toMatchObject({
      type: PacketType.SESS_QUEUEQUERY_RESP,
      messageCount: 3,
      consumerCount: 1,
    });
    const [first] = deliveries(client);
    client.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_ACKNOWLEDGE,
      consumerId: CONSUMER,
      messageId: first?.packet.message.messageId ?? -1,
      requiresResponse: false,
    });
    expect(await query()).toMatchObject({ messageCount: 2 });
  });
});

describe('rollback', () => {
  async function twoDelivered(): Promise<RawClient> {
    const broker = await brokerWithQueue();
    const client = await session(broker, { transacted: true });
    const producer = await session(broker);
    sendAll(producer, ['m1', 'm2']);
    await consumer(client, -1);
    await waitFor(() => deliveries(client).length === 2, 'two deliveries');
    expect(await client.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_STOP })).toEqual({
      type: PacketType.NULL_RESPONSE,
    });
    return client;
  }

  async function redeliveredCounts(
    client: RawClient,
    considerLastMessageAsDelivered: boolean,
  ): Promise<number[]> {
    const answer = await client.request(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_ROLLBACK,
      considerLastMessageAsDelivered,
    });
    expect(answer).toEqual({ type: PacketType.NULL_RESPONSE });
    client.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_START });
    await waitFor(() => deliveries(client).length === 4, 'the two redeliveries');
    return deliveries(client)
      .slice(2)
      .map(({ packet }) => packet.deliveryCount);
  }

  it('with considerLastMessageAsDelivered, counts each consumer’s oldest unacknowledged message as delivered (HornetQ’s cancelRefs)', async () => {
    expect(await redeliveredCounts(await twoDelivered(), true)).toEqual([2, 1]);
  });

  it('without it, returns every unacknowledged message with its delivery undone', async () => {
    expect(await redeliveredCounts(await twoDelivered(), false)).toEqual([1, 1]);
  });
});

function head(): Packet {
  return { type: PacketType.SESS_SEND_LARGE, message: message('') };
}

function chunk(bytes: number, continues: boolean, messageBodySize: number): Packet {
  return {
    type: PacketType.SESS_SEND_CONTINUATION,
    chunk: Buffer.alloc(bytes, 0x61),
    continues,
    messageBodySize: continues ? -1 : messageBodySize,
    requiresResponse: !continues,
  };
}

describe('large messages sent to the broker', () => {
  it('are taken whole when the last chunk states the size that came', async () => {
    const broker = await brokerWithQueue();
    const client = await session(broker);
    client.send(RAW_SESSION_CHANNEL, head());
    client.send(RAW_SESSION_CHANNEL, chunk(300, true, -1));
    expect(await client.request(RAW_SESSION_CHANNEL, chunk(200, false, 500))).toEqual({
      type: PacketType.NULL_RESPONSE,
    });
    await waitFor(() => broker.listQueues()[0]?.messageCount === 1, 'the large message queued');
  });

  it('are refused as the chunks pass maxLargeMessageBytes (no size was announced), and when the stated size is wrong', async () => {
    const broker = await brokerWithQueue({ maxLargeMessageBytes: 1000 });
    const client = await session(broker);
    client.send(RAW_SESSION_CHANNEL, head());
    for (let i = 0; i < 5; i++) client.send(RAW_SESSION_CHANNEL, chunk(400, true, -1));
    const tooLarge = await client.request(RAW_SESSION_CHANNEL, chunk(1, false, 2001));
    expect(tooLarge).toMatchObject({ type: PacketType.EXCEPTION, code: 'LARGE_MESSAGE_ERROR_BODY' });
    expect((tooLarge as { message: string }).message).toMatch(/limit of 1000 bytes/);
    client.send(RAW_SESSION_CHANNEL, head());
    const wrongSize = await client.request(RAW_SESSION_CHANNEL, chunk(10, false, 11));
    expect(wrongSize).toMatchObject({ type: PacketType.EXCEPTION, code: 'LARGE_MESSAGE_ERROR_BODY' });
    expect(broker.listQueues()[0]?.messageCount).toBe(0);
  });
});

describe('the unconfirmed-commands cap', () => {
  /** Puts `count` tiny messages on the broker's queue, 5000 at a time (each batch answered before the next). */
  async function queueTinyMessages(broker: Broker, count: number): Promise<void> {
    const producer = await session(broker);
    for (let sent = 0; sent < count; sent += 5000) {
      sendAll(
        producer,
        Array.from({ length: Math.min(5000, count - sent) }, () => 'x'),
      );
      await producer.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_STOP });
    }
    await waitFor(() => broker.listQueues()[0]?.messageCount === count, `${count} messages queued`, 60_000);
  }

  it('applies the command bound only to sessions of our own client; every session keeps the byte bound', () => {
    const window = 10 * 1024 * 1024;
    expect(unconfirmedLimitFor(window, true)).toEqual({
      bytes: 8 * window + 32 * 1024 * 1024,
      commands: 64 * MAX_UNCONFIRMED_COMMANDS,
    });
    expect(unconfirmedLimitFor(window, false)).toEqual({
      bytes: 8 * window + 32 * 1024 * 1024,
      commands: Infinity,
    });
  });

  it('does not cut off a plain session that confirms by its window only (a Java client, tiny deliveries)', async () => {
    const logger = new CapturingLogger();
    const broker = await brokerWithQueue({ logger });
    const count = 64 * MAX_UNCONFIRMED_COMMANDS + 500;
    await queueTinyMessages(broker, count);
    // A 10 MiB window: all of it is far less than a window, so this client never confirms.
    const client = await session(broker, { windowSize: 10 * 1024 * 1024 });
    await consumer(client, -1);
    await waitFor(() => client.deliveries >= count || client.closed, `${count} deliveries`, 60_000);
    expect(client.closed).toBe(false);
    expect(client.deliveries).toBe(count);
    expect(logger.find(/more than the broker keeps unconfirmed/)).toEqual([]);
  });

  it('does not cut off a plain session that confirms each window’s bytes as the Java client does, with more than 65 536 commands between confirmations', async () => {
    const logger = new CapturingLogger();
    const broker = await brokerWithQueue({ logger });
    const window = 5 * 1024 * 1024;
    const count = 100_000;
    await queueTinyMessages(broker, count);
    const client = await session(broker, { windowSize: window });
    const confirmer = confirmByWindow(client, window);
    try {
      await consumer(client, -1);
      await waitFor(() => client.deliveries >= count || client.closed, `${count} deliveries`, 60_000);
    } finally {
      confirmer.stop();
    }
    expect(client.closed).toBe(false);
    expect(client.deliveries).toBe(count);
    // Confirmed by bytes alone, and rarely: each confirmation covered far more commands than
    // the bound our own client's sessions have (an extended session would have been cut off).
    expect(confirmer.confirmations).toBeGreaterThanOrEqual(1);
    expect(confirmer.mostCommandsUnconfirmed).toBeGreaterThan(64 * MAX_UNCONFIRMED_COMMANDS);
    expect(logger.find(/more than the broker keeps unconfirmed/)).toEqual([]);
  });

  it('still cuts off an extended session that leaves more than the command bound unconfirmed', async () => {
    const broker = await brokerWithQueue();
    const count = 64 * MAX_UNCONFIRMED_COMMANDS + 500;
    await queueTinyMessages(broker, count);
    const client = env.track(await RawClient.connect(broker.getPort()));
    await client.createSession(RAW_SESSION_CHANNEL, {
      windowSize: 10 * 1024 * 1024,
      reattachSecret: newReattachSecret(),
    });
    await consumer(client, -1);
    await waitFor(() => client.closed, 'the broker to give up on the client', 60_000);
  });
});

describe('large messages delivered', () => {
  const CHUNK = 100 * 1024; // the raw client's min-large-message-size: the broker's chunk size

  it('go chunk by chunk as credits come (HornetQ’s LargeMessageDeliverer), a forced-delivery marker after the last', async () => {
    const broker = await brokerWithQueue();
    const producer = await session(broker);
    producer.send(RAW_SESSION_CHANNEL, head());
    for (let i = 0; i < 9; i++) producer.send(RAW_SESSION_CHANNEL, chunk(CHUNK, true, -1));
    await producer.request(RAW_SESSION_CHANNEL, chunk(CHUNK, false, 10 * CHUNK));

    const client = await session(broker);
    await consumer(client, 1.5 * CHUNK);
    const continuations = (): number =>
      client.frames.filter((frame) => frame.packet.type === PacketType.SESS_RECEIVE_CONTINUATION).length;
    // The head and the first chunk leave credits; the second chunk spends them.
    await waitFor(() => continuations() === 2, 'two chunks');
    client.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_FORCE_CONSUMER_DELIVERY,
      consumerId: CONSUMER,
      sequence: 1,
    });
    await client.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_QUEUEQUERY, queueName: QUEUE });
    expect(continuations()).toBe(2);
    expect(deliveries(client)).toEqual([]);

    grant(client, 10 * CHUNK);
    await waitFor(() => deliveries(client).length === 1, 'the marker');
    const types = client.frames
      .filter((frame) => frame.channelId === RAW_SESSION_CHANNEL)
      .map((frame) => frame.packet.type)
      .filter((type) => type !== PacketType.PACKETS_CONFIRMED && type !== PacketType.SESS_QUEUEQUERY_RESP);
    expect(types).toEqual([
      PacketType.SESS_RECEIVE_LARGE_MSG,
      ...Array.from({ length: 10 }, () => PacketType.SESS_RECEIVE_CONTINUATION),
      PacketType.SESS_RECEIVE_MSG,
    ]);
    expect(isMarker(deliveries(client)[0]?.packet as ReceiveMessage)).toBe(true);
  });
});
