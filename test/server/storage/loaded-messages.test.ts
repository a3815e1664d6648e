import { BufferWriter, CoreMessage } from '../../../src/core/protocol';
import { LoadedMessages } from '../../../src/server/storage/loaded-messages';
import { MessageJournalLoader } from '../../../src/server/storage/message-journal-loader';
import { MessageReferences } from '../../../src/server/storage/message-references';
import type { TransactionSteps } from '../../../src/server/storage/transaction-steps';

/** Outside a transaction every change is final. */
const NO_TRANSACTION: TransactionSteps = { changed: () => undefined, afterCommit: (step) => step() };

function encoded(body: string): Buffer {
  const message = new CoreMessage();
  message.address = 'jms.queue.orders';
  message.durable = true;
  message.body = Buffer.from(body);
  const writer = new BufferWriter(message.encodedSize());
  message.encode(writer);
  return writer.toBuffer();
}

/** A load as the message journal loader leaves it: encodings, and each queue's references. */
function loadOf(
  encodings: Array<[number, string]>,
  references: Array<[number, number[]]>,
): MessageJournalLoader {
  const load = new MessageJournalLoader(new Set(references.map(([queueId]) => queueId)));
  for (const [messageId, body] of encodings) load.encodings.set(messageId, encoded(body));
  for (const [queueId, messageIds] of references)
    load.references.set(
      queueId,
      new Map(messageIds.map((messageId) => [messageId, { deliveryCount: 0, scheduledDeliveryTime: 0 }])),
    );
  return load;
}

/** Message 10, referenced by queues 1 and 2. */
const sharedByQueues1And2 = (): MessageJournalLoader =>
  loadOf(
    [[10, 'shared']],
    [
      [1, [10]],
      [2, [10]],
    ],
  );

describe('LoadedMessages', () => {
  let live: MessageReferences;
  let loaded: LoadedMessages;

  beforeEach(() => {
    live = new MessageReferences(NO_TRANSACTION);
    live.addQueue(1);
    live.addQueue(2);
    loaded = new LoadedMessages();
  });

  it('adopts the referenced messages and returns the others for deletion', () => {
    const load = loadOf(
      [
        [10, 'shared'],
        [11, 'unreferenced'],
      ],
      [
        [1, [10, 12]],
        [2, [10]],
        [3, [10]],
      ],
    );
    expect(loaded.adopt(load, live)).toEqual([11]);
    // 12 has no message; queue 3 is not a stored queue.
    expect(live.count(10)).toBe(2);
    expect(live.isReferenced(12)).toBe(false);
    expect(loaded.messageCount).toBe(1);
    expect(load.encodings.size).toBe(0);
  });

  it('hands each queue its messages once, decoded once and shared, then lets go of them', () => {
    loaded.adopt(sharedByQueues1And2(), live);
    const first = [...loaded.take(1)];
    expect(first.map((reference) => reference.message.body.toString())).toEqual(['shared']);
    expect(first[0]?.message.messageId).toBe(10);
    expect([...loaded.take(1)]).toEqual([]);
    expect(loaded.messageCount).toBe(1);
    const second = [...loaded.take(2)];
    expect(second[0]?.message).toBe(first[0]?.message);
    expect(loaded.messageCount).toBe(0);
  });

  it('lets go of a message once every queue acknowledged it or was deleted before taking it', () => {
    loaded.adopt(sharedByQueues1And2(), live);
    loaded.acknowledged(1, 10);
    loaded.acknowledged(1, 10);
    expect(loaded.messageCount).toBe(1);
    loaded.forgetQueue(2);
    expect(loaded.messageCount).toBe(0);
    expect([...loaded.take(1)]).toEqual([]);
  });

  it('names the message whose stored bytes cannot be decoded', () => {
    const load = loadOf([], [[1, [10]]]);
    load.encodings.set(10, Buffer.from([1, 2, 3]));
    loaded.adopt(load, live);
    expect(() => [...loaded.take(1)]).toThrow(/message journal: message 10 cannot be decoded/);
  });

  it('hands the duplicate ids over once', () => {
    loaded.adoptDuplicateIds([{ address: 'jms.queue.orders', ids: ['a'] }]);
    expect(loaded.takeDuplicateIds()).toEqual([{ address: 'jms.queue.orders', ids: ['a'] }]);
    expect(loaded.takeDuplicateIds()).toEqual([]);
  });
});
