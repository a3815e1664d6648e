// The end of a run: medians over runs, ratios against the baseline measured in the same run, as
// one JSON summary line (stdout) and a markdown table (stderr, so stdout stays JSON lines).
import { round } from '../payload.mjs';
import { median } from './stats.mjs';

/** Lines that are measurements of one configuration, across runs. */
function groupKey(line) {
  const window = line.scenario === 'reattach-overhead' ? ` window ${line.confirmation_window}` : '';
  const security = line.scenario === 'security-overhead' ? ` security ${line.security}` : '';
  const persistence = line.persistence === 'off' ? ' persistence off' : '';
  return `${line.peer} ${line.scenario}${line.mode ? ` ${line.mode}` : ''}${window}${security}${persistence}`;
}

function groups(lines) {
  const byKey = new Map();
  for (const line of lines.filter((l) => typeof l.msgs_per_s === 'number' || l.error !== undefined)) {
    if (['resume', 'failover', 'ha-failover', 'connections', 'recovery'].includes(line.scenario)) continue;
    const key = groupKey(line);
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(line);
  }
  return byKey;
}

const cpuMicrosPerMessage = (l) =>
  l.broker_cpu_s === null || !l.messages ? null : ((l.broker_cpu_s + l.client_cpu_s) * 1e6) / l.messages;

function describe(lines) {
  const ok = lines.filter((l) => l.error === undefined);
  const rates = ok.map((l) => l.msgs_per_s);
  return {
    runs: lines.length,
    errors: lines.length - ok.length,
    msgs_per_s: median(rates),
    min: rates.length ? Math.min(...rates) : null,
    max: rates.length ? Math.max(...rates) : null,
    p50_ms: round(median(ok.map((l) => l.p50_latency_ms)), 3),
    p99_ms: round(median(ok.map((l) => l.p99_latency_ms)), 3),
    cpu_us_per_msg: round(median(ok.map(cpuMicrosPerMessage)), 1),
    lost: lines.reduce((sum, l) => sum + (l.lost ?? 0), 0),
    dups: lines.reduce((sum, l) => sum + (l.dups ?? 0), 0),
  };
}

const ratio = (a, b) => (a === null || b === null || b === 0 ? null : round(a / b, 3));
const overhead = (windowed, unwindowed) =>
  windowed === null || unwindowed === null ? null : round(1 - windowed / unwindowed, 3);

