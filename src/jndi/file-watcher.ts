import { promises as fs, realpathSync, watch } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../core/remoting';

/** What a watcher keeps of fs.watch's FSWatcher. */
export interface DirectoryWatch {
  close(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Starts watching a folder, calling `onEvent` with the name of what changed in it (null when the
 * platform does not say); throws where the file system cannot be watched. fs.watch by default; a
 * test passes one that fails.
 */
export type WatchDirectory = (dir: string, onEvent: (name: string | null) => void) => DirectoryWatch;

/** Not persistent: a watched configuration never keeps the process alive on its own. */
export const watchDirectory: WatchDirectory = (dir, onEvent) =>
  watch(dir, { persistent: false }, (_event, name) => onEvent(name));

/** How a file's changes are noticed: events from the file system, or reading it every period. */
export type WatchMethod = 'fs.watch' | 'polling';

/** How long a change must stay the same before it is taken: an editor's save is several writes. */
export const DEFAULT_SETTLE_MS = 100;

export interface FileWatcherOptions {
  file: string;
  /** The content deployed now: a change is a different content, not a newer timestamp. */
  content: string;
  /** How often the file is read where it cannot be watched. */
  pollPeriodMs: number;
  settleMs?: number;
  /** Told how the file is watched (info) and when watching fails (warn). */
  logger: Pick<Logger, 'info' | 'warn'>;
  onChange: (content: string) => void;
  onUnreadable: (error: Error) => void;
  watchDirectory?: WatchDirectory;
}

/**
 * Calls `onChange` with a file's new content soon after it changes: fs.watch on the file's folder
 * (which, unlike a watch on the file, survives the rename an editor's atomic save does) wakes it,
 * and it reads the file `settleMs` later. Where the folder cannot be watched (a file system
 * without inotify or its equivalent, a watch limit reached), or the watch fails later, it reads
 * the file every `pollPeriodMs` instead, and logs that it does.
 *
 * Either way a change is taken once two reads in a row give the same content, so a file caught
 * half-written is not deployed (nor reported as broken), and a read that fails is reported when
 * the next one fails too. Timers are unref'd; `stop` closes the watches and the timer.
 */
export class FileWatcher {
  private readonly settleMs: number;
  private readonly watchDirectory: WatchDirectory;
  private last: string;
  private candidate: string | null = null;
  private failedBefore = false;
  private watches: DirectoryWatch[] = [];
  private timer: NodeJS.Timeout | null = null;
  private reading = false;
  /** An event came while reading: that read may have missed what it announced. */
  private changedWhileReading = false;
  private stopped = true;
  private currentMethod: WatchMethod | null = null;

  constructor(private readonly options: FileWatcherOptions) {
    this.settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
    this.watchDirectory = options.watchDirectory ?? watchDirectory;
    this.last = options.content;
  }

  /** How changes are noticed now; null before start and after stop. */
  get method(): WatchMethod | null {
    return this.currentMethod;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const { file, logger } = this.options;
    const folders = this.folders();
    // A link may be pointed elsewhere (Kubernetes updates a ConfigMap so): any event beside it counts.
    const anyName = this.isLink();
    const names = new Set([path.basename(file), path.basename(this.realPath())]);
    try {
      for (const folder of folders) {
        const directoryWatch = this.watchDirectory(folder, (name) => {
          if (name === null || anyName || names.has(name)) this.noticed();
        });
        directoryWatch.on('error', (error) => this.pollInstead(error));
        this.watches.push(directoryWatch);
      }
    } catch (error) {
      this.pollInstead(error as Error);
      return;
    }
    this.currentMethod = 'fs.watch';
    logger.info(
      { file, method: this.currentMethod },
      `watching ${file} for changes (fs.watch on ${folders.join(' and ')}): a change is deployed within a second`,
    );
  }

  stop(): void {
    this.stopped = true;
    this.currentMethod = null;
    this.closeWatches();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The file's folder, and its target's when it is a link. */
  private folders(): string[] {
    const folders = [path.dirname(this.options.file)];
    const target = path.dirname(this.realPath());
    if (this.isLink() && !folders.includes(target)) folders.push(target);
    return folders;
  }

  /** Where the file really is (itself when it is no link, or when it cannot be resolved). */
  private realPath(): string {
    try {
      return realpathSync(this.options.file);
    } catch {
      return path.resolve(this.options.file);
    }
  }

  private isLink(): boolean {
    return this.realPath() !== path.resolve(this.options.file);
  }

  private pollInstead(error: Error): void {
    this.closeWatches();
    if (this.stopped || this.currentMethod === 'polling') return;
    this.currentMethod = 'polling';
    const { file, pollPeriodMs, logger } = this.options;
    logger.warn(
      { file, method: this.currentMethod, err: error.message },
      `cannot watch ${file} (${error.message}): reading it every ${pollPeriodMs} ms for changes instead`,
    );
    this.schedule();
  }

  private closeWatches(): void {
    for (const directoryWatch of this.watches) directoryWatch.close();
    this.watches = [];
  }

  private noticed(): void {
    if (this.reading) this.changedWhileReading = true;
    else this.schedule();
  }

  /** One read at a time, `settleMs` after what woke it (or the poll period later). */
  private schedule(): void {
    if (this.stopped || this.timer !== null || this.reading) return;
    const delay = this.currentMethod === 'polling' ? this.options.pollPeriodMs : this.settleMs;
    this.timer = setTimeout(() => void this.read(), delay);
    this.timer.unref();
  }

  private async read(): Promise<void> {
    this.timer = null;
    this.reading = true;
    this.changedWhileReading = false;
    let content: string | Error;
    try {
      content = await fs.readFile(this.options.file, 'utf8');
    } catch (error) {
      content = error as Error;
    }
    this.reading = false;
    if (this.stopped) return;
    const unsettled = typeof content === 'string' ? this.compare(content) : this.failed(content);
    if (unsettled || this.changedWhileReading || this.currentMethod === 'polling') this.schedule();
  }

  /** True while the content has not settled (it must be read again). */
  private compare(content: string): boolean {
    this.failedBefore = false;
    if (content === this.last) {
      this.candidate = null;
      return false;
    }
    if (content !== this.candidate) {
      this.candidate = content;
      return true;
    }
    this.last = content;
    this.candidate = null;
    this.options.onChange(content);
    return false;
  }

  /** True when it must be read again to know whether the failure lasts. */
  private failed(error: Error): boolean {
    this.candidate = null;
    if (!this.failedBefore) {
      this.failedBefore = true;
      return true;
    }
    this.options.onUnreadable(error);
    return false;
  }
}
