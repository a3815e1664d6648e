import {
  HornetQQueue,
  Session,
  TransactionRolledBackException,
  type HornetQConnection,
  type HornetQMessageProducer,
  type HornetQSession,
  type TextMessage,
} from '../../src';
import { FaultProxy } from '../support/fault-proxy';
import { waitFor } from '../support/test-broker';
import { HaPair, PAIR_KINDS, type PairKind } from './support/ha-pair';
import {
  failoverFactory,
  FailoverLog,
  ProduceConsumeRun,
  type ProduceConsumeReport,
} from './support/produce-consume-run';
import { Requester, Responder } from './support/request-reply';

/**
 * Issue 25, item 7: our JMS client against the real pairs (HornetQ 2.4.7 on a shared store,
 * Artemis 2.40.0 with replication and on a shared store). One kill -9 of the live per pair, with
 * everything the scenarios need open at that moment: a produce/consume run with the exactly-once
 * option and one without, a transaction with sends not yet committed, a request/reply loop over a
 * temporary queue, and an `ha` false connection through the fault proxy. Then the live comes back
 * (allow-failback) and the clients still open follow it back.
 */
/**
 * The produce/consume runs going on together as the live dies: durable sends that each wait for
 * the server's answer, and sends that resolve once written (the 1 MiB window holds the
 * unconfirmed ones), each with the exactly-once option and without.
 */
interface RunKind {
  readonly name: string;
  readonly queue: string;
  readonly duplicateIds: boolean;
  readonly blockingSends: boolean;
}
const RUN_KINDS: readonly RunKind[] = [
  {
    name: 'blocking sends with duplicate-id-on-durable-send',
    queue: 'foBlockDup',
    duplicateIds: true,
    blockingSends: true,
  },
  {
    name: 'windowed sends with duplicate-id-on-durable-send',
    queue: 'foWindowDup',
    duplicateIds: true,
    blockingSends: false,
  },
  { name: 'blocking sends without it', queue: 'foBlock', duplicateIds: false, blockingSends: true },
  { name: 'windowed sends without it', queue: 'foWindow', duplicateIds: false, blockingSends: false },
];
const TX_QUEUE = 'foTx';
const REQUEST_QUEUE = 'foRequests';
/** Messages consumed before the kill, and again after the failover, so that both sides are real. */
const FLOWING = 100;
/** From a kill to the client on the backup, or from a restart to it back on the live. */
const FAILOVER_MS = 150_000;
const ROUND_TRIP_MS = 30_000;
/** ha false gives up after this many attempts on the dead live. */
const HA_FALSE_ATTEMPTS = 4;

const figures: string[] = [];
afterAll(() => {
  process.stdout.write(`failover figures:\n${figures.join('\n')}\n`);
});

function describeReport(report: ProduceConsumeReport): string {
  const errors = [...new Set(report.failed.map((f) => f.error))].join('; ');
  return `${report.resolved} resolved, ${report.failed.length} failed (${errors || 'none'}; ${report.failedButStored} of them stored), ${report.consumed} consumed, ${report.lost.length} lost, ${report.duplicated.length} duplicated, ${report.receiveErrors} receive errors (${report.firstReceiveError ?? 'none'}; ${report.unknownAck.length} of their messages acknowledged by the dead live)`;
}

