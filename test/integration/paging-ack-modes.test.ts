import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Broker,
  DeliveryMode,
  HornetQConnectionFactory,
  HornetQQueue,
  HornetQTopic,
  Session,
  type BrokerConfiguration,
  type Destination,
  type HornetQConnection,
  type HornetQMessageConsumer,
  type HornetQSession,
  type Message,
} from '../../src';
import { textOf } from '../support/jms-fixture';
import { CapturingLogger, range, seqOf, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

/**
 * Issue 24, finding 6: on a PAGE address with a small max-size-bytes, consumers that acknowledge
 * in batches (DUPS_OK, a transacted session committing every 200, CLIENT_ACKNOWLEDGE every 200, a
 * core consumer with the default ackBatchSize) stopped at 47 of 2 000, because messages came back
 * from the pages only when an acknowledgement made room; and one offline durable subscription
 * stopped every other subscription of a paging topic. Each queue now reads its pages back by what
 * it has not delivered, through a cursor of its own.
 */

const COUNT = 2_000;
const MAX_SIZE = 16 * 1024;
const PAGE_SIZE = 8 * 1024;
const QUEUE_NAME = 'paged';
const QUEUE = `jms.queue.${QUEUE_NAME}`;
const TOPIC_NAME = 'paged';
const TOPIC = `jms.topic.${TOPIC_NAME}`;
const BODY = 'x'.repeat(200);

type Mode =
  'AUTO' | 'DUPS_OK' | 'CLIENT batch of 200' | 'transacted, commit every 200' | 'core, default ackBatchSize';
const MODES: Mode[] = [
  'AUTO',
  'DUPS_OK',
  'CLIENT batch of 200',
  'transacted, commit every 200',
  'core, default ackBatchSize',
];
const JMS_MODES: Mode[] = MODES.filter((mode) => !mode.startsWith('core'));

const env = useTestBrokers();
let dataDirectory: string;
let logger: CapturingLogger;
const factories: HornetQConnectionFactory[] = [];

beforeEach(async () => {
  dataDirectory = await mkdtemp(join(tmpdir(), 'paging-ack-modes-'));
  logger = new CapturingLogger();
});

afterEach(async () => {
  await Promise.allSettled(factories.splice(0).map((factory) => factory.close()));
  await env.closeAll();
  await rm(dataDirectory, { recursive: true, force: true });
});

function brokerConfig(port = 0): Partial<BrokerConfiguration> {
  return {
    acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port }],
    persistenceEnabled: true,
    dataDirectory,
    journalFileSize: 1024 * 1024,
    pagingDirectory: 'data/paging',
    logger,
    queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
    addressSettings: {
      'jms.#': { maxSizeBytes: MAX_SIZE, addressFullPolicy: 'PAGE', pageSizeBytes: PAGE_SIZE },
    },
  };
}

async function connect(broker: Broker, clientID?: string): Promise<HornetQConnection> {
  const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: broker.getPort() });
  factories.push(factory);
  const connection = await factory.createConnection();
  if (clientID !== undefined) await connection.setClientID(clientID);
  return connection;
}

function sessionFor(connection: HornetQConnection, mode: Mode): Promise<HornetQSession> {
  switch (mode) {
    case 'transacted, commit every 200':
      return connection.createSession(true, Session.SESSION_TRANSACTED);
    case 'DUPS_OK':
      return connection.createSession(false, Session.DUPS_OK_ACKNOWLEDGE);
    case 'CLIENT batch of 200':
      return connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    default:
      return connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  }
}

