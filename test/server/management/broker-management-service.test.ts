import {
  BufferWriter,
  CoreMessage,
  HornetQException,
  MessageType,
  PropertyKind,
} from '../../../src/core/protocol';
import type { BrokerConfiguration } from '../../../src/server/broker-configuration';
import { MANAGEMENT_LIMITS } from '../../../src/server/management/management-limits';
import { MessageHeader } from '../../../src/server/postoffice/message-headers';
import { DeferredSyncStorage } from '../../support/deferred-sync-storage';
import { receiveCount, seqOf, sequenced, useTestBrokers, waitFor } from '../../support/test-broker';

const WORK = 'jms.queue.work';
const OTHER = 'jms.queue.other';
const DLQ = 'jms.queue.DLQ';
const NEWS = 'jms.topic.news';

const env = useTestBrokers();

function queue(name: string, address = name) {
  return { name, address, filter: null, durable: true };
}

/** Broker with WORK (dead letters to DLQ), OTHER, DLQ and the topic NEWS (its marker queue), with JMS selectors. */
async function startBroker(config: Partial<BrokerConfiguration> = {}) {
  return env.startBroker(
    {
      queues: [queue(WORK), queue(OTHER), queue(DLQ), { ...queue(NEWS), filter: '__HQX=-1' }],
      addressSettings: { [WORK]: { deadLetterAddress: DLQ, maxDeliveryAttempts: 1 } },
      ...config,
    },
    { selectors: true },
  );
}

function colour(seq: number): CoreMessage {
  const message = sequenced(seq, { durable: true });
  message.properties.set('colour', { kind: PropertyKind.STRING, value: seq % 2 === 0 ? 'red' : 'blue' });
  return message;
}

async function send(
  broker: Awaited<ReturnType<typeof startBroker>>,
  address: string,
  messages: CoreMessage[],
) {
  const session = await (await env.connect(broker)).createSession();
  const producer = session.createProducer(address);
  for (const message of messages) await producer.send(message);
  return session;
}

