import { createHash } from 'node:crypto';

/** What addressDirectoryName returns: 32 lowercase hex digits (what the startup cleanup recognises). */
export const ADDRESS_DIRECTORY_PATTERN = /^[0-9a-f]{32}$/;

/**
 * The name of an address' directory under the paging directory. Addresses are client-chosen and
 * may hold any character, or be longer than a file name may be, so the directory is named by a
 * hash of the address (its address.txt says which address it is, for an operator).
 */
export function addressDirectoryName(address: string): string {
  return createHash('sha256').update(address, 'utf8').digest('hex').slice(0, 32);
}
