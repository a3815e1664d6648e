import { QueueRates, type QueueCounters } from '../../../src/server/console/queue-rates';

const queue = (name: string, added: number, acked: number): QueueCounters => ({
  name,
  messagesAdded: added,
  messagesAcknowledged: acked,
});

describe('QueueRates', () => {
  let time = 0;
  const now = (): number => time;
  beforeEach(() => (time = 0));

  it('has no rate from one sample', () => {
    const rates = new QueueRates(1_000, now);
    expect(rates.observe([queue('q', 5, 0)]).get('q')).toBeNull();
  });

  it('answers the growth per second between the two newest samples', () => {
    const rates = new QueueRates(1_000, now);
    rates.observe([queue('q', 10, 0)]);
    time = 2_000;
    expect(rates.observe([queue('q', 30, 4)]).get('q')).toEqual({
      addedPerSecond: 10,
      acknowledgedPerSecond: 2,
    });
  });

  it('takes no new sample before the interval: polls in between see the same rate', () => {
    const rates = new QueueRates(1_000, now);
    rates.observe([queue('q', 0, 0)]);
    time = 1_000;
    rates.observe([queue('q', 10, 0)]);
    time = 1_500;
    expect(rates.observe([queue('q', 1_000, 0)]).get('q')).toEqual({
      addedPerSecond: 10,
      acknowledgedPerSecond: 0,
    });
    time = 2_000;
    expect(rates.observe([queue('q', 1_010, 0)]).get('q')?.addedPerSecond).toBe(1_000);
  });

  it('has no rate for a queue new since the previous sample, or made again (counters went back)', () => {
    const rates = new QueueRates(1_000, now);
    rates.observe([queue('old', 50, 50)]);
    time = 1_000;
    const answered = rates.observe([queue('old', 3, 0), queue('new', 7, 0)]);
    expect(answered.get('old')).toBeNull();
    expect(answered.get('new')).toBeNull();
  });

  it('forgets queues that are gone: memory is the queues of two samples', () => {
    const rates = new QueueRates(1_000, now);
    rates.observe([queue('a', 0, 0)]);
    time = 1_000;
    rates.observe([queue('b', 0, 0)]);
    time = 2_000;
    rates.observe([queue('b', 0, 0)]);
    time = 3_000;
    expect(rates.observe([queue('a', 5, 0), queue('b', 2, 0)])).toEqual(
      new Map([
        ['a', null],
        ['b', { addedPerSecond: 2, acknowledgedPerSecond: 0 }],
      ]),
    );
  });
});
