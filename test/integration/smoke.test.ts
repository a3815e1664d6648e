import { Broker, ClientSessionFactory, CoreMessage } from '../../src';

test('smoke', async () => {
  const broker = new Broker({
    acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
    queues: [{ name: 'jms.queue.A', address: 'jms.queue.A', filter: null, durable: true }],
  });
  await broker.start();
  const factory = await ClientSessionFactory.connect({ connectors: [{ host: '127.0.0.1', port: broker.getPort() }] });
  const session = await factory.createSession();
  const producer = session.createProducer('jms.queue.A');
  const m = new CoreMessage();
  m.body = Buffer.from('hello');
  m.durable = true;
  await producer.send(m);
  const consumer = await session.createConsumer('jms.queue.A');
  session.start();
  const r = await consumer.receive(2000);
  expect(r?.message.body.toString()).toBe('hello');
  await r?.acknowledge();
  await factory.close();
  await broker.stop();
});
