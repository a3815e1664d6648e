import { DeliveryMode, Session, type HornetQConnection } from '../../../src';
import { QUEUE, coreFactoryOf, seqOf, staysAt, useJmsReattach, waitFor } from './rig';

/**
 * The reattach contract at JMS level, 100 times over: a producer sending in bursts and a
 * MessageListener consuming on another session of the same connection while the link is cut in
 * the middle of every burst. Every message arrives exactly once and in order, the
 * ExceptionListener is called exactly once per cut with FAILOVER, and nothing accumulates per
 * failover (listeners, channels, sessions, links).
 */

const rig = useJmsReattach();
const FLAPS = 100;
const BURST = 5;

/** Counts that would grow if a failover registered something and never removed it. */
function listenerCounts(connection: HornetQConnection): Record<string, number> {
  const factory = coreFactoryOf(connection) as unknown as {
    failoverListeners: Set<unknown>;
    failureListeners: Set<unknown>;
    sessions: Set<unknown>;
    connection: { failureListeners: Set<unknown>; channelCount: number };
  };
  return {
    factoryFailoverListeners: factory.failoverListeners.size,
    factoryFailureListeners: factory.failureListeners.size,
    sessions: factory.sessions.size,
    connectionFailureListeners: factory.connection.failureListeners.size,
    connectionChannels: factory.connection.channelCount,
    processUnhandledRejection: process.listenerCount('unhandledRejection'),
    processUncaughtException: process.listenerCount('uncaughtException'),
  };
}

test(`${FLAPS} cuts: every message once and in order, the ExceptionListener called ${FLAPS} times with FAILOVER, listener counts constant`, async () => {
  await rig.start();
  const { connection, heard } = await rig.connect((cf) => cf.setRetryInterval(10));
  const producing = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const consuming = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const producer = await producing.createProducer(producing.createQueue(QUEUE));
  const consumer = await consuming.createConsumer(consuming.createQueue(QUEUE));
  const received: number[] = [];
  consumer.setMessageListener((message) => void received.push(seqOf(message)));
  await connection.start();

  let seq = 0;
  /** Sends a burst; the link is cut once the send number `cutAt` has been written, before its answer. */
  const burstCutAt = async (cutAt: number): Promise<number> => {
    let linksCut = 0;
    for (let i = 0; i < BURST; i++) {
      const message = producing.createTextMessage(`m${seq}`);
      message.setIntProperty('seq', seq++);
      // Alternate blocking (durable) and one-way sends: both must survive the cut.
      const sending = producer.send(message, {
        deliveryMode: seq % 2 === 0 ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT,
      });
      if (i === cutAt)
        linksCut = await new Promise<number>((resolve) => setImmediate(() => resolve(rig.proxy.cut())));
      await sending;
    }
    return linksCut;
  };

  let before: Record<string, number> | null = null;
  for (let flap = 1; flap <= FLAPS; flap++) {
    expect([flap, await burstCutAt(flap % BURST)]).toEqual([flap, 1]);
    await heard.exceptionCount(flap);
    if (flap === 1) before = listenerCounts(connection);
  }
  await waitFor(() => received.length >= seq, `all ${seq} messages (have ${received.length})`);
  await staysAt(received, seq, 200);
  expect(received).toEqual([...Array(FLAPS * BURST).keys()]);

  expect(heard.exceptions).toHaveLength(FLAPS);
  expect(new Set(heard.codes)).toEqual(new Set(['FAILOVER']));
  expect(connection.getStatistics()).toMatchObject({ reattaches: FLAPS, reconnects: 0 });
  // The cuts landed on commands in flight: the client had to replay some.
  expect(connection.getStatistics().replayedCommands).toBeGreaterThan(0);
  expect(listenerCounts(connection)).toEqual(before);
  await waitFor(
    () => rig.proxy.activeLinks === 1 && rig.broker.getConnectionCount() === 1,
    `one link left (proxy: ${rig.proxy.activeLinks}, broker: ${rig.broker.getConnectionCount()})`,
  );
  expect(rig.broker.getSessionCount()).toBe(3); // the connection's own and the two above
  await waitFor(
    () => rig.broker.listQueues().every((queue) => queue.messageCount === 0),
    'every ack applied',
  );
}, 60_000);
