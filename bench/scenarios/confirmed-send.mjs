// confirmed-send: durable 1 KiB sends (--size) to one broker (persistence on, its journal
// fdatasynced) in three ways, measured back to back against the same broker process in the same
// run, each on a connection of its own with a confirmation window of 1 MiB:
//   confirmed:    send(..., { confirm: true }) with --window (1000) sends in flight, each promise
//                 settled by the broker's PACKETS_CONFIRMED of that send (stored on disk);
//   blocking:     block-on-durable-send, one send at a time (each waits for the broker's answer);
//   non-blocking: one-way sends, each awaited only until written; the run ends with a query,
//                 which the broker answers once everything before it is stored.
// Each line's msgs_per_s is messages over the time from the first send until the last one is
// stored; the summary gives confirmed and non-blocking as ratios to blocking. Blocking sends are
// slow (one journal sync each): they send --confirmed-blocking-messages (2000) only.
import hornetq from '../../dist/index.js';
import { createPayloadFactory, round } from '../payload.mjs';
import { ProcessGroup, withTimeout } from '../lib/processes.mjs';
import { sendAllWithWindow } from '../lib/send-window.mjs';

const { ClientSessionFactory, CoreMessage } = hornetq;
const QUEUE = 'jms.queue.bench';
const WINDOW_BYTES = 1024 * 1024;

export default {
  name: 'confirmed-send',
  repeated: true,
  async run(options) {
    const group = new ProcessGroup();
    try {
      const broker = group.startServer('broker.mjs', { BENCH_QUEUE: QUEUE });
      const { port } = await broker.waitFor((line) => 'port' in line);
      const lines = [];
      for (const mode of ['confirmed', 'blocking', 'non-blocking']) {
        const messages = mode === 'blocking' ? options.confirmedBlockingMessages : options.pMessages;
        lines.push(await measureMode(mode, port, messages, options));
      }
      return lines;
    } finally {
      await group.stopAll();
    }
  },
};

async function measureMode(mode, port, messages, options) {
  const base = { peer: 'ours', scenario: 'confirmed-send', mode, size: options.size, messages };
  try {
    return {
      ...base,
      ...(await withTimeout(sendAll(mode, port, messages, options), options.timeout * 1000, mode)),
    };
  } catch (error) {
    return { ...base, messages: 0, error: String(error.message) };
  }
}

async function sendAll(mode, port, messages, options) {
  const factory = await ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port }],
    confirmationWindowSize: WINDOW_BYTES,
    blockOnDurableSend: mode === 'blocking',
    // Credits for `window` messages, so that that many sends can really be in flight.
    producerWindowSize: Math.max(64 * 1024, options.window * (options.size + 512)),
  });
  try {
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const payloadFor = createPayloadFactory(options.size);
    // One message object for every send: the session encodes it before send() returns.
    const message = new CoreMessage();
    message.durable = true;
    const confirm = mode === 'confirmed';
    const sendOne = (seq) => {
      message.body = payloadFor(seq);
      return producer.send(message, undefined, { confirm });
    };
    const before = await countOf(session);
    const startedNs = process.hrtime.bigint();
    if (confirm) {
      await sendAllWithWindow(messages, options.window, sendOne);
    } else {
      for (let seq = 0; seq < messages; seq++) await sendOne(seq);
      // Answered once everything sent before it is stored: the last send's fate, for all three.
      await session.queueQuery(QUEUE);
    }
    const seconds = Number(process.hrtime.bigint() - startedNs) / 1e9;
    const stored = (await countOf(session)) - before;
    if (stored !== messages) throw new Error(`${mode}: the broker holds ${stored} of ${messages} messages`);
    return {
      seconds: round(seconds),
      msgs_per_s: Math.round(messages / seconds),
      window: confirm ? options.window : 1,
      resend_buffer_peak_bytes: factory.getStatistics().resendBufferPeakBytes,
    };
  } finally {
    await factory.close();
  }
}

async function countOf(session) {
  return (await session.queueQuery(QUEUE)).messageCount;
}
