import { jmsNameOf, writeBrokerMetrics } from '../../../src/server/metrics/broker-metrics';
import { Broker } from '../../../src';

describe('jmsNameOf', () => {
  test.each([
    ['jms.queue.Orders', 'jms.queue.Orders', 'Orders'],
    ['jms.tempqueue.4f2c', 'jms.tempqueue.4f2c', '4f2c'],
    ['client-1.subscriber', 'jms.topic.news', 'news'],
    ['jms.topic.news', 'jms.topic.news', 'news'],
    ['plain', 'plain', ''],
  ])('queue %s on %s: %p', (name, address, expected) => {
    expect(jmsNameOf({ name, address })).toBe(expected);
  });
});

test('a broker that is not started shows only that and the process metrics', () => {
  const text = writeBrokerMetrics(
    new Broker({ persistenceEnabled: false, securityEnabled: false, acceptors: [] }),
  ).text();
  const families = text
    .split('\n')
    .filter((line) => line.startsWith('# TYPE '))
    .map((line) => line.split(' ')[2]);
  expect(families).toEqual([
    'hornetq_broker_started',
    'process_resident_memory_bytes',
    'process_cpu_seconds_total',
  ]);
  expect(text).toContain('\nhornetq_broker_started 0\n');
});
