/**
 * Model test (fast-check): random sends (durable or not, to three queues), receive-and-acknowledge,
 * transactions of sends and acknowledgements that commit or roll back, and restarts, against a
 * model of the queues. After every restart what the broker holds (browsed, queue by queue, in
 * order) must equal the model's durable state: every durable message sent outside a transaction
 * or committed and not acknowledged, and no non-durable one.
 *
 * Two brokers: one in this process restarted with stop() and a new Broker on the same data
 * directory; one in a child process (`hornetq server --data-dir`) restarted with SIGTERM or killed
 * with SIGKILL right after the last answer came. A failure prints fast-check's seed and path;
 * replay with CRASH_MODEL_SEED=<seed> (and CRASH_MODEL_PATH=<path>); CRASH_MODEL_SHRINK=1 shrinks.
 */
import fc from 'fast-check';
import {
  Broker,
  ClientSessionFactory,
  CoreMessage,
  PropertyKind,
  type ClientConsumer,
  type ClientProducer,
  type ClientSession,
  type ReceivedMessage,
} from '../../../src';
import { readEnvNumber } from '../../support/env-number';
import { ChildBroker, killChildBrokers, makeDataDir, removeDir } from './child-broker';

const QUEUES = ['jms.queue.model.0', 'jms.queue.model.1', 'jms.queue.model.2'];
const ID_PROPERTY = 'model.id';
const RECEIVE_TIMEOUT_MS = 10_000;

type Restart = 'stop' | 'kill';
type TxStep = { kind: 'send'; queue: number; durable: boolean } | { kind: 'consume'; queue: number };
type Command =
  | { kind: 'send'; queue: number; durable: boolean }
  | { kind: 'consume'; queue: number }
  | { kind: 'transaction'; steps: TxStep[]; commit: boolean }
  | { kind: 'restart'; how: Restart };

interface ModelMessage {
  id: number;
  durable: boolean;
}

/** What the queues hold, as the client intended. */
class QueueModel {
  readonly queues: ModelMessage[][] = QUEUES.map(() => []);
  private nextId = 0;

  newMessage(durable: boolean): ModelMessage {
    return { id: this.nextId++, durable };
  }

  /** A restart keeps durable messages only. */
  restart(): void {
    for (const [index, queue] of this.queues.entries()) this.queues[index] = queue.filter((m) => m.durable);
  }

  ids(queue: number): number[] {
    return (this.queues[queue] ?? []).map((m) => m.id);
  }
}

/** Where the broker runs and how it restarts. */
interface BrokerHost {
  readonly port: number;
  restart(how: Restart): Promise<void>;
  close(): Promise<void>;
}

class InProcessHost implements BrokerHost {
  private constructor(
    private broker: Broker,
    private readonly dataDir: string,
  ) {}

  static async start(dataDir: string): Promise<InProcessHost> {
    return new InProcessHost(await InProcessHost.open(dataDir), dataDir);
  }

  private static async open(dataDir: string): Promise<Broker> {
    const broker = new Broker({
      securityEnabled: false,
      acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
      queues: QUEUES.map((name) => ({ name, address: name, filter: null, durable: true })),
      persistenceEnabled: true,
      dataDirectory: dataDir,
    });
    await broker.start();
    return broker;
  }

  get port(): number {
    return this.broker.getPort();
  }

  /** Only a clean stop here: a crash needs a process to kill (ChildProcessHost). */
  async restart(): Promise<void> {
    await this.broker.stop();
    this.broker = await InProcessHost.open(this.dataDir);
  }

  async close(): Promise<void> {
    await this.broker.stop();
  }
}

class ChildProcessHost implements BrokerHost {
  private constructor(
    private broker: ChildBroker,
    private readonly dataDir: string,
  ) {}

  static async start(dataDir: string): Promise<ChildProcessHost> {
    return new ChildProcessHost(await ChildBroker.start(dataDir), dataDir);
  }

  get port(): number {
    return this.broker.port;
  }

  async restart(how: Restart): Promise<void> {
    if (how === 'kill') await this.broker.kill();
    else await this.broker.stop();
    this.broker = await ChildBroker.start(this.dataDir);
  }

  async close(): Promise<void> {
    await this.broker.stop();
  }
}

/**
 * The client side of one broker start: a plain and a transacted session. Consumers (window 0: one
 * message per request) live for one consume or one transaction only: a consumer left open could
 * hold a credit and take a later message from the other session's consumer.
 */
class Clients {
  private readonly producers = new Map<string, ClientProducer>();

