import { CoreMessage } from '../../../src/core/protocol/core-message';
import { HornetQException } from '../../../src/core/protocol/hornetq-exception';
import { PropertyKind, type TypedValue } from '../../../src/core/protocol/typed-properties';
import type { Logger } from '../../../src/core/remoting';
import {
  AddressSettingsRepository,
  type AddressSettings,
} from '../../../src/server/postoffice/address-settings';
import { MessageHeader } from '../../../src/server/postoffice/message-headers';
import {
  REFERENCE_MEMORY_ESTIMATE,
  type MessageReference,
} from '../../../src/server/postoffice/message-reference';
import { PostOffice, type PostOfficeOptions } from '../../../src/server/postoffice/post-office';
import { HandleStatus, type Queue, type QueueConsumer } from '../../../src/server/postoffice/queue';
import { Transaction } from '../../../src/server/session/transaction';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';
import { sleep } from '../../support/wait';

function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** Keeps warnings so that tests can check a message dropped for lack of a destination says so. */
class WarningLog implements Logger {
  readonly warnings: string[] = [];
  debug(): void {}
  info(): void {}
  warn(_object: object, message?: string): void {
    this.warnings.push(message ?? '');
  }
  error(): void {}
  child(): Logger {
    return this;
  }
}

/** Every post office a test made, stopped after it so that no queue timer outlives the test. */
const offices: PostOffice[] = [];
afterEach(() => {
  for (const office of offices.splice(0)) office.stop();
});

interface Rig {
  office: PostOffice;
  storage: InMemoryStorage;
  log: WarningLog;
}

function setUp(
  settings: Record<string, Partial<AddressSettings>> = {},
  options: Partial<PostOfficeOptions> = {},
  storage = new InMemoryStorage(),
): Rig {
  const repository = new AddressSettingsRepository();
  for (const [match, value] of Object.entries(settings)) repository.add(match, value);
  const log = new WarningLog();
  const office = new PostOffice(
    storage,
    repository,
    () => {
      throw new Error('no filters here');
    },
    { logger: log, ...options },
  );
  offices.push(office);
  return { office, storage, log };
}

function queue(office: PostOffice, name: string, durable = false, address = name): Queue {
  return office.createQueue({ name, address, filter: null, durable, temporary: false });
}

function message(
  address: string,
  body: string,
  options: { durable?: boolean; expiration?: number; properties?: Record<string, TypedValue> } = {},
): CoreMessage {
  const m = new CoreMessage();
  m.address = address;
  m.body = Buffer.from(body);
  m.durable = options.durable ?? false;
  m.expiration = options.expiration ?? 0;
  for (const [name, value] of Object.entries(options.properties ?? {})) m.properties.set(name, value);
  return m;
}

const str = (value: string): TypedValue => ({ kind: PropertyKind.STRING, value });
const long = (value: number): TypedValue => ({ kind: PropertyKind.LONG, value });

function send(office: PostOffice, m: CoreMessage): number {
  return office.send(office.prepare(m));
}

/** Takes what it is offered while open; keeps the references so that tests can ack or cancel them. */
class Collector implements QueueConsumer {
  readonly received: MessageReference[] = [];
  constructor(private readonly limit = Infinity) {}
  handle(reference: MessageReference): HandleStatus {
    if (this.received.length >= this.limit) return HandleStatus.BUSY;
    reference.deliveryCount++;
    this.received.push(reference);
    return HandleStatus.HANDLED;
  }
  bodies(): string[] {
    return this.received.map((r) => r.message.body.toString());
  }
}

/** Delivers one message from `q` (as a consumer would, delivery count + 1) and detaches. */
async function takeOne(q: Queue): Promise<MessageReference> {
  const consumer = new Collector(1);
  q.addConsumer(consumer);
  await until(() => consumer.received.length > 0, `a message from ${q.name}`);
  q.removeConsumer(consumer);
  return consumer.received[0] as MessageReference;
}

function property(m: CoreMessage, name: string): unknown {
  return m.properties.get(name)?.value;
}

