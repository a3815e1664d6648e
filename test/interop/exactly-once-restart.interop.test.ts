import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  HornetQConnectionFactory,
  HornetQQueue,
  Session,
  type FailoverEvent,
  type HornetQConnection,
} from '../../src';
import { FaultProxy } from '../support/fault-proxy';
import { waitFor } from '../support/test-broker';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './support/interop-server';
import { SERVER_CONNECTION_TTL_MS } from './support/reattach-scenarios';

/**
 * Issue 25 item 4 against the real servers: durable sends are in flight from two of our JMS
 * producers (one in the confirmation window, one blocking) when each producer's link is cut after
 * a fixed number of bytes and the server is killed (kill -9) and started again on its journal.
 * The client re-creates its sessions (the server lost them, as a backup has none) and, with
 * duplicate-id-on-durable-send, sends again what the old server never confirmed; the server's
 * persistent duplicate cache drops what it had stored: every send resolves and is consumed
 * exactly once, in order.
 */

const QUEUE = 'exactlyOnceRestart';
const WINDOWED_SENDS = 300;
const BLOCKING_SENDS = 150;
const BLOCKING_BASE = 10_000;
const BODY = 'x'.repeat(1000);
const WINDOWED_CUT_BYTES = 150_000;
const BLOCKING_CUT_BYTES = 70_000;
/** A killed JVM restarts in seconds; a loaded 2-core machine may take far longer. */
const FAILOVER_MS = 120_000;

interface Producer {
  readonly proxy: FaultProxy;
  readonly connection: HornetQConnection;
  readonly events: FailoverEvent[];
  send(seq: number): Promise<void>;
}

async function producerVia(port: number, blocking: boolean): Promise<Producer> {
  const proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: port });
  const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: proxy.port });
  factory.setConfirmationWindowSize(1024 * 1024);
  factory.setReconnectAttempts(-1);
  factory.setRetryInterval(50);
  factory.setRetryIntervalMultiplier(1);
  factory.setCallTimeout(30_000);
  factory.setDuplicateIdOnDurableSend(true);
  factory.setBlockOnDurableSend(blocking);
  // No credits to wait for: every send is on the wire at once, so the cut falls among them.
  factory.setProducerWindowSize(-1);
  const connection = await factory.createConnection();
  const events: FailoverEvent[] = [];
  connection.setFailoverListener((event) => events.push(event));
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const producer = await session.createProducer(new HornetQQueue(QUEUE));
  return {
    proxy,
    connection,
    events,
    send: (seq) => {
      const message = session.createTextMessage(BODY);
      message.setIntProperty('seq', seq);
      return producer.send(message);
    },
  };
}

/** Every seq on the queue, in the order received, read on a link of its own. */
async function drain(port: number): Promise<number[]> {
  const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port });
  const connection = await factory.createConnection();
  try {
    await connection.start();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumer = await session.createConsumer(new HornetQQueue(QUEUE));
    const seqs: number[] = [];
    for (;;) {
      const message = await consumer.receive(3_000);
      if (message === null) return seqs;
      seqs.push(message.getIntProperty('seq'));
    }
  } finally {
    await connection.close();
  }
}

/** How many messages the queue holds now, browsed on a link of its own. */
async function browseCount(port: number): Promise<number> {
  const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port });
  const connection = await factory.createConnection();
  try {
    await connection.start();
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const browser = await session.createBrowser(new HornetQQueue(QUEUE));
    let held = 0;
    for await (const message of browser.getEnumeration()) if (message !== null) held++;
    return held;
  } finally {
    await connection.close();
  }
}

function range(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + i);
}

function settle(promise: Promise<void>): Promise<string | null> {
  return promise.then(
    () => null,
    (error: unknown) => String((error as { errorCode?: unknown }).errorCode ?? error),
  );
}

const count = (events: readonly FailoverEvent[], type: FailoverEvent['type']): number =>
  events.filter((event) => event.type === type).length;

describe.each<ServerKind>(['hornetq', 'artemis'])('exactly once across a kill -9 of %s', (kind) => {
  let server: InteropServer | null = null;
  let dataDir = '';
  const producers: Producer[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hq-exactly-once-'));
    server = await InteropServer.start(kind, {
      queues: [QUEUE],
      dataDir,
      connectionTtlMs: SERVER_CONNECTION_TTL_MS,
    });
  });

  afterAll(async () => {
    for (const each of producers.splice(0)) {
      await each.connection.close().catch(() => undefined);
      await each.proxy.close();
    }
    await server?.stop();
    if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true });
  });

  test(`with duplicate-id-on-durable-send, every send resolves and is consumed exactly once, in order`, async () => {
    if (server === null) throw new Error('the server did not start');
    const windowed = await producerVia(server.port, false);
    const blocking = await producerVia(server.port, true);
    producers.push(windowed, blocking);
    for (const [producer, bytes] of [
      [windowed, WINDOWED_CUT_BYTES],
      [blocking, BLOCKING_CUT_BYTES],
    ] as const) {
      producer.proxy.once('reset', () => producer.proxy.refuseNewConnections());
      producer.proxy.cutAfterBytes(bytes, 'toServer');
    }
    const windowedSends = range(0, WINDOWED_SENDS).map((seq) => settle(windowed.send(seq)));
    const blockingSends = range(BLOCKING_BASE, BLOCKING_SENDS).map((seq) => settle(blocking.send(seq)));
    for (const each of producers) {
      await waitFor(() => count(each.events, 'FAILURE_DETECTED') === 1, 'the cut to be detected');
    }
    // The old server stored some of them (their resends are duplicates) and never saw the others.
    const heldByOldServer = await browseCount(server.port);
    expect(heldByOldServer).toBeGreaterThan(0);
    expect(heldByOldServer).toBeLessThan(WINDOWED_SENDS + BLOCKING_SENDS);
    await server.restart(true);
    for (const each of producers) {
      each.proxy.pass();
      await waitFor(() => count(each.events, 'FAILOVER_COMPLETED') === 1, 'the failover', FAILOVER_MS);
      expect(each.events.map((event) => `${event.type}:${String(event.reattached)}`)).toEqual([
        'FAILURE_DETECTED:undefined',
        'FAILOVER_COMPLETED:false',
      ]);
    }
    expect((await Promise.all(windowedSends)).filter((error) => error !== null)).toEqual([]);
    expect((await Promise.all(blockingSends)).filter((error) => error !== null)).toEqual([]);
    const resent = producers.map((each) => each.connection.getStatistics().resentDurableSends);
    for (const each of resent) expect(each).toBeGreaterThan(0);
    const delivered = await drain(server.port);
    console.log(
      `${SERVER_VERSIONS[kind]}: ${delivered.length} delivered after a kill -9 with sends in flight; the old server had ${heldByOldServer}; sent again: ${resent.join(' + ')}`,
    );
    expect(delivered.filter((seq) => seq < BLOCKING_BASE)).toEqual(range(0, WINDOWED_SENDS));
    expect(delivered.filter((seq) => seq >= BLOCKING_BASE)).toEqual(range(BLOCKING_BASE, BLOCKING_SENDS));
  });
});
