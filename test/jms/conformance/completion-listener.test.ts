import {
  IllegalStateException,
  JMSSecurityException,
  ResourceAllocationException,
  type CompletionListener,
  type HornetQConnection,
  type HornetQConnectionFactory,
  type JMSException,
  type Message,
  type TextMessage,
} from '../../../src';
import { DeferredSyncStorage } from '../../support/deferred-sync-storage';
import { useJmsFixture, waitFor } from '../../support/jms-fixture';
import { setting, type TestUser } from '../../support/secured-broker';

/**
 * JMS 2.0's asynchronous send (a CompletionListener) over the confirmed send: the send's promise
 * resolves once it is written, the listener hears once the broker has stored the message (or
 * refused it), and the JMS rules of HornetQ's JmsProducerCompletionListenerTest: a completion
 * listener may not close, commit or roll back its own session, connection or producer, and
 * closing waits for the completions outstanding.
 */

/** Each test's broker gets a store of its own, whose syncs the test holds back (registered first). */
const brokerOptions = { storage: new DeferredSyncStorage() };
beforeEach(() => {
  brokerOptions.storage = new DeferredSyncStorage();
  brokerOptions.storage.autoRelease = true;
});
const fixture = useJmsFixture({ broker: brokerOptions });
const WINDOW = (factory: HornetQConnectionFactory): void => factory.setConfirmationWindowSize(1024 * 1024);

/** Records what a listener was told, in order. */
class Recorder implements CompletionListener {
  readonly completed: Message[] = [];
  readonly failed: Array<{ message: Message; error: JMSException }> = [];
  onCompletion(message: Message): void {
    this.completed.push(message);
  }
  onException(message: Message, error: JMSException): void {
    this.failed.push({ message, error });
  }
}

test('each send is written first, then completed once the broker stored it, with the message it sent', async () => {
  const { session } = await fixture.open({ configure: WINDOW });
  const queue = fixture.queue('Queue1');
  const producer = await session.createProducer(queue);
  const listener = new Recorder();
  brokerOptions.storage.autoRelease = false;
  const messages = Array.from({ length: 50 }, (_, i) => session.createTextMessage(`m${i}`));
  for (const message of messages) await producer.send(message, listener);
  await fixture.expectCount('Queue1', 50);
  // Written, and the broker has them, but they are not on disk: no completion yet.
  expect(listener.completed).toEqual([]);
  brokerOptions.storage.autoRelease = true;
  brokerOptions.storage.releaseSyncs();
  await waitFor(() => listener.completed.length === 50, 'every completion');
  expect(listener.completed).toEqual(messages);
  expect(listener.failed).toEqual([]);
});

test('an anonymous producer sends with a listener to the destination given', async () => {
  const { session } = await fixture.open({ configure: WINDOW });
  const producer = await session.createProducer(null);
  const listener = new Recorder();
  const message = session.createTextMessage('to Queue2');
  await producer.send(fixture.queue('Queue2'), message, listener);
  await waitFor(() => listener.completed.length === 1, 'the completion');
  expect(fixture.messageCount('Queue2')).toBe(1);
});

test('a listener needs a confirmationWindowSize: with -1 the send is refused with IllegalStateException', async () => {
  const { session } = await fixture.open({ configure: (factory) => factory.setConfirmationWindowSize(-1) });
  const producer = await session.createProducer(fixture.queue('Queue1'));
  await expect(producer.send(session.createTextMessage('x'), new Recorder())).rejects.toThrow(
    IllegalStateException,
  );
  await expect(producer.send(session.createTextMessage('x'), { confirm: true })).rejects.toThrow(
    /confirmation-window-size/,
  );
  expect(fixture.messageCount('Queue1')).toBe(0);
});

test('close, commit and rollback of its own session, connection or producer throw IllegalStateException inside a completion listener', async () => {
  const { connection, session } = await fixture.open({ configure: WINDOW, transacted: true });
  const producer = await session.createProducer(fixture.queue('Queue1'));
  const attempts: Array<[string, () => Promise<void>]> = [
    ['session.commit', () => session.commit()],
    ['session.rollback', () => session.rollback()],
    ['session.close', () => session.close()],
    ['producer.close', () => producer.close()],
    ['connection.close', () => connection.close()],
  ];
  const errors = new Map<string, unknown>();
  const calls: Array<Promise<void>> = [];
  for (const [name, attempt] of attempts) {
    const listener: CompletionListener = {
      onCompletion: () => {
        try {
          // Thrown before the first await: the promise rejects at once.
          calls.push(attempt().catch((error: unknown) => void errors.set(name, error)));
        } catch (error) {
          errors.set(name, error);
        }
      },
      onException: (_message, error) => errors.set(name, error),
    };
    await producer.send(session.createTextMessage(name), listener);
  }
  await waitFor(() => errors.size === attempts.length, 'every attempt to fail');
  await Promise.all(calls);
  for (const [name] of attempts)
    expect([name, errors.get(name)]).toEqual([name, expect.any(IllegalStateException)]);
  // Nothing was closed: the session still works.
  await session.commit();
  expect(fixture.messageCount('Queue1')).toBe(5);
});

