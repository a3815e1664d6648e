import { Session, type HornetQConnection, type HornetQSession } from '../../../src';
import { QUEUE, linkedCore, receiveMessages, seqOf, staysAt, useJmsReattach, waitFor } from './rig';

/**
 * hornetq-spec §7.9 ExceptionListenerTest: the ExceptionListener is called once per connection
 * failure, however many sessions the connection has, whether the failure was survived (FAILOVER,
 * even after a transparent reattach) or not (DISCONNECT).
 */

const rig = useJmsReattach();

/** Sends seq on `session` and receives it back on the same session's consumer. */
async function roundTrip(session: HornetQSession, seq: number): Promise<void> {
  const queue = session.createQueue(QUEUE);
  const consumer = await session.createConsumer(queue);
  const producer = await session.createProducer(queue);
  const message = session.createTextMessage(`m${seq}`);
  message.setIntProperty('seq', seq);
  await producer.send(message);
  expect((await receiveMessages(consumer, 1)).map(seqOf)).toEqual([seq]);
  await consumer.close();
  await producer.close();
}

async function withSessions(connection: HornetQConnection, extra: number): Promise<HornetQSession[]> {
  const sessions: HornetQSession[] = [];
  for (let i = 0; i <= extra; i++)
    sessions.push(await connection.createSession(false, Session.AUTO_ACKNOWLEDGE));
  await connection.start();
  return sessions;
}

describe.each([
  ['one session (testListenerCalledForOneConnection)', 0],
  ['3 extra sessions (testListenerCalledForOneConnectionAndSessions)', 3],
])('%s', (_name, extra) => {
  test('each cut survived by a reattach calls the ExceptionListener exactly once, with FAILOVER', async () => {
    await rig.start();
    const { connection, heard } = await rig.connect();
    const sessions = await withSessions(connection, extra);
    // All sessions share the connection's one broker connection: one cut is one failure.
    await waitFor(() => rig.broker.getConnectionCount() === 1, 'one broker connection');
    expect(rig.broker.getSessionCount()).toBe(sessions.length + 1); // plus the connection's own

    for (let failure = 1; failure <= 3; failure++) {
      expect(rig.proxy.cut()).toBe(1);
      await heard.exceptionCount(failure);
      await staysAt(heard.exceptions, failure, 200);
      for (const session of sessions) await roundTrip(session, failure);
    }
    expect(heard.codes).toEqual(['FAILOVER', 'FAILOVER', 'FAILOVER']);
    // Three different failures, each linked to its own core failure.
    const causes = heard.exceptions.map((exception) => linkedCore(exception));
    expect(new Set(causes).size).toBe(3);
    causes.forEach((cause, index) => expect(cause).toBe(heard.failureCause(index)));
    expect(connection.getStatistics()).toMatchObject({ reattaches: 3, reconnects: 0 });
  });

  test('a failure that is not survived calls it exactly once, with DISCONNECT', async () => {
    await rig.start();
    const { connection, heard } = await rig.connect((cf) => cf.setReconnectAttempts(0));
    await withSessions(connection, extra);
    rig.proxy.cut();
    await heard.exceptionCount(1);
    await staysAt(heard.exceptions, 1);
    expect(heard.codes).toEqual(['DISCONNECT']);
    expect(linkedCore(heard.exceptions[0]).code).toBe('NOT_CONNECTED');
  });
});

test('the listener set after a failure hears only later failures; null silences it', async () => {
  await rig.start();
  const { connection, heard } = await rig.connect();
  await withSessions(connection, 0);
  rig.proxy.cut();
  await heard.exceptionCount(1);
  const late: string[] = [];
  connection.setExceptionListener((exception) => late.push(String(exception.getErrorCode())));
  rig.proxy.cut();
  await waitFor(() => late.length === 1, 'the new listener');
  connection.setExceptionListener(null);
  const failovers = heard.events.length;
  rig.proxy.cut();
  await waitFor(() => heard.events.length >= failovers + 2, 'the third failover');
  await staysAt(late, 1, 200);
  expect(late).toEqual(['FAILOVER']);
  expect(heard.exceptions).toHaveLength(1);
});
