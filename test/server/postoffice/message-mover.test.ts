import { CoreMessage } from '../../../src/core/protocol/core-message';
import type { Logger } from '../../../src/core/remoting';
import { AddressSettingsRepository } from '../../../src/server/postoffice/address-settings';
import { MessageHeader } from '../../../src/server/postoffice/message-headers';
import { MessageReference, RoutedMessage } from '../../../src/server/postoffice/message-reference';
import { MessageMover, type MoveRouting } from '../../../src/server/postoffice/message-mover';
import { Queue } from '../../../src/server/postoffice/queue';

function queue(name: string, address: string): Queue {
  return new Queue({ name, address, filter: null, durable: false, temporary: false }, () => undefined);
}

function referenceIn(from: Queue, messageId = 7): MessageReference {
  const m = new CoreMessage();
  m.messageId = messageId;
  m.address = from.address;
  m.body = Buffer.from('payload');
  return new MessageReference(new RoutedMessage(m, m.encodedSize()), from);
}

/** Routing that knows one queue per bound address and records what it is asked to deliver. */
class RecordingRouting implements MoveRouting {
  readonly delivered: Array<{ message: CoreMessage; queues: readonly Queue[] }> = [];
  private lastId = 100;

  constructor(private readonly bound: Map<string, Queue>) {}

  nextMessageId(): number {
    return ++this.lastId;
  }

  queuesFor(address: string): Queue[] {
    const found = this.bound.get(address);
    return found === undefined ? [] : [found];
  }

  deliver(message: CoreMessage, queues: readonly Queue[]): number {
    this.delivered.push({ message, queues });
    return queues.length;
  }
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (_: object, message?: string): void => {
    lines.push(message ?? '');
  };
  const logger = { lines, debug: log, info: log, warn: log, error: log, child: () => logger };
  return logger;
}

describe('MessageMover', () => {
  const source = queue('orders', 'jms.queue.orders');
  const deadLetters = queue('dlq', 'jms.queue.DLQ');
  const expired = queue('expired', 'jms.queue.Expiry');

  function mover(settings = new AddressSettingsRepository()) {
    const routing = new RecordingRouting(
      new Map([
        [deadLetters.address, deadLetters],
        [expired.address, expired],
      ]),
    );
    const logger = recordingLogger();
    return { mover: new MessageMover(settings, routing, logger), routing, logger };
  }

  it('sends a copy with a new id and the original headers to the dead-letter address', () => {
    const { mover: m, routing } = mover();
    const reference = referenceIn(source);
    m.sendToDeadLetter(reference, {
      ...new AddressSettingsRepository().getMatch(source.address),
      deadLetterAddress: deadLetters.address,
    });
    expect(routing.delivered).toHaveLength(1);
    const [{ message, queues }] = routing.delivered as [(typeof routing.delivered)[number]];
    expect(queues).toEqual([deadLetters]);
    expect(message).not.toBe(reference.message);
    expect(message.messageId).toBe(101);
    expect(message.address).toBe(deadLetters.address);
    expect(message.properties.get(MessageHeader.ORIGINAL_QUEUE)?.value).toBe('orders');
    expect(message.properties.get(MessageHeader.ORIGINAL_MESSAGE_ID)?.value).toBe(7);
    expect(message.properties.has(MessageHeader.ACTUAL_EXPIRY_TIME)).toBe(false);
  });

  it('drops a dead letter with a warning when no dead-letter address is configured or bound', () => {
    const { mover: m, routing, logger } = mover();
    const defaults = new AddressSettingsRepository().getMatch(source.address);
    m.sendToDeadLetter(referenceIn(source), { ...defaults, deadLetterAddress: null });
    m.sendToDeadLetter(referenceIn(source), { ...defaults, deadLetterAddress: 'jms.queue.nobody' });
    expect(routing.delivered.map((d) => d.queues.length)).toEqual([0]);
    expect(logger.lines).toEqual([
      expect.stringContaining('No Dead Letter Address configured for queue orders'),
      expect.stringContaining('No bindings for Dead Letter Address jms.queue.nobody'),
    ]);
  });

  it("moves an expired message to its address' expiry address, stamped with when it expired", () => {
    const settings = new AddressSettingsRepository();
    settings.add('jms.queue.#', { expiryAddress: expired.address });
    const { mover: m, routing } = mover(settings);
    m.moveExpired(referenceIn(source), 12_345);
    const [{ message, queues }] = routing.delivered as [(typeof routing.delivered)[number]];
    expect(queues).toEqual([expired]);
    expect(message.address).toBe(expired.address);
    expect(message.properties.get(MessageHeader.ACTUAL_EXPIRY_TIME)?.value).toBe(12_345);
  });

  it('drops an expired message when its address has no expiry address', () => {
    const { mover: m, routing, logger } = mover();
    m.moveExpired(referenceIn(source), 1);
    expect(routing.delivered).toEqual([]);
    expect(logger.lines).toEqual([expect.stringContaining('No expiry address configured')]);
  });

  it('readdresses an unroutable message to the dead-letter address and returns its queues there', () => {
    const { mover: m } = mover();
    const unrouted = referenceIn(queue('none', 'jms.queue.unbound')).message;
    const defaults = new AddressSettingsRepository().getMatch(unrouted.address);
    expect(m.divertUnrouted(unrouted, { ...defaults, deadLetterAddress: deadLetters.address })).toEqual([
      deadLetters,
    ]);
    expect(unrouted.address).toBe(deadLetters.address);
    expect(unrouted.properties.get(MessageHeader.ORIGINAL_ADDRESS)?.value).toBe('jms.queue.unbound');
    const other = referenceIn(source).message;
    expect(m.divertUnrouted(other, { ...defaults, deadLetterAddress: null })).toEqual([]);
    expect(other.address).toBe(source.address);
  });

  it('bounds moves by the longest configured targets, whichever address they are configured for', () => {
    const settings = new AddressSettingsRepository();
    const { mover: m } = mover(settings);
    const message = referenceIn(source).message;
    const withoutTargets = m.moveGrowthBound(message, ['orders']);
    settings.add('other.#', { deadLetterAddress: 'x'.repeat(300) });
    expect(m.moveGrowthBound(message, ['orders'])).toBeGreaterThan(withoutTargets);
    const [largest] = m.largestMoveCopies(message, ['orders']);
    expect(largest?.encodedSize()).toBeGreaterThanOrEqual(message.encodedSize() + 300);
  });
});
