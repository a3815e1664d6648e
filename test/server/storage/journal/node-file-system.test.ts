import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '../../../../src/server/storage/journal/node-file-system';
import { journalOptions, openJournal, synced } from './journal-test-kit';

describe('NodeFileSystem', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'journal-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  test('positioned reads and writes, datasync, rename, remove and a directory fsync', async () => {
    const fileSystem = new NodeFileSystem();
    expect(await fileSystem.list(join(directory, 'missing'))).toEqual([]);
    await expect(fileSystem.open(join(directory, 'missing.hq'), false)).rejects.toThrow(/ENOENT/);
    const file = await fileSystem.open(join(directory, 'a.tmp'), true);
    await file.write(Buffer.from('world'), 0, 5, 6);
    await file.write(Buffer.from('hello '), 0, 6, 0);
    await file.datasync();
    const read = Buffer.alloc(20);
    expect(await file.read(read, 0, 20, 0)).toBe(11);
    expect(read.subarray(0, 11).toString()).toBe('hello world');
    expect(await file.size()).toBe(11);
    await file.close();
    await fileSystem.rename(join(directory, 'a.tmp'), join(directory, 'a.hq'));
    await fileSystem.syncDirectory(directory);
    expect(await fileSystem.exists(join(directory, 'a.hq'))).toBe(true);
    await fileSystem.remove(join(directory, 'a.hq'));
    expect(await readdir(directory)).toEqual([]);
  });

  test('a journal on disk: files pre-filled to full size, records back after a reopen', async () => {
    const options = journalOptions(new NodeFileSystem(), {
      directory: join(directory, 'data'),
      fileSize: 64 * 1024,
    });
    const { journal } = await openJournal(options);
    for (let id = 1; id <= 500; id++) journal.appendAdd(id, 1, Buffer.alloc(200, id % 256), id % 50 === 0);
    journal.appendTransaction(
      [
        { kind: 'delete', id: 1 },
        { kind: 'update', id: 2, userType: 9, body: Buffer.from('x') },
      ],
      true,
    );
    await synced(journal);
    await journal.close();
    const names = (await readdir(options.directory))
      .filter((name) => name !== 'hornetq-data-state.ctr')
      .sort();
    expect(names.every((name) => /^hornetq-data-[0-9]+\.hq$/.test(name))).toBe(true);
    for (const name of names) expect((await stat(join(options.directory, name))).size).toBe(64 * 1024);

    const { state, journal: reloaded } = await openJournal(options);
    expect(state.size).toBe(499);
    expect(state.get(2)).toEqual([
      `1:${Buffer.alloc(200, 2).toString('hex')}`,
      `9:${Buffer.from('x').toString('hex')}`,
    ]);
    await reloaded.close();
  });

  test('a missing directory is refused when creating it is switched off', async () => {
    const options = journalOptions(new NodeFileSystem(), {
      directory: join(directory, 'absent'),
      createDirectory: false,
    });
    await expect(openJournal(options)).rejects.toThrow(/journal directory .*absent does not exist/);
  });
});
