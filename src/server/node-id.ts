import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { StorageError } from './storage/storage-error';

/** The file, in the journal directory, that keeps the broker's node id across restarts. */
export const NODE_ID_FILE = 'node-id';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The broker's node id: the UUID its topology answers and its DISCONNECT name (HornetQ keeps it in
 * server.lock). Clients take a changed id for another server, so a broker that persists keeps it
 * in its journal directory and finds it again after a restart; one without a directory gets a
 * fresh id for its life. A file that is there but holds no UUID is an error naming the file,
 * never silently replaced: the id would change under the clients.
 */
export function loadNodeId(journalDirectory: string | null): string {
  if (journalDirectory === null) return randomUUID();
  const file = path.join(journalDirectory, NODE_ID_FILE);
  const existing = readIfPresent(file);
  if (existing !== null) {
    const id = existing.trim();
    if (!UUID_PATTERN.test(id)) {
      throw new StorageError(
        `the node id file ${file} does not hold a UUID (found ${JSON.stringify(id.slice(0, 40))})`,
      );
    }
    return id;
  }
  const id = randomUUID();
  mkdirSync(journalDirectory, { recursive: true });
  // Written aside and renamed, so that a crash never leaves a half-written id behind.
  const partial = `${file}.tmp`;
  writeFileSync(partial, `${id}\n`, { mode: 0o644 });
  renameSync(partial, file);
  return id;
}

function readIfPresent(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StorageError(`cannot read the node id file ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
