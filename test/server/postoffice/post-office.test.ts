import { CoreMessage } from '../../../src/core/protocol/core-message';
import { HornetQException } from '../../../src/core/protocol/hornetq-exception';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { AddressSettingsRepository } from '../../../src/server/postoffice/address-settings';
import type { Filter } from '../../../src/server/postoffice/filter';
import {
  REFERENCE_MEMORY_ESTIMATE,
  type MessageReference,
} from '../../../src/server/postoffice/message-reference';
import { PostOffice, type CreateQueueOptions } from '../../../src/server/postoffice/post-office';
import { HandleStatus, type Queue, type QueueConsumer } from '../../../src/server/postoffice/queue';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';

function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A toy filter language for these tests: "name=value" on a string property. */
function createFilter(expression: string): Filter {
  const [name, value] = expression.split('=') as [string, string];
  return {
    expression,
    match: (message) => message.properties.get(name)?.value === value,
  };
}

function postOffice(storage = new InMemoryStorage(), settings = new AddressSettingsRepository()): PostOffice {
  return new PostOffice(storage, settings, createFilter);
}

function queueOptions(
  name: string,
  address: string,
  extra: Partial<CreateQueueOptions> = {},
): CreateQueueOptions {
  return { name, address, filter: null, durable: false, temporary: false, ...extra };
}

function message(
  address: string,
  options: { durable?: boolean; color?: string; body?: string } = {},
): CoreMessage {
  const m = new CoreMessage();
  m.address = address;
  m.durable = options.durable ?? false;
  m.body = Buffer.from(options.body ?? 'payload');
  if (options.color !== undefined)
    m.properties.set('color', { kind: PropertyKind.STRING, value: options.color });
  return m;
}

/** What `m` and `references` references to it count for in its address' size. */
function held(m: CoreMessage, references: number): number {
  return m.memoryEstimate() + references * REFERENCE_MEMORY_ESTIMATE;
}

function send(office: PostOffice, m: CoreMessage): number {
  return office.route(office.prepare(m));
}

/** Takes every message offered and keeps the references, so the test can acknowledge them. */
class Collector implements QueueConsumer {
  readonly received: MessageReference[] = [];
  handle(reference: MessageReference): HandleStatus {
    this.received.push(reference);
    return HandleStatus.HANDLED;
  }
}

/** Delivers everything queued in `queue` and returns the references, leaving no consumer behind. */
async function drain(queue: Queue): Promise<MessageReference[]> {
  const consumer = new Collector();
  queue.addConsumer(consumer);
  await tick();
  queue.removeConsumer(consumer);
  return consumer.received;
}

describe('PostOffice queues', () => {
  it('creates, finds and refuses duplicate queues', () => {
    const office = postOffice();
    const queue = office.createQueue(queueOptions('q1', 'jms.queue.q1'));
    expect(office.getQueue('q1')).toBe(queue);
    expect(office.requireQueue('q1')).toBe(queue);
    expect(office.queuesBoundTo('jms.queue.q1')).toEqual([queue]);
    expect(() => office.createQueue(queueOptions('q1', 'elsewhere'))).toThrow(
      expect.objectContaining({ code: 'QUEUE_EXISTS' }) as Error,
    );
    expect(() => office.requireQueue('nope')).toThrow(
      expect.objectContaining({ code: 'QUEUE_DOES_NOT_EXIST' }) as Error,
    );
    expect(office.getQueue('nope')).toBeUndefined();
  });

  it('treats an empty filter as no filter', () => {
    const office = postOffice();
    expect(office.createQueue(queueOptions('q', 'a', { filter: '' })).filter).toBeNull();
    expect(office.createQueue(queueOptions('r', 'a', { filter: 'color=red' })).filter?.expression).toBe(
      'color=red',
    );
  });

  it('refuses to delete a queue while it has consumers', async () => {
    const office = postOffice();
    const queue = office.createQueue(queueOptions('q', 'a'));
    const consumer = new Collector();
    queue.addConsumer(consumer);
    let error: unknown;
    try {
      office.deleteQueue('q');
    } catch (e) {
      error = e;
    }
    expect(HornetQException.is(error, 'ILLEGAL_STATE')).toBe(true);
    expect((error as Error).message).toMatch(/has consumers/);
    expect(office.getQueue('q')).toBe(queue);
    expect(office.queuesBoundTo('a')).toEqual([queue]);
    send(office, message('a'));
    await tick();
    expect(consumer.received).toHaveLength(1);

    queue.removeConsumer(consumer);
    office.deleteQueue('q');
    expect(office.getQueue('q')).toBeUndefined();
    expect(office.queuesBoundTo('a')).toEqual([]);
    expect(() => office.deleteQueue('q')).toThrow(
      expect.objectContaining({ code: 'QUEUE_DOES_NOT_EXIST' }) as Error,
    );
  });

  it('deleting a queue unbinds it and releases its messages from the address size', () => {
    const office = postOffice();
    office.createQueue(queueOptions('q1', 'a'));
    const q2 = office.createQueue(queueOptions('q2', 'a'));
    send(office, message('a'));
    const routedSize = office.addressSize('a').size;
    expect(routedSize).toBeGreaterThan(0);
    office.deleteQueue('q1');
    expect(office.queuesBoundTo('a')).toEqual([q2]);
    // q2 still holds the message; q1's reference is gone.
    expect(office.addressSize('a').size).toBe(routedSize - REFERENCE_MEMORY_ESTIMATE);
    office.deleteQueue('q2');
    expect(office.addressSize('a').size).toBe(0);
    expect(send(office, message('a'))).toBe(0);
  });
});

