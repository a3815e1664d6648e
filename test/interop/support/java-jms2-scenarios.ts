import { HornetQConnectionFactory, Session, type HornetQConnection, type HornetQSession } from '../../../src';
import { FaultProxy } from '../../support/fault-proxy';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './interop-server';
import { JavaJmsContext, type JavaJmsConsumer } from './java-jms-context';
import {
  JavaError,
  JmsDriver,
  type AsyncSend,
  type DestinationRef,
  type ReceivedJavaMessage,
  type SentJavaMessage,
} from './jms-driver';
import { NOTHING_MORE_MS, RECEIVE_MS, queueRef, topicRef } from './scenario-context';

/**
 * HornetQ 2.4.7's Java client through its JMS 2.0 API (JMSContext, JMSProducer delivery delay and
 * CompletionListener, shared subscriptions) against one server: through HornetQ 2.4.7 it shows
 * what the scenarios expect, through ours that our broker serves that client as HornetQ does.
 * The shared subscriptions are split between a Java consumer and one of our client's.
 */

/** How long one consumer waits for one more of its share before it is done. */
const SHARE_DRAIN_MS = 1500;
const sequence = (count: number): number[] => Array.from({ length: count }, (_, i) => i);
const seqOf = (message: ReceivedJavaMessage): number => Number(message.properties.seq?.[1]);

/** One delayed send through one kind of Java producer: the message as sent. */
type DelayedSend = (
  context: JavaJmsContext,
  to: DestinationRef,
  body: string,
  deliveryDelay: number,
) => Promise<SentJavaMessage | undefined>;

/** Sends `count` messages with one CompletionListener through a new Java sender with that confirmation window. */
type AsyncSender = (
  confirmationWindowSize: number,
  count: number,
) => Promise<{ sent: AsyncSend; close: () => Promise<void> }>;

/** Our client's consumer of one subscription: the sequence numbers of what it received. */
interface NodeShare {
  receive(timeoutMs: number): Promise<number | null>;
  close(): Promise<void>;
}

