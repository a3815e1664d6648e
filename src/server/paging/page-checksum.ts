import { crc32 } from 'node:zlib';

/**
 * The check each page entry carries, over its length and payload. Node's built-in CRC-32 (zlib's):
 * page files live only while the broker runs and are never synced, so the check is there to turn a
 * bad disk read into a clear error rather than a wrong message. The journal's CRC32C
 * (src/server/storage/journal/crc32c.ts) replaces it here once that lands, so that the broker has
 * one record check; nothing else in the page store depends on which CRC this is.
 */
export function pageChecksum(bytes: Uint8Array): number {
  return crc32(bytes);
}
