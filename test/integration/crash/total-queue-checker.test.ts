import { checkHistory, type HistoryEvent, type MessageKey } from './total-queue-checker';

const a = (producer: string, seq: number): MessageKey => ({ queue: 'a', producer, seq });
const b = (producer: string, seq: number): MessageKey => ({ queue: 'b', producer, seq });
const sent = (key: MessageKey, outcome: 'ok' | 'unknown' = 'ok', epoch = 1): HistoryEvent => ({
  type: 'send',
  epoch,
  key,
  outcome,
});
const received = (key: MessageKey, epoch = 1): HistoryEvent => ({ type: 'receive', epoch, key });
const acked = (keys: MessageKey[], outcome: 'ok' | 'unknown' = 'ok', epoch = 1): HistoryEvent => ({
  type: 'ack',
  epoch,
  keys,
  outcome,
});
const snapshot = (queue: string, keys: MessageKey[], epoch = 2): HistoryEvent => ({
  type: 'snapshot',
  epoch,
  queue,
  keys,
});
const moved = (
  name: string,
  keys: MessageKey[],
  outcome: 'ok' | 'unknown' | 'rolled-back',
  epoch = 1,
): HistoryEvent => ({
  type: 'transaction',
  epoch,
  name,
  acks: keys,
  sends: keys.map((key) => ({ ...key, queue: 'b' })),
  outcome,
});

