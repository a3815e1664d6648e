import type { Broker, BrokerConfiguration, ConnectionStatistics } from '../../src';
import { CoreMessage, PacketType, PropertyKind, type Packet } from '../../src/core/protocol';
import { MessageHeader } from '../../src/core/protocol/message-header';
import { RAW_SESSION_CHANNEL, RawClient, newReattachSecret } from '../support/raw-client';
import { CapturingLogger, useTestBrokers, waitFor, type LogLine } from '../support/test-broker';

/**
 * What a client names (addresses to send to or ask credits for, producers, credit requests) and
 * what it leaves undone (confirmations) must not make the broker keep state without a bound. The
 * abusers speak the wire format by hand; the assertions are on what the broker itself keeps.
 */

const brokers = useTestBrokers();
const QUEUE = 'jms.queue.named';

async function startBroker(config: Partial<BrokerConfiguration> = {}): Promise<Broker> {
  return brokers.startBroker({
    queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: false }],
    ...config,
  });
}

/** A session with our extension, as our client opens one: extension packets are allowed on it. */
async function rawSession(broker: Broker, windowSize = -1): Promise<RawClient> {
  const raw = brokers.track(await RawClient.connect(broker.getPort()));
  const answer = await raw.createSession(RAW_SESSION_CHANNEL, {
    windowSize,
    reattachSecret: newReattachSecret(),
  });
  expect(answer.type).toBe(PacketType.CREATESESSION_RESP);
  return raw;
}

function message(address: string, duplicateId?: string): CoreMessage {
  const m = new CoreMessage();
  m.address = address;
  m.body = Buffer.alloc(16, 1);
  if (duplicateId !== undefined)
    m.properties.set(MessageHeader.DUPLICATE_DETECTION_ID, { kind: PropertyKind.STRING, value: duplicateId });
  return m;
}

/** Packets of `type` the raw client has received on a session channel. */
function received(raw: RawClient, type: Packet['type'], channelId = RAW_SESSION_CHANNEL): Packet[] {
  return raw.frames
    .filter((frame) => frame.channelId === channelId && frame.packet.type === type)
    .map((frame) => frame.packet);
}

/** The credits of every SESS_PRODUCER_CREDITS the raw client has received. */
function creditsGranted(raw: RawClient): number[] {
  return received(raw, PacketType.SESS_PRODUCER_CREDITS).map((packet) =>
    'credits' in packet ? packet.credits : Number.NaN,
  );
}

/** Waits until the broker has handled everything sent before: packets are handled in order. */
async function roundTrip(raw: RawClient): Promise<void> {
  const before = received(raw, PacketType.SESS_BINDINGQUERY_RESP).length;
  raw.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_BINDINGQUERY, address: QUEUE });
  await waitFor(
    () => received(raw, PacketType.SESS_BINDINGQUERY_RESP).length > before,
    'the broker to answer a binding query sent after the rest',
    30_000,
  );
}

function connectionOf(broker: Broker, raw: RawClient): ConnectionStatistics | undefined {
  const address = `tcp://127.0.0.1:${raw.socket.localPort}`;
  return broker.listConnections().find((connection) => connection.remoteAddress === address);
}

const ADDRESSES = 5_000;

test('sends with duplicate ids and credit requests to thousands of addresses without queues leave no trace in the broker; a real address is still counted', async () => {
  const broker = await startBroker();
  const raw = await rawSession(broker);
  for (let i = 0; i < ADDRESSES; i++) {
    const address = `jms.queue.nowhere-${i}`;
    raw.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_PRODUCER_REQUEST_CREDITS, address, credits: 1024 });
    raw.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_SEND,
      message: message(address, `id-${i}`),
      requiresResponse: false,
    });
  }
  await roundTrip(raw);
  expect(received(raw, PacketType.SESS_PRODUCER_CREDITS)).toHaveLength(ADDRESSES);
  expect(broker.postOffice.addressSizeCount).toBe(0);
  expect(broker.postOffice.duplicateIdCacheCount).toBe(0);

  raw.send(RAW_SESSION_CHANNEL, {
    type: PacketType.SESS_SEND,
    message: message(QUEUE, 'real'),
    requiresResponse: false,
  });
  await roundTrip(raw);
  expect(broker.postOffice.addressSize(QUEUE).size).toBeGreaterThan(0);
  expect(broker.postOffice.addressSizeCount).toBe(1);
  expect(broker.postOffice.duplicateIdCacheCount).toBe(1);
});