describe('expiry', () => {
  it('an expired message moves to the expiry address as a copy with the original headers', () => {
    const { office } = setUp({ orders: { expiryAddress: 'expired' } });
    const orders = queue(office, 'orders');
    const expired = queue(office, 'expired');
    const original = message('orders', 'late', { expiration: Date.now() + 5 });
    send(office, original);
    const scanAt = original.expiration + 1;
    office.expireMessages(scanAt);
    expect(orders.messageCount).toBe(0);
    expect(orders.messagesExpired).toBe(1);
    const [copy] = expired.snapshot().map((r) => r.message) as [CoreMessage];
    expect(copy.body.toString()).toBe('late');
    expect(copy.messageId).not.toBe(original.messageId);
    expect(copy.address).toBe('expired');
    expect(copy.expiration).toBe(0);
    expect(property(copy, MessageHeader.ORIGINAL_ADDRESS)).toBe('orders');
    expect(property(copy, MessageHeader.ORIGINAL_QUEUE)).toBe('orders');
    expect(property(copy, MessageHeader.ORIGINAL_MESSAGE_ID)).toBe(original.messageId);
    expect(property(copy, MessageHeader.ACTUAL_EXPIRY_TIME)).toBe(scanAt);
    expect(copy.properties.get(MessageHeader.ORIGINAL_MESSAGE_ID)?.kind).toBe(PropertyKind.LONG);
  });

  it('without an expiry address (or one nothing is bound to) the expired message is dropped', () => {
    const { office, log } = setUp({ b: { expiryAddress: 'unbound' } });
    const a = queue(office, 'a');
    const b = queue(office, 'b');
    send(office, message('a', 'x', { expiration: Date.now() + 1 }));
    send(office, message('b', 'y', { expiration: Date.now() + 1 }));
    office.expireMessages(Date.now() + 10);
    expect([a.messageCount, b.messageCount]).toEqual([0, 0]);
    expect(office.addressSize('a').size + office.addressSize('b').size).toBe(0);
    expect(log.warnings.join('\n')).toMatch(/No bindings for Expiry Address unbound/);
  });

  it('expiry-delay gives messages sent without an expiration one; others keep theirs', () => {
    const { office } = setUp({ a: { expiryDelay: 1000 } });
    queue(office, 'a');
    const before = Date.now();
    const plain = office.prepare(message('a', 'x')).message;
    expect(plain.expiration).toBeGreaterThanOrEqual(before + 1000);
    expect(plain.expiration).toBeLessThanOrEqual(Date.now() + 1000);
    const own = office.prepare(message('a', 'y', { expiration: 42 })).message;
    expect(own.expiration).toBe(42);
    const elsewhere = office.prepare(message('b', 'z')).message;
    expect(elsewhere.expiration).toBe(0);
  });
});

