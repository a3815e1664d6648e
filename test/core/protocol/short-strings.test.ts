import fc from 'fast-check';
import {
  decodeShortString,
  encodeShortString,
  encodedShortStringCount,
  simpleStringBytes,
} from '../../../src/core/protocol/short-strings';

describe('short string caches (SimpleString form, UTF-16LE)', () => {
  it("decode exactly as Buffer#toString('utf16le') does, whatever was cached before", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 160 }), { minLength: 1, maxLength: 40 }), (arrays) => {
        for (const raw of arrays) {
          const bytes = raw.subarray(0, raw.length & ~1);
          const buffer = Buffer.concat([Buffer.from([1, 2]), Buffer.from(bytes), Buffer.from([3])]);
          expect(decodeShortString(buffer, 2, 2 + bytes.length)).toBe(
            buffer.toString('utf16le', 2, 2 + bytes.length),
          );
        }
      }),
    );
  });

  it('never answers from a slot whose bytes were overwritten in the frame it came from', () => {
    const frame = Buffer.from('jms.queue.a', 'utf16le');
    expect(decodeShortString(frame, 0, frame.length)).toBe('jms.queue.a');
    frame.write('jms.queue.b', 'utf16le');
    expect(decodeShortString(frame, 0, frame.length)).toBe('jms.queue.b');
  });

  it('encode every UTF-16 unit little-endian, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (value) => {
        const expected = Buffer.from(value, 'utf16le');
        const cached = encodeShortString(value);
        if (cached !== null) expect(cached.equals(expected)).toBe(true);
        expect(simpleStringBytes(value)).toBe(expected.length);
      }),
    );
    expect(encodeShortString('\ud800')?.toString('hex')).toBe('00d8');
  });

  it('stays bounded: many distinct strings do not grow the cache without limit', () => {
    for (let i = 0; i < 10_000; i++) {
      encodeShortString(`jms.queue.q${i}`);
      expect(encodedShortStringCount()).toBeLessThanOrEqual(64);
    }
    expect(encodeShortString('jms.queue.q1')?.toString('utf16le')).toBe('jms.queue.q1');
  });
});
