import { EventEmitter } from 'node:events';
import { promises as fs, watch as fsWatch } from 'node:fs';
import path from 'node:path';
import { FileWatcher, type DirectoryWatch, type WatchDirectory } from '../../src/jndi/file-watcher';
import { captureLogger, tempDir, waitFor } from './support';

/**
 * FileWatcher on real files: fs.watch wakes it (so a change is taken well within a second, where
 * the poller it replaced took 5-10 s), and where watching fails (injected here) it polls.
 */

/** Longer than any test waits: a change seen in time was not seen by polling. */
const NEVER_POLLS_MS = 600_000;

interface Watched {
  watcher: FileWatcher;
  changes: string[];
  unreadable: Error[];
  logger: ReturnType<typeof captureLogger>;
}

const watchers: FileWatcher[] = [];
const folders: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const watcher of watchers.splice(0)) watcher.stop();
  for (const remove of folders.splice(0)) await remove();
});

async function fileWith(content: string): Promise<string> {
  const { dir, remove } = await tempDir();
  folders.push(remove);
  const file = path.join(dir, 'hornetq-jms.xml');
  await fs.writeFile(file, content);
  return file;
}

function watch(
  file: string,
  content: string,
  options: { pollPeriodMs?: number; watchDirectory?: WatchDirectory } = {},
): Watched {
  const changes: string[] = [];
  const unreadable: Error[] = [];
  const logger = captureLogger();
  const watcher = new FileWatcher({
    file,
    content,
    pollPeriodMs: options.pollPeriodMs ?? NEVER_POLLS_MS,
    logger,
    onChange: (changed) => changes.push(changed),
    onUnreadable: (error) => unreadable.push(error),
    ...(options.watchDirectory === undefined ? {} : { watchDirectory: options.watchDirectory }),
  });
  watchers.push(watcher);
  watcher.start();
  return { watcher, changes, unreadable, logger };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('FileWatcher', () => {
  test('fs.watch: a save is taken within a second, once, as its last write left it; the log says how the file is watched', async () => {
    const file = await fileWith('v1');
    const { watcher, changes, logger } = watch(file, 'v1');
    expect(watcher.method).toBe('fs.watch');
    expect(logger.infos).toEqual([
      `watching ${file} for changes (fs.watch on ${path.dirname(file)}): a change is deployed within a second`,
    ]);
    // An editor's save in several writes: only the whole file is a change.
    const saved = Date.now();
    await fs.writeFile(file, 'v2 half');
    await fs.appendFile(file, ' and the rest');
    await waitFor(() => changes.length > 0, 'the change', 5_000);
    // About 0.2 s when the machine is idle; the margin is for a busy one (polling is off here).
    expect(Date.now() - saved).toBeLessThan(2_000);
    await sleep(300);
    expect(changes).toEqual(['v2 half and the rest']);
  });

  test('an atomic save (a rename over the file) is seen, and so is every later one', async () => {
    const file = await fileWith('v1');
    const { changes } = watch(file, 'v1');
    for (const version of ['v2', 'v3']) {
      await fs.writeFile(`${file}.tmp`, version);
      await fs.rename(`${file}.tmp`, file);
      await waitFor(() => changes.includes(version), `${version} to be taken`, 5_000);
    }
    expect(changes).toEqual(['v2', 'v3']);
  });

  test('a link re-pointed as Kubernetes updates a mounted ConfigMap is seen', async () => {
    const { dir, remove } = await tempDir();
    folders.push(remove);
    // dir/hornetq-jms.xml -> ..data/hornetq-jms.xml, ..data -> ..v1: the update writes ..v2 and
    // renames a new ..data link over the old one; the file's own folder sees only ..data change.
    await fs.mkdir(path.join(dir, '..v1'));
    await fs.writeFile(path.join(dir, '..v1', 'hornetq-jms.xml'), 'v1');
    await fs.symlink('..v1', path.join(dir, '..data'));
    const file = path.join(dir, 'hornetq-jms.xml');
    await fs.symlink(path.join('..data', 'hornetq-jms.xml'), file);
    const { watcher, changes } = watch(file, 'v1');
    expect(watcher.method).toBe('fs.watch');
    await fs.mkdir(path.join(dir, '..v2'));
    await fs.writeFile(path.join(dir, '..v2', 'hornetq-jms.xml'), 'v2');
    await fs.symlink('..v2', path.join(dir, '..data_tmp'));
    await fs.rename(path.join(dir, '..data_tmp'), path.join(dir, '..data'));
    await fs.rm(path.join(dir, '..v1'), { recursive: true });
    await waitFor(() => changes.length > 0, 'the re-pointed file', 5_000);
    expect(changes).toEqual(['v2']);
  });

  test('a removed file is reported once it stays unreadable; written again, it is taken', async () => {
    const file = await fileWith('v1');
    const { changes, unreadable } = watch(file, 'v1');
    await fs.rm(file);
    await waitFor(() => unreadable.length > 0, 'the removal to be reported', 5_000);
    expect(unreadable[0]?.message).toMatch(/ENOENT/);
    await fs.writeFile(file, 'v2');
    await waitFor(() => changes.length > 0, 'the new file', 5_000);
    expect(changes).toEqual(['v2']);
    expect(unreadable).toHaveLength(1);
  });

  test('where a folder cannot be watched it polls, and says so', async () => {
    const file = await fileWith('v1');
    const unsupported: WatchDirectory = () => {
      throw Object.assign(new Error('ENOSYS: function not implemented, watch'), { code: 'ENOSYS' });
    };
    const { watcher, changes, logger } = watch(file, 'v1', { pollPeriodMs: 50, watchDirectory: unsupported });
    expect(watcher.method).toBe('polling');
    expect(logger.infos).toEqual([]);
    expect(logger.warnings).toEqual([
      `cannot watch ${file} (ENOSYS: function not implemented, watch): reading it every 50 ms for changes instead`,
    ]);
    await fs.writeFile(file, 'v2');
    await waitFor(() => changes.length > 0, 'the change, by polling', 5_000);
    expect(changes).toEqual(['v2']);
  });

  test('a watch that fails later is closed and polling takes over', async () => {
    const file = await fileWith('v1');
    const made: Array<EventEmitter & DirectoryWatch & { closed: boolean }> = [];
    const failing: WatchDirectory = () => {
      const fake = Object.assign(new EventEmitter(), {
        closed: false,
        close(): void {
          fake.closed = true;
        },
      });
      made.push(fake);
      return fake;
    };
    const { watcher, changes, logger } = watch(file, 'v1', { pollPeriodMs: 50, watchDirectory: failing });
    expect(watcher.method).toBe('fs.watch');
    // Nothing wakes it: a change is not seen until polling starts.
    await fs.writeFile(file, 'v2');
    await sleep(300);
    expect(changes).toEqual([]);
    made[0]?.emit('error', new Error('EMFILE: too many open files, watch'));
    expect(made.every((fake) => fake.closed)).toBe(true);
    expect(watcher.method).toBe('polling');
    expect(logger.warnings).toEqual([
      `cannot watch ${file} (EMFILE: too many open files, watch): reading it every 50 ms for changes instead`,
    ]);
    await waitFor(() => changes.length > 0, 'the change, by polling', 5_000);
    expect(changes).toEqual(['v2']);
  });

  test('stop closes the watch: later changes are not taken', async () => {
    const file = await fileWith('v1');
    const closed: boolean[] = [];
    const recording: WatchDirectory = (dir, onEvent) => {
      const real = fsWatch(dir, { persistent: false }, (_event, name) => onEvent(name));
      return {
        close: () => {
          closed.push(true);
          real.close();
        },
        on: (event, listener) => real.on(event, listener),
      };
    };
    const { watcher, changes } = watch(file, 'v1', { watchDirectory: recording });
    watcher.stop();
    expect(watcher.method).toBeNull();
    expect(closed).toEqual([true]);
    await fs.writeFile(file, 'v2');
    await sleep(400);
    expect(changes).toEqual([]);
  });
});
