import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import {
  DeliveryMode,
  HornetQTextMessage,
  type HornetQConnection,
  type HornetQMessage,
  type HornetQSession,
} from '../../jms';
import { CliError, systemErrorCode } from '../shared/cli-error';
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
import { Registry } from '../shared/registry';
import { collectTypedEntries, TYPED_ENTRY_HELP, type TypedEntry } from '../shared/typed-entry';
import { setTypedMapEntry, setTypedProperty } from '../shared/typed-setters';

type BodyType = 'text' | 'bytes' | 'map';

interface ProducerOptions extends ConnectionOptions, ReconnectOptions {
  destination: string;
  count: number;
  size: number;
  persistent?: boolean;
  nonPersistent?: boolean;
  txBatch: number;
  rate?: number;
  message?: string;
  file?: string;
  type?: BodyType;
  property?: TypedEntry[];
  mapEntry?: TypedEntry[];
  ttl?: number;
  priority?: number;
  correlationId?: string;
  replyTo?: string;
}

/** Property carrying each message's number (from 0), so that consumers and browsers can tell them apart. */
export const SEQUENCE_PROPERTY = 'seq';

/**
 * HornetQ's duplicate-detection property: each message carries `<run id>:<seq>`, the same on every
 * attempt, so that a send repeated after a failover is dropped by the broker if the first arrived.
 */
const DUPLICATE_ID_PROPERTY = '_HQ_DUPL_ID';

/** What the producer did, kept across failovers. */
interface SendCounts {
  /** Sends the broker has answered (or, transacted, that are in a committed transaction). */
  confirmed: number;
  /** Sends or commits made again after a failover interrupted them. */
  retried: number;
}

export function producerCommand(): Command {
  const command = new Command('producer')
    .option('--destination <name>', DESTINATION_HELP, DEFAULT_DESTINATION)
    .option('--count <n>', 'messages to send', integerIn(1), 1000)
    .option(
      '--size <bytes>',
      "body size in bytes (text 'message N' padded with dots; 0 for an empty body)",
      integerIn(0, 100 * 1024 * 1024),
      100,
    )
    .addOption(new Option('--persistent', 'persistent messages (the default)').conflicts('nonPersistent'))
    .option('--non-persistent', 'non-persistent messages')
    .option('--tx-batch <n>', 'send in a transaction, committed every n messages', integerIn(1))
    .option('--rate <msgs/s>', 'send at most this many messages per second', positiveNumber)
    .addOption(
      new Option('--message <text>', 'the body of every message (instead of --size)').conflicts([
        'file',
        'size',
      ]),
    )
    .addOption(new Option('--file <path>', "the file's bytes as the body of every message").conflicts('size'))
    .addOption(
      new Option('--type <kind>', 'message type (text, or bytes with --file)').choices([
        'text',
        'bytes',
        'map',
      ]),
    )
    .option(`--property <entry>`, `a message property: ${TYPED_ENTRY_HELP}`, collectTypedEntries)
    .option('--map-entry <entry>', `an entry of a --type map body: ${TYPED_ENTRY_HELP}`, collectTypedEntries)
    .option('--ttl <ms>', 'time to live: the broker drops a message unconsumed for this long', integerIn(1))
    .option('--priority <0-9>', 'JMS priority (4 unless given)', integerIn(0, 9))
    .option('--correlation-id <id>', 'JMSCorrelationID of every message')
    .option('--reply-to <destination>', `JMSReplyTo of every message: ${DESTINATION_HELP}`);
  return addReconnectOption(addConnectionOptions(command)).action(async (options: ProducerOptions) =>
    produce(options),
  );
}