export function summarize(lines, options) {
  const described = new Map([...groups(lines)].map(([key, group]) => [key, describe(group)]));
  const rate = (key) => described.get(key)?.msgs_per_s ?? null;
  const relayNp = rate('limit-relay baseline np');
  const relayP = rate('limit-relay baseline p');
  const single = (scenario) => lines.find((l) => l.scenario === scenario && l.error === undefined);
  const latency = single('latency');
  const resume = single('resume');
  const failover = single('failover');
  const connections = lines.find((l) => l.scenario === 'connections');
  const heap = single('heap-flat');
  const recovery = single('recovery');
  const startup = startupFigures(lines);
  const json = {
    ...startup,
    summary: true,
    runs: options.runs,
    size: options.size,
    baseline_np_msgs_per_s: relayNp,
    baseline_p_msgs_per_s: relayP,
    np_msgs_per_s: rate('ours np-throughput np'),
    np_over_baseline: ratio(rate('ours np-throughput np'), relayNp),
    np_persistence_off_msgs_per_s: rate('ours np-throughput np persistence off'),
    np_persistence_cost: overhead(
      rate('ours np-throughput np'),
      rate('ours np-throughput np persistence off'),
    ),
    p_msgs_per_s: rate('ours p-throughput p'),
    p_over_baseline_p: ratio(rate('ours p-throughput p'), relayP),
    p_over_baseline_np: ratio(rate('ours p-throughput p'), relayNp),
    reattach_overhead_np: overhead(
      rate('ours reattach-overhead np window 1048576'),
      rate('ours reattach-overhead np window -1'),
    ),
    reattach_overhead_p: overhead(
      rate('ours reattach-overhead p window 1048576'),
      rate('ours reattach-overhead p window -1'),
    ),
    security_overhead_np: overhead(
      rate('ours security-overhead np security on'),
      rate('ours security-overhead np security off'),
    ),
    security_overhead_p: overhead(
      rate('ours security-overhead p security on'),
      rate('ours security-overhead p security off'),
    ),
    login_p50_ms: loginMedians(lines),
    confirmed_send_msgs_per_s: rate('ours confirmed-send confirmed'),
    blocking_send_msgs_per_s: rate('ours confirmed-send blocking'),
    non_blocking_send_msgs_per_s: rate('ours confirmed-send non-blocking'),
    confirmed_over_blocking: ratio(
      rate('ours confirmed-send confirmed'),
      rate('ours confirmed-send blocking'),
    ),
    non_blocking_over_blocking: ratio(
      rate('ours confirmed-send non-blocking'),
      rate('ours confirmed-send blocking'),
    ),
    fan_out_deliveries_per_s: rate('ours fan-out np'),
    fan_out_over_baseline_np: ratio(rate('ours fan-out np'), relayNp),
    latency_at_msgs_per_s: latency?.target_msgs_per_s ?? null,
    latency_p50_ms: latency?.p50_latency_ms ?? null,
    latency_p99_ms: latency?.p99_latency_ms ?? null,
    latency_p999_ms: latency?.p999_latency_ms ?? null,
    resume_p50_ms: resume?.p50_resume_ms ?? null,
    resume_p99_ms: resume?.p99_resume_ms ?? null,
    failover_p50_ms: failover?.p50_failover_ms ?? null,
    failover_p99_ms: failover?.p99_failover_ms ?? null,
    failover_lost: failover?.lost ?? null,
    failover_dups: failover?.dups ?? null,
    heap_per_connection_kib: connections?.heap_per_connection_kib ?? null,
    all_reattached_ms: connections?.all_reattached_ms ?? null,
    connections_reattached: connections?.reattached ?? null,
    heap_flat_ratio: heap?.heap_ratio ?? null,
    recovery_messages: recovery?.loaded ?? null,
    recovery_load_s: recovery?.load_s ?? null,
    recovery_msgs_per_s: recovery?.load_msgs_per_s ?? null,
    ha_failover: haFailoverFigures(lines),
    errors: lines.filter((l) => l.error !== undefined).map((l) => `${groupKey(l)}: ${l.error}`),
  };
  return { json, table: table(described, relayNp, relayP, json) };
}

/**
 * Our pair's failover (ha-failover scenario), per journal size: p50 ms from the kill to the backup
 * serving and to the first delivery through it, and the backup's p50 load time.
 */
function haFailoverFigures(lines) {
  const measured = lines.filter((l) => l.scenario === 'ha-failover' && l.error === undefined);
  if (measured.length === 0) return null;
  return Object.fromEntries(
    measured.map((l) => [
      l.journal_messages,
      {
        serving_p50_ms: l.p50_serving_ms,
        first_delivery_p50_ms: l.p50_first_delivery_ms,
        load_p50_ms: l.p50_load_ms,
      },
    ]),
  );
}

/**
 * Load and start times (startup scenario): ms per entry point's require and per CLI command, each
 * also as a ratio to a bare `node -e 0` measured beside them.
 */
function startupFigures(lines) {
  const startup = lines.filter((l) => l.scenario === 'startup');
  const node = startup.find((l) => l.measure === 'node')?.ms_p50 ?? null;
  if (startup.length === 0) return {};
  const byName = (measure, name) =>
    Object.fromEntries(startup.filter((l) => l.measure === measure).map((l) => [l[name], l.ms_p50]));
  const overNode = (figures) =>
    Object.fromEntries(Object.entries(figures).map(([k, ms]) => [k, ratio(ms, node)]));
  const requireMs = byName('require', 'entry');
  const cliMs = byName('cli', 'command');
  return {
    node_start_ms: node,
    require_ms: requireMs,
    require_over_node_start: overNode(requireMs),
    cli_ms: cliMs,
    cli_over_node_start: overNode(cliMs),
  };
}

/** Median over runs of each login measurement's p50, by password kind; null without any. */
function loginMedians(lines) {
  const logins = lines.filter((l) => l.scenario === 'security-overhead' && l.mode === 'login');
  if (logins.length === 0) return null;
  const of = (password) =>
    round(median(logins.filter((l) => l.password === password).map((l) => l.p50_login_ms)), 3);
  return { off: of('off'), plain: of('plain'), scrypt: of('scrypt') };
}

