// Our brokers in the benchmarks run as a user runs them: persistence on (HornetQ's default), with
// the journal in the data directory the runner made for this server (BENCH_DATA_DIR, removed
// after it; see ProcessGroup.startServer), so that a durable send waits for a real fdatasync.
// Non-durable messages never touch that journal.
// BENCH_PERSISTENCE=off runs the broker without a journal: np-throughput's A/B measure of what
// persistence costs non-durable messages (it should cost nothing).
export function brokerPersistence(env = process.env) {
  if (env.BENCH_PERSISTENCE === 'off') return { persistenceEnabled: false };
  const dataDirectory = env.BENCH_DATA_DIR;
  if (dataDirectory === undefined || dataDirectory === '') {
    throw new Error(
      "BENCH_DATA_DIR must name the broker's data directory (bench/run.mjs makes one per server)",
    );
  }
  return { persistenceEnabled: true, dataDirectory };
}
