import { CoreMessage, HornetQException, MessageHeader, PropertyKind, type Broker } from '../../src';
import {
  DEFAULT_MAX_FRAME_BYTES,
  DELIVERY_FRAME_OVERHEAD,
  SEND_FRAME_OVERHEAD,
} from '../../src/core/protocol';
import { useTestBrokers, waitFor } from '../support/test-broker';
import { propertyOf, queueStats, transacted } from './broker-features/support';
import { useNoUncaughtErrors } from '../support/uncaught-errors';

/**
 * A message the broker accepts must be one it can deliver: its delivery frame (consumer id and
 * delivery count added), and the copies it becomes on its way to a dead-letter or expiry address
 * (origin headers added), must fit in a frame. Sizes here are computed by the test from the wire
 * format, not asked of the broker.
 */
const QUEUE = 'jms.queue.sized';
const DLA = 'jms.queue.DLQ';
const EXPIRY = 'jms.queue.ExpiryQueue';
const MAX = DEFAULT_MAX_FRAME_BYTES;
const BODY = Buffer.alloc(100, 0x61);
const PROPERTY = 'big';

/**
 * A message to QUEUE with a BYTES property of `valueBytes` bytes and a small body: a BYTES value
 * grows its frame byte for byte (a STRING, UTF-16 on the wire, would grow it two at a time).
 */
function messageWith(valueBytes: number, durable = true): CoreMessage {
  const message = new CoreMessage();
  message.address = QUEUE;
  message.durable = durable;
  message.body = BODY;
  message.properties.set(PROPERTY, { kind: PropertyKind.BYTES, value: Buffer.alloc(valueBytes, 0x78) });
  return message;
}

/** The property size that makes `frameOf(message)` exactly `target` (frames grow byte for byte). */
function valueBytesFor(target: number, frameOf: (message: CoreMessage) => number): number {
  return target - frameOf(messageWith(0));
}

const sendFrame = (message: CoreMessage): number => SEND_FRAME_OVERHEAD + message.encodedSize();
const deliveryFrame = (message: CoreMessage): number => DELIVERY_FRAME_OVERHEAD + message.encodedSize();

/** The message as it reaches a dead-letter (or, with `expired`, an expiry) address: HornetQ's origin headers. */
function movedCopy(message: CoreMessage, address: string, expired = false): CoreMessage {
  const copy = message.copy();
  copy.address = address;
  copy.properties.set(MessageHeader.ORIGINAL_QUEUE, { kind: PropertyKind.STRING, value: QUEUE });
  copy.properties.set(MessageHeader.ORIGINAL_MESSAGE_ID, { kind: PropertyKind.LONG, value: 1 });
  copy.properties.set(MessageHeader.ORIGINAL_ADDRESS, { kind: PropertyKind.STRING, value: QUEUE });
  if (expired) copy.properties.set(MessageHeader.ACTUAL_EXPIRY_TIME, { kind: PropertyKind.LONG, value: 1 });
  return copy;
}

function refusal(error: unknown, frameBytes: number): void {
  expect(HornetQException.is(error)).toBe(true);
  const message = (error as HornetQException).message;
  expect(message).toContain(`refused: delivering it would take a frame of ${frameBytes} bytes`);
  expect(message).toContain(`maximum frame size of ${MAX} bytes`);
}

