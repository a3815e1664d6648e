import { join } from 'node:path';
import type { JournalOptions } from './journal';
import { JournalCorruptionError } from './journal-corruption-error';
import { JournalDataFile } from './journal-data-file';
import type { JournalFile } from './journal-file-system';
import {
  dataFileId,
  decodeFileHeader,
  encodeFileHeader,
  FILE_HEADER_SIZE,
  FileKind,
  sequenceOf,
} from './journal-file-header';

/** A journal file found at start, header read, not yet scanned. */
export interface FoundFile {
  data: JournalDataFile;
  size: number;
  /** Something was written after the header (the first record's length is not zero). */
  hasData: boolean;
}

const ZERO_CHUNK = 1024 * 1024;

/**
 * The journal's directory: file names `<prefix>-<n>.<ext>`, creating files (as .tmp, pre-filled
 * with zeros to the full size so that a later fdatasync never has to record a size change, header
 * written and synced, renamed, directory synced), retiring and deleting them. Every file comes out
 * of here with a fresh sequence id: files are used in the order their ids were given.
 */
export class JournalFiles {
  private nextNameNumber = 1;
  private nextSequence = 1;
  private zeros: Buffer | null = null;

  constructor(private readonly options: JournalOptions) {}

  get fileSystem(): JournalOptions['fileSystem'] {
    return this.options.fileSystem;
  }

  path(name: string): string {
    return join(this.options.directory, name);
  }

  isJournalFileName(name: string): boolean {
    return this.nameNumber(name) !== null;
  }

  newFileName(): string {
    return `${this.options.filePrefix}-${this.nextNameNumber++}.${this.options.fileExtension}`;
  }

  takeSequence(): number {
    return this.nextSequence++;
  }

  /** Opens every journal file of the directory and reads its header; sorted by file id. */
  async openAll(): Promise<FoundFile[]> {
    const names = (await this.fileSystem.list(this.options.directory)).filter((name) =>
      this.isJournalFileName(name),
    );
    const found: FoundFile[] = [];
    for (const name of names) found.push(await this.openFound(name));
    found.sort((a, b) => a.data.fileId - b.data.fileId);
    return found;
  }

  /** Removes what an interrupted creation or retirement left: `.tmp` files are never data. */
  async removeLeftovers(suffix: string): Promise<void> {
    const names = await this.fileSystem.list(this.options.directory);
    const leftovers = names.filter(
      (name) => name.endsWith(suffix) && name.startsWith(`${this.options.filePrefix}-`),
    );
    for (const name of leftovers) await this.fileSystem.remove(this.path(name));
    if (leftovers.length > 0) await this.fileSystem.syncDirectory(this.options.directory);
  }

  private async openFound(name: string): Promise<FoundFile> {
    this.nextNameNumber = Math.max(this.nextNameNumber, this.nameNumber(name)! + 1);
    const file = await this.fileSystem.open(this.path(name), false);
    try {
      const buffer = Buffer.alloc(FILE_HEADER_SIZE + 4);
      const read = await file.read(buffer, 0, buffer.length, 0);
      const header = decodeFileHeader(buffer, read);
      if (typeof header === 'string') throw new JournalCorruptionError(name, 0, header);
      this.nextSequence = Math.max(this.nextSequence, sequenceOf(header.fileId) + 1);
      const data = new JournalDataFile(name, header.fileId, header.kind, Promise.resolve(file));
      await data.opened;
      const hasData = read === buffer.length && buffer.readUInt32BE(FILE_HEADER_SIZE) !== 0;
      return { data, size: await file.size(), hasData };
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  /**
   * A fresh data file, taking the next sequence id now (so files are used in id order) and
   * created in the background; `reuse` is a retired file's .tmp name to re-initialise instead.
   */
  prepareDataFile(reuse: string | null): JournalDataFile {
    const name = this.newFileName();
    const fileId = dataFileId(this.takeSequence());
    return new JournalDataFile(name, fileId, FileKind.DATA, this.create(name, fileId, FileKind.DATA, reuse));
  }

  /** Creates `<name>.tmp` (or re-initialises `reuse`): zeros to full size, header, synced, renamed. */
  async create(name: string, fileId: number, kind: FileKind, reuse: string | null): Promise<JournalFile> {
    const temporary = reuse ?? `${name}.tmp`;
    const file = await this.fileSystem.open(this.path(temporary), true);
    try {
      await this.zeroFill(file, FILE_HEADER_SIZE, this.options.fileSize);
      await file.write(encodeFileHeader({ kind, fileId }), 0, FILE_HEADER_SIZE, 0);
      await file.datasync();
    } finally {
      await file.close();
    }
    await this.fileSystem.rename(this.path(temporary), this.path(name));
    await this.fileSystem.syncDirectory(this.options.directory);
    return this.fileSystem.open(this.path(name), false);
  }

  /** Writes zeros over [from, to), in chunks (so stale bytes can never look like records). */
  async zeroFill(file: JournalFile, from: number, to: number): Promise<void> {
    this.zeros ??= Buffer.alloc(Math.min(ZERO_CHUNK, this.options.fileSize));
    for (let position = from; position < to; position += this.zeros.length) {
      await file.write(this.zeros, 0, Math.min(this.zeros.length, to - position), position);
    }
  }

  /**
   * Takes a freed file out of the journal durably: renamed to a .tmp name (to be re-initialised
   * by prepareDataFile) or deleted. Returns the .tmp name, or null when deleted.
   */
  async retire(file: JournalDataFile, keep: boolean): Promise<string | null> {
    await file.file.close();
    const temporary = keep ? `${this.newFileName()}.tmp` : null;
    if (temporary === null) await this.fileSystem.remove(this.path(file.name));
    else await this.fileSystem.rename(this.path(file.name), this.path(temporary));
    await this.fileSystem.syncDirectory(this.options.directory);
    return temporary;
  }

  async syncDirectory(): Promise<void> {
    await this.fileSystem.syncDirectory(this.options.directory);
  }

  private nameNumber(name: string): number | null {
    const prefix = `${this.options.filePrefix}-`;
    const suffix = `.${this.options.fileExtension}`;
    if (!name.startsWith(prefix) || !name.endsWith(suffix)) return null;
    const digits = name.slice(prefix.length, name.length - suffix.length);
    return /^[0-9]{1,15}$/.test(digits) ? Number(digits) : null;
  }
}
