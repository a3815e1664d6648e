import { HornetQException } from '../../../src/core/protocol';
import { Queue } from '../../../src/server/postoffice/queue';
import {
  MAX_QUEUE_STATS_PAGE,
  MAX_QUEUE_STATS_PAGE_BYTES,
  queueStatsPage,
} from '../../../src/server/session/queue-stats-page';

function queues(count: number, nameLength = 10): Queue[] {
  return Array.from(
    { length: count },
    (_, i) =>
      new Queue(
        {
          name: `${i}-`.padEnd(nameLength, 'n'),
          address: 'a',
          filter: null,
          durable: false,
          temporary: false,
        },
        () => undefined,
      ),
  );
}

describe('queueStatsPage', () => {
  it('walks the queues from start, at most maxCount at a time, saying whether more follow', () => {
    const all = queues(25);
    const first = queueStatsPage(all, 0, 10);
    expect(first.queues.map((q) => q.name.split('-')[0])).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
    ]);
    expect(first.more).toBe(true);
    const last = queueStatsPage(all, 20, 10);
    expect(last.queues).toHaveLength(5);
    expect(last.more).toBe(false);
    expect(queueStatsPage(all, 25, 10)).toEqual({ queues: [], more: false });
  });

  it('sends no more than its own page size, whatever the client asks for', () => {
    const page = queueStatsPage(queues(MAX_QUEUE_STATS_PAGE + 5), 0, 2_000_000);
    expect(page.queues).toHaveLength(MAX_QUEUE_STATS_PAGE);
    expect(page.more).toBe(true);
  });

  it('keeps a page of long names under its byte budget, and always sends at least one queue', () => {
    const long = queues(1000, 4096);
    const page = queueStatsPage(long, 0, 1000);
    expect(page.more).toBe(true);
    expect(page.queues.length).toBeGreaterThan(0);
    expect(page.queues.length * 3 * 4096).toBeLessThanOrEqual(MAX_QUEUE_STATS_PAGE_BYTES);
    const huge = queues(2, MAX_QUEUE_STATS_PAGE_BYTES);
    expect(queueStatsPage(huge, 0, 10).queues).toHaveLength(1);
  });

  it.each([
    [-1, 10, /start must be >= 0 \(actual value: -1\)/],
    [0, 0, /page size must be >= 1 \(actual value: 0\)/],
  ])('refuses start %d / page size %d', (start, maxCount, expected) => {
    expect(() => queueStatsPage(queues(1), start, maxCount)).toThrow(HornetQException);
    expect(() => queueStatsPage(queues(1), start, maxCount)).toThrow(expected);
  });
});
