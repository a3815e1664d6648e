import {
  HornetQConnectionFactory,
  JMSContext as Modes,
  Session as SessionModes,
  isTextMessage,
  type BytesMessage,
  type CompletionListener,
  type Connection,
  type ConnectionFactory,
  type ConnectionMetaData,
  type Destination,
  type ExceptionListener,
  type JMSConsumer,
  type JMSContext,
  type JMSProducer,
  type MapMessage,
  type Message,
  type MessageConsumer,
  type MessageListener,
  type MessageProducer,
  type ObjectMessage,
  type Queue,
  type QueueBrowser,
  type Session,
  type StreamMessage,
  type TextMessage,
  type Topic,
  type TopicSubscriber,
} from '../../../src/client';
import { useJmsFixture, waitFor } from '../../support/jms-fixture';

/**
 * Issue 27 item 5: code written against the javax.jms names compiles against 'hornetq-js/client'
 * (`import type { MessageConsumer } from 'hornetq-js/client'` was TS2305), and runs. The
 * functions below are typed only with those names; `npx tsc` checks this file with the rest.
 */

const fx = useJmsFixture();

async function classic(factory: ConnectionFactory, queue: Queue): Promise<string | null> {
  const connection: Connection = await factory.createConnection();
  const metaData: ConnectionMetaData = connection.getMetaData();
  const listener: ExceptionListener = () => undefined;
  connection.setExceptionListener(listener);
  await connection.start();
  const session: Session = await connection.createSession(false, SessionModes.AUTO_ACKNOWLEDGE);
  const producer: MessageProducer = await session.createProducer(queue);
  const text: TextMessage = session.createTextMessage(`JMS ${metaData.getJMSVersion()}`);
  await producer.send(text);
  const browser: QueueBrowser = await session.createBrowser(queue);
  await browser.close();
  const consumer: MessageConsumer = await session.createConsumer(queue);
  const received: Message | null = await consumer.receive(5000);
  await connection.close();
  return isTextMessage(received) ? received.getText() : null;
}

async function simplified(factory: ConnectionFactory, destination: Destination): Promise<string | null> {
  await using context: JMSContext = await factory.createContext(Modes.CLIENT_ACKNOWLEDGE);
  const completions: Message[] = [];
  const completion: CompletionListener = {
    onCompletion: (message) => void completions.push(message),
    onException: () => undefined,
  };
  const producer: JMSProducer = context.createProducer().setAsync(completion);
  await producer.send(destination, 'simplified');
  await waitFor(() => completions.length === 1, 'the send to be confirmed');
  const consumer: JMSConsumer = await context.createConsumer(destination);
  const body = await consumer.receiveBody(String, 5000);
  await context.acknowledge();
  return body;
}

test('the JMS interface names type real code, classic and simplified', async () => {
  const factory = fx.factory((f) => f.setConfirmationWindowSize(1024 * 1024));
  expect(factory).toBeInstanceOf(HornetQConnectionFactory);
  expect(await classic(factory, fx.queue('Queue1'))).toBe('JMS 2.0');
  expect(await simplified(factory, fx.queue('Queue1'))).toBe('simplified');
  await fx.expectCount('Queue1', 0);
});

test('every message kind and listener name is importable as a type', () => {
  type Names = [
    BytesMessage,
    MapMessage,
    ObjectMessage,
    StreamMessage,
    Topic,
    TopicSubscriber,
    MessageListener,
  ];
  const listener: Names[6] = () => undefined;
  expect(typeof listener).toBe('function');
  expect(Modes.SESSION_TRANSACTED).toBe(SessionModes.SESSION_TRANSACTED);
});
