import { Command } from 'commander';
import {
  InvalidClientIDException,
  toHornetQMessage,
  type HornetQConnection,
  type HornetQSession,
  type Message,
} from '../../jms';
import { HornetQQueue, type HornetQTopic } from '../../jms/destination';
import { CliError } from '../shared/cli-error';
import {
  addConnectionOptions,
  addReconnectOption,
  connect,
  reconnectSettings,
  type ConnectionOptions,
  type ReconnectOptions,
} from '../shared/connection';
import {
  DEFAULT_DESTINATION,
  DESTINATION_HELP,
  destinationUrl,
  onDestination,
  resolveDestination,
} from '../shared/destination';
import { FailoverWatch, isFailoverError } from '../shared/failover-watch';
import { InterruptWatch } from '../shared/interrupt';
import { integerIn, positiveNumber } from '../shared/options';
import { countAndRate, progressBar } from '../shared/output';
import { Pacer } from '../shared/pacer';
import { messageJson } from '../shared/message-json';
import { messageSummary } from '../shared/message-summary';
import { Registry } from '../shared/registry';

/** Characters of each body --verbose shows, as `browse` shows them by default. */
const VERBOSE_BODY_WIDTH = 60;

interface ConsumerOptions extends ConnectionOptions, ReconnectOptions {
  destination: string;
  count: number;
  timeout: number;
  txBatch?: number;
  rate?: number;
  selector?: string;
  json?: boolean;
  durable?: string;
  clientId?: string;
}

/** What to print of each message received. */
type Printer = (message: Message, number: number) => void;

export function consumerCommand(): Command {
  const command = new Command('consumer')
    .option('--destination <name>', DESTINATION_HELP, DEFAULT_DESTINATION)
    .option(
      '--count <n>',
      'messages to receive; 0 receives until none comes for --timeout',
      integerIn(0),
      1000,
    )
    .option(
      '--timeout <ms>',
      'give up when no message arrives for this long (a failover under way does not count)',
      integerIn(1),
      5000,
    )
    .option('--tx-batch <n>', 'receive in a transaction, committed every n messages', integerIn(1))
    .option('--rate <msgs/s>', 'receive at most this many messages per second', positiveNumber)
    .option('--selector <expression>', 'JMS message selector, e.g. "seq < 10"')
    .option('--json', 'print each message as one line of JSON (the summary goes to stderr)')
    .option(
      '--durable <name>',
      'receive through the durable subscription NAME to a topic (needs --client-id)',
    )
    .option('--client-id <id>', 'the JMS client ID owning the --durable subscription')
    .addHelpText(
      'after',
      '\nWith --verbose, each message is printed as `browse` prints it (headers, properties, body).\n' +
        'The rate is timed from the first message received to the last (not the wait for more).',
    );
  return addReconnectOption(addConnectionOptions(command)).action(
    async (options: ConsumerOptions, self: Command) =>
      // --verbose is the program's option (it also details a failure): read where commander put it.
      consume(options, self.optsWithGlobals<{ verbose?: boolean }>().verbose === true),
  );
}

function printerFor(options: ConsumerOptions, verbose: boolean): Printer | null {
  if (options.json === true) return (message) => console.log(messageJson(toHornetQMessage(message)));
  if (!verbose) return null;
  return (message, number) =>
    console.log(`${number}. ${messageSummary(toHornetQMessage(message), VERBOSE_BODY_WIDTH)}`);
}

/** --durable and --client-id come together, and only for a topic. */
function checkDurable(options: ConsumerOptions): void {
  if (options.durable !== undefined && options.clientId === undefined) {
    throw new CliError('--durable needs --client-id: a durable subscription belongs to a client ID');
  }
  if (options.clientId !== undefined && options.durable === undefined) {
    throw new CliError('--client-id is for a durable subscription: give --durable NAME too');
  }
}

/** A client ID another connection holds: which one, and what to do. */
async function claimClientId(connection: HornetQConnection, clientId: string): Promise<void> {
  try {
    await connection.setClientID(clientId);
  } catch (error) {
    if (!InvalidClientIDException.is(error)) throw error;
    throw new CliError(
      `client ID ${clientId} is in use by another connection: stop that consumer, or give another --client-id`,
      1,
      { cause: error },
    );
  }
}

async function openConsumer(
  session: HornetQSession,
  destination: HornetQQueue | HornetQTopic,
  options: ConsumerOptions,
) {
  const selector = options.selector ?? null;
  if (options.durable === undefined) return session.createConsumer(destination, selector);
  return session.createDurableSubscriber(destination as HornetQTopic, options.durable, selector);
}

