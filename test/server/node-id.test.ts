import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataDirectoryLock } from '../../src/server/lock/data-directory-lock';
import { LEGACY_NODE_ID_FILE, nodeIdBytes, nodeIdOf, readLegacyNodeId } from '../../src/server/node-id';
import { StorageError } from '../../src/server/storage/storage-error';

const directories: string[] = [];

function scratch(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'node-id-'));
  directories.push(directory);
  return directory;
}

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('the broker node id', () => {
  it("is HornetQ's UUID string of the 16 stored bytes, and back", () => {
    const bytes = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    expect(nodeIdOf(bytes)).toBe('00112233-4455-6677-8899-aabbccddeeff');
    expect(nodeIdBytes('00112233-4455-6677-8899-aabbccddeeff').equals(bytes)).toBe(true);
    expect(() => nodeIdOf(Buffer.alloc(15))).toThrow(RangeError);
    expect(() => nodeIdBytes('not-a-uuid')).toThrow(RangeError);
  });

  it('of a directory written before server.lock comes from its node-id file, and is kept in server.lock', async () => {
    const journal = scratch();
    const earlier = '6f2c1e0a-3b4d-4c5e-8f90-a1b2c3d4e5f6';
    writeFileSync(path.join(journal, LEGACY_NODE_ID_FILE), `${earlier}\n`);
    expect(await readLegacyNodeId(journal)).toBe(earlier);
    const lock = await DataDirectoryLock.acquire(journal, { createDirectory: false });
    expect(lock.nodeId).toBe(earlier);
    await lock.release({ clean: true });
    // server.lock has it now: the node-id file no longer decides.
    writeFileSync(path.join(journal, LEGACY_NODE_ID_FILE), '00000000-0000-4000-8000-000000000000\n');
    const again = await DataDirectoryLock.acquire(journal, { createDirectory: false });
    expect(again.nodeId).toBe(earlier);
    await again.release({ clean: true });
  });

  it('is fresh for a directory with neither file', async () => {
    expect(await readLegacyNodeId(scratch())).toBeNull();
  });

  it('refuses a node-id file that holds no UUID, naming it, instead of changing the id under the clients', async () => {
    const journal = scratch();
    writeFileSync(path.join(journal, LEGACY_NODE_ID_FILE), 'not a uuid\n');
    const start = DataDirectoryLock.acquire(journal, { createDirectory: false });
    await expect(start).rejects.toThrow(StorageError);
    await expect(start).rejects.toThrow(/node id file .*node-id does not hold a UUID/);
  });
});