describe('PostOffice routing', () => {
  it('routes a message to every queue bound to its address whose filter matches', () => {
    const office = postOffice();
    const all = office.createQueue(queueOptions('all', 'news'));
    const red = office.createQueue(queueOptions('red', 'news', { filter: 'color=red' }));
    const blue = office.createQueue(queueOptions('blue', 'news', { filter: 'color=blue' }));
    const other = office.createQueue(queueOptions('other', 'sport'));

    expect(send(office, message('news', { color: 'red' }))).toBe(2);
    expect(send(office, message('news', { color: 'blue' }))).toBe(2);
    expect(send(office, message('news'))).toBe(1);
    expect(send(office, message('nowhere'))).toBe(0);

    expect([all, red, blue, other].map((q) => q.messageCount)).toEqual([3, 1, 1, 0]);
    expect(red.snapshot().map((r) => r.message.properties.get('color')?.value)).toEqual(['red']);
    // A message that goes nowhere takes no room.
    expect(office.addressSize('nowhere').size).toBe(0);
  });

  it('gives each prepared message a new, increasing id', () => {
    const office = postOffice();
    const first = office.prepare(message('a')).message.messageId;
    const second = office.prepare(message('a')).message.messageId;
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
  });

  it('picks the queues at prepare time: a queue created before route does not get the message', () => {
    const office = postOffice();
    const early = office.createQueue(queueOptions('early', 'a'));
    const route = office.prepare(message('a'));
    const late = office.createQueue(queueOptions('late', 'a'));
    expect(office.route(route)).toBe(1);
    expect(early.messageCount).toBe(1);
    expect(late.messageCount).toBe(0);
  });

  it('a message counts its memory estimate once and each reference its own, until every reference is acknowledged', async () => {
    const office = postOffice();
    const q1 = office.createQueue(queueOptions('q1', 'topic'));
    const q2 = office.createQueue(queueOptions('q2', 'topic'));
    const m = message('topic', { body: 'x'.repeat(100) });
    send(office, m);
    // Shared by both queues: the message counted once, and two references.
    expect(office.addressSize('topic').size).toBe(held(m, 2));

    const [r1] = (await drain(q1)) as [MessageReference];
    const [r2] = (await drain(q2)) as [MessageReference];
    expect(r1.message).toBe(r2.message);
    // Consumer credits still count the message's encoding.
    expect(r1.size).toBe(m.encodedSize());
    q1.acknowledge(r1);
    expect(office.addressSize('topic').size).toBe(held(m, 1));
    q2.cancel(r2);
    expect(office.addressSize('topic').size).toBe(held(m, 1));
    const [again] = (await drain(q2)) as [MessageReference];
    q2.acknowledge(again);
    expect(office.addressSize('topic').size).toBe(0);
  });

  it('BLOCK: an action waiting for room runs once acknowledgements bring the address under its limit', async () => {
    const settings = new AddressSettingsRepository();
    settings.add('jms.queue.#', { maxSizeBytes: 1, addressFullPolicy: 'BLOCK' });
    const office = postOffice(new InMemoryStorage(), settings);
    const queue = office.createQueue(queueOptions('q', 'jms.queue.q'));
    expect(office.addressSize('jms.queue.q').policy).toBe('BLOCK');
    send(office, message('jms.queue.q'));
    send(office, message('jms.queue.q'));
    // Taken once the address holds something: an address that holds nothing is not kept.
    const size = office.addressSize('jms.queue.q');
    expect(size.isFull()).toBe(true);

    const granted = jest.fn();
    size.whenRoom(granted);
    const [first, second] = (await drain(queue)) as [MessageReference, MessageReference];
    queue.acknowledge(first);
    expect(granted).not.toHaveBeenCalled();
    queue.acknowledge(second);
    expect(granted).toHaveBeenCalledTimes(1);
    expect(size.size).toBe(0);
  });

  it('takes each address size from the settings that match it', () => {
    const settings = new AddressSettingsRepository();
    settings.add('jms.queue.#', { maxSizeBytes: 10, addressFullPolicy: 'FAIL' });
    const office = postOffice(new InMemoryStorage(), settings);
    expect(office.addressSize('jms.queue.a').policy).toBe('FAIL');
    expect(office.addressSize('jms.topic.a').policy).toBe('PAGE');
  });

  it('keeps an address size only while the address holds messages: looking one up, or sending where no queue is, keeps nothing', async () => {
    const office = postOffice();
    const queue = office.createQueue(queueOptions('q', 'a'));
    for (let i = 0; i < 100; i++) {
      expect(office.addressSize(`nowhere.${i}`).isFull()).toBe(false);
      send(office, message(`nowhere.${i}`));
    }
    expect(office.addressSizeCount).toBe(0);
    send(office, message('a'));
    expect(office.addressSizeCount).toBe(1);
    const [reference] = (await drain(queue)) as [MessageReference];
    queue.acknowledge(reference);
    expect(office.addressSize('a').size).toBe(0);
    expect(office.addressSizeCount).toBe(0);
  });
});

