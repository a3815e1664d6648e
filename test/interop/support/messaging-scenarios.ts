import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  HornetQConnectionFactory,
  HornetQQueue,
  HornetQTopic,
  Session,
  type BytesMessage,
  type FailoverEvent,
  type MapMessage,
  type Message,
  type Queue,
  type StreamMessage,
} from '../../../src';
import { waitFor } from '../../support/test-broker';
import { InteropServer } from './interop-server';
import type { JmsDriver, JavaTyped, ReceivedJavaMessage } from './jms-driver';
import { queueRef, RECEIVE_MS, textOf, type ScenarioContext, type ScenarioGroup } from './scenario-context';

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
  blocked: 'blocked',
  clientAck: 'clientAck',
  selectors: 'selectors',
  largeToJava: 'largeToJava',
  largeJavaToJava: 'largeJavaToJava',
  largeFromJava: 'largeFromJava',
  requests: 'requests',
} as const;

const TOPIC = 'news';

/** The blocked queue's max-size-bytes, and what the flow-control scenario sends into it. */
const BLOCKED_ADDRESS_BYTES = 16 * 1024;
const BLOCKED_MESSAGES = 40;
const BLOCKED_BODY = 2 * 1024;

/** A body well over the default min-large-message-size (100 KiB): sent as a large message in chunks. */
const LARGE_BYTES = 1024 * 1024 + 17;
const largeBody = (bytes = LARGE_BYTES): Buffer =>
  Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 31 + 7) & 0xff));

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

/** A map and a stream body, typed as the Java driver writes them: what Java sends, and reports of ours. */
const MAP_BODY: Record<string, JavaTyped> = {
  n: ['int', 5],
  s: ['string', 'x\u00e9'],
  d: ['double', 2.5],
  b: ['bytes', Buffer.from([7, 8])],
};
const STREAM_BODY: JavaTyped[] = [
  ['boolean', false],
  ['int', 7],
  ['string', 'x'],
  ['null', null],
];

/**
 * Messages of every kind both ways between our client and HornetQ's Java client through the
 * server, queues, transactions, acknowledgement, selectors, large messages, flow control,
 * request/reply, a durable subscription and a server restart.
 */
