// One large message each way between us and HornetQ 2.4.7's Java JMS client, beside that client
// with a HornetQ 2.4.7 server, the reference (issue 24, finding 9), run by run. Measurements are
// named client-direction-broker:
//   java-send-ours        HornetQ's Java client sends the message to our broker;
//   java-receive-ours     HornetQ's Java client takes one from our broker;
//   ours-send-hornetq     our client sends one to a HornetQ 2.4.7 server;
//   ours-receive-hornetq  our client takes one from a HornetQ 2.4.7 server;
//   java-send-hornetq, java-receive-hornetq  the reference: HornetQ's client with HornetQ 2.4.7;
//   ours-receive-ours     our client with our broker, for context.
// A send is timed from the send call to its return (the broker's answer to the last chunk), a
// receive from the receive call to the body in hand. Every client with its library's defaults
// (min-large-message-size 100 KiB, HornetQ's 32 KiB socket buffers), durable messages, both
// brokers persisting. Every message is received and its SHA-256 checked against its sender's
// (a send's line says so too). One JSON line per measurement; then a summary line with the
// medians and the ratios to the reference (ours / HornetQ's: 1 is as fast, above 1 slower).
import { round } from '../payload.mjs';
import { HORNETQ_QUEUE_ADDRESS, hornetqBroker, hornetqLargeMessageClient } from '../lib/hornetq-peer.mjs';
import { ProcessGroup, withTimeout } from '../lib/processes.mjs';
import { median } from '../lib/stats.mjs';

const MIB = 2 ** 20;

export const LARGE_MESSAGE_MEASUREMENTS = [
  'java-send-ours',
  'java-receive-ours',
  'ours-send-hornetq',
  'ours-receive-hornetq',
  'java-send-hornetq',
  'java-receive-hornetq',
  'ours-receive-ours',
];
/** Each of ours over the reference it is compared with. */
const RATIOS = [
  ['java-send-ours', 'java-send-hornetq'],
  ['java-receive-ours', 'java-receive-hornetq'],
  ['ours-send-hornetq', 'java-send-hornetq'],
  ['ours-receive-hornetq', 'java-receive-hornetq'],
];

/** The JSON lines of one run ({ mib, timeoutMs, run }), in LARGE_MESSAGE_MEASUREMENTS' order. */
export async function measureLargeMessages({ mib, timeoutMs, run }, classpaths) {
  const bytes = mib * MIB;
  const transfer = { bytes, timeoutMs, javaClient: hornetqLargeMessageClient(classpaths) };
  const byBroker = {
    hornetq: await onBroker('hornetq', hornetqBroker(classpaths), transfer, async (t) => ({
      ...(await t.pass('java', 'java')),
      ...(await t.pass('java', 'ours')),
      ...(await t.pass('ours', 'java')),
    })),
    ours: await onBroker('ours', ourBroker, transfer, async (t) => ({
      ...(await t.pass('java', 'ours')),
      ...(await t.pass('java', 'java')),
    })),
  };
  return LARGE_MESSAGE_MEASUREMENTS.map((measurement) => {
    const about = describe(measurement);
    const results = byBroker[about.broker];
    return {
      scenario: 'large-message',
      measurement,
      run,
      ...about,
      ...(results[measurement] ?? { bytes, seconds: null, error: results.error ?? 'not measured' }),
    };
  });
}

/** Who sends or takes, and through which broker, by the measurement's name. */
function describe(measurement) {
  const [client, direction, broker] = measurement.split('-');
  return { client: client === 'java' ? 'hornetq-jms' : 'ours', direction, broker };
}

/**
 * Starts `broker` ('hornetq' or 'ours') in a group of its own, runs `steps` against it and stops
 * everything; a failure or a timeout comes back as { error } (each of its lines then says why).
 */
async function onBroker(broker, startBroker, transfer, steps) {
  const group = new ProcessGroup();
  try {
    const { port } = await startBroker(group);
    const work = steps({ pass: transfers(group, port, broker, transfer) });
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

/**
 * The transfers of one broker's run: pass(sender, receiver) sends one message with one client
 * ('java' or 'ours') and takes it with the other; resolves with the two lines' fields by
 * measurement name (a later pass of the same sender keeps the first's line).
 */
function transfers(group, port, broker, { bytes, timeoutMs, javaClient }) {
  const env = { PORT: String(port), BENCH_ADDRESS: HORNETQ_QUEUE_ADDRESS, TIMEOUT_MS: String(timeoutMs) };
  const run = async (client, role) => {
    const roleEnv = { ...env, ROLE: role, SIZE: String(bytes) };
    const handle =
      client === 'java' ? javaClient(group, roleEnv) : group.start('large-message-client.mjs', roleEnv);
    return handle.waitFor((line) => line.done === true);
  };
  const lines = {};
  return async function pass(sender, receiver) {
    const sent = await run(sender, 'producer');
    const received = await run(receiver, 'consumer');
    const equal = received.sha256 === sent.sha256 && received.bytes === sent.bytes;
    const check = {
      sha256_equal: equal,
      ...(equal
        ? {}
        : {
            error: `received ${received.bytes} bytes, SHA-256 ${received.sha256}; sent ${sent.bytes}, ${sent.sha256}`,
          }),
    };
    lines[`${sender}-send-${broker}`] ??= { ...rate(sent), sha256: sent.sha256, ...check };
    lines[`${receiver}-receive-${broker}`] ??= { ...rate(received), sha256: received.sha256, ...check };
    return lines;
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
    sha256_equal: lines.every((line) => line.sha256_equal === true),
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