async function produce(options: ProducerOptions): Promise<void> {
  const registry = new Registry(options.config);
  const interrupt = new InterruptWatch();
  let connection: HornetQConnection | null = null;
  let watch: FailoverWatch | null = null;
  const counts: SendCounts = { confirmed: 0, retried: 0 };
  let target = options.destination;
  const startedAt = performance.now();
  const progress = progressBar('sending', options.count);
  const summary = (reason: string): void =>
    console.log(
      `sent ${countAndRate(counts.confirmed, performance.now() - startedAt)} to ${target}${failoverDetails(counts, watch)}${reason}`,
    );
  try {
    checkProperties(options.property ?? []);
    const makeBody = await bodyMaker(options);
    const destination = await resolveDestination(options.destination, registry);
    target = destinationUrl(destination);
    const replyTo =
      options.replyTo === undefined ? null : await resolveDestination(options.replyTo, registry);
    const opened = await connect(options, registry, reconnectSettings(options));
    connection = opened.connection;
    watch = new FailoverWatch(connection, (line) => progress.log(line));
    const transacted = options.txBatch !== undefined;
    const session = await connection.createSession(transacted);
    const producer = await onDestination(destination, opened.target, () =>
      session.createProducer(destination),
    );
    producer.setDeliveryMode(
      options.nonPersistent === true ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT,
    );
    if (options.priority !== undefined) producer.setPriority(options.priority);
    if (options.ttl !== undefined) producer.setTimeToLive(options.ttl);
    const runId = randomUUID();
    const messageOf = (seq: number): HornetQMessage => {
      const message = makeBody(session, seq);
      message.setIntProperty(SEQUENCE_PROPERTY, seq);
      message.setStringProperty(DUPLICATE_ID_PROPERTY, `${runId}:${seq}`);
      for (const { name, typed } of options.property ?? []) setTypedProperty(message, name, typed);
      if (options.correlationId !== undefined) message.setJMSCorrelationID(options.correlationId);
      if (replyTo !== null) message.setJMSReplyTo(replyTo);
      return message;
    };
    const pacer = new Pacer(options.rate ?? null, interrupt.signal);
    const retrying = retrier(watch, interrupt, counts);
    const batch = options.txBatch ?? 1;
    for (let first = 0; first < options.count; first += batch) {
      const last = Math.min(first + batch, options.count);
      // A transaction a failover rolled back is sent again whole, with the same duplicate ids.
      await retrying(async () => {
        for (let seq = first; seq < last; seq++) {
          await pacer.due(seq);
          interrupt.check();
          await producer.send(messageOf(seq));
        }
        if (transacted) await session.commit();
      });
      counts.confirmed = last;
      progress.update(last);
    }
    progress.stop();
    summary('');
  } catch (error) {
    progress.stop();
    const reason =
      interrupt.interrupted || watch === null ? error : await watch.reasonFor(error, interrupt.signal);
    // Before a connection there is nothing to report: the error says why there was none.
    if (interrupt.interrupted) summary(' before the interruption');
    else if (connection !== null) {
      summary(reason === error ? ' before an error' : ' before the connection was lost');
    }
    throw reason;
  } finally {
    interrupt.dispose();
    await connection?.close();
    await registry.close();
  }
}

/**
 * Makes a call, and makes it again each time a failover cut it off, once the failover is over:
 * safe for sends, whose duplicate ids make the broker drop a second copy. Gives up when
 * reconnecting did, or on any other error.
 */
function retrier(
  watch: FailoverWatch,
  interrupt: InterruptWatch,
  counts: SendCounts,
): (call: () => Promise<void>) => Promise<void> {
  return async (call) => {
    for (;;) {
      try {
        return await call();
      } catch (error) {
        interrupt.check();
        if (!isFailoverError(error) || watch.lost !== null) throw error;
        counts.retried++;
        await watch.settled(interrupt.signal);
        if (watch.lost !== null) throw error;
      }
    }
  };
}

/** What failovers did, when there were any: said after the count. */
function failoverDetails(counts: SendCounts, watch: FailoverWatch | null): string {
  const failures = watch?.failures ?? 0;
  if (failures === 0) return '';
  return ` across ${failures} failover${failures === 1 ? '' : 's'} (${counts.retried} retried with the same duplicate id)`;
}

/** A property JMS refuses (its name is no identifier, or a JMSX name it keeps) is found before connecting. */
function checkProperties(properties: readonly TypedEntry[]): void {
  const probe = new HornetQTextMessage();
  for (const { name, typed } of properties) {
    try {
      setTypedProperty(probe, name, typed);
    } catch (error) {
      throw new CliError(`--property ${name}: ${(error as Error).message}`, 1, { cause: error });
    }
  }
}

type BodyMaker = (session: HornetQSession, seq: number) => HornetQMessage;

/**
 * How each message's body is made, checked before connecting: --message or --file (the same body
 * for every message), --map-entry, or 'message N' padded to --size.
 */
async function bodyMaker(options: ProducerOptions): Promise<BodyMaker> {
  const type = options.type ?? (options.file === undefined ? 'text' : 'bytes');
  if (type === 'map') {
    if (options.message !== undefined || options.file !== undefined) {
      throw new CliError('--type map takes its body from --map-entry name=value, not --message or --file');
    }
    return (session) => {
      const message = session.createMapMessage();
      for (const { name, typed } of options.mapEntry ?? []) setTypedMapEntry(message, name, typed);
      return message;
    };
  }
  if (options.mapEntry !== undefined) throw new CliError('--map-entry needs --type map');
  const fixed = options.file === undefined ? options.message : await fileBytes(options.file);
  const bodyOf = (seq: number): string | Buffer => fixed ?? generatedBody(seq, options.size);
  if (type === 'text') {
    return (session, seq) => {
      const content = bodyOf(seq);
      return session.createTextMessage(typeof content === 'string' ? content : content.toString('utf8'));
    };
  }
  return (session, seq) => {
    const message = session.createBytesMessage();
    const content = bodyOf(seq);
    message.writeBytes(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    return message;
  };
}

async function fileBytes(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    const reason =
      systemErrorCode(error) === 'ENOENT'
        ? 'no such file'
        : systemErrorCode(error) === 'EISDIR'
          ? 'it is a folder'
          : (error as Error).message;
    throw new CliError(`cannot read --file ${file}: ${reason}`, 1, { cause: error });
  }
}

/**
 * 'message 7' padded with dots to `size` bytes (never cut, so that the number stays readable);
 * size 0 is an empty body.
 */
function generatedBody(seq: number, size: number): string {
  return size === 0 ? '' : `message ${seq}`.padEnd(size, '.');
}
