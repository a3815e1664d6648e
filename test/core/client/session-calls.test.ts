import { FailoverEventType, type FailoverEvent } from '../../../src/core/client/failover-events';
import type { FailoverWatch } from '../../../src/core/client/held-call';
import { SessionCalls, type CallChannel, type CallSettings } from '../../../src/core/client/session-calls';
import { HornetQException, type Packet, type ResponsePacket } from '../../../src/core/protocol';
import { PacketType } from '../../../src/core/protocol/packet-type';

const SETTINGS: CallSettings = {
  callTimeout: 100,
  connectionTTL: 1_000,
  clientFailureCheckPeriod: 250,
  callFailoverTimeout: 2_000,
};
/** What the channel must keep a held call's entry for: 2 × call-timeout + (ttl + 2 × check) + failover. */
const HELD_ENTRY_MS = 2 * 100 + 1_500 + 2_000;
const COMMIT: Packet = { type: PacketType.SESS_COMMIT };
const ANSWER: ResponsePacket = { type: PacketType.NULL_RESPONSE };

/** A channel that records how long each call may wait and lets the test answer it. */
class FakeChannel implements CallChannel {
  readonly timeouts: number[] = [];
  private answers: Array<(response: ResponsePacket) => void> = [];

  constructor(readonly confirmationWindowSize: number) {}

  sendBlocking(_packet: Packet, timeoutMs?: number): Promise<ResponsePacket> {
    this.timeouts.push(timeoutMs ?? -1);
    return new Promise((resolve) => this.answers.push(resolve));
  }

  answer(): void {
    this.answers.shift()?.(ANSWER);
  }
}

/** A factory whose failover the test starts and ends. */
class FakeWatch implements FailoverWatch {
  failingOver = false;
  private readonly listeners = new Set<(event: FailoverEvent) => void>();
  private endFailover: () => void = () => undefined;
  private ended: Promise<void> = Promise.resolve();

  failoverEnded(): Promise<void> {
    return this.ended;
  }

  addFailoverListener(listener: (event: FailoverEvent) => void): void {
    this.listeners.add(listener);
  }

  removeFailoverListener(listener: (event: FailoverEvent) => void): void {
    this.listeners.delete(listener);
  }

  startFailover(): void {
    this.failingOver = true;
    this.ended = new Promise((resolve) => (this.endFailover = resolve));
    const cause = new HornetQException('CONNECTION_TIMEDOUT', 'silent');
    for (const listener of [...this.listeners]) listener({ type: FailoverEventType.FAILURE_DETECTED, cause });
  }

  finishFailover(): void {
    this.failingOver = false;
    this.endFailover();
  }
}

function track<T>(promise: Promise<T>): { settled: boolean; value?: T; error?: unknown } {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('SessionCalls', () => {
  it('without a resend buffer, a call is bounded by call-timeout alone (the channel times it out)', () => {
    const channel = new FakeChannel(-1);
    void new SessionCalls(channel, SETTINGS, new FakeWatch()).call(COMMIT);
    expect(channel.timeouts).toEqual([SETTINGS.callTimeout]);
  });

  it('with one, a call held for replay outlives call-timeout and completes with the answer the reattach replays', async () => {
    const channel = new FakeChannel(1024);
    const watch = new FakeWatch();
    const call = track(new SessionCalls(channel, SETTINGS, watch).call(COMMIT));
    expect(channel.timeouts).toEqual([HELD_ENTRY_MS]);
    await jest.advanceTimersByTimeAsync(SETTINGS.callTimeout + 500);
    expect(call.settled).toBe(false);
    watch.startFailover();
    await jest.advanceTimersByTimeAsync(1_000);
    watch.finishFailover();
    await jest.advanceTimersByTimeAsync(10);
    expect(call.settled).toBe(false);
    channel.answer();
    await jest.advanceTimersByTimeAsync(0);
    expect(call).toMatchObject({ settled: true, value: ANSWER });
  });

  it('with one, a call whose link is never found dead rejects with CALL_OUTCOME_UNKNOWN naming it', async () => {
    const channel = new FakeChannel(1024);
    const call = track(new SessionCalls(channel, SETTINGS, new FakeWatch()).call(COMMIT, 'the commit'));
    await jest.advanceTimersByTimeAsync(SETTINGS.callTimeout + 1_500 - 1);
    expect(call.settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(HornetQException.is(call.error, 'CALL_OUTCOME_UNKNOWN')).toBe(true);
    expect(String(call.error)).toMatch(/the commit within call-timeout \(100 ms\).*not known/);
  });

  it('callWithinTimeout is bounded by call-timeout even with a resend buffer', () => {
    const channel = new FakeChannel(1024);
    void new SessionCalls(channel, SETTINGS, new FakeWatch()).callWithinTimeout(COMMIT);
    expect(channel.timeouts).toEqual([SETTINGS.callTimeout]);
  });
});
