/**
 * The fuzz of fuzz.test.ts against a broker with security enabled, where the fuzz never logs in:
 * its CREATESESSIONs name nobody or a real user with a wrong password. Everything it sends is
 * therefore unauthenticated, and must get it nothing: the broker survives without an internal
 * error, creates no queue and keeps no message, holds no more memory than before, and a
 * legitimate client logs in and works afterwards (from the same host, whose failures the throttle
 * has counted).
 *
 * In `npm test` it fuzzes for 10 s; FUZZ_SEED and FUZZ_MS replay or lengthen it, as for fuzz.test.ts.
 */
import { Broker, ClientSessionFactory, HornetQException, type ClientSession } from '../../src';
import { selectorFilterFactory } from '../../src/jms/selector/selector';
import { FileSecurityManager } from '../../src/server/security/file-security-manager';
import { hashPassword } from '../../src/server/security/password-hash';
import { PERMISSIONS } from '../../src/server/security/permission';
import { fuzzSettingsFromEnv, runFuzz, type FuzzReport } from '../support/frame-fuzzer';
import { exposeGc, measureHeap } from '../support/heap';
import { CapturingLogger, seqOf, sequenced, waitFor } from '../support/test-broker';

const settings = fuzzSettingsFromEnv();
const timeoutMs = settings.durationMs + 120_000;
const MiB = 1024 * 1024;
const MAX_FRAME_BYTES = 256 * 1024;
const CONNECTION_TTL_MS = 8_000;
const HEAP_MARGIN_BYTES = 24 * MiB;
const NAMES = {
  queue: 'fuzz.queue',
  address: 'fuzz.address',
  createdPrefix: 'fuzz.created.',
  user: 'honest',
} as const;
const PASSWORD = 'honest-secret';
/** Longer than the 32 waiting attempts x 200 ms a host can owe, with room for a loaded machine. */
const LOGIN_DEADLINE_MS = 30_000;
/** A throttle that engages after two failures, with pauses short enough for a test. */
const THROTTLE = { freeFailures: 2, initialDelayMs: 20, multiplier: 2, maxDelayMs: 200 };

const uncaught: string[] = [];
const onUncaught = (error: unknown): void => void uncaught.push(`uncaught: ${String(error)}`);
const onUnhandled = (reason: unknown): void => void uncaught.push(`unhandled rejection: ${String(reason)}`);

