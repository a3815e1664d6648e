// The large-message scenario of java-client.mjs alone (scenarios/java-large-message.mjs):
//   node bench/java-large-message.mjs [--runs 3] [--timeout 180] [--large-message-mib 50]
// One message of that many MiB each way between us and HornetQ 2.4.7's Java JMS client, beside
// that client with a HornetQ 2.4.7 server, run by run; one JSON line per measurement, then the
// summary (medians, ratios to the reference, SHA-256 checks), and a markdown table on stderr.
// Needs Java 17 and Maven as java-client.mjs does (exit 69 without them); exits 1 when a
// measurement failed. Build our side first: npm run build.
import { runComparison } from './lib/java-comparison.mjs';

await runComparison({
  script: 'java-large-message',
  javaModule: 'hornetq',
  versions: { hornetq: '2.4.7.Final' },
  largeMessages: true,
});
