import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileLock } from '../../../src/server/lock/file-lock';
import { StorageError } from '../../../src/server/storage/storage-error';

/**
 * The lock primitive: flock(2) on the file's open description, through a child that exits at
 * once. Conflicts between two opens in this process and with another process, release by close
 * and by the holder's death (kill -9), waiting, aborting, and the perl fallback.
 */

const directories: string[] = [];
const locks: FileLock[] = [];
const children: ChildProcess[] = [];

function scratchFile(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'file-lock-'));
  directories.push(directory);
  return path.join(directory, 'server.lock');
}

async function openLock(file: string, env?: NodeJS.ProcessEnv): Promise<FileLock> {
  const lock = await FileLock.open(file, env === undefined ? {} : { env });
  locks.push(lock);
  return lock;
}

/** Another process that locks `file` as a broker does (its descriptor, flock(1) on it) and keeps it. */
async function holdInAnotherProcess(file: string): Promise<ChildProcess> {
  const script = `
    const fs = require('node:fs');
    const { spawnSync } = require('node:child_process');
    const fd = fs.openSync(${JSON.stringify(file)}, 'a+');
    const result = spawnSync('flock', ['-n', '3'], { stdio: ['ignore', 'ignore', 'inherit', fd] });
    process.stdout.write(result.status === 0 ? 'locked\\n' : 'refused\\n');
    setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const answer = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').once('data', (chunk: string) => resolve(chunk.trim()));
    child.once('exit', () => reject(new Error('the holder exited before it answered')));
  });
  expect(answer).toBe('locked');
  return child;
}

async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

afterEach(async () => {
  await Promise.all(locks.splice(0).map((lock) => lock.release()));
  await Promise.all(children.splice(0).map(kill9));
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('FileLock', () => {
  it('is held by one open of the file at a time, also within one process', async () => {
    const file = scratchFile();
    const first = await openLock(file);
    const second = await openLock(file);
    expect(await first.tryLock()).toBe(true);
    expect(first.held).toBe(true);
    expect(await second.tryLock()).toBe(false);
    expect(second.held).toBe(false);
    // Asking again through the holder's own open file is not a conflict.
    expect(await first.tryLock()).toBe(true);
  });

  it('stays held after the child that took it has exited, until the file is closed', async () => {
    const file = scratchFile();
    const first = await openLock(file);
    expect(await first.tryLock()).toBe(true);
    const second = await openLock(file);
    expect(await second.tryLock()).toBe(false);
    await first.release();
    expect(await second.tryLock()).toBe(true);
  });

  it('conflicts with another process, and is free at once when that process is killed with -9', async () => {
    const file = scratchFile();
    const holder = await holdInAnotherProcess(file);
    const lock = await openLock(file);
    expect(await lock.tryLock()).toBe(false);
    await kill9(holder);
    expect(await lock.tryLock()).toBe(true);
  });

  it('is refused to another process while this one holds it', async () => {
    const file = scratchFile();
    const lock = await openLock(file);
    expect(await lock.tryLock()).toBe(true);
    const script = `
      const fd = require('node:fs').openSync(${JSON.stringify(file)}, 'r+');
      const r = require('node:child_process').spawnSync('flock', ['-n', '3'], { stdio: ['ignore', 'ignore', 'inherit', fd] });
      process.exit(r.status);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: 'inherit' });
    children.push(child);
    const status = await new Promise((resolve) => child.once('exit', resolve));
    expect(status).toBe(1);
  });

  it('lock() waits for the holder to let go', async () => {
    const file = scratchFile();
    const holder = await openLock(file);
    await holder.tryLock();
    const waiter = await openLock(file);
    let taken = false;
    const waiting = waiter.lock({ pollMs: 10 }).then(() => (taken = true));
    // Several tries have been refused by now (each is a child process: generous).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(taken).toBe(false);
    await holder.release();
    await waiting;
    expect(waiter.held).toBe(true);
  });

  it('an aborted lock() rejects with the reason and closes its file, leaving the holder alone', async () => {
    const file = scratchFile();
    const holder = await openLock(file);
    await holder.tryLock();
    const waiter = await openLock(file);
    const controller = new AbortController();
    const waiting = waiter.lock({ pollMs: 10, signal: controller.signal });
    controller.abort(new Error('stop waiting'));
    await expect(waiting).rejects.toThrow('stop waiting');
    expect(waiter.held).toBe(false);
    await expect(waiter.tryLock()).rejects.toThrow(StorageError);
    expect(holder.held).toBe(true);
    const third = await openLock(file);
    expect(await third.tryLock()).toBe(false);
  });

  it('lock() with a signal already aborted does not try', async () => {
    const lock = await openLock(scratchFile());
    await expect(lock.lock({ signal: AbortSignal.abort(new Error('too late')) })).rejects.toThrow('too late');
    expect(lock.held).toBe(false);
  });

  it.each([0, 1.5, 60_001, Number.NaN])(
    'refuses a poll interval of %p, naming it and the range',
    async (pollMs) => {
      const lock = await openLock(scratchFile());
      await expect(lock.lock({ pollMs })).rejects.toMatchObject({
        code: 'ERR_OUT_OF_RANGE',
        message: `pollMs must be an integer in 1..60000 (actual value: ${pollMs})`,
      });
      expect(lock.held).toBe(false);
    },
  );

  describe('without flock(1) on the PATH', () => {
    const savedPath = process.env.PATH;

    /** An environment whose PATH has only the programs named (linked from where the real PATH finds them). */
    function pathWith(...programs: string[]): NodeJS.ProcessEnv {
      const bin = mkdtempSync(path.join(tmpdir(), 'file-lock-bin-'));
      directories.push(bin);
      for (const program of programs) {
        const found = (savedPath ?? '')
          .split(path.delimiter)
          .map((directory) => path.join(directory, program))
          .find((candidate) => {
            try {
              accessSync(candidate, constants.X_OK);
              return true;
            } catch {
              return false;
            }
          });
        if (found === undefined) throw new Error(`${program} is not installed here`);
        symlinkSync(found, path.join(bin, program));
      }
      return { PATH: bin };
    }

    it('locks through perl, with the same conflicts', async () => {
      const file = scratchFile();
      const env = pathWith('perl');
      const first = await openLock(file, env);
      const second = await openLock(file, env);
      expect(await first.tryLock()).toBe(true);
      expect(await second.tryLock()).toBe(false);
      await first.release();
      expect(await second.tryLock()).toBe(true);
    });

    it('refuses, naming the file and what to install, when perl is missing too', async () => {
      const file = scratchFile();
      const lock = await openLock(file, pathWith());
      const failure = lock.tryLock();
      await expect(failure).rejects.toThrow(StorageError);
      await expect(failure).rejects.toThrow(
        `cannot lock ${file}: neither flock (util-linux) nor perl is on the PATH`,
      );
    });
  });
});
