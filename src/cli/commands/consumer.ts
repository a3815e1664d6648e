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
import { addConnectionOptions, connect, type ConnectionOptions } from '../shared/connection';
import {
  DEFAULT_DESTINATION,
  DESTINATION_HELP,
  destinationUrl,
  onDestination,
  resolveDestination,
} from '../shared/destination';
import { InterruptWatch } from '../shared/interrupt';
import { integerIn, positiveNumber } from '../shared/options';
import { countAndRate, progressBar } from '../shared/output';
import { Pacer } from '../shared/pacer';
import { messageJson } from '../shared/message-json';
import { messageSummary } from '../shared/message-summary';
import { Registry } from '../shared/registry';

/** Characters of each body --verbose shows, as `browse` shows them by default. */
const VERBOSE_BODY_WIDTH = 60;

interface ConsumerOptions extends ConnectionOptions {
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
    .option('--timeout <ms>', 'give up when no message arrives for this long', integerIn(1), 5000)
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
  return addConnectionOptions(command).action(async (options: ConsumerOptions, self: Command) =>
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
  let received = 0;
  // The rate is timed from the first message to the last: not the wait for more (--timeout).
  let firstAt: number | null = null;
  let lastAt = 0;
  const elapsed = (): number => (firstAt === null ? 0 : lastAt - firstAt);
  const progress = progressBar('receiving', options.count);
  let from = options.destination;
  try {
    const destination = await resolveDestination(options.destination, registry);
    from = destinationUrl(destination);
    if (options.durable !== undefined && destination instanceof HornetQQueue) {
      throw new CliError(`--durable needs a topic, and ${options.destination} is a queue`);
    }
    const opened = await connect(options, registry);
    connection = opened.connection;
    if (options.clientId !== undefined) await claimClientId(connection, options.clientId);
    const transacted = options.txBatch !== undefined;
    const session = await connection.createSession(transacted);
    const consumer = await onDestination(destination, opened.target, () =>
      openConsumer(session, destination, options),
    );
    await connection.start();
    const pacer = new Pacer(options.rate ?? null, interrupt.signal);
    let uncommitted = 0;
    while (options.count === 0 || received + uncommitted < options.count) {
      await pacer.due(received + uncommitted);
      interrupt.check();
      const message = await consumer
        .receive(options.timeout, { signal: interrupt.signal })
        .catch((error: unknown) => {
          interrupt.check();
          throw error;
        });
      if (message === null) break;
      lastAt = performance.now();
      firstAt ??= lastAt;
      print?.(message, received + uncommitted + 1);
      if (transacted && ++uncommitted === options.txBatch) {
        await session.commit();
        received += uncommitted;
        uncommitted = 0;
      } else if (!transacted) {
        received++;
      }
      progress.update(received + uncommitted);
    }
    if (uncommitted > 0) {
      await session.commit();
      received += uncommitted;
    }
    progress.stop();
    summary(`received ${countAndRate(received, elapsed())} from ${from}`);
    if (options.count > 0 && received < options.count) {
      throw new CliError(
        `received ${received} of ${options.count} messages: none arrived for ${options.timeout} ms`,
      );
    }
  } catch (error) {
    progress.stop();
    if (interrupt.interrupted) {
      summary(`received ${countAndRate(received, elapsed())} from ${from} before the interruption`);
    }
    throw error;
  } finally {
    interrupt.dispose();
    await connection?.close();
    await registry.close();
  }
}
