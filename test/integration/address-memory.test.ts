import { CoreMessage, HornetQException, PropertyKind } from '../../src';
import { exposeGc } from '../support/heap';
import { useTestBrokers } from '../support/test-broker';

const QUEUE = 'jms.queue.memory';
const MiB = 1024 * 1024;
const PROPERTIES = 1000;

/**
 * A message whose properties cost far more in the broker's heap than on the wire: a thousand
 * empty-valued properties (about 15 bytes each when sent, over 100 bytes each once decoded), with
 * names no other message uses, so that the broker shares none of its strings.
 */
function propertyHeavy(seq: number): CoreMessage {
  const message = new CoreMessage();
  message.durable = true;
  for (let k = 0; k < PROPERTIES; k++)
    message.properties.set(`${seq}.${k}`, { kind: PropertyKind.STRING, value: '' });
  return message;
}

describe("an address' max-size-bytes bounds the memory its messages take", () => {
  const env = useTestBrokers();

  test('FAIL at 1 MiB: messages of many small properties are refused before they take 3 MiB of the heap', async () => {
    const gc = exposeGc();
    if (gc === null)
      throw new Error('this test measures the heap and needs a garbage collection (node --expose-gc)');
    // Broker and client share this process; the client keeps nothing it has sent (no confirmation
    // window), so what grows is what the broker holds. Kept message copies are Buffers.
    const memory = (): number => {
      for (let i = 0; i < 3; i++) gc();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      return heapUsed + arrayBuffers;
    };
    const broker = await env.startBroker({
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
      addressSettings: { [QUEUE]: { maxSizeBytes: MiB, addressFullPolicy: 'FAIL' } },
    });
    const session = await (await env.connect(broker)).createSession();
    const producer = session.createProducer(QUEUE);
    // A first message warms up the code paths, and leaves so that the queue starts empty.
    await producer.send(propertyHeavy(-1));
    const consumer = await session.createConsumer(QUEUE);
    session.start();
    const first = await consumer.receive(5_000);
    await first?.acknowledge();
    await consumer.close();
    expect(broker.postOffice.addressSize(QUEUE).size).toBe(0);
    const baseline = memory();

    let accepted = 0;
    let failure: unknown = null;
    let wireBytes = 0;
    for (; accepted < 1_000; accepted++) {
      const message = propertyHeavy(accepted);
      try {
        await producer.send(message);
      } catch (error) {
        failure = error;
        break;
      }
      wireBytes += message.encodedSize();
    }
    const grown = memory() - baseline;

    expect(HornetQException.is(failure, 'ADDRESS_FULL')).toBe(true);
    expect((await session.queueQuery(QUEUE)).messageCount).toBe(accepted);
    expect(accepted).toBeGreaterThan(0);
    // Refused while what the address holds is about its limit in memory, far less in wire bytes.
    expect(grown).toBeLessThan(3 * MiB);
    expect(wireBytes).toBeLessThan(MiB / 2);
  });
});
