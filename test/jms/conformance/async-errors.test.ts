import {
  DeliveryMode,
  HornetQException,
  IllegalStateException,
  JMSException,
  ResourceAllocationException,
  Session,
  type BytesMessage,
  type HornetQConnection,
  type HornetQMessageProducer,
  type HornetQSession,
  type Topic,
} from '../../../src';
import { FaultProxy } from '../../support/fault-proxy';
import { deferred, receiveTexts, sendTexts, useJmsFixture, waitFor } from '../../support/jms-fixture';

/**
 * Failures no call waits for reach the connection's ExceptionListener (JMS 1.1's only asynchronous
 * channel): a delivery the client refused back to the broker, and a one-way send the broker
 * refused. Each is one JMSException under HornetQ's code name with the core failure linked, never
 * FAILOVER or DISCONNECT: the connection did not fail, and it keeps working.
 */

const KiB = 1024;
const ATTEMPTS = 3;
const LIMIT = 50_000;
const TOPIC_NAME_LIMIT = 64;

const fx = useJmsFixture({
  queues: ['Refused', 'RefusedDLQ', 'Full'],
  broker: {
    maxNameLength: TOPIC_NAME_LIMIT,
    addressSettings: {
      'jms.queue.Refused': { maxDeliveryAttempts: ATTEMPTS, deadLetterAddress: 'jms.queue.RefusedDLQ' },
      'jms.queue.Full': { maxSizeBytes: 16 * KiB, addressFullPolicy: 'FAIL' },
    },
  },
});

/** Everything a connection's ExceptionListener was given, in order. */
function listenTo(connection: HornetQConnection): JMSException[] {
  const heard: JMSException[] = [];
  connection.setExceptionListener((exception) => heard.push(exception));
  return heard;
}

/** The HornetQException linked to a JMS exception, checked to carry the same code. */
function linkedCore(exception: JMSException): HornetQException {
  const linked = exception.getLinkedException();
  expect(HornetQException.is(linked)).toBe(true);
  expect((linked as HornetQException).code).toBe(exception.getErrorCode());
  return linked as HornetQException;
}

/** A round trip on the session: the broker's answers to what it sent before have arrived too. */
async function roundTrip(session: HornetQSession): Promise<void> {
  const browser = await session.createBrowser(session.createQueue('Refused'));
  await browser.close();
}

/** A topic whose address is longer than the broker allows. */
function tooLong(session: HornetQSession): Topic {
  return session.createTopic('t'.repeat(TOPIC_NAME_LIMIT));
}

/**
 * A non-blocking send of a message the broker refuses (its address is too long). Through an
 * anonymous producer: one created for the topic would be refused too, when the broker registers it.
 */
async function sendLost(session: HornetQSession, producer: HornetQMessageProducer): Promise<void> {
  await producer.send(tooLong(session), session.createTextMessage('lost'), {
    deliveryMode: DeliveryMode.NON_PERSISTENT,
  });
}

/** Sends a persistent BytesMessage of `bytes` bytes, then a TextMessage 'next', to JMS queue `Refused`. */
async function sendHugeThenNext(bytes: number): Promise<void> {
  const sender = await fx.connect({ configure: (factory) => factory.setMinLargeMessageSize(10_000) });
  const session = await sender.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const producer = await session.createProducer(session.createQueue('Refused'));
  const huge: BytesMessage = session.createBytesMessage();
  huge.writeBytes(Buffer.alloc(bytes, 7));
  await producer.send(huge);
  await sendTexts(session, fx.queue('Refused'), ['next']);
}

