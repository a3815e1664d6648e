import { crc32c } from './crc32c';

/**
 * The header at the start of every journal file (big-endian): magic "HQJS", format version, user
 * version, kind, u64 file id, CRC32C of the bytes before it. Files are ordered at load by the file
 * id, never by name: a reused file gets a new name and id, and compaction outputs get ids that sort
 * just before the file that was current when the compaction started.
 */
export const FILE_HEADER_SIZE = 32;
const MAGIC = 0x48514a53;
export const JOURNAL_FORMAT_VERSION = 1;
/**
 * What the records mean to their user; bumped if the storage manager changes its record layout.
 * 2: messages, queue bindings and duplicate ids in HornetQ 2.4's encodings (UTF-16 strings, its
 * message layout), where 1 had this project's own (UTF-8).
 */
export const JOURNAL_USER_VERSION = 2;

export const FileKind = {
  /** Appended to by the writer; the last flush in it may be torn. */
  DATA: 1,
  /** Written whole by compaction and synced before use: never torn, no flush numbering. */
  COMPACTED: 2,
} as const;
export type FileKind = (typeof FileKind)[keyof typeof FileKind];

/**
 * Data files get ids sequence × FILE_ID_STRIDE; the files compaction writes in place of data
 * files before sequence s get ids between (s - 1) × stride and s × stride, so they sort before s.
 */
export const FILE_ID_STRIDE = 4096;

export function dataFileId(sequence: number): number {
  return sequence * FILE_ID_STRIDE;
}

export function sequenceOf(fileId: number): number {
  return Math.floor(fileId / FILE_ID_STRIDE);
}

/** The 32-bit file id each record carries: the low half of the header's file id. */
export function recordFileId(fileId: number): number {
  return fileId % 0x1_0000_0000;
}

export interface FileHeader {
  kind: FileKind;
  fileId: number;
}

export function encodeFileHeader(header: FileHeader): Buffer {
  const buffer = Buffer.alloc(FILE_HEADER_SIZE);
  buffer.writeUInt32BE(MAGIC, 0);
  buffer.writeUInt32BE(JOURNAL_FORMAT_VERSION, 4);
  buffer.writeUInt32BE(JOURNAL_USER_VERSION, 8);
  buffer.writeUInt32BE(header.kind, 12);
  buffer.writeUInt32BE(Math.floor(header.fileId / 0x1_0000_0000), 16);
  buffer.writeUInt32BE(header.fileId % 0x1_0000_0000, 20);
  buffer.writeUInt32BE(crc32c(buffer, 0, 24), 24);
  return buffer;
}

/** The header, or what is wrong with it. */
export function decodeFileHeader(buffer: Buffer, length: number): FileHeader | string {
  if (length < FILE_HEADER_SIZE)
    return `file is shorter (${length} bytes) than its header (${FILE_HEADER_SIZE})`;
  if (buffer.readUInt32BE(0) !== MAGIC) return 'not a journal file (bad magic number)';
  if (buffer.readUInt32BE(24) !== crc32c(buffer, 0, 24)) return 'file header CRC32C does not match';
  const format = buffer.readUInt32BE(4);
  if (format !== JOURNAL_FORMAT_VERSION)
    return `journal format version ${format} is not supported (${JOURNAL_FORMAT_VERSION} is)`;
  const user = buffer.readUInt32BE(8);
  if (user !== JOURNAL_USER_VERSION) {
    const why =
      user < JOURNAL_USER_VERSION
        ? ': it was written by an earlier hornetq-js, whose records this one cannot read; start with an empty data directory'
        : ': it was written by a later hornetq-js';
    return `journal user version ${user} does not match ${JOURNAL_USER_VERSION}${why}`;
  }
  const kind = buffer.readUInt32BE(12);
  if (kind !== FileKind.DATA && kind !== FileKind.COMPACTED) return `unknown journal file kind ${kind}`;
  return { kind, fileId: buffer.readUInt32BE(16) * 0x1_0000_0000 + buffer.readUInt32BE(20) };
}
