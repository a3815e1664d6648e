import { connect, type Socket } from 'node:net';
import type { Transport } from '../../../src/core/remoting';
import { TcpAcceptor } from '../../../src/server/remoting/tcp-acceptor';
import { CapturingLogger, waitFor } from '../../support/test-broker';

/**
 * The acceptor runs from socket events and timers, where nothing catches: what fails there costs
 * the socket concerned, is logged, and the acceptor goes on accepting.
 */

const acceptors: TcpAcceptor[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(acceptors.splice(0).map((acceptor) => acceptor.stop(50)));
});

async function started(
  onTransport: (transport: Transport) => void,
  logger: CapturingLogger,
): Promise<TcpAcceptor> {
  const acceptor = new TcpAcceptor(
    { name: 'test', type: 'tcp', host: '127.0.0.1', port: 0 },
    onTransport,
    logger,
  );
  acceptors.push(acceptor);
  await acceptor.start();
  return acceptor;
}

function client(port: number): Promise<{ socket: Socket; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let closed = false;
    const socket = connect({ host: '127.0.0.1', port }, () => resolve({ socket, closed: () => closed }));
    sockets.push(socket);
    socket.on('error', reject);
    socket.on('close', () => (closed = true));
  });
}

test('a connection whose handling throws is closed and logged; the next one is accepted', async () => {
  const logger = new CapturingLogger();
  const taken: Transport[] = [];
  let refuse = true;
  const acceptor = await started((transport) => {
    if (refuse) {
      refuse = false;
      throw new Error('the broker could not take it');
    }
    taken.push(transport);
  }, logger);

  const first = await client(acceptor.port);
  await waitFor(first.closed, 'the acceptor to close the connection it could not hand over');
  expect(
    logger.find(/taking the connection from .* failed; it is closed \(the broker could not take it\)/, [
      'error',
    ]),
  ).toHaveLength(1);

  const second = await client(acceptor.port);
  await waitFor(() => taken.length === 1, 'the next connection to be handed over');
  expect(second.closed()).toBe(false);
  taken[0]?.destroy();
});

test('stop destroys, once the grace period is over, a socket whose peer does not close', async () => {
  const logger = new CapturingLogger();
  const acceptor = await started(() => undefined, logger);
  const peer = await client(acceptor.port);
  // The peer never ends its side: only the acceptor's timer closes the socket.
  peer.socket.on('end', () => undefined);
  peer.socket.pause();
  await acceptor.stop(50);
  await waitFor(peer.closed, 'the socket to be closed');
  expect(logger.find(/./, ['error'])).toEqual([]);
});
