import buildCliOnce from '../cli/global-setup';
import { lines, pollUntil, runCli, statRow, useCli } from '../cli/support';
import { InteropServer } from './support/interop-server';
import {
  JmsDriver,
  type OutgoingJavaMessage,
  type SendOptions,
  type SentJavaMessage,
} from './support/jms-driver';

/**
 * `hornetq browse` and `hornetq queue stat` against our broker, on messages HornetQ 2.4.7's own
 * Java JMS client sent: every JMS message class, every property type, the headers a Java
 * application sets (JMSType, JMSCorrelationID, JMSReplyTo to a queue, a topic and a temporary
 * queue) and large messages (sent by the Java client in chunks). The CLI runs as a user runs it
 * (node dist/cli/hornetq.js, compiled first when the sources changed).
 */

const QUEUE = 'FromJava';
const REPLIES = 'Replies';
const EVENTS = 'Events';
/** Over the Java client's default min-large-message-size (100 KiB): these travel as large messages. */
const LARGE_TEXT = 'x'.repeat(300_000);
const LARGE_BYTES = Buffer.from(Array.from({ length: 200 * 1024 }, (_, i) => i & 0xff));

/** Long.MAX_VALUE: beyond a JavaScript number's integers, it is a bigint on our side. */
const LONG_MAX = 9_223_372_036_854_775_807n;
const HOUR_MS = 3_600_000;

/** Every JMS property type, as a Java application sets them. */
const PROPERTIES: OutgoingJavaMessage['properties'] = {
  aBoolean: ['boolean', true],
  aByte: ['byte', -128],
  aShort: ['short', 32767],
  anInt: ['int', -2147483648],
  aLong: ['long', LONG_MAX],
  aFloat: ['float', 1.1],
  aDouble: ['double', 2],
  aString: ['string', 'déjà vu'],
};
/** How browse shows PROPERTIES: in Java's literal syntax, so that each value's type shows; sorted by name (code units). */
const SHOWN_PROPERTIES =
  'aBoolean=true  aByte=(byte)-128  aDouble=2.0  aFloat=1.1f  aLong=9223372036854775807L  aShort=(short)32767  aString="déjà vu"  anInt=-2147483648';

