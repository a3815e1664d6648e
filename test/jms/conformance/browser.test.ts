import {
  IllegalStateException,
  InvalidDestinationException,
  InvalidSelectorException,
  Session,
  type HornetQQueueBrowser,
  type Message,
  type TextMessage,
} from '../../../src';
import { failureOf, receiveTexts, sendTexts, textOf, useJmsFixture } from '../../support/jms-fixture';

/**
 * jms-conformance.md §4 J (QueueBrowser J1–J3) with HornetQ's BrowserTest, MiscellaneousTest
 * .testBrowser and JORAM's QueueBrowserTest (§1.10, §2.1).
 */

const fx = useJmsFixture();
const Q1 = (): ReturnType<typeof fx.queue> => fx.queue('Queue1');

async function browseTexts(browser: HornetQQueueBrowser): Promise<Array<string | null>> {
  const texts: Array<string | null> = [];
  for await (const message of browser.getEnumeration()) texts.push(textOf(message));
  return texts;
}

describe('J1 browsing consumes nothing', () => {
  test('a browser lists the queue and the messages stay (testGetEnumeration)', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['A', 'B']);
    const browser = await session.createBrowser(Q1());
    expect(await browseTexts(browser)).toEqual(['A', 'B']);
    expect(fx.messageCount('Queue1')).toBe(2);
    expect(await receiveTexts(await session.createConsumer(Q1()), 2)).toEqual(['A', 'B']);
  });

  test('getQueue returns the queue; getMessageSelector is null without one, the selector with one (testBrowse)', async () => {
    const { session } = await fx.open();
    const plain = await session.createBrowser(Q1());
    expect(plain.getQueue()).toEqual(Q1());
    expect(plain.getMessageSelector()).toBeNull();
    const selective = await session.createBrowser(Q1(), 'pi = 3.14159');
    expect(selective.getMessageSelector()).toBe('pi = 3.14159');
  });

  test('a browser works on a stopped connection and sees non-persistent messages (MiscellaneousTest.testBrowser)', async () => {
    const connection = await fx.connect();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const producer = await session.createProducer(Q1());
    producer.setDeliveryMode(1);
    await producer.send(session.createTextMessage('np'));
    await fx.expectCount('Queue1', 1);
    expect(await browseTexts(await session.createBrowser(Q1()))).toEqual(['np']);
  });

  test('browsed messages are full messages: type, properties and headers', async () => {
    const { session } = await fx.open();
    const [sent] = await sendTexts(session, Q1(), ['full'], (m) => {
      m.setStringProperty('p', 'v');
      m.setJMSType('t');
    });
    const iterator = (await session.createBrowser(Q1())).getEnumeration();
    const first = (await iterator.next()).value as TextMessage;
    await iterator.return?.(undefined);
    expect(first.getText()).toBe('full');
    expect(first.getStringProperty('p')).toBe('v');
    expect(first.getJMSType()).toBe('t');
    expect(first.getJMSMessageID()).toBe(sent?.getJMSMessageID());
    expect(first.getJMSDestination()).toEqual(Q1());
  });
});

