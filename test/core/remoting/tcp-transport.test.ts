import net from 'node:net';
import { types } from 'node:util';
import { PacketType } from '../../../src/core/protocol/packet-type';
import { silentLogger } from '../../../src/core/remoting/logger';
import { RemotingConnection } from '../../../src/core/remoting/remoting-connection';
import { HORNETQ_PREAMBLE } from '../../../src/core/protocol';
import { TcpTransport } from '../../../src/core/remoting/tcp-transport';

const HOST = '127.0.0.1';

interface Server {
  server: net.Server;
  port: number;
  /** The next socket the server accepts; call it before connecting. */
  nextSocket(): Promise<net.Socket>;
}

const servers: net.Server[] = [];
const acceptedSockets: net.Socket[] = [];
const transports: TcpTransport[] = [];

async function startServer(): Promise<Server> {
  const waiters: Array<(socket: net.Socket) => void> = [];
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    acceptedSockets.push(socket);
    waiters.shift()?.(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { server, port, nextSocket: () => new Promise((resolve) => waiters.push(resolve)) };
}

async function connect(port: number): Promise<TcpTransport> {
  const transport = await TcpTransport.connect(HOST, port, 5000);
  transports.push(transport);
  return transport;
}

/** Resolves with everything `socket` receives once `bytes` bytes have arrived. */
function readBytes(socket: net.Socket, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= bytes) {
        socket.off('data', onData);
        resolve(Buffer.concat(chunks));
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed after ${total} of ${bytes} bytes`)));
  });
}

function frame(seed: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  for (let i = 0; i < length; i++) buffer[i] = (seed * 31 + i) & 0xff;
  return buffer;
}

/**
 * A transport connected to a server, and the server's side of the connection with the client's
 * HORNETQ preamble already read (nothing else is written before the test writes).
 */
async function connectedPair(): Promise<{ transport: TcpTransport; peer: net.Socket }> {
  const { port, nextSocket } = await startServer();
  const accepted = nextSocket();
  const transport = await connect(port);
  const peer = await accepted;
  expect((await readBytes(peer, HORNETQ_PREAMBLE.length)).toString('latin1')).toBe('HORNETQ');
  return { transport, peer };
}

/** Installs handlers that record each onClose; `closed` resolves at the first. */
function recordCloses(transport: TcpTransport): { closes: Array<Error | undefined>; closed: Promise<void> } {
  const closes: Array<Error | undefined> = [];
  const closed = new Promise<void>((resolve) =>
    transport.setHandlers({
      onData: () => undefined,
      onClose: (error) => {
        closes.push(error);
        resolve();
      },
    }),
  );
  return { closes, closed };
}

afterEach(async () => {
  jest.useRealTimers();
  for (const transport of transports.splice(0)) transport.destroy();
  for (const socket of acceptedSockets.splice(0)) socket.destroy();
  await Promise.all(
    servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
});

describe('TcpTransport', () => {
  it('a client connection writes the 7 bytes HORNETQ before anything else, as HornetQ clients do', async () => {
    const { port, nextSocket } = await startServer();
    const accepted = nextSocket();
    const transport = await connect(port);
    transport.setHandlers({ onData: () => undefined, onClose: () => undefined });
    const first = frame(1, 20);
    transport.write(first);
    const peer = await accepted;
    const received = await readBytes(peer, 7 + first.length);
    expect(received.subarray(0, 7).toString('latin1')).toBe('HORNETQ');
    expect(received.subarray(7).equals(first)).toBe(true);
  });

  it('a server-side transport (an accepted socket) writes no preamble', async () => {
    const peerTransports: TcpTransport[] = [];
    const server = net.createServer((socket) => peerTransports.push(new TcpTransport(socket)));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
    const client = net.connect({ host: HOST, port: (server.address() as net.AddressInfo).port });
    acceptedSockets.push(client);
    client.on('error', () => undefined);
    await new Promise<void>((resolve) => client.once('connect', resolve));
    const received = readBytes(client, 3);
    for (let turn = 0; turn < 10_000 && peerTransports.length === 0; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const accepted = peerTransports[0] as TcpTransport;
    transports.push(accepted);
    accepted.setHandlers({ onData: () => undefined, onClose: () => undefined });
    accepted.write(Buffer.from([1, 2, 3]));
    expect([...(await received)]).toEqual([1, 2, 3]);
  });

  it('hands frames that lie side by side (one slab) to the socket as one view, uncopied', async () => {
    const { transport, peer } = await connectedPair();
    transport.setHandlers({ onData: () => undefined, onClose: () => undefined });
    const socketWrite = jest.spyOn((transport as unknown as { socket: net.Socket }).socket, 'write');
    const slab = Buffer.concat([frame(1, 17), frame(2, 3000), frame(3, 1)]);
    const frames = [slab.subarray(0, 17), slab.subarray(17, 3017), slab.subarray(3017)];
    const received = readBytes(peer, slab.length);
    for (const f of frames) transport.write(f);
    expect(transport.pendingBytes).toBe(slab.length);
    expect(socketWrite).not.toHaveBeenCalled();
    expect((await received).equals(slab)).toBe(true);
    expect(socketWrite).toHaveBeenCalledTimes(1);
    const written = socketWrite.mock.calls[0]?.[0] as Buffer;
    expect(written.buffer).toBe(slab.buffer);
  });

  it('hands frames from different buffers to the socket corked, in one go, all bytes in order', async () => {
    const { transport, peer } = await connectedPair();
    transport.setHandlers({ onData: () => undefined, onClose: () => undefined });
    const socket = (transport as unknown as { socket: net.Socket }).socket;
    const cork = jest.spyOn(socket, 'cork');
    const slab = Buffer.concat([frame(4, 10), frame(5, 20)]);
    const frames = [frame(1, 17), frame(2, 3000), slab.subarray(0, 10), slab.subarray(10), frame(3, 1)];
    const expected = Buffer.concat(frames);
    const received = readBytes(peer, expected.length);
    for (const f of frames) transport.write(f);
    expect((await received).equals(expected)).toBe(true);
    expect(cork).toHaveBeenCalledTimes(1);
  });

  it('delivers everything a peer sends, in order, however it is chunked', async () => {
    const { transport, peer } = await connectedPair();
    const chunks: Buffer[] = [];
    const expected = Buffer.concat([frame(7, 100_000), frame(8, 5), frame(9, 70_000)]);
    const done = new Promise<void>((resolve) => {
      let total = 0;
      transport.setHandlers({
        onData: (chunk) => {
          chunks.push(Buffer.from(chunk));
          total += chunk.length;
          if (total >= expected.length) resolve();
        },
        onClose: () => undefined,
      });
    });
    peer.write(expected.subarray(0, 50_000));
    peer.write(expected.subarray(50_000));
    await done;
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
  });

  it('close() sends what is queued, then closes cleanly', async () => {
    const { transport, peer } = await connectedPair();
    const { closes, closed } = recordCloses(transport);
    const peerData: Buffer[] = [];
    peer.on('data', (chunk: Buffer) => peerData.push(chunk));
    const peerEnded = new Promise<void>((resolve) => peer.once('end', resolve));
    const payload = frame(4, 2048);
    transport.write(payload);
    transport.close();
    await peerEnded;
    expect(Buffer.concat(peerData).equals(payload)).toBe(true);
    peer.end();
    await closed;
    expect(closes).toEqual([undefined]);
    expect(transport.closed).toBe(true);
  });

  it('calls onClose once, with the error, when the peer resets the connection', async () => {
    const { transport, peer } = await connectedPair();
    const { closes, closed } = recordCloses(transport);
    peer.resetAndDestroy();
    await closed;
    // Give any second notification a chance to arrive.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closes).toHaveLength(1);
    // Node's socket errors come from another realm than jest's Error, hence no toBeInstanceOf.
    expect(types.isNativeError(closes[0])).toBe(true);
    expect((closes[0] as NodeJS.ErrnoException).code).toBe('ECONNRESET');
    expect(transport.closed).toBe(true);
    // Writes after the link is gone are dropped, not thrown.
    expect(() => transport.write(frame(5, 10))).not.toThrow();
  });

  it('destroy() drops what is queued and reports the given error once', async () => {
    const { transport, peer } = await connectedPair();
    const { closes, closed } = recordCloses(transport);
    const peerData: Buffer[] = [];
    peer.on('data', (chunk: Buffer) => peerData.push(chunk));
    const peerClosed = new Promise<void>((resolve) => peer.once('close', () => resolve()));
    const error = new Error('dead peer');
    transport.write(frame(6, 100));
    transport.destroy(error);
    expect(transport.pendingBytes).toBe(0);
    await closed;
    await peerClosed;
    expect(closes).toEqual([error]);
    expect(peerData).toEqual([]);
  });

  it('connect rejects when the port refuses connections', async () => {
    const { server, port } = await startServer();
    servers.splice(servers.indexOf(server), 1);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect(TcpTransport.connect(HOST, port, 5000)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('connect rejects after its timeout when the connection does not complete', async () => {
    const { port } = await startServer();
    // Only the connect timer is faked: the test fires it before the socket can connect.
    jest.useFakeTimers({
      doNotFake: [
        'setImmediate',
        'clearImmediate',
        'nextTick',
        'queueMicrotask',
        'Date',
        'hrtime',
        'performance',
      ],
    });
    const outcome = TcpTransport.connect(HOST, port, 250).then(
      (transport) => {
        transports.push(transport);
        return 'connected';
      },
      (error: Error) => error.message,
    );
    jest.advanceTimersByTime(249);
    jest.advanceTimersByTime(1);
    await expect(outcome).resolves.toBe(`connect to ${HOST}:${port} timed out after 250 ms`);
  });
});

describe('TcpTransport backpressure', () => {
  it('a peer that does not read makes pendingBytes grow; once it reads, onDrain says so', async () => {
    const { transport, peer } = await connectedPair();
    let drains = 0;
    transport.setHandlers({ onData: () => undefined, onClose: () => undefined, onDrain: () => drains++ });
    peer.pause();
    const chunk = frame(1, 64 * 1024);
    // Far more than the kernel buffers of a loopback link take.
    for (let i = 0; i < 512; i++) transport.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
    expect(transport.pendingBytes).toBeGreaterThan(1024 * 1024);
    expect(drains).toBe(0);

    peer.resume();
    const deadline = Date.now() + 20_000;
    while (drains === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(drains).toBeGreaterThan(0);
    expect(transport.pendingBytes).toBe(0);
  });

  it('a batch over the high-water mark that the socket takes at once ends the congestion (no drain event comes)', async () => {
    const { transport, peer } = await connectedPair();
    const mark = 100;
    const conn = new RemotingConnection(transport, { logger: silentLogger, outputHighWaterMark: mark });
    const heard: boolean[] = [];
    conn.setCongestionListener((congested) => heard.push(congested));
    // One tick's frames wait in the transport's batch, counted as pending: past the mark.
    let written = 0;
    while (transport.pendingBytes <= mark) {
      conn.write(0, { type: PacketType.PING, connectionTtl: 1000 });
      written = transport.pendingBytes;
    }
    expect(heard).toEqual([true]);
    // A few hundred bytes: the socket takes the batch whole, without backpressure.
    const received = readBytes(peer, written);
    const deadline = Date.now() + 10_000;
    while (heard.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(heard).toEqual([true, false]);
    expect(conn.congested).toBe(false);
    expect((await received).length).toBe(written);
  });

  it('pauseReading stops onData until resumeReading', async () => {
    const { transport, peer } = await connectedPair();
    const received: Buffer[] = [];
    transport.setHandlers({ onData: (chunk) => received.push(chunk), onClose: () => undefined });
    transport.pauseReading();
    peer.write(Buffer.from('held'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual([]);

    transport.resumeReading();
    const deadline = Date.now() + 10_000;
    while (received.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(Buffer.concat(received).toString()).toBe('held');
  });
});
