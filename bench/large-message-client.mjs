// Our JMS client's side of the large-message scenario (scenarios/java-large-message.mjs), the
// counterpart of bench/java/hornetq LargeMessageClient, with our client's defaults. Environment:
// ROLE, PORT, HOST (127.0.0.1), BENCH_ADDRESS (jms.queue.NAME), SIZE (bytes, producer),
// TIMEOUT_MS (consumer, default 300000). ROLE=producer sends one durable BytesMessage of SIZE
// bytes of LargeMessageBody's pattern (byte i is (i * 31 + (i >>> 9)) & 0xff); ROLE=consumer
// takes one and reads its body. Each prints {"done":true,"bytes":N,"seconds":S,"sha256":"..."},
// the seconds from the send call to its return (the broker's answer to the last chunk), or from
// the receive call to the body in hand, and exits; exits 1 with the error on stderr on failure.
import { createHash } from 'node:crypto';
import hornetq from '../dist/index.js';

const { HornetQConnectionFactory, HornetQQueue, Session } = hornetq;
const JMS_QUEUE_PREFIX = 'jms.queue.';

const report = (bytes, seconds, sha256) =>
  process.stdout.write(`${JSON.stringify({ done: true, bytes, seconds, sha256 })}\n`);
const sha256Of = (bytes) => createHash('sha256').update(bytes).digest('hex');
const secondsSince = (started) => Number(process.hrtime.bigint() - started) / 1e9;

function patternBody(size) {
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = (i * 31 + (i >>> 9)) & 0xff;
  return body;
}

/** Runs `work(session, queue)` on a new started connection to the broker, then closes it. */
async function withSession(env, work) {
  const address = env.BENCH_ADDRESS ?? '';
  if (!address.startsWith(JMS_QUEUE_PREFIX)) {
    throw new Error(`BENCH_ADDRESS must be jms.queue.NAME, not "${address}"`);
  }
  const factory = new HornetQConnectionFactory({ host: env.HOST ?? '127.0.0.1', port: Number(env.PORT) });
  const connection = await factory.createConnection();
  try {
    await connection.start();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    await work(session, new HornetQQueue(address.slice(JMS_QUEUE_PREFIX.length)));
  } finally {
    await connection.close();
  }
}

async function produce(env) {
  const body = patternBody(Number(env.SIZE));
  await withSession(env, async (session, queue) => {
    const producer = await session.createProducer(queue);
    const message = session.createBytesMessage();
    message.writeBytes(body);
    const started = process.hrtime.bigint();
    await producer.send(message);
    report(body.length, secondsSince(started), sha256Of(body));
  });
}

async function consume(env) {
  const timeoutMs = Number(env.TIMEOUT_MS ?? 300_000);
  await withSession(env, async (session, queue) => {
    const consumer = await session.createConsumer(queue);
    const started = process.hrtime.bigint();
    const message = await consumer.receive(timeoutMs);
    if (message === null || typeof message.readBytes !== 'function') {
      const got = message === null ? 'none' : 'another kind';
      throw new Error(`expected a BytesMessage within ${timeoutMs} ms, got ${got}`);
    }
    const body = Buffer.alloc(Number(message.getBodyLength()));
    message.readBytes(body);
    report(body.length, secondsSince(started), sha256Of(body));
  });
}

const ROLES = { producer: produce, consumer: consume };
const role = ROLES[process.env.ROLE];
if (role === undefined) {
  process.stderr.write(
    `large-message-client: ROLE must be producer or consumer, not "${process.env.ROLE ?? ''}"\n`,
  );
  process.exit(1);
}
try {
  await role(process.env);
} catch (error) {
  process.stderr.write(`large-message-client: ${error.stack ?? error}\n`);
  process.exit(1);
}
