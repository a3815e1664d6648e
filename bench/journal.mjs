// The journal engine on the real file system (in os.tmpdir(), removed after): group commit with
// 1000 synced 1 KiB appends in flight (records/s, fdatasyncs/s, mean records per flush), then the
// load time of a journal of 1 000 000 1 KiB records. One JSON line per figure.
//   npx tsc -p tsconfig.build.json && node bench/journal.mjs [--records 1000000] [--seconds 5]
//   [--in-flight N] synced appends kept in flight (1000); [--flush-delay-ms N]: flush N ms after a sync request instead of at the end of the turn
//   (setImmediate), the experiment that decided journal-buffer-timeout's use (see journal-writer.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FileJournal } from '../dist/server/storage/journal/file-journal.js';
import { NodeFileSystem } from '../dist/server/storage/journal/node-file-system.js';

const argument = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const loadRecords = argument('records', 1_000_000);
const seconds = argument('seconds', 5);
const flushDelayMs = argument('flush-delay-ms', -1);
const RECORD = Buffer.alloc(1024, 0x5a);
const IN_FLIGHT = argument('in-flight', 1000);
const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

/** NodeFileSystem counting fdatasyncs on journal files. */
class CountingFileSystem extends NodeFileSystem {
  datasyncs = 0;
  async open(path, create) {
    const file = await super.open(path, create);
    const datasync = file.datasync.bind(file);
    file.datasync = async () => {
      this.datasyncs++;
      await datasync();
    };
    return file;
  }
}

const options = (directory, fileSystem) => ({
  directory,
  filePrefix: 'hornetq-data',
  fileExtension: 'hq',
  fileSize: 10 * 1024 * 1024,
  minFiles: 2,
  compactMinFiles: 0,
  compactPercentage: 30,
  bufferTimeoutNs: 0,
  bufferSize: 490 * 1024,
  createDirectory: true,
  skipCorruptRecords: false,
  fileSystem,
  logger: silent,
});

const visitor = { add() {}, update() {}, delete() {} };

async function groupCommit(directory) {
  const fileSystem = new CountingFileSystem();
  const journal = new FileJournal(options(join(directory, 'group'), fileSystem));
  await journal.load(visitor);
  if (flushDelayMs >= 0) globalThis.setImmediate = (callback) => setTimeout(callback, flushDelayMs);
  let next = 1;
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  const syncsBefore = fileSystem.datasyncs;
  const start = performance.now();
  await new Promise((resolve, reject) => {
    let inFlight = 0;
    const append = () => {
      inFlight++;
      journal.appendAdd(next++, 31, RECORD, true);
      journal.afterSync((error) => {
        if (error !== null) return reject(error);
        inFlight--;
        done++;
        if (performance.now() < deadline) append();
        else if (inFlight === 0) resolve();
      });
    };
    for (let n = 0; n < IN_FLIGHT; n++) append();
  });
  const elapsed = (performance.now() - start) / 1000;
  const datasyncs = fileSystem.datasyncs - syncsBefore;
  await journal.close();
  const flushDelay = flushDelayMs < 0 ? 'setImmediate' : `${flushDelayMs} ms`;
  console.log(
    JSON.stringify({
      bench: 'journal-group-commit',
      recordBytes: 1024,
      inFlight: IN_FLIGHT,
      flushDelay,
      recordsPerSecond: Math.round(done / elapsed),
      datasyncsPerSecond: Math.round(datasyncs / elapsed),
      meanRecordsPerFlush: Math.round((done / datasyncs) * 10) / 10,
    }),
  );
}

async function load(directory) {
  const path = join(directory, 'load');
  const writer = new FileJournal(options(path, new NodeFileSystem()));
  await writer.load(visitor);
  const writeStart = performance.now();
  for (let id = 1; id <= loadRecords; id++) {
    writer.appendAdd(id, 31, RECORD, false);
    if (id % 10_000 === 0) {
      writer.appendUpdate(id, 32, RECORD.subarray(0, 8), true);
      await new Promise((resolve, reject) =>
        writer.afterSync((error) => (error === null ? resolve() : reject(error))),
      );
    }
  }
  await writer.close();
  const writeSeconds = (performance.now() - writeStart) / 1000;
  const reader = new FileJournal(options(path, new NodeFileSystem()));
  let records = 0;
  const heapBefore = process.memoryUsage().heapUsed;
  const start = performance.now();
  const report = await reader.load({
    add: () => records++,
    update: () => records++,
    delete: () => records++,
  });
  const milliseconds = Math.round(performance.now() - start);
  const heapAfterMiB = Math.round((process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024);
  await reader.close();
  console.log(
    JSON.stringify({
      bench: 'journal-load',
      records,
      recordBytes: 1024,
      files: report.files,
      bytes: report.bytes,
      milliseconds,
      recordsPerSecond: Math.round(records / (milliseconds / 1000)),
      heapGrowthMiB: heapAfterMiB,
      writeSeconds: Math.round(writeSeconds * 10) / 10,
    }),
  );
}

const directory = await mkdtemp(join(tmpdir(), 'journal-bench-'));
try {
  await groupCommit(directory);
  if (flushDelayMs < 0) await load(directory);
} finally {
  await rm(directory, { recursive: true, force: true });
}
