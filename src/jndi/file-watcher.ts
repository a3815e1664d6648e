import { promises as fs } from 'node:fs';

/**
 * Polls a file every `periodMs` and calls `onChange` with its new content. Content is compared,
 * not modification times, so two quick edits within one timestamp tick are both seen. The timer
 * is unref'd (it never keeps the process alive) and `stop` ends it.
 */
export class FileWatcher {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly file: string,
    private readonly periodMs: number,
    private last: string,
    private readonly onChange: (content: string) => void,
    private readonly onUnreadable: (error: Error) => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.scan(), this.periodMs);
    this.timer.unref();
  }

  private async scan(): Promise<void> {
    this.timer = null;
    try {
      const content = await fs.readFile(this.file, 'utf8');
      if (!this.stopped && content !== this.last) {
        this.last = content;
        this.onChange(content);
      }
    } catch (error) {
      if (!this.stopped) this.onUnreadable(error as Error);
    }
    this.schedule();
  }
}
