// Our JMS client's side of the large-message scenario (scenarios/java-large-message.mjs), the
// counterpart of bench/java/hornetq LargeMessageClient: ROLE=consumer takes one BytesMessage from
// BENCH_ADDRESS (jms.queue.NAME) at HOST:PORT and reads its body to the end, with our client's
// defaults (consumer window 1 MiB). Prints {"done":true,"bytes":N,"seconds":S,"sha256":"..."},
// the seconds from the receive call to the body in hand, and exits; exits 1 with the error on
// stderr on failure. TIMEOUT_MS bounds the wait for the message (default 300000).
import { createHash } from 'node:crypto';
import hornetq from '../dist/index.js';

const { HornetQConnectionFactory, HornetQQueue, Session } = hornetq;
const JMS_QUEUE_PREFIX = 'jms.queue.';

async function consume(env) {
  const address = env.BENCH_ADDRESS ?? '';
  if (!address.startsWith(JMS_QUEUE_PREFIX))
    throw new Error(`BENCH_ADDRESS must be jms.queue.NAME, not "${address}"`);
  const timeoutMs = Number(env.TIMEOUT_MS ?? 300_000);
  const factory = new HornetQConnectionFactory({ host: env.HOST ?? '127.0.0.1', port: Number(env.PORT) });
  const connection = await factory.createConnection();
  try {
    await connection.start();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumer = await session.createConsumer(new HornetQQueue(address.slice(JMS_QUEUE_PREFIX.length)));
    const started = process.hrtime.bigint();
    const message = await consumer.receive(timeoutMs);
    if (message === null || typeof message.readBytes !== 'function') {
      throw new Error(
        `expected a BytesMessage within ${timeoutMs} ms, got ${message === null ? 'none' : 'another kind'}`,
      );
    }
    const body = Buffer.alloc(Number(message.getBodyLength()));
    message.readBytes(body);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const sha256 = createHash('sha256').update(body).digest('hex');
    process.stdout.write(`${JSON.stringify({ done: true, bytes: body.length, seconds, sha256 })}\n`);
  } finally {
    await connection.close();
  }
}

if (process.env.ROLE !== 'consumer') {
  process.stderr.write(`large-message-client: ROLE must be consumer, not "${process.env.ROLE ?? ''}"\n`);
  process.exit(1);
}
try {
  await consume(process.env);
} catch (error) {
  process.stderr.write(`large-message-client: ${error.stack ?? error}\n`);
  process.exit(1);
}
