import { HornetQException } from '../../../src/core/protocol';
import type { MessageReference } from '../../../src/server/postoffice/message-reference';
import {
  SessionConsumers,
  type SessionConsumer,
  type TakenBack,
} from '../../../src/server/session/session-consumers';

/** Stands in for a delivered message: the collection only passes references along. */
const reference = (label: string): MessageReference => ({ label }) as unknown as MessageReference;

/** A consumer holding `delivering` (oldest first), recording what it was told. */
class RecordingConsumer implements SessionConsumer {
  started = false;
  closed = false;
  prompted = 0;
  readonly log: string[];

  constructor(
    readonly id: number,
    private delivering: MessageReference[],
    log: string[],
  ) {
    this.log = log;
  }

  get deliveringCount(): number {
    return this.delivering.length;
  }

  setStarted(started: boolean): void {
    this.started = started;
  }

  promptDelivery(): void {
    this.prompted += 1;
  }

  close(): void {
    this.closed = true;
    this.log.push(`close ${this.id}`);
  }

  takeBackDelivering(seenCount: number): TakenBack {
    this.log.push(`take back ${this.id}`);
    const seen = this.delivering.slice(0, seenCount);
    const unseen = this.delivering.slice(seen.length);
    this.delivering = [];
    return { seen, unseen };
  }
}

describe('SessionConsumers', () => {
  it('starts a consumer added while the session is started, and not one added while stopped', () => {
    const consumers = new SessionConsumers<RecordingConsumer>('s1');
    const early = new RecordingConsumer(1, [], []);
    consumers.add(early);
    expect(early.started).toBe(false);
    consumers.setStarted(true);
    const late = new RecordingConsumer(2, [], []);
    consumers.add(late);
    expect([early.started, late.started]).toEqual([true, true]);
    consumers.setStarted(false);
    expect([early.started, late.started]).toEqual([false, false]);
  });

  it('counts consumers and their deliveries, and prompts every one', () => {
    const consumers = new SessionConsumers<RecordingConsumer>('s1');
    const a = new RecordingConsumer(1, [reference('a1'), reference('a2')], []);
    const b = new RecordingConsumer(2, [reference('b1')], []);
    consumers.add(a);
    consumers.add(b);
    expect([consumers.size, consumers.deliveringCount]).toEqual([2, 3]);
    consumers.promptDelivery();
    expect([a.prompted, b.prompted]).toEqual([1, 1]);
  });

  it('names the consumer and the session when a consumer does not exist', () => {
    const consumers = new SessionConsumers<RecordingConsumer>('s1');
    expect(() => consumers.require(9)).toThrow(
      new HornetQException('ILLEGAL_STATE', 'Consumer 9 does not exist in session s1'),
    );
  });

  it('closing one consumer returns what it held as unseen and forgets it', () => {
    const consumers = new SessionConsumers<RecordingConsumer>('s1');
    const held = [reference('a1'), reference('a2')];
    const a = new RecordingConsumer(1, held, []);
    consumers.add(a);
    expect(consumers.close(1)).toEqual(held);
    expect(a.closed).toBe(true);
    expect(consumers.has(1)).toBe(false);
  });

  it('takes back from each consumer as many seen deliveries as the session says, keeping the consumers', () => {
    const consumers = new SessionConsumers<RecordingConsumer>('s1');
    consumers.add(new RecordingConsumer(1, [reference('a1'), reference('a2')], []));
    consumers.add(new RecordingConsumer(2, [reference('b1')], []));
    const taken = consumers.takeBack((consumer) => (consumer.id === 1 ? 1 : 0));
    expect(taken).toEqual({ seen: [reference('a1')], unseen: [reference('a2'), reference('b1')] });
    expect(consumers.size).toBe(2);
  });

  it('closeAll closes each consumer just before taking back its deliveries; failed counts all as seen', () => {
    const log: string[] = [];
    const consumers = new SessionConsumers<RecordingConsumer>('s1');
    consumers.add(new RecordingConsumer(1, [reference('a1')], log));
    consumers.add(new RecordingConsumer(2, [reference('b1')], log));
    expect(consumers.closeAll(true)).toEqual({ seen: [reference('a1'), reference('b1')], unseen: [] });
    expect(log).toEqual(['close 1', 'take back 1', 'close 2', 'take back 2']);
    expect(consumers.size).toBe(0);
  });

  it('closeAll after a clean close counts nothing as seen', () => {
    const consumers = new SessionConsumers<RecordingConsumer>('s1');
    consumers.add(new RecordingConsumer(1, [reference('a1')], []));
    expect(consumers.closeAll(false)).toEqual({ seen: [], unseen: [reference('a1')] });
  });
});
