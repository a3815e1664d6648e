import { IllegalStateException, JMSException, Session } from '../../../src';
import { QUEUE, settle, useJmsReattach, waitFor } from './rig';

/**
 * hornetq-spec §7.9 SessionClosedOnRemotingConnectionFailureTest (JMS): without reconnection a
 * connection failure closes the sessions with their producers and consumers. A receive waiting
 * at the time returns null; send and receive afterwards throw JMSException; closing what is left
 * still works.
 */

const rig = useJmsReattach();

test.each([
  ['a cut link', 'cut'],
  ['a broker restart', 'restart'],
] as const)(
  'after %s without reconnection, sessions, producers and consumers are closed',
  async (_name, fault) => {
    await rig.start();
    const { connection, heard } = await rig.connect((cf) => cf.setReconnectAttempts(0));
    const sessions = [
      await connection.createSession(false, Session.AUTO_ACKNOWLEDGE),
      await connection.createSession(true, Session.SESSION_TRANSACTED),
    ];
    await connection.start();
    const parts = await Promise.all(
      sessions.map(async (session) => {
        const queue = session.createQueue(QUEUE);
        const producer = await session.createProducer(queue);
        const consumer = await session.createConsumer(queue);
        // Works before the failure.
        await producer.send(session.createTextMessage('before'));
        return { session, producer, consumer };
      }),
    );
    const pending = parts.map(({ consumer }) => consumer.receive(0));
    const pendingTimed = parts.map(({ consumer }) => consumer.receive(60_000));
    // The transacted send is uncommitted, so the auto-ack session's receives stay pending.
    await sessions[1]?.commit();
    await waitFor(() => rig.broker.getSessionCount() === 3, 'the sessions on the broker');

    if (fault === 'cut') rig.proxy.cut();
    else await rig.restart();
    await heard.exceptionCount(1);
    expect(heard.codes).toEqual(['DISCONNECT']);

    // Whatever a pending receive got before the failure is fine; a receive still waiting gets null.
    const settled = await Promise.all([...pending, ...pendingTimed].map((receive) => settle(receive)));
    for (const result of settled) expect(result.ok).toBe(true);
    expect(settled.filter((result) => result.ok && result.value === null).length).toBeGreaterThanOrEqual(2);
    for (const result of settled) expect(result.ms).toBeLessThan(10_000);

    for (const { session, producer, consumer } of parts) {
      const send = await settle(producer.send(session.createTextMessage('after')));
      const receive = await settle(Promise.resolve().then(() => consumer.receive(100)));
      const receiveNoWait = await settle(Promise.resolve().then(() => consumer.receiveNoWait()));
      const newProducer = await settle(
        Promise.resolve().then(() => session.createProducer(session.createQueue(QUEUE))),
      );
      for (const [name, result] of Object.entries({ send, receive, receiveNoWait, newProducer })) {
        expect([name, result.ok]).toEqual([name, false]);
        if (!result.ok) expect([name, result.error]).toEqual([name, expect.any(IllegalStateException)]);
      }
    }
    const commit = await settle(Promise.resolve().then(() => sessions[1]?.commit()));
    expect(commit.ok).toBe(false);
    if (!commit.ok) expect(JMSException.is(commit.error)).toBe(true);
    // Starting the broken connection again reaches the closed sessions: a JMS error, not a core one.
    const start = await settle(connection.start());
    expect(start.ok).toBe(false);
    if (!start.ok) expect(start.error).toBeInstanceOf(IllegalStateException);

    // Closing after the failure neither throws nor hangs.
    for (const { session, producer, consumer } of parts) {
      await expect(consumer.close()).resolves.toBeUndefined();
      await expect(producer.close()).resolves.toBeUndefined();
      await expect(session.close()).resolves.toBeUndefined();
    }
    const closed = await settle(connection.close());
    expect(closed).toMatchObject({ ok: true });
    expect(closed.ms).toBeLessThan(5_000);
  },
);

test('broker gone for good, reconnecting for ever: connection.close() ends the reconnect loop and settles', async () => {
  await rig.start();
  const { connection, heard } = await rig.connect((cf) => cf.setReconnectAttempts(-1));
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const consumer = await session.createConsumer(session.createQueue(QUEUE));
  await connection.start();
  const waiting = consumer.receive(0);
  rig.proxy.refuseNewConnections();
  rig.proxy.cut();
  await waitFor(() => heard.events.some((event) => event.type === 'FAILURE_DETECTED'), 'the failure');
  await waitFor(() => rig.proxy.connectionsRefused >= 2, 'reconnect attempts');

  const closed = await settle(connection.close());
  expect(closed).toMatchObject({ ok: true });
  expect(closed.ms).toBeLessThan(5_000);
  expect(await waiting).toBeNull();
  // The loop is over: no more attempts reach the proxy.
  const attempts = rig.proxy.connectionsRefused;
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(rig.proxy.connectionsRefused).toBe(attempts);
  // Closed on purpose, mid-failover: the ExceptionListener is not told of a failover outcome.
  expect(heard.exceptions).toEqual([]);
});
