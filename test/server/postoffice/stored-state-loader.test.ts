import { CoreMessage } from '../../../src/core/protocol/core-message';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { MessageHeader } from '../../../src/server/postoffice/message-headers';
import { REFERENCE_MEMORY_ESTIMATE } from '../../../src/server/postoffice/message-reference';
import { Queue } from '../../../src/server/postoffice/queue';
import { loadStoredQueues } from '../../../src/server/postoffice/stored-state-loader';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';

const NOW = 5_000_000;

function durableMessage(storage: InMemoryStorage, address: string): CoreMessage {
  const m = new CoreMessage();
  m.messageId = storage.generateMessageId();
  m.address = address;
  m.durable = true;
  m.body = Buffer.from('payload');
  return m;
}

describe('loadStoredQueues', () => {
  const created: Queue[] = [];

  afterEach(() => {
    for (const queue of created.splice(0)) queue.stop();
  });

  function load(storage: InMemoryStorage) {
    const counted = new Map<string, number>();
    const queues = new Map<string, Queue>();
    loadStoredQueues(
      storage,
      {
        addQueue: (stored) => {
          const queue = new Queue(
            { ...stored, filter: null, durable: true, temporary: false },
            () => undefined,
          );
          created.push(queue);
          queues.set(queue.name, queue);
          return queue;
        },
        countInAddress: (address, bytes) => counted.set(address, (counted.get(address) ?? 0) + bytes),
        pageOut: () => false,
      },
      NOW,
    );
    return { counted, queues };
  }

  it('makes a message stored for several queues one message again, counted once in its address', () => {
    const storage = new InMemoryStorage();
    storage.storeQueue({ name: 'sub1', address: 'news', filter: null });
    storage.storeQueue({ name: 'sub2', address: 'news', filter: null });
    const m = durableMessage(storage, 'news');
    storage.storeMessage(m, ['sub1', 'sub2']);
    const { counted, queues } = load(storage);
    const [first] = queues.get('sub1')?.snapshot() ?? [];
    const [second] = queues.get('sub2')?.snapshot() ?? [];
    expect(first?.routed).toBeDefined();
    expect(second?.routed).toBe(first?.routed);
    expect(first?.routed.referenceCount).toBe(2);
    expect(counted.get('news')).toBe(m.memoryEstimate() + 2 * REFERENCE_MEMORY_ESTIMATE);
  });

  it('keeps delivery counts, and schedules again what is due later than now', () => {
    const storage = new InMemoryStorage();
    storage.storeQueue({ name: 'orders', address: 'orders', filter: null });
    const due = durableMessage(storage, 'orders');
    const later = durableMessage(storage, 'orders');
    storage.storeMessage(due, ['orders']);
    storage.storeMessage(later, ['orders']);
    storage.updateDeliveryCount('orders', due.messageId, 2);
    storage.updateScheduledDeliveryTime('orders', due.messageId, NOW);
    storage.updateScheduledDeliveryTime('orders', later.messageId, NOW + 60_000);
    const orders = load(storage).queues.get('orders') as Queue;
    expect(orders.snapshot().map((r) => [r.message.messageId, r.deliveryCount])).toEqual([
      [due.messageId, 2],
    ]);
    expect(
      orders.scheduledSnapshot().map(({ reference, time }) => [reference.message.messageId, time]),
    ).toEqual([[later.messageId, NOW + 60_000]]);
  });

  it("leaves _HQ_SCHED_DELIVERY as HornetQ 2.4's loader does: gone once passed, the stored time while ahead", () => {
    const storage = new InMemoryStorage();
    storage.storeQueue({ name: 'orders', address: 'orders', filter: null });
    const stamp = (m: CoreMessage, time: number) =>
      m.properties.set(MessageHeader.SCHEDULED_DELIVERY_TIME, { kind: PropertyKind.LONG, value: time });
    const passed = durableMessage(storage, 'orders');
    const ahead = durableMessage(storage, 'orders');
    const redelivered = durableMessage(storage, 'orders');
    const unscheduled = durableMessage(storage, 'orders');
    stamp(passed, NOW - 1000);
    stamp(ahead, NOW + 60_000);
    // Sent with a time already past: never scheduled, so nothing stored to change it.
    stamp(unscheduled, NOW - 5000);
    for (const m of [passed, ahead, redelivered, unscheduled]) storage.storeMessage(m, ['orders']);
    storage.updateScheduledDeliveryTime('orders', passed.messageId, NOW - 1000);
    storage.updateScheduledDeliveryTime('orders', ahead.messageId, NOW + 60_000);
    storage.updateScheduledDeliveryTime('orders', redelivered.messageId, NOW + 30_000);
    const orders = load(storage).queues.get('orders') as Queue;
    const loaded = [
      ...orders.snapshot().map((r) => r.message),
      ...orders.scheduledSnapshot().map(({ reference }) => reference.message),
    ];
    const stamped = (id: number) =>
      loaded.find((m) => m.messageId === id)?.properties.get(MessageHeader.SCHEDULED_DELIVERY_TIME)?.value;
    expect(stamped(passed.messageId)).toBeUndefined();
    expect(stamped(ahead.messageId)).toBe(NOW + 60_000);
    expect(stamped(redelivered.messageId)).toBe(NOW + 30_000);
    expect(stamped(unscheduled.messageId)).toBe(NOW - 5000);
  });
});
