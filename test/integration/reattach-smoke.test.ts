import { Broker, ClientSessionFactory, CoreMessage, PropertyKind } from '../../src';
import { FaultProxy } from '../support/fault-proxy';

test('reattach smoke', async () => {
  const broker = new Broker({
    acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
    queues: [{ name: 'q', address: 'q', filter: null, durable: true }],
    connectionTtlCheckInterval: 200,
  });
  await broker.start();
  const proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: broker.getPort() });
  const factory = await ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port: proxy.port }],
    confirmationWindowSize: 1024 * 1024,
    reconnectAttempts: -1,
    retryInterval: 50,
    retryJitter: 0,
  });
  const events: string[] = [];
  factory.addFailoverListener((e) =>
    events.push(`${e.type}${e.reattached === undefined ? '' : `:${e.reattached}`}`),
  );
  const session = await factory.createSession();
  const producer = session.createProducer('q');
  const consumer = await session.createConsumer('q');
  session.start();
  const received: number[] = [];
  consumer.setMessageHandler(async (m) => {
    const seq = m.message.properties.get('seq');
    if (seq?.kind === PropertyKind.INT) received.push(seq.value);
    await m.acknowledge();
  });
  for (let i = 0; i < 3000; i++) {
    const m = new CoreMessage();
    m.properties.set('seq', { kind: PropertyKind.INT, value: i });
    m.durable = i % 3 === 0;
    if (i % 500 === 250) proxy.cut();
    await producer.send(m);
  }
  const deadline = Date.now() + 20000;
  while (received.length < 3000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(received).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  expect(events.filter((e) => e === 'FAILOVER_COMPLETED:true').length).toBeGreaterThanOrEqual(5);
  console.log(events.join(','), factory.getStatistics());
  await factory.close();
  await proxy.close();
  await broker.stop();
});
