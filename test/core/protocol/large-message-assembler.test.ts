import fc from 'fast-check';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { HornetQException } from '../../../src/core/protocol/hornetq-exception';
import { largeBodyChunks } from '../../../src/core/protocol/large-body-chunks';
import { LargeMessageAssembler, type AssemblyStep } from '../../../src/core/protocol/large-message-assembler';

function head(messageId = 7): CoreMessage {
  const message = new CoreMessage();
  message.messageId = messageId;
  message.address = 'jms.queue.q';
  return message;
}

/**
 * Feeds `chunks` (the last one ends the message, stating `statedSize` when given, as a producer's
 * last SEND_CONTINUATION does) and returns the step of each.
 */
function feed(assembler: LargeMessageAssembler, chunks: Buffer[], statedSize?: number): AssemblyStep[] {
  return chunks.map((chunk, index) => {
    const continues = index < chunks.length - 1;
    return assembler.append(chunk, continues, continues ? null : statedSize);
  });
}

function refusalOf(step: AssemblyStep | undefined): string {
  if (step?.kind !== 'refused') throw new Error(`expected a refusal, got ${step?.kind}`);
  expect(HornetQException.is(step.error, 'LARGE_MESSAGE_ERROR_BODY')).toBe(true);
  return step.error.message;
}

describe('LargeMessageAssembler', () => {
  it('puts the body back together from its chunks and hands out the head with it', () => {
    const assembler = new LargeMessageAssembler(100, "the broker's");
    assembler.begin(head(), 10);
    expect(assembler.inProgress).toBe(true);
    const steps = feed(assembler, [Buffer.from('abcd'), Buffer.from('efgh'), Buffer.from('ij')]);
    expect(steps.slice(0, 2)).toEqual([{ kind: 'incomplete' }, { kind: 'incomplete' }]);
    const last = steps[2];
    expect(last?.kind === 'complete' ? last.message.body.toString() : last?.kind).toBe('abcdefghij');
    expect(assembler.inProgress).toBe(false);
  });

  it('refuses a body over the limit at its last chunk, keeping none of it, naming whose limit', () => {
    const assembler = new LargeMessageAssembler(5, "this client's");
    assembler.begin(head(42), 8);
    const steps = feed(assembler, [Buffer.alloc(4), Buffer.alloc(4)]);
    expect(steps[0]).toEqual({ kind: 'incomplete' });
    expect(refusalOf(steps[1])).toBe("large message 42 of 8 bytes exceeds this client's limit of 5 bytes");
    expect(steps[1]).toMatchObject({ head: { messageId: 42 }, bodySize: 8 });
  });

  it('refuses a body longer than announced, and stops keeping its chunks at once', () => {
    const assembler = new LargeMessageAssembler(100, "the broker's");
    assembler.begin(head(), 5);
    const steps = feed(assembler, [Buffer.alloc(4), Buffer.alloc(4), Buffer.alloc(4)]);
    expect(refusalOf(steps[2])).toMatch(/body of more than 8 bytes, not the 5 bytes announced/);
  });

  it('refuses a body shorter than announced', () => {
    const assembler = new LargeMessageAssembler(100, "the broker's");
    assembler.begin(head(), 10);
    const steps = feed(assembler, [Buffer.alloc(4), Buffer.alloc(4)]);
    expect(refusalOf(steps[1])).toMatch(/body of 8 bytes, not the 10 bytes announced/);
  });

  it('assembles the next message normally after a refusal', () => {
    const assembler = new LargeMessageAssembler(5, "the broker's");
    assembler.begin(head(1), 50);
    feed(assembler, [Buffer.alloc(25), Buffer.alloc(25)]);
    assembler.begin(head(2), 3);
    const [step] = feed(assembler, [Buffer.from('xyz')]);
    expect(step?.kind === 'complete' ? step.message.messageId : step?.kind).toBe(2);
  });

  it('a message refused for a reason of the receiver drops what it held and reports that reason at its last chunk', () => {
    const assembler = new LargeMessageAssembler(100, "the broker's");
    assembler.begin(head(), 8);
    assembler.append(Buffer.from('abcd'), true);
    expect([assembler.accepting, assembler.heldBytes]).toEqual([true, 4]);
    assembler.refuse(new HornetQException('LARGE_MESSAGE_ERROR_BODY', 'no room on this connection'));
    expect([assembler.accepting, assembler.heldBytes]).toEqual([false, 0]);
    expect(refusalOf(assembler.append(Buffer.from('efgh'), false))).toBe('no room on this connection');
    expect([assembler.inProgress, assembler.heldBytes]).toEqual([false, 0]);
  });

  it('a chunk without a head, or a head before the last message ended, is ILLEGAL_STATE', () => {
    const assembler = new LargeMessageAssembler(100, "the broker's");
    expect(() => assembler.append(Buffer.alloc(1), false)).toThrow(/chunk arrived without its head/);
    assembler.begin(head(), 10);
    expect(() => assembler.begin(head(), 10)).toThrow(/started before the previous one was complete/);
    assembler.abandon();
    expect(assembler.inProgress).toBe(false);
  });

  it("without an announced size, takes the body its last chunk states (a producer's large send)", () => {
    const assembler = new LargeMessageAssembler(100, "the broker's");
    assembler.begin(head(), null);
    const steps = feed(assembler, [Buffer.from('abc'), Buffer.from('de')], 5);
    const last = steps[1];
    expect(last?.kind === 'complete' ? last.message.body.toString() : last?.kind).toBe('abcde');
  });

  it('without an announced size, refuses as the chunks pass the limit, keeping none past it', () => {
    const assembler = new LargeMessageAssembler(5, "the broker's");
    assembler.begin(head(3), null);
    assembler.append(Buffer.alloc(4), true);
    expect(assembler.heldBytes).toBe(4);
    assembler.append(Buffer.alloc(4), true);
    expect([assembler.accepting, assembler.heldBytes]).toEqual([false, 0]);
    expect(refusalOf(assembler.append(Buffer.alloc(1), false, 9))).toBe(
      "large message 3 of more than 5 bytes exceeds the broker's limit of 5 bytes",
    );
  });

  it('without an announced size, refuses a body that is not the size its last chunk states', () => {
    const assembler = new LargeMessageAssembler(100, "the broker's");
    assembler.begin(head(), null);
    const steps = feed(assembler, [Buffer.alloc(4), Buffer.alloc(6)], 11);
    expect(refusalOf(steps[1])).toMatch(/body of 10 bytes, not the 11 bytes its last chunk states/);
    expect(steps[1]).toMatchObject({ bodySize: 11 });
  });

  it('property: what largeBodyChunks cuts, the assembler puts back byte for byte', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2000 }),
        fc.integer({ min: 1, max: 300 }),
        (bytes, chunkBytes) => {
          const body = Buffer.from(bytes);
          const assembler = new LargeMessageAssembler(body.length, "the broker's");
          assembler.begin(head(), body.length);
          let result: AssemblyStep = { kind: 'incomplete' };
          const chunks = [...largeBodyChunks(body, chunkBytes)];
          for (const { chunk, continues } of chunks) result = assembler.append(chunk, continues);
          expect(chunks.slice(0, -1).every(({ chunk }) => chunk.length === chunkBytes)).toBe(true);
          expect(chunks.map(({ continues }) => continues)).toEqual(
            chunks.map((_, i) => i < chunks.length - 1),
          );
          expect(result.kind === 'complete' && result.message.body.equals(body)).toBe(true);
        },
      ),
    );
  });
});
