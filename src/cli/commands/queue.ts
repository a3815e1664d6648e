import { setTimeout as sleep } from 'node:timers/promises';
import { Command, Option } from 'commander';
import { HornetQException, type QueueStats } from '../../core/protocol';
import { parseSelector, type HornetQConnection, type HornetQSession } from '../../jms';
import { toHornetQFilter } from '../../jms/selector/selector-translator';
import { CliError } from '../shared/cli-error';
import { queueManagementCommands } from './queue-management';
import { addConnectionOptions, connect, type ConnectionOptions } from '../shared/connection';
import { InterruptWatch } from '../shared/interrupt';
import { positiveNumber } from '../shared/options';
import { table } from '../shared/output';
import { coreQueueName, jmsNameOf } from '../shared/queue-names';
import { Registry } from '../shared/registry';

interface StatOptions extends ConnectionOptions {
  json?: boolean;
  watch?: number | true;
}

interface CreateOptions extends ConnectionOptions {
  durable: boolean;
  address?: string;
  selector?: string;
}

/** Seconds between two refreshes of `queue stat --watch` when it is given no number. */
const DEFAULT_WATCH_SECONDS = 2;

export function queueCommand(): Command {
  const stat = new Command('stat')
    .description(
      'every queue on the broker (or the one named): messages, consumers, delivering, added, acknowledged',
    )
    .argument('[name]', 'one queue: its JMS name (ExampleQueue) or its core name (jms.queue.ExampleQueue)')
    .option('--json', 'one JSON object per queue, with every counter the broker keeps')
    .option(
      '--watch [seconds]',
      `refresh every SECONDS (default ${DEFAULT_WATCH_SECONDS}) until Ctrl-C`,
      positiveNumber,
    );
  const create = new Command('create')
    .description('create a queue (a JMS queue NAME is the core queue jms.queue.NAME)')
    .argument('<name>', 'JMS name (orders) or core name (jms.queue.orders)')
    .addOption(
      new Option('--durable', 'keep the queue and its messages across restarts (the default)').conflicts(
        'nonDurable',
      ),
    )
    .option('--non-durable', 'a queue that lives until the broker stops')
    .option('--address <address>', 'the address the queue takes its messages from (default: the core name)')
    .option('--selector <selector>', 'keep only the messages this JMS selector accepts');
  const remove = new Command('delete')
    .description('delete a queue and every message in it')
    .argument('<name>', 'JMS name (orders) or core name (jms.queue.orders)');
  const purge = new Command('purge')
    .description('remove every message a consumer can take from a queue (consumed and acknowledged)')
    .argument('<name>', 'JMS name (orders) or core name (jms.queue.orders)');
  const queue = new Command('queue')
    .addCommand(
      addConnectionOptions(stat).action(async (name: string | undefined, options: StatOptions) =>
        queueStat(name, options),
      ),
    )
    .addCommand(
      addConnectionOptions(create).action(
        async (name: string, options: CreateOptions & { nonDurable?: boolean }) =>
          queueCreate(name, { ...options, durable: options.nonDurable !== true }),
      ),
    )
    .addCommand(
      addConnectionOptions(purge).action(async (name: string, options: ConnectionOptions) =>
        queuePurge(name, options),
      ),
    )
    .addCommand(
      addConnectionOptions(remove).action(async (name: string, options: ConnectionOptions) =>
        queueDelete(name, options),
      ),
    );
  for (const command of queueManagementCommands()) queue.addCommand(command);
  return queue;
}

/** Runs `work` on a session of a fresh connection, and closes both whatever happens. */
async function withSession<T>(
  options: ConnectionOptions,
  work: (session: HornetQSession, target: string) => Promise<T>,
): Promise<T> {
  const registry = new Registry(options.config);
  let connection: HornetQConnection | null = null;
  try {
    const connected = await connect(options, registry);
    connection = connected.connection;
    return await work(await connection.createSession(false), connected.target);
  } finally {
    await connection?.close();
    await registry.close();
  }
}

async function queueStat(name: string | undefined, options: StatOptions): Promise<void> {
  await withSession(options, async (session, target) => {
    if (options.watch === undefined) {
      printStats(await statsOf(session, name, target), options);
      return;
    }
    const seconds = options.watch === true ? DEFAULT_WATCH_SECONDS : options.watch;
    await watch(seconds, async (refresh) => {
      const queues = await statsOf(session, name, target);
      // A terminal shows the latest table alone; a pipe or file gets each one after a blank line.
      if (process.stdout.isTTY === true) process.stdout.write('\x1b[2J\x1b[H');
      else if (refresh > 0) console.log('');
      printStats(queues, options);
    });
  });
}

