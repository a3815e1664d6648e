import {
  escapeLabelValue,
  ExpositionWriter,
  formatLabels,
  formatValue,
} from '../../../src/server/metrics/exposition-writer';
import { LatencyHistogram } from '../../../src/server/metrics/latency-histogram';

describe('ExpositionWriter (Prometheus text format 0.0.4)', () => {
  test('a family is its HELP and TYPE lines, then its samples', () => {
    const writer = new ExpositionWriter();
    writer.family('hornetq_queue_messages', 'gauge', 'Messages in the queue.');
    writer.sample(3, formatLabels({ queue: 'jms.queue.a', address: 'jms.queue.a' }));
    writer.sample(0, formatLabels({ queue: 'q2', address: 'q2' }));
    writer.single('hornetq_connections', 'gauge', 'Connections.', 2);
    expect(writer.text()).toBe(
      '# HELP hornetq_queue_messages Messages in the queue.\n' +
        '# TYPE hornetq_queue_messages gauge\n' +
        'hornetq_queue_messages{queue="jms.queue.a",address="jms.queue.a"} 3\n' +
        'hornetq_queue_messages{queue="q2",address="q2"} 0\n' +
        '# HELP hornetq_connections Connections.\n' +
        '# TYPE hornetq_connections gauge\n' +
        'hornetq_connections 2\n',
    );
  });

  test('label values escape backslash, double quote and newline; HELP escapes backslash and newline', () => {
    expect(escapeLabelValue('a"b\\c')).toBe('a\\"b\\\\c');
    expect(escapeLabelValue('line\nnext')).toBe('line\\nnext');
    expect(formatLabels({ queue: 'a"b\\c' })).toBe('{queue="a\\"b\\\\c"}');
    const text = new ExpositionWriter().single('x', 'counter', 'a \\ b\nc "d"', 1).text();
    expect(text.split('\n')[0]).toBe('# HELP x a \\\\ b\\nc "d"');
  });

  test('special values are spelt as Prometheus parses them', () => {
    expect(formatValue(Number.POSITIVE_INFINITY)).toBe('+Inf');
    expect(formatValue(Number.NEGATIVE_INFINITY)).toBe('-Inf');
    expect(formatValue(Number.NaN)).toBe('NaN');
    expect(formatValue(0.25)).toBe('0.25');
    expect(formatValue(1e-7)).toBe('1e-7');
  });

  test('a histogram has cumulative buckets up to +Inf, a sum and a count, with its labels', () => {
    const histogram = new LatencyHistogram([0.001, 0.01, 0.1]);
    for (const seconds of [0.0005, 0.001, 0.004, 0.05, 2]) histogram.observe(seconds);
    const text = new ExpositionWriter()
      .family('hornetq_journal_sync_seconds', 'histogram', 'Sync time.')
      .histogram(histogram.snapshot(), { journal: 'messages' })
      .text();
    expect(text).toBe(
      '# HELP hornetq_journal_sync_seconds Sync time.\n' +
        '# TYPE hornetq_journal_sync_seconds histogram\n' +
        'hornetq_journal_sync_seconds_bucket{journal="messages",le="0.001"} 2\n' +
        'hornetq_journal_sync_seconds_bucket{journal="messages",le="0.01"} 3\n' +
        'hornetq_journal_sync_seconds_bucket{journal="messages",le="0.1"} 4\n' +
        'hornetq_journal_sync_seconds_bucket{journal="messages",le="+Inf"} 5\n' +
        'hornetq_journal_sync_seconds_sum{journal="messages"} 2.0555\n' +
        'hornetq_journal_sync_seconds_count{journal="messages"} 5\n',
    );
  });

  test('a histogram without labels has only le on its buckets', () => {
    const histogram = new LatencyHistogram([1]);
    const text = new ExpositionWriter().family('h', 'histogram', 'h.').histogram(histogram.snapshot()).text();
    expect(text).toContain('h_bucket{le="1"} 0\nh_bucket{le="+Inf"} 0\nh_sum 0\nh_count 0\n');
  });

  test('names that the format does not allow, a family written twice and a sample before any family are refused', () => {
    expect(() => new ExpositionWriter().family('1bad', 'gauge', 'x')).toThrow(
      /not a valid Prometheus metric name/,
    );
    expect(() => formatLabels({ 'bad-name': 'x' })).toThrow(/not a valid Prometheus label name/);
    expect(() => formatLabels({ __reserved: 'x' })).toThrow(/not a valid Prometheus label name/);
    const writer = new ExpositionWriter().single('x', 'gauge', 'x', 1);
    expect(() => writer.family('x', 'gauge', 'x')).toThrow(/written twice/);
    expect(() => new ExpositionWriter().sample(1)).toThrow(/before any metric family/);
  });
});

describe('LatencyHistogram', () => {
  test('a value on a bound counts in that bound; above the last, only in +Inf', () => {
    const histogram = new LatencyHistogram([1, 2]);
    histogram.observe(1);
    histogram.observe(2);
    histogram.observe(3);
    expect(histogram.snapshot()).toEqual({
      buckets: [
        { le: 1, count: 1 },
        { le: 2, count: 2 },
        { le: Number.POSITIVE_INFINITY, count: 3 },
      ],
      sum: 6,
      count: 3,
    });
  });

  test('bounds must increase', () => {
    expect(() => new LatencyHistogram([1, 1])).toThrow(/finite and increasing \(bound 1 is 1, after 1\)/);
    expect(() => new LatencyHistogram([Number.POSITIVE_INFINITY])).toThrow(RangeError);
  });
});
