import { connect, createServer, type Server, type Socket } from 'node:net';
import { FaultProxy, seededRandom } from './fault-proxy';
import { sleep } from './wait';

/** Generous: the CI machines are shared and have 2 cores. */
const DEADLINE_MS = 5000;
/** How long "nothing happens" is watched for in the black-hole and stall tests. */
const QUIET_MS = 400;

/** What one end of a TCP connection observed. */
class Peer {
  received = Buffer.alloc(0);
  ended = false;
  closed = false;
  errorCode: string | undefined;

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => (this.received = Buffer.concat([this.received, chunk])));
    socket.on('end', () => (this.ended = true));
    socket.on('close', () => (this.closed = true));
    socket.on('error', (error: NodeJS.ErrnoException) => (this.errorCode ??= error.code));
  }

  get text(): string {
    return this.received.toString('latin1');
  }
}

type Behaviour = 'echo' | 'sink' | { readonly greeting: Buffer };

/** The target: echoes, swallows, or greets, and records what each connection saw. */
class TestServer {
  private constructor(
    private readonly server: Server,
    readonly port: number,
    readonly connections: readonly Peer[],
  ) {}

  static async start(behaviour: Behaviour): Promise<TestServer> {
    const connections: Peer[] = [];
    const server = createServer((socket) => {
      const peer = new Peer(socket);
      connections.push(peer);
      if (behaviour === 'echo') socket.on('data', (chunk: Buffer) => socket.destroyed || socket.write(chunk));
      else if (behaviour !== 'sink') socket.write(behaviour.greeting);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    return new TestServer(server, address.port, connections);
  }

  close(): Promise<void> {
    for (const peer of this.connections) peer.socket.destroy();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startTarget(behaviour: Behaviour = 'echo'): Promise<TestServer> {
  const target = await TestServer.start(behaviour);
  cleanups.push(() => target.close());
  return target;
}

async function startProxy(target: TestServer, maxQueuedBytesPerLink?: number): Promise<FaultProxy> {
  const proxy = await FaultProxy.start({
    targetHost: '127.0.0.1',
    targetPort: target.port,
    ...(maxQueuedBytesPerLink === undefined ? {} : { maxQueuedBytesPerLink }),
  });
  cleanups.push(() => proxy.close());
  return proxy;
}

/** Opens a client without waiting for it to connect (a refused connection may never count as one). */
function openClient(port: number): Peer {
  const peer = new Peer(connect({ host: '127.0.0.1', port }));
  cleanups.push(() => closeSocket(peer.socket));
  return peer;
}

async function connectClient(port: number): Promise<Peer> {
  const peer = openClient(port);
  await new Promise<void>((resolve, reject) => {
    peer.socket.once('connect', resolve);
    peer.socket.once('error', reject);
  });
  return peer;
}

function closeSocket(socket: Socket): Promise<void> {
  if (socket.closed) return Promise.resolve();
  return new Promise<void>((resolve) => socket.destroy().once('close', () => resolve()));
}

/** Polls until `condition` holds; fails the test with `what` after the deadline. */
async function eventually(condition: () => boolean, what: string, timeoutMs = DEADLINE_MS): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * The connection failed after the bytes it got. Usually as ECONNRESET; but when the last bytes and
 * the RST reach a peer in the same poll, libuv reports EOF instead, so 'end' counts too.
 */
function brokenAfterData(peer: Peer): boolean {
  return peer.closed && (peer.errorCode === 'ECONNRESET' || peer.ended);
}

async function expectEcho(client: Peer, data: string): Promise<void> {
  const before = client.text;
  client.socket.write(data);
  await eventually(() => client.text === before + data, `echo of ${JSON.stringify(data)}`);
}

describe('FaultProxy', () => {
  test('pass() relays both ways and counts connections and bytes', async () => {
    const target = await startTarget();
    const proxy = await startProxy(target);
    const connections: number[] = [];
    proxy.on('connection', (id) => connections.push(id));

    const client = await connectClient(proxy.port);
    await expectEcho(client, 'hello');

    expect(proxy.port).toBeGreaterThan(0);
    expect(proxy.connectionsAccepted).toBe(1);
    expect(proxy.activeLinks).toBe(1);
    expect(proxy.bytesToServer).toBe(5);
    expect(proxy.bytesToClient).toBe(5);
    expect(connections).toEqual([1]);
  });

  test('cut() resets both sides at once and leaves later connections working', async () => {
    const target = await startTarget();
    const proxy = await startProxy(target);
    const client = await connectClient(proxy.port);
    await expectEcho(client, 'before');

    expect(proxy.cut()).toBe(1);

    await eventually(() => client.errorCode === 'ECONNRESET', 'ECONNRESET at the client');
    await eventually(() => target.connections[0]?.errorCode === 'ECONNRESET', 'ECONNRESET at the server');
    await eventually(() => proxy.activeLinks === 0, 'the link to close');
    expect(proxy.linksReset).toBe(1);
    await expectEcho(await connectClient(proxy.port), 'after');
  });

  test('halfClose() sends FIN to the client, not RST', async () => {
    const target = await startTarget();
    const proxy = await startProxy(target);
    const client = await connectClient(proxy.port);
    await expectEcho(client, 'x');

    proxy.halfClose();

    await eventually(() => client.ended, "'end' at the client");
    await eventually(() => client.closed, 'the client socket to close');
    expect(client.errorCode).toBeUndefined();
    await eventually(() => proxy.activeLinks === 0, 'the link to close');
  });

  test('blackHole() drops bytes silently and keeps the link open; pass() relays new bytes', async () => {
    const target = await startTarget();
    const proxy = await startProxy(target);
    const client = await connectClient(proxy.port);
    await expectEcho(client, 'a');

    proxy.blackHole();
    client.socket.write('lost');
    await sleep(QUIET_MS);

    expect(client.text).toBe('a');
    expect(client.ended || client.closed).toBe(false);
    expect(client.errorCode).toBeUndefined();
    expect(target.connections[0]?.text).toBe('a');
    expect(proxy.bytesDropped).toBe(4);

    proxy.pass();
    await expectEcho(client, 'new');
    expect(client.text).toBe('anew');
  });

  test('blackHole() holds back a FIN until pass()', async () => {
    const target = await startTarget('sink');
    const proxy = await startProxy(target);
    const client = await connectClient(proxy.port);
    await proxy.waitUntil(() => target.connections.length === 1, DEADLINE_MS, 'the server connection');

    proxy.blackHole();
    client.socket.end();
    await sleep(QUIET_MS);
    expect(target.connections[0]?.ended).toBe(false);

    proxy.pass();
    await eventually(() => target.connections[0]?.ended === true, "'end' at the server");
  });

  test('cut() after a FIN held back by a black hole was released still closes the link (no leaked link)', async () => {
    const target = await startTarget('sink');
    const proxy = await startProxy(target);
    const client = await connectClient(proxy.port);
    await proxy.waitUntil(() => target.connections.length === 1, DEADLINE_MS, 'the server connection');

    proxy.blackHole();
    target.connections[0]?.socket.end();
    await sleep(50);
    // pass() forwards the FIN (the proxy ends its client socket); the cut right after must still
    // close that socket although it can no longer send an RST.
    proxy.pass();
    proxy.cut();
    await eventually(() => client.closed, 'the client to be closed');
    await proxy.waitUntil(() => proxy.activeLinks === 0, DEADLINE_MS, 'no link left');
  });

  test('delay(ms) adds at least the delay each way and keeps order', async () => {
    const target = await startTarget();
    const proxy = await startProxy(target);
    const client = await connectClient(proxy.port);
    await expectEcho(client, 'warm');
    const delayMs = 150;

    proxy.delay(delayMs);
    const started = performance.now();
    await expectEcho(client, 'ping');
    const roundTrip = performance.now() - started;

    // Each direction holds a chunk for delayMs; 1 ms covers timer rounding.
    expect(roundTrip).toBeGreaterThanOrEqual(2 * delayMs - 1);

    const parts = Array.from({ length: 20 }, (_, i) => `<${i}>`);
    for (const part of parts) {
      client.socket.write(part);
      await sleep(2);
    }
    proxy.pass();
    await eventually(() => client.text === 'warmping' + parts.join(''), 'all parts in order');
  });

  test('delay mode bounds the bytes queued per link with backpressure', async () => {
    const target = await startTarget();
    const bound = 64 * 1024;
    const proxy = await startProxy(target, bound);
    const client = await connectClient(proxy.port);
    const payload = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < payload.length; i++) payload[i] = (i * 31) & 0xff;

    proxy.delay(20);
    client.socket.write(payload);

    await eventually(() => client.received.length === payload.length, 'the whole payload back', 30_000);
    expect(client.received.equals(payload)).toBe(true);
    // A socket read delivers at most 64 KiB, so the queue may exceed the bound by one chunk.
    expect(proxy.peakQueuedBytes).toBeLessThanOrEqual(bound + 64 * 1024);
    expect(proxy.peakQueuedBytes).toBeGreaterThan(0);
  });

  test("cutAfterBytes(n, 'toServer') relays exactly n bytes then resets", async () => {
    const target = await startTarget('sink');
    const proxy = await startProxy(target);
    const resets: string[] = [];
    proxy.on('reset', (_id, reason) => resets.push(reason));
    const client = await connectClient(proxy.port);
    await proxy.waitUntil(() => target.connections.length === 1, DEADLINE_MS, 'the server connection');

    proxy.cutAfterBytes(10, 'toServer');
    client.socket.write('abcdefghijklmnopqrstuvwxy');

    await eventually(() => client.errorCode === 'ECONNRESET', 'ECONNRESET at the client');
    const server = target.connections[0];
    await eventually(() => server !== undefined && brokenAfterData(server), 'the server connection to break');
    expect(server?.text).toBe('abcdefghij');
    expect(proxy.bytesToServer).toBe(10);
    expect(resets).toEqual(['cutAfterBytes']);
  });

  test("cutAfterBytes(n, 'toClient') splits what the server sends", async () => {
    const greeting = Buffer.from('0123456789'.repeat(10));
    const target = await startTarget({ greeting });
    const proxy = await startProxy(target);

    proxy.cutAfterBytes(37, 'toClient');
    const client = openClient(proxy.port);

    await eventually(() => brokenAfterData(client), 'the client connection to break');
    expect(client.received.equals(greeting.subarray(0, 37))).toBe(true);
    expect(proxy.bytesToClient).toBe(37);
  });

  test('cutAfterBytes(n) counts both directions; resetting to pass() on the event lets one link fail', async () => {
    const target = await startTarget();
    const proxy = await startProxy(target);
    proxy.cutAfterBytes(10);
    proxy.once('reset', () => proxy.pass());
    const client = await connectClient(proxy.port);

    client.socket.write('123456');

    await eventually(() => brokenAfterData(client), 'the client connection to break');
    expect(client.text).toBe('1234');
    await expectEcho(await connectClient(proxy.port), 'whole again');
    expect(proxy.linksReset).toBe(1);
  });

  test('refuseNewConnections() resets new connections while existing links keep working', async () => {
    const target = await startTarget();
    const proxy = await startProxy(target);
    const old = await connectClient(proxy.port);
    await expectEcho(old, 'one');

    proxy.refuseNewConnections();
    const refused = openClient(proxy.port);

    await eventually(() => refused.errorCode === 'ECONNRESET', 'ECONNRESET at the new client');
    await expectEcho(old, 'two');
    expect(proxy.connectionsRefused).toBe(1);
    expect(proxy.connectionsAccepted).toBe(1);

    proxy.pass();
    await expectEcho(await connectClient(proxy.port), 'three');
  });

  test('refuseNewConnections(forMs) stops refusing after forMs', async () => {
    const target = await startTarget();
    const proxy = await startProxy(target);
    const forMs = 300;

    proxy.refuseNewConnections(forMs);
    const started = performance.now();
    const refused = openClient(proxy.port);
    await eventually(() => refused.errorCode === 'ECONNRESET', 'ECONNRESET at the new client');

    await sleep(Math.max(0, started + forMs + 50 - performance.now()));
    await expectEcho(await connectClient(proxy.port), 'welcome back');
  });

  test('stall() holds bytes without dropping them until pass()', async () => {
    const target = await startTarget();
    const proxy = await startProxy(target);
    const client = await connectClient(proxy.port);
    await expectEcho(client, 'a');

    proxy.stall();
    client.socket.write('held');
    await sleep(QUIET_MS);
    expect(client.text).toBe('a');
    expect(client.closed).toBe(false);

    proxy.pass();
    await eventually(() => client.text === 'aheld', 'the held bytes');
    expect(proxy.bytesDropped).toBe(0);
  });

  test('a target that refuses connections shows up as a reset at the client', async () => {
    const gone = await TestServer.start('echo');
    const port = gone.port;
    await gone.close();
    const proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: port });
    cleanups.push(() => proxy.close());

    const client = openClient(proxy.port);

    await eventually(() => client.errorCode === 'ECONNRESET', 'ECONNRESET at the client');
    await eventually(() => proxy.activeLinks === 0, 'the link to close');
  });

  test('waitForConnections() resolves on the count and rejects after its deadline', async () => {
    const target = await startTarget();
    const proxy = await startProxy(target);

    openClient(proxy.port);
    openClient(proxy.port);
    await proxy.waitForConnections(2, DEADLINE_MS);

    await expect(proxy.waitForConnections(3, 100)).rejects.toThrow(
      'timed out after 100 ms waiting for 3 connections',
    );
  });

  test('close() frees every socket, ends schedules and waits, and is idempotent', async () => {
    const target = await startTarget();
    const proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: target.port });
    const quiet = await connectClient(proxy.port);
    const busy = await connectClient(proxy.port);
    await expectEcho(busy, 'a');
    proxy.delay(60_000);
    busy.socket.write('queued for a minute');
    const waiting = proxy.waitUntil(() => false, 60_000, 'never');
    const schedule = proxy.randomCuts({ seed: 7, meanIntervalMs: 60_000, log: () => undefined });

    await proxy.close();

    await expect(waiting).rejects.toThrow('FaultProxy closed while waiting for never');
    await expect(schedule.done).resolves.toBe(0);
    expect(proxy.activeLinks).toBe(0);
    await eventually(() => quiet.closed && busy.closed, 'both clients to close');
    await eventually(() => target.connections.every((peer) => peer.closed), 'server sockets to close');
    const late = openClient(proxy.port);
    await eventually(() => late.errorCode === 'ECONNREFUSED', 'ECONNREFUSED after close');
    await expect(proxy.close()).resolves.toBeUndefined();
    expect(() => proxy.randomCuts({ meanIntervalMs: 10 })).toThrow('after close()');
  });

