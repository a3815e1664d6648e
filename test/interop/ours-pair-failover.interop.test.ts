import {
  HornetQConnectionFactory,
  HornetQQueue,
  Session,
  TransactionRolledBackException,
  type HornetQConnection,
  type TextMessage,
} from '../../src';
import buildCliOnce from '../cli/global-setup';
import { waitFor } from '../support/test-broker';
import { JmsDriver, type DestinationRef, type JavaTopologyMember } from './support/jms-driver';
import { JavaSendLoop, type JavaSendRecord } from './support/java-send-loop';
import { OursPair, type Takeover } from './support/ours-pair-processes';
import { failoverFactory, FailoverLog, ProduceConsumeRun } from './support/produce-consume-run';

/**
 * Issue 26, item 4: our own broker as a live/backup pair (two `hornetq server` processes on one
 * data directory, the backup announcing itself to the live through its cluster connection), and a
 * kill -9 of the live under durable sends. HornetQ 2.4.7's Java JMS client (ha=true) learns the
 * pair from our live, fails over to our backup and goes on sending; our client (ha, duplicate ids
 * on durable sends) does the same with consumers and a transaction. Every confirmed send is on the
 * backup exactly once.
 */

const JAVA_QUEUE: DestinationRef = { type: 'queue', name: 'pair.java' };
const JAVA_TX_QUEUE: DestinationRef = { type: 'queue', name: 'pair.java.tx' };
/** Messages the Java consumer takes (and acknowledges) before the kill, and again after the failover. */
const JAVA_CONSUMED = 50;
const OURS_QUEUE = 'pair.ours';
const TX_QUEUE = 'pair.ours.tx';
/** Confirmed sends before the kill, and again after the failover, so that both sides are real. */
const FLOWING = 200;
const FAILOVER_MS = 120_000;
const DRAINED_AFTER_MS = 3_000;
/** What our broker logs when a send's _HQ_DUPL_ID is one it has stored. */
const DUPLICATE_DROPPED = /^Duplicate message detected - message will not be routed$/;

const figures: string[] = [];
let pair: OursPair | null = null;
let driver: JmsDriver | null = null;
const connections: HornetQConnection[] = [];

beforeAll(() => {
  buildCliOnce();
});

afterEach(async () => {
  await Promise.allSettled(connections.splice(0).map((connection) => connection.close()));
  await driver?.close();
  driver = null;
  await pair?.stop();
  pair = null;
});

afterAll(() => {
  process.stdout.write(`our pair's failover figures:\n${figures.join('\n')}\n`);
});

function timings(who: string, takeover: Takeover, completedAt: number): string {
  return `${who}: kill -9 to the backup listening ${takeover.servingAt - takeover.killedAt} ms, to the client's FAILOVER_COMPLETED ${completedAt - takeover.killedAt} ms`;
}

/** Every message in `queue` on the broker at `port`, by its `seq` property: seq → times received. */
async function drainSeqs(port: number, queue: string): Promise<Map<number, number>> {
  const connection = await new HornetQConnectionFactory(false, {
    host: '127.0.0.1',
    port,
  }).createConnection();
  connections.push(connection);
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const consumer = await session.createConsumer(new HornetQQueue(queue));
  await connection.start();
  const times = new Map<number, number>();
  for (;;) {
    const message = await consumer.receive(DRAINED_AFTER_MS);
    if (message === null) break;
    const seq = message.getIntProperty('seq');
    times.set(seq, (times.get(seq) ?? 0) + 1);
  }
  return times;
}