describe('dead-letter address', () => {
  it('after max-delivery-attempts failed deliveries the message moves to the DLA; delivery count restarts', async () => {
    const { office } = setUp({ '#': { maxDeliveryAttempts: 3, deadLetterAddress: 'dlq' } });
    const orders = queue(office, 'orders');
    const dlq = queue(office, 'dlq');
    const original = message('orders', 'poison', { expiration: Date.now() + 60_000 });
    send(office, original);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const ref = await takeOne(orders);
      expect(ref.deliveryCount).toBe(attempt);
      office.cancel([ref]);
      expect(orders.messageCount).toBe(attempt < 3 ? 1 : 0);
    }
    expect(orders.messagesKilled).toBe(1);
    const [copy] = dlq.snapshot() as [MessageReference];
    expect(copy.deliveryCount).toBe(0);
    expect(copy.message.messageId).not.toBe(original.messageId);
    expect(copy.message.expiration).toBe(0);
    expect(property(copy.message, MessageHeader.ORIGINAL_ADDRESS)).toBe('orders');
    expect(property(copy.message, MessageHeader.ORIGINAL_QUEUE)).toBe('orders');
    expect(property(copy.message, MessageHeader.ORIGINAL_MESSAGE_ID)).toBe(original.messageId);
    expect(copy.message.properties.has(MessageHeader.ACTUAL_EXPIRY_TIME)).toBe(false);
    expect(office.addressSize('orders').size).toBe(0);
  });

  it('a message moved again keeps its first origin', async () => {
    const { office } = setUp({
      orders: { maxDeliveryAttempts: 1, deadLetterAddress: 'dlq' },
      dlq: { maxDeliveryAttempts: 1, deadLetterAddress: 'last' },
    });
    const orders = queue(office, 'orders');
    const dlq = queue(office, 'dlq');
    const last = queue(office, 'last');
    const original = message('orders', 'x');
    send(office, original);
    office.cancel([await takeOne(orders)]);
    office.cancel([await takeOne(dlq)]);
    const [copy] = last.snapshot().map((r) => r.message) as [CoreMessage];
    expect(property(copy, MessageHeader.ORIGINAL_ADDRESS)).toBe('orders');
    expect(property(copy, MessageHeader.ORIGINAL_QUEUE)).toBe('orders');
    expect(property(copy, MessageHeader.ORIGINAL_MESSAGE_ID)).toBe(original.messageId);
  });

  it('no DLA, or a DLA bound to nothing: the message is dropped with a warning', async () => {
    const { office, log } = setUp({
      a: { maxDeliveryAttempts: 1 },
      b: { maxDeliveryAttempts: 1, deadLetterAddress: 'nowhere' },
    });
    const a = queue(office, 'a');
    const b = queue(office, 'b');
    send(office, message('a', 'x'));
    send(office, message('b', 'y'));
    office.cancel([await takeOne(a), await takeOne(b)]);
    expect([a.messageCount, b.messageCount, a.messagesKilled, b.messagesKilled]).toEqual([0, 0, 1, 1]);
    expect(log.warnings.join('\n')).toMatch(/No Dead Letter Address configured for queue a/);
    expect(log.warnings.join('\n')).toMatch(/No bindings for Dead Letter Address nowhere/);
  });

  it('messages the client never saw go back without counting as a failed delivery', async () => {
    const { office } = setUp({ '#': { maxDeliveryAttempts: 1, deadLetterAddress: 'dlq' } });
    const orders = queue(office, 'orders');
    const dlq = queue(office, 'dlq');
    send(office, message('orders', 'x'));
    const ref = await takeOne(orders);
    ref.deliveryCount--; // what ServerConsumer.takeBackDelivering(false) does
    office.cancel([], [ref]);
    expect([orders.messageCount, dlq.messageCount]).toEqual([1, 0]);
  });

  it('send-to-dla-on-no-route sends an unroutable message to the DLA with its origin', () => {
    const { office } = setUp({ 'jms.#': { sendToDlaOnNoRoute: true, deadLetterAddress: 'dlq' } });
    const dlq = queue(office, 'dlq');
    const m = message('jms.queue.nobody', 'lost');
    expect(send(office, m)).toBe(1);
    const [routed] = dlq.snapshot().map((r) => r.message) as [CoreMessage];
    expect(routed.address).toBe('dlq');
    expect(property(routed, MessageHeader.ORIGINAL_ADDRESS)).toBe('jms.queue.nobody');
    // Elsewhere the default applies: dropped.
    expect(send(office, message('other', 'dropped'))).toBe(0);
  });
});