  private constructor(
    private readonly factory: ClientSessionFactory,
    private readonly plain: ClientSession,
    private readonly transacted: ClientSession,
  ) {}

  /** Connects and browses: the first thing after a start, before any consumer exists. */
  static async open(port: number, model: QueueModel): Promise<Clients> {
    const factory = await ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port }],
      blockOnAcknowledge: true,
      blockOnNonDurableSend: true,
      callTimeout: 20_000,
    });
    try {
      const plain = await factory.createSession();
      const transacted = await factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
      plain.start();
      transacted.start();
      await expectBrokerHolds(plain, model);
      return new Clients(factory, plain, transacted);
    } catch (error) {
      await factory.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.factory.close();
  }

  async run(command: Exclude<Command, { kind: 'restart' }>, model: QueueModel): Promise<void> {
    switch (command.kind) {
      case 'send': {
        const message = model.newMessage(command.durable);
        await this.producer(this.plain, 'plain', command.queue).send(coreMessage(message));
        model.queues[command.queue]?.push(message);
        return;
      }
      case 'consume': {
        const consumer = await this.plain.createConsumer(queueName(command.queue), { windowSize: 0 });
        try {
          const received = await receiveNext(consumer, command.queue, model.ids(command.queue)[0]);
          if (received === null) return;
          await consumer.individualAcknowledge(received);
          model.queues[command.queue]?.shift();
        } finally {
          await consumer.close();
        }
        return;
      }
      case 'transaction':
        await this.transaction(command.steps, command.commit, model);
        return;
    }
  }

  private producer(session: ClientSession, which: string, queue: number): ClientProducer {
    const name = `${which} ${queue}`;
    let producer = this.producers.get(name);
    if (producer === undefined) {
      producer = session.createProducer(queueName(queue));
      this.producers.set(name, producer);
    }
    return producer;
  }

  /** The steps in one transaction: consumes take the queue's committed messages in order. */
  private async transaction(steps: readonly TxStep[], commit: boolean, model: QueueModel): Promise<void> {
    const consumers = new Map<number, ClientConsumer>();
    try {
      await this.transactionSteps(steps, commit, model, consumers);
    } finally {
      for (const consumer of consumers.values()) await consumer.close();
    }
  }

  private async transactionSteps(
    steps: readonly TxStep[],
    commit: boolean,
    model: QueueModel,
    consumers: Map<number, ClientConsumer>,
  ): Promise<void> {
    const sent: Array<[number, ModelMessage]> = [];
    const taken = QUEUES.map(() => 0);
    for (const step of steps) {
      if (step.kind === 'send') {
        const message = model.newMessage(step.durable);
        await this.producer(this.transacted, 'tx', step.queue).send(coreMessage(message));
        sent.push([step.queue, message]);
      } else {
        const expected = model.ids(step.queue)[taken[step.queue] ?? 0];
        let consumer = consumers.get(step.queue);
        if (consumer === undefined) {
          consumer = await this.transacted.createConsumer(queueName(step.queue), { windowSize: 0 });
          consumers.set(step.queue, consumer);
        }
        const received = await receiveNext(consumer, step.queue, expected);
        if (received === null) continue;
        await received.acknowledge();
        taken[step.queue] = (taken[step.queue] ?? 0) + 1;
      }
    }
    if (!commit) {
      await this.transacted.rollback();
      return;
    }
    await this.transacted.commit();
    for (const [queue, count] of taken.entries()) model.queues[queue]?.splice(0, count);
    for (const [queue, message] of sent) model.queues[queue]?.push(message);
  }
}

const queueName = (index: number): string => QUEUES[index] ?? `jms.queue.model.${index}`;

/** The next message of a queue, which must be `expected` (undefined: the queue must be empty). */
async function receiveNext(
  consumer: ClientConsumer,
  queue: number,
  expected: number | undefined,
): Promise<ReceivedMessage | null> {
  const received =
    expected === undefined ? await consumer.receiveImmediate() : await consumer.receive(RECEIVE_TIMEOUT_MS);
  const got = received === null ? undefined : idOf(received.message);
  if (got !== expected) {
    throw new Error(
      `${queueName(queue)}: received ${got ?? 'nothing'}, the model expected ${expected ?? 'nothing'}`,
    );
  }
  return received;
}

function coreMessage(model: ModelMessage): CoreMessage {
  const message = new CoreMessage();
  message.durable = model.durable;
  message.properties.set(ID_PROPERTY, { kind: PropertyKind.INT, value: model.id });
  message.body = Buffer.from(`model message ${model.id}`);
  return message;
}

