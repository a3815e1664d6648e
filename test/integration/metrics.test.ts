import net from 'node:net';
import { Broker, MetricsServer } from '../../src';
import { EXPOSITION_CONTENT_TYPE } from '../../src/server/metrics/metrics-server';
import { brokerHealth } from '../../src/server/metrics/broker-health';
import { httpRequest, parseExposition } from '../support/http-request';
import { FailoverRecorder, REATTACH_CLIENT } from './reattach/rig';
import { DeferredSyncStorage } from '../support/deferred-sync-storage';
import { FaultProxy } from '../support/fault-proxy';
import { ADMIN, setting } from '../support/secured-broker';
import { sequenced, useTestBrokers, waitFor } from '../support/test-broker';
import { queues, text, transacted, waitForQueue } from './broker-features/support';

/**
 * The metrics endpoint over real HTTP in front of a real broker: the numbers it exposes are the
 * ones the test made happen (sends, acknowledgements, expiries, dead letters, a reattach).
 */
const Q = 'jms.queue.metrics';
const POISON = 'jms.queue.poison';
const DLQ = 'jms.queue.DLQ';
const ODD = 'a"b\\c';

const env = useTestBrokers();

async function metricsFor(source: Broker | (() => Broker | null)): Promise<MetricsServer> {
  const metrics = new MetricsServer(source, { host: '127.0.0.1', port: 0 });
  await metrics.start();
  return env.track(metrics);
}

async function scrape(metrics: MetricsServer): Promise<Map<string, number>> {
  const answer = await httpRequest(metrics.url);
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe(EXPOSITION_CONTENT_TYPE);
  return parseExposition(answer.body);
}

/** `name{queue=...,address=...,jms_name=...}` as the endpoint writes a plain (unescaped) queue name. */
function ofQueue(metric: string, queue: string, jmsName: string): string {
  return `${metric}{queue="${queue}",address="${queue}",jms_name="${jmsName}"}`;
}

