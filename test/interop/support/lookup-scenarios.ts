import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  InitialContext,
  Session,
  type HornetQConnection,
  type HornetQConnectionFactory,
  type Queue,
} from '../../../src';
import { queueRef, RECEIVE_MS, textOf, type ScenarioContext, type ScenarioGroup } from './scenario-context';

const QUEUE = 'lookedUp';

/** hornetq-configuration.xml as a user of the real server writes it: a netty connector to it. */
function serverXml(port: number): string {
  return `<configuration xmlns="urn:hornetq">
   <security-enabled>false</security-enabled>
   <connectors>
      <connector name="real-server">
         <factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class>
         <param key="host" value="127.0.0.1"/>
         <param key="port" value="${port}"/>
      </connector>
   </connectors>
</configuration>
`;
}

/** hornetq-jms.xml: a reattaching factory on that connector, and the queue, under JNDI names. */
const JMS_XML = `<configuration xmlns="urn:hornetq">
   <connection-factory name="RealServerFactory">
      <connectors>
         <connector-ref connector-name="real-server"/>
      </connectors>
      <entries>
         <entry name="/RealServerFactory"/>
      </entries>
      <confirmation-window-size>1048576</confirmation-window-size>
      <reconnect-attempts>-1</reconnect-attempts>
      <call-timeout>20000</call-timeout>
   </connection-factory>
   <queue name="${QUEUE}">
      <entry name="/queue/${QUEUE}"/>
   </queue>
</configuration>
`;

/** A factory looked up by name from hornetq-jms.xml, its connector pointing at the real server. */
export const lookupScenarios: ScenarioGroup = {
  server: { queues: [QUEUE] },
  define(context: ScenarioContext): void {
    test("a factory and a queue looked up from hornetq-jms.xml reach the real server and HornetQ's Java consumer", async () => {
      const configDir = await mkdtemp(path.join(tmpdir(), `interop-${context.kind}-lookup-`));
      let naming: InitialContext | null = null;
      let connection: HornetQConnection | null = null;
      try {
        await writeFile(path.join(configDir, 'hornetq-configuration.xml'), serverXml(context.server().port));
        await writeFile(path.join(configDir, 'hornetq-jms.xml'), JMS_XML);
        naming = await InitialContext.load({ configDir });
        const factory = naming.lookup<HornetQConnectionFactory>('/RealServerFactory');
        const queue = naming.lookup<Queue>('/queue/' + QUEUE);
        expect([factory.getConfirmationWindowSize(), factory.getCallTimeout()]).toEqual([1048576, 20000]);
        expect(queue.getQueueName()).toBe(QUEUE);

        const java = context.java();
        const javaConsumer = await java.createConsumer(await context.javaSession(), queueRef(QUEUE));
        connection = await factory.createConnection();
        const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        const producer = await session.createProducer(queue);
        await producer.send(session.createTextMessage('through the looked-up factory'));
        expect(await java.receive(javaConsumer, RECEIVE_MS)).toMatchObject({
          body: 'through the looked-up factory',
          JMSDestination: { type: 'queue', name: QUEUE },
        });
        // Closed first: it would take the next message into its window before ours could.
        await java.closeConsumer(javaConsumer);
        await java.send(await context.javaSession(), queueRef(QUEUE), { class: 'TextMessage', body: 'back' });
        const consumer = await session.createConsumer(queue);
        await connection.start();
        expect(textOf(await consumer.receive(RECEIVE_MS))).toBe('back');
      } finally {
        await connection?.close();
        await naming?.close();
        await rm(configDir, { recursive: true, force: true });
      }
    });
  },
};
