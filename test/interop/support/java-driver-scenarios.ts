import { FaultProxy } from '../../support/fault-proxy';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './interop-server';
import {
  JavaError,
  JmsDriver,
  type DestinationRef,
  type JavaTyped,
  type ReceivedJavaMessage,
} from './jms-driver';

/**
 * HornetQ's Java JMS client, Java to Java through one server: what the mixed scenarios rely on the
 * driver for (every message class, header and property type both ways, transactions,
 * acknowledgement modes, browsing, durable subscriptions, temporary queues, errors as Java reports
 * them). Through a real HornetQ 2.4.7 server it proves the driver; through ours, that our broker
 * serves a Java client as HornetQ does.
 */
const RECEIVE_MS = 20_000;
const queue = (name: string): DestinationRef => ({ type: 'queue', name });
const topic = (name: string): DestinationRef => ({ type: 'topic', name });
const sequence = (count: number): number[] => Array.from({ length: count }, (_, i) => i);

const EVERY_PROPERTY_TYPE: Record<string, JavaTyped> = {
  aBoolean: ['boolean', true],
  aByte: ['byte', -128],
  aShort: ['short', 32767],
  anInt: ['int', -2147483648],
  aLong: ['long', 9223372036854775807n],
  aFloat: ['float', 1.5],
  aDouble: ['double', Number.NaN],
  aString: ['string', 'd\u00e9j\u00e0 \ud83d\ude00 \u0000'],
  aChar: ['char', '\u20ac'],
  someBytes: ['bytes', Buffer.from([0, 1, 0xff])],
};