describe('redelivery delay', () => {
  it('a failed delivery waits out redelivery-delay × multiplier^(n−1) before coming back', async () => {
    const { office } = setUp({
      q: { redeliveryDelay: 40, redeliveryDelayMultiplier: 2, maxDeliveryAttempts: -1 },
    });
    const q = queue(office, 'q');
    send(office, message('q', 'x'));
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const ref = await takeOne(q);
      office.cancel([ref]);
      const cancelledAt = Date.now();
      expect(q.scheduledCount).toBe(1);
      expect(q.messageCount).toBe(1);
      await until(() => q.scheduledCount === 0, 'the redelivery');
      waits.push(Date.now() - cancelledAt);
    }
    expect(waits[0]).toBeGreaterThanOrEqual(39);
    expect(waits[1]).toBeGreaterThanOrEqual(79);
    expect(waits[2]).toBeGreaterThanOrEqual(159);
  });

  it('only the failed message waits; the others are delivered meanwhile', async () => {
    const { office } = setUp({ q: { redeliveryDelay: 10_000 } });
    const q = queue(office, 'q');
    send(office, message('q', 'first'));
    send(office, message('q', 'second'));
    office.cancel([await takeOne(q)]);
    const consumer = new Collector();
    q.addConsumer(consumer);
    await tick();
    expect(consumer.bodies()).toEqual(['second']);
    expect(q.scheduledCount).toBe(1);
  });
});

describe('duplicate detection', () => {
  const dupl = (id: string): Record<string, TypedValue> => ({
    [MessageHeader.DUPLICATE_DETECTION_ID]: str(id),
  });

  it('outside a transaction a repeated id is dropped silently; ids are per address', () => {
    const { office } = setUp();
    const a = queue(office, 'a');
    const b = queue(office, 'b');
    expect(send(office, message('a', '1', { properties: dupl('x') }))).toBe(1);
    expect(send(office, message('a', '2', { properties: dupl('x') }))).toBe(0);
    expect(send(office, message('b', '3', { properties: dupl('x') }))).toBe(1);
    expect([a.messageCount, b.messageCount]).toEqual([1, 1]);
  });

  it('a string id and a bytes id with the same characters are different ids', () => {
    const { office } = setUp();
    const a = queue(office, 'a');
    send(office, message('a', '1', { properties: dupl('ab') }));
    send(
      office,
      message('a', '2', {
        properties: {
          [MessageHeader.DUPLICATE_DETECTION_ID]: { kind: PropertyKind.BYTES, value: Buffer.from('ab') },
        },
      }),
    );
    expect(a.messageCount).toBe(2);
  });

  it('a transaction is refused whole when one id repeats the cache or another send of it', async () => {
    const { office } = setUp();
    const a = queue(office, 'a');
    send(office, message('a', 'seen', { properties: dupl('seen') }));
    const consumed = await takeOne(a);
    const held = office.addressSize('a').size;

    const tx = new Transaction();
    tx.addAcknowledgements([consumed]);
    tx.addSend(office, office.prepare(message('a', 'new', { properties: dupl('new') })));
    tx.addSend(office, office.prepare(message('a', 'again', { properties: dupl('seen') })));
    let error: unknown;
    try {
      tx.commit(office);
    } catch (e) {
      error = e;
    }
    expect(HornetQException.is(error, 'DUPLICATE_ID_REJECTED')).toBe(true);
    // Nothing was sent, the acknowledgement went back, and 'new' was not recorded; the address
    // counts only the message it holds, none of the refused sends.
    expect(a.snapshot().map((r) => r.message.body.toString())).toEqual(['seen']);
    expect(office.addressSize('a').size).toBe(held);
    expect(a.deliveringCount).toBe(0);
    expect(send(office, message('a', 'new', { properties: dupl('new') }))).toBe(1);

    const within = new Transaction();
    within.addSend(office, office.prepare(message('a', '1', { properties: dupl('twice') })));
    within.addSend(office, office.prepare(message('a', '2', { properties: dupl('twice') })));
    expect(() => within.commit(office)).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_ID_REJECTED' }) as Error,
    );
  });

  it('a committed transaction records its ids; a rolled-back one does not', () => {
    const { office } = setUp();
    queue(office, 'a');
    const rolledBack = new Transaction();
    rolledBack.addSend(office, office.prepare(message('a', '1', { properties: dupl('r') })));
    rolledBack.rollback(office);
    expect(send(office, message('a', '2', { properties: dupl('r') }))).toBe(1);

    const committed = new Transaction();
    committed.addSend(office, office.prepare(message('a', '3', { properties: dupl('c') })));
    committed.commit(office);
    expect(send(office, message('a', '4', { properties: dupl('c') }))).toBe(0);
  });

  it('id-cache-size bounds the cache: the oldest id is accepted again once evicted', () => {
    const { office } = setUp({}, { idCacheSize: 2 });
    const a = queue(office, 'a');
    for (const id of ['1', '2', '3']) send(office, message('a', id, { properties: dupl(id) }));
    expect(send(office, message('a', 'again', { properties: dupl('1') }))).toBe(1);
    expect(send(office, message('a', 'again', { properties: dupl('3') }))).toBe(0);
    expect(a.messageCount).toBe(4);
  });
});

