import fc from 'fast-check';
import { SendGate } from '../../../src/core/client/send-gate';
import { HornetQException } from '../../../src/core/protocol/hornetq-exception';

/** Lets promise callbacks run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

interface Tracked {
  settled: boolean;
  error?: unknown;
}

/**
 * SendGate.submit as a yes/no: `undefined` when the gate ran the write at once (the send may go
 * now), else a promise that settles when the write runs (or the send is refused).
 */
function acquire(gate: SendGate, address: string, size: number): Promise<void> | undefined {
  let wroteAtOnce = false;
  let submitting = true;
  const result = gate.submit(address, size, () => {
    if (submitting) wroteAtOnce = true;
  });
  submitting = false;
  return wroteAtOnce ? undefined : result.then(() => undefined);
}

/** Wraps what acquire returns: `undefined` means the send may go at once. */
function track(result: Promise<void> | undefined, log?: string[], label?: string): Tracked {
  const state: Tracked = { settled: false };
  if (result === undefined) {
    state.settled = true;
    if (log !== undefined && label !== undefined) log.push(label);
    return state;
  }
  result.then(
    () => {
      state.settled = true;
      if (log !== undefined && label !== undefined) log.push(label);
    },
    (error: unknown) => {
      state.settled = true;
      state.error = error;
    },
  );
  return state;
}

/** A resend buffer the test fills and empties by hand. */
class FakeResendBuffer {
  capacity = true;
  waits = 0;
  private waiters: Array<() => void> = [];

  hasCapacity(): boolean {
    return this.capacity;
  }

