import { CoreMessage } from '../../src';
import { useTestBrokers } from '../support/test-broker';

const Q = 'jms.queue.rate';
const queues = [{ name: Q, address: Q, filter: null, durable: true }];

function message(): CoreMessage {
  const m = new CoreMessage();
  m.durable = false;
  m.body = Buffer.from('x');
  return m;
}

describe('producer-max-rate and consumer-max-rate', () => {
  const env = useTestBrokers();

  it('a producer limited to 50 messages a second takes at least 380 ms for 20', async () => {
    const broker = await env.startBroker({ queues });
    const session = await (await env.connect(broker, { producerMaxRate: 50 })).createSession();
    const producer = session.createProducer(Q);
    const started = Date.now();
    await Promise.all(Array.from({ length: 20 }, () => producer.send(message())));
    expect(Date.now() - started).toBeGreaterThanOrEqual(370);
  });

  it('a consumer limited to 50 messages a second hands out 20 over at least 380 ms, in order', async () => {
    const broker = await env.startBroker({ queues });
    const producerSession = await (await env.connect(broker)).createSession();
    const producer = producerSession.createProducer(Q);
    for (let i = 0; i < 20; i++) {
      const m = message();
      m.body = Buffer.from(String(i));
      await producer.send(m);
    }
    const session = await (await env.connect(broker, { consumerMaxRate: 50 })).createSession();
    const consumer = await session.createConsumer(Q);
    session.start();
    const started = Date.now();
    const bodies: string[] = [];
    for (let i = 0; i < 20; i++) {
      const received = await consumer.receive(5000);
      bodies.push(received?.message.body.toString() ?? 'none');
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(370);
    expect(bodies).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
  });
});
