import { CoreMessage } from '../../../src/core/protocol/core-message';
import {
  AddressSettingsRepository,
  type AddressSettings,
} from '../../../src/server/postoffice/address-settings';
import { DeliveryCanceller, type DeadLetterSink } from '../../../src/server/postoffice/delivery-canceller';
import { MessageReference, RoutedMessage } from '../../../src/server/postoffice/message-reference';
import { HandleStatus, Queue, type QueueConsumer } from '../../../src/server/postoffice/queue';

const ADDRESS = 'jms.queue.orders';
const NOW = 1_000_000;

/** Storage calls the canceller makes, in order. */
type StorageCall = [call: string, queue: string, messageId: number, value: number];

describe('DeliveryCanceller', () => {
  const queues: Queue[] = [];
  let removed: MessageReference[];
  let storageCalls: StorageCall[];
  let deadLettered: Array<{ reference: MessageReference; settings: AddressSettings }>;

  beforeEach(() => {
    removed = [];
    storageCalls = [];
    deadLettered = [];
  });

  afterEach(() => {
    for (const queue of queues.splice(0)) queue.stop();
  });

  function queue(name: string, durable = false): Queue {
    const created = new Queue(
      { name, address: ADDRESS, filter: null, durable, temporary: false },
      (reference) => removed.push(reference),
    );
    queues.push(created);
    return created;
  }

  /**
   * A reference of `into` that its consumer has been handed `deliveries` times and is still
   * delivering (so that cancelling or acknowledging it is what the queue expects).
   */
  function delivered(into: Queue, messageId: number, deliveries: number, durable = false): MessageReference {
    const m = new CoreMessage();
    m.messageId = messageId;
    m.address = ADDRESS;
    m.durable = durable;
    const reference = new MessageReference(new RoutedMessage(m, m.encodedSize()), into);
    into.addTail(reference);
    const consumer: QueueConsumer = { handle: () => HandleStatus.HANDLED };
    into.addConsumer(consumer);
    into.deliverNow();
    into.removeConsumer(consumer);
    reference.deliveryCount = deliveries;
    return reference;
  }

  function canceller(settings: Parameters<AddressSettingsRepository['add']>[1] = {}): DeliveryCanceller {
    const repository = new AddressSettingsRepository();
    repository.add(ADDRESS, settings);
    const storage = {
      updateDeliveryCount: (name: string, id: number, count: number) =>
        storageCalls.push(['deliveryCount', name, id, count]),
      updateScheduledDeliveryTime: (name: string, id: number, time: number) =>
        storageCalls.push(['scheduledTime', name, id, time]),
    };
    const sink: DeadLetterSink = {
      sendToDeadLetter: (reference, s) => deadLettered.push({ reference, settings: s }),
    };
    return new DeliveryCanceller(storage, repository, sink);
  }

  it('puts delivered references back at the head ahead of undelivered ones, per queue', () => {
    const orders = queue('orders');
    const a = delivered(orders, 1, 1);
    const b = delivered(orders, 2, 1);
    const c = delivered(orders, 3, 0);
    canceller().cancel([a, b], [c], NOW);
    expect(orders.snapshot()).toEqual([a, b, c]);
    expect(deadLettered).toEqual([]);
  });

  it('dead-letters and kills a reference that has had max-delivery-attempts', () => {
    const orders = queue('orders');
    const tired = delivered(orders, 1, 3);
    const fresh = delivered(orders, 2, 2);
    canceller({ maxDeliveryAttempts: 3, deadLetterAddress: 'jms.queue.DLQ' }).cancel([tired, fresh], [], NOW);
    expect(deadLettered.map((d) => [d.reference, d.settings.deadLetterAddress])).toEqual([
      [tired, 'jms.queue.DLQ'],
    ]);
    expect(removed).toEqual([tired]);
    expect(orders.snapshot()).toEqual([fresh]);
  });

  it('holds a failed delivery back for the redelivery delay, and records it for a persistent message', () => {
    const orders = queue('orders', true);
    const reference = delivered(orders, 9, 2, true);
    canceller({ redeliveryDelay: 1000, redeliveryDelayMultiplier: 2 }).cancel([reference], [], NOW);
    expect(orders.snapshot()).toEqual([]);
    expect(orders.scheduledSnapshot()).toEqual([{ reference, time: NOW + 2000 }]);
    expect(storageCalls).toEqual([
      ['deliveryCount', 'orders', 9, 2],
      ['scheduledTime', 'orders', 9, NOW + 2000],
    ]);
  });

  it('writes nothing to storage for a message that is not persistent in its queue', () => {
    const orders = queue('orders', false);
    canceller({ redeliveryDelay: 1000 }).cancel([delivered(orders, 1, 1, true)], [], NOW);
    expect(storageCalls).toEqual([]);
  });

  it('applies no rules to the references of a deleted queue: they go back, which releases them', () => {
    const orders = queue('orders');
    const reference = delivered(orders, 1, 5);
    orders.delete();
    canceller({ maxDeliveryAttempts: 1 }).cancel([reference], [], NOW);
    expect(deadLettered).toEqual([]);
    expect(removed).toEqual([reference]);
  });
});
