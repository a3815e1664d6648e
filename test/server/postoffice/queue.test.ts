import { CoreMessage } from '../../../src/core/protocol/core-message';
import { LinkedList } from '../../../src/server/postoffice/linked-list';
import { MessageReference, RoutedMessage } from '../../../src/server/postoffice/message-reference';
import {
  HandleStatus,
  Queue,
  type QueueConsumer,
  type QueueDefinition,
} from '../../../src/server/postoffice/queue';

/** A macrotask: queue delivery runs on setImmediate. */
function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

const DEFINITION: QueueDefinition = {
  name: 'q',
  address: 'jms.queue.q',
  filter: null,
  durable: false,
  temporary: false,
};

function setUp(): { queue: Queue; removed: MessageReference[] } {
  const removed: MessageReference[] = [];
  const queue = new Queue(DEFINITION, (reference) => removed.push(reference));
  return { queue, removed };
}

let nextId = 1;

function reference(queue: Queue, label: string, priority = 4): MessageReference {
  const message = new CoreMessage();
  message.messageId = nextId++;
  message.address = queue.address;
  message.priority = priority;
  message.userId = label;
  return new MessageReference(new RoutedMessage(message, message.encodedSize()), queue);
}

function labels(references: Iterable<MessageReference>): string[] {
  return [...references].map((r) => r.message.userId as string);
}

/** A consumer that takes what it is offered while `status` says HANDLED, and records it. */
class TestConsumer implements QueueConsumer {
  readonly received: MessageReference[] = [];
  offers = 0;

  constructor(
    public status: HandleStatus = HandleStatus.HANDLED,
    private readonly accepts: (reference: MessageReference) => boolean = () => true,
  ) {}

  handle(reference: MessageReference): HandleStatus {
    this.offers++;
    if (this.status !== HandleStatus.HANDLED) return this.status;
    if (!this.accepts(reference)) return HandleStatus.NO_MATCH;
    this.received.push(reference);
    return HandleStatus.HANDLED;
  }

  get labels(): string[] {
    return labels(this.received);
  }
}

describe('Queue ordering', () => {
  it('delivers by priority, 9 first down to 0, FIFO within a priority', async () => {
    const { queue } = setUp();
    const added: Array<[string, number]> = [
      ['p0-a', 0],
      ['p4-a', 4],
      ['p9-a', 9],
      ['p4-b', 4],
      ['p0-b', 0],
      ['p9-b', 9],
      ['p5-a', 5],
      ['p1-a', 1],
    ];
    for (const [label, priority] of added) queue.addTail(reference(queue, label, priority));
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    await tick();
    expect(consumer.labels).toEqual(['p9-a', 'p9-b', 'p5-a', 'p4-a', 'p4-b', 'p1-a', 'p0-a', 'p0-b']);
  });

  it('does not deliver synchronously: delivery waits for a macrotask', async () => {
    const { queue } = setUp();
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    queue.addTail(reference(queue, 'a'));
    expect(consumer.received).toEqual([]);
    await tick();
    expect(consumer.labels).toEqual(['a']);
  });

  it('snapshot lists queued messages in delivery order, without those being delivered', async () => {
    const { queue } = setUp();
    queue.addTail(reference(queue, 'low', 1));
    queue.addTail(reference(queue, 'high', 8));
    queue.addTail(reference(queue, 'mid-1', 4));
    queue.addTail(reference(queue, 'mid-2', 4));
    expect(labels(queue.snapshot())).toEqual(['high', 'mid-1', 'mid-2', 'low']);
    const consumer = new TestConsumer(HandleStatus.HANDLED, (r) => r.message.userId === 'mid-1');
    queue.addConsumer(consumer);
    await tick();
    expect(consumer.labels).toEqual(['mid-1']);
    expect(labels(queue.snapshot())).toEqual(['high', 'mid-2', 'low']);
  });
});