/** The Java client's topology once it names the backup on `backupPort` (the live pushes it on subscription). */
async function javaTopologyWithBackup(
  java: JmsDriver,
  connection: string,
  backupPort: number,
): Promise<JavaTopologyMember[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const members = await java.topology(connection);
    if (members.some((member) => member.backup?.port === String(backupPort))) return members;
    if (Date.now() > deadline)
      throw new Error(`the Java client's topology never named the backup: ${JSON.stringify(members)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The text of every message in `queue` on the broker at `port`, in order. */
async function drainBodies(port: number, queue: string): Promise<Array<string | null>> {
  const connection = await new HornetQConnectionFactory(false, {
    host: '127.0.0.1',
    port,
  }).createConnection();
  connections.push(connection);
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const consumer = await session.createConsumer(new HornetQQueue(queue));
  await connection.start();
  const bodies: Array<string | null> = [];
  for (let message = await consumer.receive(DRAINED_AFTER_MS); message !== null;) {
    bodies.push((message as TextMessage).getText());
    message = await consumer.receive(DRAINED_AFTER_MS);
  }
  return bodies;
}

/** A confirmed send not there exactly once, an unknown one there twice, one never sent. */
function javaDeliveryProblems(sent: JavaSendRecord, received: Map<number, number>): string[] {
  const problems: string[] = [];
  for (const seq of sent.confirmed) {
    const times = received.get(seq) ?? 0;
    if (times !== 1) problems.push(`confirmed ${seq} received ${times} times`);
  }
  for (const [seq, times] of received) {
    if (sent.confirmed.has(seq)) continue;
    if (!sent.unknown.has(seq)) problems.push(`${seq} received but never sent`);
    else if (times > 1) problems.push(`unconfirmed ${seq} received ${times} times (duplicate id set)`);
  }
  return problems;
}

it('HornetQ 2.4.7’s Java client (ha=true) learns {live, backup} from our live, fails over to our backup on kill -9: sends and the consumer go on, every confirmed durable send is there exactly once and nothing acknowledged comes back, the transaction in flight rolls back and its retry commits', async () => {
  const running = (pair = await OursPair.start());
  const java = (driver = await JmsDriver.start());
  const connection = await java.connect({
    port: running.livePort,
    ha: true,
    factory: {
      reconnectAttempts: -1,
      retryInterval: 100,
      retryIntervalMultiplier: 1.5,
      maxRetryInterval: 2000,
      confirmationWindowSize: 1024 * 1024,
      callTimeout: 30_000,
      // An acknowledgement returns once the server has it: nothing acknowledged may come back.
      blockOnAcknowledge: true,
    },
  });
  const session = await java.createSession(connection);
  const consumerSession = await java.createSession(connection);
  const consumer = await java.createConsumer(consumerSession, JAVA_QUEUE);
  const txSession = await java.createSession(connection, true, 'SESSION_TRANSACTED');
  await java.start(connection);
  const members = await javaTopologyWithBackup(java, connection, running.backupPort);
  expect(members).toEqual([
    {
      nodeId: running.nodeId,
      live: { host: '127.0.0.1', port: String(running.livePort) },
      backup: { host: '127.0.0.1', port: String(running.backupPort) },
    },
  ]);

  const sends = new JavaSendLoop(java, session, JAVA_QUEUE, 'java-run');
  await waitFor(() => sends.confirmedCount >= FLOWING, 'Java sends confirmed by the live', 60_000);
  const consumedBefore = await java.receiveMany(consumer, JAVA_CONSUMED, 10_000);
  expect(consumedBefore).toHaveLength(JAVA_CONSUMED);
  // A transaction open as the live dies: its sends go with it.
  await java.send(txSession, JAVA_TX_QUEUE, { class: 'TextMessage', body: 'lost with the live 1' });
  await java.send(txSession, JAVA_TX_QUEUE, { class: 'TextMessage', body: 'lost with the live 2' });
  const completed = java
    .waitForEvent(
      (event) => event.event === 'failover' && event.type === 'FAILOVER_COMPLETED',
      'FAILOVER_COMPLETED',
      FAILOVER_MS,
    )
    .then(() => Date.now());
  const takeover = await running.killLive();
  const completedAt = await completed;
  const atFailover = sends.confirmedCount;
  // The same session goes on sending, now to the backup.
  await waitFor(
    () => sends.confirmedCount >= atFailover + FLOWING,
    'Java sends confirmed by the backup',
    60_000,
  );
  // The consumer goes on on the backup.
  const consumedAfter = await java.receiveMany(consumer, JAVA_CONSUMED, 10_000);
  expect(consumedAfter).toHaveLength(JAVA_CONSUMED);
  const sent = await sends.stop();
  // What it holds in its buffer, delivered but not acknowledged, goes back to the queue.
  await java.closeSession(consumerSession);
  figures.push(timings('HornetQ 2.4.7 Java client', takeover, completedAt));
  // The transaction was rolled back by the failover: its commit says so, and a retry commits.
  await expect(java.commit(txSession)).rejects.toMatchObject({
    javaClass: 'javax.jms.TransactionRolledBackException',
  });
  await java.send(txSession, JAVA_TX_QUEUE, { class: 'TextMessage', body: 'retried 1' });
  await java.send(txSession, JAVA_TX_QUEUE, { class: 'TextMessage', body: 'retried 2' });
  await java.commit(txSession);

  const unknown = new Map(sent.unknown);
  // An application would send again what it does not know was sent: with the same duplicate id,
  // the backup keeps one copy whatever the dead live had stored.
  const resent = await sends.resendUnknown();
  const received = await drainSeqs(running.backupPort, JAVA_QUEUE.name);
  // Read after the drain's quiet seconds: the backup's log lines reach us through a pipe.
  const dropped = running.backup.lines.filter((line) => DUPLICATE_DROPPED.test(line.msg)).length;
  for (const message of [...consumedBefore, ...consumedAfter]) {
    const seq = message.properties.seq?.[1] as number;
    received.set(seq, (received.get(seq) ?? 0) + 1);
  }
  expect(await drainBodies(running.backupPort, JAVA_TX_QUEUE.name)).toEqual(['retried 1', 'retried 2']);
  figures.push(
    `HornetQ 2.4.7 Java client: ${sent.confirmed.size - resent.length} sends confirmed, ${resent.length} with an unknown outcome sent again with their duplicate ids, ${dropped} of them dropped by the backup as already stored (${[...new Set(unknown.values())].join('; ') || 'none'})`,
  );
  expect(running.backup.nodeId).toBe(running.nodeId);
  // HornetQ 2.4's FailoverEventType: the connection failed, then the session moved to the backup.
  expect(java.events.filter((event) => event.event === 'failover').map((event) => event.type)).toEqual([
    'FAILURE_DETECTED',
    'FAILOVER_COMPLETED',
  ]);
  expect(sent.unknown.size).toBe(0);
  expect(dropped).toBeLessThanOrEqual(resent.length);
  expect(javaDeliveryProblems(sent, received)).toEqual([]);
});

it('our client (ha, duplicate ids on durable sends) fails over to our backup on kill -9: every resolved durable send consumed exactly once, consumers go on, the transaction in flight rolls back and its retry commits', async () => {
  const running = (pair = await OursPair.start());
  const connect = async (port: number, ha: boolean): Promise<HornetQConnection> => {
    const factory = failoverFactory({ port, ha, duplicateIds: true, reconnectAttempts: ha ? -1 : 0 });
    const connection = await factory.createConnection();
    connections.push(connection);
    return connection;
  };
  const runConnection = await connect(running.livePort, true);
  const log = new FailoverLog(runConnection);
  const run = await ProduceConsumeRun.start(runConnection, OURS_QUEUE);
  const txConnection = await connect(running.livePort, true);
  const txLog = new FailoverLog(txConnection);
  const txSession = await txConnection.createSession(true, Session.SESSION_TRANSACTED);
  const txProducer = await txSession.createProducer(new HornetQQueue(TX_QUEUE));
  await txConnection.start();
  await txProducer.send(txSession.createTextMessage('lost with the live 1'));
  await txProducer.send(txSession.createTextMessage('lost with the live 2'));
  await waitFor(() => run.consumed >= FLOWING, 'messages flowing through the live', 60_000);

  const takeover = await running.killLive();
  await waitFor(() => log.completed().length > 0, 'FAILOVER_COMPLETED', FAILOVER_MS);
  const completed = log.completed()[0]!;
  expect(completed).toMatchObject({ reattached: false, nodeId: running.nodeId });
  await waitFor(
    () => run.firstConsumedAfter(completed.at) !== null,
    'a message through the backup',
    FAILOVER_MS,
  );
  const firstThroughBackup = run.firstConsumedAfter(completed.at)!;
  figures.push(
    `${timings('our client', takeover, completed.at)}, to the first message consumed through the backup ${firstThroughBackup - takeover.killedAt} ms`,
  );
  const consumedAtFailover = run.consumed;
  await waitFor(() => run.consumed >= consumedAtFailover + FLOWING, 'consumers going on', 60_000);

  await waitFor(() => txLog.completed().length > 0, 'the transacted connection failing over', FAILOVER_MS);
  await expect(txSession.commit()).rejects.toBeInstanceOf(TransactionRolledBackException);
  await txProducer.send(txSession.createTextMessage('retried 1'));
  await txProducer.send(txSession.createTextMessage('retried 2'));
  await txSession.commit();

  await run.stop();
  const drain = await connect(running.backupPort, false);
  const report = await run.finish(drain);
  figures.push(
    `our client: ${report.resolved} sends resolved, ${report.failed.length} failed, ${report.consumed} consumed, ${report.lost.length} lost, ${report.duplicated.length} duplicated, ${report.unknownAck.length} acknowledgements cut off`,
  );
  expect({ failed: report.failed, lost: report.lost, duplicated: report.duplicated }).toEqual({
    failed: [],
    lost: [],
    duplicated: [],
  });
  expect(report.unknownAck.length).toBeLessThanOrEqual(1);
  expect(report.consumed).toBeGreaterThan(2 * FLOWING);

  const txConsumer = await txSession.createConsumer(new HornetQQueue(TX_QUEUE));
  const bodies: Array<string | null> = [];
  for (let message = await txConsumer.receive(10_000); message !== null;) {
    bodies.push((message as TextMessage).getText());
    message = await txConsumer.receive(2_000);
  }
  await txSession.commit();
  expect(bodies).toEqual(['retried 1', 'retried 2']);
});
