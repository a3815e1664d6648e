import { createHash, randomBytes } from 'node:crypto';
import {
  ClientSessionFactory,
  CoreMessage,
  HornetQConnectionFactory,
  HornetQException,
  Session,
  type Broker,
  type BytesMessage,
} from '../../src';
import { useTestBrokers } from '../support/test-broker';

const QUEUE = 'jms.queue.large';

describe('large messages travel in chunks', () => {
  const brokers = useTestBrokers();
  let broker: Broker;

  beforeEach(async () => {
    broker = await brokers.startBroker(
      {
        queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
        // A frame cap far below the message size proves no frame carries the body whole.
        maxFrameBytes: 1024 * 1024,
      },
      { selectors: true },
    );
  });

  async function coreFactory(options: Record<string, number> = {}): Promise<ClientSessionFactory> {
    const factory = await ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port: broker.getPort() }],
      maxFrameBytes: 1024 * 1024,
      ...options,
    });
    brokers.track(factory);
    return factory;
  }

  it('a 50 MiB BytesMessage arrives byte-exact through JMS with 1 MiB frames', async () => {
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: broker.getPort() });
    const connection = await factory.createConnection();
    brokers.track(connection);
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const queue = session.createQueue('large');
    const body = randomBytes(50 * 1024 * 1024);
    const message = session.createBytesMessage();
    message.writeBytes(body);
    const producer = await session.createProducer(queue);
    await producer.send(message);
    const consumer = await session.createConsumer(queue);
    await connection.start();
    const received = (await consumer.receive(30_000)) as BytesMessage | null;
    expect(received).not.toBeNull();
    expect(received!.getBodyLength()).toBe(body.length);
    const copy = new Uint8Array(body.length);
    expect(received!.readBytes(copy)).toBe(body.length);
    expect(digest(Buffer.from(copy))).toBe(digest(body));
    // AUTO_ACKNOWLEDGE acknowledges without waiting for the broker: poll until it has applied it.
    const deadline = Date.now() + 10_000;
    while (broker.listQueues().find((q) => q.name === QUEUE)?.messageCount !== 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(broker.listQueues().find((q) => q.name === QUEUE)?.messageCount).toBe(0);
  }, 120_000);

  it('messages on both sides of the threshold keep their order, and a blocking large send waits for the broker', async () => {
    const factory = await coreFactory({ minLargeMessageSize: 10 * 1024 });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const bodies = [1, 20_000, 5, 300_000, 10 * 1024, 10 * 1024 - 1].map((size) => randomBytes(size));
    for (const [index, body] of bodies.entries()) {
      const message = new CoreMessage();
      message.durable = index % 2 === 0;
      message.body = body;
      await producer.send(message);
    }
    const consumer = await session.createConsumer(QUEUE, { windowSize: 64 * 1024 });
    session.start();
    for (const body of bodies) {
      const received = await consumer.receive(5000);
      expect(received?.message.body.equals(body)).toBe(true);
      await received?.acknowledge();
    }
  });

  // The broker sends a large body's chunks only as credits come: the client must earn them as
  // the chunks arrive, or a body larger than the window would never be whole.
  for (const windowSize of [0, 16 * 1024]) {
    it(`large bodies far beyond a consumer window of ${windowSize} arrive whole, with small ones between them`, async () => {
      const factory = await coreFactory({ minLargeMessageSize: 10 * 1024 });
      const session = await factory.createSession();
      const producer = session.createProducer(QUEUE);
      const bodies = [2 * 1024 * 1024, 3, 700_000, 4].map((size) => randomBytes(size));
      for (const body of bodies) {
        const message = new CoreMessage();
        message.body = body;
        await producer.send(message);
      }
      const consumer = await session.createConsumer(QUEUE, { windowSize });
      session.start();
      for (const body of bodies) {
        const received = await consumer.receive(10_000);
        expect(received?.message.body.equals(body)).toBe(true);
        await received?.acknowledge();
      }
      expect(await consumer.receiveImmediate()).toBeNull();
    });
  }

  it('a body over the broker limit is refused and the session keeps working', async () => {
    await broker.stop();
    broker = await brokers.startBroker(
      {
        queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
        maxLargeMessageBytes: 200_000,
      },
      { selectors: true },
    );
    const factory = await coreFactory({ minLargeMessageSize: 50_000 });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const huge = new CoreMessage();
    huge.durable = true;
    huge.body = Buffer.alloc(300_000, 1);
    const error = await producer.send(huge).catch((e: unknown) => e);
    expect(HornetQException.is(error, 'LARGE_MESSAGE_ERROR_BODY')).toBe(true);
    const small = new CoreMessage();
    small.durable = true;
    small.body = Buffer.from('after');
    await producer.send(small);
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    expect((await consumer.receive(5000))?.message.body.toString()).toBe('after');
  });

  it('a client refuses a large message over its own limit before sending anything', async () => {
    const factory = await coreFactory({ minLargeMessageSize: 1000, maxLargeMessageBytes: 5000 });
    const session = await factory.createSession();
    const message = new CoreMessage();
    message.body = Buffer.alloc(6000);
    const error = await session
      .createProducer(QUEUE)
      .send(message)
      .catch((e: unknown) => e);
    expect(HornetQException.is(error, 'LARGE_MESSAGE_ERROR_BODY')).toBe(true);
    expect(broker.listQueues().find((q) => q.name === QUEUE)?.messagesAdded).toBe(0);
  });
});

function digest(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