describe('Queue consumers', () => {
  it('hands messages to consumers in turn (round-robin)', async () => {
    const { queue } = setUp();
    const consumers = [new TestConsumer(), new TestConsumer(), new TestConsumer()];
    for (const consumer of consumers) queue.addConsumer(consumer);
    for (let i = 0; i < 7; i++) queue.addTail(reference(queue, `m${i}`));
    await tick();
    expect(consumers.map((c) => c.labels)).toEqual([
      ['m0', 'm3', 'm6'],
      ['m1', 'm4'],
      ['m2', 'm5'],
    ]);
    // The turn carries over to the next delivery pass.
    queue.addTail(reference(queue, 'm7'));
    await tick();
    expect(consumers[1]?.labels).toEqual(['m1', 'm4', 'm7']);
  });

  it('skips a BUSY consumer and gives its turn to the next', async () => {
    const { queue } = setUp();
    const busy = new TestConsumer(HandleStatus.BUSY);
    const ready = new TestConsumer();
    queue.addConsumer(busy);
    queue.addConsumer(ready);
    for (let i = 0; i < 3; i++) queue.addTail(reference(queue, `m${i}`));
    await tick();
    expect(ready.labels).toEqual(['m0', 'm1', 'm2']);
    expect(busy.received).toEqual([]);
    expect(busy.offers).toBeGreaterThan(0);
  });

  it('keeps messages while every consumer is BUSY and delivers once one is ready again', async () => {
    const { queue } = setUp();
    const consumer = new TestConsumer(HandleStatus.BUSY);
    queue.addConsumer(consumer);
    queue.addTail(reference(queue, 'a'));
    queue.addTail(reference(queue, 'b'));
    await tick();
    expect(consumer.received).toEqual([]);
    // All busy: the pass stops at the first message instead of offering every one.
    expect(consumer.offers).toBe(1);
    expect(queue.messageCount).toBe(2);
    consumer.status = HandleStatus.HANDLED;
    queue.deliverAsync();
    await tick();
    expect(consumer.labels).toEqual(['a', 'b']);
  });

  it('leaves a message that matches no consumer for others, and delivers the ones after it', async () => {
    const { queue } = setUp();
    const onlyOdd = new TestConsumer(
      HandleStatus.HANDLED,
      (r) => Number(r.message.userId?.slice(1)) % 2 === 1,
    );
    queue.addConsumer(onlyOdd);
    for (let i = 0; i < 5; i++) queue.addTail(reference(queue, `m${i}`));
    await tick();
    expect(onlyOdd.labels).toEqual(['m1', 'm3']);
    expect(labels(queue.snapshot())).toEqual(['m0', 'm2', 'm4']);

    const anything = new TestConsumer();
    queue.addConsumer(anything);
    await tick();
    expect(anything.labels).toEqual(['m0', 'm2', 'm4']);
    expect(queue.snapshot()).toEqual([]);
  });

  it('a removed consumer gets nothing more, and the rest still take turns', async () => {
    const { queue } = setUp();
    const a = new TestConsumer();
    const b = new TestConsumer();
    const c = new TestConsumer();
    queue.addConsumer(a);
    queue.addConsumer(b);
    queue.addConsumer(c);
    queue.addTail(reference(queue, 'm0'));
    queue.addTail(reference(queue, 'm1'));
    await tick();
    expect([a.labels, b.labels, c.labels]).toEqual([['m0'], ['m1'], []]);
    queue.removeConsumer(a);
    expect(queue.consumerCount).toBe(2);
    for (let i = 2; i < 6; i++) queue.addTail(reference(queue, `m${i}`));
    await tick();
    expect(a.labels).toEqual(['m0']);
    expect(c.labels).toEqual(['m2', 'm4']);
    expect(b.labels).toEqual(['m1', 'm3', 'm5']);
  });

  it('delivers nothing without consumers', async () => {
    const { queue } = setUp();
    queue.addTail(reference(queue, 'a'));
    await tick();
    expect(queue.deliveringCount).toBe(0);
    expect(labels(queue.snapshot())).toEqual(['a']);
  });

  it('deliverNow runs a pass synchronously', () => {
    const { queue } = setUp();
    const consumer = new TestConsumer();
    queue.addTail(reference(queue, 'a'));
    queue.addConsumer(consumer);
    queue.deliverNow();
    expect(consumer.labels).toEqual(['a']);
  });

  it('yields the event loop after a batch of deliveries but delivers everything', async () => {
    const { queue } = setUp();
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    for (let i = 0; i < 2500; i++) queue.addTail(reference(queue, `m${i}`));
    await tick();
    expect(consumer.received.length).toBeLessThan(2500);
    for (let i = 0; i < 5 && consumer.received.length < 2500; i++) await tick();
    expect(consumer.received).toHaveLength(2500);
    expect(consumer.labels.slice(-2)).toEqual(['m2498', 'm2499']);
  });
});