export function describeJavaJms2Scenarios(kind: ServerKind): void {
  describe(`HornetQ 2.4.7's Java JMS 2.0 client through ${SERVER_VERSIONS[kind]}`, () => {
    let server: InteropServer | null = null;
    let driver: JmsDriver | null = null;
    const nodeConnections: HornetQConnection[] = [];

    const java = (): JmsDriver => {
      if (driver === null) throw new Error('the driver did not start');
      return driver;
    };
    const port = (): number => {
      if (server === null) throw new Error('the server did not start');
      return server.port;
    };
    /** A Java context on the server (the driver closes what a test leaves open when it exits, after the file). */
    const context = (options: Omit<Parameters<typeof JavaJmsContext.create>[1], 'port'> = {}) =>
      JavaJmsContext.create(java(), { port: port(), ...options });
    const nodeSession = async (): Promise<HornetQSession> => {
      const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: port() });
      const connection = await factory.createConnection();
      nodeConnections.push(connection);
      await connection.start();
      return connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    };

    /** Our client's consumer of the shared subscription `name` to `topic`, through its JMS 2.0 API. */
    const nodeShare = async (
      session: HornetQSession,
      topic: string,
      name: string,
      durable: boolean,
    ): Promise<NodeShare> => {
      const consumer = durable
        ? await session.createSharedDurableConsumer(session.createTopic(topic), name)
        : await session.createSharedConsumer(session.createTopic(topic), name);
      return {
        async receive(timeoutMs) {
          const received = await consumer.receive(timeoutMs);
          return received === null ? null : received.getIntProperty('seq');
        },
        close: () => consumer.close(),
      };
    };

    /** Each consumer takes what comes to it until nothing more does: the sequence numbers of each share. */
    const drainShares = async (
      javaShare: JavaJmsConsumer,
      node: NodeShare,
    ): Promise<[number[], number[]]> => {
      const drainJava = async (): Promise<number[]> => {
        const got: number[] = [];
        for (
          let m = await javaShare.receive(SHARE_DRAIN_MS);
          m !== null;
          m = await javaShare.receive(SHARE_DRAIN_MS)
        )
          got.push(seqOf(m));
        return got;
      };
      const drainNode = async (): Promise<number[]> => {
        const got: number[] = [];
        for (let n = await node.receive(SHARE_DRAIN_MS); n !== null; n = await node.receive(SHARE_DRAIN_MS))
          got.push(n);
        return got;
      };
      return Promise.all([drainJava(), drainNode()]);
    };

    const expectSplit = ([javaShare, nodeShareOf]: [number[], number[]], count: number): void => {
      // Each consumer got some, and together every message exactly once.
      expect(javaShare.length).toBeGreaterThan(0);
      expect(nodeShareOf.length).toBeGreaterThan(0);
      expect([...javaShare, ...nodeShareOf].sort((a, b) => a - b)).toEqual(sequence(count));
    };

    beforeAll(async () => {
      server = await InteropServer.start(kind, {
        queues: [
          'ctxBodies',
          'ctxTx',
          'ctxAck',
          'delayedTx',
          'delayed',
          'delayedSession',
          'delayedFromNode',
          'completions',
        ],
        topics: ['prices', 'quotes'],
      });
      driver = await JmsDriver.start();
    });

    afterAll(async () => {
      await Promise.allSettled(nodeConnections.map((connection) => connection.close()));
      await driver?.close();
      await server?.stop();
    });

    test('JMSContext: receiveBody gives a String, a byte[] and a Map body as sent', async () => {
      const ctx = await context();
      const consumer = await ctx.createConsumer(queueRef('ctxBodies'));
      await ctx.send(queueRef('ctxBodies'), { class: 'TextMessage', body: 'text \ud83d\ude00' });
      await ctx.send(queueRef('ctxBodies'), { class: 'BytesMessage', body: Buffer.from([1, 2, 0xff]) });
      await ctx.send(queueRef('ctxBodies'), {
        class: 'MapMessage',
        body: { n: ['int', 5], s: ['string', 'x'] },
      });
      expect(await consumer.receiveBody('String', RECEIVE_MS)).toBe('text \ud83d\ude00');
      expect(await consumer.receiveBody('bytes', RECEIVE_MS)).toEqual(Buffer.from([1, 2, 0xff]));
      expect(await consumer.receiveBody('Map', RECEIVE_MS)).toEqual({ n: ['int', 5], s: ['string', 'x'] });
      expect(await consumer.receiveBody('String', NOTHING_MORE_MS)).toBeNull();
      await ctx.close();
    });

    test('a transacted JMSContext (made from another, on its connection): sends appear at commit, a rollback redelivers, a commit consumes', async () => {
      const auto = await context();
      const tx = await auto.createContext('SESSION_TRANSACTED');
      const watcher = await auto.createConsumer(queueRef('ctxTx'));
      await tx.send(queueRef('ctxTx'), { body: 'in a transaction' }, { count: 3, sequenceProperty: 'seq' });
      expect(await watcher.receive(NOTHING_MORE_MS)).toBeNull();
      await tx.rollback();
      expect(await watcher.receive(NOTHING_MORE_MS)).toBeNull();
      await tx.send(queueRef('ctxTx'), { body: 'in a transaction' }, { count: 3, sequenceProperty: 'seq' });
      await tx.commit();
      await watcher.close();
      const consumer = await tx.createConsumer(queueRef('ctxTx'));
      const first = await consumer.receiveMany(3, RECEIVE_MS);
      expect(first.map((m) => [seqOf(m), m.JMSRedelivered])).toEqual([
        [0, false],
        [1, false],
        [2, false],
      ]);
      await tx.rollback();
      const again = await consumer.receiveMany(3, RECEIVE_MS);
      expect(again.map((m) => [seqOf(m), m.JMSRedelivered, m.properties.JMSXDeliveryCount])).toEqual([
        [0, true, ['string', '2']],
        [1, true, ['string', '2']],
        [2, true, ['string', '2']],
      ]);
      await tx.commit();
      expect(await consumer.receive(NOTHING_MORE_MS)).toBeNull();
      await tx.close();
      await auto.close();
    });

    test('a CLIENT_ACKNOWLEDGE JMSContext: what it did not acknowledge comes again to the next consumer, what it did does not', async () => {
      const sender = await context();
      await sender.send(queueRef('ctxAck'), { body: 'ack me' }, { count: 2, sequenceProperty: 'seq' });
      const unacknowledged = await context({ sessionMode: 'CLIENT_ACKNOWLEDGE' });
      const first = await unacknowledged.createConsumer(queueRef('ctxAck'));
      expect((await first.receiveMany(2, RECEIVE_MS)).map(seqOf)).toEqual([0, 1]);
      await unacknowledged.close();
      const acknowledging = await context({ sessionMode: 'CLIENT_ACKNOWLEDGE' });
      const second = await acknowledging.createConsumer(queueRef('ctxAck'));
      const again = await second.receiveMany(2, RECEIVE_MS);
      expect(again.map((m) => [seqOf(m), m.JMSRedelivered])).toEqual([
        [0, true],
        [1, true],
      ]);
      await acknowledging.acknowledge();
      await acknowledging.close();
      const last = await (await context()).createConsumer(queueRef('ctxAck'));
      expect(await last.receive(NOTHING_MORE_MS)).toBeNull();
      await sender.close();
    });

    test('a transacted JMSContext sends with a delivery delay: the delay counts from the send, the message comes at commit or at its JMSDeliveryTime, whichever is later', async () => {
      const auto = await context();
      const tx = await auto.createContext('SESSION_TRANSACTED');
      const consumer = await auto.createConsumer(queueRef('delayedTx'));
      const [early] = await tx.send(
        queueRef('delayedTx'),
        { body: 'due before the commit' },
        { deliveryDelay: 300 },
      );
      const [late] = await tx.send(
        queueRef('delayedTx'),
        { body: 'due after the commit' },
        { deliveryDelay: 3000 },
      );
      if (early === undefined || late === undefined) throw new Error('the driver answered no sent message');
      const untilDue = early.JMSDeliveryTime + 200 - Date.now();
      if (untilDue > 0) await new Promise((resolve) => setTimeout(resolve, untilDue));
      expect(await consumer.receive(NOTHING_MORE_MS)).toBeNull();
      await tx.commit();
      expect(await consumer.receive(RECEIVE_MS)).toMatchObject({
        body: 'due before the commit',
        JMSDeliveryTime: early.JMSDeliveryTime,
      });
      const second = await consumer.receive(RECEIVE_MS);
      const receivedBy = Date.now();
      expect(second).toMatchObject({ body: 'due after the commit', JMSDeliveryTime: late.JMSDeliveryTime });
      expect(receivedBy).toBeGreaterThanOrEqual(late.JMSDeliveryTime - 5);
      await auto.close();
    });

    test('a shared durable subscription is split between a Java consumer and ours, keeps what comes while nobody reads it, and goes at unsubscribe', async () => {
      // No client id: two connections cannot have the same one, and a subscription is shared
      // between processes by its name alone.
      const ctx = await context();
      const javaShare = await ctx.createSharedDurableConsumer(topicRef('prices'), 'split-durable');
      const node = await nodeShare(await nodeSession(), 'prices', 'split-durable', true);
      await ctx.send(topicRef('prices'), { body: 'price' }, { count: 20, sequenceProperty: 'seq' });
      expectSplit(await drainShares(javaShare, node), 20);

      await javaShare.close();
      await node.close();
      await ctx.send(topicRef('prices'), { body: 'while away' }, { count: 3, sequenceProperty: 'seq' });
      const back = await ctx.createSharedDurableConsumer(topicRef('prices'), 'split-durable');
      expect((await back.receiveMany(3, RECEIVE_MS)).map(seqOf)).toEqual(sequence(3));
      expect(await back.receive(NOTHING_MORE_MS)).toBeNull();
      await back.close();
      await ctx.unsubscribe('split-durable');
      const query = await (await nodeSession()).core.queueQuery('split-durable');
      expect(query.exists).toBe(false);
      await ctx.close();
    });

    test('a shared non-durable subscription is split between a Java consumer and ours, and goes with the last of them', async () => {
      const ctx = await context();
      const session = await nodeSession();
      const javaShare = await ctx.createSharedConsumer(topicRef('quotes'), 'split-shared');
      const node = await nodeShare(session, 'quotes', 'split-shared', false);
      await ctx.send(topicRef('quotes'), { body: 'quote' }, { count: 20, sequenceProperty: 'seq' });
      expectSplit(await drainShares(javaShare, node), 20);

      await node.close();
      // One consumer left: the subscription stays, and takes what is published.
      await ctx.send(topicRef('quotes'), { body: 'to the one left' }, { sequenceProperty: 'seq', count: 1 });
      expect((await javaShare.receive(RECEIVE_MS))?.properties.seq).toEqual(['int', 0]);
      await javaShare.close();
      expect((await session.core.queueQuery('nonDurable.split-shared')).exists).toBe(false);
      await ctx.send(
        topicRef('quotes'),
        { body: 'while nobody subscribes' },
        { count: 3, sequenceProperty: 'seq' },
      );
      const later = await ctx.createSharedConsumer(topicRef('quotes'), 'split-shared');
      await ctx.send(topicRef('quotes'), { body: 'after' }, { count: 1, sequenceProperty: 'later' });
      const next = await later.receive(RECEIVE_MS);
      expect(next?.body).toBe('after');
      expect(await later.receive(NOTHING_MORE_MS)).toBeNull();
      await ctx.close();
    });

    // JMS 2.0: one subscription name, one topic and one selector; asking for it with another is an
    // error (HornetQ 2.4's server refuses the CREATE_SHARED_QUEUE with INVALID_TRANSIENT_QUEUE_USE,
    // which its JMS client reports as a plain JMSException, a JMSRuntimeException in a context).
    const mismatches: Array<[string, DestinationRef, string | undefined]> = [
      ['another selector', topicRef('prices'), "colour = 'blue'"],
      ['no selector', topicRef('prices'), undefined],
      ['another topic', topicRef('quotes'), "colour = 'red'"],
    ];
    const durabilities: Array<[string, boolean]> = [
      ['shared durable', true],
      ['shared non-durable', false],
    ];
    let mismatchRuns = 0;
    describe.each(durabilities)('a %s subscription', (_kind, durable) => {
      test.each(mismatches)(
        'asked for with %s while it exists: JMSRuntimeException, and the subscription is as it was',
        async (_mismatch, topic, selector) => {
          // A client id of its own: HornetQ's names for the subscription's queue include it.
          const clientId = `jms2-mismatch-${mismatchRuns++}`;
          const ctx = await context({ clientId });
          const subscribe = (to: DestinationRef, withSelector: string | undefined) =>
            durable
              ? ctx.createSharedDurableConsumer(to, 'mismatch', withSelector)
              : ctx.createSharedConsumer(to, 'mismatch', withSelector);
          const first = await subscribe(topicRef('prices'), "colour = 'red'");
          const queueName = durable ? `${clientId}.mismatch` : `nonDurable.${clientId}.mismatch`;
          expect((await (await nodeSession()).core.queueQuery(queueName)).exists).toBe(true);
          const refused = await subscribe(topic, selector).then(
            () => null,
            (error: unknown) => error,
          );
          expect(refused).toBeInstanceOf(JavaError);
          expect((refused as JavaError).javaClass).toBe('javax.jms.JMSRuntimeException');
          await ctx.send(topicRef('prices'), { body: 'blue', properties: { colour: ['string', 'blue'] } });
          await ctx.send(topicRef('prices'), { body: 'red', properties: { colour: ['string', 'red'] } });
          expect((await first.receive(RECEIVE_MS))?.body).toBe('red');
          expect(await first.receive(NOTHING_MORE_MS)).toBeNull();
          await first.close();
          if (durable) await ctx.unsubscribe('mismatch');
          await ctx.close();
        },
      );
    });

    test("a shared non-durable subscription goes when its last consumer's connection is cut, and nothing it would have kept comes to a later consumer", async () => {
      const proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: port() });
      try {
        // No confirmation window, so no reattach. HornetQ 2.4.7 keeps a vanished client's session
        // (and so the subscription) until the connection TTL runs out (ours frees it when the
        // socket closes): a short one.
        const cutOff = await JavaJmsContext.create(java(), {
          port: proxy.port,
          factory: { connectionTTL: 2000 },
        });
        await cutOff.createSharedConsumer(topicRef('quotes'), 'cut-shared');
        const session = await nodeSession();
        expect((await session.core.queueQuery('nonDurable.cut-shared')).exists).toBe(true);
        expect(proxy.cut()).toBe(1);
        const deadline = Date.now() + RECEIVE_MS;
        while ((await session.core.queueQuery('nonDurable.cut-shared')).exists) {
          if (Date.now() > deadline)
            throw new Error(`nonDurable.cut-shared still exists ${RECEIVE_MS} ms after the cut`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const ctx = await context();
        await ctx.send(topicRef('quotes'), { body: 'while nobody subscribes' });
        const later = await ctx.createSharedConsumer(topicRef('quotes'), 'cut-shared');
        await ctx.send(topicRef('quotes'), { body: 'after' });
        expect((await later.receive(RECEIVE_MS))?.body).toBe('after');
        expect(await later.receive(NOTHING_MORE_MS)).toBeNull();
        await ctx.close();
      } finally {
        await proxy.close();
      }
    });

    test('a shared durable subscription cannot be unsubscribed while a consumer has it; once unsubscribed, its name can go to another topic', async () => {
      const ctx = await context({ clientId: 'jms2-reuse' });
      const consumer = await ctx.createSharedDurableConsumer(topicRef('prices'), 'reused');
      const refused = await ctx.unsubscribe('reused').then(
        () => null,
        (error: unknown) => error,
      );
      expect((refused as JavaError).javaClass).toBe('javax.jms.IllegalStateRuntimeException');
      await consumer.close();
      await ctx.unsubscribe('reused');
      const elsewhere = await ctx.createSharedDurableConsumer(topicRef('quotes'), 'reused');
      await ctx.send(topicRef('prices'), { body: 'old topic' });
      await ctx.send(topicRef('quotes'), { body: 'new topic' });
      expect((await elsewhere.receive(RECEIVE_MS))?.body).toBe('new topic');
      expect(await elsewhere.receive(NOTHING_MORE_MS)).toBeNull();
      await elsewhere.close();
      await ctx.unsubscribe('reused');
      await ctx.close();
    });

    // HornetQ's producer stamps _HQ_SCHED_DELIVERY with its own clock plus the delay; the broker
    // holds the message until then. Java and this test share the machine's clock.
    const delaySenders: Array<[string, string, DelayedSend]> = [
      [
        'a JMSProducer of a JMSContext',
        'delayed',
        async (ctx, to, body, deliveryDelay) => (await ctx.send(to, { body }, { deliveryDelay }))[0],
      ],
      [
        'a MessageProducer',
        'delayedSession',
        async (_ctx, to, body, deliveryDelay) => {
          const connection = await java().connect({ port: port() });
          const s = await java().createSession(connection);
          const [sent] = await java().send(s, to, { body }, { deliveryDelay });
          await java().closeConnection(connection);
          return sent;
        },
      ],
    ];
    test.each(delaySenders)(
      'delivery delay (%s): a message sent with a 1 s delay comes after a later one without, not before its JMSDeliveryTime',
      async (_producer, queueName, send) => {
        const ctx = await context();
        const consumer = await ctx.createConsumer(queueRef(queueName));
        const delayed = await send(ctx, queueRef(queueName), 'delayed', 1000);
        const immediate = await send(ctx, queueRef(queueName), 'immediate', 0);
        if (delayed === undefined || immediate === undefined)
          throw new Error('the driver answered no sent message');
        expect(delayed.JMSDeliveryTime - delayed.JMSTimestamp).toBeGreaterThanOrEqual(1000);
        expect(delayed.JMSDeliveryTime - delayed.JMSTimestamp).toBeLessThan(1000 + 1000);
        expect(immediate.JMSDeliveryTime).toBe(0);

        const first = await consumer.receive(RECEIVE_MS);
        expect(first).toMatchObject({ body: 'immediate', JMSDeliveryTime: 0 });
        const second = await consumer.receive(RECEIVE_MS);
        // Java's clock, read by the driver after receive returned (a timer may fire a millisecond early).
        const receivedBy = Date.now();
        expect(second).toMatchObject({ body: 'delayed', JMSDeliveryTime: delayed.JMSDeliveryTime });
        expect(receivedBy).toBeGreaterThanOrEqual(delayed.JMSDeliveryTime - 5);
        await ctx.close();
      },
    );

    test("our producer's delivery delay: the Java consumer gets the message not before the JMSDeliveryTime our client stamped, and reads that time", async () => {
      const ctx = await context();
      const consumer = await ctx.createConsumer(queueRef('delayedFromNode'));
      const session = await nodeSession();
      const producer = await session.createProducer(session.createQueue('delayedFromNode'));
      producer.setDeliveryDelay(1000);
      const delayed = session.createTextMessage('delayed by our client');
      await producer.send(delayed);
      producer.setDeliveryDelay(0);
      await producer.send(session.createTextMessage('not delayed'));
      const deliveryTime = delayed.getJMSDeliveryTime();
      expect(deliveryTime - delayed.getJMSTimestamp()).toBeGreaterThanOrEqual(1000);
      expect(await consumer.receive(RECEIVE_MS)).toMatchObject({ body: 'not delayed', JMSDeliveryTime: 0 });
      const second = await consumer.receive(RECEIVE_MS);
      const receivedBy = Date.now();
      expect(second).toMatchObject({ body: 'delayed by our client', JMSDeliveryTime: deliveryTime });
      expect(receivedBy).toBeGreaterThanOrEqual(deliveryTime - 5);
      await producer.close();
      await ctx.close();
    });

    // HornetQ's client calls a CompletionListener when the broker confirms the send
    // (PACKETS_CONFIRMED: once per confirmation window, and when the session closes), or at once,
    // unconfirmed, without a window (-1). Either way every listener call must come, once per
    // send, and every message must be on the queue for our client to take.
    const asyncSenders: Array<[string, AsyncSender]> = [
      [
        'a JMSProducer of a JMSContext',
        async (confirmationWindowSize, count) => {
          const ctx = await context({ factory: { confirmationWindowSize } });
          const sent = await ctx.sendAsync(
            queueRef('completions'),
            { body: 'async' },
            { count, sequenceProperty: 'seq' },
          );
          return { sent, close: () => ctx.close() };
        },
      ],
      [
        'a MessageProducer',
        async (confirmationWindowSize, count) => {
          const connection = await java().connect({ port: port(), factory: { confirmationWindowSize } });
          const s = await java().createSession(connection);
          const sent = await java().sendAsync(
            s,
            queueRef('completions'),
            { body: 'async' },
            { count, sequenceProperty: 'seq' },
          );
          return { sent, close: () => java().closeConnection(connection) };
        },
      ],
    ];
    const windows: Array<[string, number, boolean]> = [
      ['no confirmation window (-1)', -1, true],
      ['a 10-byte window: each send confirmed', 10, true],
      ['a 1 MiB window: confirmed at the latest when the sender closes', 1048576, false],
    ];
    describe.each(asyncSenders)('CompletionListener on %s', (_producer, sendAsync) => {
      test.each(windows)(
        'with %s: onCompletion once for each of 50 sends, and all 50 reach our consumer',
        async (_window, windowSize, completesBeforeClose) => {
          const session = await nodeSession();
          const consumer = await session.createConsumer(session.createQueue('completions'));
          const { sent, close } = await sendAsync(windowSize, 50);
          const received: number[] = [];
          for (
            let m = await consumer.receive(RECEIVE_MS);
            m !== null;
            m = await consumer.receive(NOTHING_MORE_MS)
          ) {
            received.push(m.getIntProperty('seq'));
            if (received.length === 50) break;
          }
          expect(received).toEqual(sequence(50));
          if (!completesBeforeClose) await close();
          const completions = await java().completions(sent.listener, 50, RECEIVE_MS);
          expect(completions.failed).toEqual([]);
          expect(completions.completed).toEqual(sent.sent.map((m) => m.JMSMessageID));
          if (completesBeforeClose) await close();
          expect(await consumer.receive(NOTHING_MORE_MS)).toBeNull();
          await consumer.close();
        },
      );
    });
  });
}
