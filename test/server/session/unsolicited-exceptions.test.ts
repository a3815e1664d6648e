import { selectorFilterFactory, type Broker, type BrokerConfiguration } from '../../../src';
import { CoreMessage, PacketType, type Packet } from '../../../src/core/protocol';
import type { Filter } from '../../../src/server/postoffice/filter';
import { RAW_SESSION_CHANNEL, RawClient } from '../../support/raw-client';
import { CapturingLogger, useTestBrokers, waitFor } from '../../support/test-broker';

/**
 * HornetQ's Java client takes every EXCEPTION as the answer to the blocking call it waits on, so
 * a broker that sent one unasked would answer the wrong call. Every asynchronous failure towards
 * a plain session (a Java client's) is provoked here over real TCP with a raw client, and none
 * may bring an EXCEPTION (nor our extension's SESS_ASYNC_EXCEPTION) that answers no request:
 * each is logged, or closes what it must.
 */

const env = useTestBrokers();
const QUEUE = 'q';
const CONSUMER = 0;
const THROWING_FILTER = 'throws';

/** Selectors as usual, plus one filter that throws: a delivery the broker cannot make. */
function filterFactory(expression: string): Filter {
  if (expression !== THROWING_FILTER) return selectorFilterFactory(expression);
  return {
    expression,
    match: () => {
      throw new Error('this filter is broken');
    },
  };
}

function startBroker(config: Partial<BrokerConfiguration> = {}): Promise<Broker> {
  return env.startBroker(
    { queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: false }], ...config },
    { filterFactory },
  );
}

/** A connection with one plain session (no extension trailer: what a Java client opens). */
async function plainSession(broker: Broker): Promise<RawClient> {
  const client = env.track(await RawClient.connect(broker.getPort()));
  expect((await client.createSession(RAW_SESSION_CHANNEL)).type).toBe(PacketType.CREATESESSION_RESP);
  return client;
}

function message(body: string | Buffer, address = QUEUE): CoreMessage {
  const built = new CoreMessage();
  built.address = address;
  built.body = typeof body === 'string' ? Buffer.from(body) : body;
  return built;
}

function sendOneWay(client: RawClient, body: string | Buffer, address = QUEUE): void {
  client.send(RAW_SESSION_CHANNEL, {
    type: PacketType.SESS_SEND,
    message: message(body, address),
    requiresResponse: false,
  });
}

/** Every EXCEPTION or SESS_ASYNC_EXCEPTION the client got, on any channel. */
function exceptionsTo(client: RawClient): Packet[] {
  return client.frames
    .map((frame) => frame.packet)
    .filter(
      (packet) => packet.type === PacketType.EXCEPTION || packet.type === PacketType.SESS_ASYNC_EXCEPTION,
    );
}

/** A request after everything sent before it (the broker handles a session's packets in order). */
async function queueQuery(client: RawClient, queueName = QUEUE): Promise<Packet> {
  return client.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_QUEUEQUERY, queueName });
}

function consumeWithoutFlowControl(client: RawClient, queueName: string, filter: string | null = null): void {
  client.send(RAW_SESSION_CHANNEL, {
    type: PacketType.SESS_CREATECONSUMER,
    consumerId: CONSUMER,
    queueName,
    filter,
    browseOnly: false,
    requiresResponse: false,
  });
  client.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_FLOWTOKEN, consumerId: CONSUMER, credits: -1 });
  client.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_START });
}

test('a delivery the broker cannot make closes the consumer’s connection, with no EXCEPTION first', async () => {
  const logger = new CapturingLogger();
  const broker = await startBroker({ logger });
  const consumer = await plainSession(broker);
  consumeWithoutFlowControl(consumer, QUEUE, THROWING_FILTER);
  expect((await queueQuery(consumer)).type).toBe(PacketType.SESS_QUEUEQUERY_RESP);
  const producer = await plainSession(broker);
  sendOneWay(producer, 'cannot be delivered');
  await waitFor(() => consumer.closed, 'the broker to close the consumer’s connection');
  expect(exceptionsTo(consumer)).toEqual([]);
  expect(exceptionsTo(producer)).toEqual([]);
  expect(
    logger.find(/delivery to consumer 0 on queue q failed: this filter is broken/, ['error']),
  ).toHaveLength(1);
});

test('a consumer’s queue deleted from another session: the deleter is answered, the consumer hears nothing and goes on', async () => {
  const broker = await startBroker();
  const consumer = await plainSession(broker);
  consumeWithoutFlowControl(consumer, QUEUE);
  expect((await queueQuery(consumer)).type).toBe(PacketType.SESS_QUEUEQUERY_RESP);
  const deleter = await plainSession(broker);
  // HornetQ refuses to delete a queue that has consumers; the refusal answers the deleter's request.
  expect(
    await deleter.request(RAW_SESSION_CHANNEL, { type: PacketType.DELETE_QUEUE, queueName: QUEUE }),
  ).toMatchObject({
    type: PacketType.EXCEPTION,
    code: 'ILLEGAL_STATE',
  });
  sendOneWay(deleter, 'still served');
  await waitFor(() => consumer.deliveries === 1, 'the delivery after the refused delete');
  expect(exceptionsTo(consumer)).toEqual([]);
  expect(consumer.closed).toBe(false);
});

