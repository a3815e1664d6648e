import { createHash } from 'node:crypto';
import { readdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { lines, runCli, spawnCli, startServer, useCli } from '../support';

/** Every file under `directory` with a hash of its bytes, but server.lock (the lock a start takes first). */
async function hashTree(directory: string): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name === 'server.lock') continue;
    const file = path.join(entry.parentPath, entry.name);
    tree.set(
      path.relative(directory, file),
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
  }
  return tree;
}

/** The message journal file that holds the newest records (the highest number holding any). */
async function lastJournalFile(journal: string): Promise<string> {
  const withData: Array<{ name: string; number: number }> = [];
  for (const name of await readdir(journal)) {
    const match = /^hornetq-data-([0-9]+)\.hq$/.exec(name);
    if (match === null) continue;
    const bytes = await readFile(path.join(journal, name));
    if (bytes.readUInt32BE(32) !== 0) withData.push({ name, number: Number(match[1]) });
  }
  withData.sort((a, b) => a.number - b.number);
  return path.join(journal, withData.at(-1)!.name);
}

describe('hornetq data check and hornetq server --accept-damage', () => {
  useCli();

  test('a clean directory checks clean; a deleted journal file is reported and refused by a start, changing nothing, until accepted', async () => {
    const { server, configDir } = await startServer(['Kept']);
    const config = ['--config', configDir, '--data-dir', configDir];
    const sent = await runCli([
      'producer',
      '--config',
      configDir,
      '--destination',
      '/queue/Kept',
      '--count',
      '20',
    ]);
    expect(sent.code).toBe(0);
    expect((await server.stop('SIGTERM')).code).toBe(0);

    const clean = await runCli(['data', 'check', ...config]);
    expect(clean).toMatchObject({ code: 0, stderr: '' });
    expect(lines(clean.stdout)).toEqual([
      expect.stringMatching(/^checked bindings in /),
      expect.stringMatching(/^\d+ queue\(s\), 20 message\(s\), 20 reference\(s\)/),
      'no damage found',
    ]);

    const victim = await lastJournalFile(path.join(configDir, 'data', 'journal'));
    await unlink(victim);
    const before = await hashTree(configDir);

    const damaged = await runCli(['data', 'check', ...config]);
    expect(damaged.code).toBe(2);
    expect(lines(damaged.stdout)).toEqual(
      expect.arrayContaining([
        '1 problem(s) found:',
        expect.stringContaining(`missing-journal-file: ${victim}: `),
        expect.stringContaining('--accept-damage missing-journal-file'),
      ]),
    );
    expect(await hashTree(configDir)).toEqual(before);

    const refused = await runCli(['server', ...config]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(victim);
    expect(refused.stderr).toContain('--accept-damage missing-journal-file');
    expect(await hashTree(configDir)).toEqual(before);

    const accepting = spawnCli(['server', ...config, '--accept-damage', 'missing-journal-file']);
    await accepting.waitForOutput(/listening on tcp:/);
    const stopped = await accepting.stop('SIGTERM');
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain('damage accepted (--accept-damage missing-journal-file)');
    // Accepted once: the journal was rewritten without it, and checks clean again.
    expect((await runCli(['data', 'check', ...config])).code).toBe(0);
  });

  test('--accept-damage names only known kinds', async () => {
    const result = await runCli(['server', '--accept-damage', 'torn-everything']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /unknown damage kind 'torn-everything': the kinds are corrupt-record, damaged-tail/,
    );
  });
});
