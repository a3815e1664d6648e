import {
  HornetQConnectionFactory,
  HornetQQueue,
  Session,
  type HornetQConnection,
  type Message,
  type TextMessage,
} from '../../../src';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './interop-server';
import { JmsDriver, type DestinationRef } from './jms-driver';

/** How long a test waits for one message: generous, for a loaded 2-core machine. */
const RECEIVE_MS = 20_000;
const UUID_MESSAGE_ID = /^ID:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One JMS queue per scenario, so that no scenario sees another's leftovers. */
const QUEUES = {
  harness: 'harnessRoundTrip',
  nodeToNode: 'nodeToNode',
  javaToNode: 'javaToNode',
  nodeToJava: 'nodeToJava',
} as const;

function queueRef(name: string): DestinationRef {
  return { type: 'queue', name };
}

function textOf(message: Message | null): string | null {
  if (message === null) throw new Error('expected a message, got none');
  const text = message as Partial<TextMessage>;
  if (typeof text.getText !== 'function') throw new Error('expected a TextMessage');
  return text.getText();
}

/**
 * The scenarios every real server runs (issue 13, item 5), started against `kind`: one server
 * and one HornetQ Java JMS client driver for the whole file, our Node client beside them.
 */
export function describeServerScenarios(kind: ServerKind): void {
  describe(`against ${SERVER_VERSIONS[kind]}`, () => {
    let server: InteropServer | null = null;
    let driver: JmsDriver | null = null;
    const connections: HornetQConnection[] = [];

    const running = (): { server: InteropServer; driver: JmsDriver } => {
      if (server === null || driver === null) throw new Error('the server or the Java driver did not start');
      return { server, driver };
    };

    /** A started connection of our client to the server, closed after the file. */
    const nodeConnection = async (): Promise<HornetQConnection> => {
      const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: running().server.port });
      const connection = await factory.createConnection();
      connections.push(connection);
      await connection.start();
      return connection;
    };

    /** A started connection of HornetQ's Java client, and one AUTO_ACKNOWLEDGE session on it. */
    const javaSession = async (): Promise<string> => {
      const java = running().driver;
      const connection = await java.connect({ port: running().server.port });
      await java.start(connection);
      return java.createSession(connection);
    };

    beforeAll(async () => {
      server = await InteropServer.start(kind, { queues: Object.values(QUEUES) });
      driver = await JmsDriver.start();
    });

    afterAll(async () => {
      await Promise.allSettled(connections.map((connection) => connection.close()));
      await driver?.close();
      await server?.stop();
    });

    test("the harness itself: HornetQ's Java client sends and receives a text through the server", async () => {
      const java = running().driver;
      const session = await javaSession();
      const consumer = await java.createConsumer(session, queueRef(QUEUES.harness));
      const [sent] = await java.send(session, queueRef(QUEUES.harness), {
        class: 'TextMessage',
        body: 'java to java',
      });
      const received = await java.receive(consumer, RECEIVE_MS);
      expect(received?.body).toBe('java to java');
      expect(received?.JMSMessageID).toBe(sent?.JMSMessageID);
      expect(received?.JMSMessageID).toMatch(UUID_MESSAGE_ID);
    });

    test('handshake: our client connects and creates and closes sessions', async () => {
      const connection = await nodeConnection();
      const first = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const second = await connection.createSession(true, Session.SESSION_TRANSACTED);
      await second.close();
      await first.close();
      await connection.close();
    });

    test('a text round trip: our producer, the server, our consumer', async () => {
      const connection = await nodeConnection();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const queue = new HornetQQueue(QUEUES.nodeToNode);
      const consumer = await session.createConsumer(queue);
      const producer = await session.createProducer(queue);
      const message = session.createTextMessage('node to node \u00e9\ud83d\ude00');
      message.setStringProperty('colour', 'red');
      message.setIntProperty('n', 7);
      await producer.send(message);
      const received = await consumer.receive(RECEIVE_MS);
      expect(textOf(received)).toBe('node to node \u00e9\ud83d\ude00');
      expect(received?.getStringProperty('colour')).toBe('red');
      expect(received?.getIntProperty('n')).toBe(7);
      expect(received?.getJMSMessageID()).toMatch(UUID_MESSAGE_ID);
      expect(received?.getJMSMessageID()).toBe(message.getJMSMessageID());
    });

    test("HornetQ's Java producer, our consumer", async () => {
      const java = running().driver;
      const connection = await nodeConnection();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const consumer = await session.createConsumer(new HornetQQueue(QUEUES.javaToNode));
      const [sent] = await java.send(await javaSession(), queueRef(QUEUES.javaToNode), {
        class: 'TextMessage',
        headers: { JMSType: 'greeting', JMSCorrelationID: 'corr-7' },
        properties: {
          colour: ['string', 'blue'],
          n: ['int', 42],
          big: ['long', 1_700_000_000_000],
          ok: ['boolean', true],
        },
        body: 'java to node \u00e9\ud83d\ude00',
      });
      const received = await consumer.receive(RECEIVE_MS);
      expect(textOf(received)).toBe('java to node \u00e9\ud83d\ude00');
      expect(received?.getJMSMessageID()).toBe(sent?.JMSMessageID);
      expect(received?.getJMSType()).toBe('greeting');
      expect(received?.getJMSCorrelationID()).toBe('corr-7');
      expect(received?.getStringProperty('colour')).toBe('blue');
      expect(received?.getIntProperty('n')).toBe(42);
      expect(received?.getLongProperty('big')).toBe(1_700_000_000_000);
      expect(received?.getBooleanProperty('ok')).toBe(true);
    });

    test("our producer, HornetQ's Java consumer", async () => {
      const java = running().driver;
      const javaConsumer = await java.createConsumer(await javaSession(), queueRef(QUEUES.nodeToJava));
      const connection = await nodeConnection();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const producer = await session.createProducer(new HornetQQueue(QUEUES.nodeToJava));
      const message = session.createTextMessage('node to java \u00e9\ud83d\ude00');
      message.setStringProperty('colour', 'green');
      message.setJMSType('reply');
      await producer.send(message);
      const received = await java.receive(javaConsumer, RECEIVE_MS);
      expect(received).toMatchObject({
        class: 'TextMessage',
        body: 'node to java \u00e9\ud83d\ude00',
        JMSMessageID: message.getJMSMessageID(),
        JMSType: 'reply',
        JMSDestination: { type: 'queue', name: QUEUES.nodeToJava },
      });
      expect(received?.properties.colour).toEqual(['string', 'green']);
    });
  });
}
