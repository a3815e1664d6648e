import { PropertyKind, type TypedValue } from '../../../src/core/protocol';
import { hexPreview, javaLiteral } from '../../../src/cli/shared/java-literal';

/** How `hornetq browse` writes a typed value: Java's literal syntax, so that its type shows. */
describe('javaLiteral', () => {
  it.each<[TypedValue, string]>([
    [{ kind: PropertyKind.NULL, value: null }, 'null'],
    [{ kind: PropertyKind.BOOLEAN, value: false }, 'false'],
    [{ kind: PropertyKind.BYTE, value: -128 }, '(byte)-128'],
    [{ kind: PropertyKind.SHORT, value: 32767 }, '(short)32767'],
    [{ kind: PropertyKind.INT, value: 7 }, '7'],
    [{ kind: PropertyKind.LONG, value: 7 }, '7L'],
    [{ kind: PropertyKind.LONG, value: -9_223_372_036_854_775_808n }, '-9223372036854775808L'],
    [{ kind: PropertyKind.FLOAT, value: Math.fround(1.1) }, '1.1f'],
    [{ kind: PropertyKind.FLOAT, value: Math.fround(3.4028234663852886e38) }, '3.4028235e+38f'],
    [{ kind: PropertyKind.FLOAT, value: 2 }, '2.0f'],
    [{ kind: PropertyKind.FLOAT, value: Number.NaN }, '(float)NaN'],
    [{ kind: PropertyKind.FLOAT, value: Number.POSITIVE_INFINITY }, '(float)Infinity'],
    [{ kind: PropertyKind.DOUBLE, value: 2 }, '2.0'],
    [{ kind: PropertyKind.DOUBLE, value: -0.1 }, '-0.1'],
    [{ kind: PropertyKind.DOUBLE, value: 1e21 }, '1e+21'],
    [{ kind: PropertyKind.DOUBLE, value: Number.NEGATIVE_INFINITY }, '-Infinity'],
    [{ kind: PropertyKind.CHAR, value: 'c' }, "'c'"],
    [{ kind: PropertyKind.CHAR, value: "'" }, "'\\''"],
    [{ kind: PropertyKind.CHAR, value: '\n' }, "'\\n'"],
    [{ kind: PropertyKind.STRING, value: 'two\nlines "quoted"' }, '"two\\nlines \\"quoted\\""'],
    [{ kind: PropertyKind.BYTES, value: Buffer.from([0, 0xff]) }, 'bytes[2] 00ff'],
  ])('%j is %s', (typed, literal) => {
    expect(javaLiteral(typed)).toBe(literal);
  });

  it('cuts a long byte array after 32 bytes', () => {
    const bytes = Buffer.alloc(40, 0xab);
    expect(javaLiteral({ kind: PropertyKind.BYTES, value: bytes })).toBe(`bytes[40] ${'ab'.repeat(32)}...`);
  });
});

describe('hexPreview', () => {
  it('shows at most `max` bytes of a view, from its own start', () => {
    const view = Buffer.from([1, 2, 3, 4, 5]).subarray(1);
    expect(hexPreview(view, 4)).toBe('02030405');
    expect(hexPreview(view, 2)).toBe('0203...');
    expect(hexPreview(view, 0)).toBe('...');
    expect(hexPreview(Buffer.alloc(0), 4)).toBe('');
  });
});
