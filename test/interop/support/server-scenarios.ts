import {
  HornetQConnectionFactory,
  HornetQQueue,
  Session,
  HornetQTopic,
  type BytesMessage,
  type FailoverEvent,
  type HornetQConnection,
  type MapMessage,
  type Message,
  type Queue,
  type StreamMessage,
  type TextMessage,
} from '../../../src';
import { FaultProxy } from '../../support/fault-proxy';
import { waitFor } from '../../support/test-broker';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './interop-server';
import { JmsDriver, type DestinationRef, type JavaTyped, type ReceivedJavaMessage } from './jms-driver';

/** How long a test waits for one message: generous, for a loaded 2-core machine. */
const RECEIVE_MS = 20_000;
const UUID_MESSAGE_ID = /^ID:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One JMS queue per scenario, so that no scenario sees another's leftovers. */
const QUEUES = {
  harness: 'harnessRoundTrip',
  nodeToNode: 'nodeToNode',
  javaToNode: 'javaToNode',
  nodeToJava: 'nodeToJava',
  javaBodies: 'javaBodies',
  nodeBodies: 'nodeBodies',
  replies: 'replies',
  transactions: 'transactions',
  requests: 'requests',
  reattachSend: 'reattachSend',
  reattachReceive: 'reattachReceive',
} as const;

const TOPIC = 'news';

/** Messages sent across a cut link in the reattach scenarios; the link is reset after a third. */
const REATTACH_COUNT = 150;

