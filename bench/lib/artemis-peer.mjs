// ActiveMQ Artemis 2.40.0 as a benchmark peer: the interop harness' embedded broker
// (test/interop/java/artemis ArtemisServer) and Artemis' own core client (bench/java/artemis
// BenchClient) as measureThroughput hooks (startBroker, startClient).
import { javaClient, startJava } from './java-process.mjs';

// The broker's heap and collector as Artemis' own `artemis create` writes them in
// etc/artemis.profile, so that it runs as its users would run it (the interop harness runs the
// same broker small instead: test/interop/java/jvm-options.json).
export const BROKER_JVM_FLAGS = ['-XX:+UseG1GC', '-XX:AutoBoxCacheMax=20000', '-Xms512M', '-Xmx2G'];
const CLIENT_JVM_FLAGS = ['-Xmx512M'];
// Artemis' log: warnings and errors only, on stderr (slf4j-simple).
export const LOG_FLAGS = ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'];

/** The queue the broker pre-creates (an anycast address of the same name). */
export const ARTEMIS_QUEUE = 'bench';

/**
 * startBroker for measureThroughput: an Artemis broker in its own JVM with its journal (NIO,
 * synced) in a fresh data directory of the group's; `acceptor` 'hornetq' (HornetQ 2.4 clients:
 * ours) or 'core' (Artemis' own client, on a CORE-only acceptor) picks the port the clients get.
 */
export function artemisBroker(classpaths, { acceptor }) {
  return async (group) => {
    const broker = startJava(group, 'artemis', {
      flags: [...LOG_FLAGS, ...BROKER_JVM_FLAGS],
      classpath: classpaths.broker,
      mainClass: 'interop.artemis.ArtemisServer',
      args: [
        // Ephemeral ports, which the READY line names: READY <hornetq port> <node id> <core port>.
        '--port',
        '0',
        '--core-port',
        '0',
        // Persistence on for both modes, as our broker runs in np-throughput and p-throughput.
        '--data',
        group.createDataDir(),
        '--queue',
        ARTEMIS_QUEUE,
      ],
    });
    const ready = (await broker.waitForText((line) => line.startsWith('READY '))).split(' ');
    const port = Number(acceptor === 'core' ? ready[3] : ready[1]);
    return { broker, port };
  };
}

/** startClient for measureThroughput: a producer or consumer on Artemis' core client, in a JVM. */
export function artemisClient(classpaths) {
  return javaClient('artemis', {
    flags: [...LOG_FLAGS, ...CLIENT_JVM_FLAGS],
    classpath: classpaths.client,
    mainClass: 'bench.artemis.BenchClient',
  });
}