test('a temporary queue whose creator’s connection goes: its consumer on another connection hears nothing and goes on', async () => {
  const broker = await startBroker();
  const creator = await plainSession(broker);
  expect(
    await creator.request(RAW_SESSION_CHANNEL, {
      type: PacketType.CREATE_QUEUE,
      address: 'reply',
      queueName: 'reply',
      filter: null,
      durable: false,
      temporary: true,
      requiresResponse: true,
    }),
  ).toEqual({ type: PacketType.NULL_RESPONSE });
  const consumer = await plainSession(broker);
  consumeWithoutFlowControl(consumer, 'reply');
  expect((await queueQuery(consumer, 'reply')).type).toBe(PacketType.SESS_QUEUEQUERY_RESP);
  await creator.close();
  await waitFor(() => broker.getConnectionCount() === 1, 'the creator’s connection to be gone');
  sendOneWay(consumer, 'to the orphaned reply queue', 'reply');
  await waitFor(() => consumer.deliveries === 1, 'the delivery from the orphaned temporary queue');
  expect(exceptionsTo(consumer)).toEqual([]);
  expect(consumer.closed).toBe(false);
});

test('non-blocking sends to an address full under FAIL are dropped and logged, never answered', async () => {
  const logger = new CapturingLogger();
  const broker = await startBroker({
    logger,
    addressSettings: { [QUEUE]: { maxSizeBytes: 4096, addressFullPolicy: 'FAIL' } },
  });
  const producer = await plainSession(broker);
  for (let i = 0; i < 10; i++) sendOneWay(producer, Buffer.alloc(1024, i));
  const answer = await queueQuery(producer);
  expect(answer.type).toBe(PacketType.SESS_QUEUEQUERY_RESP);
  const kept = (answer as { messageCount: number }).messageCount;
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(10);
  expect(exceptionsTo(producer)).toEqual([]);
  expect(logger.find(/SESS_SEND\(71\) failed: .*full/i, ['warn'])).toHaveLength(10 - kept);
  expect(producer.closed).toBe(false);
});

test('every one-way packet that fails on the broker is logged, and only the requests are answered', async () => {
  const logger = new CapturingLogger();
  const broker = await startBroker({ logger });
  const client = await plainSession(broker);
  const failing: Packet[] = [
    { type: PacketType.SESS_FLOWTOKEN, consumerId: 99, credits: 10 },
    { type: PacketType.SESS_ACKNOWLEDGE, consumerId: 99, messageId: 1, requiresResponse: false },
    { type: PacketType.SESS_INDIVIDUAL_ACKNOWLEDGE, consumerId: 99, messageId: 1, requiresResponse: false },
    { type: PacketType.SESS_EXPIRED, consumerId: 99, messageId: 1 },
    { type: PacketType.SESS_FORCE_CONSUMER_DELIVERY, consumerId: 99, sequence: 0 },
    {
      type: PacketType.SESS_CREATECONSUMER,
      consumerId: 1,
      queueName: 'no-such-queue',
      filter: null,
      browseOnly: false,
      requiresResponse: false,
    },
    {
      type: PacketType.CREATE_QUEUE,
      address: 'elsewhere',
      queueName: QUEUE,
      filter: null,
      durable: false,
      temporary: false,
      requiresResponse: false,
    },
    {
      type: PacketType.SESS_CREATECONSUMER,
      consumerId: 2,
      queueName: QUEUE,
      filter: 'colour = ',
      browseOnly: false,
      requiresResponse: false,
    },
  ];
  for (const packet of failing) client.send(RAW_SESSION_CHANNEL, packet);
  expect((await queueQuery(client)).type).toBe(PacketType.SESS_QUEUEQUERY_RESP);
  expect(exceptionsTo(client)).toEqual([]);
  expect(
    client
      .packetsOn(RAW_SESSION_CHANNEL)
      .filter((packet) => packet.type !== PacketType.PACKETS_CONFIRMED)
      .map((packet) => packet.type),
  ).toEqual([PacketType.SESS_QUEUEQUERY_RESP]);
  expect(logger.find(/failed: /, ['warn'])).toHaveLength(failing.length);
  // The same failures asked as requests are answered, each by its own EXCEPTION.
  const asked = await client.request(RAW_SESSION_CHANNEL, {
    type: PacketType.SESS_ACKNOWLEDGE,
    consumerId: 99,
    messageId: 1,
    requiresResponse: true,
  });
  expect(asked).toMatchObject({ type: PacketType.EXCEPTION });
  expect(exceptionsTo(client)).toHaveLength(1);
  expect(client.closed).toBe(false);
});