describe('the total-queue checker', () => {
  test('a clean history: everything sent, received and acknowledged, or still queued after the restart', () => {
    const result = checkHistory([
      sent(a('p', 0)),
      sent(a('p', 1)),
      sent(a('p', 2), 'unknown'),
      received(a('p', 0)),
      acked([a('p', 0)]),
      snapshot('a', [a('p', 1), a('p', 2)]),
      received(a('p', 1), 2),
      received(a('p', 2), 2),
      acked([a('p', 1), a('p', 2)], 'ok', 2),
      snapshot('a', [], 3),
    ]);
    expect(result).toMatchObject({
      valid: true,
      attempted: 3,
      acknowledged: 2,
      seen: 3,
      recovered: 1,
      lost: [],
      unexpected: [],
      duplicated: [],
      problems: [],
    });
  });

  test('an acknowledged send that is never seen is lost; an unknown one that is never seen is not', () => {
    const result = checkHistory([sent(a('p', 0)), sent(a('p', 1), 'unknown'), snapshot('a', [])]);
    expect(result.valid).toBe(false);
    expect(result.lost).toEqual(['a/p:0']);
    expect(result.problems).toEqual([
      'a/p:0 is missing from the snapshot of epoch 2: it was there and nothing consumed it',
    ]);
  });

  test('a message nobody sent is unexpected', () => {
    const result = checkHistory([snapshot('a', [a('ghost', 7)])]);
    expect(result.valid).toBe(false);
    expect(result.unexpected).toEqual(['a/ghost:7']);
  });

  test('a message whose acknowledgement was answered must not come back', () => {
    const history = [sent(a('p', 0)), received(a('p', 0)), acked([a('p', 0)]), snapshot('a', [a('p', 0)])];
    expect(checkHistory(history).problems).toEqual([
      'a/p:0 in the snapshot of epoch 2, after it was consumed for good (event 2)',
    ]);
    // With the acknowledgement's outcome unknown it may come back, once.
    history[2] = acked([a('p', 0)], 'unknown');
    expect(checkHistory(history).valid).toBe(true);
  });

  test('a message a snapshot no longer holds after an unknown acknowledgement was consumed: it must not return later', () => {
    const result = checkHistory([
      sent(a('p', 0)),
      received(a('p', 0)),
      acked([a('p', 0)], 'unknown'),
      snapshot('a', [], 2),
      snapshot('a', [a('p', 0)], 3),
    ]);
    expect(result.problems).toEqual([
      'a/p:0 in the snapshot of epoch 3, after it was consumed for good (event 3)',
    ]);
  });

  test('a recovered message must stay until consumed', () => {
    const result = checkHistory([
      sent(a('p', 0), 'unknown'),
      snapshot('a', [a('p', 0)], 2),
      snapshot('a', [], 3),
    ]);
    expect(result.problems).toEqual([
      'a/p:0 is missing from the snapshot of epoch 3: it was there and nothing consumed it',
    ]);
  });

  test('two copies of an acknowledged send are a problem; of an unknown send, a duplicate', () => {
    expect(checkHistory([sent(a('p', 0)), snapshot('a', [a('p', 0), a('p', 0)])]).problems).toEqual([
      'a/p:0 is twice in the snapshot of epoch 2',
    ]);
    const unknown = checkHistory([sent(a('p', 0), 'unknown'), snapshot('a', [a('p', 0), a('p', 0)])]);
    expect(unknown).toMatchObject({ valid: true, duplicated: ['a/p:0'] });
  });

  test('a committed transaction: its sends are acknowledged and its acknowledgements final', () => {
    const ok = checkHistory([
      sent(a('p', 0)),
      received(a('p', 0)),
      moved('t1', [a('p', 0)], 'ok'),
      snapshot('a', []),
      snapshot('b', [b('p', 0)]),
    ]);
    expect(ok).toMatchObject({ valid: true, acknowledged: 2 });
    const lostSend = checkHistory([
      sent(a('p', 0)),
      received(a('p', 0)),
      moved('t1', [a('p', 0)], 'ok'),
      snapshot('a', []),
      snapshot('b', []),
    ]);
    expect(lostSend.lost).toEqual(['b/p:0']);
    const ackUndone = checkHistory([
      sent(a('p', 0)),
      received(a('p', 0)),
      moved('t1', [a('p', 0)], 'ok'),
      snapshot('a', [a('p', 0)]),
      snapshot('b', [b('p', 0)]),
    ]);
    expect(ackUndone.problems).toEqual([
      'a/p:0 in the snapshot of epoch 2, after it was consumed for good (event 2)',
    ]);
  });

  test('a rolled-back transaction leaves nothing: a send of it seen is a problem', () => {
    const result = checkHistory([
      sent(a('p', 0)),
      received(a('p', 0)),
      moved('t1', [a('p', 0)], 'rolled-back'),
      received(b('p', 0)),
    ]);
    expect(result.problems).toEqual(['b/p:0 received in epoch 1: its transaction was rolled back']);
  });

  test('a commit with an unknown outcome is all or nothing', () => {
    const before = [sent(a('p', 0)), sent(a('p', 1)), received(a('p', 0)), received(a('p', 1))];
    const tx = moved('t1', [a('p', 0), a('p', 1)], 'unknown');
    const applied = checkHistory([...before, tx, snapshot('a', []), snapshot('b', [b('p', 0), b('p', 1)])]);
    expect(applied).toMatchObject({ valid: true, recovered: 2 });
    const notApplied = checkHistory([
      ...before,
      tx,
      snapshot('a', [a('p', 0), a('p', 1)]),
      snapshot('b', []),
    ]);
    expect(notApplied.valid).toBe(true);
    const half = checkHistory([...before, tx, snapshot('a', [a('p', 1)]), snapshot('b', [b('p', 0)])]);
    expect(half.problems).toEqual([
      'transaction t1 (epoch 1) took effect in part: sends [b/p:0: applied, b/p:1: not applied], acks [a/p:0: applied, a/p:1: not applied]',
    ]);
  });

  test('a message a rolled-back transaction moved may be moved again, and then counts as sent', () => {
    const result = checkHistory([
      sent(a('p', 0)),
      received(a('p', 0)),
      moved('t1', [a('p', 0)], 'rolled-back'),
      received(a('p', 0)),
      moved('t2', [a('p', 0)], 'ok'),
      received(b('p', 0)),
      acked([b('p', 0)]),
      snapshot('a', []),
      snapshot('b', []),
    ]);
    expect(result).toMatchObject({ valid: true, problems: [] });
  });

  test('an unknown commit that did not apply is judged by the restart, not by a later move of the same message', () => {
    const result = checkHistory([
      sent(a('p', 0)),
      received(a('p', 0)),
      moved('t1', [a('p', 0)], 'unknown'),
      snapshot('a', [a('p', 0)]),
      snapshot('b', []),
      received(a('p', 0), 2),
      moved('t2', [a('p', 0)], 'ok', 2),
      received(b('p', 0), 2),
      acked([b('p', 0)], 'ok', 2),
      snapshot('a', [], 3),
      snapshot('b', [], 3),
    ]);
    expect(result).toMatchObject({ valid: true, problems: [] });
  });

  test('a message whose send never became durable says nothing about the unknown commit that took it', () => {
    // p:1's send and t1's commit both failed with the crash: p:1 is gone, the rest came back.
    const result = checkHistory([
      sent(a('p', 0)),
      received(a('p', 0)),
      received(a('p', 1)),
      moved('t1', [a('p', 0), a('p', 1)], 'unknown'),
      sent(a('p', 1), 'unknown'),
      snapshot('a', [a('p', 0)]),
      snapshot('b', []),
    ]);
    expect(result).toMatchObject({ valid: true, problems: [] });
  });

  test('a send of an unknown commit that a consumer took before the crash proves nothing', () => {
    // The consumer of b got the moved message (delivered before the commit was on disk), its
    // acknowledgement failed with the crash, and the transaction did not apply: valid.
    const result = checkHistory([
      sent(a('p', 0)),
      received(a('p', 0)),
      moved('t1', [a('p', 0)], 'unknown'),
      received(b('p', 0)),
      acked([b('p', 0)], 'unknown'),
      snapshot('a', [a('p', 0)]),
      snapshot('b', []),
    ]);
    expect(result.valid).toBe(true);
  });

  test('each producer keeps its order, in snapshots and in first receipts; redeliveries may repeat', () => {
    const result = checkHistory([
      sent(a('p', 0)),
      sent(a('p', 1)),
      sent(a('q', 0)),
      received(a('p', 0)),
      received(a('q', 0)),
      received(a('p', 1)),
      // a rollback redelivers p:0 and p:1 in the same epoch
      received(a('p', 0)),
      received(a('p', 1)),
      snapshot('a', [a('p', 0), a('q', 0), a('p', 1)]),
    ]);
    expect(result.problems).toEqual([]);
    const swapped = checkHistory([
      sent(a('p', 0)),
      sent(a('p', 1)),
      received(a('p', 1)),
      received(a('p', 0)),
      snapshot('a', [a('p', 1), a('p', 0)]),
    ]);
    expect(swapped.problems).toEqual([
      'epoch 1: a/p:0 received after p:1',
      'snapshot of a in epoch 2: p:0 after p:1',
    ]);
  });
});
