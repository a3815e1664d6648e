import { DeliveryMode, Session, type HornetQConnectionFactory } from '../../../src';
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
 * the proxy silently drops every byte, so a blocking call never gets its answer within
 * call-timeout (500 ms). HornetQ rejects it then with CONNECTION_TIMEDOUT; here a call whose
 * request is held for replay (a send, an acknowledgement) waits for the failover to decide its
 * outcome instead (issue 11, item 8; see test/integration/reattach/held-calls.test.ts), since the
 * reattach may still apply it. The timeout alone does not fail the connection (HornetQ; Artemis
 * fails it at once); the pings do, once connection-ttl has passed in silence, and with
 * reconnection on the ExceptionListener then hears FAILOVER, with CONNECTION_TIMEDOUT linked.
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

test('a blocking acknowledgement that gets no answer waits past call-timeout for the failover, and the receive says whether the message was consumed; the ExceptionListener hears of the failure', async () => {
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
  let settled = false;
  const receiving = settle(consumer.receive(5_000)).finally(() => (settled = true));
  await waitFor(
    () => heard.events.some((event) => event.type === 'FAILURE_DETECTED'),
    'the pings to find the black hole',
    TTL + MARGIN,
  );
  // Well past call-timeout, and still open: whether the acknowledgement was applied is not known.
  expect(settled).toBe(false);
  await heardOfTheBlackHole(heard);
  const received = await receiving;
  if (received.ok) expect(received.value === null ? null : seqOf(received.value)).toBe(1);
  else expect(linkedCore(received.error).code).toBe('UNBLOCKED');

  // Reattached: the acknowledgement was replayed, seq 1 is consumed and only seq 2 comes.
  // Re-created: the acknowledgement was lost with the old session, and seq 1 comes back.
  const seqs: number[] = [];
  for (let message = await consumer.receive(5_000); message !== null; message = await consumer.receive(300)) {
    seqs.push(seqOf(message));
  }
  expect(seqs).toEqual(received.ok ? [2] : [1, 2]);
});
