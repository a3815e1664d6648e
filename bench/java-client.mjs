// Our broker with HornetQ's own Java client, beside our client, in one invocation:
//   node bench/java-client.mjs [--runs 3] [--np-messages 200000] [--p-messages 50000]
//                              [--size 1024] [--window 1000] [--prefetch 1000] [--timeout 180]
// Measures, run by run and interleaved (scenarios/java-client-comparison.mjs): a) our client ->
// our broker, d) HornetQ 2.4.7's JMS client -> our broker, e) HornetQ 2.4.7's JMS client -> a
// HornetQ 2.4.7 server, each non-persistent and durable, the same counts as np-throughput and
// p-throughput. Prints one JSON line per measurement, then a summary line (medians, ratios d/a,
// e/a, d/e), and a markdown table on stderr. Then the large-message scenario
// (scenarios/java-large-message.mjs; alone: java-large-message.mjs): one message of
// --large-message-mib (50) each way, with its own lines, summary and table. Needs Java 17 and Maven (the interop harness' HornetQ
// server in test/interop/java and HornetQ's JMS client in bench/java/hornetq are built first;
// their jars come from Maven Central): without them it says so in one line and exits 69. Exits 1
// when a measurement failed (its line's `error` says why), 0 otherwise. Build our side first: npm
// run build.
import { runComparison } from './lib/java-comparison.mjs';
import { javaClientComparison } from './scenarios/java-client-comparison.mjs';

await runComparison(javaClientComparison);