test('per-queue counts, connections, sessions and a reattach are exposed with the exact numbers', async () => {
  const broker = await env.startBroker({
    queues: [...queues(Q, POISON, DLQ), { name: ODD, address: ODD, filter: null, durable: false }],
    addressSettings: { [POISON]: { maxDeliveryAttempts: 1, deadLetterAddress: DLQ } },
    messageExpiryScanPeriod: 50,
    connectionTtlCheckInterval: 100,
  });
  const metrics = await metricsFor(broker);
  const proxy = env.track(await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: broker.getPort() }));
  const factory = await env.connect(proxy.port, REATTACH_CLIENT);
  const recorder = new FailoverRecorder(factory);
  const session = await factory.createSession();
  const producer = session.createProducer(Q);

  // 3 expire in the queue (the scan takes them out), then 10 that live.
  for (let i = 0; i < 3; i++) await producer.send(text(`short-${i}`, { expiration: Date.now() + 1 }));
  await waitForQueue(broker, Q, (q) => q.messagesExpired === 3, '3 messages to expire');
  for (let i = 0; i < 10; i++) await producer.send(sequenced(i, { durable: true }));

  // 4 consumed and acknowledged; the consumer's buffered rest goes back when it closes.
  const consumer = await session.createConsumer(Q);
  session.start();
  for (let i = 0; i < 4; i++) {
    const message = await consumer.receive(5000);
    expect(message).not.toBeNull();
    await message?.acknowledge();
  }
  await consumer.flushAcknowledgements();
  await consumer.close();

  // 2 rolled back at their only allowed delivery: dead-lettered.
  const poisonProducer = session.createProducer(POISON);
  for (let i = 0; i < 2; i++) await poisonProducer.send(text(`poison-${i}`));
  const tx = await transacted(factory);
  const poisonConsumer = await tx.createConsumer(POISON);
  tx.start();
  for (let i = 0; i < 2; i++) await (await poisonConsumer.receive(5000))?.acknowledge();
  await tx.rollback();
  await waitForQueue(broker, POISON, (q) => q.messagesKilled === 2, '2 messages to be dead-lettered');
  await tx.close();

  proxy.cut();
  await recorder.ended(1);
  expect(recorder.trace).toContain('FAILOVER_COMPLETED:true');
  await waitFor(() => broker.getConnectionCount() === 1, 'the old connection to be gone');
  // A consumer after the reattach: the 6 left are delivered to it, unacknowledged.
  const after = await session.createConsumer(Q);
  await waitForQueue(broker, Q, (q) => q.deliveringCount === 6, '6 messages buffered by the new consumer');

  const samples = await scrape(metrics);
  const expected: Array<[string, number]> = [
    ['hornetq_broker_started', 1],
    ['hornetq_queues', 4],
    [ofQueue('hornetq_queue_messages', Q, 'metrics'), 6],
    [ofQueue('hornetq_queue_delivering_messages', Q, 'metrics'), 6],
    [ofQueue('hornetq_queue_scheduled_messages', Q, 'metrics'), 0],
    [ofQueue('hornetq_queue_consumers', Q, 'metrics'), 1],
    [ofQueue('hornetq_queue_messages_added_total', Q, 'metrics'), 13],
    [ofQueue('hornetq_queue_messages_acknowledged_total', Q, 'metrics'), 4],
    [ofQueue('hornetq_queue_messages_expired_total', Q, 'metrics'), 3],
    [ofQueue('hornetq_queue_messages_killed_total', Q, 'metrics'), 0],
    [ofQueue('hornetq_queue_messages', POISON, 'poison'), 0],
    [ofQueue('hornetq_queue_consumers', POISON, 'poison'), 0],
    [ofQueue('hornetq_queue_messages_added_total', POISON, 'poison'), 2],
    [ofQueue('hornetq_queue_messages_acknowledged_total', POISON, 'poison'), 0],
    [ofQueue('hornetq_queue_messages_killed_total', POISON, 'poison'), 2],
    [ofQueue('hornetq_queue_messages', DLQ, 'DLQ'), 2],
    [ofQueue('hornetq_queue_messages_added_total', DLQ, 'DLQ'), 2],
    ['hornetq_queue_messages{queue="a\\"b\\\\c",address="a\\"b\\\\c",jms_name=""}', 0],
    ['hornetq_connections', 1],
    ['hornetq_sessions', 1],
    ['hornetq_session_reattaches_total', 1],
    ['hornetq_failed_logins_total', 0],
  ];
  expect(expected.map(([name]) => [name, samples.get(name)])).toEqual(expected);

  const connectionSeries = [...samples.keys()].filter((name) =>
    name.startsWith('hornetq_connection_pending_output_bytes{'),
  );
  const [connection] = broker.listConnections();
  expect(connectionSeries).toEqual([
    `hornetq_connection_pending_output_bytes{connection="${connection?.id}",remote_address="${connection?.remoteAddress}"}`,
  ]);
  expect(samples.get('hornetq_pending_output_bytes')).toBe(connection?.pendingOutputBytes);
  // No journal on this broker (persistence off): no sync histogram.
  expect([...samples.keys()].some((name) => name.startsWith('hornetq_journal_sync_seconds'))).toBe(false);
  // prom-client's default metrics, on this broker's registry.
  for (const name of [
    'process_start_time_seconds',
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
    'process_open_fds',
    'nodejs_heap_size_used_bytes',
  ])
    expect([name, samples.get(name)]).toEqual([name, expect.any(Number)]);
  expect(samples.get('process_resident_memory_bytes')).toBeGreaterThan(0);
  for (const lag of ['min', 'mean', 'p50', 'p90', 'p99', 'max', 'stddev'])
    expect(samples.get(`nodejs_eventloop_lag_${lag}_seconds`)).toBeGreaterThanOrEqual(0);
  await after.close();
});

