// failover: bench/failover.mjs in a child process of its own (it owns the Artemis pair's JVMs, so
// that a kill and a delivery are stamped on one clock): --kills kill -9s of the live server of an
// Artemis 2.40.0 replication pair, each timed from the kill to the first message our client gets
// through the backup (p50, p99, max), and what was lost or duplicated with
// duplicate-id-on-durable-send. Needs Java 17 and Maven (the interop harness' Artemis module, jars
// from Maven Central): without them the scenario prints an `error` line and the run goes on.
import { ToolchainError, buildHarnessJava, checkJava, checkMaven } from '../lib/java-toolchain.mjs';
import { ProcessGroup, withTimeout } from '../lib/processes.mjs';

/** Per kill: a backup's activation, a JVM start and a full copy of the journal on a loaded machine. */
const SECONDS_PER_KILL = 90;

export default {
  name: 'failover',
  repeated: false,
  async run(options) {
    const base = { peer: 'ours', scenario: 'failover' };
    let classpath;
    try {
      checkJava();
      checkMaven();
      classpath = buildHarnessJava('artemis');
    } catch (error) {
      if (!(error instanceof ToolchainError)) throw error;
      return [{ ...base, error: error.message }];
    }
    const group = new ProcessGroup();
    const timeoutMs = (options.timeout + options.kills * SECONDS_PER_KILL) * 1000;
    try {
      const child = group.start('failover.mjs', {
        FAILOVER_CLASSPATH: classpath,
        FAILOVER_KILLS: String(options.kills),
      });
      const line = await withTimeout(
        child.waitFor((l) => l.scenario === 'failover'),
        timeoutMs,
        'failover',
        // With a grace period: the driver's SIGTERM handler kills the JVMs it started.
        () => group.stopAll(5000),
      );
      await child.exited;
      return [{ ...base, ...line }];
    } catch (error) {
      return [{ ...base, error: String(error.message) }];
    } finally {
      await group.stopAll();
    }
  },
};
