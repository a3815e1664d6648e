import { setTimeout as sleep } from 'node:timers/promises';
import { Command, Option } from 'commander';
import { DeliveryMode, type HornetQConnection, type Message } from '../../jms';
import { randomUUID } from 'node:crypto';
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
import { LatencyRecorder, nowMicros } from '../shared/latency';
import { integerIn, positiveNumber } from '../shared/options';
import { perSecond } from '../shared/output';
import { Pacer } from '../shared/pacer';
import { Registry } from '../shared/registry';

interface PerfOptions extends ConnectionOptions {
  destination: string;
  count?: number;
  duration?: number;
  rate?: number;
  size: number;
  persistent?: boolean;
  timeout: number;
}

/** Properties of a perf message: which run sent it (other messages are not counted) and when. */
const RUN_PROPERTY = 'perfRun';
const SENT_AT_PROPERTY = 'perfSentAtMicros';
const DEFAULT_DURATION_S = 10;

export function perfCommand(): Command {
  const command = new Command('perf')
    .option('--destination <name>', DESTINATION_HELP, DEFAULT_DESTINATION)
    .addOption(
      new Option('--count <n>', 'send n messages, then stop').argParser(integerIn(1)).conflicts('duration'),
    )
    .option(
      '--duration <seconds>',
      `send for this long (default ${DEFAULT_DURATION_S} s unless --count)`,
      positiveNumber,
    )
    .option('--rate <msgs/s>', 'send at most this many messages per second', positiveNumber)
    .option('--size <bytes>', 'body size in bytes', integerIn(0, 100 * 1024 * 1024), 100)
    .option('--persistent', 'persistent messages (non-persistent by default)')
    .option('--timeout <ms>', 'after sending, wait this long for the rest to arrive', integerIn(1), 10_000);
  return addConnectionOptions(command).action(async (options: PerfOptions) => perf(options));
}

interface Counters {
  sent: number;
  received: number;
  /** Messages from elsewhere (an earlier run, another producer): consumed, not counted. */
  foreign: number;
}

async function perf(options: PerfOptions): Promise<void> {
  const registry = new Registry(options.config);
  const interrupt = new InterruptWatch();
  const connections: HornetQConnection[] = [];
  const counters: Counters = { sent: 0, received: 0, foreign: 0 };
  const interval = new LatencyRecorder();
  const total = new LatencyRecorder();
  let reporter: NodeJS.Timeout | null = null;
  try {
    const destination = await resolveDestination(options.destination, registry);
    const receiving = await connect(options, registry);
    connections.push(receiving.connection);
    const sending = await connect(options, registry);
    connections.push(sending.connection);

    const run = randomUUID();
    const consumerSession = await receiving.connection.createSession(false);
    const consumer = await onDestination(destination, receiving.target, () =>
      consumerSession.createConsumer(destination),
    );
    consumer.setMessageListener((message: Message) => {
      if (message.getStringProperty(RUN_PROPERTY) !== run) {
        counters.foreign++;
        return;
      }
      const latency = nowMicros() - message.getLongProperty(SENT_AT_PROPERTY);
      interval.record(latency);
      total.record(latency);
      counters.received++;
    });
    await receiving.connection.start();

    const session = await sending.connection.createSession(false);
    const producer = await onDestination(destination, sending.target, () =>
      session.createProducer(destination),
    );
    producer.setDeliveryMode(
      options.persistent === true ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT,
    );
    const payload = new Uint8Array(options.size);
    const mode = options.persistent === true ? 'persistent' : 'non-persistent';
    console.log(
      `perf: ${options.size}-byte ${mode} messages to ${destinationUrl(destination)} on ${sending.target}, ${limitOf(options)}`,
    );

    const startedAt = performance.now();
    reporter = startReporter(counters, interval, startedAt);
    const durationMs =
      options.count === undefined ? (options.duration ?? DEFAULT_DURATION_S) * 1000 : Infinity;
    const pacer = new Pacer(options.rate ?? null, interrupt.signal);
    for (let i = 0; i < (options.count ?? Infinity) && performance.now() - startedAt < durationMs; i++) {
      await pacer.due(i);
      if (interrupt.interrupted || performance.now() - startedAt >= durationMs) break;
      const message = session.createBytesMessage();
      message.writeBytes(payload);
      message.setStringProperty(RUN_PROPERTY, run);
      message.setLongProperty(SENT_AT_PROPERTY, nowMicros());
      await producer.send(message);
      counters.sent++;
    }
    const sendingMs = performance.now() - startedAt;
    await drain(counters, options.timeout, interrupt);
    clearInterval(reporter);
    reporter = null;
    printSummary(counters, total, sendingMs, performance.now() - startedAt);
    interrupt.check();
    if (counters.received < counters.sent) {
      throw new CliError(
        `${counters.sent - counters.received} of ${counters.sent} messages did not arrive within ${options.timeout} ms of the last send`,
      );
    }
  } finally {
    if (reporter !== null) clearInterval(reporter);
    interrupt.dispose();
    await Promise.allSettled(connections.map((connection) => connection.close()));
    await registry.close();
  }
}

function limitOf(options: PerfOptions): string {
  const rate = options.rate === undefined ? 'full speed' : `${options.rate} msg/s`;
  const limit =
    options.count === undefined ? `${options.duration ?? DEFAULT_DURATION_S} s` : `${options.count} messages`;
  return `${rate}, ${limit}`;
}

/** One line a second: what was sent and received in that second, and its latency percentiles. */
function startReporter(counters: Counters, interval: LatencyRecorder, startedAt: number): NodeJS.Timeout {
  let last = { at: startedAt, sent: 0, received: 0 };
  return setInterval(() => {
    const now = performance.now();
    const elapsed = now - last.at;
    const sent = Math.round(perSecond(counters.sent - last.sent, elapsed));
    const received = Math.round(perSecond(counters.received - last.received, elapsed));
    const second = Math.round((now - startedAt) / 1000);
    console.log(
      `${String(second).padStart(4)} s  sent ${String(sent).padStart(7)} msg/s  received ${String(received).padStart(7)} msg/s  latency ${interval.percentiles()}`,
    );
    interval.reset();
    last = { at: now, sent: counters.sent, received: counters.received };
  }, 1000);
}

/** Waits until everything sent has arrived, or nothing more arrives for `timeoutMs`. */
async function drain(counters: Counters, timeoutMs: number, interrupt: InterruptWatch): Promise<void> {
  let progressAt = performance.now();
  let seen = counters.received;
  while (counters.received < counters.sent && !interrupt.interrupted) {
    if (counters.received !== seen) {
      seen = counters.received;
      progressAt = performance.now();
    }
    if (performance.now() - progressAt >= timeoutMs) return;
    await sleep(20);
  }
}

function printSummary(
  counters: Counters,
  latency: LatencyRecorder,
  sendingMs: number,
  totalMs: number,
): void {
  const rate = (count: number, ms: number): string => `${Math.round(perSecond(count, ms))} msg/s`;
  console.log('--- summary');
  console.log(
    `sent      ${counters.sent} messages in ${(sendingMs / 1000).toFixed(2)} s (${rate(counters.sent, sendingMs)})`,
  );
  console.log(
    `received  ${counters.received} messages in ${(totalMs / 1000).toFixed(2)} s (${rate(counters.received, totalMs)})` +
      (counters.foreign > 0 ? `, and ${counters.foreign} older messages not counted` : ''),
  );
  console.log(`latency   ${latency.summary()}`);
}
