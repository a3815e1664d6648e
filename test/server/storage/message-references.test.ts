import { MessageReferences } from '../../../src/server/storage/message-references';
import { StorageTransaction } from '../../../src/server/storage/storage-transaction';
import type { TransactionSteps } from '../../../src/server/storage/transaction-steps';

/** Steps of an optional transaction, as the storage gives them to its parts. */
function stepsOf(current: () => StorageTransaction | null): TransactionSteps {
  return {
    changed: (undo) => current()?.onUndo(undo),
    afterCommit: (step) => {
      const transaction = current();
      if (transaction === null) step();
      else transaction.onCommit(step);
    },
  };
}

describe('MessageReferences', () => {
  let transaction: StorageTransaction | null;
  let references: MessageReferences;

  beforeEach(() => {
    transaction = null;
    references = new MessageReferences(stepsOf(() => transaction));
    references.addQueue(1);
    references.addQueue(2);
  });

  function reference(messageId: number, queueIds: number[]): void {
    const queues = references.queuesNotReferencing(messageId, queueIds);
    for (const queueId of queues) references.add(queueId, messageId);
    references.setCount(messageId, references.count(messageId) + queues.length);
  }

  it('deletes a message at its last release only', () => {
    reference(10, [1, 2]);
    expect(references.count(10)).toBe(2);
    expect(references.remove(1, 10)).toBe(true);
    expect(references.release(10)).toBe(false);
    expect(references.isReferenced(10)).toBe(true);
    expect(references.remove(2, 10)).toBe(true);
    expect(references.release(10)).toBe(true);
    expect(references.isReferenced(10)).toBe(false);
  });

  it('counts a queue named twice, or referencing the message already, once', () => {
    expect(references.queuesNotReferencing(10, [1, 1, 2, 1])).toEqual([1, 2]);
    reference(10, [1, 1]);
    expect(references.count(10)).toBe(1);
    expect(references.queuesNotReferencing(10, [1, 2])).toEqual([2]);
    reference(10, [1, 2]);
    expect(references.count(10)).toBe(2);
  });

  it('removes a reference a queue does not hold as nothing', () => {
    reference(10, [1]);
    expect(references.remove(2, 10)).toBe(false);
    expect(references.remove(1, 11)).toBe(false);
    expect(references.count(10)).toBe(1);
  });

  it('names the messages of a queue, for the caller to release before removing it', () => {
    reference(10, [1, 2]);
    reference(11, [1]);
    expect([...references.messagesOf(1)]).toEqual([10, 11]);
    references.removeQueue(1);
    expect(references.hasQueue(1)).toBe(false);
    expect([...references.messagesOf(1)]).toEqual([]);
    expect(references.references(1, 10)).toBe(false);
    expect(references.references(2, 10)).toBe(true);
  });

  it('takes back every change of a transaction whose commit was not written', () => {
    reference(10, [1]);
    transaction = new StorageTransaction();
    reference(10, [2]);
    reference(11, [1]);
    expect(references.remove(1, 10)).toBe(true);
    references.release(10);
    transaction.undo();
    transaction = null;
    expect(references.count(10)).toBe(1);
    expect(references.references(1, 10)).toBe(true);
    expect(references.references(2, 10)).toBe(false);
    expect(references.isReferenced(11)).toBe(false);
    expect(references.references(1, 11)).toBe(false);
  });

  it('counts references adopted at load, and ignores those of an unknown queue', () => {
    references.adopt(1, 10);
    references.adopt(2, 10);
    references.adopt(3, 11);
    expect(references.count(10)).toBe(2);
    expect(references.references(2, 10)).toBe(true);
    expect(references.references(3, 11)).toBe(false);
  });
});
