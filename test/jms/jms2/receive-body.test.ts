import {
  HornetQBytesMessage,
  JMSContext,
  MessageFormatException,
  MessageFormatRuntimeException,
  Session,
  type HornetQJMSContext,
} from '../../../src';
import { textOf, useJmsFixture } from '../../support/jms-fixture';

/**
 * receiveBody, which unlike HornetQ 2.4 (it acknowledges before reading the body) does not lose a
 * message whose body is of another type: in AUTO and DUPS_OK it is delivered again, marked
 * redelivered; in CLIENT_ACKNOWLEDGE and a transacted context it is part of the unacknowledged
 * work that acknowledge/commit settle and recover/rollback return (JMS 2.0's JMSConsumer).
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');

async function contextWithBytesMessage(mode: number): Promise<HornetQJMSContext> {
  const context = fx.track(await fx.factory().createContext(mode));
  const bytes = context.createBytesMessage();
  bytes.writeBytes(Buffer.from('not text'));
  await context.createProducer().send(Q1(), bytes);
  if (mode === JMSContext.SESSION_TRANSACTED) await context.commit();
  return context;
}

test('receiveBody gives the body typed, null on timeout; receiveBodyNoWait too', async () => {
  const context = fx.track(await fx.factory().createContext());
  const consumer = await context.createConsumer(Q1());
  const producer = context.createProducer();
  await producer.send(Q1(), 'hello');
  await producer.send(Q1(), new Map([['k', 1]]));
  const text: string | null = await consumer.receiveBody(String, 5000);
  expect(text).toBe('hello');
  const map: Map<string, unknown> | null = await consumer.receiveBodyNoWait(Map);
  expect(map).toEqual(new Map([['k', 1]]));
  expect(await consumer.receiveBody(String, 200)).toBeNull();
  await fx.expectCount('Queue1', 0);
});

test.each([
  ['AUTO_ACKNOWLEDGE', JMSContext.AUTO_ACKNOWLEDGE],
  ['DUPS_OK_ACKNOWLEDGE', JMSContext.DUPS_OK_ACKNOWLEDGE],
])(
  '%s: the wrong type throws MessageFormatRuntimeException and the message comes again, redelivered',
  async (_name, mode) => {
    const context = await contextWithBytesMessage(mode);
    const consumer = await context.createConsumer(Q1());
    await expect(consumer.receiveBody(String, 5000)).rejects.toBeInstanceOf(MessageFormatRuntimeException);
    await expect(consumer.receiveBody(String, 5000)).rejects.toThrow(
      /BytesMessage is not assignable to String/,
    );
    // Still on the broker: HornetQ 2.4 would have acknowledged it already.
    expect(fx.messageCount('Queue1')).toBe(1);
    const again = await consumer.receive(5000);
    expect(again?.getJMSRedelivered()).toBe(true);
    expect(again?.getIntProperty('JMSXDeliveryCount')).toBe(3);
    expect(again?.getBody?.(Buffer)).toEqual(Buffer.from('not text'));
    await context.close();
    await fx.expectCount('Queue1', 0);
  },
);

test('CLIENT_ACKNOWLEDGE: the refused message is unacknowledged work; recover returns it, acknowledge settles it', async () => {
  const context = await contextWithBytesMessage(JMSContext.CLIENT_ACKNOWLEDGE);
  const consumer = await context.createConsumer(Q1());
  await expect(consumer.receiveBody(String, 5000)).rejects.toBeInstanceOf(MessageFormatRuntimeException);
  // Delivered, not acknowledged: nothing more comes until recover.
  expect(await consumer.receiveNoWait()).toBeNull();
  await context.recover();
  const body = await consumer.receiveBody(Buffer, 5000);
  expect(body?.toString()).toBe('not text');
  expect(fx.messageCount('Queue1')).toBe(1);
  await expect(consumer.receiveBody(String, 200)).resolves.toBeNull();
  await context.acknowledge();
  await fx.expectCount('Queue1', 0);
});

test('CLIENT_ACKNOWLEDGE: acknowledge() after a refused body acknowledges it with the rest', async () => {
  const context = await contextWithBytesMessage(JMSContext.CLIENT_ACKNOWLEDGE);
  const consumer = await context.createConsumer(Q1());
  await expect(consumer.receiveBody(Map, 5000)).rejects.toBeInstanceOf(MessageFormatRuntimeException);
  await context.acknowledge();
  await fx.expectCount('Queue1', 0);
});

test('SESSION_TRANSACTED: the refused message is in the transaction; rollback returns it, commit consumes it', async () => {
  const context = await contextWithBytesMessage(JMSContext.SESSION_TRANSACTED);
  const consumer = await context.createConsumer(Q1());
  await expect(consumer.receiveBody(String, 5000)).rejects.toBeInstanceOf(MessageFormatRuntimeException);
  await context.rollback();
  await expect(consumer.receiveBody(Number, 5000)).rejects.toBeInstanceOf(MessageFormatRuntimeException);
  expect(fx.messageCount('Queue1')).toBe(1);
  await context.commit();
  await fx.expectCount('Queue1', 0);
});

test('a StreamMessage is never a body: refused, and still there', async () => {
  const context = fx.track(await fx.factory().createContext());
  const stream = context.createStreamMessage();
  stream.writeInt(1);
  await context.createProducer().send(Q1(), stream);
  const consumer = await context.createConsumer(Q1());
  await expect(consumer.receiveBody(Object, 5000)).rejects.toBeInstanceOf(MessageFormatRuntimeException);
  expect(fx.messageCount('Queue1')).toBe(1);
});

test('the classic MessageConsumer has receiveBody too, throwing the checked MessageFormatException', async () => {
  const { session } = await fx.open({ ackMode: Session.AUTO_ACKNOWLEDGE });
  const producer = await session.createProducer(Q1());
  await producer.send(new HornetQBytesMessage());
  await producer.send(session.createTextMessage('after'));
  const consumer = await session.createConsumer(Q1());
  await expect(consumer.receiveBody(String, 5000)).rejects.toBeInstanceOf(MessageFormatException);
  // The refused message comes first again, then the next one.
  expect(await consumer.receiveBody(Buffer, 5000)).toBeNull();
  expect(textOf(await consumer.receive(5000))).toBe('after');
  await fx.expectCount('Queue1', 0);
});

test('receiveBody takes an AbortSignal and a body type it checks first', async () => {
  const context = fx.track(await fx.factory().createContext());
  const consumer = await context.createConsumer(Q1());
  const reason = new Error('stop waiting');
  await expect(consumer.receiveBody(String, 0, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  await expect(consumer.receiveBody(Date as never, 10)).rejects.toBeInstanceOf(TypeError);
});