describe('durability of the new state', () => {
  it('a scheduled durable message is still scheduled after a reload, and counts', async () => {
    const storage = new InMemoryStorage();
    const before = setUp({}, {}, storage).office;
    queue(before, 'q', true);
    const at = Date.now() + 150;
    send(
      before,
      message('q', 'later', {
        durable: true,
        properties: { [MessageHeader.SCHEDULED_DELIVERY_TIME]: long(at) },
      }),
    );
    before.stop();

    const after = setUp({}, {}, storage).office;
    after.load();
    const q = after.requireQueue('q');
    expect(q.scheduledCount).toBe(1);
    expect(q.messageCount).toBe(1);
    const consumer = new Collector();
    q.addConsumer(consumer);
    await until(() => consumer.received.length === 1, 'the scheduled message');
    expect(Date.now()).toBeGreaterThanOrEqual(at);
  });

  it('a delivery count and a redelivery delay set at cancel survive a reload', async () => {
    const storage = new InMemoryStorage();
    const before = setUp({ q: { redeliveryDelay: 60_000 } }, {}, storage).office;
    const q = queue(before, 'q', true);
    send(before, message('q', 'x', { durable: true }));
    before.cancel([await takeOne(q)]);
    before.stop();

    const after = setUp({ q: { redeliveryDelay: 60_000 } }, {}, storage).office;
    after.load();
    const reloaded = after.requireQueue('q');
    const [entry] = reloaded.scheduledSnapshot() as [{ reference: MessageReference; time: number }];
    expect(entry.reference.deliveryCount).toBe(1);
    expect(entry.time).toBeGreaterThan(Date.now() + 50_000);
  });

  const idOf = (id: string): Record<string, TypedValue> => ({
    [MessageHeader.DUPLICATE_DETECTION_ID]: str(id),
  });

  it('the duplicate-id cache survives a reload when persisted, and not otherwise', () => {
    for (const persistIdCache of [true, false]) {
      const storage = new InMemoryStorage();
      const before = setUp({}, { persistIdCache }, storage).office;
      queue(before, 'q', true);
      send(before, message('q', '1', { properties: { [MessageHeader.DUPLICATE_DETECTION_ID]: str('id') } }));
      const after = setUp({}, { persistIdCache }, storage).office;
      after.load();
      const routed = send(
        after,
        message('q', '2', { properties: { [MessageHeader.DUPLICATE_DETECTION_ID]: str('id') } }),
      );
      expect({ persistIdCache, routed }).toEqual({ persistIdCache, routed: persistIdCache ? 0 : 1 });
    }
  });

  it('only an address with queues remembers ids; it forgets them, in storage too, when its last queue goes', () => {
    const storage = new InMemoryStorage();
    const { office } = setUp({}, { persistIdCache: true }, storage);
    expect(send(office, message('nowhere', '1', { properties: idOf('x') }))).toBe(0);
    expect(office.duplicateIdCacheCount).toBe(0);
    queue(office, 'q1', true, 'a');
    queue(office, 'q2', true, 'a');
    expect(send(office, message('a', '2', { properties: idOf('x') }))).toBe(2);
    expect(storage.loadDuplicateIds()).toEqual([{ address: 'a', ids: ['s:x'] }]);
    office.deleteQueue('q1');
    // q2 is still bound to a: its ids stay.
    expect(send(office, message('a', '3', { properties: idOf('x') }))).toBe(0);
    office.deleteQueue('q2');
    expect(office.duplicateIdCacheCount).toBe(0);
    expect(storage.loadDuplicateIds()).toEqual([]);
    queue(office, 'q3', false, 'a');
    expect(send(office, message('a', '4', { properties: idOf('x') }))).toBe(1);
  });

  it('on reload, ids stored for an address that no longer has queues leave storage', () => {
    const storage = new InMemoryStorage();
    storage.storeDuplicateId('gone', 's:x');
    const before = setUp({}, { persistIdCache: true }, storage).office;
    queue(before, 'q', true);
    send(before, message('q', '1', { properties: idOf('y') }));
    const after = setUp({}, { persistIdCache: true }, storage).office;
    after.load();
    expect(after.duplicateIdCacheCount).toBe(1);
    expect(storage.loadDuplicateIds()).toEqual([{ address: 'q', ids: ['s:y'] }]);
  });
});