test('with max-size-bytes 0 and BLOCK, credits for addresses that hold nothing are granted, and nothing waits in the broker for them', async () => {
  const broker = await startBroker({
    addressSettings: { '#': { maxSizeBytes: 0, addressFullPolicy: 'BLOCK' } },
  });
  const raw = await rawSession(broker);
  for (let i = 0; i < ADDRESSES; i++) {
    raw.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_PRODUCER_REQUEST_CREDITS,
      address: `jms.queue.nowhere-${i}`,
      credits: 1024,
    });
  }
  await roundTrip(raw);
  expect(received(raw, PacketType.SESS_PRODUCER_CREDITS)).toHaveLength(ADDRESSES);
  expect(broker.postOffice.addressSizeCount).toBe(0);
});

test('queues created and deleted one after the other leave no address size and no duplicate-id cache behind', async () => {
  const broker = await startBroker();
  const raw = await rawSession(broker);
  const session = await (await brokers.connect(broker)).createSession();
  for (let i = 0; i < 50; i++) {
    const name = `jms.queue.passing-${i}`;
    await session.createQueue(name, name);
    raw.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_SEND,
      message: message(name, `id-${i}`),
      requiresResponse: false,
    });
    await roundTrip(raw);
    await session.deleteQueue(name);
  }
  expect(broker.postOffice.addressSizeCount).toBe(0);
  expect(broker.postOffice.duplicateIdCacheCount).toBe(0);
});

test('producers per connection are bounded: the one past the limit is refused with an error naming the setting, and is not kept', async () => {
  const broker = await startBroker({ maxProducersPerConnection: 3 });
  const raw = await rawSession(broker);
  for (let producerId = 0; producerId < 5; producerId++)
    raw.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_CREATEPRODUCER, producerId, address: QUEUE });
  await roundTrip(raw);
  const refusals = received(raw, PacketType.SESS_ASYNC_EXCEPTION);
  expect(refusals).toHaveLength(2);
  for (const refusal of refusals) {
    expect(refusal).toMatchObject({
      message: expect.stringMatching(/already has 3 producers.*maxProducersPerConnection/) as unknown,
    });
  }
  expect(connectionOf(broker, raw)?.producerCount).toBe(3);

  // Closing one makes room for another; the same id again is not one more.
  raw.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_CLOSEPRODUCER, producerId: 0 });
  raw.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_CREATEPRODUCER, producerId: 9, address: QUEUE });
  raw.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_CREATEPRODUCER, producerId: 9, address: null });
  await roundTrip(raw);
  expect(received(raw, PacketType.SESS_ASYNC_EXCEPTION)).toHaveLength(2);
  expect(connectionOf(broker, raw)?.producerCount).toBe(3);
});

test('credit requests for a full BLOCK address wait as one grant per address and session, which carries every credit asked for', async () => {
  const broker = await startBroker({
    addressSettings: { [QUEUE]: { maxSizeBytes: 1, addressFullPolicy: 'BLOCK' } },
  });
  const raw = await rawSession(broker);
  raw.send(RAW_SESSION_CHANNEL, {
    type: PacketType.SESS_SEND,
    message: message(QUEUE),
    requiresResponse: false,
  });
  const requests = 10_000;
  for (let i = 0; i < requests; i++) {
    raw.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_PRODUCER_REQUEST_CREDITS,
      address: QUEUE,
      credits: 100,
    });
  }
  await roundTrip(raw);
  expect(broker.postOffice.addressSize(QUEUE).isFull()).toBe(true);
  expect(received(raw, PacketType.SESS_PRODUCER_CREDITS)).toHaveLength(0);

  // An honest consumer takes the message: the address has room, the waiting grant goes out.
  const session = await (await brokers.connect(broker, { ackBatchSize: 0 })).createSession();
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  const taken = await consumer.receive(10_000);
  if (taken === null) throw new Error('the message never came');
  await taken.acknowledge();
  await waitFor(
    () => received(raw, PacketType.SESS_PRODUCER_CREDITS).length > 0,
    'the credits to be granted once the address has room',
  );
  await roundTrip(raw);
  expect(creditsGranted(raw)).toEqual([requests * 100]);
  expect(broker.postOffice.addressSizeCount).toBe(0);
});

/** A logger that fails, as a real one may (a full disk, a closed stream), on lines matching `pattern`. */
class FailingLogger extends CapturingLogger {
  constructor(
    private readonly pattern: RegExp,
    lines: LogLine[] = [],
  ) {
    super(lines);
  }

  override warn(object: object, text?: string): void {
    super.warn(object, text);
    if (this.pattern.test(text ?? '')) throw new Error('the log stream is broken');
  }

  /** Children share the lines and fail alike (the broker logs through a child per connection). */
  override child(): FailingLogger {
    return new FailingLogger(this.pattern, this.lines);
  }
}

