import { CoreMessage } from '../../../src/core/protocol/core-message';
import { ExpiryReaper } from '../../../src/server/postoffice/expiry-reaper';
import type { Filter } from '../../../src/server/postoffice/filter';
import { MessageReference, RoutedMessage } from '../../../src/server/postoffice/message-reference';
import { HandleStatus, Queue, type QueueConsumer } from '../../../src/server/postoffice/queue';
import {
  ServerConsumer,
  type ConsumerOwner,
  type DeliveryStart,
} from '../../../src/server/session/server-consumer';

/**
 * Work the broker starts on its own (delivery passes, timers) has nothing above it to catch a
 * throw, which would end the process: each root reports failures instead, and carries on.
 */
function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

let nextId = 1;

function setUp(): { queue: Queue; failures: Array<{ error: unknown; activity: string }> } {
  const failures: Array<{ error: unknown; activity: string }> = [];
  const queue = new Queue(
    { name: 'q', address: 'jms.queue.q', filter: null, durable: false, temporary: false },
    () => undefined,
    { expired: () => undefined, failed: (error, activity) => failures.push({ error, activity }) },
  );
  return { queue, failures };
}

function addMessage(queue: Queue): MessageReference {
  const message = new CoreMessage();
  message.messageId = nextId++;
  const reference = new MessageReference(new RoutedMessage(message, 10), queue);
  queue.addTail(reference);
  return reference;
}

/** A consumer owner that records what it is told; `deliver` throws while `broken`. */
class RecordingOwner implements ConsumerOwner {
  readonly delivered: number[] = [];
  readonly failures: unknown[] = [];

  constructor(private readonly broken: boolean) {}

  deliver(_consumerId: number, reference: MessageReference): DeliveryStart {
    if (this.broken) throw new Error('delivery exploded');
    this.delivered.push(reference.message.messageId);
    return { frameBytes: reference.size, remainingBody: null };
  }

  deliverMarker(): void {
    throw new Error('no forced delivery in these tests');
  }

  failed(_consumer: ServerConsumer, error: unknown): void {
    this.failures.push(error);
  }
}

const throwingFilter: Filter = {
  expression: 'throws',
  match: () => {
    throw new Error('filter exploded');
  },
};

describe('a queue contains what its delivery pass throws', () => {
  it('a throwing delivery breaks its consumer alone: the message is held for it, the others are served', async () => {
    const { queue, failures } = setUp();
    const faultyOwner = new RecordingOwner(true);
    const faulty = new ServerConsumer(1, queue, null, false, faultyOwner);
    faulty.receiveCredits(-1);
    faulty.setStarted(true);
    const healthyOwner = new RecordingOwner(false);
    const healthy = new ServerConsumer(2, queue, null, false, healthyOwner);
    healthy.receiveCredits(-1);
    healthy.setStarted(true);
    const first = addMessage(queue);
    for (let i = 0; i < 4; i++) addMessage(queue);
    await tick();

    expect(faultyOwner.failures).toHaveLength(1);
    expect((faultyOwner.failures[0] as Error).message).toBe('delivery exploded');
    expect(healthyOwner.delivered).toHaveLength(4);
    // The failed delivery counts as delivering until the owner closes the consumer and takes it back.
    expect(faulty.takeBackDelivering(1).seen).toEqual([first]);
    expect(failures).toEqual([]);
  });

  it('a throwing filter breaks its consumer alone and leaves the message for the others', async () => {
    const { queue } = setUp();
    const faultyOwner = new RecordingOwner(false);
    const faulty = new ServerConsumer(1, queue, throwingFilter, false, faultyOwner);
    faulty.receiveCredits(-1);
    faulty.setStarted(true);
    const healthyOwner = new RecordingOwner(false);
    const healthy = new ServerConsumer(2, queue, null, false, healthyOwner);
    healthy.receiveCredits(-1);
    healthy.setStarted(true);
    for (let i = 0; i < 3; i++) addMessage(queue);
    await tick();
    expect(faultyOwner.failures).toHaveLength(1);
    expect(faulty.deliveringCount).toBe(0);
    expect(healthyOwner.delivered).toHaveLength(3);
    expect(faulty.handle(addMessageLater(queue))).toBe(HandleStatus.BUSY);
  });

  it('a consumer that throws out of handle() ends the pass, which is reported, not thrown', async () => {
    const { queue, failures } = setUp();
    const raw: QueueConsumer = {
      handle: () => {
        throw new Error('consumer exploded');
      },
    };
    queue.addConsumer(raw);
    addMessage(queue);
    await tick();
    expect(failures.map(({ activity, error }) => [activity, (error as Error).message])).toEqual([
      ['a delivery pass', 'consumer exploded'],
    ]);
  });
});

/** A reference for the queue that is not queued (handed to a consumer directly). */
function addMessageLater(queue: Queue): MessageReference {
  const message = new CoreMessage();
  message.messageId = nextId++;
  return new MessageReference(new RoutedMessage(message, 10), queue);
}

describe('the expiry reaper contains what a scan throws', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('a failed scan is reported and the next one runs', () => {
    const failures: unknown[] = [];
    let scans = 0;
    const reaper = new ExpiryReaper(
      100,
      () => {
        scans++;
        if (scans === 1) throw new Error('scan exploded');
      },
      (error) => failures.push(error),
    );
    reaper.start();
    jest.advanceTimersByTime(250);
    reaper.stop();
    expect(scans).toBe(2);
    expect(failures.map((error) => (error as Error).message)).toEqual(['scan exploded']);
  });
});
