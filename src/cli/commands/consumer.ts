import { Command } from 'commander';
import type { HornetQConnection } from '../../jms';
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
import { Registry } from '../shared/registry';

interface ConsumerOptions extends ConnectionOptions {
  destination: string;
  count: number;
  timeout: number;
  txBatch?: number;
  rate?: number;
  selector?: string;
}

export function consumerCommand(): Command {
  const command = new Command('consumer')
    .description('receive (and acknowledge) messages from a queue or topic')
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
    .option('--selector <expression>', 'JMS message selector, e.g. "seq < 10"');
  return addConnectionOptions(command).action(async (options: ConsumerOptions) => consume(options));
}

async function consume(options: ConsumerOptions): Promise<void> {
  const registry = new Registry(options.config);
  const interrupt = new InterruptWatch();
  let connection: HornetQConnection | null = null;
  let received = 0;
  let startedAt = performance.now();
  const progress = progressBar('receiving', options.count);
  let from = options.destination;
  try {
    const destination = await resolveDestination(options.destination, registry);
    from = destinationUrl(destination);
    const opened = await connect(options, registry);
    connection = opened.connection;
    const transacted = options.txBatch !== undefined;
    const session = await connection.createSession(transacted);
    const consumer = await onDestination(destination, opened.target, () =>
      session.createConsumer(destination, options.selector ?? null),
    );
    await connection.start();
    const pacer = new Pacer(options.rate ?? null, interrupt.signal);
    startedAt = performance.now();
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
    console.log(`received ${countAndRate(received, performance.now() - startedAt)} from ${from}`);
    if (options.count > 0 && received < options.count) {
      throw new CliError(
        `received ${received} of ${options.count} messages: none arrived for ${options.timeout} ms`,
      );
    }
  } catch (error) {
    progress.stop();
    if (interrupt.interrupted) {
      console.log(
        `received ${countAndRate(received, performance.now() - startedAt)} from ${from} before the interruption`,
      );
    }
    throw error;
  } finally {
    interrupt.dispose();
    await connection?.close();
    await registry.close();
  }
}
