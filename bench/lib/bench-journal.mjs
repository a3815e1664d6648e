// Our FileJournal (the engine under the broker's message journal) on its own, for
// storage-choice.mjs: HornetQ's default settings (journal-file-size 10 MiB, journal-min-files 2,
// journal-buffer-timeout 3.33 ms, journal-buffer-size 490 KiB) over node:fs, loaded empty.
import journalModule from '../../dist/server/storage/journal/file-journal.js';
import fileSystemModule from '../../dist/server/storage/journal/node-file-system.js';
import remoting from '../../dist/core/remoting/index.js';

const { FileJournal } = journalModule;
const { NodeFileSystem } = fileSystemModule;

export async function createBenchJournal(directory) {
  const journal = new FileJournal({
    directory,
    filePrefix: 'hornetq-data',
    fileExtension: 'hq',
    fileSize: 10 * 1024 * 1024,
    minFiles: 2,
    compactMinFiles: 10,
    compactPercentage: 30,
    bufferTimeoutNs: 3_333_333,
    bufferSize: 490 * 1024,
    createDirectory: true,
    skipCorruptRecords: false,
    fileSystem: new NodeFileSystem(),
    logger: remoting.silentLogger,
  });
  await journal.load({ add() {}, update() {}, delete() {} });
  return journal;
}
