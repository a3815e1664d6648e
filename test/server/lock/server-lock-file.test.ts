import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { currentHolder } from '../../../src/server/lock/lock-holder';
import { ServerLockFile, ServerLockState } from '../../../src/server/lock/server-lock-file';

/** server.lock's contents: HornetQ's 19 bytes (state, two lock bytes, node id), then our holder line. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const directories: string[] = [];

function scratchFile(contents?: Buffer): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'server-lock-'));
  directories.push(directory);
  const file = path.join(directory, 'server.lock');
  writeFileSync(file, contents ?? Buffer.alloc(0));
  return file;
}

async function withFile<T>(file: string, use: (contents: ServerLockFile) => Promise<T>): Promise<T> {
  const handle = await open(file, 'r+');
  try {
    return await use(new ServerLockFile(handle));
  } finally {
    await handle.close();
  }
}

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('ServerLockFile', () => {
  it('gives a new file HornetQ\'s "first start" bytes and a fresh node id at bytes 3..18, and keeps it', async () => {
    const file = scratchFile();
    const id = await withFile(file, (contents) => contents.loadOrCreateNodeId());
    expect(id).toMatch(UUID);
    const bytes = readFileSync(file);
    expect(bytes).toHaveLength(19);
    expect(bytes.toString('latin1', 0, 3)).toBe('000');
    expect(bytes.subarray(3, 19).toString('hex')).toBe(id.replaceAll('-', ''));
    expect(await withFile(file, (contents) => contents.loadOrCreateNodeId())).toBe(id);
  });

  it("reads a file HornetQ wrote: its state byte and its node id's 16 bytes as HornetQ prints them", async () => {
    const hornetq = Buffer.concat([
      Buffer.from('P\0\0', 'latin1'),
      Buffer.from('0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'hex'),
    ]);
    const file = scratchFile(hornetq);
    await withFile(file, async (contents) => {
      expect(await contents.readState()).toBe(ServerLockState.PAUSED);
      expect(await contents.loadOrCreateNodeId()).toBe('0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0');
    });
    expect(readFileSync(file).equals(hornetq)).toBe(true);
  });

  it.each([
    ['shorter than the id', Buffer.from('L\0\0\x01\x02\x03', 'latin1')],
    ['all zeros where the id goes', Buffer.alloc(19)],
  ])(
    'takes a file %s for one with no id (never served: an id is synced first) and writes a fresh one',
    async (_, bytes) => {
      const file = scratchFile(bytes);
      await withFile(file, async (contents) => {
        expect(await contents.readNodeId()).toBeNull();
        const id = await contents.loadOrCreateNodeId();
        expect(id).toMatch(UUID);
        expect(await contents.readNodeId()).toBe(id);
      });
    },
  );

  it('writes each state and reads it back; a byte that is no state reads as none', async () => {
    const file = scratchFile();
    await withFile(file, async (contents) => {
      expect(await contents.readState()).toBeNull();
      for (const state of Object.values(ServerLockState)) {
        await contents.writeState(state);
        expect(await contents.readState()).toBe(state);
      }
    });
    writeFileSync(file, 'X');
    expect(await withFile(file, (contents) => contents.readState())).toBeNull();
  });

  it('keeps the holder line after the id, replacing a longer one whole, and leaves the id alone', async () => {
    const file = scratchFile();
    await withFile(file, async (contents) => {
      const id = await contents.loadOrCreateNodeId();
      await contents.writeHolder({ pid: 1, host: 'a-very-long-host-name.example.org', since: 'then' });
      const holder = currentHolder(new Date('2026-12-07T06:40:00Z'));
      await contents.writeHolder(holder);
      expect(await contents.readHolder()).toEqual(holder);
      expect(await contents.readNodeId()).toBe(id);
      expect(readFileSync(file).subarray(19).toString('utf8')).toBe(`${JSON.stringify(holder)}\n`);
    });
  });

  it.each([
    ['no holder line', Buffer.alloc(19)],
    ['a line that is no JSON', Buffer.concat([Buffer.alloc(19), Buffer.from('pid 12\n')])],
    [
      'a pid that is no integer',
      Buffer.concat([Buffer.alloc(19), Buffer.from('{"pid":"x","host":"h","since":"s"}\n')]),
    ],
  ])('reads no holder from %s', async (_, bytes) => {
    expect(await withFile(scratchFile(bytes), (contents) => contents.readHolder())).toBeNull();
  });

  it('prints no control characters a damaged holder line carries', async () => {
    const line = Buffer.from(`${JSON.stringify({ pid: 7, host: 'evil\u001b[2J\nhost', since: 's' })}\n`);
    const holder = await withFile(scratchFile(Buffer.concat([Buffer.alloc(19), line])), (contents) =>
      contents.readHolder(),
    );
    expect(holder).toEqual({ pid: 7, host: 'evil?[2J?host', since: 's' });
  });
});
