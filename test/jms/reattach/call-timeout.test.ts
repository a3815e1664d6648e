import { DeliveryMode, JMSException, Session, type HornetQConnectionFactory } from '../../../src';
import {
  linkedCore,
  numbered,
  QUEUE,
  receiveMessages,
  seqOf,
  settle,
  staysAt,
  useJmsReattach,
  waitFor,
  type Heard,
} from './rig';

/**
 * hornetq-spec §7.9 ExceptionListenerForConnectionTimedOutExceptionTest, over a real black hole:
 * the proxy silently drops every byte, so a blocking acknowledgement never gets its answer. It
 * rejects after call-timeout (500 ms) with a JMSException whose linked exception is
 * CONNECTION_TIMEDOUT. A blocking send instead waits for the failover to decide its outcome (its
 * request is held for replay; see held-send.test.ts). The timeout alone does not fail the connection (HornetQ; Artemis fails it
 * at once); the pings do, once connection-ttl has passed in silence, and with reconnection on the
 * ExceptionListener then hears FAILOVER, also with CONNECTION_TIMEDOUT linked.
 */

const rig = useJmsReattach();
const CALL_TIMEOUT = 500;
const TTL = 1_500;
/** How late a settlement may be on a loaded 2-core machine. */
const MARGIN = 4_000;

function configure(factory: HornetQConnectionFactory): void {
  factory.setCallTimeout(CALL_TIMEOUT);
  factory.setConnectionTTL(TTL);
  factory.setClientFailureCheckPeriod(250);
}

/** The black hole is found by the pings; then the network comes back and the session goes on. */
async function heardOfTheBlackHole(heard: Heard): Promise<void> {
  await waitFor(
    () => heard.events.some((event) => event.type === 'FAILURE_DETECTED'),
    'the pings to find the black hole',
    TTL + MARGIN,
  );
  rig.proxy.pass();
  await heard.exceptionCount(1);
  await staysAt(heard.exceptions, 1, 200);
  expect(heard.codes).toEqual(['FAILOVER']);
  expect(linkedCore(heard.exceptions[0]).code).toBe('CONNECTION_TIMEDOUT');
  // Reconnect attempts that died in the black hole left no connection behind.
  await waitFor(
    () => rig.proxy.activeLinks === 1 && rig.broker.getConnectionCount() === 1,
    `one link left (proxy: ${rig.proxy.activeLinks}, broker: ${rig.broker.getConnectionCount()})`,
    5_000,
  );
}

/** The timed-out call rejected with a JMSException linked to CONNECTION_TIMEDOUT, after the timeout. */
function expectTimedOut(result: Awaited<ReturnType<typeof settle>>): void {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error).toBeInstanceOf(JMSException);
  expect(linkedCore(result.error).code).toBe('CONNECTION_TIMEDOUT');
  expect((result.error as JMSException).getErrorCode()).toBe('CONNECTION_TIMEDOUT');
  expect(result.ms).toBeGreaterThanOrEqual(CALL_TIMEOUT - 5);
  expect(result.ms).toBeLessThan(CALL_TIMEOUT + MARGIN);
}

test('a blocking send that gets no answer waits past call-timeout for the failover, and its result says whether the message went; the ExceptionListener hears of the failure', async () => {
  await rig.start();
  const { connection, heard } = await rig.connect(configure);
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const producer = await session.createProducer(session.createQueue(QUEUE));
  producer.setDeliveryMode(DeliveryMode.PERSISTENT); // blocks: block-on-durable-send is on
  await producer.send(numbered(session, 0));

  rig.proxy.blackHole();
  // Held for replay, its outcome is not known at call-timeout: it waits for the failover (issue
  // 11, item 8) instead of failing while the message may still be delivered.
  let settled = false;
  const sending = settle(producer.send(numbered(session, 1))).finally(() => (settled = true));
  await heardOfTheBlackHole(heard);
  const sent = await sending;
  expect(sent.ms).toBeGreaterThan(CALL_TIMEOUT);
  expect(settled).toBe(true);
  if (!sent.ok) expect(linkedCore(sent.error).code).toBe('UNBLOCKED');

  await producer.send(numbered(session, 2));
  const consumer = await session.createConsumer(session.createQueue(QUEUE));
  await connection.start();
  // Reattached: the send was replayed and resolved. Re-created (the broker reaped the session):
  // it was lost with the old session and rejected. Either way its result told the truth.
  const seqs: number[] = [];
  for (let message = await consumer.receive(5_000); message !== null; message = await consumer.receive(300)) {
    seqs.push(seqOf(message));
  }
  expect(seqs).toEqual(sent.ok ? [0, 1, 2] : [0, 2]);
});

test('a blocking acknowledgement that never gets an answer rejects the receive with CONNECTION_TIMEDOUT; the ExceptionListener hears of the failure', async () => {
  await rig.start();
  const { connection, heard } = await rig.connect((cf) => {
    configure(cf);
    cf.setBlockOnAcknowledge(true);
  });
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const queue = session.createQueue(QUEUE);
  const producer = await session.createProducer(queue);
  for (let seq = 0; seq < 3; seq++) await producer.send(numbered(session, seq));
  const consumer = await session.createConsumer(queue);
  await connection.start();
  expect((await receiveMessages(consumer, 1)).map(seqOf)).toEqual([0]);
  // The next message is in the client's buffer: receiving it needs only the acknowledgement.
  await waitFor(() => consumer.core.bufferedCount === 2, 'two messages buffered');

  rig.proxy.blackHole();
  expectTimedOut(await settle(consumer.receive(5_000)));
  expect(heard.exceptions).toEqual([]);

  await heardOfTheBlackHole(heard);
  // The session goes on; seq 1 was handed out with the failed acknowledgement and may come back
  // (re-created session), seq 2 comes, nothing more.
  const seqs: number[] = [];
  for (let message = await consumer.receive(5_000); message !== null; message = await consumer.receive(300)) {
    seqs.push(seqOf(message));
  }
  expect([[2], [1, 2]]).toContainEqual(seqs);
});