async function consume(options: ConsumerOptions, verbose: boolean): Promise<void> {
  checkDurable(options);
  const print = printerFor(options, verbose);
  // With --json, stdout holds only the messages, one JSON document a line.
  const summary = options.json === true ? console.error : console.log;
  const registry = new Registry(options.config);
  const interrupt = new InterruptWatch();
  let connection: HornetQConnection | null = null;
  let watch: FailoverWatch | null = null;
  const counts: ReceiveCounts = { received: 0, redelivered: 0 };
  // The rate is timed from the first message to the last: not the wait for more (--timeout).
  let firstAt: number | null = null;
  let lastAt = 0;
  const elapsed = (): number => (firstAt === null ? 0 : lastAt - firstAt);
  const progress = progressBar('receiving', options.count);
  let from = options.destination;
  const report = (reason: string): void =>
    summary(
      `received ${countAndRate(counts.received, elapsed())} from ${from}${receiveDetails(counts, watch)}${reason}`,
    );
  try {
    const destination = await resolveDestination(options.destination, registry);
    from = destinationUrl(destination);
    if (options.durable !== undefined && destination instanceof HornetQQueue) {
      throw new CliError(`--durable needs a topic, and ${options.destination} is a queue`);
    }
    const opened = await connect(options, registry, reconnectSettings(options));
    connection = opened.connection;
    watch = new FailoverWatch(connection, (line) => progress.log(line));
    if (options.clientId !== undefined) await claimClientId(connection, options.clientId);
    const transacted = options.txBatch !== undefined;
    const session = await connection.createSession(transacted);
    const consumer = await onDestination(destination, opened.target, () =>
      openConsumer(session, destination, options),
    );
    await connection.start();
    const pacer = new Pacer(options.rate ?? null, interrupt.signal);
    let uncommitted = 0;
    let uncommittedRedelivered = 0;
    const commit = async (): Promise<void> => {
      try {
        await session.commit();
        counts.received += uncommitted;
        counts.redelivered += uncommittedRedelivered;
      } catch (error) {
        if (!isFailoverError(error) || watch?.lost !== null) throw error;
        // Rolled back by the failover: its messages come again, marked redelivered.
        await watch.settled(interrupt.signal);
      }
      uncommitted = 0;
      uncommittedRedelivered = 0;
    };
    while (options.count === 0 || counts.received + uncommitted < options.count) {
      await pacer.due(counts.received + uncommitted);
      interrupt.check();
      const failuresBefore = watch.failures;
      const message = await receiveOne(consumer, options.timeout, interrupt, watch);
      if (message === null) {
        // Time spent failing over is not the broker having nothing: wait out the failover, then again.
        if (watch.failingOver || watch.failures !== failuresBefore) {
          await watch.settled(interrupt.signal);
          continue;
        }
        break;
      }
      lastAt = performance.now();
      firstAt ??= lastAt;
      const redelivered = message.getJMSRedelivered() ? 1 : 0;
      print?.(message, counts.received + uncommitted + 1);
      if (transacted) {
        uncommitted++;
        uncommittedRedelivered += redelivered;
        if (uncommitted === options.txBatch) await commit();
      } else {
        counts.received++;
        counts.redelivered += redelivered;
      }
      progress.update(counts.received + uncommitted);
    }
    if (uncommitted > 0) await commit();
    progress.stop();
    report('');
    if (options.count > 0 && counts.received < options.count) {
      throw new CliError(
        `received ${counts.received} of ${options.count} messages: none arrived for ${options.timeout} ms`,
      );
    }
  } catch (error) {
    progress.stop();
    const reason =
      interrupt.interrupted || watch === null ? error : await watch.reasonFor(error, interrupt.signal);
    if (interrupt.interrupted) report(' before the interruption');
    else if (reason !== error) report(' before the connection was lost');
    throw reason;
  } finally {
    interrupt.dispose();
    await connection?.close();
    await registry.close();
  }
}

/** What the consumer did, kept across failovers. */
interface ReceiveCounts {
  /** Messages received and acknowledged (transacted: committed). */
  received: number;
  /** Of those, how many the broker marked redelivered (a failover lost their acknowledgement). */
  redelivered: number;
}

/**
 * The next message, or null after `timeoutMs` without one. A receive a failover cut off is made
 * again once the failover is over; reconnecting that gave up ends the command.
 */
async function receiveOne(
  consumer: Awaited<ReturnType<typeof openConsumer>>,
  timeoutMs: number,
  interrupt: InterruptWatch,
  watch: FailoverWatch,
): Promise<Message | null> {
  for (;;) {
    try {
      return await consumer.receive(timeoutMs, { signal: interrupt.signal });
    } catch (error) {
      interrupt.check();
      if (!isFailoverError(error) || watch.lost !== null) throw error;
      await watch.settled(interrupt.signal);
    }
  }
}

/** What failovers did, when there were any: said after the count. */
function receiveDetails(counts: ReceiveCounts, watch: FailoverWatch | null): string {
  const failures = watch?.failures ?? 0;
  if (failures === 0 && counts.redelivered === 0) return '';
  const across = failures === 0 ? '' : ` across ${failures} failover${failures === 1 ? '' : 's'}`;
  return `${across} (${counts.redelivered} redelivered)`;
}
