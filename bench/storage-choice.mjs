// Which store for the broker's journal (issue 12; research note §6), measured on this machine:
// durable 1 KiB records, `--in-flight` (1000) writers each waiting for its record to be on disk
// before writing the next, like 1000 blocking durable sends in flight. One JSON line per run,
// then a summary line (medians). Each store runs in a temporary directory removed after it.
//   ours      our FileJournal (dist/): appendAdd(sync) + afterSync, its group commit
//   fs-group  the floor: one fs write + fdatasync per group of what arrived meanwhile
//   lmdb      lmdb 3.5.x: put() per record, then await db.flushed (durable, not just committed)
//   sqlite    better-sqlite3 12.x, WAL + synchronous=FULL: one transaction per batch (the
//             records that arrived during a turn), as the group commit we would build on it
// lmdb and better-sqlite3 are not the project's dependencies; install them apart:
//   npm install --no-save --prefix /tmp/storage-choice lmdb@3.5.6 better-sqlite3@12.11.1
//   npm run build && node bench/storage-choice.mjs [--records 100000] [--in-flight 1000]
//        [--size 1024] [--runs 3] [--stores ours,fs-group,lmdb,sqlite]
//        [--modules /tmp/storage-choice/node_modules]
// A store that cannot load is skipped with a line saying why.
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './lib/stats.mjs';

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const records = Number(option('records', 100_000));
const inFlight = Number(option('in-flight', 1000));
const size = Number(option('size', 1024));
const runs = Number(option('runs', 3));
const modules = option('modules', '/tmp/storage-choice/node_modules');
const selected = option('stores', 'ours,fs-group,lmdb,sqlite').split(',');
const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const round = (value, digits = 3) => Number(value.toFixed(digits));

/**
 * Drives `inFlight` writers until `records` records were made durable; `write(id, body)` resolves
 * once that record is on disk. Returns the rate and the latency of each write.
 */
async function drive(write) {
  const body = Buffer.alloc(size, 's');
  const latencies = new Float64Array(records);
  let next = 0;
  const startedNs = process.hrtime.bigint();
  const writer = async () => {
    while (next < records) {
      const id = next++;
      const beganNs = process.hrtime.bigint();
      await write(id, body);
      latencies[id] = Number(process.hrtime.bigint() - beganNs) / 1e6;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, writer));
  const seconds = Number(process.hrtime.bigint() - startedNs) / 1e9;
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  return {
    seconds: round(seconds),
    records_per_s: Math.round(records / seconds),
    p50_ms: at(0.5),
    p99_ms: at(0.99),
  };
}

/** Collects what arrives during one turn and hands it to `commit` as one batch. */
function batcher(commit) {
  let batch = [];
  let scheduled = false;
  const flush = async () => {
    const taken = batch;
    batch = [];
    try {
      await commit(taken);
      for (const entry of taken) entry.resolve();
    } catch (error) {
      for (const entry of taken) entry.reject(error);
    }
    if (batch.length > 0) setImmediate(flush);
    else scheduled = false;
  };
  return (id, body) =>
    new Promise((resolve, reject) => {
      batch.push({ id, body, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}

const stores = {
  async ours(dir) {
    const { createBenchJournal } = await import('./lib/bench-journal.mjs');
    const journal = await createBenchJournal(dir);
    const synced = () =>
      new Promise((resolve, reject) =>
        journal.afterSync((error) => (error === null ? resolve() : reject(error))),
      );
    try {
      return await drive((id, body) => {
        journal.appendAdd(id + 1, 1, body, true);
        return synced();
      });
    } finally {
      await journal.close();
    }
  },

  async 'fs-group'(dir) {
    const handle = await open(join(dir, 'group.log'), 'w');
    let position = 0;
    try {
      return await drive(
        batcher(async (batch) => {
          const data = Buffer.concat(batch.map((entry) => entry.body));
          let written = 0;
          while (written < data.length) {
            const { bytesWritten } = await handle.write(
              data,
              written,
              data.length - written,
              position + written,
            );
            written += bytesWritten;
          }
          position += data.length;
          await handle.datasync();
        }),
      );
    } finally {
      await handle.close();
    }
  },

  async lmdb(dir) {
    const { open: openLmdb } = loadModule('lmdb');
    const db = openLmdb({ path: join(dir, 'lmdb') });
    try {
      return await drive(async (id, body) => {
        await db.put(id, body);
        // put() resolves once committed; with overlappingSync (Linux default) durable only after this.
        await db.flushed;
      });
    } finally {
      await db.close();
    }
  },

  async sqlite(dir) {
    const Database = loadModule('better-sqlite3');
    const db = new Database(join(dir, 'store.db'));
    try {
      db.pragma('journal_mode = WAL');
      // Every connection: better-sqlite3's SQLite reopens a WAL database as NORMAL otherwise.
      db.pragma('synchronous = FULL');
      if (db.pragma('synchronous', { simple: true }) !== 2) throw new Error('synchronous=FULL did not take');
      db.exec('CREATE TABLE records (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
      const insert = db.prepare('INSERT INTO records (id, body) VALUES (?, ?)');
      const insertAll = db.transaction((batch) => {
        for (const entry of batch) insert.run(entry.id, entry.body);
      });
      return await drive(batcher(async (batch) => insertAll(batch)));
    } finally {
      db.close();
    }
  },
};

function loadModule(name) {
  return createRequire(join(modules, 'noop.js'))(name);
}

const lines = [];
for (let run = 1; run <= runs; run++) {
  for (const [store, measure] of Object.entries(stores).filter(([name]) => selected.includes(name))) {
    const dir = mkdtempSync(join(tmpdir(), `storage-choice-${store}-`));
    const base = { bench: 'storage-choice', store, records, size, in_flight: inFlight, run };
    try {
      const line = { ...base, ...(await measure(dir)) };
      lines.push(line);
      print(line);
    } catch (error) {
      const line = { ...base, skipped: `${store} could not run: ${error.message.split('\n')[0]}` };
      print(line);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
const summary = Object.fromEntries(
  selected.map((store) => {
    const mine = lines.filter((line) => line.store === store);
    return [
      store,
      mine.length === 0
        ? null
        : {
            records_per_s: median(mine.map((line) => line.records_per_s)),
            p50_ms: median(mine.map((line) => line.p50_ms)),
            p99_ms: median(mine.map((line) => line.p99_ms)),
          },
    ];
  }),
);
print({ summary: true, bench: 'storage-choice', records, size, in_flight: inFlight, runs, stores: summary });
