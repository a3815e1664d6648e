import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  EmbeddedJMS,
  Session,
  type HornetQConnectionFactory,
  type HornetQQueue,
  type TextMessage,
} from '../../../src';
import { loadServerConfiguration } from '../../../src/jndi';
import { captureLogger, tempDir } from '../support';

const SERVER = `<configuration xmlns="urn:hornetq">
   <security-enabled>false</security-enabled>
   <persistence-enabled>false</persistence-enabled>
   <connectors>
      <connector name="http-connector">
         <factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class>
         <param key="host" value="127.0.0.1"/>
         <param key="port" value="0"/>
         <param key="http-upgrade-enabled" value="true"/>
         <param key="http-upgrade-endpoint" value="http-acceptor"/>
      </connector>
      <connector name="artemis-spelling">
         <factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class>
         <param key="httpUpgradeEnabled" value="true"/>
         <param key="httpUpgradeEndpoint" value="acceptor"/>
      </connector>
   </connectors>
   <acceptors>
      <acceptor name="http-acceptor">
         <factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class>
         <param key="host" value="127.0.0.1"/>
         <param key="port" value="0"/>
         <param key="http-upgrade-enabled" value="true"/>
         <param key="handshake-timeout" value="5"/>
      </acceptor>
   </acceptors>
</configuration>`;

const JMS = `<configuration xmlns="urn:hornetq">
   <connection-factory name="RemoteConnectionFactory">
      <connectors><connector-ref connector-name="http-connector"/></connectors>
      <entries><entry name="/RemoteConnectionFactory"/></entries>
   </connection-factory>
   <queue name="Orders"><entry name="/queue/Orders"/></queue>
</configuration>`;

/** http-upgrade-enabled on connectors and acceptors of hornetq-configuration.xml, as WildFly's http-connector/http-acceptor. */
describe('HTTP upgrade from hornetq-configuration.xml and hornetq-jms.xml', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
    await fs.writeFile(path.join(dir, 'hornetq-configuration.xml'), SERVER);
    await fs.writeFile(path.join(dir, 'hornetq-jms.xml'), JMS);
  });
  afterEach(async () => remove());

  test('the params are read, in either spelling, and none is reported as ignored', async () => {
    const config = await loadServerConfiguration(path.join(dir, 'hornetq-configuration.xml'));
    expect(config.acceptors[0]?.config).toEqual({
      name: 'http-acceptor',
      type: 'tcp',
      host: '127.0.0.1',
      port: 0,
      httpUpgrade: { timeoutMs: 5_000 },
    });
    expect(config.connectors.get('http-connector')?.transport).toEqual({
      host: '127.0.0.1',
      port: 0,
      'http-upgrade-enabled': true,
      'http-upgrade-endpoint': 'http-acceptor',
    });
    expect(config.connectors.get('artemis-spelling')?.transport).toEqual({
      host: 'localhost',
      port: 5445,
      'http-upgrade-enabled': true,
      'http-upgrade-endpoint': 'acceptor',
    });
    expect(config.warnings.map((w) => w.message).join('\n')).not.toMatch(/upgrade/i);
  });

  test('EmbeddedJMS serves the upgrade, and the looked-up factory upgrades and delivers', async () => {
    const jms = new EmbeddedJMS({ configDir: dir, logger: captureLogger() });
    await jms.start();
    try {
      const looked = jms.lookup<HornetQConnectionFactory>('/RemoteConnectionFactory');
      expect(looked.getStaticConnectors()).toEqual([
        {
          host: '127.0.0.1',
          port: jms.getPort('http-acceptor'),
          'http-upgrade-enabled': true,
          'http-upgrade-endpoint': 'http-acceptor',
        },
      ]);
      const connection = await looked.createConnection();
      try {
        const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        const orders = jms.lookup<HornetQQueue>('/queue/Orders');
        await (await session.createProducer(orders)).send(session.createTextMessage('over the web port'));
        const consumer = await session.createConsumer(orders);
        await connection.start();
        const received = (await consumer.receive(5_000)) as TextMessage | null;
        expect(received?.getText()).toBe('over the web port');
      } finally {
        await connection.close();
      }
    } finally {
      await jms.stop();
    }
  });
});
