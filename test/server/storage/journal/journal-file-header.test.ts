import { crc32c } from '../../../../src/server/storage/journal/crc32c';
import {
  FILE_HEADER_SIZE,
  FileKind,
  JOURNAL_USER_VERSION,
  decodeFileHeader,
  encodeFileHeader,
} from '../../../../src/server/storage/journal/journal-file-header';

/** A valid header whose user version is `userVersion` (its CRC recomputed). */
function headerWithUserVersion(userVersion: number): Buffer {
  const header = encodeFileHeader({ kind: FileKind.DATA, fileId: 4096 });
  header.writeUInt32BE(userVersion, 8);
  header.writeUInt32BE(crc32c(header, 0, 24), 24);
  return header;
}

describe('journal file header', () => {
  it('round-trips kind and file id', () => {
    const header = encodeFileHeader({ kind: FileKind.COMPACTED, fileId: 2 ** 40 + 7 });
    expect(decodeFileHeader(header, FILE_HEADER_SIZE)).toEqual({
      kind: FileKind.COMPACTED,
      fileId: 2 ** 40 + 7,
    });
  });

  it('refuses a journal written with the records of an earlier version (UTF-8 strings), saying what to do', () => {
    expect(JOURNAL_USER_VERSION).toBe(2);
    expect(decodeFileHeader(headerWithUserVersion(1), FILE_HEADER_SIZE)).toBe(
      'journal user version 1 does not match 2: it was written by an earlier hornetq-js, whose records this one cannot read; start with an empty data directory',
    );
    expect(decodeFileHeader(headerWithUserVersion(3), FILE_HEADER_SIZE)).toMatch(
      /written by a later hornetq-js/,
    );
  });

  it('refuses a damaged header by its checksum', () => {
    const header = encodeFileHeader({ kind: FileKind.DATA, fileId: 4096 });
    header.writeUInt8(header.readUInt8(13) ^ 1, 13);
    expect(decodeFileHeader(header, FILE_HEADER_SIZE)).toBe('file header CRC32C does not match');
  });
});
