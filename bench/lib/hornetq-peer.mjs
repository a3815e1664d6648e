// HornetQ 2.4.7 as a benchmark peer: the interop harness' embedded HornetQ server
// (test/interop/java/hornetq HqServer) and HornetQ's JMS client (bench/java/hornetq BenchClient)
// as measureThroughput hooks (startBroker, startClient).
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from './free-port.mjs';
import { javaClient, startJava } from './java-process.mjs';

// Netty 4.0, which HornetQ 2.4.7 runs on, reaches into NIO internals that Java 17 closes unless
// they are opened (as test/interop/java/jvm-options.json opens them for the interop harness).
const NETTY_4_0_FLAGS = [
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED',
  '-Dio.netty.tryReflectionSetAccessible=true',
];
// HornetQ's log (jboss-logging over java.util.logging): warnings and errors only, on stderr.
const LOG_FLAGS = [
  `-Djava.util.logging.config.file=${fileURLToPath(new URL('../java/hornetq/logging.properties', import.meta.url))}`,
];
// The server's heap and collector as HornetQ 2.4's bin/run.sh starts it (its -XX:+AggressiveOpts
// and -XX:+UseFastAccessorMethods left out: Java 17 no longer has them and refuses to start).
const BROKER_JVM_FLAGS = ['-XX:+UseParallelGC', '-Xms512M', '-Xmx1024M'];
// The same client heap as Artemis' client gets in artemis-peer.mjs.
const CLIENT_JVM_FLAGS = ['-Xmx512M'];

/** The JMS queue the server deploys, and its core address (the one our broker's queue has too). */
const HORNETQ_QUEUE = 'bench';
export const HORNETQ_QUEUE_ADDRESS = `jms.queue.${HORNETQ_QUEUE}`;

/**
 * startBroker for measureThroughput: a HornetQ 2.4.7 server in its own JVM, security and JMX off,
 * the JMS queue `bench` deployed, its journal (NIO, synced) in a fresh data directory of the
 * group's, listening on a free loopback port.
 */
export function hornetqBroker(classpaths) {
  return async (group) => {
    const port = await freeLoopbackPort();
    const broker = startJava(group, 'hornetq', {
      flags: [...NETTY_4_0_FLAGS, ...LOG_FLAGS, ...BROKER_JVM_FLAGS],
      classpath: classpaths.broker,
      mainClass: 'interop.hornetq.HqServer',
      args: [
        '--port',
        String(port),
        // Persistence on for both modes, as our broker runs in np-throughput and p-throughput.
        '--data',
        group.createDataDir(),
        '--queue',
        HORNETQ_QUEUE,
      ],
    });
    await broker.waitForText((line) => line.startsWith('READY '));
    return { broker, port };
  };
}

/** startClient for measureThroughput: a producer or consumer on HornetQ's JMS client, in a JVM. */
export function hornetqClient(classpaths) {
  return javaClient('hornetq', {
    flags: [...NETTY_4_0_FLAGS, ...LOG_FLAGS, ...CLIENT_JVM_FLAGS],
    classpath: classpaths.client,
    mainClass: 'bench.hornetq.BenchClient',
  });
}

/**
 * A large-message producer or consumer on HornetQ's JMS client (bench/java/hornetq
 * LargeMessageClient), in a JVM: (group, env) -> handle, as hornetqClient's.
 */
export function hornetqLargeMessageClient(classpaths) {
  return javaClient('hornetq-large', {
    flags: [...NETTY_4_0_FLAGS, ...LOG_FLAGS, ...CLIENT_JVM_FLAGS],
    classpath: classpaths.client,
    mainClass: 'bench.hornetq.LargeMessageClient',
  });
}
