import type { Logger } from '../../../core/remoting';
import {
  applyCompactionPlan,
  COMPACTED_SUFFIX,
  controlFileName,
  writeControlFile,
} from './compaction-control';
import { FileWindowReader } from './file-window-reader';
import { JournalDataFile } from './journal-data-file';
import type { JournalFile } from './journal-file-system';
import { encodeFileHeader, FILE_HEADER_SIZE, FileKind, recordFileId } from './journal-file-header';
import type { JournalFiles } from './journal-files';
import { decodeRecord, recordLength, RecordType, writeRecord } from './journal-record';
import type { LiveRecord, LiveRecords, RecordLocation } from './live-records';

interface Copy {
  live: LiveRecord;
  from: RecordLocation;
  /** Where the copy went: output index, offset, length. */
  output: number;
  offset: number;
  length: number;
}

/** A compacted file being written (it becomes a JournalDataFile once renamed and reopened). */
interface Output {
  name: string;
  fileId: number;
}

export interface CompactionSettings {
  filePrefix: string;
  fileSize: number;
  bufferSize: number;
  chunkSize: number;
  logger: Logger;
}

/**
 * One compaction (HornetQ's JournalCompactor): copies the live records of the closed files into
 * new, dense files that sort just before the current file, then swaps them in through the control
 * file. Appends go on meanwhile; a delete of a record being copied is noted and applied to the
 * copy at the swap, and it reaches the copy at load as well, being in a later file.
 */
export class JournalCompactor {
  private readonly copies: Copy[] = [];
  private readonly copied = new Set<LiveRecord>();
  /** Records deleted while being copied, with the file holding the delete. */
  private readonly deletedMeanwhile = new Map<LiveRecord, JournalDataFile>();

  constructor(
    private readonly settings: CompactionSettings,
    private readonly files: JournalFiles,
    private readonly live: LiveRecords,
    private readonly sources: readonly JournalDataFile[],
    /** The file after the sources: the outputs take ids between the sources' and this one's. */
    private readonly before: JournalDataFile,
  ) {
    const order = new Map(sources.map((file, index) => [file, index]));
    for (const record of live.values()) {
      for (const location of record.locations) {
        if (!order.has(location.file)) continue;
        this.copies.push({ live: record, from: location, output: -1, offset: 0, length: 0 });
        this.copied.add(record);
      }
    }
    // Journal order (file, then offset) keeps every id's add before its updates.
    this.copies.sort(
      (a, b) => order.get(a.from.file)! - order.get(b.from.file)! || a.from.offset - b.from.offset,
    );
  }

  /** A delete was appended: if it hits a record being copied, the copy must die with it. */
  noteDelete(record: LiveRecord | undefined, deletingFile: JournalDataFile): void {
    if (record !== undefined && this.copied.has(record)) this.deletedMeanwhile.set(record, deletingFile);
  }

  /**
   * Writes the outputs (.cmp), the control file, then renames and deletes. `swap` replaces the
   * sources by the outputs in the journal's file list; it runs after the control file is durable.
   */
  async run(
    swap: (outputs: JournalDataFile[]) => void,
    /** The control file is durable: the journal's state file lists the outputs before an old file goes. */
    committed: (outputs: string[]) => Promise<void>,
  ): Promise<boolean> {
    const firstId = Math.max(...this.sources.map((file) => file.fileId)) + 1;
    if (firstId + this.outputsNeeded() >= this.before.fileId) {
      this.settings.logger.warn(
        { before: this.before.name },
        'journal compaction skipped: no file ids left before the current file',
      );
      return false;
    }
    const outputs = await this.writeOutputs(firstId);
    const control = controlFileName(this.settings.filePrefix);
    const plan = {
      old: this.sources.map((file) => file.name),
      outputs: outputs.map((output) => output.name),
    };
    await writeControlFile(this.files, control, plan);
    await committed(plan.outputs);
    for (const source of this.sources) await source.file.close();
    await applyCompactionPlan(this.files, control, plan);
    const opened = await Promise.all(outputs.map(async (output) => this.reopen(output)));
    this.moveLiveRecords(opened);
    swap(opened);
    this.settings.logger.info(
      { old: plan.old.length, outputs: plan.outputs.length, records: this.copies.length },
      'journal compacted',
    );
    return true;
  }

