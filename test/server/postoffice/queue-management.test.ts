import { CoreMessage } from '../../../src/core/protocol/core-message';
import { MessageReference, RoutedMessage } from '../../../src/server/postoffice/message-reference';
import { HandleStatus, Queue, type QueueConsumer } from '../../../src/server/postoffice/queue';

/** What management does to a queue: pause and resume, browse what waits, take messages out. */

function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

let nextId = 1;

function setUp(): { queue: Queue; removed: MessageReference[] } {
  const removed: MessageReference[] = [];
  const queue = new Queue(
    { name: 'q', address: 'jms.queue.q', filter: null, durable: false, temporary: false },
    (reference) => removed.push(reference),
  );
  return { queue, removed };
}

function reference(queue: Queue, priority = 4): MessageReference {
  const message = new CoreMessage();
  message.messageId = nextId++;
  message.address = queue.address;
  message.priority = priority;
  return new MessageReference(new RoutedMessage(message, message.encodedSize()), queue);
}

function taking(): QueueConsumer & { taken: MessageReference[] } {
  const taken: MessageReference[] = [];
  return {
    taken,
    handle: (ref) => {
      taken.push(ref);
      return HandleStatus.HANDLED;
    },
  };
}

describe('Queue under management', () => {
  test('a paused queue delivers nothing, keeps receiving, and delivers on resume', async () => {
    const { queue } = setUp();
    const consumer = taking();
    queue.addConsumer(consumer);
    queue.pause();
    queue.addTail(reference(queue));
    await tick();
    queue.deliverNow();
    expect(consumer.taken).toHaveLength(0);
    expect(queue.isPaused).toBe(true);
    expect(queue.messageCount).toBe(1);
    queue.resume();
    await tick();
    expect(consumer.taken).toHaveLength(1);
  });

  test('waitingReferences walks queued (priority order) then scheduled (time order)', () => {
    const { queue } = setUp();
    const low = reference(queue, 1);
    const high = reference(queue, 9);
    const later = reference(queue);
    const sooner = reference(queue);
    queue.addTail(low);
    queue.addTail(high);
    const now = Date.now();
    queue.schedule(later, now + 60_000);
    queue.schedule(sooner, now + 30_000);
    expect([...queue.waitingReferences()]).toEqual([
      { reference: high, scheduledTime: null },
      { reference: low, scheduledTime: null },
      { reference: sooner, scheduledTime: now + 30_000 },
      { reference: later, scheduledTime: now + 60_000 },
    ]);
    queue.stop();
  });

  test('removeWaiting takes queued and scheduled matches, up to a limit, each disposed first', () => {
    const { queue, removed } = setUp();
    const refs = [reference(queue), reference(queue), reference(queue)];
    for (const each of refs) queue.addTail(each);
    const scheduled = reference(queue);
    queue.schedule(scheduled, Date.now() + 60_000);
    const bytesBefore = queue.waitingBytes;
    const disposed: MessageReference[] = [];

    expect(
      queue.removeWaiting(
        (ref) => ref !== refs[1],
        (ref) => disposed.push(ref),
        2,
      ),
    ).toBe(2);
    expect(disposed).toEqual([refs[0], refs[2]]);
    expect(removed).toEqual([refs[0], refs[2]]);
    expect(queue.messageCount).toBe(2);
    expect(queue.messagesAcknowledged).toBe(2);
    expect(queue.waitingBytes).toBeLessThan(bytesBefore);

    expect(queue.removeWaiting(() => true)).toBe(2);
    expect(queue.messageCount).toBe(0);
    expect(queue.scheduledCount).toBe(0);
    expect(queue.waitingBytes).toBe(0);
    expect(removed).toContain(scheduled);
    queue.stop();
  });

  test('a dispose that throws leaves its message in the queue', () => {
    const { queue, removed } = setUp();
    const kept = reference(queue);
    queue.addTail(kept);
    expect(() =>
      queue.removeWaiting(
        () => true,
        () => {
          throw new Error('routing failed');
        },
      ),
    ).toThrow('routing failed');
    expect(removed).toEqual([]);
    expect([...queue.waitingReferences()].map((entry) => entry.reference)).toEqual([kept]);
  });
});
