import { HornetQException, type Broker, type ClientSession, type ClientSessionFactory } from '../../src';
import { CoreMessage, PacketType, type Packet } from '../../src/core/protocol';
import { MessageHeader } from '../../src/core/protocol/message-header';
import { PropertyKind } from '../../src/core/protocol/typed-properties';
import type { AddressSettings } from '../../src/server/postoffice/address-settings';
import {
  RAW_SESSION_CHANNEL,
  RawClient,
  createSessionPacket,
  newReattachSecret,
} from '../support/raw-client';
import { receiveCount, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

/**
 * Nothing a client does makes an address hold more than its limits allow: transacted sends count
 * from the moment they are sent, and a client that ignores producer credits is refused past the
 * BLOCK reject threshold.
 */

const QUEUE = 'jms.queue.full';
const queues = [{ name: QUEUE, address: QUEUE, filter: null, durable: false }];
const KiB = 1024;
const LIMIT = 64 * KiB;
const BODY = Buffer.alloc(4 * KiB, 3);

function startWith(
  env: ReturnType<typeof useTestBrokers>,
  settings: Partial<AddressSettings>,
): Promise<Broker> {
  return env.startBroker({ queues, addressSettings: { [QUEUE]: { maxSizeBytes: LIMIT, ...settings } } });
}

function addressBytes(broker: Broker): number {
  return broker.postOffice.addressSize(QUEUE).size;
}

function transacted(factory: ClientSessionFactory): Promise<ClientSession> {
  return factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
}

/** Sends until a send fails (or `most` succeed); resolves with how many succeeded and the failure. */
async function sendUntilRefused(
  session: ClientSession,
  most = 1_000,
): Promise<{ sent: number; failure: unknown }> {
  const producer = session.createProducer(QUEUE);
  for (let sent = 0; sent < most; sent++) {
    try {
      await producer.send(sequenced(sent, { durable: true, body: BODY }));
    } catch (failure) {
      return { sent, failure };
    }
  }
  return { sent: most, failure: null };
}

/** A raw session (transacted or not) that never asks for producer credits. */
async function rawSession(
  env: ReturnType<typeof useTestBrokers>,
  broker: Broker,
  transactedSends: boolean,
): Promise<RawClient> {
  const raw = env.track(await RawClient.connect(broker.getPort()));
  // With our extension, as our client opens sessions: then a refused one-way send is told (a
  // plain HornetQ session only gets it logged, as HornetQ does).
  raw.send(
    1,
    createSessionPacket(RAW_SESSION_CHANNEL, {
      transacted: transactedSends,
      reattachSecret: newReattachSecret(),
    }),
  );
  await waitFor(() => raw.has(PacketType.CREATESESSION_RESP), 'the raw session to be created');
  return raw;
}

function rawSend(raw: RawClient, address = QUEUE, duplicateId?: string): void {
  const message = new CoreMessage();
  message.address = address;
  message.body = BODY;
  if (duplicateId !== undefined)
    message.properties.set(MessageHeader.DUPLICATE_DETECTION_ID, {
      kind: PropertyKind.STRING,
      value: duplicateId,
    });
  raw.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_SEND, message, requiresResponse: false });
}

type ErrorPacket = Extract<
  Packet,
  {
    type:
      | typeof PacketType.EXCEPTION
      | typeof PacketType.SESS_ASYNC_EXCEPTION
      | typeof PacketType.SESS_SEND_REFUSED;
  }
>;

/**
 * Errors the broker sent the raw session: answers, and (our extension) errors of one-way sends,
 * which name the refused send from extension version 2 on (SESS_SEND_REFUSED).
 */
function exceptions(raw: RawClient): ErrorPacket[] {
  return raw.frames.flatMap((frame) =>
    frame.channelId === RAW_SESSION_CHANNEL &&
    (frame.packet.type === PacketType.EXCEPTION ||
      frame.packet.type === PacketType.SESS_ASYNC_EXCEPTION ||
      frame.packet.type === PacketType.SESS_SEND_REFUSED)
      ? [frame.packet]
      : [],
  );
}

/** Waits until the broker has handled everything the raw client sent before (packets go in order). */
async function roundTrip(raw: RawClient): Promise<void> {
  const answers = (): number =>
    raw.frames.filter((frame) => frame.packet.type === PacketType.SESS_QUEUEQUERY_RESP).length;
  const before = answers();
  raw.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_QUEUEQUERY, queueName: QUEUE });
  await waitFor(() => answers() > before || raw.closed, 'the broker to answer a query sent after the rest');
}