test('whatever fails while the broker gives up on a client that never confirms stays with that connection: it is closed, the failure logged, and the broker serves others', async () => {
  const logger = new FailingLogger(/unconfirmed on session channel/);
  const broker = await startBroker({ logger });
  const raw = await rawSession(broker, 1024);
  // Never confirms: the raw client sends no PacketsConfirmed.
  raw.consumeWithoutFlowControl(QUEUE);
  const producerSession = await (await brokers.connect(broker)).createSession();
  const producer = producerSession.createProducer(QUEUE);
  const body = Buffer.alloc(64 * 1024, 7);
  // Past 8 × 1 KiB + 32 MiB unconfirmed the broker gives up on the raw client's connection.
  for (let i = 0; i < 1_000 && !raw.closed; i++) {
    const m = new CoreMessage();
    m.body = body;
    await producer.send(m);
  }
  await waitFor(() => raw.closed, 'the broker to close the connection of the client that never confirms');
  expect(
    logger.find(/handling "the client left more than .*" failed \(the log stream is broken\)/, ['error']),
  ).toHaveLength(1);

  const consumer = await producerSession.createConsumer(QUEUE);
  producerSession.start();
  const m = new CoreMessage();
  m.durable = true;
  await producer.send(m);
  expect(await consumer.receive(10_000)).not.toBeNull();
});

test('metadata a session sets is one value per key, under a bounded number of keys; a value replaced is free for others', async () => {
  const broker = await startBroker();
  const raw = await rawSession(broker);
  for (let i = 0; i < 20; i++)
    raw.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_UNIQUE_ADD_METADATA,
      key: `key-${i}`,
      data: 'x',
      requiresConfirmation: true,
    });
  for (let i = 0; i < 500; i++)
    raw.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_UNIQUE_ADD_METADATA,
      key: 'key-0',
      data: `v${i}`,
      requiresConfirmation: true,
    });
  await roundTrip(raw);
  const refusals = received(raw, PacketType.EXCEPTION);
  expect(refusals).toHaveLength(4);
  expect(refusals[0]).toMatchObject({
    message: expect.stringMatching(/at most 16 keys; 'key-16' would be one more/) as unknown,
  });
  expect(received(raw, PacketType.NULL_RESPONSE)).toHaveLength(516);
  expect(broker.metadata.size).toBe(16);

  const other = await (await brokers.connect(broker)).createSession();
  await other.addUniqueMetadata('key-0', 'x');
  await expect(other.addUniqueMetadata('key-0', 'v499')).rejects.toThrow(/key-0=v499 had been set already/);
  await raw.close();
  await waitFor(() => broker.metadata.size === 1, 'the closed session to release its metadata');
});

test('large messages being assembled are bounded per connection, over its sessions: the chunk that would pass the bound refuses its message, naming the setting; the other completes', async () => {
  const KiB = 1024;
  const broker = await startBroker({ maxLargeMessageBytesPerConnection: 250 * KiB });
  const raw = await rawSession(broker);
  const first = RAW_SESSION_CHANNEL;
  const second = RAW_SESSION_CHANNEL + 1;
  expect((await raw.createSession(second)).type).toBe(PacketType.CREATESESSION_RESP);
  const chunk = Buffer.alloc(100 * KiB, 3);
  const start = (channelId: number): void =>
    raw.send(channelId, { type: PacketType.SESS_SEND_LARGE, message: message(QUEUE) });
  const sendChunk = (channelId: number, continues: boolean): void =>
    raw.send(channelId, {
      type: PacketType.SESS_SEND_CONTINUATION,
      chunk,
      continues,
      messageBodySize: continues ? -1 : 2 * chunk.length,
      requiresResponse: !continues,
    });
  const answers = (channelId: number): number =>
    received(raw, PacketType.NULL_RESPONSE, channelId).length +
    received(raw, PacketType.EXCEPTION, channelId).length;

  start(first);
  start(second);
  sendChunk(first, true); // 100 KiB held for the connection
  sendChunk(second, true); // 200 KiB
  sendChunk(first, false); // 300 KiB would pass 250: the first session's message is refused
  sendChunk(second, false); // 200 KiB: complete
  await waitFor(() => answers(first) === 1 && answers(second) === 1, 'both last chunks to be answered');
  expect(received(raw, PacketType.EXCEPTION, first)).toMatchObject([
    {
      code: 'LARGE_MESSAGE_ERROR_BODY',
      message: expect.stringMatching(
        /already sending 204800 bytes .* 102400 more would pass the 256000 bytes .*maxLargeMessageBytesPerConnection/,
      ) as unknown,
    },
  ]);
  expect(received(raw, PacketType.NULL_RESPONSE, second)).toHaveLength(1);
  expect(broker.postOffice.requireQueue(QUEUE).messageCount).toBe(1);

  // The bound is on what is held at a time: the refused session may send again now.
  start(first);
  sendChunk(first, true);
  sendChunk(first, false);
  await waitFor(() => answers(first) === 2, 'the next large message to be answered');
  expect(received(raw, PacketType.NULL_RESPONSE, first)).toHaveLength(1);
  expect(broker.postOffice.requireQueue(QUEUE).messageCount).toBe(2);
});
