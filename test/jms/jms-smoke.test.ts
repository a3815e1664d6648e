import { HornetQConnectionFactory, Session, type TextMessage } from '../../src';
import { useTestBrokers } from '../support/test-broker';

const brokers = useTestBrokers();

test('jms smoke', async () => {
  const broker = await brokers.startBroker(
    { queues: [{ name: 'jms.queue.orders', address: 'jms.queue.orders', filter: null, durable: true }] },
    { selectors: true },
  );
  const cf = new HornetQConnectionFactory({ host: '127.0.0.1', port: broker.getPort() });
  const connection = await cf.createConnection();
  const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
  const queue = session.createQueue('orders');
  const producer = await session.createProducer(queue);
  await producer.send(session.createTextMessage('hello'));
  const red = session.createTextMessage('red');
  red.setStringProperty('color', 'red');
  await producer.send(red);
  const consumer = await session.createConsumer(queue, "color = 'red'");
  await connection.start();
  const got = (await consumer.receive(2000)) as TextMessage;
  expect(got.getText()).toBe('red');
  const all = await session.createConsumer(queue);
  const first = (await all.receive(2000)) as TextMessage;
  expect(first.getText()).toBe('hello');
  const topic = session.createTopic('news');
  const sub = await session.createConsumer(topic);
  const pub = await session.createProducer(topic);
  await pub.send(session.createTextMessage('extra'));
  expect(((await sub.receive(2000)) as TextMessage).getText()).toBe('extra');
  expect(() => cf.setClientID('x')).toThrow(
    'Cannot set attribute on HornetQConnectionFactory after it has been used',
  );
  await connection.close();
});