describe.each(PAIR_KINDS)('our client on the %s pair', (kind: PairKind) => {
  let pair: HaPair | null = null;
  let nodeId = '';
  const connections: HornetQConnection[] = [];
  const runs: Array<{ kind: RunKind; run: ProduceConsumeRun; log: FailoverLog }> = [];
  let txSession: HornetQSession | null = null;
  let txProducer: HornetQMessageProducer | null = null;
  let txLog: FailoverLog | null = null;
  let requester: Requester | null = null;
  let requesterLog: FailoverLog | null = null;
  let responder: Responder | null = null;
  let haFalseProxy: FaultProxy | null = null;
  let haFalseLog: FailoverLog | null = null;
  let killedAt = 0;

  const connect = async (
    port: number,
    { ha = true, duplicateIds = true, attempts = -1, blockingSends = true } = {},
  ): Promise<HornetQConnection> => {
    const factory = failoverFactory({ port, ha, duplicateIds, reconnectAttempts: attempts, blockingSends });
    const connection = await factory.createConnection();
    connections.push(connection);
    return connection;
  };

  beforeAll(async () => {
    pair = await HaPair.start(kind, {
      queues: [...RUN_KINDS.map((run) => run.queue), TX_QUEUE, REQUEST_QUEUE],
    });
    const liveNode = pair.live!.state.nodeId;
    if (liveNode === null) throw new Error(`${pair.label}: the live reported no node id`);
    nodeId = liveNode;
    const txConnection = await connect(pair.livePort);
    txLog = new FailoverLog(txConnection);
    txSession = await txConnection.createSession(true, Session.SESSION_TRANSACTED);
    txProducer = await txSession.createProducer(new HornetQQueue(TX_QUEUE));
    await txConnection.start();

    const requesterConnection = await connect(pair.livePort);
    requesterLog = new FailoverLog(requesterConnection);
    requester = await Requester.start(requesterConnection, REQUEST_QUEUE);
    responder = await Responder.start(await connect(pair.livePort), REQUEST_QUEUE);

    haFalseProxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: pair.livePort });
    const haFalse = await connect(haFalseProxy.port, { ha: false, attempts: HA_FALSE_ATTEMPTS });
    haFalseLog = new FailoverLog(haFalse);
    // Its own session, so that the connection has something to fail over.
    await haFalse.createSession(false, Session.AUTO_ACKNOWLEDGE);

    for (const runKind of RUN_KINDS) {
      const connection = await connect(pair.livePort, runKind);
      const log = new FailoverLog(connection);
      runs.push({ kind: runKind, log, run: await ProduceConsumeRun.start(connection, runKind.queue) });
    }
  });

  afterAll(async () => {
    await responder?.stop();
    for (const connection of connections) await connection.close().catch(() => undefined);
    await haFalseProxy?.close();
    if (pair !== null) figures.push(`${kind} pair phases: ${JSON.stringify(pair.timings)}`);
    await pair?.stop();
  });

  it('kill -9 of the live mid-run: the client fails over, consumers go on, and with duplicate-id-on-durable-send every resolved durable send is consumed exactly once', async () => {
    const running = pair!;
    // A transaction in flight and a request/reply that worked, as the live dies.
    await txProducer!.send(txSession!.createTextMessage('lost with the live 1'));
    await txProducer!.send(txSession!.createTextMessage('lost with the live 2'));
    expect(await requester!.roundTrip('before the kill', ROUND_TRIP_MS)).toBe('before the kill');
    await waitFor(() => runs.every(({ run }) => run.consumed >= FLOWING), 'messages flowing', 60_000);

    killedAt = Date.now();
    await running.killLive();
    for (const { kind: runKind, run, log } of runs) {
      await waitFor(() => log.completed().length > 0, `FAILOVER_COMPLETED (${runKind.name})`, FAILOVER_MS);
      const completed = log.completed()[0]!;
      expect(completed).toMatchObject({ reattached: false, nodeId });
      await waitFor(
        () => run.firstConsumedAfter(completed.at) !== null,
        `a message through the backup (${runKind.name})`,
        FAILOVER_MS,
      );
      const firstThroughBackup = run.firstConsumedAfter(completed.at)!;
      figures.push(
        `${kind}, ${runKind.name}: kill to FAILOVER_COMPLETED ${completed.at - killedAt} ms, to the first message through the backup ${firstThroughBackup - killedAt} ms`,
      );
    }
    const consumedAtFailover = runs.map(({ run }) => run.consumed);
    await waitFor(
      () => runs.every(({ run }, i) => run.consumed >= consumedAtFailover[i]! + FLOWING),
      'consumers going on',
      60_000,
    );
    expect(running.backup!.state.role).toBe('live');

    await Promise.all(runs.map(({ run }) => run.stop()));
    const drain = await connect(running.backupPort, { ha: false, attempts: 0 });
    const reports = new Map<RunKind, ProduceConsumeReport>();
    for (const { kind: runKind, run } of runs) {
      const report = await run.finish(drain);
      reports.set(runKind, report);
      figures.push(`${kind}, ${runKind.name}: ${describeReport(report)}`);
    }
    for (const [runKind, report] of reports) {
      expect(report.consumed).toBeGreaterThan(2 * FLOWING);
      // Every delivery names its queue (a consumer re-created on Artemis too).
      expect({ run: runKind.name, badDestination: report.firstBadDestination }).toEqual({
        run: runKind.name,
        badDestination: null,
      });
      // A receive() whose blocking acknowledgement the kill cut off throws (as HornetQ's JMS
      // client does); its message is either delivered again on the backup or, if the dead live
      // had applied the acknowledgement, gone: one per consumer and kill at most.
      expect(report.unknownAck.length).toBeLessThanOrEqual(1);
      if (runKind.duplicateIds) {
        expect({
          run: runKind.name,
          failed: report.failed,
          lost: report.lost,
          duplicated: report.duplicated,
        }).toEqual({ run: runKind.name, failed: [], lost: [], duplicated: [] });
      } else if (runKind.blockingSends) {
        // A blocking send resolves once stored, and the backup has the store; the one the kill
        // cut off fails, and may have been stored.
        expect({ run: runKind.name, lost: report.lost }).toEqual({ run: runKind.name, lost: [] });
      }
    }
  });

  it('the transaction in flight rolled back: commit throws TransactionRolledBackException, the retry commits on the backup', async () => {
    const session = txSession!;
    await waitFor(() => txLog!.completed().length > 0, 'the transacted connection failing over', FAILOVER_MS);
    await expect(session.commit()).rejects.toBeInstanceOf(TransactionRolledBackException);
    await txProducer!.send(session.createTextMessage('retried 1'));
    await txProducer!.send(session.createTextMessage('retried 2'));
    await session.commit();
    const consumer = await session.createConsumer(new HornetQQueue(TX_QUEUE));
    const bodies: Array<string | null> = [];
    for (let received = await consumer.receive(10_000); received !== null;) {
      bodies.push((received as TextMessage).getText());
      received = await consumer.receive(2_000);
    }
    await session.commit();
    expect(bodies).toEqual(['retried 1', 'retried 2']);
  });

  it('the temporary queue and the request/reply loop survive the failover', async () => {
    await waitFor(() => requesterLog!.completed().length > 0, 'the requester failing over', FAILOVER_MS);
    for (let i = 0; i < 5; i++) {
      const body = `after the failover ${i}`;
      expect(await requester!.roundTrip(body, ROUND_TRIP_MS)).toBe(body);
    }
  });

  it('ha false stays on the dead live: it never reaches the serving backup and gives up after its attempts', async () => {
    await waitFor(() => haFalseLog!.failed().length > 0, 'FAILOVER_FAILED', FAILOVER_MS);
    expect(haFalseLog!.completed()).toEqual([]);
    // Its first connection and each attempt went to the dead live through the proxy.
    figures.push(
      `${kind}: ha false, ${HA_FALSE_ATTEMPTS} reconnect attempts: ${haFalseProxy!.connectionsAccepted} connections to the live's proxy`,
    );
    expect(haFalseProxy!.connectionsAccepted).toBe(1 + HA_FALSE_ATTEMPTS);
    expect(pair!.backup!.state.role).toBe('live');
  });

  it('failback: the live returns, the clients still open follow it back and go on', async () => {
    const running = pair!;
    const restartedAt = Date.now();
    await running.restartLive();
    await waitFor(() => requesterLog!.completed().length >= 2, 'the requester failing back', FAILOVER_MS);
    const back = requesterLog!.completed()[1]!;
    expect(back).toMatchObject({ reattached: false, nodeId });
    figures.push(
      `${kind}: restart of the live to the client back on it ${back.at - restartedAt} ms (the pair's failback took ${running.timings.failbackMs} ms)`,
    );
    for (let i = 0; i < 5; i++) {
      const body = `after the failback ${i}`;
      expect(await requester!.roundTrip(body, ROUND_TRIP_MS)).toBe(body);
    }
    const session = txSession!;
    await waitFor(
      () => txLog!.completed().length >= 2,
      'the transacted connection failing back',
      FAILOVER_MS,
    );
    await txProducer!.send(session.createTextMessage('on the live again'));
    await session.commit();
  });
});
