// recovery: how long a broker takes to start on a journal of --recovery-messages (1 000 000)
// durable messages of --size (1 KiB) bytes: one process writes the journal through the broker's
// storage (bench/recovery.mjs ROLE=write), a new process starts a broker on it and times start(),
// which loads every message before it listens (ROLE=load). Reports the load time, messages/s,
// the journal's size and the loaded broker's heap; the write half's rate comes along.
import { ProcessGroup, withTimeout } from '../lib/processes.mjs';

export default {
  name: 'recovery',
  repeated: false,
  async run(options) {
    const group = new ProcessGroup();
    const base = {
      peer: 'ours',
      scenario: 'recovery',
      size: options.size,
      messages: options.recoveryMessages,
    };
    const env = { RECOVERY_MESSAGES: String(options.recoveryMessages), SIZE: String(options.size) };
    // Writing and loading a gigabyte takes far longer than one throughput measurement.
    const timeoutMs = options.timeout * 1000 * 5;
    try {
      const line = await withTimeout(
        (async () => {
          const writer = group.startServer('recovery.mjs', { ...env, ROLE: 'write' });
          const written = await writer.waitFor((l) => 'written' in l);
          await writer.exited;
          // The broker holds every loaded message in memory: give it room.
          const loader = group.start(
            'recovery.mjs',
            { ...env, ROLE: 'load', BENCH_DATA_DIR: writer.dataDir },
            ['--expose-gc', '--max-old-space-size=8192'],
          );
          const loaded = await loader.waitFor((l) => 'loaded' in l);
          await loader.exited;
          return { ...written, ...loaded };
        })(),
        timeoutMs,
        'recovery',
        () => group.stopAll(0),
      );
      const complete = line.loaded === options.recoveryMessages;
      return [
        {
          ...base,
          ...line,
          ...(complete ? {} : { error: `loaded ${line.loaded} of ${options.recoveryMessages} messages` }),
        },
      ];
    } catch (error) {
      return [{ ...base, error: String(error.message) }];
    } finally {
      await group.stopAll();
    }
  },
};
