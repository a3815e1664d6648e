import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  EmbeddedJMS,
  InitialContext,
  Session,
  type HornetQConnectionFactory,
  type HornetQQueue,
} from '../../src';
import { isListening } from '../support/listen';
import { captureLogger, tempDir } from './support';

/** `await using` on the naming layer: an EmbeddedJMS stops, an InitialContext closes. */

const SERVER = `<configuration xmlns="urn:hornetq">
   <security-enabled>false</security-enabled>
   <persistence-enabled>false</persistence-enabled>
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
</configuration>`;

const JMS = `<configuration xmlns="urn:hornetq">
   <connection-factory name="ConnectionFactory">
      <connectors><connector-ref connector-name="netty"/></connectors>
      <entries><entry name="/ConnectionFactory"/></entries>
   </connection-factory>
   <queue name="Orders"><entry name="/queue/Orders"/></queue>
</configuration>`;

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await tempDir());
  await fs.writeFile(path.join(dir, 'hornetq-configuration.xml'), SERVER);
  await fs.writeFile(path.join(dir, 'hornetq-jms.xml'), JMS);
});
afterEach(async () => remove());

test('await using stops an EmbeddedJMS: its port refuses connections afterwards', async () => {
  let port: number;
  {
    await using jms = new EmbeddedJMS({
      configDir: dir,
      dataDirectory: dir,
      env: {},
      logger: captureLogger(),
    });
    await jms.start();
    port = jms.getPort('netty');
    await using connection = await jms
      .lookup<HornetQConnectionFactory>('/ConnectionFactory')
      .createConnection();
    await using session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const orders = jms.lookup<HornetQQueue>('/queue/Orders');
    await (await session.createProducer(orders)).send(session.createTextMessage('hello'));
    expect(await isListening(port)).toBe(true);
  }
  expect(await isListening(port)).toBe(false);
});

test('await using closes an InitialContext (which stops watching hornetq-jms.xml)', async () => {
  let closing: jest.SpiedFunction<InitialContext['close']> | null = null;
  {
    await using context = await InitialContext.load({
      jmsConfig: path.join(dir, 'hornetq-jms.xml'),
      serverConfig: path.join(dir, 'hornetq-configuration.xml'),
      env: {},
      logger: captureLogger(),
      watch: { scanPeriodMs: 20 },
    });
    expect(context.lookup('/queue/Orders')).toBeDefined();
    closing = jest.spyOn(context, 'close');
  }
  expect(closing).toHaveBeenCalledTimes(1);
});