describe('a refused one-way send, told to our client', () => {
  const env = useTestBrokers();

  test.each([
    [2, 'SESS_SEND_REFUSED, naming the command of each refused send'],
    [1, 'SESS_ASYNC_EXCEPTION, which names nothing'],
  ])('extension version %i: %s', async (version) => {
    const broker = await startWith(env, { addressFullPolicy: 'FAIL' });
    const raw = env.track(await RawClient.connect(broker.getPort()));
    raw.send(
      1,
      createSessionPacket(RAW_SESSION_CHANNEL, {
        reattachSecret: newReattachSecret(),
        extensionVersion: version,
        windowSize: 1024,
      }),
    );
    await waitFor(() => raw.has(PacketType.CREATESESSION_RESP), 'the raw session to be created');
    // Commands 0 to 29 on the session's channel; the address holds about 16 of them.
    for (let i = 0; i < 30; i++) rawSend(raw);
    await roundTrip(raw);
    const stored = broker.listQueues().find((queue) => queue.name === QUEUE)?.messageCount ?? 0;
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(30);
    const refusals = exceptions(raw);
    if (version === 2) {
      expect(refusals).toEqual(
        Array.from({ length: 30 - stored }, (_, i) => ({
          type: PacketType.SESS_SEND_REFUSED,
          commandId: stored + i,
          code: 'ADDRESS_FULL',
          message: expect.any(String),
        })),
      );
    } else {
      expect(refusals).toHaveLength(30 - stored);
      for (const refusal of refusals)
        expect(refusal).toMatchObject({ type: PacketType.SESS_ASYNC_EXCEPTION, code: 'ADDRESS_FULL' });
    }
  });
});

describe('transacted sends count in their address from the send', () => {
  const env = useTestBrokers();

  test('FAIL: an open transaction fills the address and is refused with ADDRESS_FULL; rollback releases what it held', async () => {
    const broker = await startWith(env, { addressFullPolicy: 'FAIL' });
    const tx = await transacted(await env.connect(broker, { producerWindowSize: 8 * KiB }));

    const { sent, failure } = await sendUntilRefused(tx);
    expect(HornetQException.is(failure, 'ADDRESS_FULL')).toBe(true);
    // Refused once the open transaction's sends fill the address, not after: each counts for at
    // least its body and (with its headers and overhead) less than twice it.
    expect(addressBytes(broker)).toBeGreaterThanOrEqual(LIMIT);
    expect(addressBytes(broker)).toBeLessThan(LIMIT + 2 * BODY.length);
    expect(sent).toBeGreaterThan(LIMIT / (2 * BODY.length));
    expect((await tx.queueQuery(QUEUE)).messageCount).toBe(0);

    await tx.rollback();
    expect(addressBytes(broker)).toBe(0);
    expect(broker.postOffice.addressSizeCount).toBe(0);
    await expect(sendUntilRefused(tx, 3)).resolves.toEqual({ sent: 3, failure: null });
  });

  test('commit counts each message once: the address holds what it would without a transaction, and nothing once drained', async () => {
    const broker = await startWith(env, { addressFullPolicy: 'FAIL' });
    const factory = await env.connect(broker);
    const tx = await transacted(factory);
    await sendUntilRefused(tx, 5);
    const held = addressBytes(broker);
    expect(held).toBeGreaterThan(5 * BODY.length);
    await tx.commit();
    expect(addressBytes(broker)).toBe(held);

    const plain = await factory.createSession();
    const consumer = await plain.createConsumer(QUEUE);
    plain.start();
    const received = await receiveCount(consumer, 5);
    await received[4]?.acknowledge();
    await consumer.close();
    await waitFor(
      () => addressBytes(broker) === 0,
      'the address to be empty once its messages are acknowledged',
    );
  });

  test('DROP: transacted sends to a full address are dropped; the commit routes only what fitted', async () => {
    const broker = await startWith(env, { addressFullPolicy: 'DROP' });
    const tx = await transacted(await env.connect(broker, { producerWindowSize: 8 * KiB }));
    await expect(sendUntilRefused(tx, 40)).resolves.toEqual({ sent: 40, failure: null });
    await tx.commit();
    const { messageCount } = await tx.queueQuery(QUEUE);
    expect(messageCount).toBeLessThan(40);
    expect(messageCount).toBeGreaterThan(LIMIT / (2 * BODY.length));
    expect(addressBytes(broker)).toBeGreaterThanOrEqual(LIMIT);
    expect(addressBytes(broker)).toBeLessThan(LIMIT + 2 * BODY.length);
  });

  test('BLOCK: an honest transacted producer waits for credits once its open transaction fills the address', async () => {
    const broker = await startWith(env, { addressFullPolicy: 'BLOCK' });
    const tx = await transacted(await env.connect(broker, { producerWindowSize: 8 * KiB }));
    const producer = tx.createProducer(QUEUE);
    let sent = 0;
    const sending = (async () => {
      for (; sent < 100; sent++) await producer.send(sequenced(sent, { body: BODY }));
    })();
    sending.catch(() => undefined);
    await waitFor(() => addressBytes(broker) >= LIMIT, 'the open transaction to fill the address');
    const blockedAt = sent;
    // Blocked: asking the broker something (answered in order after the sends) lets nothing more in.
    await tx.queueQuery(QUEUE);
    await tx.queueQuery(QUEUE);
    expect(sent).toBeLessThanOrEqual(blockedAt + 3);
    expect(sent * BODY.length).toBeLessThanOrEqual(LIMIT + 16 * KiB);
    await tx.close();
    await sending.catch(() => undefined);
    await waitFor(
      () => addressBytes(broker) === 0,
      'the closed session to release what its transaction held',
    );
  });

  test('a transacted session whose client vanishes releases what its open transaction held', async () => {
    const broker = await startWith(env, { addressFullPolicy: 'FAIL' });
    const raw = await rawSession(env, broker, true);
    for (let i = 0; i < 8; i++) rawSend(raw);
    await roundTrip(raw);
    expect(addressBytes(broker)).toBeGreaterThan(8 * BODY.length);
    await raw.close();
    await waitFor(
      () => addressBytes(broker) === 0,
      'the failed session to release what its transaction held',
    );
    expect(broker.postOffice.addressSizeCount).toBe(0);
  });
});

