// One large message each way between us and HornetQ 2.4.7's Java JMS client, beside the
// reference of that client with a HornetQ 2.4.7 server (issue 24, finding 9), run by run:
//   java-send-ours        HornetQ's Java client sends MiB MiB to our broker (send call to its
//                         return: the broker's answer to the last chunk);
//   java-send-hornetq     the same to a HornetQ 2.4.7 server (the reference);
//   ours-receive-hornetq  our client takes that much from a HornetQ 2.4.7 server (receive call
//                         to the body in hand), the message sent by HornetQ's Java client;
//   java-receive-hornetq  HornetQ's Java client takes it from the same server (the reference);
//   ours-receive-ours     our client takes from our broker what the Java client sent it.
// Every client with its library's defaults (min-large-message-size 100 KiB, HornetQ's 32 KiB
// socket buffers), durable messages, both brokers persisting. Each receive's SHA-256 is checked
// against its send's. One JSON line per measurement; then a summary line with the medians and
// the ratios to the reference (ours / HornetQ's: 1 is as fast, above 1 slower).
import { round } from '../payload.mjs';
import { HORNETQ_QUEUE_ADDRESS, hornetqBroker, hornetqLargeMessageClient } from '../lib/hornetq-peer.mjs';
import { ProcessGroup, withTimeout } from '../lib/processes.mjs';
import { median } from '../lib/stats.mjs';

const MIB = 2 ** 20;

export const LARGE_MESSAGE_MEASUREMENTS = [
  'java-send-ours',
  'java-send-hornetq',
  'ours-receive-hornetq',
  'java-receive-hornetq',
  'ours-receive-ours',
];
/** Ours over the reference it is compared with. */
const RATIOS = [
  ['java-send-ours', 'java-send-hornetq'],
  ['ours-receive-hornetq', 'java-receive-hornetq'],
];

/** The JSON lines of one run ({ mib, timeoutMs }), in LARGE_MESSAGE_MEASUREMENTS' order. */
export async function measureLargeMessages({ mib, timeoutMs, run }, classpaths) {
  const bytes = mib * MIB;
  const transfer = { bytes, timeoutMs, javaClient: hornetqLargeMessageClient(classpaths) };
  const onHornetq = await onBroker(hornetqBroker(classpaths), transfer, async (t) => {
    const toJava = await t.javaSend();
    const javaReceive = await t.receive('java', toJava);
    const toOurs = await t.javaSend();
    const oursReceive = await t.receive('ours', toOurs);
    return {
      'java-send-hornetq': toJava,
      'java-receive-hornetq': javaReceive,
      'ours-receive-hornetq': oursReceive,
    };
  });
  const onOurs = await onBroker(ourBroker, transfer, async (t) => {
    const sent = await t.javaSend();
    return { 'java-send-ours': sent, 'ours-receive-ours': await t.receive('ours', sent) };
  });
  const results = { ...onHornetq, ...onOurs };
  return LARGE_MESSAGE_MEASUREMENTS.map((measurement) => ({
    scenario: 'large-message',
    measurement,
    run,
    ...describe(measurement),
    ...(results[measurement] ?? { bytes, seconds: null, error: results.error }),
  }));
}

/** Who sends or takes, and through which broker, by the measurement's name. */
function describe(measurement) {
  const [client, direction, broker] = measurement.split('-');
  return { client: client === 'java' ? 'hornetq-jms' : 'ours', direction, broker };
}

/**
 * Starts a broker in a group of its own, runs `steps` against it and stops everything; a failure
 * or a timeout comes back as { error } (the steps' results are then lost, each line says why).
 */
async function onBroker(startBroker, transfer, steps) {
  const group = new ProcessGroup();
  try {
    const { port } = await startBroker(group);
    const work = steps(transfers(group, port, transfer));
    return await withTimeout(work, transfer.timeoutMs * 4, 'large-message', () => group.stopAll(0));
  } catch (error) {
    return { error: String(error.message) };
  } finally {
    await group.stopAll();
  }
}

async function ourBroker(group) {
  const broker = group.startServer('broker.mjs');
  const { port } = await broker.waitFor((line) => 'port' in line);
  return { broker, port };
}

/** The sends and receives of one broker's run; each resolves with its line's fields. */
function transfers(group, port, { bytes, timeoutMs, javaClient }) {
  const env = { PORT: String(port), BENCH_ADDRESS: HORNETQ_QUEUE_ADDRESS, TIMEOUT_MS: String(timeoutMs) };
  const done = async (handle) => handle.waitFor((line) => line.done === true);
  return {
    async javaSend() {
      const line = await done(javaClient(group, { ...env, ROLE: 'producer', SIZE: String(bytes) }));
      return { ...rate(line), sha256: line.sha256 };
    },
    async receive(client, sent) {
      const handle =
        client === 'java'
          ? javaClient(group, { ...env, ROLE: 'consumer' })
          : group.start('large-message-client.mjs', { ...env, ROLE: 'consumer' });
      const line = await done(handle);
      const equal = line.sha256 === sent.sha256 && line.bytes === sent.bytes;
      return {
        ...rate(line),
        sha256: line.sha256,
        sha256_equal: equal,
        ...(equal
          ? {}
          : {
              error: `received ${line.bytes} bytes, SHA-256 ${line.sha256}; sent ${sent.bytes}, ${sent.sha256}`,
            }),
      };
    },
  };
}

const rate = ({ bytes, seconds }) => ({
  bytes,
  seconds: round(seconds, 3),
  mb_per_s: round(bytes / seconds / MIB, 1),
});

/** The summary line: medians by measurement, the ratios to the reference, every error. */
export function summarizeLargeMessages(lines, { mib, runs }) {
  const seconds = Object.fromEntries(
    LARGE_MESSAGE_MEASUREMENTS.map((measurement) => {
      const values = lines
        .filter((line) => line.measurement === measurement && typeof line.seconds === 'number' && !line.error)
        .map((line) => line.seconds);
      return [measurement, values.length === 0 ? null : round(median(values), 3)];
    }),
  );
  const ratios = Object.fromEntries(
    RATIOS.map(([ours, reference]) => [
      `${ours}/${reference}`,
      seconds[ours] === null || seconds[reference] === null
        ? null
        : round(seconds[ours] / seconds[reference], 2),
    ]),
  );
  const errors = lines
    .filter((line) => line.error)
    .map((line) => `${line.measurement} run ${line.run}: ${line.error}`);
  return {
    summary: 'large-message',
    mib,
    runs,
    median_seconds: seconds,
    ratios,
    sha256_equal: lines.every((line) => line.direction !== 'receive' || line.sha256_equal === true),
    errors,
  };
}

/** The summary as a markdown table (stderr). */
export function largeMessageTable(summary) {
  const rows = LARGE_MESSAGE_MEASUREMENTS.map((measurement) => {
    const seconds = summary.median_seconds[measurement];
    const mbPerS = seconds === null ? '–' : round(summary.mib / seconds, 1);
    return `| ${measurement} | ${seconds ?? '–'} | ${mbPerS} |`;
  });
  const ratios = Object.entries(summary.ratios).map(([name, ratio]) => `| ${name} | ${ratio ?? '–'} | |`);
  return [
    `Large message, ${summary.mib} MiB, median of ${summary.runs} (SHA-256 equal: ${summary.sha256_equal})`,
    '| measurement | s | MiB/s |',
    '|---|---|---|',
    ...rows,
    ...ratios,
  ].join('\n');
}