describe('hornetq browse and queue stat on what HornetQ’s Java client sent to our broker', () => {
  useCli();
  let server: InteropServer;
  let java: JmsDriver;
  let url: string[];

  beforeAll(async () => {
    buildCliOnce();
    server = await InteropServer.start('ours', { queues: [QUEUE, REPLIES], topics: [EVENTS] });
    java = await JmsDriver.start();
    url = ['--url', `tcp://127.0.0.1:${server.port}`];
  });

  afterAll(async () => {
    await java?.close();
    await server?.stop();
  });

  test('browse shows each message class, its headers, typed properties and body; queue stat counts them, then what a Java consumer takes', async () => {
    const connection = await java.connect({ port: server.port, factory: { consumerWindowSize: 0 } });
    const session = await java.createSession(connection);
    const temporary = await java.createTemporaryQueue(session);
    const send = async (
      message: OutgoingJavaMessage,
      options: SendOptions = {},
    ): Promise<SentJavaMessage> => {
      const [sent] = await java.send(session, { type: 'queue', name: QUEUE }, message, options);
      if (sent === undefined) throw new Error('the Java driver reported no message sent');
      return sent;
    };
    const sent = [
      await send({
        class: 'TextMessage',
        body: 'hello from Java',
        headers: {
          JMSType: 'order',
          JMSCorrelationID: 'corr-1',
          JMSReplyTo: { type: 'queue', name: REPLIES },
        },
        properties: PROPERTIES,
      }),
      await send(
        { class: 'BytesMessage', body: Buffer.from([1, 2, 3, 0xff]) },
        { deliveryMode: 'NON_PERSISTENT', priority: 7, timeToLive: HOUR_MS },
      ),
      await send({
        class: 'MapMessage',
        body: {
          name: ['string', 'widget'],
          count: ['int', 3],
          price: ['double', 9.5],
          big: ['long', 2n ** 60n],
          flag: ['boolean', true],
          raw: ['bytes', Buffer.from([0x0a, 0x0b])],
          letter: ['char', 'c'],
        },
      }),
      await send({
        class: 'StreamMessage',
        body: [
          ['int', 7],
          ['string', 'seven'],
          ['boolean', false],
          ['long', 7],
          ['short', 7],
          ['bytes', Buffer.from([7])],
        ],
      }),
      await send({ class: 'ObjectMessage', body: 'a serialized Java string' }),
      await send({
        class: 'Message',
        headers: {
          JMSReplyTo: { type: 'topic', name: EVENTS },
          JMSCorrelationIDAsBytes: Buffer.from([1, 2, 3]),
        },
        properties: { JMSXGroupID: ['string', 'group-1'] },
      }),
      await send({ class: 'TextMessage', body: 'reply here', headers: { JMSReplyTo: temporary } }),
      await send({ class: 'TextMessage', body: LARGE_TEXT }),
      await send({ class: 'BytesMessage', body: LARGE_BYTES }),
    ];

    const browsed = await runCli(['browse', `queue://${QUEUE}`, ...url, '--body-width', '120']);
    expect(browsed).toMatchObject({ code: 0, stderr: '' });
    const shown = lines(browsed.stdout);
    /** The start of the line about sent[index], shown as number `position`. */
    const head = (index: number, position = index + 1, mode = 'persistent  priority=4'): string => {
      const message = sent[index];
      if (message === undefined) throw new Error(`no message ${index}`);
      const timestamp = new Date(message.JMSTimestamp).toISOString();
      return `${position}. ${message.JMSMessageID}  ${mode}  timestamp=${timestamp}`;
    };
    const expiration = new Date(sent[1]?.JMSExpiration ?? 0).toISOString();
    expect(sent[1]?.JMSExpiration).toBeGreaterThan(sent[1]?.JMSTimestamp ?? Infinity);
    expect(shown).toEqual([
      // Priority 7 goes before the others, as HornetQ orders a queue.
      `${head(1, 1, 'non-persistent  priority=7')}  expiration=${expiration}  bytes: 4 bytes 010203ff`,
      `${head(0, 2)}  JMSType="order"  JMSCorrelationID="corr-1"  JMSReplyTo=queue://${REPLIES}  ${SHOWN_PROPERTIES}  text: "hello from Java"`,
      `${head(2)}  map: {big=1152921504606846976L, count=3, flag=true, letter='c', name="widget", price=9.5, raw=bytes[2] 0a0b}`,
      `${head(3)}  stream: [7, "seven", false, 7L, (short)7, bytes[1] 07]`,
      `${head(4)}  object: Java-serialized, ${'a serialized Java string'.length + 7} bytes (it cannot be read here)`,
      `${head(5)}  JMSCorrelationID=bytes[3] 010203  JMSReplyTo=topic://${EVENTS}  JMSXGroupID="group-1"  no body`,
      `${head(6)}  JMSReplyTo=temp-queue://${temporary.name}  text: "reply here"`,
      `${head(7)}  text: "${'x'.repeat(120)}"... (300000 characters)`,
      `${head(8)}  bytes: 204800 bytes ${LARGE_BYTES.subarray(0, 60).toString('hex')}...`,
      `9 messages in queue://${QUEUE}; nothing was consumed`,
    ]);

    // A narrow body: whole entries and fields as far as they fit, and how many there are.
    const narrow = await runCli(['browse', `queue://${QUEUE}`, ...url, '--count', '4', '--body-width', '30']);
    expect(lines(narrow.stdout).slice(2, 4)).toEqual([
      `${head(2)}  map: {big=1152921504606846976L, ...} (7 entries)`,
      `${head(3)}  stream: [7, "seven", false, 7L, ...] (6 fields)`,
    ]);

    const before = await runCli(['queue', 'stat', ...url]);
    expect(before).toMatchObject({ code: 0, stderr: '' });
    expect(statRow(before.stdout, `jms.queue.${QUEUE}`)).toEqual({
      MESSAGES: 9,
      CONSUMERS: 0,
      DELIVERING: 0,
      ADDED: 9,
      ACKNOWLEDGED: 0,
    });

    // A Java consumer (no prefetch: consumer-window-size 0) takes two and acknowledges them.
    const consumer = await java.createConsumer(session, { type: 'queue', name: QUEUE });
    await java.start(connection);
    const taken = await java.receiveMany(consumer, 2, 20_000);
    expect(taken.map((message) => message.JMSMessageID)).toEqual([
      sent[1]?.JMSMessageID,
      sent[0]?.JMSMessageID,
    ]);
    // The Java client sends its acknowledgements without waiting for an answer: poll until both are in.
    const after = await pollUntil(
      async () => statRow((await runCli(['queue', 'stat', ...url])).stdout, `jms.queue.${QUEUE}`),
      (row) => row.ACKNOWLEDGED === 2,
    );
    expect(after).toMatchObject({
      MESSAGES: 7,
      CONSUMERS: 1,
      ADDED: 9,
      ACKNOWLEDGED: 2,
    });
    await java.closeConnection(connection);
  });
});
