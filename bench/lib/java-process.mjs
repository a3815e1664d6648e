// A program of a JVM as a child of a benchmark's ProcessGroup, for the Java peers
// (artemis-peer.mjs, hornetq-peer.mjs): `java <flags> -cp <classpath> <mainClass> <args>`.
// Every JVM binds 127.0.0.1 only and prefers IPv4.
const COMMON_JVM_FLAGS = ['-Djava.net.preferIPv4Stack=true'];

/** Starts a JVM in `group`; `name` labels its log lines and errors. */
export function startJava(group, name, { flags, classpath, mainClass, args = [], env = {} }) {
  return group.startCommand(
    name,
    'java',
    [...COMMON_JVM_FLAGS, ...flags, '-cp', classpath, mainClass, ...args],
    env,
  );
}

/**
 * startClient for measureThroughput: a producer or consumer of bench/java (one JVM a role,
 * labelled `<name>-producer` or `<name>-consumer`), configured by measureThroughput's env.
 */
export function javaClient(name, { flags, classpath, mainClass }) {
  return (group, env) => startJava(group, `${name}-${env.ROLE}`, { flags, classpath, mainClass, env });
}