describe('PostOffice durability', () => {
  it('reloads durable queues and their durable messages from the same storage', () => {
    const storage = new InMemoryStorage();
    const before = postOffice(storage);
    before.createQueue(queueOptions('durable', 'a', { durable: true, filter: 'color=red' }));
    before.createQueue(queueOptions('volatile', 'a'));
    const kept = message('a', { durable: true, color: 'red', body: 'keep me' });
    send(before, kept);
    send(before, message('a', { durable: false, color: 'red', body: 'lost' }));
    send(before, message('a', { durable: true, color: 'blue', body: 'filtered out' }));

    const after = postOffice(storage);
    after.load();
    expect(after.getQueue('volatile')).toBeUndefined();
    const queue = after.requireQueue('durable');
    expect(queue.durable).toBe(true);
    expect(queue.address).toBe('a');
    expect(queue.filter?.expression).toBe('color=red');
    const references = queue.snapshot();
    expect(references.map((r) => r.message.body.toString())).toEqual(['keep me']);
    expect(references[0]?.message.messageId).toBe(kept.messageId);
    expect(after.addressSize('a').size).toBe(held(kept, 1));

    // Message ids go on from where they were.
    expect(after.prepare(message('a')).message.messageId).toBeGreaterThan(kept.messageId);
  });

  it('reloads durable messages in the order they were stored, with their delivery counts', () => {
    const storage = new InMemoryStorage();
    const before = postOffice(storage);
    before.createQueue(queueOptions('q', 'a', { durable: true }));
    const sent = ['one', 'two', 'three'].map((body) => message('a', { durable: true, body }));
    for (const m of sent) send(before, m);
    storage.updateDeliveryCount('q', sent[1]?.messageId as number, 3);

    const after = postOffice(storage);
    after.load();
    const references = after.requireQueue('q').snapshot();
    expect(references.map((r) => r.message.body.toString())).toEqual(['one', 'two', 'three']);
    expect(references.map((r) => r.deliveryCount)).toEqual([0, 3, 0]);
  });

  it('does not reload acknowledged messages', async () => {
    const storage = new InMemoryStorage();
    const before = postOffice(storage);
    const queue = before.createQueue(queueOptions('q', 'a', { durable: true }));
    send(before, message('a', { durable: true, body: 'acked' }));
    send(before, message('a', { durable: true, body: 'pending' }));
    const [acked] = (await drain(queue)) as [MessageReference];
    queue.acknowledge(acked);

    const after = postOffice(storage);
    after.load();
    expect(
      after
        .requireQueue('q')
        .snapshot()
        .map((r) => r.message.body.toString()),
    ).toEqual(['pending']);
  });

  it('a message reloaded into several durable queues counts once in its address size', async () => {
    const storage = new InMemoryStorage();
    const before = postOffice(storage);
    before.createQueue(queueOptions('sub1', 'topic', { durable: true }));
    before.createQueue(queueOptions('sub2', 'topic', { durable: true }));
    const m = message('topic', { durable: true });
    send(before, m);
    expect(before.addressSize('topic').size).toBe(held(m, 2));

    const after = postOffice(storage);
    after.load();
    expect(after.addressSize('topic').size).toBe(held(m, 2));
    const [r1] = (await drain(after.requireQueue('sub1'))) as [MessageReference];
    const [r2] = (await drain(after.requireQueue('sub2'))) as [MessageReference];
    r1.queue.acknowledge(r1);
    expect(after.addressSize('topic').size).toBe(held(m, 1));
    r2.queue.acknowledge(r2);
    expect(after.addressSize('topic').size).toBe(0);
  });

  it('a deleted durable queue is not reloaded', () => {
    const storage = new InMemoryStorage();
    const before = postOffice(storage);
    before.createQueue(queueOptions('q', 'a', { durable: true }));
    send(before, message('a', { durable: true }));
    before.deleteQueue('q');
    const after = postOffice(storage);
    after.load();
    expect(after.allQueues()).toEqual([]);
    expect(after.addressSize('a').size).toBe(0);
  });
});