/** The JMS property types, as HornetQ's Java client sets them. */
const JAVA_PROPERTIES: Record<string, JavaTyped> = {
  aBoolean: ['boolean', true],
  aByte: ['byte', -128],
  aShort: ['short', 32767],
  anInt: ['int', -2147483648],
  aLong: ['long', 1_700_000_000_000],
  aFloat: ['float', 1.5],
  aDouble: ['double', -0.1],
  aString: ['string', 'd\u00e9j\u00e0 \ud83d\ude00'],
};

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
    const proxies: FaultProxy[] = [];

    const running = (): { server: InteropServer; driver: JmsDriver } => {
      if (server === null || driver === null) throw new Error('the server or the Java driver did not start');
      return { server, driver };
    };

    /** A started connection of our client to the server, closed after the file. */
    const nodeConnection = async (
      port = running().server.port,
      configure?: (factory: HornetQConnectionFactory) => void,
    ): Promise<HornetQConnection> => {
      const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port });
      configure?.(factory);
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
      server = await InteropServer.start(kind, { queues: Object.values(QUEUES), topics: [TOPIC] });
      driver = await JmsDriver.start();
    });

    /**
     * Our client through a fault proxy in front of the server, set up to reattach: the issue's
     * confirmation-window-size of 1 MiB, reconnecting without end, quickly.
     */
    const reattachingConnection = async (): Promise<{
      connection: HornetQConnection;
      proxy: FaultProxy;
      failovers: FailoverEvent[];
    }> => {
      const proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: running().server.port });
      proxies.push(proxy);
      const connection = await nodeConnection(proxy.port, (factory) => {
        factory.setConfirmationWindowSize(1024 * 1024);
        factory.setReconnectAttempts(-1);
        factory.setRetryInterval(100);
        factory.setRetryIntervalMultiplier(1);
        // A small consumer window, so that deliveries are still flowing when the link is cut.
        factory.setConsumerWindowSize(1024);
      });
      const failovers: FailoverEvent[] = [];
      connection.setFailoverListener((event) => failovers.push(event));
      return { connection, proxy, failovers };
    };

    afterAll(async () => {
      await Promise.allSettled(connections.map((connection) => connection.close()));
      await Promise.allSettled(proxies.map((proxy) => proxy.close()));
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

    test("every message class from HornetQ's Java producer reaches our consumer with its body, headers and properties", async () => {
      const java = running().driver;
      const connection = await nodeConnection();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const consumer = await session.createConsumer(new HornetQQueue(QUEUES.javaBodies));
      const javaProducer = await javaSession();
      const send = async (message: Parameters<JmsDriver['send']>[2]): Promise<Message> => {
        const [sent] = await java.send(
          javaProducer,
          queueRef(QUEUES.javaBodies),
          {
            ...message,
            headers: { JMSType: 'kind', JMSCorrelationID: 'corr', JMSReplyTo: queueRef(QUEUES.replies) },
            properties: JAVA_PROPERTIES,
          },
          { deliveryMode: 'NON_PERSISTENT', priority: 7 },
        );
        const received = await consumer.receive(RECEIVE_MS);
        if (received === null) throw new Error(`our consumer received nothing for a Java ${message.class}`);
        expect(received.getJMSMessageID()).toBe(sent?.JMSMessageID);
        expect(received.getJMSType()).toBe('kind');
        expect(received.getJMSCorrelationID()).toBe('corr');
        expect((received.getJMSReplyTo() as Queue | null)?.getQueueName()).toBe(QUEUES.replies);
        expect(received.getJMSPriority()).toBe(7);
        expect(received.getJMSDeliveryMode()).toBe(1);
        expect(received.getBooleanProperty('aBoolean')).toBe(true);
        expect(received.getByteProperty('aByte')).toBe(-128);
        expect(received.getShortProperty('aShort')).toBe(32767);
        expect(received.getIntProperty('anInt')).toBe(-2147483648);
        expect(received.getLongProperty('aLong')).toBe(1_700_000_000_000);
        expect(received.getFloatProperty('aFloat')).toBe(1.5);
        expect(received.getDoubleProperty('aDouble')).toBe(-0.1);
        expect(received.getStringProperty('aString')).toBe('d\u00e9j\u00e0 \ud83d\ude00');
        return received;
      };

      expect(textOf(await send({ class: 'TextMessage', body: null }))).toBeNull();
      const bytes = (await send({
        class: 'BytesMessage',
        body: Buffer.from([1, 2, 3, 0xfe]),
      })) as BytesMessage;
      const read = new Uint8Array(8);
      expect(bytes.readBytes(read)).toBe(4);
      expect(Buffer.from(read.subarray(0, 4))).toEqual(Buffer.from([1, 2, 3, 0xfe]));
      const map = (await send({
        class: 'MapMessage',
        body: {
          n: ['int', 5],
          s: ['string', 'x\u00e9'],
          d: ['double', 2.5],
          b: ['bytes', Buffer.from([7, 8])],
        },
      })) as MapMessage;
      expect([map.getInt('n'), map.getString('s'), map.getDouble('d')]).toEqual([5, 'x\u00e9', 2.5]);
      expect(Buffer.from(map.getBytes('b') ?? [])).toEqual(Buffer.from([7, 8]));
      const stream = (await send({
        class: 'StreamMessage',
        body: [
          ['boolean', false],
          ['int', 7],
          ['string', 'x'],
          ['null', null],
        ],
      })) as StreamMessage;
      expect([stream.readBoolean(), stream.readInt(), stream.readString(), stream.readObject()]).toEqual([
        false,
        7,
        'x',
        null,
      ]);
    });

    test("every message class from our producer reaches HornetQ's Java consumer with its body, headers and properties", async () => {
      const java = running().driver;
      const javaConsumer = await java.createConsumer(await javaSession(), queueRef(QUEUES.nodeBodies));
      const connection = await nodeConnection();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const producer = await session.createProducer(new HornetQQueue(QUEUES.nodeBodies));
      const send = async (message: Message): Promise<ReceivedJavaMessage> => {
        message.setJMSType('kind');
        message.setJMSCorrelationID('corr');
        message.setJMSReplyTo(new HornetQQueue(QUEUES.replies));
        message.setBooleanProperty('aBoolean', true);
        message.setByteProperty('aByte', -128);
        message.setShortProperty('aShort', 32767);
        message.setIntProperty('anInt', -2147483648);
        message.setLongProperty('aLong', 1_700_000_000_000);
        message.setFloatProperty('aFloat', 1.5);
        message.setDoubleProperty('aDouble', -0.1);
        message.setStringProperty('aString', 'd\u00e9j\u00e0 \ud83d\ude00');
        await producer.send(message);
        const received = await java.receive(javaConsumer, RECEIVE_MS);
        if (received === null) throw new Error('the Java consumer received nothing');
        expect(received).toMatchObject({
          JMSMessageID: message.getJMSMessageID(),
          JMSType: 'kind',
          JMSCorrelationID: 'corr',
          JMSReplyTo: { type: 'queue', name: QUEUES.replies },
          JMSDestination: { type: 'queue', name: QUEUES.nodeBodies },
        });
        expect(received.properties).toMatchObject(JAVA_PROPERTIES);
        return received;
      };

      expect(await send(session.createTextMessage(null))).toMatchObject({ class: 'TextMessage', body: null });
      const bytes = session.createBytesMessage();
      bytes.writeBytes(Buffer.from([1, 2, 3, 0xfe]));
      expect(await send(bytes)).toMatchObject({ class: 'BytesMessage', body: Buffer.from([1, 2, 3, 0xfe]) });
      const map = session.createMapMessage();
      map.setInt('n', 5);
      map.setString('s', 'x\u00e9');
      map.setDouble('d', 2.5);
      map.setBytes('b', Buffer.from([7, 8]));
      expect(await send(map)).toMatchObject({
        class: 'MapMessage',
        body: {
          n: ['int', 5],
          s: ['string', 'x\u00e9'],
          d: ['double', 2.5],
          b: ['bytes', Buffer.from([7, 8])],
        },
      });
      const stream = session.createStreamMessage();
      stream.writeBoolean(false);
      stream.writeInt(7);
      stream.writeString('x');
      stream.writeString(null);
      expect(await send(stream)).toMatchObject({
        class: 'StreamMessage',
        body: [
          ['boolean', false],
          ['int', 7],
          ['string', 'x'],
          ['null', null],
        ],
      });
      expect(await send(session.createMessage())).toMatchObject({ class: 'Message', body: null });
    });

    test('our producer reattaches to the server after its link is reset mid-stream: nothing lost, duplicated or reordered', async () => {
      const java = running().driver;
      const javaConsumer = await java.createConsumer(await javaSession(), queueRef(QUEUES.reattachSend));
      const { connection, proxy, failovers } = await reattachingConnection();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const producer = await session.createProducer(new HornetQQueue(QUEUES.reattachSend));
      for (let seq = 0; seq < REATTACH_COUNT; seq++) {
        if (seq === Math.floor(REATTACH_COUNT / 3)) expect(proxy.cut()).toBe(1);
        const message = session.createTextMessage(`m${seq}`);
        message.setIntProperty('seq', seq);
        await producer.send(message);
      }
      const received = await java.receiveMany(javaConsumer, REATTACH_COUNT + 1, 5_000);
      expect(received.map((message) => message.body)).toEqual(
        Array.from({ length: REATTACH_COUNT }, (_, seq) => `m${seq}`),
      );
      await waitFor(() => failovers.length >= 2, 'the failover to complete', 30_000);
      expect(failovers.map((event) => [event.type, event.reattached])).toEqual([
        ['FAILURE_DETECTED', undefined],
        ['FAILOVER_COMPLETED', true],
      ]);
    });

    test('our consumer reattaches to the server after its link is reset mid-stream: nothing lost, duplicated or reordered', async () => {
      const java = running().driver;
      await java.send(
        await javaSession(),
        queueRef(QUEUES.reattachReceive),
        { class: 'TextMessage', body: 'from java' },
        { count: REATTACH_COUNT, sequenceProperty: 'seq' },
      );
      const { connection, proxy, failovers } = await reattachingConnection();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const consumer = await session.createConsumer(new HornetQQueue(QUEUES.reattachReceive));
      const sequence: number[] = [];
      while (sequence.length < REATTACH_COUNT) {
        if (sequence.length === Math.floor(REATTACH_COUNT / 3)) expect(proxy.cut()).toBe(1);
        const message = await consumer.receive(RECEIVE_MS);
        if (message === null) break;
        sequence.push(message.getIntProperty('seq'));
      }
      expect(await consumer.receive(500)).toBeNull();
      expect(sequence).toEqual(Array.from({ length: REATTACH_COUNT }, (_, seq) => seq));
      await waitFor(() => failovers.length >= 2, 'the failover to complete', 30_000);
      expect(failovers.map((event) => [event.type, event.reattached])).toEqual([
        ['FAILURE_DETECTED', undefined],
        ['FAILOVER_COMPLETED', true],
      ]);
    });

    test('transactions: a rollback redelivers to our consumer marked redelivered, a commit ends it', async () => {
      const connection = await nodeConnection();
      const session = await connection.createSession(true, Session.SESSION_TRANSACTED);
      const queue = new HornetQQueue(QUEUES.transactions);
      const producer = await session.createProducer(queue);
      const consumer = await session.createConsumer(queue);
      await producer.send(session.createTextMessage('transacted'));
      expect(await consumer.receive(500)).toBeNull();
      await session.commit();
      const first = await consumer.receive(RECEIVE_MS);
      expect([textOf(first), first?.getJMSRedelivered()]).toEqual(['transacted', false]);
      await session.rollback();
      const again = await consumer.receive(RECEIVE_MS);
      expect([textOf(again), again?.getJMSRedelivered(), again?.getIntProperty('JMSXDeliveryCount')]).toEqual(
        ['transacted', true, 2],
      );
      await session.commit();
      expect(await consumer.receive(500)).toBeNull();
    });

    test("request and reply: our requester's temporary queue, HornetQ's Java replier", async () => {
      const java = running().driver;
      const javaSessionId = await javaSession();
      const requests = await java.createConsumer(javaSessionId, queueRef(QUEUES.requests));
      const connection = await nodeConnection();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const replies = await session.createTemporaryQueue();
      const replyConsumer = await session.createConsumer(replies);
      const producer = await session.createProducer(new HornetQQueue(QUEUES.requests));
      const request = session.createTextMessage('ping');
      request.setJMSReplyTo(replies);
      await producer.send(request);
      const received = await java.receive(requests, RECEIVE_MS);
      expect(received?.JMSReplyTo).toMatchObject({ type: 'tempQueue', name: replies.getQueueName() });
      if (received === null || received.JMSReplyTo === null)
        throw new Error('the request came without its reply-to');
      await java.send(javaSessionId, received.JMSReplyTo, {
        class: 'TextMessage',
        body: 'pong',
        headers: { JMSCorrelationID: received.JMSMessageID ?? '' },
      });
      const reply = await replyConsumer.receive(RECEIVE_MS);
      expect([textOf(reply), reply?.getJMSCorrelationID()]).toEqual(['pong', request.getJMSMessageID()]);
    });

    test("a durable subscription of ours keeps what HornetQ's Java client published while it was away", async () => {
      const java = running().driver;
      const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: running().server.port });
      const connection = await factory.createConnection();
      connections.push(connection);
      await connection.setClientID('node-durable');
      await connection.start();
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const topic = new HornetQTopic(TOPIC);
      const subscriber = await session.createDurableSubscriber(topic, 'sub');
      await subscriber.close();
      await java.send(
        await javaSession(),
        { type: 'topic', name: TOPIC },
        { class: 'TextMessage', body: 'while away' },
      );
      const back = await session.createDurableSubscriber(topic, 'sub');
      expect(textOf(await back.receive(RECEIVE_MS))).toBe('while away');
      await back.close();
      await session.unsubscribe('sub');
    });
  });
}
