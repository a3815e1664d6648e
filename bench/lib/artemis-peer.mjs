// ActiveMQ Artemis 2.40.0 as a benchmark peer: its embedded broker (bench/java ArtemisBroker) and
// its own core client (bench/java BenchClient) as measureThroughput hooks (startBroker,
// startClient). Every JVM binds 127.0.0.1 only and prefers IPv4.

// The broker's heap and collector as Artemis' own `artemis create` writes them in
// etc/artemis.profile, so that it runs as its users would run it.
const BROKER_JVM_FLAGS = ['-XX:+UseG1GC', '-XX:AutoBoxCacheMax=20000', '-Xms512M', '-Xmx2G'];
const CLIENT_JVM_FLAGS = ['-Xmx512M'];
// Artemis' log: warnings and errors only, on stderr (slf4j-simple).
const COMMON_JVM_FLAGS = ['-Djava.net.preferIPv4Stack=true', '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'];

/** The queue the broker pre-creates (an anycast address of the same name). */
export const ARTEMIS_QUEUE = 'bench';

/**
 * startBroker for measureThroughput: an Artemis broker in its own JVM with its journal (NIO,
 * synced) in a fresh data directory of the group's; `acceptor` 'hornetq' (HornetQ 2.4 clients:
 * ours) or 'core' (Artemis' own client) picks the port the clients get.
 */
export function artemisBroker(classpath, { acceptor }) {
  return async (group) => {
    const dataDir = group.createDataDir();
    const broker = group.startCommand('artemis', 'java', [
      ...COMMON_JVM_FLAGS,
      ...BROKER_JVM_FLAGS,
      '-cp',
      classpath,
      'bench.artemis.ArtemisBroker',
      // Persistence on for both modes, as our broker runs in np-throughput and p-throughput.
      '--persistence',
      'on',
      '--data-dir',
      dataDir,
      '--queue',
      ARTEMIS_QUEUE,
    ]);
    const ready = await broker.waitFor((line) => line.ready === 'READY');
    return { broker, port: ready[`${acceptor}_port`] };
  };
}

/** startClient for measureThroughput: a producer or consumer on Artemis' core client, in a JVM. */
export function artemisClient(classpath) {
  return (group, env) =>
    group.startCommand(
      `artemis-${env.ROLE}`,
      'java',
      [...COMMON_JVM_FLAGS, ...CLIENT_JVM_FLAGS, '-cp', classpath, 'bench.artemis.BenchClient'],
      env,
    );
}