test('a large message over maxLargeMessageBytes: each refusal reaches the ExceptionListener, the next message comes, the refused one is dead-lettered', async () => {
  await sendHugeThenNext(4 * LIMIT);
  const factory = fx.factory((cf) => cf.setMaxLargeMessageBytes(LIMIT));
  expect(factory.getMaxLargeMessageBytes()).toBe(LIMIT);
  const connection = await factory.createConnection();
  const heard = listenTo(connection);
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const consumer = await session.createConsumer(fx.queue('Refused'));
  await connection.start();

  expect(await receiveTexts(consumer, 1)).toEqual(['next']);
  await waitFor(() => heard.length >= ATTEMPTS, `${ATTEMPTS} refusals reported`);
  await fx.expectCount('RefusedDLQ', 1);
  await fx.expectCount('Refused', 0);
  expect(heard).toHaveLength(ATTEMPTS);
  for (const exception of heard) {
    expect(JMSException.is(exception)).toBe(true);
    expect(exception.getErrorCode()).toBe('LARGE_MESSAGE_ERROR_BODY');
    expect(exception.message).toMatch(/of 200000 bytes exceeds this client's limit of 50000 bytes/);
    linkedCore(exception);
  }
  // Nothing failed: no failover, and the session still works.
  expect(connection.getStatistics()).toMatchObject({ reattaches: 0, reconnects: 0 });
  await sendTexts(session, fx.queue('Refused'), ['after']);
  expect(await receiveTexts(consumer, 1)).toEqual(['after']);
});

test('a non-blocking send to a full address with policy FAIL: every message the broker drops reaches the ExceptionListener as ADDRESS_FULL', async () => {
  // A producer window far over the address's maximum: the sends go, and the broker drops the excess.
  const connection = await fx.connect({ configure: (cf) => cf.setProducerWindowSize(1024 * KiB) });
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  // Set after the session exists: the session's reports reach it too.
  const heard = listenTo(connection);
  const producer = await session.createProducer(fx.queue('Full'));
  producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
  const SENT = 12;
  for (let i = 0; i < SENT; i++) {
    const message = session.createBytesMessage();
    message.writeBytes(Buffer.alloc(4 * KiB, i));
    await producer.send(message);
  }
  await roundTrip(session);
  const kept = fx.messageCount('Full');
  expect(kept).toBeLessThan(SENT);
  await waitFor(() => heard.length === SENT - kept, `${SENT - kept} ADDRESS_FULL reports`);
  for (const exception of heard) {
    expect(ResourceAllocationException.is(exception)).toBe(true);
    expect(exception.getErrorCode()).toBe('ADDRESS_FULL');
    expect(exception.message).toBe('Address jms.queue.Full is full');
    linkedCore(exception);
  }
});

test('a non-blocking send to an address whose name is too long reaches the ExceptionListener; a persistent one rejects instead', async () => {
  const { connection, session } = await fx.open();
  const heard = listenTo(connection);
  const producer = await session.createProducer(null);
  await sendLost(session, producer);
  await waitFor(() => heard.length === 1, 'the refusal of the non-blocking send');
  expect(IllegalStateException.is(heard[0])).toBe(true);
  expect(heard[0]?.getErrorCode()).toBe('ILLEGAL_STATE');
  expect(heard[0]?.message).toMatch(
    new RegExp(
      `is ${'jms.topic.'.length + TOPIC_NAME_LIMIT} characters long; the broker allows at most ${TOPIC_NAME_LIMIT}`,
    ),
  );
  linkedCore(heard[0]!);

  // A blocking send has a call to reject: the listener hears nothing more.
  const rejected = await producer
    .send(tooLong(session), session.createTextMessage('refused'))
    .catch((error: unknown) => error);
  expect(JMSException.is(rejected)).toBe(true);
  expect((rejected as JMSException).getErrorCode()).toBe('ILLEGAL_STATE');
  await roundTrip(session);
  await new Promise((resolve) => setImmediate(resolve));
  expect(heard).toHaveLength(1);
});

test('a listener removed hears no more reports; the connection carries on', async () => {
  const { connection, session } = await fx.open();
  const heard = listenTo(connection);
  connection.setExceptionListener(null);
  await sendLost(session, await session.createProducer(null));
  await roundTrip(session);
  await new Promise((resolve) => setImmediate(resolve));
  expect(heard).toEqual([]);
  expect(connection.getStatistics()).toMatchObject({ reattaches: 0, reconnects: 0 });
});

test('reports do not count as failures: a cut after them is still reported once, with FAILOVER', async () => {
  const proxy = fx.track(
    await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: fx.broker.getPort() }),
  );
  const factory = fx.factory((cf) => {
    cf.setReconnectAttempts(5);
    cf.setRetryInterval(50);
    cf.setConfirmationWindowSize(1024 * 1024);
  }, proxy.port);
  const connection = await factory.createConnection();
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const heard = listenTo(connection);
  await sendLost(session, await session.createProducer(null));
  await waitFor(() => heard.length === 1, 'the refusal');

  const failedOver = deferred();
  connection.setFailoverListener((event) => {
    if (event.type === 'FAILOVER_COMPLETED') failedOver.resolve();
  });
  proxy.cut();
  await failedOver.promise;
  await waitFor(() => heard.length === 2, 'the failure');
  // The session works after the failover, the listener was told once of each, and still hears reports.
  await sendTexts(session, fx.queue('Refused'), ['after']);
  expect(fx.messageCount('Refused')).toBe(1);
  await sendLost(session, await session.createProducer(null));
  await waitFor(() => heard.length === 3, 'the refusal after the failover');
  expect(heard.map((exception) => exception.getErrorCode())).toEqual([
    'ILLEGAL_STATE',
    'FAILOVER',
    'ILLEGAL_STATE',
  ]);
  expect(connection.getStatistics()).toMatchObject({ reattaches: 1 });
});