test('closing the producer, the session or the connection waits for the completions outstanding', async () => {
  for (const closing of ['producer', 'session', 'connection'] as const) {
    const { connection, session } = await fixture.open({ configure: WINDOW });
    const producer = await session.createProducer(fixture.queue('Queue1'));
    const listener = new Recorder();
    brokerOptions.storage.autoRelease = false;
    for (let i = 0; i < 10; i++) await producer.send(session.createTextMessage(`${closing}${i}`), listener);
    let closed = false;
    const target: { close(): Promise<void> } =
      closing === 'producer' ? producer : closing === 'session' ? session : (connection as HornetQConnection);
    const close = target.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([closing, closed, listener.completed.length]).toEqual([closing, false, 0]);
    brokerOptions.storage.autoRelease = true;
    brokerOptions.storage.releaseSyncs();
    await close;
    // Every listener had returned when close did.
    expect([closing, listener.completed.length, listener.failed.length]).toEqual([closing, 10, 0]);
    if (closing !== 'connection') await connection.close();
  }
});

describe('a refused send', () => {
  const WRITER: TestUser = { name: 'writer', password: 'writer-pw', roles: ['writer'] };
  const secured = useJmsFixture({
    queues: ['Open', 'Closed'],
    security: {
      users: [WRITER],
      settings: [setting('#', { send: ['writer'], consume: ['writer'] }), setting('jms.queue.Closed')],
    },
  });

  test('is told to its listener with JMSSecurityException; its neighbours complete', async () => {
    const connection = await secured.factory(WINDOW).createConnection(WRITER.name, WRITER.password);
    secured.track(connection);
    const session = await connection.createSession(false);
    const producer = await session.createProducer(null);
    const listener = new Recorder();
    const refused = session.createTextMessage('refused');
    await producer.send(secured.queue('Open'), session.createTextMessage('before'), listener);
    await producer.send(secured.queue('Closed'), refused, listener);
    await producer.send(secured.queue('Open'), session.createTextMessage('after'), listener);
    await waitFor(() => listener.completed.length + listener.failed.length === 3, 'every send to be told');
    expect(listener.failed).toEqual([{ message: refused, error: expect.any(JMSSecurityException) }]);
    expect(listener.completed.map((message) => (message as TextMessage).getText())).toEqual([
      'before',
      'after',
    ]);
    await expect(
      producer.send(secured.queue('Closed'), session.createTextMessage('x'), { confirm: true }),
    ).rejects.toThrow(JMSSecurityException);
  });
});

describe('a send to a full address with the FAIL policy', () => {
  const full = useJmsFixture({
    queues: ['Full'],
    broker: { addressSettings: { 'jms.queue.Full': { maxSizeBytes: 8 * 1024, addressFullPolicy: 'FAIL' } } },
  });

  test('is told with ResourceAllocationException, with confirm: true and to a listener', async () => {
    // No producer credits: the broker, not the client, finds the address full.
    const { session } = await full.open({
      configure: (factory) => {
        WINDOW(factory);
        factory.setProducerWindowSize(-1);
      },
    });
    const producer = await session.createProducer(full.queue('Full'));
    const body = 'x'.repeat(1024);
    const outcomes: unknown[] = [];
    for (let i = 0; i < 20; i++) {
      outcomes.push(
        await producer.send(session.createTextMessage(body), { confirm: true }).then(
          () => 'stored',
          (error: unknown) => error,
        ),
      );
    }
    const stored = outcomes.filter((outcome) => outcome === 'stored').length;
    expect(stored).toBeGreaterThan(0);
    expect(outcomes.slice(stored)).toEqual(
      Array.from({ length: 20 - stored }, () => expect.any(ResourceAllocationException)),
    );
    const listener = new Recorder();
    await producer.send(session.createTextMessage(body), listener);
    await waitFor(() => listener.failed.length === 1, 'the refusal');
    expect(listener.failed[0]?.error).toBeInstanceOf(ResourceAllocationException);
  });
});