describe('Queue cancel', () => {
  it('puts a cancelled message back at the head of its priority, ahead of newer ones', async () => {
    const { queue } = setUp();
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    queue.addTail(reference(queue, 'a'));
    await tick();
    const [a] = consumer.received as [MessageReference];
    consumer.status = HandleStatus.BUSY;
    queue.addTail(reference(queue, 'b'));
    queue.addTail(reference(queue, 'urgent', 9));
    await tick();
    queue.cancel(a);
    expect(labels(queue.snapshot())).toEqual(['urgent', 'a', 'b']);
    expect(queue.deliveringCount).toBe(0);
    consumer.status = HandleStatus.HANDLED;
    queue.deliverAsync();
    await tick();
    expect(consumer.labels).toEqual(['a', 'urgent', 'a', 'b']);
  });

  it('cancelAll puts several back at the head in their original order', async () => {
    const { queue } = setUp();
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    for (const label of ['a', 'b', 'c']) queue.addTail(reference(queue, label));
    await tick();
    consumer.status = HandleStatus.BUSY;
    queue.addTail(reference(queue, 'd'));
    const delivered = [...consumer.received];
    consumer.received.length = 0;
    queue.cancelAll(delivered);
    expect(labels(queue.snapshot())).toEqual(['a', 'b', 'c', 'd']);
    consumer.status = HandleStatus.HANDLED;
    queue.deliverAsync();
    await tick();
    expect(consumer.labels).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('Queue counts', () => {
  it('counts added, delivering and acknowledged messages; messageCount includes delivering ones', async () => {
    const { queue, removed } = setUp();
    const consumer = new TestConsumer();
    for (let i = 0; i < 4; i++) queue.addTail(reference(queue, `m${i}`));
    expect(queue.messagesAdded).toBe(4);
    expect(queue.messageCount).toBe(4);
    expect(queue.deliveringCount).toBe(0);

    queue.addConsumer(consumer);
    await tick();
    consumer.status = HandleStatus.BUSY;
    expect(queue.deliveringCount).toBe(4);
    expect(queue.messageCount).toBe(4);

    queue.acknowledge(consumer.received[0] as MessageReference);
    queue.acknowledge(consumer.received[1] as MessageReference);
    expect(queue.messagesAcknowledged).toBe(2);
    expect(queue.deliveringCount).toBe(2);
    expect(queue.messageCount).toBe(2);
    expect(labels(removed)).toEqual(['m0', 'm1']);

    queue.cancel(consumer.received[2] as MessageReference);
    expect(queue.deliveringCount).toBe(1);
    expect(queue.messageCount).toBe(2);
    expect(queue.messagesAdded).toBe(4);
    expect(queue.messagesAcknowledged).toBe(2);
  });
});

describe('Queue delete', () => {
  it('removes every queued message through the removal listener and delivers nothing more', async () => {
    const { queue, removed } = setUp();
    for (let i = 0; i < 3; i++) queue.addTail(reference(queue, `m${i}`, i === 1 ? 7 : 4));
    queue.delete();
    expect(labels(removed).sort()).toEqual(['m0', 'm1', 'm2']);
    expect(queue.messageCount).toBe(0);
    expect(queue.snapshot()).toEqual([]);
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    queue.deliverNow();
    await tick();
    expect(consumer.received).toEqual([]);
  });

  it('a message being delivered when the queue is deleted leaves it when acknowledged', async () => {
    const { queue, removed } = setUp();
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    queue.addTail(reference(queue, 'a'));
    await tick();
    queue.removeConsumer(consumer);
    queue.delete();
    expect(removed).toEqual([]);
    queue.acknowledge(consumer.received[0] as MessageReference);
    expect(labels(removed)).toEqual(['a']);
    expect(queue.messageCount).toBe(0);
  });

  it('a message being delivered when the queue is deleted leaves it when cancelled', async () => {
    const { queue, removed } = setUp();
    const consumer = new TestConsumer();
    queue.addConsumer(consumer);
    queue.addTail(reference(queue, 'a'));
    await tick();
    queue.removeConsumer(consumer);
    queue.delete();
    queue.cancel(consumer.received[0] as MessageReference);
    // It has nowhere to go back to; it must still be released (address size, storage).
    expect(labels(removed)).toEqual(['a']);
    expect(queue.messageCount).toBe(0);
    expect(queue.snapshot()).toEqual([]);
  });
});

describe('LinkedList', () => {
  it('adds at both ends, removes any node once, and iterates in order', () => {
    const list = new LinkedList<string>();
    const b = list.addTail('b');
    list.addTail('c');
    list.addHead('a');
    const d = list.addTail('d');
    expect([...list.values()]).toEqual(['a', 'b', 'c', 'd']);
    list.remove(b);
    list.remove(b);
    expect(list.size).toBe(3);
    list.remove(d);
    expect([...list.values()]).toEqual(['a', 'c']);
    list.addTail('e');
    expect([...list.values()]).toEqual(['a', 'c', 'e']);
    for (let node = list.first; node !== null; node = node.next) list.remove(node);
    expect(list.size).toBe(0);
    expect(list.first).toBeNull();
    list.addHead('z');
    expect([...list.values()]).toEqual(['z']);
  });
});
