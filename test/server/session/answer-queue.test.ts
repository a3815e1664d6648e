import { AnswerQueue } from '../../../src/server/session/answer-queue';
import type { Durability } from '../../../src/server/storage/storage-manager';

/** A Durability whose syncs complete when the test says: `store()` asks for one. */
class ManualSync implements Durability {
  syncRequests = 0;
  private waiting: Array<(error: Error | null) => void> = [];
  private synced = 0;

  store(): void {
    this.syncRequests++;
  }

  afterSync(done: (error: Error | null) => void): void {
    if (this.synced === this.syncRequests) done(null);
    else this.waiting.push(done);
  }

  complete(error: Error | null = null): void {
    this.synced = this.syncRequests;
    for (const waiter of this.waiting.splice(0)) waiter(error);
  }
}

function setUp(): { sync: ManualSync; answers: AnswerQueue; sent: string[]; failures: Error[] } {
  const sync = new ManualSync();
  const failures: Error[] = [];
  const answers = new AnswerQueue(sync, (error) => failures.push(error));
  return { sync, answers, sent: [], failures };
}

/** Handles one packet: `stores` says whether it stored something that must be synced. */
function handle({ sync, answers, sent }: ReturnType<typeof setUp>, name: string, stores: boolean): void {
  const mark = answers.mark();
  if (stores) sync.store();
  answers.settle(mark, () => sent.push(name));
}

test('an answer that needs no sync goes at once', () => {
  const kit = setUp();
  handle(kit, 'query', false);
  expect(kit.sent).toEqual(['query']);
  expect(kit.answers.size).toBe(0);
});

test('an answer that needs a sync waits for it, and later answers wait behind it, in packet order', () => {
  const kit = setUp();
  handle(kit, 'durable send', true);
  handle(kit, 'non-durable send', false);
  handle(kit, 'query', false);
  expect(kit.sent).toEqual([]);
  expect(kit.answers.size).toBe(3);
  kit.sync.complete();
  expect(kit.sent).toEqual(['durable send', 'non-durable send', 'query']);
  handle(kit, 'after', false);
  expect(kit.sent).toEqual(['durable send', 'non-durable send', 'query', 'after']);
});

test('answers behind a later sync wait for it even when an earlier one completed', () => {
  const kit = setUp();
  handle(kit, 'first', true);
  kit.sync.complete();
  handle(kit, 'second', true);
  handle(kit, 'third', false);
  expect(kit.sent).toEqual(['first']);
  kit.sync.complete();
  expect(kit.sent).toEqual(['first', 'second', 'third']);
});

test('whenAnswered runs at once when nothing is held, else once the last held answer has gone', () => {
  const kit = setUp();
  const calls: Array<Error | null> = [];
  kit.answers.whenAnswered((error) => calls.push(error));
  expect(calls).toEqual([null]);
  handle(kit, 'durable send', true);
  kit.answers.whenAnswered((error) => {
    calls.push(error);
    // By then the answer has gone out: a reattach reports it as confirmed.
    expect(kit.sent).toEqual(['durable send']);
  });
  expect(calls).toEqual([null]);
  kit.sync.complete();
  expect(calls).toEqual([null, null]);
});

test('a failed sync answers nothing held, ever, and reports the failure once', () => {
  const kit = setUp();
  handle(kit, 'durable send', true);
  handle(kit, 'query', false);
  const waiter: Array<Error | null> = [];
  kit.answers.whenAnswered((error) => waiter.push(error));
  const failure = new Error('EIO');
  kit.sync.complete(failure);
  handle(kit, 'later', false);
  expect(kit.sent).toEqual([]);
  expect(kit.failures).toEqual([failure]);
  expect(waiter).toEqual([failure]);
});

test('many answers released by one sync keep their order (the held list is compacted as it drains)', () => {
  const kit = setUp();
  handle(kit, 'd', true);
  for (let i = 0; i < 3000; i++) handle(kit, String(i), false);
  kit.sync.complete();
  expect(kit.sent).toEqual(['d', ...Array.from({ length: 3000 }, (_, i) => String(i))]);
  expect(kit.answers.size).toBe(0);
});
