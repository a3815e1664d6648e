import { BytesMessage, DeliveryMode, Session, type Message } from '../../../src';
import {
  CORE_QUEUE,
  QUEUE,
  linkedCore,
  receiveMessages,
  seqOf,
  staysAt,
  useJmsReattach,
  waitFor,
} from './rig';

/**
 * hornetq-spec §7.5 JMSReconnectTest.testReattachSameNode / testReconnectSameNode: a JMS
 * connection through the fault proxy, 10 persistent 1000-byte messages waiting, the connection
 * started and the link cut while deliveries are under way. With a 1 MiB confirmation window the
 * session is reattached; with -1 it is re-created. Either way all 10 arrive, nothing extra, and
 * the ExceptionListener hears of the failure exactly once, with the core failure linked.
 */

const rig = useJmsReattach();
const COUNT = 10;
const BODY = 1000;

async function cutWhileDelivering(window: number) {
  await rig.start();
  const { connection, heard } = await rig.connect((cf) => {
    cf.setConfirmationWindowSize(window);
    cf.setReconnectAttempts(-1);
    cf.setConsumerWindowSize(4 * 1024);
    cf.setBlockOnDurableSend(true);
    cf.setBlockOnNonDurableSend(true);
  });
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const queue = session.createQueue(QUEUE);
  const producer = await session.createProducer(queue);
  producer.setDeliveryMode(DeliveryMode.PERSISTENT);
  for (let seq = 0; seq < COUNT; seq++) {
    const message = session.createBytesMessage();
    message.writeBytes(Buffer.alloc(BODY, seq));
    message.setIntProperty('seq', seq);
    await producer.send(message);
  }
  expect(rig.coreQueue(CORE_QUEUE)?.messageCount).toBe(COUNT);
  const consumer = await session.createConsumer(queue);
  await connection.start();
  // Cut while the small consumer window holds some messages and the rest wait on the broker.
  await waitFor(() => consumer.core.bufferedCount > 0, 'the first deliveries');
  const bufferedAtCut = consumer.core.bufferedCount;
  expect(bufferedAtCut).toBeLessThan(COUNT);
  expect(rig.proxy.cut()).toBe(1);

  // A reattach keeps exactly-once even for receives racing the failover. A re-created session
  // cannot: what the client hands out before it notices the cut is acknowledged on a dead link
  // and comes back. HornetQ's test fails the connection synchronously, so its receives start
  // after the failover; here they wait for the failover to be over.
  if (window === -1) await heard.exceptionCount(1);
  const received = await receiveMessages(consumer, COUNT);
  expect(await consumer.receiveNoWait()).toBeNull();
  const seqs = received.map(seqOf);
  // Re-created, messages the broker took back return to the head of the queue; only the reattach
  // promises the order outright.
  expect(window === -1 ? [...seqs].sort((a, b) => a - b) : seqs).toEqual([...Array(COUNT).keys()]);
  for (const message of received) {
    const body = Buffer.alloc(BODY);
    expect((message as BytesMessage).readBytes(body)).toBe(BODY);
    expect(body.equals(Buffer.alloc(BODY, seqOf(message)))).toBe(true);
  }
  // Every message acknowledged exactly once: nothing left on the broker, nothing more arrives.
  await waitFor(() => rig.coreQueue(CORE_QUEUE)?.messageCount === 0, 'the queue to drain');
  expect(await consumer.receive(200)).toBeNull();

  await heard.exceptionCount(1);
  await staysAt(heard.exceptions, 1);
  const exception = heard.exceptions[0];
  expect(exception?.getErrorCode()).toBe('FAILOVER');
  // The linked exception is the very failure the core client detected: the cut connection.
  const cause = linkedCore(exception);
  expect(cause).toBe(heard.failureCause(0));
  expect(cause.code).toBe('NOT_CONNECTED');
  expect(exception?.cause).toBe(cause);
  return { connection, heard, received, bufferedAtCut };
}

test('testReattachSameNode: window 1 MiB, all 10 received once, ExceptionListener once with FAILOVER and the core failure linked', async () => {
  const { connection, heard, received } = await cutWhileDelivering(1024 * 1024);
  expect(connection.getStatistics()).toMatchObject({ reattaches: 1, reconnects: 0 });
  expect(heard.events.map((event) => event.type)).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED']);
  expect(heard.events[1]?.reattached).toBe(true);
  // A reattach loses nothing the client had: no message comes a second time.
  expect(received.map((message: Message) => message.getJMSRedelivered())).toEqual(
    Array<boolean>(COUNT).fill(false),
  );
  expect(received.map((message) => message.getIntProperty('JMSXDeliveryCount'))).toEqual(
    Array<number>(COUNT).fill(1),
  );
});

test('testReconnectSameNode: window -1 re-creates the session; what was unacknowledged at the cut comes back redelivered', async () => {
  const { connection, heard, received, bufferedAtCut } = await cutWhileDelivering(-1);
  expect(connection.getStatistics()).toMatchObject({ reattaches: 0, reconnects: 1 });
  expect(heard.events.map((event) => event.type)).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED']);
  expect(heard.events[1]?.reattached).toBe(false);
  // The messages the client had buffered at the cut (the first ones sent) were delivered and never
  // acknowledged: the broker took them back and delivers them again, counted and marked.
  for (const message of received.filter((m) => seqOf(m) < bufferedAtCut)) {
    expect([seqOf(message), message.getJMSRedelivered()]).toEqual([seqOf(message), true]);
    expect(message.getIntProperty('JMSXDeliveryCount')).toBeGreaterThanOrEqual(2);
  }
  // Redelivered or not, the header and the count agree for every message.
  for (const message of received) {
    expect(message.getJMSRedelivered()).toBe(message.getIntProperty('JMSXDeliveryCount') >= 2);
  }
});
