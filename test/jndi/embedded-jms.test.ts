import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  ClientSessionFactory,
  ConfigurationException,
  EmbeddedJMS,
  HornetQConnectionFactory,
  IllegalStateException,
  Session,
  type HornetQQueue,
  type HornetQTopic,
  type TextMessage,
} from '../../src';
import { captureLogger, tempDir, waitFor } from './support';

const SERVER = `<configuration xmlns="urn:hornetq">
   <security-enabled>false</security-enabled>
   <connectors>
      <connector name="netty">
         <factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class>
         <param key="host" value="127.0.0.1"/>
         <param key="port" value="0"/>
      </connector>
   </connectors>
   <acceptors>
      <acceptor name="netty">
         <factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class>
         <param key="host" value="127.0.0.1"/>
         <param key="port" value="0"/>
      </acceptor>
   </acceptors>
   <address-settings>
      <address-setting match="jms.queue.Limited">
         <max-delivery-attempts>2</max-delivery-attempts>
         <dead-letter-address>jms.queue.DLQ</dead-letter-address>
      </address-setting>
   </address-settings>
   <queues>
      <queue name="core.audit"><address>core.audit</address></queue>
   </queues>
</configuration>`;

const JMS = `<configuration xmlns="urn:hornetq">
   <connection-factory name="ConnectionFactory">
      <connectors><connector-ref connector-name="netty"/></connectors>
      <entries><entry name="/ConnectionFactory"/></entries>
      <call-timeout>10000</call-timeout>
   </connection-factory>
   <queue name="Orders"><entry name="/queue/Orders"/></queue>
   <queue name="Red"><entry name="/queue/Red"/><selector string="color = 'red'"/><durable>false</durable></queue>
   <queue name="Limited"><entry name="/queue/Limited"/></queue>
   <queue name="DLQ"><entry name="/queue/DLQ"/></queue>
   <topic name="News"><entry name="/topic/News"/></topic>
</configuration>`;

