import { CoreMessage } from '../../../src/core/protocol/core-message';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { MessageHeader } from '../../../src/server/postoffice/message-headers';
import { MessageReference, RoutedMessage } from '../../../src/server/postoffice/message-reference';
import {
  HandleStatus,
  Queue,
  type QueueConsumer,
  type QueueDefinition,
} from '../../../src/server/postoffice/queue';
import { sleep } from '../../support/wait';

/** A macrotask: queue delivery runs on setImmediate. */
function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

interface Rig {
  queue: Queue;
  removed: string[];
  expired: string[];
}

function setUp(extra: Partial<QueueDefinition> = {}): Rig {
  const removed: string[] = [];
  const expired: string[] = [];
  const queue = new Queue(
    { name: 'q', address: 'jms.queue.q', filter: null, durable: false, temporary: false, ...extra },
    (reference) => removed.push(label(reference)),
    {
      expired: (reference) => expired.push(label(reference)),
      failed: (error) => {
        throw error;
      },
    },
  );
  return { queue, removed, expired };
}

let nextId = 1;

/** How long the expiring test message lives. */
const LIFETIME_MS = 400;

function reference(
  queue: Queue,
  name: string,
  options: { priority?: number; expiration?: number; group?: string; lastValue?: string } = {},
): MessageReference {
  const message = new CoreMessage();
  message.messageId = nextId++;
  message.userId = name;
  message.priority = options.priority ?? 4;
  message.expiration = options.expiration ?? 0;
  if (options.group !== undefined)
    message.properties.set(MessageHeader.GROUP_ID, { kind: PropertyKind.STRING, value: options.group });
  if (options.lastValue !== undefined)
    message.properties.set(MessageHeader.LAST_VALUE_NAME, {
      kind: PropertyKind.STRING,
      value: options.lastValue,
    });
  return new MessageReference(new RoutedMessage(message, message.encodedSize()), queue);
}

function label(reference: MessageReference): string {
  return reference.message.userId as string;
}

class TestConsumer implements QueueConsumer {
  readonly received: MessageReference[] = [];
  offers = 0;

  constructor(public status: HandleStatus = HandleStatus.HANDLED) {}

  handle(reference: MessageReference): HandleStatus {
    this.offers++;
    if (this.status !== HandleStatus.HANDLED) return this.status;
    this.received.push(reference);
    return HandleStatus.HANDLED;
  }

  get labels(): string[] {
    return this.received.map(label);
  }
}

describe('Queue expiry', () => {
  it('a delivery pass takes out expired messages instead of offering them', async () => {
    const { queue, removed, expired } = setUp();
    queue.addTail(reference(queue, 'dead', { expiration: Date.now() - 1 }));
    queue.addTail(reference(queue, 'alive', { expiration: Date.now() + 60_000 }));
    queue.addTail(reference(queue, 'forever'));
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    await tick();
    expect(consumer.labels).toEqual(['alive', 'forever']);
    expect(expired).toEqual(['dead']);
    expect(removed).toEqual(['dead']);
    expect(queue.messagesExpired).toBe(1);
    expect(queue.messageCount).toBe(2);
  });

  it('expireWaiting takes out what has expired by then, with no consumer needed', () => {
    const { queue, expired } = setUp();
    const now = Date.now();
    queue.addTail(reference(queue, 'soon', { expiration: now + 10 }));
    queue.addTail(reference(queue, 'later', { expiration: now + 1000, priority: 9 }));
    queue.addTail(reference(queue, 'never'));
    expect(queue.expireWaiting(now)).toBe(0);
    expect(queue.expireWaiting(now + 10)).toBe(1);
    expect(queue.expireWaiting(now + 5000)).toBe(1);
    expect(expired).toEqual(['soon', 'later']);
    expect(queue.snapshot().map(label)).toEqual(['never']);
    expect(queue.messageCount).toBe(1);
  });

  it('a cancelled message that expired meanwhile is taken out at the next delivery', async () => {
    const { queue, expired } = setUp();
    // Long enough to be delivered before it expires on two loaded cores (30 ms was not, once).
    const ref = reference(queue, 'm', { expiration: Date.now() + LIFETIME_MS });
    queue.addTail(ref);
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    await tick();
    expect(consumer.labels).toEqual(['m']);
    await sleep(LIFETIME_MS + 20);
    queue.cancel(ref);
    await tick();
    expect(consumer.labels).toEqual(['m']);
    expect(expired).toEqual(['m']);
    expect(queue.messageCount).toBe(0);
  });
});