const joined = (...values) =>
  values.every((v) => v === null) ? null : values.map((v) => v ?? '–').join(' / ');

function table(described, relayNp, relayP, json) {
  const rows =
    described.size === 0
      ? []
      : [
          '| configuration | runs | msgs/s (median) | min–max | × baseline | p50 ms | p99 ms | CPU µs/msg | lost | dups | errors |',
          '|---|---|---|---|---|---|---|---|---|---|---|',
        ];
  for (const [key, d] of described) {
    // A paced run (latency) runs below its maximum on purpose: a ratio would say nothing.
    const baseline = key.includes(' latency') ? null : / p( |$)/.test(key) ? relayP : relayNp;
    rows.push(
      `| ${key} | ${d.runs} | ${d.msgs_per_s ?? '–'} | ${d.min === null ? '–' : `${d.min}–${d.max}`} | ${ratio(d.msgs_per_s, baseline) ?? '–'} | ${d.p50_ms ?? '–'} | ${d.p99_ms ?? '–'} | ${d.cpu_us_per_msg ?? '–'} | ${d.lost} | ${d.dups} | ${d.errors} |`,
    );
  }
  const facts = [
    ['np cost of persistence (1 − on/off; goal ≤ 0.05)', json.np_persistence_cost],
    ['reattach overhead np (1 − windowed/unwindowed)', json.reattach_overhead_np],
    ['reattach overhead p (1 − windowed/unwindowed)', json.reattach_overhead_p],
    ['security overhead np (1 − on/off)', json.security_overhead_np],
    ['security overhead p (1 − on/off)', json.security_overhead_p],
    [
      'durable sends msgs/s: confirmed (window) / blocking (one at a time) / non-blocking',
      joined(
        json.confirmed_send_msgs_per_s,
        json.blocking_send_msgs_per_s,
        json.non_blocking_send_msgs_per_s,
      ),
    ],
    [
      'durable sends × blocking: confirmed / non-blocking',
      joined(json.confirmed_over_blocking, json.non_blocking_over_blocking),
    ],
    [
      'login p50 ms: security off / plain password / scrypt',
      json.login_p50_ms === null
        ? null
        : joined(json.login_p50_ms.off, json.login_p50_ms.plain, json.login_p50_ms.scrypt),
    ],
    ['latency at msgs/s', json.latency_at_msgs_per_s],
    ['latency p50 / p99 / p99.9 ms', joined(json.latency_p50_ms, json.latency_p99_ms, json.latency_p999_ms)],
    ['resume p50 / p99 ms', joined(json.resume_p50_ms, json.resume_p99_ms)],
    [
      'failover p50 / p99 ms (lost/dups)',
      json.failover_p50_ms === null
        ? null
        : `${joined(json.failover_p50_ms, json.failover_p99_ms)} (${json.failover_lost}/${json.failover_dups})`,
    ],
    ['broker heap per idle connection KiB (target ≤ 100)', json.heap_per_connection_kib],
    ['all connections reattached ms (target ≤ 2000)', json.all_reattached_ms],
    ['heap-flat ratio end / 100k (target 0.9–1.1)', json.heap_flat_ratio],
    ['node -e 0 ms (startup baseline)', json.node_start_ms],
    ['require ms per entry point', json.require_ms === undefined ? null : JSON.stringify(json.require_ms)],
    ['hornetq command ms', json.cli_ms === undefined ? null : JSON.stringify(json.cli_ms)],
    [
      'recovery: messages loaded / load s / msgs/s',
      joined(json.recovery_messages, json.recovery_load_s, json.recovery_msgs_per_s),
    ],
    ...Object.entries(json.ha_failover ?? {}).map(([messages, f]) => [
      `ha-failover, ${messages} messages in the journal: serving / first delivery / load p50 ms`,
      joined(f.serving_p50_ms, f.first_delivery_p50_ms, f.load_p50_ms),
    ]),
  ];
  if (rows.length > 0) rows.push('');
  rows.push('| measure | value |', '|---|---|');
  for (const [name, value] of facts) rows.push(`| ${name} | ${value ?? '–'} |`);
  return rows.join('\n');
}
