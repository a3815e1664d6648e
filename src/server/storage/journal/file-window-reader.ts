import type { JournalFile } from './journal-file-system';

/**
 * Reads a file through one window of `chunkSize` bytes (grown only to hold a record longer than
 * that), so that loading a journal never holds a whole file: memory is the window plus the
 * largest record.
 */
export class FileWindowReader {
  private window: Buffer;
  private start = 0;
  private end = 0;
  bytesRead = 0;

  constructor(
    private readonly file: JournalFile,
    readonly fileSize: number,
    private readonly chunkSize: number,
  ) {
    this.window = Buffer.alloc(Math.min(chunkSize, fileSize));
  }

  get buffer(): Buffer {
    return this.window;
  }

  /** The window offset of `position` when [position, position + length) is in the window, else -1. */
  offsetOf(position: number, length: number): number {
    return position >= this.start && position + length <= this.end ? position - this.start : -1;
  }

  /**
   * Makes [position, position + length) readable (clipped to the file's end) and returns the window
   * offset of `position`; `available(position)` then says how many bytes from there are readable.
   */
  async load(position: number, length: number): Promise<number> {
    const wanted = Math.min(length, this.fileSize - position);
    const inWindow = this.offsetOf(position, wanted);
    if (inWindow >= 0) return inWindow;
    const size = Math.min(Math.max(this.chunkSize, wanted), this.fileSize - position);
    if (size > this.window.length) this.window = Buffer.alloc(size);
    const read = await this.file.read(this.window, 0, size, position);
    this.bytesRead += read;
    this.start = position;
    this.end = position + read;
    return 0;
  }

  available(position: number): number {
    return this.end - position;
  }
}
