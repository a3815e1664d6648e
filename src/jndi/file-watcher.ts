import { promises as fs } from 'node:fs';

/**
 * Polls a file every `periodMs` and calls `onChange` with its new content. Content is compared,
 * not modification times, so two quick edits within one timestamp tick are both seen; a change is
 * taken once two scans in a row read the same content, so a file caught half-written is not
 * deployed (nor reported as broken). The timer is unref'd (it never keeps the process alive) and
 * `stop` ends it.
 */
export class FileWatcher {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private candidate: string | null = null;

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
      if (content === this.last) this.candidate = null;
      else if (content !== this.candidate) this.candidate = content;
      else if (!this.stopped) {
        this.last = content;
        this.candidate = null;
        this.onChange(content);
      }
    } catch (error) {
      if (!this.stopped) this.onUnreadable(error as Error);
    }
    this.schedule();
  }
}
