import { HornetQException, type Broker, type ClientSession } from '../../../src';
import { messagesRouted, queueStates } from '../../support/broker-snapshot';
import { setting, type Grants, type TestUser } from '../../support/secured-broker';
import { receiveCount, seqOf, sequenced, useTestBrokers } from '../../support/test-broker';

/**
 * Issue 15: security settings redeployed at runtime (broker.setSecuritySettings, what a changed
 * `<security-settings>` in a watched hornetq-configuration.xml does) take effect for the next
 * operation at once, in sessions already open too: a permission taken away refuses the next send,
 * a grant added allows it, with no new login.
 */

const ORDERS = 'jms.queue.orders';
const SCRATCH = 'jms.queue.scratch';
const WRITER: TestUser = { name: 'alice', password: 'alice-pw', roles: ['writer'] };
const WRITERS = ['writer'];

const env = useTestBrokers();

const settingsGranting = (grants: Grants, ...more: ReturnType<typeof setting>[]) => [
  setting('#'),
  setting('jms.#', grants),
  ...more,
];

async function start(grants: Grants): Promise<{ broker: Broker; session: ClientSession }> {
  const broker = await env.startBroker(
    { queues: [ORDERS, SCRATCH].map((name) => ({ name, address: name, filter: null, durable: true })) },
    { security: { users: [WRITER], settings: settingsGranting(grants) } },
  );
  const session = await (
    await env.connect(broker)
  ).createSession({
    username: WRITER.name,
    password: WRITER.password,
  });
  return { broker, session };
}

async function expectSecurityRefusal(
  attempt: Promise<unknown>,
  permission: string,
  address: string,
): Promise<void> {
  const error: unknown = await attempt.then(
    () => new Error('the attempt was allowed'),
    (e: unknown) => e,
  );
  expect(HornetQException.is(error, 'SECURITY_EXCEPTION')).toBe(true);
  expect((error as Error).message).toBe(
    `User: alice doesn't have permission='${permission}' on address ${address}`,
  );
}

test('a permission taken away refuses the next send of an open session; granted again, the next send is allowed at once', async () => {
  const { broker, session } = await start({ send: WRITERS, consume: WRITERS });
  const refusals: HornetQException[] = [];
  session.setAsyncErrorHandler((error) => refusals.push(error));
  const producer = session.createProducer(ORDERS);
  await producer.send(sequenced(0, { durable: true }));

  broker.setSecuritySettings(settingsGranting({ consume: WRITERS }));
  const before = queueStates(broker);
  const routed = messagesRouted(broker);
  await expectSecurityRefusal(producer.send(sequenced(1, { durable: true })), 'send', ORDERS);
  await producer.send(sequenced(2, { durable: false }));
  await session.queueQuery(ORDERS);
  expect(refusals.map((error) => error.code)).toEqual(['SECURITY_EXCEPTION']);
  expect(queueStates(broker)).toEqual(before);
  expect(messagesRouted(broker)).toBe(routed);

  broker.setSecuritySettings(settingsGranting({ send: WRITERS, consume: WRITERS }));
  await producer.send(sequenced(3, { durable: true }));
  const consumer = await session.createConsumer(ORDERS);
  session.start();
  expect((await receiveCount(consumer, 2)).map(seqOf)).toEqual([0, 3]);
  expect(await consumer.receiveImmediate()).toBeNull();
});

test('a more specific match added at runtime takes the permission away on its address only', async () => {
  const { broker, session } = await start({ send: WRITERS });
  const orders = session.createProducer(ORDERS);
  const scratch = session.createProducer(SCRATCH);
  await orders.send(sequenced(0, { durable: true }));

  broker.setSecuritySettings(settingsGranting({ send: WRITERS }, setting(ORDERS, { consume: WRITERS })));
  await expectSecurityRefusal(orders.send(sequenced(1, { durable: true })), 'send', ORDERS);
  await scratch.send(sequenced(2, { durable: true }));
  expect(broker.listQueues().map((queue) => [queue.name, queue.messageCount])).toEqual(
    expect.arrayContaining([
      [ORDERS, 1],
      [SCRATCH, 1],
    ]),
  );
});

test('grants added at runtime allow at once a consumer and the queue listing that an open session was refused', async () => {
  const { broker, session } = await start({ send: WRITERS });
  await session.createProducer(ORDERS).send(sequenced(0, { durable: true }));
  await expectSecurityRefusal(session.createConsumer(ORDERS), 'consume', ORDERS);
  await expectSecurityRefusal(session.queueStats(), 'manage', 'jms.queue.hornetq.management');

  broker.setSecuritySettings(settingsGranting({ send: WRITERS, consume: WRITERS, manage: WRITERS }));
  const consumer = await session.createConsumer(ORDERS);
  session.start();
  expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([0]);
  expect((await session.queueStats()).map((queue) => queue.name).sort()).toEqual([ORDERS, SCRATCH]);
});

test('settings that are not valid are refused whole, and the ones in force stay', async () => {
  const { broker, session } = await start({ send: WRITERS });
  expect(() => broker.setSecuritySettings([setting('#'), setting('#', { send: WRITERS })])).toThrow(
    RangeError,
  );
  await session.createProducer(ORDERS).send(sequenced(0, { durable: true }));
  expect(broker.listQueues().find((queue) => queue.name === ORDERS)).toMatchObject({ messageCount: 1 });
});