describe('a message no delivery could frame is refused at send time', () => {
  const env = useTestBrokers();
  useNoUncaughtErrors();

  const queues = (...names: string[]) =>
    names.map((name) => ({ name, address: name, filter: null, durable: true }));

  test('just under the frame cap with a huge property: the sender hears why, the broker and another client carry on', async () => {
    const broker = await env.startBroker({ queues: queues(QUEUE) });
    const sender = await env.connect(broker);
    const session = await sender.createSession();
    const producer = session.createProducer(QUEUE);
    const huge = messageWith(valueBytesFor(MAX - 5, sendFrame));
    expect(sendFrame(huge)).toBe(MAX - 5);

    const blocking = await producer.send(huge).catch((error: unknown) => error);
    refusal(blocking, MAX - 5 + (DELIVERY_FRAME_OVERHEAD - SEND_FRAME_OVERHEAD));

    // A non-blocking send has no call to reject: the session's async error handler hears it.
    const heard: HornetQException[] = [];
    session.setAsyncErrorHandler((error) => heard.push(error));
    await producer.send(messageWith(valueBytesFor(MAX - 5, sendFrame), false));
    await waitFor(() => heard.length === 1, 'the refusal of the non-blocking send');
    refusal(heard[0], MAX - 5 + (DELIVERY_FRAME_OVERHEAD - SEND_FRAME_OVERHEAD));

    // The sender's connection is still up, and so is everyone else's.
    expect(broker.started).toBe(true);
    await producer.send(messageWith(10));
    const other = await env.connect(broker);
    const otherSession = await other.createSession();
    await otherSession.createProducer(QUEUE).send(messageWith(20));
    const consumer = await otherSession.createConsumer(QUEUE);
    otherSession.start();
    const lengths: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const received = await consumer.receive(5000);
      lengths.push((propertyOf(received!, PROPERTY) as Buffer).length);
      await received!.acknowledge();
    }
    expect(lengths).toEqual([10, 20]);
    expect(queueStats(broker, QUEUE).messagesAdded).toBe(2);
    expect(broker.getConnectionCount()).toBe(2);
  });

  test('a message whose delivery frame is exactly the cap is delivered; one byte more is refused', async () => {
    const broker = await env.startBroker({ queues: queues(QUEUE) });
    const factory = await env.connect(broker);
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const fits = valueBytesFor(MAX, deliveryFrame);

    const tooLarge = await producer.send(messageWith(fits + 1)).catch((error: unknown) => error);
    refusal(tooLarge, MAX + 1);
    await producer.send(messageWith(fits));

    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const received = await consumer.receive(10_000);
    expect((propertyOf(received!, PROPERTY) as Buffer).length).toBe(fits);
    expect(deliveryFrame(received!.message)).toBe(MAX);
    await received!.acknowledge();
    expect(queueStats(broker, QUEUE).messagesAdded).toBe(1);
  });

  test('the headers a dead-letter copy gains are counted: exactly fitting once moved is delivered from the DLQ, a byte more is refused', async () => {
    const broker = await env.startBroker({
      queues: queues(QUEUE, DLA),
      addressSettings: { [QUEUE]: { deadLetterAddress: DLA, maxDeliveryAttempts: 1 } },
    });
    const factory = await env.connect(broker);
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const fits = valueBytesFor(MAX, (message) => deliveryFrame(movedCopy(message, DLA)));
    // Sent as it is, this one would fit: only its dead-letter copy would not.
    expect(deliveryFrame(messageWith(fits + 1))).toBeLessThan(MAX);

    const tooLarge = await producer.send(messageWith(fits + 1)).catch((error: unknown) => error);
    refusal(tooLarge, MAX + 1);
    expect((tooLarge as Error).message).toContain('once moved to a dead-letter or expiry address');
    await producer.send(messageWith(fits));

    await deadLetter(broker, factory);
    const dlqSession = await factory.createSession();
    const dlqConsumer = await dlqSession.createConsumer(DLA);
    dlqSession.start();
    const moved = await dlqConsumer.receive(10_000);
    expect(propertyOf(moved!, MessageHeader.ORIGINAL_QUEUE)).toBe(QUEUE);
    expect(propertyOf(moved!, MessageHeader.ORIGINAL_ADDRESS)).toBe(QUEUE);
    expect(deliveryFrame(moved!.message)).toBe(MAX);
    await moved!.acknowledge();
  });

  test('the headers an expiry copy gains are counted too: exactly fitting once expired is delivered from the expiry queue, a byte more is refused', async () => {
    const broker = await env.startBroker({
      queues: queues(QUEUE, EXPIRY),
      addressSettings: { [QUEUE]: { expiryAddress: EXPIRY } },
      messageExpiryScanPeriod: 50,
    });
    const factory = await env.connect(broker);
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    const fits = valueBytesFor(MAX, (message) => deliveryFrame(movedCopy(message, EXPIRY, true)));
    const expiring = (valueBytes: number): CoreMessage => {
      const message = messageWith(valueBytes);
      message.expiration = Date.now() + 100;
      return message;
    };

    const tooLarge = await producer.send(expiring(fits + 1)).catch((error: unknown) => error);
    refusal(tooLarge, MAX + 1);
    await producer.send(expiring(fits));

    await waitFor(() => queueStats(broker, EXPIRY).messageCount === 1, 'the expiry copy');
    const consumer = await session.createConsumer(EXPIRY);
    session.start();
    const expired = await consumer.receive(10_000);
    expect(propertyOf(expired!, MessageHeader.ORIGINAL_QUEUE)).toBe(QUEUE);
    expect(typeof propertyOf(expired!, MessageHeader.ACTUAL_EXPIRY_TIME)).toBe('number');
    expect(deliveryFrame(expired!.message)).toBe(MAX);
    await expired!.acknowledge();
  });
});

/** Receives the one message on QUEUE in a transaction and rolls back: with one attempt allowed, it is dead-lettered. */
async function deadLetter(
  broker: Broker,
  factory: Awaited<ReturnType<ReturnType<typeof useTestBrokers>['connect']>>,
): Promise<void> {
  const tx = await transacted(factory);
  const consumer = await tx.createConsumer(QUEUE);
  tx.start();
  const received = await consumer.receive(10_000);
  expect(received).not.toBeNull();
  await received!.acknowledge();
  await tx.rollback();
  await waitFor(() => queueStats(broker, DLA).messageCount === 1, 'the dead-letter copy');
  await tx.close();
}
