import { Command, Option } from 'commander';
import { DeliveryMode, type HornetQConnection } from '../../jms';
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

interface ProducerOptions extends ConnectionOptions {
  destination: string;
  count: number;
  size: number;
  persistent?: boolean;
  nonPersistent?: boolean;
  txBatch: number;
  rate?: number;
}

/** Property carrying each message's number (from 0), so that consumers and browsers can tell them apart. */
export const SEQUENCE_PROPERTY = 'seq';

export function producerCommand(): Command {
  const command = new Command('producer')
    .description('send messages to a queue or topic')
    .option('--destination <name>', DESTINATION_HELP, DEFAULT_DESTINATION)
    .option('--count <n>', 'messages to send', integerIn(1), 1000)
    .option(
      '--size <bytes>',
      "body size in bytes (text 'message N' padded with dots)",
      integerIn(0, 100 * 1024 * 1024),
      100,
    )
    .addOption(new Option('--persistent', 'persistent messages (the default)').conflicts('nonPersistent'))
    .option('--non-persistent', 'non-persistent messages')
    .option('--tx-batch <n>', 'send in a transaction, committed every n messages', integerIn(1))
    .option('--rate <msgs/s>', 'send at most this many messages per second', positiveNumber);
  return addConnectionOptions(command).action(async (options: ProducerOptions) => produce(options));
}

async function produce(options: ProducerOptions): Promise<void> {
  const registry = new Registry(options.config);
  const interrupt = new InterruptWatch();
  let connection: HornetQConnection | null = null;
  let sent = 0;
  const startedAt = performance.now();
  const progress = progressBar('sending', options.count);
  try {
    const destination = await resolveDestination(options.destination, registry);
    const opened = await connect(options, registry);
    connection = opened.connection;
    const transacted = options.txBatch !== undefined;
    const session = await connection.createSession(transacted);
    const producer = await onDestination(destination, opened.target, () =>
      session.createProducer(destination),
    );
    producer.setDeliveryMode(
      options.nonPersistent === true ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT,
    );
    const pacer = new Pacer(options.rate ?? null, interrupt.signal);
    let uncommitted = 0;
    for (let seq = 0; seq < options.count; seq++) {
      await pacer.due(seq);
      interrupt.check();
      const message = session.createTextMessage(body(seq, options.size));
      message.setIntProperty(SEQUENCE_PROPERTY, seq);
      await producer.send(message);
      if (transacted && ++uncommitted === options.txBatch) {
        await session.commit();
        uncommitted = 0;
      }
      if (!transacted || uncommitted === 0) sent = seq + 1;
      progress.update(seq + 1);
    }
    if (transacted && uncommitted > 0) await session.commit();
    sent = options.count;
    progress.stop();
    console.log(
      `sent ${countAndRate(sent, performance.now() - startedAt)} to ${destinationUrl(destination)}`,
    );
  } catch (error) {
    progress.stop();
    if (interrupt.interrupted) {
      console.log(`sent ${countAndRate(sent, performance.now() - startedAt)} before the interruption`);
    }
    throw error;
  } finally {
    interrupt.dispose();
    await connection?.close();
    await registry.close();
  }
}

/** 'message 7' padded with dots to `size` bytes (never cut: the number stays readable). */
function body(seq: number, size: number): string {
  return `message ${seq}`.padEnd(size, '.');
}