describe('J2 enumerations are lazy and restart from the head', () => {
  test('an enumeration obtained before a send still yields the message (testBrowse)', async () => {
    const { session } = await fx.open();
    const browser = await session.createBrowser(Q1());
    const enumeration = browser.getEnumeration();
    await sendTexts(session, Q1(), ['later']);
    const first = await enumeration.next();
    expect(first.done).toBe(false);
    expect(textOf(first.value as Message)).toBe('later');
    expect((await enumeration.next()).done).toBe(true);
  });

  test('each getEnumeration starts from the head again (testGetEnumeration)', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['A']);
    const browser = await session.createBrowser(Q1());
    expect(await browseTexts(browser)).toEqual(['A']);
    expect(await browseTexts(browser)).toEqual(['A']);
    const partial = browser.getEnumeration();
    expect(textOf((await partial.next()).value as Message)).toBe('A');
    expect((await partial.next()).done).toBe(true);
  });

  test('with a selector only matches are enumerated (testBrowserWithMessageSelector)', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['no pi', 'pi'], (m, i) => {
      if (i === 1) m.setDoubleProperty('pi', 3.14159);
    });
    expect(await browseTexts(await session.createBrowser(Q1(), 'pi = 3.14159'))).toEqual(['pi']);
  });

  test('a browser is async-iterable itself', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['x', 'y']);
    const texts: Array<string | null> = [];
    for await (const message of await session.createBrowser(Q1())) texts.push(textOf(message));
    expect(texts).toEqual(['x', 'y']);
  });

  test('JORAM testSenderBrowser: receiver closed, two sends, browse 2, then a receiver gets them in order and the earlier browser sees nothing', async () => {
    const { connection, session } = await fx.open();
    const receiverSession = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const earlier = await receiverSession.createBrowser(Q1());
    await (await receiverSession.createConsumer(Q1())).close();
    await sendTexts(session, Q1(), ['testBrowser:message_1', 'testBrowser:message_2']);
    const browsed = await browseTexts(await session.createBrowser(Q1()));
    expect(browsed).toHaveLength(2);
    expect(browsed.every((text) => text?.startsWith('testBrowser:message_'))).toBe(true);
    const receiver = await receiverSession.createConsumer(Q1());
    expect(await receiveTexts(receiver, 2)).toEqual(['testBrowser:message_1', 'testBrowser:message_2']);
    expect(await browseTexts(earlier)).toEqual([]);
  });
});

describe('J3 bad browsers', () => {
  test('null queue → InvalidDestinationException (testCreateBrowserOnNullDestination)', async () => {
    const { session } = await fx.open();
    expect(await failureOf(session.createBrowser(null as never))).toBeInstanceOf(InvalidDestinationException);
  });

  test('a queue that does not exist → InvalidDestinationException (testCreateBrowserOnNonExistentQueue)', async () => {
    const { session } = await fx.open();
    const foreign = { getQueueName: () => 'NoSuchQueue', toString: () => 'NoSuchQueue' };
    expect(await failureOf(session.createBrowser(foreign))).toBeInstanceOf(InvalidDestinationException);
  });

  test('a topic cannot be browsed → InvalidDestinationException', async () => {
    const { session } = await fx.open();
    expect(await failureOf(session.createBrowser(fx.topic('Topic1') as never))).toBeInstanceOf(
      InvalidDestinationException,
    );
  });

  test('an invalid selector → InvalidSelectorException (JORAM testCreateBrowser_2)', async () => {
    const { session } = await fx.open();
    expect(await failureOf(session.createBrowser(Q1(), 'definitely not a message selector!'))).toBeInstanceOf(
      InvalidSelectorException,
    );
  });

  test('a closed browser: getters and getEnumeration throw IllegalStateException; close again is fine', async () => {
    const { session } = await fx.open();
    const browser = await session.createBrowser(Q1());
    await browser.close();
    expect(() => browser.getQueue()).toThrow(IllegalStateException);
    expect(() => browser.getMessageSelector()).toThrow(IllegalStateException);
    expect(await failureOf(browser.getEnumeration().next())).toBeInstanceOf(IllegalStateException);
    await expect(browser.close()).resolves.toBeUndefined();
  });

  test('an enumeration in progress ends when the browser closes, and releases its broker consumer', async () => {
    const { session } = await fx.open();
    await sendTexts(session, Q1(), ['one', 'two', 'three']);
    const browser = await session.createBrowser(Q1());
    const enumeration = browser.getEnumeration();
    expect(textOf((await enumeration.next()).value as Message)).toBe('one');
    await browser.close();
    expect((await enumeration.next()).done).toBe(true);
    expect(fx.messageCount('Queue1')).toBe(3);
  });
});