test('refused logins are counted', async () => {
  const broker = await env.startBroker({}, { security: { settings: [setting('#')] } });
  const metrics = await metricsFor(broker);
  const factory = await env.connect(broker);
  for (let i = 0; i < 2; i++) {
    await expect(factory.createSession({ username: ADMIN.name, password: 'wrong' })).rejects.toThrow();
  }
  await factory.createSession({ username: ADMIN.name, password: ADMIN.password });
  expect((await scrape(metrics)).get('hornetq_failed_logins_total')).toBe(2);
});

test('two brokers in one process: each endpoint shows its own broker, both the process metrics', async () => {
  const first = await env.startBroker({ queues: queues('jms.queue.first') });
  const second = await env.startBroker({ queues: queues('jms.queue.second') });
  const [ofFirst, ofSecond] = await Promise.all([metricsFor(first), metricsFor(second)]);
  const producer = (await (await env.connect(first)).createSession()).createProducer('jms.queue.first');
  await producer.send(text('only on the first'));
  const [a, b] = await Promise.all([scrape(ofFirst), scrape(ofSecond)]);
  expect(a.get(ofQueue('hornetq_queue_messages', 'jms.queue.first', 'first'))).toBe(1);
  expect(a.has(ofQueue('hornetq_queue_messages', 'jms.queue.second', 'second'))).toBe(false);
  expect(b.get(ofQueue('hornetq_queue_messages', 'jms.queue.second', 'second'))).toBe(0);
  expect(b.has(ofQueue('hornetq_queue_messages', 'jms.queue.first', 'first'))).toBe(false);
  expect([a.get('hornetq_connections'), b.get('hornetq_connections')]).toEqual([1, 0]);
  for (const samples of [a, b]) expect(samples.get('process_start_time_seconds')).toBeGreaterThan(0);
  // Closing one leaves the other serving.
  await ofFirst.close();
  expect((await scrape(ofSecond)).get('hornetq_queues')).toBe(1);
});