describe('fuzz before authentication (security enabled, the fuzz never logs in)', () => {
  const logger = new CapturingLogger();
  let broker: Broker;
  let report: FuzzReport;
  let baselineQueues: string[];
  let baselineHeapBytes: number;
  let gc: (() => void) | null;
  /** Logged in before the fuzz: its session must be untouched by it. */
  let before: ClientSessionFactory;
  /** Log lines written before the fuzz began (the first client's login among them). */
  let linesBefore: number;

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUnhandled);
    broker = new Broker(
      {
        securityEnabled: true,
        securityManager: new FileSecurityManager({
          defaultUser: null,
          users: [{ name: NAMES.user, password: await hashPassword(PASSWORD, { N: 1024 }), roles: ['user'] }],
        }),
        securitySettings: [
          { match: '#', permissions: new Map(PERMISSIONS.map((permission) => [permission, ['user']])) },
        ],
        loginThrottle: THROTTLE,
        acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
        persistenceEnabled: false,
        logger,
        maxFrameBytes: MAX_FRAME_BYTES,
        connectionTtlOverride: CONNECTION_TTL_MS,
        connectionTtlCheckInterval: 250,
        queues: [{ name: NAMES.queue, address: NAMES.address, filter: null, durable: false }],
      },
      selectorFilterFactory,
    );
    await broker.start();
    before = await legitimateClient();
    await roundTrip(before);
    linesBefore = logger.lines.length;
    gc = exposeGc();
    baselineQueues = broker.listQueues().map((queue) => queue.name);
    baselineHeapBytes = measureHeap(gc);
    // Every close counts (closeReason says "the broker gave a reason"): a refused login leaves
    // the connection open, and what follows it closes the connection for a reason of its own.
    report = await runFuzz(
      { port: broker.getPort(), maxFrameBytes: MAX_FRAME_BYTES, names: NAMES, closeReason: () => 'closed' },
      settings,
    );
    settings.log(
      `fuzz (unauthenticated) seed=${report.seed}: ${report.connections} connections, ${report.framesSent} frames, ${report.problemCount} problems`,
    );
  }, timeoutMs);

  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUnhandled);
    await before?.close();
    await broker?.stop();
  });

  function legitimateClient(): Promise<ClientSessionFactory> {
    return ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port: broker.getPort() }],
      // Pings well inside the broker's TTL, also while a login waits behind the fuzz's.
      clientFailureCheckPeriod: 250,
      connectionTTL: CONNECTION_TTL_MS,
      reconnectAttempts: 0,
    });
  }

  /** Logs in as the real user, sends a message to the fuzz queue and takes it back. */
  async function roundTrip(factory: ClientSessionFactory): Promise<void> {
    const session = await login(factory);
    const producer = session.createProducer(NAMES.address);
    const consumer = await session.createConsumer(NAMES.queue);
    session.start();
    await producer.send(sequenced(7, { durable: true }));
    const message = await consumer.receive(10_000);
    expect(message === null ? null : seqOf(message)).toBe(7);
    await message?.acknowledge();
    await session.close();
  }

  /**
   * A session as the real user. Right after the fuzz its host may still have maxWaitingPerSource
   * attempts waiting (those of fuzz connections already gone wait their turn too, since the
   * broker does not yet tell the throttle that a connection went), and a further attempt is
   * refused unchecked: a client tries again, as this one does, until the queue has room.
   */
  async function login(factory: ClientSessionFactory): Promise<ClientSession> {
    const deadline = Date.now() + LOGIN_DEADLINE_MS;
    for (;;) {
      try {
        return await factory.createSession({ username: NAMES.user, password: PASSWORD });
      } catch (error) {
        if (!HornetQException.is(error, 'SECURITY_EXCEPTION') || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  const seeded = <T>(value: T): { seed: number; value: T } => ({ seed: settings.seed, value });

  test('the broker had no uncaught exception, unhandled rejection or internal error', () => {
    expect(seeded(uncaught)).toEqual(seeded([]));
    const errors = logger.find(/./, ['error']).map((line) => line.message);
    expect(seeded(errors)).toEqual(seeded([]));
    expect(seeded(report.problems)).toEqual(seeded([]));
    expect(report.connections).toBeGreaterThan(50);
  });

  test('nothing unauthenticated got a session: every login checked was refused, and logged as such', () => {
    // Tests run in order: nothing after the fuzz has logged yet.
    const during = logger.lines.slice(linesBefore);
    const sessions = during.filter((line) => /session .* created|reattached/.test(line.message));
    expect(seeded(sessions.map((line) => line.message))).toEqual(seeded([]));
    // Logins were checked and refused; those of connections the fuzz had already closed when their
    // turn came are dropped unchecked (the throttle slows this host after its first failures).
    expect(during.filter((line) => line.message.startsWith('login refused')).length).toBeGreaterThan(0);
  });

  test('no queue was created, no message kept, and the connections go', async () => {
    expect(seeded(broker.listQueues().map((queue) => queue.name))).toEqual(seeded(baselineQueues));
    expect(seeded(broker.listQueues().map((queue) => queue.messageCount))).toEqual(seeded([0]));
    // Only the connection of the client logged in before stays (its session closed after its round trip).
    await waitFor(
      () => broker.getConnectionCount() === 1,
      'the fuzz connections to go',
      CONNECTION_TTL_MS * 3,
    );
    expect(broker.getSessionCount()).toBe(0);
  });

  test('the broker holds no more memory than before the fuzz', () => {
    const after = measureHeap(gc);
    const margin = gc === null ? 4 * HEAP_MARGIN_BYTES : HEAP_MARGIN_BYTES;
    expect(seeded(after - baselineHeapBytes)).toEqual(seeded(expect.any(Number)));
    expect(after - baselineHeapBytes).toBeLessThan(margin);
  });

  test('a client logged in before the fuzz, and a new one from the same host, log in and work afterwards', async () => {
    await roundTrip(before);
    const factory = await legitimateClient();
    try {
      await roundTrip(factory);
    } finally {
      await factory.close();
    }
  });
});