describe('BrokerManagement over a real broker', () => {
  test('a change settles only once what it stored is on disk: no answer confirms what a crash would undo', async () => {
    const storage = new DeferredSyncStorage();
    storage.autoRelease = true;
    const broker = await startBroker({ storage });
    await send(broker, WORK, [colour(1), colour(2)]);
    storage.autoRelease = false;

    let moved: number | null = null;
    const moving = broker.management.moveMessages(WORK, null, OTHER).then((count) => (moved = count));
    await waitFor(() => storage.pendingSyncs > 0, 'the move to wait for its sync');
    expect((await broker.management.getQueue(OTHER)).messageCount).toBe(2);
    expect(moved).toBeNull();
    storage.releaseSyncs();
    await moving;
    expect(moved).toBe(2);
    // What stored nothing settles at once.
    expect(await broker.management.countMessages(OTHER)).toBe(2);
  });

  test('summarises a queue, counts and browses its messages within the bounds', async () => {
    const broker = await startBroker();
    const text = new CoreMessage();
    text.type = MessageType.TEXT;
    text.durable = true;
    const writer = new BufferWriter();
    writer.writeNullableSimpleString('hello management');
    text.body = writer.toBuffer();
    await send(broker, WORK, [...[0, 1, 2, 3, 4].map(colour), text]);
    const management = broker.management;

    expect(await management.getQueue(WORK)).toMatchObject({
      name: WORK,
      address: WORK,
      durable: true,
      paused: false,
      messageCount: 6,
      messagesAdded: 6,
      consumerCount: 0,
      deadLetterAddress: DLQ,
      filter: null,
    });
    expect(await management.countMessages(WORK)).toBe(6);
    expect(await management.countMessages(WORK, "colour = 'red'")).toBe(3);

    const page = await management.listMessages(WORK, { filter: "colour = 'blue'", limit: 1, offset: 1 });
    expect(page).toHaveLength(1);
    expect(page[0]?.properties).toContainEqual({ name: 'seq', type: 'int', value: 3 });
    expect(page[0]).toMatchObject({ state: 'waiting', durable: true, address: WORK, deliveryCount: 0 });

    const [shown] = await management.listMessages(WORK, { filter: 'seq IS NULL', bodyBytes: 8 });
    expect(shown?.type).toBe('text');
    expect(shown?.body).toMatchObject({ text: 'hello ma', truncated: true, size: text.body.length });

    await expect(
      management.listMessages(WORK, { limit: MANAGEMENT_LIMITS.maxListLimit + 1 }),
    ).rejects.toThrow(RangeError);
    await expect(management.countMessages(WORK, 'colour = ')).rejects.toMatchObject({
      code: 'INVALID_FILTER_EXPRESSION',
    });
    await expect(management.getQueue('jms.queue.none')).rejects.toMatchObject({
      code: 'QUEUE_DOES_NOT_EXIST',
    });
  });

  test('removes by filter and by id, and purges; the counts follow', async () => {
    const broker = await startBroker();
    await send(broker, WORK, [0, 1, 2, 3, 4, 5].map(colour));
    const management = broker.management;

    expect(await management.removeMessages(WORK, "colour = 'red'")).toBe(3);
    const left = await management.listMessages(WORK);
    expect(left.map((m) => m.properties.find((p) => p.name === 'seq')?.value)).toEqual([1, 3, 5]);
    expect(await management.removeMessage(WORK, left[0]?.id as number)).toBe(true);
    expect(await management.removeMessage(WORK, left[0]?.id as number)).toBe(false);
    expect(await management.purge(WORK)).toBe(2);
    expect(await management.getQueue(WORK)).toMatchObject({ messageCount: 0, messagesAdded: 6 });
  });

  test('moves messages to another queue with their origin recorded, and a move onto itself ends', async () => {
    const broker = await startBroker();
    const session = await send(broker, WORK, [0, 1, 2, 3].map(colour));
    const management = broker.management;

    expect(await management.moveMessages(WORK, "colour = 'blue'", OTHER)).toBe(2);
    expect(await management.countMessages(WORK)).toBe(2);
    const consumer = await session.createConsumer(OTHER);
    session.start();
    const moved = await receiveCount(consumer, 2);
    expect(moved.map(seqOf)).toEqual([1, 3]);
    expect(moved[0]?.message.properties.get(MessageHeader.ORIGINAL_QUEUE)?.value).toBe(WORK);
    expect(moved[0]?.message.properties.get(MessageHeader.ORIGINAL_ADDRESS)?.value).toBe(WORK);

    expect(await management.moveMessages(WORK, null, WORK)).toBe(2);
    expect(await management.countMessages(WORK)).toBe(2);
  });

  test('sends to the dead-letter address and retries dead letters at their original queue', async () => {
    const broker = await startBroker();
    const session = await send(broker, WORK, [0, 1, 2].map(colour));
    const management = broker.management;

    expect(await management.sendMessagesToDeadLetterAddress(WORK)).toBe(3);
    expect(await management.getQueue(WORK)).toMatchObject({ messageCount: 0, messagesKilled: 3 });
    const dead = await management.listMessages(DLQ);
    expect(dead).toHaveLength(3);
    expect(dead[0]?.properties).toContainEqual({ name: '_HQ_ORIG_ADDRESS', type: 'string', value: WORK });

    expect(await management.retryMessage(DLQ, dead[0]?.id as number)).toBe(true);
    expect(await management.retryMessages(DLQ)).toBe(2);
    expect(await management.countMessages(DLQ)).toBe(0);
    const consumer = await session.createConsumer(WORK);
    session.start();
    const back = await receiveCount(consumer, 3);
    expect(back.map(seqOf).sort()).toEqual([0, 1, 2]);
    // A retried message carries no origin: a later failure records a fresh one.
    expect(back[0]?.message.properties.get(MessageHeader.ORIGINAL_ADDRESS)).toBeUndefined();
  });

  test('a paused queue delivers nothing until resumed', async () => {
    const broker = await startBroker();
    const session = await send(broker, WORK, []);
    const management = broker.management;
    await management.pause(WORK);
    expect(await management.isPaused(WORK)).toBe(true);
    const consumer = await session.createConsumer(WORK);
    session.start();
    await session.createProducer(WORK).send(colour(7));
    expect(await consumer.receive(300)).toBeNull();
    expect(await management.getQueue(WORK)).toMatchObject({ paused: true, messageCount: 1 });
    await management.resume(WORK);
    const received = await consumer.receive(5000);
    expect(received === null ? null : seqOf(received)).toBe(7);
  });

  test('lists consumers, sessions and connections, and closes a connection', async () => {
    const broker = await startBroker();
    const factory = await env.connect(broker);
    const session = await factory.createSession();
    await session.createConsumer(WORK);
    const management = broker.management;

    const [connection] = await management.listConnections();
    expect(connection).toMatchObject({ sessionCount: 1, consumerCount: 1, clientId: null });
    expect(connection?.remoteAddress).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
    const consumers = await management.listConsumers(WORK);
    expect(consumers).toEqual([
      expect.objectContaining({
        queueName: WORK,
        connectionId: connection?.id,
        browseOnly: false,
        filter: null,
      }),
    ]);
    expect(await management.listConsumers(OTHER)).toEqual([]);
    const sessions = await management.listSessions(connection?.id as string);
    expect(sessions.map((s) => s.id)).toEqual([consumers[0]?.sessionId]);
    expect(await management.listRemoteAddresses('127.0.0.1')).toEqual([connection?.remoteAddress]);
    expect(await management.listRemoteAddresses('10.9.9.9')).toEqual([]);

    const failed = new Promise<unknown>((resolve) => factory.addFailureListener((error) => resolve(error)));
    expect(await management.closeConnectionsForAddress('127.0.0.1')).toBe(1);
    await failed;
    await waitFor(() => broker.getConnectionCount() === 0, 'the connection to close');
    expect(await management.getQueue(WORK)).toMatchObject({ consumerCount: 0 });
    expect(await management.closeConnection(connection?.id as string)).toBe(false);
  });

  test("closes connections whose remote address contains the text, as HornetQ does: 'host:port' closes that one alone", async () => {
    const broker = await startBroker();
    const first = await env.connect(broker);
    const second = await env.connect(broker);
    await first.createSession();
    await second.createSession();
    const management = broker.management;
    const connections = await management.listConnections();
    expect(connections).toHaveLength(2);
    const target = connections[0]?.remoteAddress.replace(/^tcp:\/\//, '') as string;
    expect(await management.listRemoteAddresses(target)).toEqual([connections[0]?.remoteAddress]);

    expect(await management.closeConnectionsForAddress(target)).toBe(1);
    await waitFor(() => broker.getConnectionCount() === 1, 'the one connection to close');
    expect((await management.listConnections()).map((c) => c.id)).toEqual([connections[1]?.id]);
  });

  test('lists and drops durable subscriptions of a topic', async () => {
    const broker = await startBroker();
    const session = await send(broker, NEWS, []);
    await session.createQueue(NEWS, 'app.daily', { durable: true, filter: "colour = 'red'" });
    await session.createQueue(NEWS, 'transient-sub', { temporary: true });
    await session.createProducer(NEWS).send(colour(0));
    const management = broker.management;

    const all = await management.listSubscriptions(NEWS);
    expect(all).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          queueName: 'app.daily',
          clientId: 'app',
          name: 'daily',
          durable: true,
          messageCount: 1,
        }),
        expect.objectContaining({ queueName: 'transient-sub', clientId: null, durable: false }),
      ]),
    );
    expect(all).toHaveLength(2);
    expect(await management.listSubscriptions(NEWS, 'durable')).toHaveLength(1);
    await management.dropDurableSubscription(NEWS, 'app', 'daily');
    expect(await management.listSubscriptions(NEWS, 'durable')).toEqual([]);
    await expect(management.dropDurableSubscription(NEWS, 'app', 'daily')).rejects.toMatchObject({
      code: 'QUEUE_DOES_NOT_EXIST',
    });
  });

  test('creates and destroys queues; one with consumers only when they may be removed', async () => {
    const broker = await startBroker();
    const management = broker.management;
    const created = await management.createQueue({
      address: 'jms.queue.made',
      name: 'jms.queue.made',
      durable: false,
    });
    expect(created).toMatchObject({ name: 'jms.queue.made', durable: false, messageCount: 0 });
    await expect(management.createQueue({ address: 'x', name: 'jms.queue.made' })).rejects.toMatchObject({
      code: 'QUEUE_EXISTS',
    });
    expect(await management.getQueueNames()).toContain('jms.queue.made');

    const session = await (await env.connect(broker)).createSession();
    await session.createConsumer('jms.queue.made');
    const refusal = await management.destroyQueue('jms.queue.made').catch((error: unknown) => error);
    expect(HornetQException.is(refusal, 'ILLEGAL_STATE')).toBe(true);
    await management.destroyQueue('jms.queue.made', true);
    expect(await management.getQueueNames()).not.toContain('jms.queue.made');
  });
});