function idOf(message: CoreMessage): number {
  const id = message.properties.get(ID_PROPERTY);
  if (id?.kind !== PropertyKind.INT) throw new Error(`message ${message.messageId} has no ${ID_PROPERTY}`);
  if (!message.body.equals(Buffer.from(`model message ${id.value}`))) {
    throw new Error(`model message ${id.value} has a corrupt body`);
  }
  return id.value;
}

/** Browses every queue: its ids, in order, must be the model's. */
async function expectBrokerHolds(session: ClientSession, model: QueueModel): Promise<void> {
  for (const [index, queue] of QUEUES.entries()) {
    const { messageCount } = await session.queueQuery(queue);
    const browser = await session.createConsumer(queue, { browseOnly: true });
    const ids: number[] = [];
    for (;;) {
      const message =
        ids.length < messageCount
          ? await browser.receive(RECEIVE_TIMEOUT_MS)
          : await browser.receiveImmediate();
      if (message === null) break;
      ids.push(idOf(message.message));
    }
    await browser.close();
    const expected = model.ids(index);
    if (JSON.stringify(ids) !== JSON.stringify(expected)) {
      throw new Error(
        `${queue} holds [${ids.join(', ')}] after the restart; the model: [${expected.join(', ')}]`,
      );
    }
  }
}

function commandsArbitrary(restarts: readonly Restart[]): fc.Arbitrary<Command[]> {
  const queue = fc.integer({ min: 0, max: QUEUES.length - 1 });
  const send = fc.record({ kind: fc.constant('send' as const), queue, durable: fc.boolean() });
  const consume = fc.record({ kind: fc.constant('consume' as const), queue });
  const transaction = fc.record({
    kind: fc.constant('transaction' as const),
    steps: fc.array(fc.oneof(send, consume), { minLength: 1, maxLength: 6 }),
    commit: fc.boolean(),
  });
  const restart = fc.record({ kind: fc.constant('restart' as const), how: fc.constantFrom(...restarts) });
  return fc.array(
    fc.oneof(
      { arbitrary: send, weight: 4 },
      { arbitrary: consume, weight: 2 },
      { arbitrary: transaction, weight: 2 },
      { arbitrary: restart, weight: 1 },
    ),
    { minLength: 1, maxLength: 30 },
  );
}

async function runCommands(host: BrokerHost, commands: readonly Command[]): Promise<void> {
  const model = new QueueModel();
  let clients = await Clients.open(host.port, model);
  try {
    for (const command of commands) {
      if (command.kind !== 'restart') {
        await clients.run(command, model);
        continue;
      }
      await clients.close();
      await host.restart(command.how);
      model.restart();
      clients = await Clients.open(host.port, model);
    }
    // A last restart: what the sequence left must be there too.
    await clients.close();
    await host.restart('kill');
    model.restart();
    clients = await Clients.open(host.port, model);
  } finally {
    await clients.close();
  }
}

const seed = readEnvNumber(process.env, 'CRASH_MODEL_SEED', Number.isInteger, 'an integer');
const path = process.env.CRASH_MODEL_PATH;
const runs = readEnvNumber(
  process.env,
  'CRASH_MODEL_RUNS',
  (v) => Number.isInteger(v) && v >= 1,
  'an integer >= 1',
);
const assertOptions = (numRuns: number): fc.Parameters<[Command[]]> => ({
  numRuns: runs ?? numRuns,
  endOnFailure: process.env.CRASH_MODEL_SHRINK !== '1',
  ...(seed === null ? {} : { seed }),
  ...(path === undefined || path === '' ? {} : { path }),
});

describe('the broker holds the model’s durable state after every restart', () => {
  afterAll(killChildBrokers);

  test('in this process: stop, then a new Broker on the same data directory', async () => {
    await fc.assert(
      fc.asyncProperty(commandsArbitrary(['stop']), async (commands) => {
        const dataDir = await makeDataDir('hornetq-model-');
        const host = await InProcessHost.start(dataDir);
        try {
          await runCommands(host, commands);
        } finally {
          await host.close();
          await removeDir(dataDir);
        }
      }),
      assertOptions(25),
    );
  }, 300_000);

  test('in a child process: SIGTERM, or SIGKILL right after the last answer', async () => {
    await fc.assert(
      fc.asyncProperty(commandsArbitrary(['stop', 'kill', 'kill']), async (commands) => {
        const dataDir = await makeDataDir('hornetq-model-');
        const host = await ChildProcessHost.start(dataDir);
        try {
          await runCommands(host, commands);
        } finally {
          await host.close();
          await removeDir(dataDir);
        }
      }),
      assertOptions(6),
    );
  }, 300_000);
});