  waitForCapacity(): Promise<void> {
    this.waits++;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  makeRoom(): void {
    this.capacity = true;
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}

function setUp(windowSize: number): {
  gate: SendGate;
  requests: Array<[string, number]>;
  buffer: FakeResendBuffer;
} {
  const requests: Array<[string, number]> = [];
  const buffer = new FakeResendBuffer();
  const gate = new SendGate(windowSize, (address, credits) => requests.push([address, credits]), buffer);
  return { gate, requests, buffer };
}

describe('SendGate credits', () => {
  it('asks for a whole window of credits before the first send and sends once they come', async () => {
    const { gate, requests } = setUp(800);
    const first = track(acquire(gate, 'a', 100));
    expect(requests).toEqual([['a', 800]]);
    await flush();
    expect(first.settled).toBe(false);
    gate.receiveCredits('a', 799 - 700); // not enough yet
    await flush();
    expect(first.settled).toBe(false);
    gate.receiveCredits('a', 701);
    await flush();
    expect(first).toEqual({ settled: true });
  });

  it('sends at once while credits last, and keeps at least half a window available or requested', () => {
    const { gate, requests } = setUp(800);
    void acquire(gate, 'a', 1);
    gate.receiveCredits('a', 800);
    requests.length = 0;
    let granted = 0;
    for (let i = 0; i < 20; i++) {
      expect(acquire(gate, 'a', 50)).toBeUndefined();
      // Credits used so far minus those granted back: what the producer may still send.
      const used = 1 + 50 * (i + 1);
      const outstanding = requests.reduce((sum, [, credits]) => sum + credits, 0) - granted;
      const available = 800 + granted - used;
      expect(available + outstanding).toBeGreaterThanOrEqual(400);
      expect(available + outstanding).toBeLessThanOrEqual(800);
      // The broker answers every other send.
      if (i % 2 === 1 && outstanding > 0) {
        gate.receiveCredits('a', outstanding);
        granted += outstanding;
      }
    }
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every(([address]) => address === 'a')).toBe(true);
  });

  it('requestInitialCredits asks for a window before any send, once per address, and the first send goes at once', () => {
    const { gate, requests } = setUp(800);
    gate.requestInitialCredits('a');
    gate.requestInitialCredits('a');
    expect(requests).toEqual([['a', 800]]);
    gate.receiveCredits('a', 800);
    expect(acquire(gate, 'a', 100)).toBeUndefined();
  });

  it('requestInitialCredits asks for nothing with window -1 or once closed', () => {
    const unlimited = setUp(-1);
    unlimited.gate.requestInitialCredits('a');
    expect(unlimited.requests).toEqual([]);
    const closed = setUp(800);
    closed.gate.close(new HornetQException('OBJECT_CLOSED', 'closed'));
    closed.gate.requestInitialCredits('a');
    expect(closed.requests).toEqual([]);
  });

  it('does not ask again while a window is available or on its way', () => {
    const { gate, requests } = setUp(800);
    void acquire(gate, 'a', 10);
    void acquire(gate, 'a', 10);
    void acquire(gate, 'a', 10);
    expect(requests).toEqual([['a', 800]]);
  });

  it('keeps credits per address', async () => {
    const { gate, requests } = setUp(100);
    const a = track(acquire(gate, 'a', 10));
    gate.receiveCredits('a', 100);
    await flush();
    expect(a.settled).toBe(true);
    const b = track(acquire(gate, 'b', 10));
    await flush();
    expect(b.settled).toBe(false);
    expect(requests).toContainEqual(['b', 100]);
    gate.receiveCredits('b', 100);
    await flush();
    expect(b.settled).toBe(true);
  });

  it('a message larger than the window asks for its own size and goes when that many credits came', async () => {
    const { gate, requests } = setUp(100);
    const big = track(acquire(gate, 'a', 250));
    expect(requests).toEqual([['a', 250]]);
    gate.receiveCredits('a', 100);
    await flush();
    expect(big.settled).toBe(false);
    gate.receiveCredits('a', 150);
    await flush();
    expect(big.settled).toBe(true);
  });

  it('a large message after small ones asks for what it lacks', async () => {
    const { gate, requests } = setUp(100);
    void acquire(gate, 'a', 1);
    gate.receiveCredits('a', 100);
    requests.length = 0;
    const big = track(acquire(gate, 'a', 250));
    // 99 available: it lacks 151.
    expect(requests).toEqual([['a', 151]]);
    gate.receiveCredits('a', 151);
    await flush();
    expect(big.settled).toBe(true);
  });

  it('a message larger than the window, waiting behind a smaller one, still gets what it lacks', async () => {
    const { gate, requests } = setUp(100);
    const small = track(acquire(gate, 'a', 10));
    const big = track(acquire(gate, 'a', 250));
    expect(requests).toEqual([
      ['a', 100],
      ['a', 150],
    ]);
    gate.receiveCredits('a', 100);
    gate.receiveCredits('a', 150);
    await flush();
    expect(small.settled).toBe(true);
    // The small send took 10 of the 250 meant for the big one: the gate must ask for them again.
    expect(big.settled).toBe(false);
    const asked = requests.slice(2).reduce((sum, [, credits]) => sum + credits, 0);
    expect(asked).toBeGreaterThanOrEqual(10);
    gate.receiveCredits('a', asked);
    await flush();
    expect(big.settled).toBe(true);
  });

  it('sends go in the order they were made, even when a later one could go now', async () => {
    const { gate } = setUp(100);
    const order: string[] = [];
    track(acquire(gate, 'a', 10), order, 'small-1');
    gate.receiveCredits('a', 100);
    await flush();
    track(acquire(gate, 'a', 500), order, 'big');
    track(acquire(gate, 'a', 10), order, 'small-2');
    await flush();
    expect(order).toEqual(['small-1']);
    gate.receiveCredits('a', 410);
    await flush();
    expect(order).toEqual(['small-1', 'big']);
    gate.receiveCredits('a', 100);
    await flush();
    expect(order).toEqual(['small-1', 'big', 'small-2']);
  });

  it('a send to another address waits behind one that waits for credits', async () => {
    const { gate } = setUp(100);
    const order: string[] = [];
    track(acquire(gate, 'a', 10), order, 'a');
    track(acquire(gate, 'b', 10), order, 'b');
    gate.receiveCredits('b', 100);
    await flush();
    expect(order).toEqual([]);
    gate.receiveCredits('a', 100);
    await flush();
    expect(order).toEqual(['a', 'b']);
  });

  it('resetCredits forgets credits and asks again for the sends still waiting', async () => {
    const { gate, requests } = setUp(100);
    const waiting = track(acquire(gate, 'a', 10));
    expect(requests).toEqual([['a', 100]]);
    gate.resetCredits();
    expect(requests).toEqual([
      ['a', 100],
      ['a', 100],
    ]);
    gate.receiveCredits('a', 100);
    await flush();
    expect(waiting.settled).toBe(true);
  });

  it('window -1 never waits for credits and never asks for any', () => {
    const { gate, requests } = setUp(-1);
    for (const size of [1, 1000, 10_000_000]) expect(acquire(gate, 'a', size)).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it('property: sends complete in order, never spend credits not granted, and never stall', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 8, max: 2000 }),
        fc.array(fc.record({ size: fc.integer({ min: 1, max: 3000 }), answerNow: fc.boolean() }), {
          minLength: 1,
          maxLength: 60,
        }),
        async (windowSize, sends) => {
          const { gate, requests } = setUp(windowSize);
          let answered = 0;
          let granted = 0;
          let spent = 0;
          const order: number[] = [];
          const answer = (): void => {
            while (answered < requests.length) {
              const [address, credits] = requests[answered++] as [string, number];
              granted += credits;
              gate.receiveCredits(address, credits);
            }
          };
          const done: Array<Promise<void>> = [];
          for (const [index, { size, answerNow }] of sends.entries()) {
            const result = acquire(gate, 'a', size);
            const mark = (): void => {
              spent += size;
              expect(spent).toBeLessThanOrEqual(granted);
              order.push(index);
            };
            if (result === undefined) mark();
            done.push(
              (result ?? Promise.resolve()).then(() => {
                if (result !== undefined) mark();
              }),
            );
            if (answerNow) {
              answer();
              // The sends the answer released go out before the application makes the next one.
              await flush();
            }
          }
          // The broker answers whatever is still asked for until every send went.
          for (let round = 0; round < sends.length + 2 && order.length < sends.length; round++) {
            answer();
            await flush();
          }
          // Every send went (a stalled one would never settle).
          expect(order).toHaveLength(sends.length);
          await Promise.all(done);
          expect(order).toEqual(sends.map((_, index) => index));
          // What was asked for and not spent is at most a window (or one large message).
          const largest = Math.max(...sends.map((s) => s.size));
          expect(granted - spent).toBeLessThanOrEqual(Math.max(windowSize, largest));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('SendGate address full', () => {
  it('fail-credits make exactly the waiting send reject with ADDRESS_FULL; the next one goes', async () => {
    const { gate } = setUp(100);
    const first = track(acquire(gate, 'a', 10));
    const second = track(acquire(gate, 'a', 10));
    gate.receiveFailCredits('a', 100);
    await flush();
    expect(HornetQException.is(first.error, 'ADDRESS_FULL')).toBe(true);
    expect((first.error as Error).message).toContain('a');
    expect(second).toEqual({ settled: true });
  });

  it('fail-credits for one address do not fail sends to another', async () => {
    const { gate } = setUp(100);
    const onB = track(acquire(gate, 'b', 10));
    gate.receiveCredits('b', 100);
    gate.receiveFailCredits('a', 100);
    await flush();
    expect(onB).toEqual({ settled: true });
    expect(acquire(gate, 'b', 10)).toBeUndefined();
  });

  it('with no send waiting, the next send does not go on stale credits and fails if the address is still full', async () => {
    const { gate } = setUp(100);
    void acquire(gate, 'a', 10);
    gate.receiveCredits('a', 100);
    gate.receiveFailCredits('a', 100);
    const next = acquire(gate, 'a', 10);
    expect(next).toBeDefined();
    const state = track(next);
    gate.receiveFailCredits('a', 100);
    await flush();
    expect(HornetQException.is(state.error, 'ADDRESS_FULL')).toBe(true);
  });
});

describe('SendGate resend-buffer capacity', () => {
  it('holds sends while the resend buffer is full and lets them go, in order, once there is room', async () => {
    const { gate, buffer } = setUp(-1);
    buffer.capacity = false;
    const order: string[] = [];
    track(acquire(gate, 'a', 10), order, 'first');
    track(acquire(gate, 'a', 10), order, 'second');
    await flush();
    expect(order).toEqual([]);
    // One wait for room, however many sends are held.
    expect(buffer.waits).toBe(1);
    buffer.makeRoom();
    await flush();
    expect(order).toEqual(['first', 'second']);
    expect(acquire(gate, 'a', 10)).toBeUndefined();
  });

  it('needs both credits and room', async () => {
    const { gate, buffer } = setUp(100);
    buffer.capacity = false;
    const send = track(acquire(gate, 'a', 10));
    gate.receiveCredits('a', 100);
    await flush();
    expect(send.settled).toBe(false);
    buffer.makeRoom();
    await flush();
    expect(send.settled).toBe(true);
  });

  it('waits for room again when the buffer is still full after a wake-up', async () => {
    const { gate, buffer } = setUp(-1);
    buffer.capacity = false;
    const send = track(acquire(gate, 'a', 10));
    buffer.makeRoom();
    buffer.capacity = false;
    await flush();
    expect(send.settled).toBe(false);
    expect(buffer.waits).toBe(2);
    buffer.makeRoom();
    await flush();
    expect(send.settled).toBe(true);
  });
});

describe('SendGate room timeout', () => {
  afterEach(() => jest.useRealTimers());

  function withTimeout(roomTimeoutMs: number): { gate: SendGate; buffer: FakeResendBuffer } {
    const buffer = new FakeResendBuffer();
    const gate = new SendGate(-1, () => undefined, buffer, roomTimeoutMs);
    return { gate, buffer };
  }

  it('rejects sends held for room with CONNECTION_TIMEDOUT once the timeout passes', async () => {
    jest.useFakeTimers();
    const { gate, buffer } = withTimeout(1000);
    buffer.capacity = false;
    const first = track(acquire(gate, 'a', 10));
    const second = track(acquire(gate, 'a', 10));
    jest.advanceTimersByTime(999);
    await flush();
    expect(first.settled).toBe(false);
    jest.advanceTimersByTime(1);
    await flush();
    expect(HornetQException.is(first.error, 'CONNECTION_TIMEDOUT')).toBe(true);
    expect(HornetQException.is(second.error, 'CONNECTION_TIMEDOUT')).toBe(true);
    // A later send gets a full timeout of its own.
    const third = track(acquire(gate, 'a', 10));
    jest.advanceTimersByTime(500);
    buffer.makeRoom();
    await flush();
    expect(third).toEqual({ settled: true });
  });

  it('room arriving in time cancels the timeout', async () => {
    jest.useFakeTimers();
    const { gate, buffer } = withTimeout(1000);
    buffer.capacity = false;
    const send = track(acquire(gate, 'a', 10));
    jest.advanceTimersByTime(900);
    buffer.makeRoom();
    await flush();
    expect(send).toEqual({ settled: true });
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('SendGate close', () => {
  it('rejects every waiting send and every later one with the close reason', async () => {
    const { gate, buffer } = setUp(100);
    const waitingForCredits = track(acquire(gate, 'a', 10));
    const reason = new HornetQException('OBJECT_CLOSED', 'session closed');
    gate.close(reason);
    await flush();
    expect(waitingForCredits.error).toBe(reason);
    await expect(acquire(gate, 'a', 10)).rejects.toBe(reason);
    // Credits or room arriving later change nothing.
    gate.receiveCredits('a', 100);
    buffer.makeRoom();
    await flush();
    await expect(acquire(gate, 'a', 1)).rejects.toBe(reason);
  });

  it('rejects sends held for room in the resend buffer', async () => {
    const { gate, buffer } = setUp(-1);
    buffer.capacity = false;
    const held = track(acquire(gate, 'a', 10));
    const reason = new HornetQException('DISCONNECTED', 'gone');
    gate.close(reason);
    buffer.makeRoom();
    await flush();
    expect(held.error).toBe(reason);
  });
});

describe('SendGate write order', () => {
  it('a send submitted in the same turn credits release a waiting one never overtakes it', async () => {
    const { gate } = setUp(100);
    const written: string[] = [];
    const first = gate.submit('a', 60, () => written.push('first'));
    gate.receiveCredits('a', 100);
    const second = gate.submit('a', 10, () => written.push('second'));
    await Promise.all([first, second]);
    expect(written).toEqual(['first', 'second']);
  });

  it('resolves with what the write returns and rejects with what it throws', async () => {
    const { gate } = setUp(-1);
    await expect(gate.submit('a', 1, () => 42)).resolves.toBe(42);
    await expect(
      gate.submit('a', 1, () => {
        throw new Error('encode failed');
      }),
    ).rejects.toThrow('encode failed');
  });
});

describe('SendGate and AbortSignal', () => {
  it('an aborted signal rejects at once with its reason: nothing written, no credits asked for', async () => {
    const { gate, requests } = setUp(800);
    const write = jest.fn();
    const reason = new Error('gave up');
    await expect(gate.submit('a', 100, write, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(write).not.toHaveBeenCalled();
    expect(requests).toEqual([]);
  });

  it('a send waiting for credits is withdrawn unsent, and the credits asked for it serve the next send', async () => {
    const { gate, requests } = setUp(800);
    const controller = new AbortController();
    const write = jest.fn();
    const waiting = gate.submit('a', 100, write, controller.signal);
    expect(requests).toEqual([['a', 800]]);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(DOMException);
    gate.receiveCredits('a', 800);
    await flush();
    expect(write).not.toHaveBeenCalled();
    // The window is whole: a window's worth of sends goes at once, with no new request.
    requests.length = 0;
    for (let i = 0; i < 8; i++) expect(acquire(gate, 'a', 100)).toBeUndefined();
    expect(acquire(gate, 'a', 1)).not.toBeUndefined();
  });

  it('withdrawing the head of the queue lets the sends behind it go, in order', async () => {
    const { gate } = setUp(800);
    const log: string[] = [];
    const controller = new AbortController();
    const first = gate.submit('a', 500, () => log.push('first'), controller.signal);
    const second = track(acquire(gate, 'a', 300), log, 'second');
    const third = track(acquire(gate, 'a', 300), log, 'third');
    gate.receiveCredits('a', 400);
    await flush();
    expect(log).toEqual([]); // the head (500) does not fit in 400, and nothing overtakes it
    controller.abort();
    await expect(first).rejects.toBeInstanceOf(DOMException);
    await flush();
    expect(log).toEqual(['second']);
    gate.receiveCredits('a', 200);
    await flush();
    expect(log).toEqual(['second', 'third']);
    expect(second.error).toBeUndefined();
    expect(third.error).toBeUndefined();
  });

  it('a send written already stays written: the abort only ends the wait for its answer', async () => {
    const { gate } = setUp(-1);
    const controller = new AbortController();
    let answer!: (value: string) => void;
    const write = jest.fn(() => new Promise<string>((resolve) => (answer = resolve)));
    const sent = gate.submit('a', 10, write, controller.signal);
    expect(write).toHaveBeenCalledTimes(1);
    controller.abort('enough');
    await expect(sent).rejects.toBe('enough');
    answer('late');
    // The gate goes on: the next send is written at once.
    expect(acquire(gate, 'a', 10)).toBeUndefined();
  });
});
