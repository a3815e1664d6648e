import { crc32c } from '../storage/journal/crc32c';

/**
 * The check each page entry carries, over its length and payload: the journal's CRC32C, so that
 * the broker has one record check. Page files live only while the broker runs and are never
 * synced; the check turns a bad disk read into a clear error rather than a wrong message.
 */
export function pageChecksum(bytes: Uint8Array): number {
  return crc32c(bytes);
}