  /** At most this many outputs (copies only shrink: a transactional record loses its tx id). */
  private outputsNeeded(): number {
    let outputs = 0;
    let position = this.settings.fileSize;
    for (const copy of this.copies) {
      if (position + copy.from.length > this.settings.fileSize) {
        outputs++;
        position = FILE_HEADER_SIZE;
      }
      position += copy.from.length;
    }
    return outputs;
  }

  /** Outputs are written sequentially through one buffer and synced; never appended to after. */
  private async writeOutputs(firstId: number): Promise<Output[]> {
    const outputs: Output[] = [];
    const buffer = Buffer.allocUnsafe(Math.max(this.settings.bufferSize, FILE_HEADER_SIZE));
    let file: JournalFile | null = null;
    let used = 0;
    let position = 0;
    const writeOut = async (open: JournalFile): Promise<void> => {
      await open.write(buffer, 0, used, position);
      position += used;
      used = 0;
    };
    const readers = new Map<JournalDataFile, FileWindowReader>();
    for (const copy of this.copies) {
      const reader = readers.get(copy.from.file) ?? (await this.readerFor(copy.from.file, readers));
      const offset = await reader.load(copy.from.offset, copy.from.length);
      const record = decodeRecord(reader.buffer, offset);
      const type =
        record.type === RecordType.ADD || record.type === RecordType.ADD_TX
          ? RecordType.ADD
          : RecordType.UPDATE;
      const length = recordLength(type, record.body?.length ?? 0);
      if (file === null || position + used + length > this.settings.fileSize) {
        if (file !== null) await this.finish(file, writeOut);
        const output = { name: this.files.newFileName(), fileId: firstId + outputs.length };
        outputs.push(output);
        file = await this.files.fileSystem.open(this.files.path(output.name + COMPACTED_SUFFIX), true);
        encodeFileHeader({ kind: FileKind.COMPACTED, fileId: output.fileId }).copy(buffer, 0);
        position = 0;
        used = FILE_HEADER_SIZE;
      }
      if (used + length > buffer.length) await writeOut(file);
      const fileId = recordFileId(outputs.at(-1)!.fileId);
      writeRecord(buffer, used, { ...record, type, fileId, flush: 0, txId: 0 });
      copy.output = outputs.length - 1;
      copy.offset = position + used;
      copy.length = length;
      used += length;
    }
    if (file !== null) await this.finish(file, writeOut);
    return outputs;
  }

  private async finish(file: JournalFile, writeOut: (file: JournalFile) => Promise<void>): Promise<void> {
    await writeOut(file);
    await file.datasync();
    await file.close();
  }

  private async readerFor(
    file: JournalDataFile,
    readers: Map<JournalDataFile, FileWindowReader>,
  ): Promise<FileWindowReader> {
    const reader = new FileWindowReader(file.file, await file.file.size(), this.settings.chunkSize);
    readers.set(file, reader);
    return reader;
  }

  private async reopen(output: Output): Promise<JournalDataFile> {
    const opened = new JournalDataFile(
      output.name,
      output.fileId,
      FileKind.COMPACTED,
      this.files.fileSystem.open(this.files.path(output.name), false),
    );
    await opened.opened;
    return opened;
  }

  /** The live counts move to the outputs; a copy whose record was deleted meanwhile stays dead. */
  private moveLiveRecords(outputs: readonly JournalDataFile[]): void {
    for (const copy of this.copies) {
      const to = { file: outputs[copy.output]!, offset: copy.offset, length: copy.length };
      const deletedBy = this.deletedMeanwhile.get(copy.live);
      if (deletedBy === undefined) this.live.move(copy.from, to);
      else deletedBy.countDeleteInto(to.file);
    }
  }
}
