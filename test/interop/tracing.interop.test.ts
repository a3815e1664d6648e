import diagnostics_channel from 'node:diagnostics_channel';
import {
  ClientTracingChannel,
  HornetQConnectionFactory,
  isTextMessage,
  Session,
  type ClientReceiveTrace,
  type ClientSendTrace,
  type HornetQConnection,
} from '../../src';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './support/interop-server';
import { JmsDriver } from './support/jms-driver';
import { RECEIVE_MS } from './support/scenario-context';

/**
 * Tracing with HornetQ 2.4.7's Java JMS client on the other end, through each server: a message
 * the Java client sends has no trace context and is received untraced (the receive context has
 * no traceparent), and the traceparent our traced send stamps reaches the Java client as an
 * ordinary string property, through HornetQ's and Artemis' brokers as through ours.
 */

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const QUEUE = 'traced';

describe.each(['ours', 'hornetq', 'artemis'] as ServerKind[])(
  'tracing with Java clients through %s',
  (kind) => {
    let server: InteropServer | null = null;
    let driver: JmsDriver | null = null;
    let connection: HornetQConnection | null = null;
    const sends: ClientSendTrace[] = [];
    const receives: ClientReceiveTrace[] = [];
    const ignore = (): void => undefined;
    const handlers = (start: (context: object) => void) => ({
      start,
      end: ignore,
      asyncStart: ignore,
      asyncEnd: ignore,
      error: ignore,
    });
    const sendHandlers = handlers((context) => {
      const send = context as ClientSendTrace;
      send.traceparent = TRACEPARENT;
      sends.push(send);
    });
    const receiveHandlers = handlers((context) => void receives.push(context as ClientReceiveTrace));

    beforeAll(async () => {
      server = await InteropServer.start(kind, { queues: [QUEUE] });
      driver = await JmsDriver.start();
      connection = await new HornetQConnectionFactory({
        host: '127.0.0.1',
        port: server.port,
      }).createConnection();
      diagnostics_channel.tracingChannel(ClientTracingChannel.SEND).subscribe(sendHandlers);
      diagnostics_channel.tracingChannel(ClientTracingChannel.RECEIVE).subscribe(receiveHandlers);
    }, 120_000);

    afterAll(async () => {
      diagnostics_channel.tracingChannel(ClientTracingChannel.SEND).unsubscribe(sendHandlers);
      diagnostics_channel.tracingChannel(ClientTracingChannel.RECEIVE).unsubscribe(receiveHandlers);
      await connection?.close();
      await driver?.close();
      await server?.stop();
    });

    test(`${SERVER_VERSIONS[kind]}: a Java client's message is received untraced; ours reaches Java with its traceparent`, async () => {
      const java = driver as JmsDriver;
      const javaConnection = await java.connect({ port: (server as InteropServer).port });
      await java.start(javaConnection);
      const javaSession = await java.createSession(javaConnection);
      await java.send(
        javaSession,
        { type: 'queue', name: QUEUE },
        { class: 'TextMessage', body: 'from java' },
      );

      const session = await (connection as HornetQConnection).createSession(false, Session.AUTO_ACKNOWLEDGE);
      const queue = session.createQueue(QUEUE);
      const consumer = await session.createConsumer(queue);
      await (connection as HornetQConnection).start();
      const fromJava = await consumer.receive(RECEIVE_MS);
      expect(isTextMessage(fromJava) ? fromJava.getText() : null).toBe('from java');
      expect(fromJava?.getStringProperty('traceparent')).toBeNull();
      expect(receives).toHaveLength(1);
      expect(receives[0]?.traceparent).toBeUndefined();
      await consumer.close();

      const producer = await session.createProducer(queue);
      await producer.send(session.createTextMessage('from node'));
      expect(sends).toHaveLength(1);
      const javaConsumer = await java.createConsumer(javaSession, { type: 'queue', name: QUEUE });
      const received = await java.receive(javaConsumer, RECEIVE_MS);
      expect(received?.body).toBe('from node');
      expect(received?.properties.traceparent).toEqual(['string', TRACEPARENT]);
    });
  },
);