  test('randomCuts() prints its seed, cuts links on a bounded schedule and can be stopped', async () => {
    const target = await startTarget();
    const proxy = await startProxy(target);
    const client = await connectClient(proxy.port);
    const lines: string[] = [];

    const cuts = proxy.randomCuts({
      seed: 1234,
      meanIntervalMs: 20,
      maxCuts: 3,
      log: (line) => lines.push(line),
    });

    await expect(cuts.done).resolves.toBe(3);
    expect(cuts.seed).toBe(1234);
    expect(lines.join('\n')).toContain('seed=1234');
    expect(cuts.linksCut).toBe(1);
    await eventually(() => client.errorCode === 'ECONNRESET', 'ECONNRESET at the client');

    const endless = proxy.randomCuts({ meanIntervalMs: 60_000, log: (line) => lines.push(line) });
    endless.stop();
    await expect(endless.done).resolves.toBe(0);
    expect(lines[1]).toMatch(/seed=\d+/);
  });

  test('seededRandom() replays the same sequence for the same seed', () => {
    const draw = (seed: number): number[] => {
      const random = seededRandom(seed);
      return Array.from({ length: 5 }, () => random());
    };

    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    for (const value of draw(42)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  test('options and mode arguments are validated with the name and the value', async () => {
    await expect(
      FaultProxy.start({ targetHost: '127.0.0.1', targetPort: 1, listenHost: '0.0.0.0' }),
    ).rejects.toThrow('listenHost must be a loopback address (127.x.x.x, ::1, localhost), got 0.0.0.0');
    await expect(FaultProxy.start({ targetHost: '127.0.0.1', targetPort: 70000 })).rejects.toThrow(
      'targetPort must be an integer between 1 and 65535, got 70000',
    );
    const target = await startTarget();
    const proxy = await startProxy(target);
    expect(() => proxy.delay(-1)).toThrow('delay ms must be a finite number >= 0, got -1');
    expect(() => proxy.cutAfterBytes(1.5)).toThrow('cutAfterBytes bytes must be an integer');
    expect(() => proxy.refuseNewConnections(Number.NaN)).toThrow('forMs');
  });
});
