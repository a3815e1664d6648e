import { FaultFileSystem, seededRandom } from './fault-file-system';
import { MemoryFileSystem } from './memory-file-system';

async function setUp() {
  const fileSystem = new FaultFileSystem(new MemoryFileSystem());
  await fileSystem.mkdir('/d');
  const file = await fileSystem.open('/d/f', true);
  await file.write(Buffer.from('synced.'), 0, 7, 0);
  await file.datasync();
  await file.write(Buffer.alloc(600, 'a'), 0, 600, 7);
  await file.write(Buffer.alloc(600, 'b'), 0, 600, 607);
  return { fileSystem, file };
}

async function durable(fileSystem: FaultFileSystem): Promise<string> {
  const file = await fileSystem.inner.open('/d/f', false);
  const bytes = Buffer.alloc(await file.size());
  await file.read(bytes, 0, bytes.length, 0);
  await file.close();
  return bytes.toString();
}

describe('FaultFileSystem', () => {
  test('unsynced writes are read back but not durable; datasync makes them durable', async () => {
    const { fileSystem, file } = await setUp();
    const read = Buffer.alloc(10);
    await file.read(read, 0, 10, 605);
    expect(read.toString()).toBe('aabbbbbbbb');
    expect(await file.size()).toBe(1207);
    expect(await durable(fileSystem)).toBe('synced.');
    await file.datasync();
    expect((await durable(fileSystem)).length).toBe(1207);
  });

  test('a crash drops, keeps a prefix of, or tears the unsynced writes; old handles then fail', async () => {
    const dropped = await setUp();
    await dropped.fileSystem.crash('drop');
    expect(await durable(dropped.fileSystem)).toBe('synced.');
    await expect(dropped.file.read(Buffer.alloc(1), 0, 1, 0)).rejects.toThrow(/after a crash/);

    const prefix = await setUp();
    await prefix.fileSystem.crash('prefix', () => 0.5);
    expect(await durable(prefix.fileSystem)).toBe(`synced.${'a'.repeat(600)}`);

    const tornByte = await setUp();
    const byteChoices = [0, 0.5];
    await tornByte.fileSystem.crash('torn-byte', () => byteChoices.shift()!);
    expect(await durable(tornByte.fileSystem)).toBe(`synced.${'a'.repeat(300)}`);

    const tornSector = await setUp();
    const sectorChoices = [0, 0.9];
    await tornSector.fileSystem.crash('torn-sector', () => sectorChoices.shift()!);
    expect(await durable(tornSector.fileSystem)).toBe(`synced.${'a'.repeat(512 - 7)}`);
  });

  test('crashWhen freezes at a chosen operation; flipBit damages durable bytes; seeded random repeats', async () => {
    const { fileSystem, file } = await setUp();
    fileSystem.crashWhen(({ operation }) => operation === 'datasync');
    await expect(file.datasync()).rejects.toThrow(/frozen/);
    expect(fileSystem.frozenAt).toEqual({ operation: 'datasync', path: '/d/f' });
    await expect(fileSystem.list('/d')).rejects.toThrow(/frozen/);
    await fileSystem.crash('drop');
    await fileSystem.flipBit('/d/f', 0, 0);
    expect(await durable(fileSystem)).toBe('rynced.');
    const a = seededRandom(7);
    const b = seededRandom(7);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});
