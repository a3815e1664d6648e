import { HornetQException, type Broker, type ClientSession } from '../../../src';
import { setting, type TestUser } from '../../support/secured-broker';
import { receiveCount, seqOf, sequenced, useTestBrokers } from '../../support/test-broker';

/**
 * A refused operation refuses that operation only: the session that tried it goes on, and what it
 * does next is judged on its own. alice may send to and consume from SCRATCH only.
 */

const ORDERS = 'jms.queue.orders';
const SCRATCH = 'jms.queue.scratch';
const ALICE: TestUser = { name: 'alice', password: 'alice-pw', roles: ['client'] };
const MIN_LARGE_MESSAGE_SIZE = 1024;

const env = useTestBrokers();

async function start(): Promise<{
  broker: Broker;
  connect: (transacted?: boolean) => Promise<ClientSession>;
}> {
  const broker = await env.startBroker(
    { queues: [ORDERS, SCRATCH].map((name) => ({ name, address: name, filter: null, durable: true })) },
    {
      security: {
        users: [ALICE],
        settings: [setting('#'), setting(SCRATCH, { send: ['client'], consume: ['client'] })],
      },
    },
  );
  const connect = async (transacted = false): Promise<ClientSession> =>
    (await env.connect(broker, { minLargeMessageSize: MIN_LARGE_MESSAGE_SIZE })).createSession({
      username: ALICE.name,
      password: ALICE.password,
      autoCommitSends: !transacted,
      autoCommitAcks: !transacted,
    });
  return { broker, connect };
}

async function expectSecurityError(attempt: Promise<unknown>): Promise<void> {
  const error: unknown = await attempt.then(
    () => new Error('the attempt was allowed'),
    (e: unknown) => e,
  );
  expect(HornetQException.is(error, 'SECURITY_EXCEPTION')).toBe(true);
}

const large = (seq: number): ReturnType<typeof sequenced> =>
  sequenced(seq, { durable: true, body: Buffer.alloc(8 * MIN_LARGE_MESSAGE_SIZE, seq) });

test('after a refused large message the session sends the next one, whole', async () => {
  const { connect } = await start();
  const session = await connect();
  await expectSecurityError(session.createProducer(ORDERS).send(large(0)));
  await session.createProducer(SCRATCH).send(large(1));
  const consumer = await session.createConsumer(SCRATCH);
  session.start();
  const [message] = await receiveCount(consumer, 1);
  expect(message === undefined ? null : [seqOf(message), message.message.body]).toEqual([
    1,
    Buffer.alloc(8 * MIN_LARGE_MESSAGE_SIZE, 1),
  ]);
});

test('after a commit that failed on a refused send, the next transaction starts clean and commits', async () => {
  const { broker, connect } = await start();
  const session = await connect(true);
  session.setAsyncErrorHandler(() => undefined);
  const scratch = session.createProducer(SCRATCH);
  await scratch.send(sequenced(0));
  await session.createProducer(ORDERS).send(sequenced(1));
  await expectSecurityError(session.commit());
  expect(broker.listQueues().find((queue) => queue.name === SCRATCH)).toMatchObject({ messagesAdded: 0 });

  await scratch.send(sequenced(2));
  await session.commit();
  const consumer = await session.createConsumer(SCRATCH);
  session.start();
  expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([2]);
  expect(await consumer.receiveImmediate()).toBeNull();
});

test('a rollback after a refused send ends the doomed transaction too', async () => {
  const { broker, connect } = await start();
  const session = await connect(true);
  session.setAsyncErrorHandler(() => undefined);
  await session.createProducer(ORDERS).send(sequenced(0));
  await session.rollback();
  await session.createProducer(SCRATCH).send(sequenced(1));
  await session.commit();
  expect(broker.listQueues().find((queue) => queue.name === SCRATCH)).toMatchObject({ messagesAdded: 1 });
});

test('acknowledgements of a doomed transaction are rolled back with it: the message comes back', async () => {
  const { broker, connect } = await start();
  const seed = await connect();
  await seed.createProducer(SCRATCH).send(sequenced(0, { durable: true }));
  const session = await connect(true);
  session.setAsyncErrorHandler(() => undefined);
  const consumer = await session.createConsumer(SCRATCH);
  session.start();
  const [message] = await receiveCount(consumer, 1);
  await message?.acknowledge();
  await session.createProducer(ORDERS).send(sequenced(1));
  await expectSecurityError(session.commit());
  expect(broker.listQueues().find((queue) => queue.name === SCRATCH)).toMatchObject({
    messageCount: 1,
    messagesAcknowledged: 0,
  });
});

test('after a refused consumer the session creates an allowed one', async () => {
  const { connect } = await start();
  const session = await connect();
  await expectSecurityError(session.createConsumer(ORDERS));
  await session.createProducer(SCRATCH).send(sequenced(0));
  const consumer = await session.createConsumer(SCRATCH);
  session.start();
  expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([0]);
});
