import net from 'node:net';
import { HORNETQ_PREAMBLE } from '../../../src/core/protocol';
import { HttpHeadReader, MAX_HTTP_HEAD_BYTES, parseHttpHead } from '../../../src/core/remoting/http-head';
import {
  ClientUpgradeHandshake,
  checkUpgradeResponse,
  newUpgradeKey,
  upgradeAcceptKey,
  upgradeRequest,
} from '../../../src/core/remoting/http-upgrade';
import { TcpTransport } from '../../../src/core/remoting/tcp-transport';

const HOST = '127.0.0.1';

/**
 * The client's half of the HTTP upgrade (HornetQ's NettyConnector with http-upgrade-enabled),
 * against fake endpoints on loopback that answer as told.
 */
describe('HTTP upgrade, client side', () => {
  const servers: net.Server[] = [];
  const sockets: net.Socket[] = [];
  const transports: TcpTransport[] = [];

  afterEach(async () => {
    for (const transport of transports.splice(0)) transport.destroy();
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  /**
   * A server that hands each request head it reads (and what follows, as it comes) to `answer`,
   * which writes to the socket what the test wants.
   */
  async function fakeEndpoint(
    answer: (socket: net.Socket, request: { head: string; key: string }) => void,
  ): Promise<{ port: number; received: Promise<Buffer> }> {
    let deliver: (bytes: Buffer) => void = () => undefined;
    const received = new Promise<Buffer>((resolve) => {
      deliver = resolve;
    });
    const server = net.createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
      let gathered = Buffer.alloc(0);
      let answered = false;
      socket.on('data', (chunk: Buffer) => {
        gathered = Buffer.concat([gathered, chunk]);
        const end = gathered.indexOf('\r\n\r\n');
        if (end === -1) return;
        if (!answered) {
          answered = true;
          const head = gathered.toString('latin1', 0, end);
          const key = /^Sec-HornetQRemoting-Key: (.*)$/m.exec(head)?.[1] ?? '';
          answer(socket, { head, key });
        }
        deliver(gathered);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
    return { port: (server.address() as net.AddressInfo).port, received };
  }

  const switching = (accept: string, protocol = 'hornetq-remoting'): string =>
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${protocol}\r\nConnection: Upgrade\r\nSec-HornetQRemoting-Accept: ${accept}\r\n\r\n`;

  async function upgrade(
    port: number,
    options: { endpoint?: string; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<TcpTransport> {
    const transport = await TcpTransport.connect(HOST, port, options.timeoutMs ?? 5_000, options.signal, {
      host: HOST,
      port,
      endpoint: options.endpoint,
    });
    transports.push(transport);
    return transport;
  }

  const failureOf = (promise: Promise<unknown>): Promise<string> =>
    promise.then(
      () => 'connected',
      (error: unknown) => String(error instanceof Error ? error.message : error),
    );

  test("the accept key is base64(SHA-1(key + HornetQ's GUID)): a vector computed apart", () => {
    expect(upgradeAcceptKey('dGhlIHNhbXBsZSBub25jZQ==')).toBe('EAlhVKUpEU1S1v+cZDryAnMkQFw=');
  });

  test('a key is 16 random bytes in base64', () => {
    const key = newUpgradeKey();
    expect(Buffer.from(key, 'base64')).toHaveLength(16);
    expect(newUpgradeKey()).not.toBe(key);
  });

  test("the request is HornetQ's: GET /, Upgrade, Connection, the key, the endpoint; then 101 and the preamble", async () => {
    const endpoint = await fakeEndpoint((socket, { key }) => socket.write(switching(upgradeAcceptKey(key))));
    const transport = await upgrade(endpoint.port, { endpoint: 'http-acceptor' });
    const bytes = await endpoint.received;
    const end = bytes.indexOf('\r\n\r\n') + 4;
    const lines = bytes.toString('latin1', 0, end - 4).split('\r\n');
    expect(lines[0]).toBe('GET / HTTP/1.1');
    expect(lines).toEqual(
      expect.arrayContaining([
        `Host: ${HOST}:${endpoint.port}`,
        'Upgrade: hornetq-remoting',
        'Connection: Upgrade',
        'http-upgrade-endpoint: http-acceptor',
      ]),
    );
    const key = lines.find((line) => line.startsWith('Sec-HornetQRemoting-Key: '))?.slice(25) ?? '';
    expect(Buffer.from(key, 'base64')).toHaveLength(16);
    // The preamble follows the upgrade, as HornetQ's connector writes it once the channel is active.
    const after = bytes.length > end ? bytes.subarray(end) : await nextBytes(endpoint);
    expect(after.subarray(0, HORNETQ_PREAMBLE.length)).toEqual(HORNETQ_PREAMBLE);
    expect(transport.closed).toBe(false);
  });

  /** What the fake endpoint's socket receives next, once the head has come. */
  function nextBytes(endpoint: { received: Promise<Buffer> }): Promise<Buffer> {
    return endpoint.received.then(
      () =>
        new Promise<Buffer>((resolve) => {
          const socket = sockets[sockets.length - 1] as net.Socket;
          socket.once('data', resolve);
        }),
    );
  }

  test('a refusal names the status line, the connector and the endpoint', async () => {
    const endpoint = await fakeEndpoint((socket) =>
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'),
    );
    expect(await failureOf(upgrade(endpoint.port, { endpoint: 'nowhere' }))).toBe(
      `HTTP upgrade at tcp://${HOST}:${endpoint.port} (http-upgrade-endpoint 'nowhere') failed: it refused the HTTP upgrade to hornetq-remoting: "HTTP/1.1 404 Not Found"`,
    );
  });

  test('a wrong accept key is refused: the endpoint did not read our key', async () => {
    const endpoint = await fakeEndpoint((socket) => socket.write(switching(upgradeAcceptKey('another key'))));
    expect(await failureOf(upgrade(endpoint.port))).toMatch(
      /failed: its Sec-HornetQRemoting-Accept ".*" is not the answer to the key sent/,
    );
  });

  test('a 101 to another protocol (websocket) is refused', async () => {
    const endpoint = await fakeEndpoint((socket, { key }) =>
      socket.write(switching(upgradeAcceptKey(key), 'websocket')),
    );
    expect(await failureOf(upgrade(endpoint.port))).toMatch(
      /failed: it switched to "websocket", not hornetq-remoting/,
    );
  });

  test('endless headers stop at the bound, long before the timeout', async () => {
    const endpoint = await fakeEndpoint((socket) => {
      socket.write('HTTP/1.1 101 Switching Protocols\r\n');
      const line = `X-Filler: ${'x'.repeat(1000)}\r\n`;
      for (let i = 0; i < 20; i++) socket.write(line);
    });
    const started = Date.now();
    expect(await failureOf(upgrade(endpoint.port, { timeoutMs: 20_000 }))).toMatch(
      new RegExp(`failed: its HTTP head goes beyond ${MAX_HTTP_HEAD_BYTES} bytes without ending`),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('no answer: the connect timeout covers the upgrade', async () => {
    const endpoint = await fakeEndpoint(() => undefined);
    expect(await failureOf(upgrade(endpoint.port, { timeoutMs: 300 }))).toMatch(
      /failed: no answer within the connect timeout \(300 ms\)/,
    );
  });

  test('a server that closes without answering', async () => {
    const endpoint = await fakeEndpoint((socket) => socket.end());
    expect(await failureOf(upgrade(endpoint.port))).toMatch(
      /failed: it closed the connection without answering/,
    );
  });

  test('an abort during the upgrade rejects with its reason and closes the socket', async () => {
    const controller = new AbortController();
    let closed: Promise<void> = Promise.resolve();
    const endpoint = await fakeEndpoint((socket) => {
      closed = new Promise((resolve) => socket.once('close', () => resolve()));
      controller.abort(new Error('stopped by the test'));
    });
    expect(await failureOf(upgrade(endpoint.port, { signal: controller.signal }))).toBe(
      'stopped by the test',
    );
    await closed;
  });

  test('bytes after the 101 before the client spoke are refused (a core server never speaks first)', async () => {
    const endpoint = await fakeEndpoint((socket, { key }) =>
      socket.write(`${switching(upgradeAcceptKey(key))}HORNETQ`),
    );
    expect(await failureOf(upgrade(endpoint.port))).toMatch(/failed: it sent 7 bytes after its 101 answer/);
  });

  test('the handshake with a fixed random source: the exact request, then a 101 split over chunks', () => {
    const handshake = new ClientUpgradeHandshake(
      { host: '::1', port: 8080, endpoint: 'http-acceptor' },
      (size) => Buffer.alloc(size, 7),
    );
    const key = Buffer.alloc(16, 7).toString('base64');
    expect(handshake.requestBytes().toString('latin1')).toBe(
      'GET / HTTP/1.1\r\nHost: [::1]:8080\r\nUpgrade: hornetq-remoting\r\nConnection: Upgrade\r\n' +
        `Sec-HornetQRemoting-Key: ${key}\r\nhttp-upgrade-endpoint: http-acceptor\r\n\r\n`,
    );
    const answer = Buffer.from(
      `HTTP/1.1 101 Switching Protocols\r\nupgrade: HornetQ-Remoting\r\nsec-hornetqremoting-accept: ${upgradeAcceptKey(key)}\r\n\r\n`,
    );
    expect(handshake.take(answer.subarray(0, 20))).toBe(false);
    expect(handshake.take(answer.subarray(20))).toBe(true);
  });

  test('an endpoint with a line break cannot split the request', () => {
    expect(() => upgradeRequest({ host: HOST, port: 1, endpoint: 'a\r\nX-Evil: 1' }, 'k')).toThrow(
      /http-upgrade-endpoint ".*" must be printable ASCII/,
    );
  });

  test('the head reader: split chunks, what follows kept, binary refused, bound kept', () => {
    const reader = new HttpHeadReader(64);
    expect(reader.push(Buffer.from('HTTP/1.1 101 OK\r\nUpgrade: a\r'))).toBeNull();
    const done = reader.push(Buffer.from('\n\r\nrest'));
    expect(done?.head.headers.get('upgrade')).toBe('a');
    expect(done?.rest.toString()).toBe('rest');
    expect(() => new HttpHeadReader().push(Buffer.from('HORNETQ\u0000\u0000\u0000\u0020'))).toThrow(
      /byte 0x00 where an HTTP head was expected/,
    );
    const small = new HttpHeadReader(16);
    expect(() => small.push(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n'))).toThrow(/beyond 16 bytes/);
    expect(small.overflowed).toBe(true);
    expect(() => parseHttpHead('GET / HTTP/1.1\r\n folded')).toThrow(/malformed header line/);
  });

  test('a status line that is not HTTP is named', () => {
    expect(() => checkUpgradeResponse(parseHttpHead('SSH-2.0-OpenSSH'), 'k')).toThrow(
      /answered with "SSH-2.0-OpenSSH", not an HTTP status line/,
    );
  });
});
