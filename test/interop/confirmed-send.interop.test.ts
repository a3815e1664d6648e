import {
  HornetQConnectionFactory,
  Session,
  type CompletionListener,
  type HornetQConnection,
  type HornetQSession,
  type Message,
} from '../../src';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './support/interop-server';
import { RECEIVE_MS, textOf } from './support/scenario-context';

/**
 * Sends confirmed by the broker (`confirm: true`, and JMS 2.0's CompletionListener) against real
 * HornetQ 2.4.7 and Artemis servers: many in flight, each resolving on the server's
 * PACKETS_CONFIRMED, and every message there afterwards. Neither server flushes its confirmations
 * after each packet: only every confirmation-window-size bytes or on its 2-second
 * connection-check timer, so the last sends of a burst resolve up to about 2 s late, and the
 * waits here allow for that. (Neither ever reports a refused send: HornetQ 2.4 confirms a
 * packet that failed, so a refusal cannot be told apart from a success there.)
 */

const QUEUE = 'confirmedSends';
const IN_FLIGHT = 300;
/** A window far below what the sends add up to: most confirmations come by size, not by timer. */
const WINDOW = 32 * 1024;
const BODY = 'x'.repeat(1000);

describe.each(['hornetq', 'artemis'] as const)('confirmed sends against %s', (kind: ServerKind) => {
  let server: InteropServer | null = null;
  const connections: HornetQConnection[] = [];

  beforeAll(async () => {
    server = await InteropServer.start(kind, { queues: [QUEUE] });
  });

  afterAll(async () => {
    await Promise.allSettled(connections.map((connection) => connection.close()));
    await server?.stop();
  });

  async function open(): Promise<HornetQSession> {
    if (server === null) throw new Error(`${SERVER_VERSIONS[kind]} did not start`);
    const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: server.port });
    factory.setConfirmationWindowSize(WINDOW);
    const connection = await factory.createConnection();
    connections.push(connection);
    await connection.start();
    return connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  }

  /** Receives every message on the queue until none comes for a while; their texts. */
  async function drain(): Promise<string[]> {
    const session = await open();
    const consumer = await session.createConsumer(session.createQueue(QUEUE));
    const texts: string[] = [];
    try {
      for (;;) {
        const message = await consumer.receive(texts.length === 0 ? RECEIVE_MS : 1_000);
        if (message === null) return texts;
        texts.push(textOf(message) ?? '');
      }
    } finally {
      // Closed, so that what the next test sends is not buffered for this consumer.
      await session.close();
    }
  }

  test(`${IN_FLIGHT} durable sends in flight with confirm: true each resolve, and every message is there`, async () => {
    const session = await open();
    const producer = await session.createProducer(session.createQueue(QUEUE));
    const texts = Array.from({ length: IN_FLIGHT }, (_, i) => `${i}:${BODY}`);
    const started = Date.now();
    await Promise.all(texts.map((text) => producer.send(session.createTextMessage(text), { confirm: true })));
    // The last confirmations wait for the window to fill or for the server's 2 s timer.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await drain()).toEqual(texts);
  }, 60_000);

  test('a CompletionListener hears each send completed, after its send resolved', async () => {
    const session = await open();
    const producer = await session.createProducer(null);
    const completed: Message[] = [];
    const failed: unknown[] = [];
    const listener: CompletionListener = {
      onCompletion: (message) => completed.push(message),
      onException: (_message, error) => failed.push(error),
    };
    const messages = Array.from({ length: 20 }, (_, i) => session.createTextMessage(`listener ${i}`));
    for (const message of messages) await producer.send(session.createQueue(QUEUE), message, listener);
    const deadline = Date.now() + 15_000;
    while (completed.length + failed.length < messages.length && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(failed).toEqual([]);
    expect(completed).toEqual(messages);
    expect(await drain()).toEqual(messages.map((message) => textOf(message)));
  }, 60_000);
});
