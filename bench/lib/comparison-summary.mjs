// The end of a comparison with a Java peer (peers-artemis.mjs, java-client.mjs): medians over runs
// of each measurement (its layout's, e.g. a, b, c) and mode (np, p), the layout's ratios (e.g.
// b/a) within this invocation, as one JSON summary line (stdout) and a markdown table (stderr).
// CPU per message counts the broker process and both client processes from each client's ready
// line to its result (so a JVM's start-up is left out, as Node's is).
import { round } from '../payload.mjs';
import { median } from './stats.mjs';

const MODES = ['np', 'p'];
const perMessage = (seconds, line) =>
  typeof seconds === 'number' && line.messages > 0 ? (seconds * 1e6) / line.messages : null;
const brokerMicros = (line) => perMessage(line.broker_cpu_s, line);
const clientMicros = (line) =>
  typeof line.producer_cpu_s === 'number' && typeof line.consumer_cpu_s === 'number'
    ? perMessage(line.producer_cpu_s + line.consumer_cpu_s, line)
    : null;
const totalMicros = (line) => {
  const broker = brokerMicros(line);
  const clients = clientMicros(line);
  return broker === null || clients === null ? null : broker + clients;
};

function describe(lines) {
  const ok = lines.filter((l) => l.error === undefined);
  const rates = ok.map((l) => l.msgs_per_s);
  const medianOf = (f, digits = 1) => round(median(ok.map(f)), digits);
  return {
    runs: lines.length,
    errors: lines.length - ok.length,
    msgs_per_s: median(rates),
    min: rates.length > 0 ? Math.min(...rates) : null,
    max: rates.length > 0 ? Math.max(...rates) : null,
    broker_cpu_us_per_msg: medianOf(brokerMicros),
    client_cpu_us_per_msg: medianOf(clientMicros),
    cpu_us_per_msg: medianOf(totalMicros),
    p50_ms: medianOf((l) => l.p50_latency_ms, 3),
    p99_ms: medianOf((l) => l.p99_latency_ms, 3),
    lost: lines.reduce((sum, l) => sum + (l.lost ?? 0), 0),
    dups: lines.reduce((sum, l) => sum + (l.dups ?? 0), 0),
  };
}

const ratio = (x, y) => (x === null || y === null || y === 0 ? null : round(x / y, 3));

/**
 * layout: { comparison (its name in the summary line), measurements: [{ id, label }] (the first
 *   is the baseline, e.g. 'a'), ratios: [[x, y]] (x/y, e.g. ['b', 'a']) }.
 */
export function summarizeComparison(lines, options, versions, layout) {
  const results = {};
  for (const mode of MODES) {
    for (const { id } of layout.measurements) {
      results[`${id}_${mode}`] = describe(lines.filter((l) => l.measurement === id && l.mode === mode));
    }
  }
  const ratios = {};
  for (const mode of MODES) {
    for (const [x, y] of layout.ratios) {
      const over = (field) => ratio(results[`${x}_${mode}`][field], results[`${y}_${mode}`][field]);
      ratios[`${mode}_${x}_over_${y}`] = {
        msgs_per_s: over('msgs_per_s'),
        cpu_us_per_msg: over('cpu_us_per_msg'),
      };
    }
  }
  const json = {
    summary: true,
    comparison: layout.comparison,
    runs: options.runs,
    size: options.size,
    np_messages: options.npMessages,
    p_messages: options.pMessages,
    window: options.window,
    prefetch: options.prefetch,
    versions,
    results,
    ratios,
    errors: lines
      .filter((l) => l.error !== undefined)
      .map((l) => `${l.measurement} ${l.mode} run ${l.run}: ${l.error}`),
  };
  return { json, table: table(results, ratios, layout) };
}

const cell = (value) => (value === null || value === undefined ? '–' : String(value));

function table(results, ratios, layout) {
  const baseline = layout.measurements[0].id;
  const rows = [
    `| measurement | mode | runs | msgs/s (median) | min–max | × ${baseline} | broker µs/msg | clients µs/msg | total µs/msg | p50 ms | p99 ms | lost | dups | errors |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const mode of MODES) {
    for (const { id, label } of layout.measurements) {
      const d = results[`${id}_${mode}`];
      const overBaseline =
        id === baseline ? null : ratio(d.msgs_per_s, results[`${baseline}_${mode}`].msgs_per_s);
      rows.push(
        `| ${id}: ${label} | ${mode} | ${d.runs} | ${cell(d.msgs_per_s)} | ${d.min === null ? '–' : `${d.min}–${d.max}`} | ${cell(overBaseline)} | ${cell(d.broker_cpu_us_per_msg)} | ${cell(d.client_cpu_us_per_msg)} | ${cell(d.cpu_us_per_msg)} | ${cell(d.p50_ms)} | ${cell(d.p99_ms)} | ${d.lost} | ${d.dups} | ${d.errors} |`,
      );
    }
  }
  rows.push('', '| ratio (same invocation) | msgs/s | total CPU µs/msg |', '|---|---|---|');
  for (const mode of MODES) {
    for (const [x, y] of layout.ratios) {
      const r = ratios[`${mode}_${x}_over_${y}`];
      rows.push(`| ${mode} ${x}/${y} | ${cell(r.msgs_per_s)} | ${cell(r.cpu_us_per_msg)} |`);
    }
  }
  return rows.join('\n');
}