export const messagingScenarios: ScenarioGroup = {
  server: {
    queues: Object.values(QUEUES),
    topics: [TOPIC],
    limits: [{ queue: QUEUES.blocked, maxSizeBytes: BLOCKED_ADDRESS_BYTES, policy: 'BLOCK' }],
  },
  define(context: ScenarioContext): void {
    const { kind, nodeConnection, nodeSession, javaSession } = context;
    /** A session of ours (AUTO_ACKNOWLEDGE unless told) with a producer and a consumer on one queue. */
    const queueEnds = async (name: string, mode?: number) => {
      const session = await nodeSession(mode);
      const queue = new HornetQQueue(name);
      return {
        session,
        producer: await session.createProducer(queue),
        consumer: await session.createConsumer(queue),
      };
    };

    /** Sends largeBody() as a BytesMessage from our client (a large message: over 100 KiB). */
    const sendLargeFromNode = async (queueName: string): Promise<void> => {
      const session = await nodeSession();
      const producer = await session.createProducer(new HornetQQueue(queueName));
      const message = session.createBytesMessage();
      message.writeBytes(largeBody());
      await producer.send(message);
    };

    test("the harness itself: HornetQ's Java client sends and receives a text through the server", async () => {
      const java = context.java();
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
      const { session, producer, consumer } = await queueEnds(QUEUES.nodeToNode);
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
      const java = context.java();
      const session = await nodeSession();
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
      const java = context.java();
      const javaConsumer = await java.createConsumer(await javaSession(), queueRef(QUEUES.nodeToJava));
      const session = await nodeSession();
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
      const java = context.java();
      const session = await nodeSession();
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
        body: MAP_BODY,
      })) as MapMessage;
      expect([map.getInt('n'), map.getString('s'), map.getDouble('d')]).toEqual([5, 'x\u00e9', 2.5]);
      expect(Buffer.from(map.getBytes('b') ?? [])).toEqual(Buffer.from([7, 8]));
      const stream = (await send({
        class: 'StreamMessage',
        body: STREAM_BODY,
      })) as StreamMessage;
      expect([stream.readBoolean(), stream.readInt(), stream.readString(), stream.readObject()]).toEqual([
        false,
        7,
        'x',
        null,
      ]);
    });

    test("every message class from our producer reaches HornetQ's Java consumer with its body, headers and properties", async () => {
      const java = context.java();
      const javaConsumer = await java.createConsumer(await javaSession(), queueRef(QUEUES.nodeBodies));
      const session = await nodeSession();
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
        body: MAP_BODY,
      });
      const stream = session.createStreamMessage();
      stream.writeBoolean(false);
      stream.writeInt(7);
      stream.writeString('x');
      stream.writeString(null);
      expect(await send(stream)).toMatchObject({
        class: 'StreamMessage',
        body: STREAM_BODY,
      });
      expect(await send(session.createMessage())).toMatchObject({ class: 'Message', body: null });
    });

    test('transactions: a rollback redelivers to our consumer marked redelivered, a commit ends it', async () => {
      const { session, producer, consumer } = await queueEnds(
        QUEUES.transactions,
        Session.SESSION_TRANSACTED,
      );
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
      const java = context.java();
      const javaSessionId = await javaSession();
      const requests = await java.createConsumer(javaSessionId, queueRef(QUEUES.requests));
      const session = await nodeSession();
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
      const java = context.java();
      const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: context.server().port });
      const connection = context.track(await factory.createConnection());
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

    test('CLIENT_ACKNOWLEDGE: recover redelivers to our consumer what it did not acknowledge', async () => {
      const { session, producer, consumer } = await queueEnds(QUEUES.clientAck, Session.CLIENT_ACKNOWLEDGE);
      await producer.send(session.createTextMessage('ack me'));
      expect((await consumer.receive(RECEIVE_MS))?.getJMSRedelivered()).toBe(false);
      await session.recover();
      const redelivered = await consumer.receive(RECEIVE_MS);
      expect([textOf(redelivered), redelivered?.getJMSRedelivered()]).toEqual(['ack me', true]);
      await redelivered?.acknowledge();
      await session.recover();
      expect(await consumer.receive(500)).toBeNull();
    });

    test('selectors written as a JMS user writes them select on the server', async () => {
      const java = context.java();
      const session = await nodeSession();
      const consumer = await session.createConsumer(
        new HornetQQueue(QUEUES.selectors),
        "JMSPriority > 5 AND colour = 'red' AND JMSDeliveryMode = 'PERSISTENT'",
      );
      const producer = await javaSession();
      const sends: Array<[string, string, number]> = [
        ['low', 'red', 4],
        ['blue', 'blue', 9],
        ['match', 'red', 8],
      ];
      for (const [body, colour, priority] of sends) {
        await java.send(
          producer,
          queueRef(QUEUES.selectors),
          { class: 'TextMessage', body, properties: { colour: ['string', colour] } },
          { priority },
        );
      }
      expect(textOf(await consumer.receive(RECEIVE_MS))).toBe('match');
      expect(await consumer.receive(500)).toBeNull();
    });

    if (kind !== 'artemis') {
      test("a large message from our producer reaches HornetQ's Java consumer whole", async () => {
        const java = context.java();
        const javaConsumer = await java.createConsumer(await javaSession(), queueRef(QUEUES.largeToJava));
        await sendLargeFromNode(QUEUES.largeToJava);
        const received = await java.receive(javaConsumer, RECEIVE_MS);
        expect(received?.class).toBe('BytesMessage');
        expect(Buffer.compare(received?.body as Buffer, largeBody())).toBe(0);
      });
    } else {
      // Artemis 2.40 delivers a large message to a HornetQ 2.4 consumer with its address unprefixed
      // ('largeToJava', not 'jms.queue.largeToJava'), which the Java client refuses: for a Java
      // producer's large message just as for ours. (Ours reach our own consumer; see below.)
      test("a large message reaches HornetQ's Java consumer through Artemis no worse from our producer than from Java's", async () => {
        const java = context.java();
        const session = await javaSession();
        const fromJava = await java.createConsumer(session, queueRef(QUEUES.largeJavaToJava));
        await java.send(session, queueRef(QUEUES.largeJavaToJava), {
          class: 'BytesMessage',
          body: largeBody(),
        });
        await expect(java.receive(fromJava, RECEIVE_MS)).rejects.toThrow(
          `Invalid address ${QUEUES.largeJavaToJava}`,
        );
        const fromNode = await java.createConsumer(await javaSession(), queueRef(QUEUES.largeToJava));
        await sendLargeFromNode(QUEUES.largeToJava);
        await expect(java.receive(fromNode, RECEIVE_MS)).rejects.toThrow(
          `Invalid address ${QUEUES.largeToJava}`,
        );
      });
    }

    // The server sends a large body's chunks only as credits come, and our client hands a large
    // message out whole: past the consumer window (1 MiB) it must earn them as the chunks arrive.
    for (const bytes of [LARGE_BYTES, 3 * 1024 * 1024 + 5]) {
      test(`a large message of ${bytes} bytes from HornetQ's Java producer reaches our consumer (window 1 MiB) whole`, async () => {
        const java = context.java();
        const session = await nodeSession();
        const consumer = await session.createConsumer(new HornetQQueue(QUEUES.largeFromJava));
        await java.send(await javaSession(), queueRef(QUEUES.largeFromJava), {
          class: 'BytesMessage',
          body: largeBody(bytes),
        });
        const received = (await consumer.receive(RECEIVE_MS)) as BytesMessage | null;
        if (received === null) throw new Error('the large message did not arrive');
        expect(received.getBodyLength()).toBe(bytes);
        const body = new Uint8Array(bytes);
        expect(received.readBytes(body)).toBe(bytes);
        expect(Buffer.compare(Buffer.from(body), largeBody(bytes))).toBe(0);
        await consumer.close();
      });
    }

    test('a restart of the server ends in the re-creation of our session; unacknowledged persistent messages come again', async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), `interop-${kind}-restart-`));
      const restarting = await InteropServer.start(kind, { queues: ['restart'], dataDir });
      try {
        const java = context.java();
        const javaConnection = await java.connect({ port: restarting.port });
        const javaSessionId = await java.createSession(javaConnection);
        await java.send(
          javaSessionId,
          queueRef('restart'),
          { class: 'TextMessage', body: 'durable' },
          { count: 2, sequenceProperty: 'seq' },
        );
        await java.closeConnection(javaConnection);
        const connection = await nodeConnection(restarting.port, (factory) => {
          factory.setConfirmationWindowSize(1024 * 1024);
          factory.setReconnectAttempts(-1);
          factory.setRetryInterval(200);
          factory.setRetryIntervalMultiplier(1);
        });
        const failovers: FailoverEvent[] = [];
        connection.setFailoverListener((event) => failovers.push(event));
        const session = await connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        const consumer = await session.createConsumer(new HornetQQueue('restart'));
        expect((await consumer.receive(RECEIVE_MS))?.getIntProperty('seq')).toBe(0);
        await restarting.restart();
        await waitFor(() => failovers.length >= 2, 'the failover after the restart', 60_000);
        expect(failovers.map((event) => [event.type, event.reattached])).toEqual([
          ['FAILURE_DETECTED', undefined],
          ['FAILOVER_COMPLETED', false],
        ]);
        const again: number[] = [];
        for (
          let message = await consumer.receive(RECEIVE_MS);
          message !== null;
          message = await consumer.receive(1000)
        ) {
          again.push(message.getIntProperty('seq'));
          await message.acknowledge();
        }
        expect(again).toEqual([0, 1]);
        await connection.close();
      } finally {
        await restarting.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    });

    test('producer flow control: an address full under BLOCK holds our producer until a consumer makes room', async () => {
      const java = context.java();
      const connection = await nodeConnection(context.server().port, (factory) =>
        factory.setProducerWindowSize(4096),
      );
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const producer = await session.createProducer(new HornetQQueue(QUEUES.blocked));
      let sent = 0;
      const sending = (async () => {
        for (let seq = 0; seq < BLOCKED_MESSAGES; seq++) {
          const message = session.createBytesMessage();
          message.writeBytes(Buffer.alloc(BLOCKED_BODY, seq));
          message.setIntProperty('seq', seq);
          await producer.send(message);
          sent++;
        }
      })();
      // Should an expectation below fail, the blocked sends end when the connection closes: handled.
      sending.catch(() => undefined);
      await waitFor(() => sent > 0, 'the first sends', 30_000);
      // Bounded negative check: with the address full, sends stop well short of all of them.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(sent).toBeLessThan(BLOCKED_MESSAGES);
      const javaConsumer = await java.createConsumer(await javaSession(), queueRef(QUEUES.blocked));
      const received = await java.receiveMany(javaConsumer, BLOCKED_MESSAGES, RECEIVE_MS);
      await sending;
      expect(received.map((message) => message.properties.seq)).toEqual(
        Array.from({ length: BLOCKED_MESSAGES }, (_, seq) => ['int', seq]),
      );
    });
  },
};
