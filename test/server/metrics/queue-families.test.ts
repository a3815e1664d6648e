import type { Queue } from '../../../src/server/postoffice/queue';
import { escapeLabelValue, jmsNameOf, writeQueueFamilies } from '../../../src/server/metrics/queue-families';

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

describe('writeQueueFamilies', () => {
  test('each family is its HELP and TYPE lines, then one sample per queue with its three labels', () => {
    const queue = (name: string, address: string, messageCount: number) =>
      ({
        name,
        address,
        messageCount,
        deliveringCount: 1,
        scheduledCount: 0,
        consumerCount: 2,
      }) as unknown as Queue;
    const text = writeQueueFamilies([queue('jms.queue.a', 'jms.queue.a', 3), queue('sub', 'jms.topic.t', 0)]);
    expect(text.split('\n').slice(0, 4)).toEqual([
      '# HELP hornetq_queue_messages Messages in the queue: waiting, scheduled, paged, and delivered but not yet acknowledged.',
      '# TYPE hornetq_queue_messages gauge',
      'hornetq_queue_messages{queue="jms.queue.a",address="jms.queue.a",jms_name="a"} 3',
      'hornetq_queue_messages{queue="sub",address="jms.topic.t",jms_name="t"} 0',
    ]);
    expect(text).toContain('# TYPE hornetq_queue_messages_added_total counter\n');
    expect(text.split('\n').filter((line) => line.startsWith('# TYPE '))).toHaveLength(8);
    expect(text.endsWith('\n')).toBe(true);
  });

  test('label values escape backslash, double quote and newline, as the text format says', () => {
    expect(escapeLabelValue('a"b\\c')).toBe('a\\"b\\\\c');
    expect(escapeLabelValue('line\nnext')).toBe('line\\nnext');
    expect(escapeLabelValue('plain.name')).toBe('plain.name');
  });
});
