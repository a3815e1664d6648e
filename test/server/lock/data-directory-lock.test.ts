import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataDirectoryLock } from '../../../src/server/lock/data-directory-lock';
import { DataDirectoryLockedError } from '../../../src/server/lock/data-directory-locked-error';
import { FileLock } from '../../../src/server/lock/file-lock';
import { StorageError } from '../../../src/server/storage/storage-error';

/** A live broker's hold on its journal directory: server.lock's state through a life, and refusals. */

const directories: string[] = [];
const held: DataDirectoryLock[] = [];

async function scratch(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'data-directory-lock-'));
  directories.push(directory);
  return directory;
}

async function acquire(directory: string, createDirectory = true): Promise<DataDirectoryLock> {
  const lock = await DataDirectoryLock.acquire(directory, { createDirectory });
  held.push(lock);
  return lock;
}

function serverLock(directory: string): Buffer {
  return readFileSync(path.join(directory, 'server.lock'));
}

afterEach(async () => {
  await Promise.all(held.splice(0).map((lock) => lock.release({ clean: true })));
  await Promise.all(
    directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

describe('DataDirectoryLock', () => {
  it('makes the journal directory, writes LIVE, the node id and the holder, and keeps the id after a clean release (PAUSED)', async () => {
    const journal = path.join(await scratch(), 'data', 'journal');
    const lock = await acquire(journal);
    const bytes = serverLock(journal);
    expect(bytes.toString('latin1', 0, 1)).toBe('L');
    expect(bytes.subarray(3, 19).toString('hex')).toBe(lock.nodeId.replaceAll('-', ''));
    expect(JSON.parse(bytes.subarray(19).toString('utf8'))).toMatchObject({ pid: process.pid });

    await lock.release({ clean: true });
    expect(serverLock(journal).toString('latin1', 0, 1)).toBe('P');
    expect((await acquire(journal)).nodeId).toBe(lock.nodeId);
  });

  it('leaves LIVE behind when let go after a failure, as a crash does (a backup would take over)', async () => {
    const journal = await scratch();
    const lock = await acquire(journal);
    await lock.release({ clean: false });
    expect(serverLock(journal).toString('latin1', 0, 1)).toBe('L');
    await acquire(journal);
  });

  it('refuses a second hold with the holder, and writes nothing while refusing', async () => {
    const journal = await scratch();
    await acquire(journal);
    const before = serverLock(journal);
    const refusal = DataDirectoryLock.acquire(journal, { createDirectory: true });
    await expect(refusal).rejects.toThrow(DataDirectoryLockedError);
    await expect(refusal).rejects.toMatchObject({ directory: journal, holder: { pid: process.pid } });
    expect(serverLock(journal).equals(before)).toBe(true);
  });

  it('names the holder as unknown when its line is not there yet', async () => {
    const journal = await scratch();
    const lock = await acquire(journal);
    await lock.release({ clean: false });
    // A holder that took the lock and has not yet written its line: the file as HornetQ leaves it.
    const bare = await FileLock.open(path.join(journal, 'server.lock'));
    try {
      await bare.fileHandle.truncate(19);
      expect(await bare.tryLock()).toBe(true);
      await expect(DataDirectoryLock.acquire(journal, { createDirectory: true })).rejects.toThrow(
        `the data directory ${journal} is in use by another broker (one that has not written down who it is)`,
      );
    } finally {
      await bare.release();
    }
  });

  it('does not make a missing directory when told not to (create-journal-dir false), and says so', async () => {
    const journal = path.join(await scratch(), 'missing');
    const refusal = DataDirectoryLock.acquire(journal, { createDirectory: false });
    await expect(refusal).rejects.toThrow(StorageError);
    await expect(refusal).rejects.toThrow(
      `cannot open the data directory lock ${path.join(journal, 'server.lock')}: the directory does not exist (create-journal-dir is false)`,
    );
  });
});
