import path from 'node:path';
import {
  EmbeddedJMS,
  HornetQConnectionFactory,
  InitialContext,
  JMSSecurityException,
  Session,
  type HornetQQueue,
  type HornetQTopic,
  type TextMessage,
} from '../../../src';
import { captureLogger, tempDir } from '../support';

const CONFIG = path.resolve(__dirname, '../../../config');

test('the default deployment in config/ binds what the README promises, without warnings', async () => {
  const logger = captureLogger();
  const context = await InitialContext.load({ configDir: CONFIG, env: {}, logger });
  expect(context.list()).toEqual([
    { name: 'ConnectionFactory', className: 'HornetQConnectionFactory' },
    { name: 'InVMConnectionFactory', className: 'HornetQConnectionFactory' },
    { name: 'queue/DLQ', className: 'HornetQQueue' },
    { name: 'queue/ExampleQueue', className: 'HornetQQueue' },
    { name: 'queue/ExpiryQueue', className: 'HornetQQueue' },
    { name: 'topic/ExampleTopic', className: 'HornetQTopic' },
  ]);
  const factory = context.lookup<HornetQConnectionFactory>('/ConnectionFactory');
  expect(factory.getStaticConnectors()).toEqual([{ host: 'localhost', port: 5445 }]);
  expect([
    factory.getConfirmationWindowSize(),
    factory.getReconnectAttempts(),
    factory.getRetryInterval(),
  ]).toEqual([1048576, -1, 1000]);
  expect(context.lookup<HornetQConnectionFactory>('InVMConnectionFactory').getStaticConnectors()).toEqual([
    { 'server-id': 0 },
  ]);
  expect(logger.warnings).toEqual([]);
  await context.close();
});

test('EmbeddedJMS starts the default deployment (ports from placeholders), lets its demo user in, and moves messages over TCP and in-VM', async () => {
  // The journal goes to a folder of the test's, not into the working directory (the repository).
  const { dir, remove } = await tempDir();
  const jms = new EmbeddedJMS({
    dataDirectory: dir,
    env: {
      HORNETQ_REMOTING_NETTY_PORT: '0',
      HORNETQ_REMOTING_NETTY_HOST: '127.0.0.1',
      'hornetq.remoting.invm.server-id': '4711',
    },
    logger: captureLogger(),
  });
  await jms.start();
  try {
    expect(jms.lookup<HornetQConnectionFactory>('InVMConnectionFactory').getStaticConnectors()).toEqual([
      { 'server-id': 4711 },
    ]);
    // No <defaultuser> in the shipped hornetq-users.xml: a client without a user is refused.
    await expect(
      jms.lookup<HornetQConnectionFactory>('ConnectionFactory').createConnection(),
    ).rejects.toThrow(JMSSecurityException);
    for (const name of ['ConnectionFactory', 'InVMConnectionFactory']) {
      // The shipped config/ has security on: its demo user, as the README tells a user.
      const connection = await jms.lookup<HornetQConnectionFactory>(name).createConnection('demo', 'demo');
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const queue = jms.lookup<HornetQQueue>('/queue/ExampleQueue');
      const topic = jms.lookup<HornetQTopic>('/topic/ExampleTopic');
      const subscriber = await session.createConsumer(topic);
      const producer = await session.createProducer(null);
      await producer.send(queue, session.createTextMessage(`via ${name}`));
      await producer.send(topic, session.createTextMessage(`news via ${name}`));
      const consumer = await session.createConsumer(queue);
      await connection.start();
      expect(((await consumer.receive(5000)) as TextMessage).getText()).toBe(`via ${name}`);
      expect(((await subscriber.receive(5000)) as TextMessage).getText()).toBe(`news via ${name}`);
      await connection.close();
    }
    expect(jms.getQueueInfo('ExampleQueue')).toMatchObject({
      messagesAdded: 2,
      messagesAcknowledged: 2,
      messageCount: 0,
    });
  } finally {
    await jms.stop();
    await remove();
  }
});
