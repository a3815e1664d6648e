import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HornetQConnectionFactory, type HornetQConnection } from '../../../src';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './interop-server';
import { JavaJmsContext } from './java-jms-context';
import { JmsDriver } from './jms-driver';
import { NOTHING_MORE_MS, RECEIVE_MS, queueRef, topicRef } from './scenario-context';

/**
 * What HornetQ 2.4.7's Java JMS 2.0 client left on a persistent server across its restart: a
 * shared durable subscription and what it held, a shared non-durable one gone, a delayed message
 * still delayed or, if its time passed while the server was down, delivered at once.
 */
export function describeJavaJms2RestartScenarios(kind: ServerKind): void {
  describe(`HornetQ 2.4.7's Java JMS 2.0 client and a restart of ${SERVER_VERSIONS[kind]}`, () => {
    let dataDir = '';
    let server: InteropServer | null = null;
    let driver: JmsDriver | null = null;
    let nodeConnection: HornetQConnection | null = null;

    const java = (): JmsDriver => {
      if (driver === null) throw new Error('the driver did not start');
      return driver;
    };
    const running = (): InteropServer => {
      if (server === null) throw new Error('the server did not start');
      return server;
    };
    const queueQuery = async (queueName: string) => {
      const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: running().port });
      nodeConnection = await factory.createConnection();
      try {
        const session = await nodeConnection.createSession(false, 1);
        return await session.core.queueQuery(queueName);
      } finally {
        await nodeConnection.close();
        nodeConnection = null;
      }
    };

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'hq-jms2-restart-'));
      server = await InteropServer.start(kind, { queues: ['delayedRestart'], topics: ['ticks'], dataDir });
      driver = await JmsDriver.start();
    });

    afterAll(async () => {
      await nodeConnection?.close();
      await driver?.close();
      await server?.stop();
      if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true });
    });

    test('a shared durable subscription keeps its messages across the restart, a shared non-durable one is gone, a delayed message waits or comes', async () => {
      const before = await JavaJmsContext.create(java(), { port: running().port });
      const durable = await before.createSharedDurableConsumer(topicRef('ticks'), 'restart-durable');
      await before.createSharedConsumer(topicRef('ticks'), 'restart-shared');
      await durable.close();
      await before.send(topicRef('ticks'), { body: 'tick' }, { count: 3, sequenceProperty: 'seq' });
      // One whose time has passed when the server loads it again, one whose time is still ahead.
      const [passed] = await before.send(
        queueRef('delayedRestart'),
        { body: 'passed' },
        { deliveryDelay: 500 },
      );
      const [ahead] = await before.send(
        queueRef('delayedRestart'),
        { body: 'ahead' },
        { deliveryDelay: 60_000 },
      );
      await before.close();
      if (passed === undefined || ahead === undefined) throw new Error('the driver answered no sent message');
      const untilPassed = passed.JMSDeliveryTime + 100 - Date.now();
      if (untilPassed > 0) await new Promise((resolve) => setTimeout(resolve, untilPassed));
      await running().restart();

      expect(await queueQuery('restart-durable')).toMatchObject({ exists: true, messageCount: 3 });
      expect((await queueQuery('nonDurable.restart-shared')).exists).toBe(false);
      const after = await JavaJmsContext.create(java(), { port: running().port });
      const back = await after.createSharedDurableConsumer(topicRef('ticks'), 'restart-durable');
      expect((await back.receiveMany(3, RECEIVE_MS)).map((m) => m.properties.seq)).toEqual([
        ['int', 0],
        ['int', 1],
        ['int', 2],
      ]);
      await back.close();
      await after.unsubscribe('restart-durable');

      const delayed = await after.createConsumer(queueRef('delayedRestart'));
      const first = await delayed.receive(RECEIVE_MS);
      // HornetQ 2.4.7's loader drops _HQ_SCHED_DELIVERY from a message whose time has passed.
      expect(first).toMatchObject({ body: 'passed', JMSDeliveryTime: 0 });
      expect(await delayed.receive(NOTHING_MORE_MS)).toBeNull();
      expect(await queueQuery('jms.queue.delayedRestart')).toMatchObject({ messageCount: 1 });
      await after.close();
    });
  });
}