/** Calls `show` now and every `seconds` until Ctrl-C or SIGTERM, which end the command normally. */
async function watch(seconds: number, show: (refresh: number) => Promise<void>): Promise<void> {
  const interrupts = new InterruptWatch();
  try {
    for (let refresh = 0; !interrupts.interrupted; refresh++) {
      await show(refresh);
      await sleep(seconds * 1000, undefined, { signal: interrupts.signal }).catch(() => undefined);
    }
  } finally {
    interrupts.dispose();
  }
}

/** Every queue sorted by name, or the one `name` means (an error line when the broker has none). */
async function statsOf(
  session: HornetQSession,
  name: string | undefined,
  target: string,
): Promise<QueueStats[]> {
  const queues = (await session.core.queueStats()).sort((a, b) => a.name.localeCompare(b.name));
  if (name === undefined) return queues;
  const core = coreQueueName(name, new Set(queues.map((queue) => queue.name)));
  const queue = queues.find((candidate) => candidate.name === core);
  if (queue === undefined) {
    throw new CliError(
      `no queue ${named(name, core)} on the broker at ${target} (\`hornetq queue stat\` lists every queue)`,
    );
  }
  return [queue];
}

/** 'jms.queue.X', or 'X' (core name jms.queue.X) when the user wrote it otherwise. */
function named(name: string, core: string): string {
  return name === core ? core : `'${name}' (core name ${core})`;
}

function printStats(queues: readonly QueueStats[], options: StatOptions): void {
  if (options.json === true) {
    for (const queue of queues) console.log(JSON.stringify({ ...queue, jmsName: jmsNameOf(queue) }));
    return;
  }
  console.log(table(COLUMNS, queues.map(row)));
}

const COLUMNS = [
  'QUEUE',
  'JMS NAME',
  'ADDRESS',
  'MESSAGES',
  'CONSUMERS',
  'DELIVERING',
  'ADDED',
  'ACKNOWLEDGED',
];

function row(queue: QueueStats): Array<string | number> {
  const name = queue.temporary ? `${queue.name} (temporary)` : queue.name;
  return [
    name,
    jmsNameOf(queue),
    queue.address,
    queue.messageCount,
    queue.consumerCount,
    queue.deliveringCount,
    queue.messagesAdded,
    queue.messagesAcknowledged,
  ];
}

async function queueCreate(name: string, options: CreateOptions): Promise<void> {
  const core = coreQueueName(name);
  const address = options.address ?? core;
  const filter = options.selector === undefined ? null : filterOf(options.selector);
  await withSession(options, async (session, target) => {
    await refusal(`create queue ${core}`, target, () =>
      session.core.createQueue(address, core, { durable: options.durable, filter }),
    );
  });
  const kind = options.durable ? 'durable' : 'non-durable';
  console.log(
    `created ${kind} queue ${core} (JMS name ${jmsNameOf({ name: core, address })}) on address ${address}`,
  );
}

async function queueDelete(name: string, options: ConnectionOptions): Promise<void> {
  const core = coreQueueName(name);
  await withSession(options, async (session, target) => {
    await refusal(`delete queue ${core}`, target, () => session.core.deleteQueue(core));
  });
  console.log(`deleted queue ${core}`);
}

/**
 * Consumes and acknowledges what the queue holds now, one message at a time until the broker has
 * none for this consumer; what other consumers hold or what waits for its delivery time stays.
 */
async function queuePurge(name: string, options: ConnectionOptions): Promise<void> {
  const core = coreQueueName(name);
  const { removed, left } = await withSession(options, async (session, target) => {
    const info = await session.core.queueQuery(core);
    if (!info.exists) {
      throw new CliError(
        `no queue ${named(name, core)} on the broker at ${target} (\`hornetq queue stat\` lists every queue)`,
      );
    }
    const consumer = await refusal(`consume from queue ${core}`, target, () =>
      session.core.createConsumer(core),
    );
    session.core.start();
    let count = 0;
    for (
      let message = await consumer.receiveImmediate();
      message !== null;
      message = await consumer.receiveImmediate()
    ) {
      await message.acknowledge();
      count++;
    }
    await consumer.close();
    return { removed: count, left: (await session.core.queueQuery(core)).messageCount };
  });
  const noun = removed === 1 ? 'message' : 'messages';
  const rest = left === 0 ? '' : ` (${left} left: delivering to other consumers or scheduled for later)`;
  console.log(`removed ${removed} ${noun} from queue ${core}${rest}`);
}

/** A JMS selector in the broker's terms (JMSPriority is HQPriority there); a bad one is the user's mistake. */
function filterOf(selector: string): string {
  try {
    parseSelector(selector);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`--selector '${selector}' is not a valid JMS selector: ${message}`, 1, {
      cause: error,
    });
  }
  return toHornetQFilter(selector);
}

/** What the broker refuses (no permission, a queue that exists or does not) is one line with its message. */
async function refusal<T>(what: string, target: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!HornetQException.is(error)) throw error;
    throw new CliError(`the broker at ${target} refused to ${what}: ${error.message}`, 1, { cause: error });
  }
}
