import { CoreMessage } from '../../../src/core/protocol/core-message';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';

function durable(storage: InMemoryStorage, body: string): CoreMessage {
  const m = new CoreMessage();
  m.messageId = storage.generateMessageId();
  m.address = 'jms.queue.orders';
  m.durable = true;
  m.body = Buffer.from(body);
  return m;
}

describe('InMemoryStorage', () => {
  it('keeps durable state over a close and an open of the same object', async () => {
    const storage = new InMemoryStorage();
    await storage.open();
    storage.storeQueue({ name: 'orders', address: 'jms.queue.orders', filter: null });
    storage.storeQueue({ name: 'audit', address: 'jms.queue.orders', filter: null });
    const m = durable(storage, 'kept');
    storage.storeMessage(m, ['orders', 'audit']);
    storage.updateDeliveryCount('orders', m.messageId, 2);
    storage.storeDuplicateId('jms.queue.orders', 'dup-1');
    await storage.close();

    const report = await storage.open();
    expect(report).toEqual({
      location: 'in memory',
      queues: 2,
      messages: 1,
      bytes: 0,
      milliseconds: 0,
      notes: [],
    });
    expect(
      [...storage.loadReferences('orders')].map((r) => [r.message.body.toString(), r.deliveryCount]),
    ).toEqual([['kept', 2]]);
    expect(storage.loadDuplicateIds()).toEqual([{ address: 'jms.queue.orders', ids: ['dup-1'] }]);
    await storage.close();
  });

  it('never waits for a disk', () => {
    const storage = new InMemoryStorage();
    storage.storeQueue({ name: 'orders', address: 'jms.queue.orders', filter: null });
    storage.storeMessage(durable(storage, 'x'), ['orders']);
    expect(storage.syncRequests).toBe(0);
    let called = false;
    storage.afterSync((error) => {
      expect(error).toBeNull();
      called = true;
    });
    expect(called).toBe(true);
  });

  it('applies stores in a transaction at once and refuses nesting', () => {
    const storage = new InMemoryStorage();
    storage.storeQueue({ name: 'orders', address: 'jms.queue.orders', filter: null });
    expect(() => storage.commitTransaction()).toThrow(/outside a storage transaction/);
    storage.beginTransaction();
    expect(() => storage.beginTransaction()).toThrow(/do not nest/);
    storage.storeMessage(durable(storage, 'in tx'), ['orders']);
    expect(() => storage.deleteQueue('orders')).toThrow('deleteQueue(orders) inside a storage transaction');
    storage.commitTransaction();
    expect([...storage.loadReferences('orders')]).toHaveLength(1);
  });
});
