import { CoreMessage } from '../../../src/core/protocol/core-message';
import { MessageReference, RoutedMessage } from '../../../src/server/postoffice/message-reference';
import { Queue } from '../../../src/server/postoffice/queue';
import { ScheduledDeliveries, type ScheduledReference } from '../../../src/server/postoffice/scheduler';

const queue = new Queue(
  { name: 'q', address: 'q', filter: null, durable: false, temporary: false },
  () => {},
);

function reference(label: string): MessageReference {
  const message = new CoreMessage();
  message.userId = label;
  return new MessageReference(new RoutedMessage(message, message.encodedSize()), queue);
}

function labels(due: ScheduledReference[]): string[] {
  return due.map((entry) => entry.reference.message.userId as string);
}

describe('ScheduledDeliveries', () => {
  let released: ScheduledReference[][];
  let scheduled: ScheduledDeliveries;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    released = [];
    scheduled = new ScheduledDeliveries((due) => released.push(due));
  });

  afterEach(() => {
    scheduled.stop();
    jest.useRealTimers();
  });

  it('releases each reference at its time, not before, in time order whatever the scheduling order', () => {
    const now = Date.now();
    scheduled.schedule(reference('late'), now + 2000, 'tail');
    scheduled.schedule(reference('early'), now + 1000, 'tail');
    expect(scheduled.size).toBe(2);
    jest.advanceTimersByTime(999);
    expect(released).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(released.map(labels)).toEqual([['early']]);
    jest.advanceTimersByTime(999);
    expect(released.map(labels)).toEqual([['early']]);
    jest.advanceTimersByTime(1);
    expect(released.map(labels)).toEqual([['early'], ['late']]);
    expect(scheduled.size).toBe(0);
  });

  it('keeps one timer however many references wait, and releases them in time order', () => {
    const now = Date.now();
    for (let i = 0; i < 100; i++) scheduled.schedule(reference(`m${99 - i}`), now + 1000 + (99 - i), 'tail');
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(1050);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(1000);
    expect(jest.getTimerCount()).toBe(0);
    expect(released.flatMap(labels)).toEqual(Array.from({ length: 100 }, (_, i) => `m${i}`));
  });

  it('equal times keep the order they were scheduled in, and the position travels with each one', () => {
    const at = Date.now() + 10;
    scheduled.schedule(reference('a'), at, 'tail');
    scheduled.schedule(reference('b'), at, 'head');
    scheduled.schedule(reference('c'), at, 'tail');
    jest.advanceTimersByTime(10);
    const [due] = released as [ScheduledReference[]];
    expect(labels(due)).toEqual(['a', 'b', 'c']);
    expect(due.map((entry) => entry.position)).toEqual(['tail', 'head', 'tail']);
  });

  it('an earlier reference scheduled later moves the timer forward', () => {
    const now = Date.now();
    scheduled.schedule(reference('far'), now + 60_000, 'tail');
    scheduled.schedule(reference('near'), now + 50, 'tail');
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(50);
    expect(released.map(labels)).toEqual([['near']]);
    expect(jest.getTimerCount()).toBe(1);
  });

  it('a time in the past is released on the next timer turn', () => {
    scheduled.schedule(reference('overdue'), Date.now() - 5000, 'tail');
    expect(released).toEqual([]);
    jest.advanceTimersByTime(0);
    expect(released.map(labels)).toEqual([['overdue']]);
  });

  it('a time beyond the longest Node timer is reached in steps, not fired early', () => {
    const at = Date.now() + 3_000_000_000;
    scheduled.schedule(reference('distant'), at, 'tail');
    jest.advanceTimersByTime(2_147_483_647);
    expect(released).toEqual([]);
    jest.advanceTimersByTime(3_000_000_000 - 2_147_483_647);
    expect(released.map(labels)).toEqual([['distant']]);
  });

  it('stop() leaves no timer and keeps the references; clear() takes them', () => {
    scheduled.schedule(reference('x'), Date.now() + 100, 'tail');
    scheduled.stop();
    expect(jest.getTimerCount()).toBe(0);
    expect(scheduled.size).toBe(1);
    expect(scheduled.snapshot().map((entry) => entry.reference.message.userId)).toEqual(['x']);
    expect(scheduled.clear().map((r) => r.message.userId)).toEqual(['x']);
    expect(scheduled.size).toBe(0);
    jest.advanceTimersByTime(1000);
    expect(released).toEqual([]);
  });
});
