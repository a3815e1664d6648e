import {
  Broker,
  ClientSessionFactory,
  CoreMessage,
  PropertyKind,
  type ClientProducer,
  type ClientSession,
} from '../../src';
import { silentLogger } from '../../src/core/remoting/logger';
import { createJournalStorage } from '../../src/server/storage/create-journal-storage';
import { enumerateCrashPoints, type CrashPointScenario } from '../support/crash-points';
import { CRASH_MODES, type CrashMode, type FaultFileSystem } from '../support/fault-file-system';

/**
 * The README's safe retry with a large message (issue 24, finding 3), on a real broker over TCP:
 * a blocking durable send of a 150 KiB message with a duplicate id is crashed at every file
 * operation of its store; the client then sends it again with the same id, as it must when the
 * answer never came. The message is there exactly once, and is the first attempt whenever that
 * send was answered.
 */

const ROOT = '/hq';
const LARGE_DIRECTORY = `${ROOT}/largemessages`;
const QUEUE = 'jms.queue.orders';
const DUPLICATE_ID = 'order-1';
const BODY = Buffer.alloc(150 * 1024, 'b');
const ATTEMPT = 'attempt';
/** Every mode, and more tears at random bytes (between the id's record and the message's). */
const MODES: readonly CrashMode[] = [
  ...CRASH_MODES,
  ...Array.from({ length: 2 }, () => 'torn-byte' as const),
];

interface Life {
  fileSystem: FaultFileSystem;
  broker: Broker;
  factory: ClientSessionFactory;
  session: ClientSession;
  producer: ClientProducer;
}

async function start(fileSystem: FaultFileSystem): Promise<Life> {
  // A large file syncs later than a journal batch would: only what waits for it comes after it.
  fileSystem.slowDatasyncs((path) => path.startsWith(LARGE_DIRECTORY), 5);
  const storage = createJournalStorage(
    {
      journalDirectory: `${ROOT}/journal`,
      bindingsDirectory: `${ROOT}/bindings`,
      largeMessagesDirectory: LARGE_DIRECTORY,
      pagingDirectory: `${ROOT}/paging`,
      journalFileSize: 256 * 1024,
    },
    fileSystem,
    silentLogger,
    { persistIdCache: true },
  );
  const broker = new Broker({
    acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
    persistenceEnabled: true,
    securityEnabled: false,
    storage,
    logger: silentLogger,
  });
  await broker.start();
  const factory = await ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port: broker.getPort() }],
    reconnectAttempts: 0,
    callTimeout: 10_000,
  });
  const session = await factory.createSession();
  return { fileSystem, broker, factory, session, producer: session.createProducer(QUEUE) };
}

async function stop(life: Life): Promise<void> {
  await life.factory.close().catch(() => undefined);
  await life.broker.stop().catch(() => undefined);
}

function order(attempt: string): CoreMessage {
  const message = new CoreMessage();
  message.durable = true;
  message.body = BODY;
  message.properties.set('_HQ_DUPL_ID', { kind: PropertyKind.STRING, value: DUPLICATE_ID });
  message.properties.set(ATTEMPT, { kind: PropertyKind.STRING, value: attempt });
  return message;
}

/** The attempt the queue holds, which must be exactly one whole message. */
async function onlyAttemptIn(session: ClientSession): Promise<string> {
  expect((await session.queueQuery(QUEUE)).messageCount).toBe(1);
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const received = await consumer.receive(5_000);
  await consumer.close();
  if (received === null) throw new Error('the queue counts one message but delivered none');
  expect(received.message.body.equals(BODY)).toBe(true);
  return String(received.message.properties.get(ATTEMPT)?.value);
}

const scenario: CrashPointScenario<Life, null> = {
  start,
  stop,
  async setUp(life) {
    await life.session.createQueue(QUEUE, QUEUE, { durable: true });
    return null;
  },
  step(life, _context, done) {
    life.producer.send(order('first')).then(
      () => done(null),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  },
  async check(life, point) {
    const before = (await life.session.queueQuery(QUEUE)).messageCount;
    expect(before).toBeLessThanOrEqual(1);
    if (point.confirmed) expect(before).toBe(1);
    // The answer may never have come: the client sends again with the same duplicate id.
    await life.producer.send(order('retry'));
    expect(await onlyAttemptIn(life.session)).toBe(before === 1 ? 'first' : 'retry');
    return before === 1 ? 'committed' : 'not committed';
  },
};

test('a large send retried with its duplicate id after a crash at any file operation is there exactly once', async () => {
  const outcomes = await enumerateCrashPoints(scenario, MODES);
  expect([...outcomes.keys()].sort()).toEqual(['committed', 'not committed']);
}, 180_000);
