import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NODE_ID_FILE, loadNodeId } from '../../src/server/node-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
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
  it('is a fresh UUID each time without a directory', () => {
    const first = loadNodeId(null);
    expect(first).toMatch(UUID);
    expect(loadNodeId(null)).not.toBe(first);
  });

  it('is kept in the journal directory (created if absent) and found again, as after a restart', () => {
    const journal = path.join(scratch(), 'data', 'journal');
    const id = loadNodeId(journal);
    expect(id).toMatch(UUID);
    expect(readFileSync(path.join(journal, NODE_ID_FILE), 'utf8').trim()).toBe(id);
    expect(loadNodeId(journal)).toBe(id);
  });

  it('refuses a file that holds no UUID, naming it, instead of replacing the id under the clients', () => {
    const journal = scratch();
    writeFileSync(path.join(journal, NODE_ID_FILE), 'not a uuid\n');
    expect(() => loadNodeId(journal)).toThrow(/node id file .*node-id does not hold a UUID/);
  });
});
