// npm run bench: our broker's scenarios against the raw Node relay baseline measured in the same
// run. Prints one JSON line per measurement (fields as ../shared/peers/README.md "Each result
// line", plus each scenario's own), then one JSON summary line (medians, ratios) on stdout and a
// markdown table on stderr. Scenarios run with `repeated` run --runs times, interleaved run by
// run so that noise on this shared machine spreads over all of them; the others run once.
//   node bench/run.mjs [--runs 3] [--scenarios a,b] [--np-messages 200000] ...   (--help)
import baseline from './scenarios/baseline.mjs';
import confirmedSend from './scenarios/confirmed-send.mjs';
import connections from './scenarios/connections.mjs';
import failover from './scenarios/failover.mjs';
import haFailover from './scenarios/ha-failover.mjs';
import fanOut from './scenarios/fan-out.mjs';
import heapFlat from './scenarios/heap-flat.mjs';
import latency from './scenarios/latency.mjs';
import npThroughput from './scenarios/np-throughput.mjs';
import pThroughput from './scenarios/p-throughput.mjs';
import reattachOverhead from './scenarios/reattach-overhead.mjs';
import securityOverhead from './scenarios/security-overhead.mjs';
import startup from './scenarios/startup.mjs';
import recovery from './scenarios/recovery.mjs';
import resume from './scenarios/resume.mjs';
import { USAGE, UsageError, parseOptions } from './lib/options.mjs';
import { summarize } from './lib/summary.mjs';

// Order matters: latency takes its rate from np-throughput's runs.
const ALL = [
  baseline,
  npThroughput,
  pThroughput,
  reattachOverhead,
  securityOverhead,
  confirmedSend,
  fanOut,
  latency,
  resume,
  failover,
  haFailover,
  connections,
  recovery,
  heapFlat,
  startup,
];

let options;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`${error.message ? `${error.message}\n` : ''}${USAGE}\n`);
  process.exit(error.message ? 64 : 0);
}
const selected = ALL.filter((s) => options.scenarios.includes(s.name));
const lines = [];
const emit = (scenarioLines, run) => {
  for (const line of scenarioLines) {
    const withRun = { ...line, run };
    lines.push(withRun);
    process.stdout.write(`${JSON.stringify(withRun)}\n`);
  }
};

for (let run = 1; run <= options.runs; run++) {
  for (const scenario of selected.filter((s) => s.repeated)) emit(await scenario.run(options, lines), run);
}
for (const scenario of selected.filter((s) => !s.repeated)) emit(await scenario.run(options, lines), 1);

const { json, table } = summarize(lines, options);
process.stdout.write(`${JSON.stringify(json)}\n`);
process.stderr.write(`\n${table}\n`);
