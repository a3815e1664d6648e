import { CoreMessage } from '../../src';
import { MessageHeader } from '../../src/core/protocol/message-header';
import { PropertyKind } from '../../src/core/protocol/typed-properties';
import { useTestBrokers } from '../support/test-broker';
import { queues } from './broker-features/support';

/**
 * duplicate-id-on-durable-send (ours, issue 25): each durable message sent without a
 * duplicate-detection id goes out with a random one, so that a broker drops a second execution of
 * the same send (a replay HornetQ or Artemis executes again, a retry after an unknown outcome).
 */
const Q = 'jms.queue.stamped';

function message(body: string, durable: boolean): CoreMessage {
  const built = new CoreMessage();
  built.durable = durable;
  built.body = Buffer.from(body);
  return built;
}

describe('duplicate-id-on-durable-send', () => {
  const env = useTestBrokers();

  async function sendAndReceive(
    duplicateIdOnDurableSend: boolean,
    sent: CoreMessage[],
  ): Promise<Array<{ body: string; id: unknown }>> {
    const broker = await env.startBroker({ queues: queues(Q) });
    const factory = await env.connect(broker, { duplicateIdOnDurableSend, blockOnNonDurableSend: true });
    const session = await factory.createSession();
    const producer = session.createProducer(Q);
    for (const each of sent) await producer.send(each);
    const consumer = await session.createConsumer(Q);
    session.start();
    const received: Array<{ body: string; id: unknown }> = [];
    for (let i = 0; i < sent.length; i++) {
      const next = await consumer.receive(5_000);
      if (next === null) break;
      await next.acknowledge();
      received.push({
        body: next.message.body.toString(),
        id: next.message.properties.get(MessageHeader.DUPLICATE_DETECTION_ID)?.value,
      });
    }
    return received;
  }

  test('a durable send gets an id of its own; the caller’s message is left without one, to be sent again', async () => {
    const reused = message('durable', true);
    const received = await sendAndReceive(true, [reused, reused]);
    expect(received.map((each) => each.body)).toEqual(['durable', 'durable']);
    const [first, second] = received.map((each) => each.id);
    expect(typeof first).toBe('string');
    expect(typeof second).toBe('string');
    // Two sends of one object are two messages, not one dropped as a duplicate of the other.
    expect(first).not.toBe(second);
    expect(reused.properties.has(MessageHeader.DUPLICATE_DETECTION_ID)).toBe(false);
  });

  test('a message with an id of its own keeps it; a non-durable one gets none', async () => {
    const own = message('own', true);
    own.properties.set(MessageHeader.DUPLICATE_DETECTION_ID, { kind: PropertyKind.STRING, value: 'mine' });
    const received = await sendAndReceive(true, [own, message('non-durable', false)]);
    expect(received).toEqual([
      { body: 'own', id: 'mine' },
      { body: 'non-durable', id: undefined },
    ]);
  });

  test('off (the default): nothing is stamped', async () => {
    const received = await sendAndReceive(false, [message('durable', true)]);
    expect(received).toEqual([{ body: 'durable', id: undefined }]);
  });

  test('a large durable message gets an id too', async () => {
    const large = message('x'.repeat(200 * 1024), true);
    const received = await sendAndReceive(true, [large]);
    expect(received).toHaveLength(1);
    expect(typeof received[0]?.id).toBe('string');
    expect(large.properties.has(MessageHeader.DUPLICATE_DETECTION_ID)).toBe(false);
  });
});
