import http from 'node:http';
import net from 'node:net';
import { ClientSessionFactory, CONNECT_TIMEOUT_PARAM } from '../../../src/core/client';
import { listen } from '../../support/listen';

describe('a peer that is not a HornetQ broker', () => {
  test('an HTTP server: the connect fails at once, saying what answered', async () => {
    const { port, close } = await listen(http.createServer((_request, response) => response.end('hello')));
    try {
      await expect(
        ClientSessionFactory.connect({ connectors: [{ host: '127.0.0.1', port }] }),
      ).rejects.toThrow(`the peer at 127.0.0.1:${port} is not a HornetQ broker (it sent 'HTTP')`);
    } finally {
      await close();
    }
  });

  test(`a peer that never answers: ${CONNECT_TIMEOUT_PARAM} bounds the wait for the first answer`, async () => {
    const { port, close } = await listen(net.createServer());
    try {
      const started = Date.now();
      await expect(
        ClientSessionFactory.connect({
          connectors: [{ host: '127.0.0.1', port, [CONNECT_TIMEOUT_PARAM]: 300 }],
        }),
      ).rejects.toMatchObject({
        code: 'CONNECTION_TIMEDOUT',
        message: expect.stringMatching(/^Timed out after 300 ms/),
      });
      // Far below the call-timeout (30 s) it used to take.
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await close();
    }
  });
});