describe('an open transaction keeps only sends its commit can route', () => {
  const env = useTestBrokers();

  test('transacted sends (with duplicate ids) to thousands of addresses without queues are neither kept nor counted', async () => {
    const broker = await startWith(env, { addressFullPolicy: 'FAIL' });
    const raw = await rawSession(env, broker, true);
    for (let i = 0; i < 2_000; i++) rawSend(raw, `jms.queue.nowhere-${i}`, `id-${i}`);
    rawSend(raw, QUEUE, 'real');
    await roundTrip(raw);
    expect(exceptions(raw)).toEqual([]);
    // Only the send to the address with a queue is held, and counted there.
    expect(broker.postOffice.addressSizeCount).toBe(1);
    expect(addressBytes(broker)).toBeGreaterThan(BODY.length);
    raw.send(RAW_SESSION_CHANNEL, { type: PacketType.SESS_COMMIT });
    await roundTrip(raw);
    expect(exceptions(raw)).toEqual([]);
    expect(broker.postOffice.duplicateIdCacheCount).toBe(1);
    expect(broker.listQueues().find((queue) => queue.name === QUEUE)?.messageCount).toBe(1);
  });
});

describe('BLOCK refuses a client that ignores producer credits', () => {
  const env = useTestBrokers();
  const THRESHOLD = 4 * LIMIT;

  test.each([
    ['non-transacted', false],
    ['transacted', true],
  ])(
    '%s sends without credits past max-size-bytes-reject-threshold are refused with ADDRESS_FULL; the connection stays',
    async (_kind, transactedSends) => {
      const broker = await startWith(env, {
        addressFullPolicy: 'BLOCK',
        maxSizeBytesRejectThreshold: THRESHOLD,
      });
      const raw = await rawSession(env, broker, transactedSends);
      const SENDS = 200; // 800 KiB of bodies, far past the threshold
      for (let i = 0; i < SENDS; i++) rawSend(raw);
      await roundTrip(raw);
      expect(raw.closed).toBe(false);

      const refused = exceptions(raw);
      expect(refused.length).toBeGreaterThan(SENDS / 2);
      expect(refused.every((packet) => packet.code === 'ADDRESS_FULL')).toBe(true);
      expect(refused[0]?.message).toMatch(/reject threshold of 262144 \(max-size-bytes-reject-threshold\)/);
      // Refused once past the threshold: it holds at most one message more.
      expect(addressBytes(broker)).toBeGreaterThan(THRESHOLD);
      expect(addressBytes(broker)).toBeLessThanOrEqual(THRESHOLD + 2 * BODY.length);
    },
  );

  test('an honest client on a BLOCK address is never refused: it waits, and carries on once there is room', async () => {
    const broker = await startWith(env, {
      addressFullPolicy: 'BLOCK',
      maxSizeBytesRejectThreshold: LIMIT + 32 * KiB,
    });
    const producerFactory = await env.connect(broker, { producerWindowSize: 8 * KiB });
    const producer = (await producerFactory.createSession()).createProducer(QUEUE);
    const total = 60; // 240 KiB through a 64 KiB address
    let sent = 0;
    const sending = (async () => {
      for (; sent < total; sent++) await producer.send(sequenced(sent, { body: BODY }));
    })();
    const session = await (await env.connect(broker, { ackBatchSize: 0 })).createSession();
    const consumer = await session.createConsumer(QUEUE, { windowSize: 0 });
    session.start();
    await waitFor(() => addressBytes(broker) >= LIMIT, 'the producer to fill the address');
    for (let received = 0; received < total; received++) {
      const message = await consumer.receive(10_000);
      if (message === null) throw new Error(`receive ${received} timed out`);
      await message.acknowledge();
      expect(addressBytes(broker)).toBeLessThanOrEqual(LIMIT + 32 * KiB);
    }
    await sending;
    expect(sent).toBe(total);
  });
});
