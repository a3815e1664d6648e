import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  EmbeddedJMS,
  HornetQConnectionFactory,
  Session,
  type HornetQQueue,
  type TextMessage,
} from '../../../src';
import { loadServerConfiguration } from '../../../src/jndi';
import { makeTestCertificates, type TestCertificates } from '../../support/test-certificates';
import { captureLogger, tempDir } from '../support';

const SERVER = `<configuration xmlns="urn:hornetq">
   <security-enabled>false</security-enabled>
   <persistence-enabled>false</persistence-enabled>
   <connectors>
      <connector name="netty-ssl">
         <factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class>
         <param key="host" value="localhost"/>
         <param key="port" value="0"/>
         <param key="ssl-enabled" value="true"/>
         <param key="enabled-protocols" value="TLSv1.2,TLSv1.3"/>
         <param key="trust-store-path" value="stores/ca.pem"/>
         <param key="trust-store-password" value="never-handed-out"/>
      </connector>
   </connectors>
   <acceptors>
      <acceptor name="netty-ssl">
         <factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class>
         <param key="host" value="127.0.0.1"/>
         <param key="port" value="0"/>
         <param key="ssl-enabled" value="true"/>
         <param key="key-store-path" value="stores/server.p12"/>
         <param key="key-store-password" value="\${store.password}"/>
         <param key="trust-store-path" value="stores/ca.pem"/>
         <param key="need-client-auth" value="true"/>
         <param key="enabled-protocols" value="TLSv1.2, TLSv1.3"/>
         <param key="handshake-timeout" value="5"/>
      </acceptor>
   </acceptors>
</configuration>`;

const JMS = `<configuration xmlns="urn:hornetq">
   <connection-factory name="ConnectionFactory">
      <connectors><connector-ref connector-name="netty-ssl"/></connectors>
      <entries><entry name="/ConnectionFactory"/></entries>
   </connection-factory>
   <queue name="Orders"><entry name="/queue/Orders"/></queue>
</configuration>`;

describe('TLS from hornetq-configuration.xml and hornetq-jms.xml', () => {
  let certs: TestCertificates;
  let dir: string;
  let remove: () => Promise<void>;
  beforeAll(() => {
    certs = makeTestCertificates();
  });
  afterAll(() => certs.remove());
  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
    await fs.mkdir(path.join(dir, 'stores'));
    await fs.copyFile(certs.serverP12, path.join(dir, 'stores', 'server.p12'));
    await fs.copyFile(certs.caPem, path.join(dir, 'stores', 'ca.pem'));
    await fs.writeFile(path.join(dir, 'hornetq-configuration.xml'), SERVER);
    await fs.writeFile(path.join(dir, 'hornetq-jms.xml'), JMS);
  });
  afterEach(async () => remove());

  test('the acceptor reads its params (stores relative to the file); the connector keeps no store', async () => {
    const config = await loadServerConfiguration(path.join(dir, 'hornetq-configuration.xml'), {
      env: { 'store.password': certs.password },
    });
    const [acceptor] = config.acceptors;
    expect(acceptor?.config).toEqual({
      name: 'netty-ssl',
      type: 'tcp',
      host: '127.0.0.1',
      port: 0,
      tls: {
        keyStorePath: path.join(dir, 'stores', 'server.p12'),
        keyStorePassword: certs.password,
        trustStorePath: path.join(dir, 'stores', 'ca.pem'),
        trustStorePassword: undefined,
        enabledProtocols: ['TLSv1.2', 'TLSv1.3'],
        enabledCipherSuites: undefined,
        needClientAuth: true,
        handshakeTimeout: 5_000,
      },
    });
    expect(config.connectors.get('netty-ssl')?.transport).toEqual({
      host: 'localhost',
      port: 0,
      'ssl-enabled': true,
      'enabled-protocols': 'TLSv1.2,TLSv1.3',
    });
    expect(config.warnings.map((w) => w.message).join('\n')).toContain(
      "connector 'netty-ssl': trust-store-path, trust-store-password not copied into the factories a registry hands out",
    );
  });

  test('EmbeddedJMS serves TLS: the looked-up factory speaks it, and a client with its own stores gets through', async () => {
    const logger = captureLogger();
    const jms = new EmbeddedJMS({ configDir: dir, env: { 'store.password': certs.password }, logger });
    await jms.start();
    try {
      const looked = jms.lookup<HornetQConnectionFactory>('/ConnectionFactory');
      const [connector] = looked.getStaticConnectors();
      expect(connector).toEqual({
        host: 'localhost',
        port: jms.getPort('netty-ssl'),
        'ssl-enabled': true,
        'enabled-protocols': 'TLSv1.2,TLSv1.3',
      });
      expect(JSON.stringify(looked.getStaticConnectors())).not.toContain(certs.password);
      // The registry's factory has no trust store: Node's public CAs do not know the test CA.
      await expect(looked.createConnection()).rejects.toThrow(/TLS connection to localhost:\d+ failed/);

      const own = new HornetQConnectionFactory({
        ...connector,
        'trust-store-path': certs.caPem,
        'key-store-path': certs.clientPem,
      });
      const connection = await own.createConnection();
      try {
        const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        const orders = jms.lookup<HornetQQueue>('/queue/Orders');
        await (await session.createProducer(orders)).send(session.createTextMessage('over TLS'));
        const consumer = await session.createConsumer(orders);
        await connection.start();
        const received = (await consumer.receive(5_000)) as TextMessage | null;
        expect(received?.getText()).toBe('over TLS');
      } finally {
        await connection.close();
      }
    } finally {
      await jms.stop();
    }
  });
});
