import { Broker, selectorFilterFactory } from '../../src';
import { FaultProxy } from '../support/fault-proxy';
import { CapturingLogger } from '../support/test-broker';
import { freePort } from './support/free-port';
import { JmsDriver, type DestinationRef } from './support/jms-driver';
import { ourBrokerConfiguration } from './support/our-interop-broker';

/**
 * name-only-reattach-enabled false, with HornetQ 2.4.7's own Java JMS client: its reattach (by
 * name alone) is refused, and the client creates its sessions again under the same names, as after
 * a broker restart; the broker says why for each, and the application goes on sending.
 */

const QUEUE: DestinationRef = { type: 'queue', name: 'q' };
const RECEIVE_MS = 20_000;

describe('our broker with name-only-reattach-enabled false, and HornetQ’s Java client', () => {
  let broker: Broker;
  let java: JmsDriver;
  let proxy: FaultProxy;
  const logger = new CapturingLogger();

  beforeAll(async () => {
    const port = await freePort();
    broker = new Broker(
      { ...ourBrokerConfiguration(port, { queues: [QUEUE.name] }), nameOnlyReattachEnabled: false, logger },
      selectorFilterFactory,
    );
    await broker.start();
    proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: port });
    java = await JmsDriver.start();
  });

  afterAll(async () => {
    await java?.close();
    await proxy?.close();
    await broker?.stop();
  });

  test('a link reset ends in re-created sessions, not reattached ones; what was sent before and after arrives once, in order', async () => {
    const connection = await java.connect({
      port: proxy.port,
      factory: { confirmationWindowSize: 1048576, reconnectAttempts: 20, retryInterval: 200 },
    });
    const producer = await java.createSession(connection);
    const direct = await java.connect({ port: broker.getPort() });
    const consumer = await java.createConsumer(await java.createSession(direct), QUEUE);
    await java.start(direct);
    const batch = (body: string, count: number) =>
      java.send(producer, QUEUE, { body }, { count, sequenceProperty: 'seq' });

    await batch('before', 50);
    expect(proxy.cut()).toBe(1);
    await java.waitForEvent(
      (event) => event.connection === connection && event.type === 'FAILOVER_COMPLETED',
      'FAILOVER_COMPLETED',
    );
    await batch('after', 100);

    const received = await java.receiveMany(consumer, 150, RECEIVE_MS);
    expect(received.map((m) => [m.body, m.properties.seq?.[1]])).toEqual([
      ...Array.from({ length: 50 }, (_, i) => ['before', i]),
      ...Array.from({ length: 100 }, (_, i) => ['after', i]),
    ]);
    expect(await java.receive(consumer, 500)).toBeNull();

    // Each session of the cut connection: refused by name, then created again by its client.
    const refused = logger.find(/name-only-reattach-enabled is false/, ['warn']);
    const recreated = logger.find(/is created again by its client/, ['info']);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(recreated).toHaveLength(refused.length);
    expect(logger.find(/session reattached/)).toEqual([]);
    expect(proxy.connectionsAccepted).toBe(2);
    await java.closeConnection(connection);
    await java.closeConnection(direct);
  });
});
