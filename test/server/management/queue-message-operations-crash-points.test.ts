import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import { MessageHeader } from '../../../src/server/postoffice/message-headers';
import { QueueMessageOperations } from '../../../src/server/management/queue-message-operations';
import { silentLogger } from '../../../src/core/remoting/logger';
import { enumerateCrashPoints, type CrashPointScenario } from '../../support/crash-points';
import {
  expectBothSides,
  expectNoLargeMessageDropped,
  message,
  MODES,
  names,
  outcomeOf,
  queue,
  start,
  stop,
  synced,
  type Life,
} from '../../support/journal-crash-life';

/**
 * What management does to stored messages (move, retry dead letters) is one storage transaction:
 * after a crash at any write or sync boundary each message is in one queue, never both nor
 * neither, and once the store said the operation was on disk (when BrokerManagement answers) it
 * is there. Driven through QueueMessageOperations, on the file journal over the fault file system,
 * with extra tears at random bytes (MODES): the records of one operation share a write, and only
 * a tear between two of them shows an operation that was not one transaction.
 */

const MOVED = ['a', 'b', 'c'];

function operations(life: Life): QueueMessageOperations {
  return new QueueMessageOperations(life.office, silentLogger);
}

describe('moving messages to another queue through every crash point', () => {
  const scenario: CrashPointScenario<Life, null> = {
    start: (fileSystem) => start(fileSystem, {}),
    stop,
    async setUp(life) {
      queue(life, 'src');
      queue(life, 'dst');
      // One large message among them: its file is copied as well.
      for (const name of MOVED)
        life.office.send(life.office.prepare(message('src', name, { large: name === 'b' })));
      await synced(life);
      return null;
    },
    step(life, _context, done) {
      const src = life.office.requireQueue('src');
      expect(operations(life).move(src, () => true, 'dst', false)).toBe(MOVED.length);
      life.storage.afterSync(done);
    },
    async check(life, point) {
      expectNoLargeMessageDropped(life);
      return outcomeOf(
        { src: names(life, 'src'), dst: names(life, 'dst') },
        { committed: { src: [], dst: MOVED }, 'not committed': { src: MOVED, dst: [] } },
        point,
      );
    },
  };

  it('finds every message in one queue, all moved or none, and all moved once confirmed', async () => {
    expectBothSides(await enumerateCrashPoints(scenario, MODES));
  }, 120_000);
});

describe('retrying dead letters through every crash point', () => {
  const scenario: CrashPointScenario<Life, null> = {
    start: (fileSystem) => start(fileSystem, {}),
    stop,
    async setUp(life) {
      queue(life, 'orders');
      queue(life, 'DLQ');
      for (const name of MOVED) {
        const dead = message('DLQ', name);
        dead.properties.set(MessageHeader.ORIGINAL_ADDRESS, { kind: PropertyKind.STRING, value: 'orders' });
        life.office.send(life.office.prepare(dead));
      }
      await synced(life);
      return null;
    },
    step(life, _context, done) {
      const dlq = life.office.requireQueue('DLQ');
      expect(operations(life).retry(dlq, () => true)).toBe(MOVED.length);
      life.storage.afterSync(done);
    },
    async check(life, point) {
      return outcomeOf(
        { DLQ: names(life, 'DLQ'), orders: names(life, 'orders') },
        { committed: { DLQ: [], orders: MOVED }, 'not committed': { DLQ: MOVED, orders: [] } },
        point,
      );
    },
  };

  it('finds every dead letter in one place, all retried or none, and all retried once confirmed', async () => {
    expectBothSides(await enumerateCrashPoints(scenario, MODES));
  }, 120_000);
});