describe('journal sync latency', () => {
  test('each fdatasync of the message journal is counted in the histogram', async () => {
    const broker = await env.startBroker({ queues: queues(Q) }, { journal: true });
    const metrics = await metricsFor(broker);
    const before = (await scrape(metrics)).get('hornetq_journal_sync_seconds_count{journal="messages"}') ?? 0;
    const producer = (await (await env.connect(broker)).createSession()).createProducer(Q);
    for (let i = 0; i < 3; i++) await producer.send(sequenced(i, { durable: true }));
    const samples = await scrape(metrics);
    const count = samples.get('hornetq_journal_sync_seconds_count{journal="messages"}') ?? 0;
    // Each blocking durable send waits for its sync: three sends, three group commits at least.
    expect(count - before).toBeGreaterThanOrEqual(3);
    // prom-client writes `le` first in a bucket's labels.
    expect(samples.get('hornetq_journal_sync_seconds_bucket{le="+Inf",journal="messages"}')).toBe(count);
    const buckets = [...samples.entries()]
      .filter(([name]) => /^hornetq_journal_sync_seconds_bucket\{le="[^"]+",journal="messages"\}$/.test(name))
      .map(([, value]) => value);
    expect(buckets.length).toBe(16);
    expect([...buckets].sort((a, b) => a - b)).toEqual(buckets);
    expect(samples.get('hornetq_journal_sync_seconds_sum{journal="messages"}')).toBeGreaterThan(0);
    expect(samples.has('hornetq_journal_sync_seconds_count{journal="bindings"}')).toBe(true);
  });
});

describe('/health', () => {
  test('200 and up while started, 503 from the moment a stop begins', async () => {
    const broker = await env.startBroker({});
    const metrics = await metricsFor(broker);
    const up = await httpRequest(metrics.url.replace('/metrics', '/health'));
    expect(up.status).toBe(200);
    expect(up.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(up.body)).toEqual({
      status: 'up',
      state: 'started',
      acceptors: [`tcp tcp://127.0.0.1:${broker.getPort()}`],
      connections: 0,
      sessions: 0,
    });
    const stopping = broker.stop();
    expect(brokerHealth(broker).body).toEqual({
      status: 'down',
      state: 'stopping',
      reason: 'the broker is stopping',
    });
    const during = await httpRequest(metrics.url.replace('/metrics', '/health'));
    expect(during.status).toBe(503);
    expect(JSON.parse(during.body)).toMatchObject({
      status: 'down',
      reason: expect.stringMatching(/^the broker is stopp(ing|ed)$/),
    });
    await stopping;
    const stopped = await httpRequest(metrics.url.replace('/metrics', '/health'));
    expect(stopped.status).toBe(503);
    expect(JSON.parse(stopped.body)).toEqual({
      status: 'down',
      state: 'stopped',
      reason: 'the broker is stopped',
    });
    // A stopped broker has no queues to show: the endpoint still answers.
    expect((await scrape(metrics)).get('hornetq_broker_started')).toBe(0);
  });

  test('503 naming the store failure once the broker stopped itself because of it', async () => {
    const storage = new DeferredSyncStorage();
    storage.autoRelease = true;
    const broker = await env.startBroker({ storage });
    const metrics = await metricsFor(broker);
    storage.fail(new Error('EIO: i/o error, fdatasync'));
    await waitFor(() => broker.status === 'stopped', 'the broker to stop itself');
    const health = await httpRequest(metrics.url.replace('/metrics', '/health'));
    expect([health.status, JSON.parse(health.body)]).toEqual([
      503,
      {
        status: 'down',
        state: 'stopped',
        reason: 'the message store failed (EIO: i/o error, fdatasync); the broker stopped itself',
      },
    ]);
  });

  test('503 before there is a broker, and 200 once the source gives a started one', async () => {
    let current: Broker | null = null;
    const metrics = await metricsFor(() => current);
    const none = await httpRequest(metrics.url.replace('/metrics', '/health'));
    expect([none.status, JSON.parse(none.body)]).toEqual([
      503,
      { status: 'down', state: 'none', reason: 'the broker is not started' },
    ]);
    current = await env.startBroker({});
    expect((await httpRequest(metrics.url.replace('/metrics', '/health'))).status).toBe(200);
  });
});

describe('the HTTP surface', () => {
  test('other paths are 404, other methods 405; HEAD has headers only; a body is ignored', async () => {
    const broker = await env.startBroker({});
    const metrics = await metricsFor(broker);
    const base = `http://127.0.0.1:${metrics.port}`;
    expect((await httpRequest(`${base}/`)).status).toBe(404);
    expect((await httpRequest(`${base}/metrics/x`)).status).toBe(404);
    const post = await httpRequest(`${base}/metrics`, { method: 'POST', body: Buffer.alloc(4096, 0x61) });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect((await httpRequest(`${base}/health`, { method: 'DELETE' })).status).toBe(405);
    const head = await httpRequest(`${base}/metrics`, { method: 'HEAD' });
    expect([head.status, head.body]).toEqual([200, '']);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect((await httpRequest(`${base}/metrics?name=x`)).status).toBe(200);
  });

  test('a body past the bound closes the connection before it is all sent', async () => {
    const metrics = await metricsFor(() => null);
    const socket = net.connect(metrics.port, '127.0.0.1');
    env.track({ close: () => socket.destroy() });
    const total = 64 * 1024 * 1024;
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(`POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: ${total}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    while (sent < total && !socket.destroyed) {
      sent += chunk.length;
      if (!socket.write(chunk)) await Promise.race([new Promise((r) => socket.once('drain', r)), closed]);
    }
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(sent).toBeLessThan(total);
  });

  test('close() ends idle and keep-alive connections too', async () => {
    const metrics = new MetricsServer(() => null, { host: '127.0.0.1', port: 0 });
    await metrics.start();
    const idle = net.connect(metrics.port, '127.0.0.1');
    const keptAlive = net.connect(metrics.port, '127.0.0.1');
    const closes = [idle, keptAlive].map(
      (socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())),
    );
    await new Promise<void>((resolve) => idle.once('connect', () => resolve()));
    keptAlive.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise<void>((resolve) => keptAlive.once('data', () => resolve()));
    await metrics.close();
    await Promise.all(closes);
    expect(() => metrics.port).toThrow(/not listening/);
  });

  test('a blocked event loop shows in a scrape', async () => {
    const metrics = await metricsFor(() => null);
    await scrape(metrics);
    // Node's monitor measures from its previous tick, and a scrape's reset clears that: one tick
    // (10 ms) must pass before the stall, or the stall is where the clock starts again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const until = performance.now() + 150;
    while (performance.now() < until);
    // The monitor records the delay when its timer next runs: poll (a scrape only resets what it read).
    let seen = 0;
    const deadline = Date.now() + 5000;
    while (seen < 0.1 && Date.now() < deadline) {
      seen = Math.max(seen, (await scrape(metrics)).get('nodejs_eventloop_lag_max_seconds') ?? 0);
    }
    expect(seen).toBeGreaterThanOrEqual(0.1);
  });

  test('close() while start() listens leaves nothing listening', async () => {
    const metrics = new MetricsServer(() => null, { host: '127.0.0.1', port: 0 });
    const started = metrics.start();
    await metrics.close();
    await started;
    expect(() => metrics.port).toThrow(/not listening/);
    await expect(metrics.start()).resolves.toBeUndefined();
    await metrics.close();
  });

  test('a failing collection is answered 500 and the server carries on', async () => {
    const broker = await env.startBroker({});
    let fail = true;
    const metrics = await metricsFor(() => {
      if (fail) throw new Error('collection exploded');
      return broker;
    });
    const failed = await httpRequest(metrics.url);
    expect([failed.status, failed.body]).toEqual([500, 'internal error: collection exploded\n']);
    fail = false;
    expect((await scrape(metrics)).get('hornetq_broker_started')).toBe(1);
  });

  test('options out of range are refused, naming the option', () => {
    expect(() => new MetricsServer(() => null, { port: 70_000 })).toThrow(
      'metrics port must be an integer in 0..65535 (actual value: 70000)',
    );
    expect(() => new MetricsServer(() => null, { host: ' ' })).toThrow(/metrics host must name a host/);
    expect(() => new MetricsServer(() => null, { port: -1, maxConnections: 0 })).toThrow(
      expect.objectContaining({
        name: 'RangeError',
        code: 'ERR_INVALID_ARG_VALUE',
        message: expect.stringMatching(/metrics port .*; metrics maxConnections must be an integer in 1\.\./),
      }),
    );
  });

  test('a port in use is refused with the address', async () => {
    const first = await metricsFor(() => null);
    const second = new MetricsServer(() => null, { port: first.port });
    await expect(second.start()).rejects.toThrow(
      `the metrics server cannot listen on 127.0.0.1:${first.port}`,
    );
  });
});

test('a scrape with 10 000 queues has every queue in it', async () => {
  const names = Array.from({ length: 10_000 }, (_, i) => `jms.queue.q${i}`);
  const broker = await env.startBroker({
    queues: names.map((name) => ({ name, address: name, filter: null, durable: false })),
  });
  const metrics = await metricsFor(broker);
  const samples = await scrape(metrics);
  const messages = [...samples.keys()].filter((name) => name.startsWith('hornetq_queue_messages{'));
  expect(messages).toHaveLength(10_000);
  expect(samples.get(ofQueue('hornetq_queue_messages', 'jms.queue.q9999', 'q9999'))).toBe(0);
});