describe('Queue scheduled messages', () => {
  it('are counted at once and offered only from their time, in time order', async () => {
    const { queue } = setUp();
    const now = Date.now();
    queue.schedule(reference(queue, 'second'), now + 80);
    queue.schedule(reference(queue, 'first'), now + 40);
    queue.addTail(reference(queue, 'plain'));
    expect(queue.messageCount).toBe(3);
    expect(queue.scheduledCount).toBe(2);
    expect(queue.messagesAdded).toBe(3);
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    await tick();
    expect(consumer.labels).toEqual(['plain']);
    const deadline = Date.now() + 5000;
    while (consumer.received.length < 3 && Date.now() < deadline) await sleep(5);
    expect(consumer.labels).toEqual(['plain', 'first', 'second']);
    expect(Date.now()).toBeGreaterThanOrEqual(now + 80);
    expect(queue.scheduledCount).toBe(0);
  });

  it('a redelivery held back by cancelUntil returns to the head, ahead of newer messages', async () => {
    const { queue } = setUp();
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    const ref = reference(queue, 'retried');
    queue.addTail(ref);
    await tick();
    consumer.status = HandleStatus.BUSY;
    queue.cancelUntil(ref, Date.now() + 50);
    expect(queue.deliveringCount).toBe(0);
    expect(queue.scheduledCount).toBe(1);
    expect(queue.messageCount).toBe(1);
    queue.addTail(reference(queue, 'newer'));
    const deadline = Date.now() + 5000;
    while (queue.scheduledCount > 0 && Date.now() < deadline) await sleep(5);
    expect(queue.snapshot().map(label)).toEqual(['retried', 'newer']);
  });

  it('deleting the queue drops scheduled messages and stops their timer', () => {
    const { queue, removed } = setUp();
    queue.schedule(reference(queue, 'later'), Date.now() + 60_000);
    queue.delete();
    expect(removed).toEqual(['later']);
    expect(queue.messageCount).toBe(0);
  });
});

