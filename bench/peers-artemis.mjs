// Where we stand against ActiveMQ Artemis 2.40.0, in one invocation:
//   node bench/peers-artemis.mjs [--runs 3] [--np-messages 200000] [--p-messages 50000]
//                                [--size 1024] [--window 1000] [--prefetch 1000] [--timeout 180]
// Measures, run by run and interleaved (scenarios/artemis-comparison.mjs): a) our client -> our
// broker, b) our client -> Artemis (HORNETQ acceptor), c) Artemis' own core client -> Artemis (CORE
// acceptor), each non-persistent and durable, the same counts as np-throughput and p-throughput.
// Prints one JSON line per measurement, then a summary line (medians, ratios b/a, c/a, c/b), and a
// markdown table on stderr. Needs Java 17 and Maven (the interop harness' Artemis server in
// test/interop/java and Artemis' client in bench/java/artemis are built first; their jars come
// from Maven Central): without them it says so in one line and exits 69. Exits 1 when a
// measurement failed (its line's `error` says why), 0 otherwise. Build our side first: npm run
// build.
import { runComparison } from './lib/java-comparison.mjs';
import { artemisComparison } from './scenarios/artemis-comparison.mjs';

await runComparison(artemisComparison);
