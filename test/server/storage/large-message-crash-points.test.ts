import { CoreMessage } from '../../../src/core/protocol/core-message';
import { HornetQException } from '../../../src/core/protocol/hornetq-exception';
import type { AddressSettings } from '../../../src/server/postoffice/address-settings';
import { MessageHeader } from '../../../src/server/postoffice/message-headers';
import type { MessageReference } from '../../../src/server/postoffice/message-reference';
import { HandleStatus, type Queue, type QueueConsumer } from '../../../src/server/postoffice/queue';
import { Transaction } from '../../../src/server/session/transaction';
import { enumerateCrashPoints, type CrashPointScenario } from '../../support/crash-points';
import {
  DUPLICATE_ID,
  expectBothSides,
  expectNoLargeMessageDropped,
  type Life,
  message,
  MODES,
  names,
  outcomeOf,
  queue,
  start,
  stop,
  synced,
  until,
} from '../../support/journal-crash-life';

/**
 * Finding 2 and 3 of issue 24: a transaction carrying large messages (and a duplicate id stored
 * with one) is all there after a crash or not at all, at every write and sync boundary, and a
 * send retried with its duplicate id after a crash is there exactly once. Driven through the post
 * office, on the file journal and the large-message store, over the fault file system.
 */

class Collector implements QueueConsumer {
  readonly received: MessageReference[] = [];
  handle(reference: MessageReference): HandleStatus {
    if (this.received.length > 0) return HandleStatus.BUSY;
    reference.deliveryCount++;
    this.received.push(reference);
    return HandleStatus.HANDLED;
  }
}

/** Delivers one message of `q`, as a consumer would, and detaches. */
async function takeOne(q: Queue): Promise<MessageReference> {
  const consumer = new Collector();
  q.addConsumer(consumer);
  await until(() => consumer.received.length > 0, `a message from ${q.name}`);
  q.removeConsumer(consumer);
  return consumer.received[0] as MessageReference;
}

describe('a transaction with large messages through every crash point', () => {
  const LARGE = ['B', 'C', 'D'];

  const scenario: CrashPointScenario<Life, MessageReference> = {
    start: (fileSystem) => start(fileSystem, {}),
    stop,
    async setUp(life) {
      const src = queue(life, 'src');
      queue(life, 'dst');
      life.office.send(life.office.prepare(message('src', 'A')));
      await synced(life);
      return takeOne(src);
    },
    step(life, consumed, done) {
      // Consume A from src, send B, C, D (large; B with a duplicate id) and e (small) to dst, commit.
      const tx = new Transaction();
      tx.addAcknowledgements([consumed]);
      for (const name of LARGE) {
        const duplicateId = name === 'B' ? DUPLICATE_ID : undefined;
        tx.addSend(
          life.office,
          life.office.prepare(message('dst', name, { large: true, ...(duplicateId ? { duplicateId } : {}) })),
        );
      }
      tx.addSend(life.office, life.office.prepare(message('dst', 'e')));
      tx.commit(life.office);
      life.storage.afterSync(done);
    },
    async check(life, point) {
      expectNoLargeMessageDropped(life);
      const outcome = outcomeOf(
        { src: names(life, 'src'), dst: names(life, 'dst') },
        {
          committed: { src: [], dst: [...LARGE, 'e'] },
          'not committed': { src: ['A'], dst: [] },
        },
        point,
      );
      // The client retries B with its duplicate id: refused if the commit is there, taken if not.
      const retry = new Transaction();
      retry.addSend(
        life.office,
        life.office.prepare(message('dst', 'B', { large: true, duplicateId: DUPLICATE_ID })),
      );
      let refusal: unknown = null;
      try {
        retry.commit(life.office);
      } catch (error) {
        refusal = error;
      }
      expect(HornetQException.is(refusal, 'DUPLICATE_ID_REJECTED')).toBe(outcome === 'committed');
      await synced(life);
      expect(names(life, 'dst').filter((name) => name === 'B')).toEqual(['B']);
      return outcome;
    },
  };

  it('is all there or not at all, and a retry with its duplicate id leaves B exactly once', async () => {
    expectBothSides(await enumerateCrashPoints(scenario));
  }, 120_000);
});

describe('a large message sent with a duplicate id, outside a transaction, through every crash point', () => {
  const scenario: CrashPointScenario<Life, null> = {
    start: (fileSystem) => start(fileSystem, {}),
    stop,
    async setUp(life) {
      queue(life, 'dst');
      await synced(life);
      return null;
    },
    step(life, _context, done) {
      life.office.send(life.office.prepare(message('dst', 'B', { large: true, duplicateId: DUPLICATE_ID })));
      life.storage.afterSync(done);
    },
    async check(life, point) {
      expectNoLargeMessageDropped(life);
      const outcome = outcomeOf(
        { dst: names(life, 'dst') },
        {
          committed: { dst: ['B'] },
          'not committed': { dst: [] },
        },
        point,
      );
      // The README's safe retry: the same send with the same duplicate id.
      life.office.send(life.office.prepare(message('dst', 'B', { large: true, duplicateId: DUPLICATE_ID })));
      await synced(life);
      expect(names(life, 'dst')).toEqual(['B']);
      return outcome;
    },
  };

  it('is there after the retry exactly once, never discarded as a duplicate of nothing', async () => {
    expectBothSides(await enumerateCrashPoints(scenario, MODES));
  }, 120_000);
});

describe('a large message moved to its dead-letter or expiry address, through every crash point', () => {
  interface Move {
    settings: Partial<AddressSettings>;
    /** Whether the message is delivered (and so in flight) before the move. */
    delivered: boolean;
    /** Starts the move: `delivered` is the delivered reference, or null. */
    move(life: Life, original: CoreMessage, delivered: MessageReference | null): void;
  }

  const moves: Record<string, Move> = {
    'dead-letter': {
      settings: { maxDeliveryAttempts: 1, deadLetterAddress: 'target' },
      delivered: true,
      move: (life, _original, delivered) => life.office.cancel(delivered === null ? [] : [delivered]),
    },
    expiry: {
      settings: { expiryAddress: 'target' },
      delivered: false,
      move: (life, original) => life.office.expireMessages(original.expiration + 1),
    },
  };

  it.each(Object.keys(moves))(
    '%s: the copy is there and the original gone, or the other way round',
    async (kind) => {
      const { settings, delivered, move } = moves[kind] as Move;
      const scenario: CrashPointScenario<
        Life,
        { original: CoreMessage; reference: MessageReference | null }
      > = {
        start: (fileSystem) => start(fileSystem, { src: settings }),
        stop,
        async setUp(life) {
          const src = queue(life, 'src');
          queue(life, 'target');
          const original = message('src', 'A', { large: true, expiration: Date.now() + 3_600_000 });
          life.office.send(life.office.prepare(original));
          await synced(life);
          return { original, reference: delivered ? await takeOne(src) : null };
        },
        step(life, { original, reference }, done) {
          move(life, original, reference);
          life.storage.afterSync(done);
        },
        async check(life, point) {
          expectNoLargeMessageDropped(life);
          for (const { message: copy } of life.office.getQueue('target')?.snapshot() ?? [])
            expect(copy.properties.get(MessageHeader.ORIGINAL_QUEUE)?.value).toBe('src');
          return outcomeOf(
            { src: names(life, 'src'), target: names(life, 'target') },
            {
              committed: { src: [], target: ['A'] },
              'not committed': { src: ['A'], target: [] },
            },
            point,
          );
        },
      };
      expectBothSides(await enumerateCrashPoints(scenario));
    },
    120_000,
  );
});