describe('Queue message groups', () => {
  it('every message of a group goes to the consumer that took the first; ungrouped ones go round', async () => {
    const { queue } = setUp();
    const a = new TestConsumer();
    const b = new TestConsumer();
    queue.addConsumer(a);
    queue.addConsumer(b);
    for (let i = 0; i < 4; i++) {
      queue.addTail(reference(queue, `g${i}`, { group: 'G' }));
      queue.addTail(reference(queue, `u${i}`));
    }
    await tick();
    expect(a.labels.filter((l) => l.startsWith('g'))).toEqual(['g0', 'g1', 'g2', 'g3']);
    expect(b.labels.filter((l) => l.startsWith('g'))).toEqual([]);
    expect(a.labels.filter((l) => l.startsWith('u')).length).toBeGreaterThan(0);
    expect(b.labels.filter((l) => l.startsWith('u')).length).toBeGreaterThan(0);
  });

  it('a group whose consumer is busy waits for it while other messages flow to the others', async () => {
    const { queue } = setUp();
    const owner = new TestConsumer();
    const other = new TestConsumer();
    queue.addConsumer(owner);
    queue.addTail(reference(queue, 'g0', { group: 'G' }));
    await tick();
    queue.addConsumer(other);
    owner.status = HandleStatus.BUSY;
    queue.addTail(reference(queue, 'g1', { group: 'G' }));
    queue.addTail(reference(queue, 'free'));
    await tick();
    expect(other.labels).toEqual(['free']);
    expect(queue.snapshot().map(label)).toEqual(['g1']);
    owner.status = HandleStatus.HANDLED;
    queue.deliverAsync();
    await tick();
    expect(owner.labels).toEqual(['g0', 'g1']);
  });

  it('when the owner leaves, the group moves to another consumer for good', async () => {
    const { queue } = setUp();
    const first = new TestConsumer();
    const second = new TestConsumer();
    queue.addConsumer(first);
    queue.addConsumer(second);
    queue.addTail(reference(queue, 'g0', { group: 'G' }));
    await tick();
    const owner = first.received.length === 1 ? first : second;
    const survivor = owner === first ? second : first;
    queue.removeConsumer(owner);
    for (let i = 1; i <= 3; i++) queue.addTail(reference(queue, `g${i}`, { group: 'G' }));
    await tick();
    expect(survivor.labels).toEqual(['g1', 'g2', 'g3']);
    // The new owner keeps it even once there is another consumer again.
    queue.addConsumer(owner);
    queue.addTail(reference(queue, 'g4', { group: 'G' }));
    queue.addTail(reference(queue, 'g5', { group: 'G' }));
    await tick();
    expect(survivor.labels).toEqual(['g1', 'g2', 'g3', 'g4', 'g5']);
  });

  it('a pass offers nothing more to a consumer once it said BUSY', async () => {
    const { queue } = setUp();
    const busy = new TestConsumer(HandleStatus.BUSY);
    const ready = new TestConsumer();
    queue.addConsumer(busy);
    queue.addConsumer(ready);
    for (let i = 0; i < 50; i++) queue.addTail(reference(queue, `m${i}`));
    await tick();
    expect(ready.received).toHaveLength(50);
    expect(busy.offers).toBe(1);
  });
});

describe('last-value queue', () => {
  it('a newer message replaces the waiting one with the same last-value name', () => {
    const { queue, removed } = setUp({ lastValue: true });
    queue.addTail(reference(queue, 'stock-1', { lastValue: 'STOCK' }));
    queue.addTail(reference(queue, 'other', { lastValue: 'OTHER' }));
    queue.addTail(reference(queue, 'plain'));
    queue.addTail(reference(queue, 'stock-2', { lastValue: 'STOCK' }));
    expect(queue.snapshot().map(label)).toEqual(['stock-2', 'other', 'plain']);
    expect(removed).toEqual(['stock-1']);
    expect(queue.messageCount).toBe(3);
  });

  it('with another priority the newer message takes its own priority place', () => {
    const { queue } = setUp({ lastValue: true });
    queue.addTail(reference(queue, 'a'));
    queue.addTail(reference(queue, 'v1', { lastValue: 'K', priority: 4 }));
    queue.addTail(reference(queue, 'v2', { lastValue: 'K', priority: 9 }));
    queue.addTail(reference(queue, 'v3', { lastValue: 'K', priority: 9 }));
    expect(queue.snapshot().map(label)).toEqual(['v3', 'a']);
  });

  it('a delivered message is not replaced; one coming back gives way to a newer waiting one', async () => {
    const { queue, removed } = setUp({ lastValue: true });
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    const old = reference(queue, 'v1', { lastValue: 'K' });
    queue.addTail(old);
    await tick();
    expect(consumer.labels).toEqual(['v1']);
    consumer.status = HandleStatus.BUSY;
    queue.addTail(reference(queue, 'v2', { lastValue: 'K' }));
    expect(queue.messageCount).toBe(2);
    queue.cancel(old);
    expect(queue.snapshot().map(label)).toEqual(['v2']);
    expect(removed).toEqual(['v1']);
  });

  it('an ordinary queue keeps every message whatever its last-value name', () => {
    const { queue } = setUp();
    queue.addTail(reference(queue, 'v1', { lastValue: 'K' }));
    queue.addTail(reference(queue, 'v2', { lastValue: 'K' }));
    expect(queue.snapshot().map(label)).toEqual(['v1', 'v2']);
  });
});
