import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StorageError } from './storage/storage-error';

/*
 * The broker's node id: the UUID its topology answers and its DISCONNECT name. A broker that keeps
 * its own journal keeps the id in server.lock (bytes 3 to 18, as HornetQ does), so that a restart
 * does not make it another server in its clients' eyes; one without gets a fresh id for its life.
 * These convert between the 16 bytes stored and the string clients see.
 */

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where a journal directory kept its node id before server.lock did (versions up to 0.1.0). */
export const LEGACY_NODE_ID_FILE = 'node-id';

/** Bytes in a stored node id. */
export const NODE_ID_BYTES = 16;

/** HornetQ's UUID string: the 16 bytes in order, as 8-4-4-4-12 hex digits. */
export function nodeIdOf(bytes: Buffer): string {
  if (bytes.length !== NODE_ID_BYTES)
    throw new RangeError(`a node id has ${NODE_ID_BYTES} bytes, not ${bytes.length}`);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The 16 bytes of a node id string (a UUID). */
export function nodeIdBytes(nodeId: string): Buffer {
  if (!UUID_PATTERN.test(nodeId)) throw new RangeError(`the node id ${JSON.stringify(nodeId)} is no UUID`);
  return Buffer.from(nodeId.replaceAll('-', ''), 'hex');
}

/**
 * The node id a directory written before server.lock kept in its `node-id` file, so that it
 * keeps its id on the upgrade; null when there is no such file. A file that holds no UUID is an
 * error naming it, never passed over: the id would change under the clients.
 */
export async function readLegacyNodeId(journalDirectory: string): Promise<string | null> {
  const file = path.join(journalDirectory, LEGACY_NODE_ID_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StorageError(`cannot read the node id file ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const id = text.trim();
  if (!UUID_PATTERN.test(id)) {
    throw new StorageError(
      `the node id file ${file} does not hold a UUID (found ${JSON.stringify(id.slice(0, 40))})`,
    );
  }
  return id;
}