describe('EmbeddedJMS', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
    await fs.writeFile(path.join(dir, 'hornetq-configuration.xml'), SERVER);
    await fs.writeFile(path.join(dir, 'hornetq-jms.xml'), JMS);
  });
  afterEach(async () => remove());

  test('start, a JMS round trip over TCP through looked-up objects, stop, start again with durable state kept', async () => {
    const jms = new EmbeddedJMS({ configDir: dir, dataDirectory: dir, env: {}, logger: captureLogger() });
    await jms.start();
    const factory = jms.lookup<HornetQConnectionFactory>('/ConnectionFactory');
    expect(factory.getStaticConnectors()).toEqual([{ host: '127.0.0.1', port: jms.getPort('netty') }]);
    expect(factory.getCallTimeout()).toBe(10000);
    const orders = jms.lookup<HornetQQueue>('queue/Orders');
    const red = jms.lookup<HornetQQueue>('queue/Red');
    const connection = await factory.createConnection();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const producer = await session.createProducer(null);
    await producer.send(orders, session.createTextMessage('kept'));
    const blue = session.createTextMessage('blue');
    blue.setStringProperty('color', 'blue');
    const redMessage = session.createTextMessage('red');
    redMessage.setStringProperty('color', 'red');
    await producer.send(red, blue);
    await producer.send(red, redMessage);
    expect(jms.getQueueInfo('Orders')).toMatchObject({
      name: 'Orders',
      address: 'jms.queue.Orders',
      durable: true,
      messageCount: 1,
      messagesAdded: 1,
    });
    expect(jms.getQueueInfo('Red')).toMatchObject({ durable: false, messageCount: 1, messagesAdded: 1 });
    expect(jms.getConnectionCount()).toBe(1);
    expect(jms.getSessionCount()).toBeGreaterThanOrEqual(1);
    await connection.close();
    await waitFor(() => jms.getConnectionCount() === 0, 'the broker to see the connection go');
    expect(jms.getSessionCount()).toBe(0);

    await jms.stop();
    expect(jms.getQueueInfo('Orders')).toBeNull();
    expect(() => jms.lookup('/ConnectionFactory')).toThrow('/ConnectionFactory not bound');

    await jms.start();
    expect(jms.getQueueInfo('Orders')).toMatchObject({ messageCount: 1 });
    expect(jms.getQueueInfo('Red')).toMatchObject({ messageCount: 0 });
    const again = jms.lookup<HornetQConnectionFactory>('/ConnectionFactory');
    expect(again).not.toBe(factory);
    const connection2 = await again.createConnection();
    const session2 = await connection2.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    const consumer = await session2.createConsumer(jms.lookup<HornetQQueue>('/queue/Orders'));
    await connection2.start();
    const received = (await consumer.receive(5000)) as TextMessage;
    expect(received.getText()).toBe('kept');
    expect(jms.getQueueInfo('Orders')).toMatchObject({
      messageCount: 1,
      deliveringCount: 1,
      consumerCount: 1,
    });
    await received.acknowledge();
    await waitFor(() => jms.getQueueInfo('Orders')?.messageCount === 0, 'the acknowledgement');
    expect(jms.getQueueInfo('Orders')?.messagesAcknowledged).toBe(1);
    await connection2.close();
    await jms.stop();
    await jms.stop();
  });

  test('management view: every queue on the broker, subscriptions and temporary queues included', async () => {
    const jms = new EmbeddedJMS({ configDir: dir, dataDirectory: dir, env: {}, logger: captureLogger() });
    await jms.start();
    try {
      const connection = await jms.lookup<HornetQConnectionFactory>('ConnectionFactory').createConnection();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const subscriber = await session.createConsumer(jms.lookup<HornetQTopic>('topic/News'));
      const temporary = await session.createTemporaryQueue();
      const names = jms.listQueues();
      expect(
        names
          .filter((q) => q.address.startsWith('jms.queue.'))
          .map((q) => q.name)
          .sort(),
      ).toEqual(['DLQ', 'Limited', 'Orders', 'Red']);
      expect(names.find((q) => q.name === 'core.audit')).toMatchObject({
        address: 'core.audit',
        durable: true,
      });
      // The subscription, beside the topic's marker queue (named after the address).
      expect(names.find((q) => q.address === 'jms.topic.News' && q.name !== 'jms.topic.News')).toMatchObject({
        consumerCount: 1,
        durable: false,
      });
      const address = `jms.tempqueue.${temporary.getQueueName()}`;
      expect(names.find((q) => q.address === address)).toMatchObject({ temporary: true, name: address });
      expect(jms.getQueueInfo('News')).toBeNull();
      expect(jms.getQueueInfo('Nope')).toBeNull();
      await subscriber.close();
      await connection.close();
    } finally {
      await jms.stop();
    }
  });

  test("a configured topic has HornetQ's marker queue: a binding query finds it before any subscriber, and it holds nothing", async () => {
    const jms = new EmbeddedJMS({ configDir: dir, dataDirectory: dir, env: {}, logger: captureLogger() });
    await jms.start();
    const core = await ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port: jms.getPort('netty') }],
    });
    try {
      const coreSession = await core.createSession();
      // What HornetQ's Java client asks before it produces to or subscribes to a topic.
      expect(await coreSession.bindingQuery('jms.topic.News')).toEqual({
        exists: true,
        queueNames: ['jms.topic.News'],
      });
      expect(await coreSession.queueQuery('jms.topic.News')).toMatchObject({
        exists: true,
        durable: true,
        filter: '__HQX=-1',
        address: 'jms.topic.News',
      });
      const connection = await jms.lookup<HornetQConnectionFactory>('ConnectionFactory').createConnection();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const news = jms.lookup<HornetQTopic>('topic/News');
      const subscriber = await session.createConsumer(news);
      await connection.start();
      await (await session.createProducer(news)).send(session.createTextMessage('published'));
      expect(((await subscriber.receive(5000)) as TextMessage).getText()).toBe('published');
      const marker = jms.listQueues().find((q) => q.name === 'jms.topic.News');
      expect(marker).toMatchObject({ messageCount: 0, messagesAdded: 0, durable: true });
      await connection.close();
    } finally {
      await core.close();
      await jms.stop();
    }
  });

  test('address settings from the file reach the broker (max-delivery-attempts, dead-letter address)', async () => {
    const jms = new EmbeddedJMS({ configDir: dir, dataDirectory: dir, env: {}, logger: captureLogger() });
    await jms.start();
    try {
      const connection = await jms.lookup<HornetQConnectionFactory>('ConnectionFactory').createConnection();
      const session = await connection.createSession(true, Session.SESSION_TRANSACTED);
      const limited = jms.lookup<HornetQQueue>('queue/Limited');
      await (await session.createProducer(limited)).send(session.createTextMessage('poison'));
      await session.commit();
      const consumer = await session.createConsumer(limited);
      await connection.start();
      for (let attempt = 0; attempt < 2; attempt++) {
        expect(await consumer.receive(5000)).not.toBeNull();
        await session.rollback();
      }
      await waitFor(() => jms.getQueueInfo('DLQ')?.messageCount === 1, 'the dead-letter queue');
      expect(jms.getQueueInfo('Limited')?.messageCount).toBe(0);
      await connection.close();
    } finally {
      await jms.stop();
    }
  });

  test('start refuses to run twice, a TLS acceptor without a key store, and a file that does not validate', async () => {
    const jms = new EmbeddedJMS({ configDir: dir, dataDirectory: dir, env: {}, logger: captureLogger() });
    await jms.start();
    await expect(jms.start()).rejects.toThrow(IllegalStateException);
    await jms.stop();
    await fs.writeFile(
      path.join(dir, 'hornetq-configuration.xml'),
      SERVER.replace(
        '<param key="port" value="0"/>\n      </acceptor>',
        '<param key="port" value="0"/>\n<param key="ssl-enabled" value="true"/>\n      </acceptor>',
      ),
    );
    const error = await jms.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationException);
    expect((error as ConfigurationException).message).toMatch(
      /hornetq-configuration\.xml:11: <acceptor> acceptor 'netty': ssl-enabled requires key-store-path \(the broker's certificate and key\)$/,
    );
    await fs.writeFile(path.join(dir, 'hornetq-configuration.xml'), SERVER);
    await fs.writeFile(
      path.join(dir, 'hornetq-jms.xml'),
      JMS.replace('<call-timeout>10000', '<call-timeout>-3'),
    );
    await expect(jms.start()).rejects.toThrow(
      'hornetq-jms.xml:5: <call-timeout> must be an integer from 0 to 2147483647 (actual value: -3)',
    );
    expect(jms.getConnectionCount()).toBe(0);
  });
});
