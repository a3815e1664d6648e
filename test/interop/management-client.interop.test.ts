import {
  HornetQConnectionFactory,
  HornetQQueue,
  HornetQTopic,
  ManagementClient,
  ManagementError,
  ManagementErrorCode,
  Session,
  type HornetQConnection,
  type HornetQSession,
} from '../../src';
import { waitFor } from '../support/test-broker';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './support/interop-server';

/**
 * Our management client against the management address of a real HornetQ 2.4.7 (the 'hornetq'
 * dialect, which our broker answers too) and Artemis 2.40.0 (the 'artemis' dialect): the same
 * operations and the same typed answers from each.
 */
const KINDS: readonly ServerKind[] = ['hornetq', 'artemis', 'ours'];

const RECEIVE_MS = 10_000;

describe.each(KINDS)('the management client against %s', (kind) => {
  let server: InteropServer | null = null;
  const connections: HornetQConnection[] = [];
  let session: HornetQSession;
  let management: ManagementClient;

  /** A JMS queue's name as the server keeps it (HornetQ and ours: jms.queue.NAME; Artemis: NAME). */
  const queue = (name: string): string => (kind === 'artemis' ? name : `jms.queue.${name}`);

  const connect = async (clientId?: string): Promise<HornetQConnection> => {
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: server!.port });
    const connection = await factory.createConnection();
    connections.push(connection);
    if (clientId !== undefined) await connection.setClientID(clientId);
    await connection.start();
    return connection;
  };

  const send = async (name: string, bodies: ReadonlyArray<readonly [string, string]>): Promise<void> => {
    const producer = await session.createProducer(new HornetQQueue(name));
    for (const [text, region] of bodies) {
      const message = session.createTextMessage(text);
      message.setStringProperty('region', region);
      await producer.send(message);
    }
    await producer.close();
  };

  beforeAll(async () => {
    server = await InteropServer.start(kind, {
      queues: ['orders', 'archive', 'jobs', 'DLQ', 'paused', 'scratch-source'],
      topics: ['prices'],
      deadLetters: [{ queue: 'jobs', deadLetterQueue: 'DLQ', maxDeliveryAttempts: 2 }],
    });
    const connection = await connect();
    session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    management = new ManagementClient(session.core, { dialect: kind === 'artemis' ? 'artemis' : 'hornetq' });
  });

  afterAll(async () => {
    await management?.close();
    for (const connection of connections.splice(0)) await connection.close().catch(() => undefined);
    await server?.stop();
  });

  test(`${SERVER_VERSIONS[kind]}: count and list a queue's messages, with and without a filter`, async () => {
    await send('orders', [
      ['a', 'EU'],
      ['b', 'US'],
      ['c', 'EU'],
      ['d', 'US'],
      ['e', 'EU'],
    ]);
    expect(await management.countMessages(queue('orders'))).toBe(5);
    expect(await management.countMessages(queue('orders'), { filter: "region = 'EU'" })).toBe(3);
    const listed = await management.listMessages(queue('orders'), { limit: 2 });
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({
      durable: true,
      priority: 4,
      userId: expect.stringMatching(/^ID:[0-9a-f-]{36}$/) as unknown,
      properties: expect.objectContaining({ region: 'EU' }) as unknown,
      originalQueue: null,
    });
    expect(listed[0]!.messageId).toBeGreaterThan(0);
    expect(await management.queueCounters(queue('orders'))).toMatchObject({
      messageCount: 5,
      messagesAdded: 5,
      consumerCount: 0,
      deliveringCount: 0,
      scheduledCount: 0,
    });
  });

  test(`${SERVER_VERSIONS[kind]}: move the messages a filter picks to another queue`, async () => {
    expect(
      await management.moveMessages(queue('orders'), queue('archive'), { filter: "region = 'US'" }),
    ).toBe(2);
    expect(await management.countMessages(queue('archive'))).toBe(2);
    expect(await management.countMessages(queue('orders'))).toBe(3);
    expect(await management.removeMessages(queue('orders'))).toBe(3);
    expect(await management.countMessages(queue('orders'))).toBe(0);
  });

  test(`${SERVER_VERSIONS[kind]}: dead letters (after the delivery attempts, and sent there) go back to their queue on retry`, async () => {
    await send('jobs', [
      ['fails', 'EU'],
      ['parked', 'US'],
    ]);
    // The first one dies as a consumer would make it die: delivered, rolled back, twice.
    const transacted = await connections[0]!.createSession(true, Session.SESSION_TRANSACTED);
    const consumer = await transacted.createConsumer(new HornetQQueue('jobs'), "region = 'EU'");
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await consumer.receive(RECEIVE_MS)).not.toBeNull();
      await transacted.rollback();
    }
    await consumer.close();
    await transacted.close();
    expect(await management.sendMessagesToDeadLetterAddress(queue('jobs'))).toBe(1);
    await waitFor(
      async () => (await management.countMessages(queue('DLQ'))) === 2,
      'both in the DLQ',
      RECEIVE_MS,
    );

    const dead = await management.listMessages(queue('DLQ'));
    expect(dead.map((m) => [m.originalQueue, m.properties['region']]).sort()).toEqual([
      [queue('jobs'), 'EU'],
      [queue('jobs'), 'US'],
    ]);
    // Artemis keeps the address a HornetQ client sent to (jms.queue.jobs) for the one it dead-lettered itself.
    expect(dead.every((m) => m.originalAddress?.endsWith('jobs') === true)).toBe(true);

    expect(await management.retryMessage(queue('DLQ'), dead[0]!.messageId)).toBe(true);
    expect(await management.countMessages(queue('DLQ'))).toBe(1);
    expect(await management.retryMessages(queue('DLQ'))).toBe(1);
    expect(await management.countMessages(queue('DLQ'))).toBe(0);
    // Artemis routes a retried message back through its address after the operation answers.
    await waitFor(
      async () => (await management.countMessages(queue('jobs'))) === 2,
      'both back in jobs',
      RECEIVE_MS,
    );
    expect(await management.removeMessages(queue('jobs'))).toBe(2);
  });

  test(`${SERVER_VERSIONS[kind]}: a paused queue keeps its messages from its consumers until resumed`, async () => {
    const consumer = await session.createConsumer(new HornetQQueue('paused'));
    expect(await management.listConsumers(queue('paused'))).toEqual([
      expect.objectContaining({ browseOnly: false, consumerId: expect.any(Number) as unknown }),
    ]);
    await management.pause(queue('paused'));
    expect(await management.isPaused(queue('paused'))).toBe(true);
    await send('paused', [['held', 'EU']]);
    expect(await consumer.receive(500)).toBeNull();
    expect(await management.countMessages(queue('paused'))).toBe(1);
    await management.resume(queue('paused'));
    expect(await management.isPaused(queue('paused'))).toBe(false);
    expect((await consumer.receive(RECEIVE_MS))?.getStringProperty('region')).toBe('EU');
    await consumer.close();
  });

  test(`${SERVER_VERSIONS[kind]}: list the connections and close one by its id`, async () => {
    const before = new Set((await management.listConnections()).map((c) => c.connectionId));
    expect(before.size).toBeGreaterThanOrEqual(1);
    const victim = await connect('victim');
    const failures: unknown[] = [];
    victim.setExceptionListener((error) => failures.push(error));
    const added = (await management.listConnections()).filter((c) => !before.has(c.connectionId));
    expect(added).toEqual([
      expect.objectContaining({ clientAddress: expect.stringContaining('127.0.0.1') as unknown }),
    ]);
    expect(added[0]!.creationTime).toBeGreaterThan(Date.now() - 600_000);
    expect(await management.closeConnection(added[0]!.connectionId)).toBe(true);
    await waitFor(() => failures.length > 0, 'the closed connection told its listener', RECEIVE_MS);
    const after = (await management.listConnections()).map((c) => c.connectionId);
    expect(after).not.toContain(added[0]!.connectionId);
    expect(await management.closeConnection(added[0]!.connectionId)).toBe(false);
  });

  test(`${SERVER_VERSIONS[kind]}: list a topic's subscriptions and drop a durable one`, async () => {
    const subscriber = await connect('audit-client');
    const subscriberSession = await subscriber.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const durable = await subscriberSession.createDurableSubscriber(new HornetQTopic('prices'), 'audit');
    await durable.close();
    const subscriptions = await management.listSubscriptions('prices');
    expect(subscriptions).toContainEqual(
      expect.objectContaining({ clientId: 'audit-client', name: 'audit', durable: true, messageCount: 0 }),
    );
    await management.dropDurableSubscription('audit-client', 'audit');
    expect((await management.listSubscriptions('prices')).map((s) => s.name)).not.toContain('audit');
  });

  test(`${SERVER_VERSIONS[kind]}: create and destroy a queue; a failed operation rejects with the server's text`, async () => {
    await management.createQueue(queue('scratch'), queue('scratch'));
    expect(await management.countMessages(queue('scratch'))).toBe(0);
    await management.destroyQueue(queue('scratch'));
    const failure = await management.countMessages(queue('scratch')).catch((error: unknown) => error);
    expect(ManagementError.is(failure)).toBe(true);
    expect(failure).toMatchObject({ code: ManagementErrorCode.OPERATION_FAILED });
    expect((failure as Error).message).toMatch(/scratch/);
    // The client goes on after a failure.
    expect(await management.countMessages(queue('orders'))).toBe(0);
  });
});
