import net from 'node:net';
import { HornetQConnectionFactory, JMSException, JMSSecurityException } from '../../src';
import { securedBrokerConfig } from '../support/secured-broker';
import { useTestBrokers } from '../support/test-broker';

/**
 * `retriable` on failures that come over real sockets: a broker that is not there (try again
 * later) and a wrong password (no wait will fix it). Every code is checked in
 * test/core/protocol/retriable-error-codes.test.ts.
 */

const brokers = useTestBrokers();

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('no broker listening: NOT_CONNECTED, retriable', async () => {
  const factory = new HornetQConnectionFactory(`tcp://127.0.0.1:${await freePort()}?retryInterval=10`);
  const error: unknown = await factory.createConnection().catch((e: unknown) => e);
  expect(JMSException.is(error)).toBe(true);
  expect(error).toMatchObject({ errorCode: 'NOT_CONNECTED', retriable: true });
  expect((error as JMSException).getLinkedException()).toMatchObject({ retriable: true });
});

test('a wrong password: JMSSecurityException, not retriable', async () => {
  const broker = await brokers.startBroker(securedBrokerConfig([], []));
  const factory = new HornetQConnectionFactory(`tcp://127.0.0.1:${broker.getPort()}`);
  const error: unknown = await factory.createConnection('admin', 'wrong').catch((e: unknown) => e);
  expect(JMSSecurityException.is(error)).toBe(true);
  expect(error).toMatchObject({ errorCode: 'SECURITY_EXCEPTION', retriable: false });
});
