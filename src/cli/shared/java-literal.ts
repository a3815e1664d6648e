import { PropertyKind, type TypedValue } from '../../core/protocol';

/** Bytes shown in hex before a byte array is cut. */
const BYTES_SHOWN = 32;

/**
 * A typed value (a property, a map entry, a stream field) as a Java developer reads it: Java's
 * literal syntax, so that the type a Java client gave each value shows, not only its number.
 * int is bare (`7`), long `7L`, float `1.5f`, double always has a decimal point or an exponent
 * (`2.0`), byte and short are cast (`(byte)7`, as is a float NaN or infinity), char `'c'`, a
 * string JSON-quoted (control characters escaped), a byte array `bytes[N] hex`.
 */
export function javaLiteral(typed: TypedValue): string {
  switch (typed.kind) {
    case PropertyKind.NULL:
      return 'null';
    case PropertyKind.BOOLEAN:
      return String(typed.value);
    case PropertyKind.BYTE:
      return `(byte)${typed.value}`;
    case PropertyKind.SHORT:
      return `(short)${typed.value}`;
    case PropertyKind.INT:
      return String(typed.value);
    case PropertyKind.LONG:
      return `${typed.value}L`;
    case PropertyKind.FLOAT:
      // NaN and the infinities have no literal: cast, as for byte and short.
      return Number.isFinite(typed.value) ? `${floatText(typed.value)}f` : `(float)${typed.value}`;
    case PropertyKind.DOUBLE:
      return doubleText(typed.value);
    case PropertyKind.CHAR:
      return `'${JSON.stringify(typed.value).slice(1, -1).replaceAll("'", "\\'")}'`;
    case PropertyKind.STRING:
      return JSON.stringify(typed.value);
    case PropertyKind.BYTES:
      return `bytes[${typed.value.length}] ${hexPreview(typed.value, BYTES_SHOWN)}`;
  }
}

/** The first `max` bytes in hex, followed by `...` when there are more. */
export function hexPreview(bytes: Uint8Array, max: number): string {
  const shown = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, max)).toString('hex');
  return bytes.length > max ? `${shown}...` : shown;
}

/** A double as Java prints it: with a decimal point when it is a whole number (2.0). */
function doubleText(value: number): string {
  const text = String(value);
  return Number.isFinite(value) && !/[.e]/.test(text) ? `${text}.0` : text;
}

/**
 * A float (held as the double nearest to it) with the fewest digits that give the same float
 * back: 1.1f, not 1.100000023841858.
 */
function floatText(value: number): string {
  for (let digits = 1; digits < 17; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return doubleText(candidate);
  }
  return doubleText(value);
}