/** Sends `COUNT` text messages m0..m1999 in transactions of 200 (one sync each when persistent). */
async function sendAll(broker: Broker, destination: Destination, persistent: boolean): Promise<void> {
  const connection = await connect(broker);
  const session = await connection.createSession(true, Session.SESSION_TRANSACTED);
  const producer = await session.createProducer(destination);
  producer.setDeliveryMode(persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
  for (let i = 0; i < COUNT; i++) {
    await producer.send(session.createTextMessage(`m${i}`.padEnd(BODY.length, '.')));
    if (i % 200 === 199) await session.commit();
  }
  await connection.close();
}

/** Receives `COUNT` messages acknowledging as `mode` does; returns their numbers in order of arrival. */
async function receiveAll(
  session: HornetQSession,
  consumer: HornetQMessageConsumer,
  mode: Mode,
): Promise<number[]> {
  const numbers: number[] = [];
  let last: Message | null = null;
  while (numbers.length < COUNT) {
    const message = await consumer.receive(5_000);
    if (message === null)
      throw new Error(`${mode}: received ${numbers.length} of ${COUNT}, then nothing for 5 s`);
    numbers.push(Number((textOf(message) ?? '').replace(/^m(\d+)\.*$/, '$1')));
    last = message;
    if (numbers.length % 200 !== 0) continue;
    if (mode === 'transacted, commit every 200') await session.commit();
    if (mode === 'CLIENT batch of 200') await last.acknowledge();
  }
  return numbers;
}

/** The page files under the paging directory, over every address. */
async function pageFiles(): Promise<string[]> {
  const paging = join(dataDirectory, 'data', 'paging');
  const files: string[] = [];
  for (const directory of await readdir(paging).catch(() => [])) {
    for (const name of await readdir(join(paging, directory)).catch(() => []))
      if (name.endsWith('.page')) files.push(`${directory}/${name}`);
  }
  return files;
}

/** The page files go once every cursor has read them (removed in the background): waits for that. */
async function expectNoPageFiles(broker: Broker): Promise<void> {
  await broker.postOffice.pagingIdle();
  expect(await pageFiles()).toEqual([]);
}

function queueNamed(broker: Broker, name: string) {
  const queue = broker.postOffice.getQueue(name);
  if (queue === undefined) throw new Error(`no queue ${name}`);
  return queue;
}

async function consumeCore(broker: Broker, queue: string): Promise<number[]> {
  // The core client's defaults: consumer window and ackBatchSize of 1 MiB, acknowledgements batched.
  const factory = await env.connect(broker);
  const session = await factory.createSession();
  const consumer = await session.createConsumer(queue);
  session.start();
  const seqs: number[] = [];
  while (seqs.length < COUNT) {
    const message = await consumer.receive(5_000);
    if (message === null) throw new Error(`core: received ${seqs.length} of ${COUNT}, then nothing for 5 s`);
    seqs.push(seqOf(message));
    await message.acknowledge();
  }
  await consumer.close();
  await factory.close();
  return seqs;
}

async function sendCore(broker: Broker, address: string, durable: boolean): Promise<void> {
  const factory = await env.connect(broker);
  const session = await factory.createSession();
  const producer = session.createProducer(address);
  for (let seq = 0; seq < COUNT; seq++)
    await producer.send(sequenced(seq, { durable, body: Buffer.from(BODY) }));
  await factory.close();
}

describe('a paging queue: every acknowledgement mode gets every message', () => {
  test.each(MODES)('%s', async (mode) => {
    const broker = await env.startBroker(brokerConfig());
    if (mode.startsWith('core')) await sendCore(broker, QUEUE, false);
    else await sendAll(broker, new HornetQQueue(QUEUE_NAME), false);
    expect(broker.postOffice.pagingStats(QUEUE)?.messages).toBeGreaterThan(COUNT / 2);

    let numbers: number[];
    if (mode.startsWith('core')) {
      numbers = await consumeCore(broker, QUEUE);
    } else {
      const connection = await connect(broker);
      const session = await sessionFor(connection, mode);
      const consumer = await session.createConsumer(new HornetQQueue(QUEUE_NAME));
      await connection.start();
      numbers = await receiveAll(session, consumer, mode);
      await connection.close();
    }
    expect(numbers).toEqual(range(COUNT));
    await waitFor(() => queueNamed(broker, QUEUE).messageCount === 0, 'every message acknowledged');
    await waitFor(() => broker.postOffice.pagingStats(QUEUE) === null, 'the address to stop paging');
    await expectNoPageFiles(broker);
    expect(logger.find(/failed/, ['error'])).toEqual([]);
  });
});

describe('a paging topic with an offline durable subscription', () => {
  test.each(JMS_MODES)(
    '%s: the live subscriber gets everything, the offline one gets its copies after a restart',
    async (mode) => {
      const broker = await env.startBroker(brokerConfig());
      const topic = new HornetQTopic(TOPIC_NAME);
      // The offline subscription: made, then its subscriber goes away.
      const away = await connect(broker, 'offline-client');
      const awaySession = await away.createSession(false, Session.AUTO_ACKNOWLEDGE);
      await (await awaySession.createDurableSubscriber(topic, 'sub')).close();
      await away.close();

      const live = await connect(broker, 'live-client');
      const liveSession = await sessionFor(live, mode);
      const liveConsumer = await liveSession.createDurableSubscriber(topic, 'sub');
      await live.start();
      const receiving = receiveAll(liveSession, liveConsumer, mode);
      await sendAll(broker, topic, true);
      expect(await receiving).toEqual(range(COUNT));
      await live.close();

      const offline = queueNamed(broker, 'offline-client.sub');
      expect(offline.messageCount).toBe(COUNT);
      // Its copies wait in the pages; what it holds in memory is its share of the limit.
      expect(offline.pagedCount).toBeGreaterThan(COUNT / 2);
      // (What it held before the topic began to page, at most the limit and one message.)
      expect(offline.waitingBytes).toBeLessThanOrEqual(MAX_SIZE + 2 * 1024);
      expect((await pageFiles()).length).toBeGreaterThan(0);
      await waitFor(
        () => queueNamed(broker, 'live-client.sub').messageCount === 0,
        'the live acknowledgements',
      );

      const port = broker.getPort();
      await broker.stop();
      const restarted = await env.startBroker(brokerConfig(port));
      expect(queueNamed(restarted, 'offline-client.sub').messageCount).toBe(COUNT);
      expect(queueNamed(restarted, 'live-client.sub').messageCount).toBe(0);

      const back = await connect(restarted, 'offline-client');
      const backSession = await sessionFor(back, mode);
      const backConsumer = await backSession.createDurableSubscriber(topic, 'sub');
      await back.start();
      expect(await receiveAll(backSession, backConsumer, mode)).toEqual(range(COUNT));
      await back.close();
      await waitFor(
        () => queueNamed(restarted, 'offline-client.sub').messageCount === 0,
        'the acknowledgements',
      );
      await waitFor(() => restarted.postOffice.pagingStats(TOPIC) === null, 'the topic to stop paging');
      await expectNoPageFiles(restarted);
      expect(logger.find(/failed/, ['error'])).toEqual([]);
    },
  );

  test('core, default ackBatchSize: live subscription gets everything while the other waits in the pages', async () => {
    const broker = await env.startBroker({
      ...brokerConfig(),
      queues: [
        { name: `${TOPIC}.live`, address: TOPIC, filter: null, durable: true },
        { name: `${TOPIC}.offline`, address: TOPIC, filter: null, durable: true },
      ],
    });
    const receiving = consumeCore(broker, `${TOPIC}.live`);
    await sendCore(broker, TOPIC, true);
    expect(await receiving).toEqual(range(COUNT));
    expect(queueNamed(broker, `${TOPIC}.offline`).pagedCount).toBeGreaterThan(COUNT / 2);
    const port = broker.getPort();
    await broker.stop();
    const restarted = await env.startBroker({ ...brokerConfig(port), queues: [] });
    expect(await consumeCore(restarted, `${TOPIC}.offline`)).toEqual(range(COUNT));
    await waitFor(() => restarted.postOffice.pagingStats(TOPIC) === null, 'the topic to stop paging');
    await expectNoPageFiles(restarted);
  });
});