export function describeJavaDriverScenarios(kind: ServerKind): void {
  describe(`HornetQ 2.4.7's Java JMS client, Java to Java through ${SERVER_VERSIONS[kind]}`, () => {
    let server: InteropServer | null = null;
    let driver: JmsDriver | null = null;

    const java = (): JmsDriver => {
      if (driver === null) throw new Error('the driver did not start');
      return driver;
    };
    const port = (): number => {
      if (server === null) throw new Error('the server did not start');
      return server.port;
    };
    const session = async (
      transacted = false,
      ackMode: Parameters<JmsDriver['createSession']>[2] = 'AUTO_ACKNOWLEDGE',
    ) => {
      const connection = await java().connect({ port: port(), factory: { confirmationWindowSize: 1048576 } });
      await java().start(connection);
      return java().createSession(connection, transacted, transacted ? 'SESSION_TRANSACTED' : ackMode);
    };

    beforeAll(async () => {
      server = await InteropServer.start(kind, {
        queues: [
          'types',
          'tx',
          'client',
          'browse',
          'priorities',
          'prioritiesSmallWindow',
          'temp',
          'selected',
          'large',
          'reattach',
          'reattachConsumer',
        ],
        topics: ['news'],
      });
      driver = await JmsDriver.start();
    });

    afterAll(async () => {
      await driver?.close();
      await server?.stop();
    });

    test('every message class, header and property type arrives as sent', async () => {
      const s = await session();
      const consumer = await java().createConsumer(s, queue('types'));
      const bodies = [
        { class: 'TextMessage', body: 'text \ud83d\ude00' },
        { class: 'TextMessage', body: null },
        { class: 'BytesMessage', body: Buffer.from([1, 2, 3, 0xfe]) },
        {
          class: 'MapMessage',
          body: { n: ['int', 5], s: ['string', 'x'], b: ['bytes', Buffer.from([7])], c: ['char', 'q'] },
        },
        {
          class: 'StreamMessage',
          body: [
            ['boolean', false],
            ['long', 5],
            // Written with writeObject(null); HornetQ stores it as a null STRING, readObject gives null.
            ['null', null],
            ['double', -0.5],
          ],
        },
        { class: 'ObjectMessage', body: 'serialized by Java' },
        { class: 'Message' },
      ] as const;
      for (const body of bodies) {
        const [sent] = await java().send(
          s,
          queue('types'),
          {
            ...body,
            headers: { JMSType: 'kind', JMSCorrelationID: 'corr', JMSReplyTo: topic('news') },
            properties: EVERY_PROPERTY_TYPE,
          } as Parameters<JmsDriver['send']>[2],
          { deliveryMode: 'NON_PERSISTENT', priority: 7, timeToLive: 600_000 },
        );
        const received = await java().receive(consumer, RECEIVE_MS);
        expect(received).toMatchObject({
          class: body.class,
          JMSMessageID: sent?.JMSMessageID,
          JMSType: 'kind',
          JMSCorrelationID: 'corr',
          JMSReplyTo: { type: 'topic', name: 'news', address: 'jms.topic.news' },
          JMSDestination: { type: 'queue', name: 'types', address: 'jms.queue.types' },
          JMSDeliveryMode: 'NON_PERSISTENT',
          JMSPriority: 7,
          JMSExpiration: sent?.JMSExpiration,
          JMSRedelivered: false,
        });
        expect(received?.properties).toMatchObject(EVERY_PROPERTY_TYPE);
        if (body.class === 'ObjectMessage') {
          expect(received?.body).toEqual({ javaClass: 'java.lang.String', value: 'serialized by Java' });
        } else if (body.class === 'Message') {
          expect(received?.body).toBeNull();
        } else {
          expect(received?.body).toEqual(body.body);
        }
      }
    });

    test('a rolled-back transaction redelivers; a committed one does not', async () => {
      const s = await session(true);
      const consumer = await java().createConsumer(s, queue('tx'));
      await java().send(s, queue('tx'), { body: 'in a transaction' }, { count: 2, sequenceProperty: 'seq' });
      expect(await java().receiveNoWait(consumer)).toBeNull();
      await java().commit(s);
      const first = await java().receiveMany(consumer, 2, RECEIVE_MS);
      expect(first.map((m) => m.properties.seq)).toEqual([
        ['int', 0],
        ['int', 1],
      ]);
      await java().rollback(s);
      const again = await java().receiveMany(consumer, 2, RECEIVE_MS);
      expect(again.map((m) => [m.JMSRedelivered, m.properties.JMSXDeliveryCount])).toEqual([
        [true, ['string', '2']],
        [true, ['string', '2']],
      ]);
      await java().commit(s);
      expect(await java().receive(consumer, 500)).toBeNull();
    });

    test('CLIENT_ACKNOWLEDGE: recover redelivers what was not acknowledged', async () => {
      const s = await session(false, 'CLIENT_ACKNOWLEDGE');
      const consumer = await java().createConsumer(s, queue('client'));
      await java().send(s, queue('client'), { body: 'ack me' });
      expect((await java().receive(consumer, RECEIVE_MS))?.JMSRedelivered).toBe(false);
      await java().recover(s);
      const redelivered = await java().receive(consumer, RECEIVE_MS);
      expect(redelivered).toMatchObject({ body: 'ack me', JMSRedelivered: true });
      await java().acknowledge(s);
      await java().recover(s);
      expect(await java().receive(consumer, 500)).toBeNull();
    });

    test('browse sees what a selector selects and leaves it on the queue', async () => {
      const s = await session();
      await java().send(s, queue('browse'), { body: 'red', properties: { colour: ['string', 'red'] } });
      await java().send(s, queue('browse'), { body: 'blue', properties: { colour: ['string', 'blue'] } });
      const red = await java().browse(s, queue('browse'), "colour = 'red'");
      expect(red.map((m) => m.body)).toEqual(['red']);
      expect((await java().browse(s, queue('browse'))).map((m) => m.body)).toEqual(['red', 'blue']);
    });

    // The browser's client buffer orders by priority: a forced-delivery marker that overtook a
    // message of lower priority ended a browse short now and then on our broker (issue 24), so:
    // many browses. With the default window every message is in the buffer before the browser asks;
    // with a small one the messages come a few at a time, and each ask may come before the credits
    // the Java client sends from a thread of its own: HornetQ 2.4.7 itself then ends browses short
    // (40 of 40 when we tried), ours waits for those credits. So the small window is ours alone.
    const browseWindows: Array<[string, number | undefined]> = [['the default window', undefined]];
    if (kind === 'ours') browseWindows.push(['a 1 KiB window', 1024]);
    test.each(browseWindows)(
      'a QueueBrowser over messages of every priority 0-9 sees every one, browse after browse (%s)',
      async (_name, consumerWindowSize) => {
        const factory = consumerWindowSize === undefined ? {} : { consumerWindowSize };
        const connection = await java().connect({ port: port(), factory });
        await java().start(connection);
        const s = await java().createSession(connection, false, 'AUTO_ACKNOWLEDGE');
        const name = consumerWindowSize === undefined ? 'priorities' : 'prioritiesSmallWindow';
        for (let priority = 0; priority <= 9; priority++) {
          await java().send(s, queue(name), { body: `priority ${priority}` }, { priority, count: 4 });
        }
        const expected = sequence(40)
          .map((i) => `priority ${Math.floor(i / 4)}`)
          .sort();
        const short: number[] = [];
        for (let round = 0; round < 40; round++) {
          const bodies = (await java().browse(s, queue(name))).map((m) => String(m.body)).sort();
          if (bodies.length !== 40) short.push(bodies.length);
          else expect(bodies).toEqual(expected);
        }
        expect(short).toEqual([]);
        await java().closeConnection(connection);
      },
    );

    test('a durable subscription keeps messages while its subscriber is away, until unsubscribed', async () => {
      const connection = await java().connect({ port: port(), clientId: 'driver-durable' });
      await java().start(connection);
      const s = await java().createSession(connection);
      const subscriber = await java().createDurableSubscriber(s, topic('news'), 'sub');
      await java().closeConsumer(subscriber);
      await java().send(s, topic('news'), { body: 'while away' });
      const back = await java().createDurableSubscriber(s, topic('news'), 'sub');
      expect((await java().receive(back, RECEIVE_MS))?.body).toBe('while away');
      await java().closeConsumer(back);
      await java().unsubscribe(s, 'sub');
      await java().closeConnection(connection);
    });

    test('a shared non-durable subscription splits the topic between its consumers and goes with the last of them', async () => {
      const connection = await java().connect({ port: port() });
      await java().start(connection);
      const s = await java().createSession(connection);
      const first = await java().createSharedConsumer(s, topic('news'), 'shared-sub');
      const second = await java().createSharedConsumer(s, topic('news'), 'shared-sub');
      for (const n of sequence(4)) await java().send(s, topic('news'), { body: `split ${n}` });
      const bodies: string[] = [];
      for (const consumer of [first, second, first, second]) {
        bodies.push(String((await java().receive(consumer, RECEIVE_MS))?.body));
      }
      expect(bodies.sort()).toEqual(sequence(4).map((n) => `split ${n}`));
      await java().closeConsumer(first);
      await java().closeConsumer(second);
      // Nobody reads the subscription now: what is published meanwhile is not kept for a later one.
      await java().send(s, topic('news'), { body: 'while nobody subscribes' });
      const later = await java().createSharedConsumer(s, topic('news'), 'shared-sub');
      await java().send(s, topic('news'), { body: 'after' });
      expect((await java().receive(later, RECEIVE_MS))?.body).toBe('after');
      expect(await java().receive(later, 500)).toBeNull();
      await java().closeConnection(connection);
    });

    test('request and reply through a temporary queue', async () => {
      const s = await session();
      const replies = await java().createTemporaryQueue(s);
      expect(replies).toMatchObject({ type: 'tempQueue', address: `jms.tempqueue.${replies.name}` });
      const requests = await java().createConsumer(s, queue('temp'));
      const replyConsumer = await java().createConsumer(s, replies);
      await java().send(s, queue('temp'), { body: 'ping', headers: { JMSReplyTo: replies } });
      const request = await java().receive(requests, RECEIVE_MS);
      expect(request?.JMSReplyTo).toEqual(replies);
      if (request?.JMSReplyTo === null || request === null) throw new Error('no request');
      await java().send(s, request.JMSReplyTo, { body: 'pong' });
      expect((await java().receive(replyConsumer, RECEIVE_MS))?.body).toBe('pong');
      await java().closeConsumer(replyConsumer);
      await java().deleteTemporary(replies);
    });

    test('a selector on JMS headers, as a Java user writes it, selects on the server', async () => {
      const s = await session();
      // HornetQ's Java client rewrites JMSPriority and JMSDeliveryMode into HQPriority and HQDurable.
      const consumer = await java().createConsumer(s, queue('selected'), {
        selector: "JMSPriority > 5 AND JMSDeliveryMode = 'PERSISTENT' AND colour = 'red'",
      });
      const sends: Array<[string, number, 'PERSISTENT' | 'NON_PERSISTENT']> = [
        ['low', 4, 'PERSISTENT'],
        ['fleeting', 9, 'NON_PERSISTENT'],
        ['match', 8, 'PERSISTENT'],
      ];
      for (const [body, priority, deliveryMode] of sends) {
        await java().send(
          s,
          queue('selected'),
          { body, properties: { colour: ['string', 'red'] } },
          { priority, deliveryMode },
        );
      }
      expect((await java().receive(consumer, RECEIVE_MS))?.body).toBe('match');
      expect(await java().receive(consumer, 500)).toBeNull();
    });

    test('a large message from Java reaches Java whole', async () => {
      const s = await session();
      const consumer = await java().createConsumer(s, queue('large'));
      // Over HornetQ's default min-large-message-size (100 KiB): sent and delivered in chunks.
      const body = Buffer.alloc(300 * 1024);
      for (let i = 0; i < body.length; i++) body[i] = (i * 7) & 0xff;
      await java().send(s, queue('large'), { class: 'BytesMessage', body });
      const received = await java().receive(consumer, RECEIVE_MS);
      expect(received?.class).toBe('BytesMessage');
      expect(Buffer.compare(received?.body as Buffer, body)).toBe(0);
    });

    test('a temporary topic: a Java subscriber gets what Java publishes to it', async () => {
      const s = await session();
      const replies = await java().createTemporaryTopic(s);
      expect(replies).toMatchObject({ type: 'tempTopic', address: `jms.temptopic.${replies.name}` });
      const subscriber = await java().createConsumer(s, replies);
      await java().send(s, replies, { body: 'to the temporary topic' });
      expect((await java().receive(subscriber, RECEIVE_MS))?.body).toBe('to the temporary topic');
      await java().closeConsumer(subscriber);
      await java().deleteTemporary(replies);
    });

    // The Java side of a link reset, producing and consuming: the session reattaches (HornetQ's
    // Java client needs a confirmation window and reconnect attempts for it) and the stream goes
    // on with nothing lost, duplicated or reordered.
    const linkResets: Array<{
      role: string;
      /** Sends and receives the stream around the cut; gives back the consumer and what it got. */
      stream: (proxied: string, proxy: FaultProxy) => Promise<[string, ReceivedJavaMessage[]]>;
      /** The sequence numbers in the order they must arrive (a send call numbers from 0). */
      expected: number[];
    }> = [
      {
        role: 'producer',
        stream: async (proxied, proxy) => {
          const consumer = await java().createConsumer(await session(), queue('reattach'));
          const batch = (count: number) =>
            java().send(proxied, queue('reattach'), { body: 'm' }, { count, sequenceProperty: 'seq' });
          await batch(50);
          expect(proxy.cut()).toBe(1);
          await batch(100);
          return [consumer, await java().receiveMany(consumer, 150, RECEIVE_MS)];
        },
        expected: [...sequence(50), ...sequence(100)],
      },
      {
        role: 'consumer',
        stream: async (proxied, proxy) => {
          const consumer = await java().createConsumer(proxied, queue('reattachConsumer'));
          await java().send(
            await session(),
            queue('reattachConsumer'),
            { body: 'm' },
            { count: 150, sequenceProperty: 'seq' },
          );
          const before = await java().receiveMany(consumer, 50, RECEIVE_MS);
          expect(proxy.cut()).toBe(1);
          return [consumer, [...before, ...(await java().receiveMany(consumer, 100, RECEIVE_MS))]];
        },
        expected: sequence(150),
      },
    ];
    for (const { role, stream, expected } of linkResets) {
      test(`a Java ${role}'s link is reset (RST) mid-stream: its session reattaches through the proxy, nothing lost, duplicated or reordered`, async () => {
        const proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: port() });
        try {
          const connection = await java().connect({
            port: proxy.port,
            factory: { confirmationWindowSize: 1048576, reconnectAttempts: 20, retryInterval: 200 },
          });
          await java().start(connection);
          const [consumer, received] = await stream(await java().createSession(connection), proxy);
          expect(received.map((m) => m.properties.seq?.[1])).toEqual(expected);
          expect(await java().receive(consumer, 500)).toBeNull();
          expect(proxy.linksReset).toBe(1);
          expect(proxy.connectionsAccepted).toBe(2);
          await java().closeConnection(connection);
        } finally {
          await proxy.close();
        }
      });
    }

    test("Java's failures come back with the Java exception class", async () => {
      const s = await session();
      const missing = await java()
        .createConsumer(s, queue('doesNotExist'))
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(missing).toBeInstanceOf(JavaError);
      expect((missing as JavaError).javaClass).toBe('javax.jms.InvalidDestinationException');
      const badSelector = await java()
        .createConsumer(s, queue('types'), { selector: 'colour = ' })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect((badSelector as JavaError).javaClass).toBe('javax.jms.InvalidSelectorException');
    });
  });
}
