import {
  HornetQConnectionFactory,
  HornetQQueue,
  HornetQTopic,
  JMSContext,
  MessageFormatRuntimeException,
  isBytesMessage,
  type CompletionListener,
  type HornetQJMSContext,
  type Message,
} from '../../src';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './support/interop-server';
import { RECEIVE_MS, textOf } from './support/scenario-context';

/**
 * Issue 27 item 4 on real servers: our JMSContext against HornetQ 2.4.7, Artemis 2.40.0 and our
 * broker. Everything here is client-side over the servers' ordinary packets, so the server must
 * make no difference: receiveBody keeps a message of the wrong body type (which HornetQ's own
 * client would lose), the session modes settle or return messages as JMS says, a CompletionListener
 * hears the server's confirmation, and two contexts split one shared subscription.
 */

const QUEUES = { body: 'ctxBodyQueue', modes: 'ctxModesQueue', async: 'ctxAsyncQueue' } as const;
const TOPIC = 'ctxSharedTopic';

describe.each<ServerKind>(['hornetq', 'artemis', 'ours'])('our JMSContext against %s', (kind) => {
  let server: InteropServer | null = null;
  const contexts: HornetQJMSContext[] = [];

  beforeAll(async () => {
    server = await InteropServer.start(kind, { queues: Object.values(QUEUES), topics: [TOPIC] });
  });

  afterAll(async () => {
    await Promise.allSettled(contexts.map((context) => context.close()));
    await server?.stop();
  });

  async function context(mode: number = JMSContext.AUTO_ACKNOWLEDGE): Promise<HornetQJMSContext> {
    if (server === null) throw new Error(`${SERVER_VERSIONS[kind]} did not start`);
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: server.port });
    factory.setConfirmationWindowSize(1024 * 1024);
    const made = await factory.createContext(mode);
    contexts.push(made);
    return made;
  }

  test('receiveBody of the wrong type throws MessageFormatRuntimeException and the message comes again', async () => {
    const ctx = await context();
    const queue = new HornetQQueue(QUEUES.body);
    const bytes = ctx.createBytesMessage();
    bytes.writeBytes(Buffer.from('binary'));
    await ctx.createProducer().send(queue, bytes);
    const consumer = await ctx.createConsumer(queue);
    await expect(consumer.receiveBody(String, RECEIVE_MS)).rejects.toBeInstanceOf(
      MessageFormatRuntimeException,
    );
    const again = await consumer.receive(RECEIVE_MS);
    expect(again?.getJMSRedelivered()).toBe(true);
    expect(isBytesMessage(again) && again.getBody(Buffer)?.toString()).toBe('binary');
    expect(await consumer.receiveNoWait()).toBeNull();
    await consumer.close();
  });

  test('CLIENT_ACKNOWLEDGE recovers and acknowledges; a transacted context rolls back and commits', async () => {
    const queue = new HornetQQueue(QUEUES.modes);
    const client = await context(JMSContext.CLIENT_ACKNOWLEDGE);
    const consumer = await client.createConsumer(queue);
    await client.createProducer().send(queue, 'one');
    expect(textOf(await consumer.receive(RECEIVE_MS))).toBe('one');
    await client.recover();
    const again = await consumer.receive(RECEIVE_MS);
    expect(again?.getJMSRedelivered()).toBe(true);
    await client.acknowledge();
    await consumer.close();

    const transacted = client.createContext(JMSContext.SESSION_TRANSACTED);
    contexts.push(transacted);
    const txConsumer = await transacted.createConsumer(queue);
    await transacted.createProducer().send(queue, 'two');
    expect(await txConsumer.receiveNoWait()).toBeNull();
    await transacted.commit();
    expect(textOf(await txConsumer.receive(RECEIVE_MS))).toBe('two');
    await transacted.rollback();
    expect(textOf(await txConsumer.receive(RECEIVE_MS))).toBe('two');
    await transacted.commit();
    expect(await txConsumer.receiveNoWait()).toBeNull();
  });

  test('setAsync: the CompletionListener hears the server confirm each send', async () => {
    const ctx = await context();
    const queue = new HornetQQueue(QUEUES.async);
    const completed: Message[] = [];
    let failed: unknown = null;
    const listener: CompletionListener = {
      onCompletion: (message) => void completed.push(message),
      onException: (_message, error) => void (failed = error),
    };
    const producer = ctx.createProducer().setAsync(listener);
    for (let i = 0; i < 20; i++) await producer.send(queue, `async-${i}`);
    const deadline = Date.now() + RECEIVE_MS;
    while (completed.length < 20 && failed === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(failed).toBeNull();
    expect(completed.map((message) => textOf(message))).toEqual(
      Array.from({ length: 20 }, (_, i) => `async-${i}`),
    );
    const consumer = await ctx.createConsumer(queue);
    const bodies: Array<string | null> = [];
    for (let i = 0; i < 20; i++) bodies.push(await consumer.receiveBody(String, RECEIVE_MS));
    expect(bodies).toEqual(Array.from({ length: 20 }, (_, i) => `async-${i}`));
    await consumer.close();
  });

  test('two contexts split one shared subscription', async () => {
    const topic = new HornetQTopic(TOPIC);
    const [a, b] = [await context(), await context()];
    const consumers = [
      await a.createSharedConsumer(topic, 'replicas'),
      await b.createSharedConsumer(topic, 'replicas'),
    ];
    const producer = a.createProducer();
    for (let i = 0; i < 20; i++) await producer.send(topic, `s-${i}`);
    const got: string[][] = [[], []];
    const deadline = Date.now() + RECEIVE_MS;
    while (got[0]!.length + got[1]!.length < 20 && Date.now() < deadline) {
      for (const [index, consumer] of consumers.entries()) {
        const body = await consumer.receiveBody(String, 50);
        if (body !== null) got[index]!.push(body);
      }
    }
    expect(got[0]!.length).toBeGreaterThan(0);
    expect(got[1]!.length).toBeGreaterThan(0);
    expect([...got[0]!, ...got[1]!].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `s-${i}`).sort());
    for (const consumer of consumers) await consumer.close();
  });
});
