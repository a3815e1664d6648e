import { largeBodyChunks } from '../../../src/core/protocol/large-body-chunks';

describe('largeBodyChunks', () => {
  it('an empty body is one empty last chunk, so the receiver sees an end', () => {
    expect([...largeBodyChunks(Buffer.alloc(0), 10)]).toEqual([{ chunk: Buffer.alloc(0), continues: false }]);
  });

  it('refuses a chunk size that is not a positive integer, naming it', () => {
    expect(() => [...largeBodyChunks(Buffer.alloc(10), 0)]).toThrow(
      'chunkBytes must be an integer > 0 (actual value: 0)',
    );
  });
});

// Cutting and putting back together, byte for byte: large-message-assembler.test.ts.