describe('last-value queues from address settings', () => {
  it('a queue created on an address with lastValueQueue keeps the newest per _HQ_LVQ_NAME', () => {
    const { office } = setUp({ 'prices.#': { lastValueQueue: true } });
    const prices = queue(office, 'prices.stock');
    const plain = queue(office, 'plain');
    for (const target of ['prices.stock', 'plain']) {
      for (const body of ['1', '2'])
        send(
          office,
          message(target, body, { properties: { [MessageHeader.LAST_VALUE_NAME]: str('STOCK') } }),
        );
    }
    expect(prices.isLastValue).toBe(true);
    expect(prices.snapshot().map((r) => r.message.body.toString())).toEqual(['2']);
    expect(plain.snapshot().map((r) => r.message.body.toString())).toEqual(['1', '2']);
    const newest = prices.snapshot()[0]?.message as CoreMessage;
    expect(office.addressSize('prices.stock').size).toBe(newest.memoryEstimate() + REFERENCE_MEMORY_ESTIMATE);
  });
});

/** Records the storage calls that matter to a move, in order. */
class RecordingStorage extends InMemoryStorage {
  readonly calls: string[] = [];
  override beginTransaction(): void {
    this.calls.push('begin');
    super.beginTransaction();
  }
  override commitTransaction(): void {
    this.calls.push('commit');
    super.commitTransaction();
  }
  override storeMessage(message: CoreMessage, queueNames: readonly string[]): void {
    this.calls.push(`store ${queueNames.join(',')}`);
    super.storeMessage(message, queueNames);
  }
  override storeAcknowledge(queueName: string, messageId: number): void {
    this.calls.push(`ack ${queueName}`);
    super.storeAcknowledge(queueName, messageId);
  }
}

describe('moves are stored as one transaction', () => {
  it('a dead-lettered copy and the removal of its original: after a crash both or neither', async () => {
    const storage = new RecordingStorage();
    await storage.open();
    const { office } = setUp({ '#': { maxDeliveryAttempts: 1, deadLetterAddress: 'dlq' } }, {}, storage);
    const orders = queue(office, 'orders', true);
    queue(office, 'dlq', true);
    send(office, message('orders', 'poison', { durable: true }));
    const ref = await takeOne(orders);
    storage.calls.length = 0;
    office.cancel([ref]);
    expect(storage.calls).toEqual(['begin', 'store dlq', 'ack orders', 'commit']);
  });

  it('an expired copy and the removal of its original', async () => {
    const storage = new RecordingStorage();
    await storage.open();
    const { office } = setUp({ orders: { expiryAddress: 'expired' } }, {}, storage);
    queue(office, 'orders', true);
    queue(office, 'expired', true);
    send(office, message('orders', 'late', { durable: true, expiration: Date.now() + 1 }));
    await sleep(5);
    storage.calls.length = 0;
    office.expireMessages(Date.now());
    expect(storage.calls).toEqual(['begin', 'store expired', 'ack orders', 'commit']);
  });
});
