import { CoreMessage, PacketType, type ReceiveMessage } from '../../../src/core/protocol';
import type { Broker } from '../../../src/server/broker';
import { RAW_SESSION_CHANNEL, RawClient, type RawSessionOptions } from '../../support/raw-client';
import { useTestBrokers, waitFor } from '../../support/test-broker';

/**
 * A session's default address, as HornetQ's Java client relies on it: its producer names an
 * address in the session's first message only, and sends later ones to the same address with a
 * null address, which the server routes to the session's default address (CREATESESSION's
 * defaultAddress, else the first address the session named).
 */

const env = useTestBrokers();
const QUEUE = 'jms.queue.orders';
const OTHER = 'jms.queue.other';

async function broker(): Promise<Broker> {
  return env.startBroker({
    queues: [QUEUE, OTHER].map((name) => ({ name, address: name, filter: null, durable: false })),
  });
}

async function session(target: Broker, options: RawSessionOptions = {}): Promise<RawClient> {
  const client = env.track(await RawClient.connect(target.getPort()));
  expect((await client.createSession(RAW_SESSION_CHANNEL, options)).type).toBe(PacketType.CREATESESSION_RESP);
  return client;
}

/** Sends a message to `address` ('' for none, as a Java producer's later messages travel) and waits for its answer. */
async function send(client: RawClient, address: string, body: string): Promise<void> {
  const message = new CoreMessage();
  message.address = address;
  message.body = Buffer.from(body);
  const answer = await client.request(RAW_SESSION_CHANNEL, {
    type: PacketType.SESS_SEND,
    message,
    requiresResponse: true,
  });
  expect(answer.type).toBe(PacketType.NULL_RESPONSE);
}

function messageCount(target: Broker, queue: string): number {
  return target.listQueues().find((stats) => stats.name === queue)?.messageCount ?? -1;
}

test('a message without an address goes where the session first sent one, and arrives addressed', async () => {
  const target = await broker();
  const producer = await session(target);
  await send(producer, QUEUE, 'first');
  await send(producer, '', 'second');
  await send(producer, OTHER, 'elsewhere');
  await send(producer, '', 'third');
  expect(messageCount(target, QUEUE)).toBe(3);
  expect(messageCount(target, OTHER)).toBe(1);

  const consumer = await session(target);
  consumer.consumeWithoutFlowControl(QUEUE);
  const received = (): ReceiveMessage[] =>
    consumer
      .packetsOn(RAW_SESSION_CHANNEL)
      .filter((p): p is ReceiveMessage => p.type === PacketType.SESS_RECEIVE_MSG);
  await waitFor(() => received().length === 3, 'three deliveries');
  expect(received().map((p) => [p.message.address, p.message.body.toString()])).toEqual([
    [QUEUE, 'first'],
    [QUEUE, 'second'],
    [QUEUE, 'third'],
  ]);
});

test("CREATESESSION's defaultAddress is where a session's messages without an address go", async () => {
  const target = await broker();
  const producer = await session(target, { defaultAddress: OTHER });
  await send(producer, '', 'by default');
  await send(producer, QUEUE, 'named');
  await send(producer, '', 'still by default');
  expect(messageCount(target, OTHER)).toBe(2);
  expect(messageCount(target, QUEUE)).toBe(1);
});

test('a message without an address before the session has a default routes nowhere', async () => {
  const target = await broker();
  const producer = await session(target);
  await send(producer, '', 'lost');
  expect(messageCount(target, QUEUE)).toBe(0);
  expect(messageCount(target, OTHER)).toBe(0);
});

test('a large message goes where it is addressed and leaves the default address alone, as in HornetQ', async () => {
  const target = await broker();
  const producer = await session(target);
  const head = new CoreMessage();
  head.address = OTHER;
  producer.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_SEND_LARGE, message: head });
  const answer = await producer.request(RAW_SESSION_CHANNEL, {
    type: PacketType.SESS_SEND_CONTINUATION,
    chunk: Buffer.alloc(1024, 7),
    continues: false,
    messageBodySize: 1024,
    requiresResponse: true,
  });
  expect(answer.type).toBe(PacketType.NULL_RESPONSE);
  await send(producer, QUEUE, 'first small');
  await send(producer, '', 'second small');
  expect(messageCount(target, OTHER)).toBe(1);
  expect(messageCount(target, QUEUE)).toBe(2);
});
