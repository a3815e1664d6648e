import fc from 'fast-check';
import {
  decodeShortString,
  encodeShortString,
  encodedShortStringCount,
  utf8Length,
} from '../../../src/core/protocol/short-strings';

describe('short string caches', () => {
  it('decode exactly as Buffer#toString does, whatever was cached before', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 80 }), { minLength: 1, maxLength: 40 }), (arrays) => {
        for (const bytes of arrays) {
          const buffer = Buffer.concat([Buffer.from([1, 2]), Buffer.from(bytes), Buffer.from([3])]);
          expect(decodeShortString(buffer, 2, 2 + bytes.length)).toBe(
            buffer.toString('utf8', 2, 2 + bytes.length),
          );
        }
      }),
    );
  });

  it('never answers from a slot whose bytes were overwritten in the frame it came from', () => {
    const frame = Buffer.from('jms.queue.a');
    expect(decodeShortString(frame, 0, frame.length)).toBe('jms.queue.a');
    frame.write('jms.queue.b');
    expect(decodeShortString(frame, 0, frame.length)).toBe('jms.queue.b');
  });

  it('encode exactly as Buffer.from does, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (value) => {
        const expected = Buffer.from(value, 'utf8');
        const cached = encodeShortString(value);
        if (cached !== null) expect(cached.equals(expected)).toBe(true);
        expect(utf8Length(value)).toBe(expected.length);
      }),
    );
  });

  it('stays bounded: many distinct strings do not grow the cache without limit', () => {
    for (let i = 0; i < 10_000; i++) {
      encodeShortString(`jms.queue.q${i}`);
      expect(encodedShortStringCount()).toBeLessThanOrEqual(64);
    }
    expect(encodeShortString('jms.queue.q1')?.toString()).toBe('jms.queue.q1');
  });
});
