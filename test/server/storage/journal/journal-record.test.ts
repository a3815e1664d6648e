import { crc32c } from '../../../../src/server/storage/journal/crc32c';
import {
  checkRecord,
  decodeRecord,
  FRAME_OVERHEAD,
  recordLength,
  RecordType,
  writeRecord,
  type RecordFields,
} from '../../../../src/server/storage/journal/journal-record';
import {
  decodeFileHeader,
  encodeFileHeader,
  FileKind,
} from '../../../../src/server/storage/journal/journal-file-header';

describe('crc32c', () => {
  test.each([
    ['123456789', 0xe3069283],
    ['', 0],
    ['a', 0xc1d04330],
    ['The quick brown fox jumps over the lazy dog', 0x22620404],
  ])('crc32c(%j) = %d (Castagnoli check values)', (text, expected) => {
    expect(crc32c(Buffer.from(text))).toBe(expected);
  });

  test('32 zero bytes and 32 0xFF bytes (RFC 3720 test vectors)', () => {
    expect(crc32c(Buffer.alloc(32))).toBe(0x8a9136aa);
    expect(crc32c(Buffer.alloc(32, 0xff))).toBe(0x62a8ab43);
  });

  test('the 8-byte fast path agrees with a bytewise reference at every length and offset', () => {
    const reference = (data: Uint8Array): number => {
      let crc = 0xffffffff;
      for (const byte of data) {
        crc ^= byte;
        for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
      }
      return (crc ^ 0xffffffff) >>> 0;
    };
    const data = Buffer.from(Array.from({ length: 100 }, (_, index) => (index * 37 + 11) & 0xff));
    for (let start = 0; start < 9; start++) {
      for (let end = start; end <= data.length; end += 7) {
        expect(crc32c(data, start, end)).toBe(reference(data.subarray(start, end)));
      }
    }
  });
});

describe('record frame', () => {
  const fields = (overrides: Partial<RecordFields>): RecordFields => ({
    type: RecordType.ADD,
    fileId: 0x01020304,
    flush: 77,
    txId: 0,
    id: 0,
    userType: 0,
    count: 0,
    body: null,
    ...overrides,
  });

  test.each([
    [
      'ADD',
      fields({ type: RecordType.ADD, id: Number.MAX_SAFE_INTEGER, userType: 31, body: Buffer.from('hello') }),
    ],
    ['UPDATE', fields({ type: RecordType.UPDATE, id: 2 ** 40 + 5, userType: 32, body: Buffer.alloc(0) })],
    ['DELETE', fields({ type: RecordType.DELETE, id: 9 })],
    [
      'ADD_TX',
      fields({ type: RecordType.ADD_TX, txId: 2 ** 33, id: 3, userType: 1, body: Buffer.from('x') }),
    ],
    [
      'UPDATE_TX',
      fields({ type: RecordType.UPDATE_TX, txId: 4, id: 3, userType: 2, body: Buffer.from('yy') }),
    ],
    ['DELETE_TX', fields({ type: RecordType.DELETE_TX, txId: 4, id: 3 })],
    ['COMMIT', fields({ type: RecordType.COMMIT, txId: 4, count: 3 })],
  ])(
    '%s round-trips and is laid out as length, type, file id, flush, payload, CRC32C, length',
    (_name, record) => {
      const length = recordLength(record.type, record.body?.length ?? 0);
      const buffer = Buffer.alloc(length + 10);
      expect(writeRecord(buffer, 5, record)).toBe(length);
      expect(buffer.readUInt32BE(5)).toBe(length);
      expect(buffer[9]).toBe(record.type);
      expect(buffer.readUInt32BE(10)).toBe(record.fileId);
      expect(buffer.readUInt32BE(14)).toBe(record.flush);
      expect(buffer.readUInt32BE(5 + length - 8)).toBe(crc32c(buffer, 5, 5 + length - 8));
      expect(buffer.readUInt32BE(5 + length - 4)).toBe(length);
      expect(checkRecord(buffer, 5, length, record.fileId)).toBeNull();
      const decoded = decodeRecord(buffer, 5);
      expect({ ...decoded, body: decoded.body?.toString('hex') ?? null }).toEqual({
        ...record,
        length,
        body: record.body?.toString('hex') ?? null,
      });
    },
  );

  test('every check names what failed', () => {
    const record = fields({ type: RecordType.ADD, id: 1, userType: 1, body: Buffer.from('body') });
    const length = recordLength(RecordType.ADD, 4);
    const fresh = (): Buffer => {
      const buffer = Buffer.alloc(length);
      writeRecord(buffer, 0, record);
      return buffer;
    };
    expect(checkRecord(fresh(), 0, length - 1, record.fileId)).toMatch(/runs past the end/);
    expect(checkRecord(fresh(), 0, length, 99)).toMatch(/file id/);
    const badType = fresh();
    badType[4] = 42;
    expect(checkRecord(badType, 0, length, record.fileId)).toMatch(/unknown record type 42/);
    const shortDelete = fresh();
    shortDelete[4] = RecordType.DELETE;
    expect(checkRecord(shortDelete, 0, length, record.fileId)).toMatch(/not valid for record type/);
    const trailing = fresh();
    trailing.writeUInt32BE(7, length - 4);
    expect(checkRecord(trailing, 0, length, record.fileId)).toMatch(/trailing length/);
    const flipped = fresh();
    flipped.writeUInt8(flipped.readUInt8(FRAME_OVERHEAD) ^ 0x10, FRAME_OVERHEAD);
    expect(checkRecord(flipped, 0, length, record.fileId)).toMatch(/CRC32C/);
  });

  test('a file header round-trips and rejects damage', () => {
    const header = encodeFileHeader({ kind: FileKind.COMPACTED, fileId: 2 ** 45 + 3 });
    expect(decodeFileHeader(header, header.length)).toEqual({
      kind: FileKind.COMPACTED,
      fileId: 2 ** 45 + 3,
    });
    header.writeUInt8(header.readUInt8(20) ^ 1, 20);
    expect(decodeFileHeader(header, header.length)).toMatch(/CRC32C/);
    expect(decodeFileHeader(Buffer.alloc(32), 32)).toMatch(/magic/);
    expect(decodeFileHeader(header, 10)).toMatch(/shorter/);
  });
});
