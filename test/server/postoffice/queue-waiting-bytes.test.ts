import { CoreMessage } from '../../../src/core/protocol/core-message';
import { PropertyKind } from '../../../src/core/protocol';
import {
  MessageReference,
  REFERENCE_MEMORY_ESTIMATE,
  RoutedMessage,
} from '../../../src/server/postoffice/message-reference';
import { HandleStatus, Queue, type QueueConsumer } from '../../../src/server/postoffice/queue';
import { seededRandom } from '../../support/seeded-random';

/**
 * Queue.waitingBytes decides whether a queue reads more from its address' pages (PagingManager):
 * counted too high, the queue stops reading for good; too low, memory has no bound. Whatever
 * happens to a queue, it must equal what its waiting messages (queued and scheduled) count for.
 */

function weight(reference: MessageReference): number {
  return reference.routed.memoryEstimate + REFERENCE_MEMORY_ESTIMATE;
}

function expected(queue: Queue): number {
  let sum = 0;
  for (const reference of queue.snapshot()) sum += weight(reference);
  for (const { reference } of queue.scheduledSnapshot()) sum += weight(reference);
  return sum;
}

/** Takes what it is offered while `open`, and keeps it until the test settles it. */
class Holder implements QueueConsumer {
  open = true;
  readonly held: MessageReference[] = [];
  handle(reference: MessageReference): HandleStatus {
    if (!this.open) return HandleStatus.BUSY;
    this.held.push(reference);
    return HandleStatus.HANDLED;
  }
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Queue.waitingBytes', () => {
  test.each([false, true])(
    'equals what its waiting messages count for through a random life (last-value %s)',
    async (lastValue) => {
      const random = seededRandom(lastValue ? 7 : 3);
      const fell: number[] = [];
      const queue = new Queue(
        { name: 'q', address: 'a', filter: null, durable: false, temporary: false, lastValue },
        () => undefined,
        {
          expired: () => undefined,
          failed: (error) => {
            throw error;
          },
          waitingFell: (from) => fell.push(from.waitingBytes),
        },
      );
      queue.pagedCount = 1;
      const consumer = new Holder();
      consumer.open = false;
      queue.addConsumer(consumer);
      let id = 1;
      for (let step = 0; step < 600; step++) {
        const roll = random();
        if (roll < 0.35) {
          const message = new CoreMessage();
          message.messageId = id++;
          message.address = 'a';
          message.priority = Math.floor(random() * 10);
          message.body = Buffer.alloc(Math.floor(random() * 400));
          if (random() < 0.1) message.expiration = Date.now() + 1;
          if (lastValue && random() < 0.5)
            message.properties.set('_HQ_LVQ_NAME', { kind: PropertyKind.STRING, value: `k${id % 5}` });
          const reference = new MessageReference(new RoutedMessage(message, message.encodedSize()), queue);
          if (random() < 0.2) queue.schedule(reference, Date.now() + Math.floor(random() * 5));
          else queue.addTail(reference);
        } else if (roll < 0.55) {
          consumer.open = true;
          await tick();
          consumer.open = false;
        } else if (roll < 0.7 && consumer.held.length > 0) {
          queue.acknowledge(consumer.held.shift() as MessageReference);
        } else if (roll < 0.8 && consumer.held.length > 0) {
          queue.cancel(consumer.held.pop() as MessageReference);
        } else if (roll < 0.85 && consumer.held.length > 0) {
          queue.cancelUntil(consumer.held.pop() as MessageReference, Date.now() + 2);
        } else if (roll < 0.9) {
          queue.expireWaiting(Date.now() + 5);
        } else {
          await new Promise((resolve) => setTimeout(resolve, 3));
        }
        expect(queue.waitingBytes).toBe(expected(queue));
      }
      expect(fell.length).toBeGreaterThan(0);
      queue.delete();
      expect(queue.waitingBytes).toBe(0);
      queue.stop();
    },
  );
});
