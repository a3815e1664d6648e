// Command-line options of run.mjs: --name value pairs over the defaults; --scenarios takes a
// comma-separated list of names, --ha-journal-messages one of numbers, every other option a number.
export const DEFAULT_SCENARIOS = [
  'baseline',
  'np-throughput',
  'p-throughput',
  'reattach-overhead',
  'security-overhead',
  'confirmed-send',
  'fan-out',
  'latency',
  'resume',
  'connections',
  'recovery',
  'startup',
];
// Only when named: heap-flat runs long; failover needs Java 17 and Maven (an Artemis pair), which
// a default run never does; ha-failover kills our own pair over journals of up to a million messages.
export const OPTIONAL_SCENARIOS = ['heap-flat', 'failover', 'ha-failover'];

export const DEFAULTS = {
  scenarios: DEFAULT_SCENARIOS,
  runs: 3,
  size: 1024,
  npMessages: 200_000,
  pMessages: 50_000,
  confirmedBlockingMessages: 2_000,
  window: 1000,
  prefetch: 1000,
  fanoutMessages: 20_000,
  subscribers: 10,
  latencyMessages: 100_000,
  latencySeconds: 10,
  cuts: 50,
  kills: 20,
  connections: 1000,
  connectionProcesses: 2,
  outageMs: 500,
  reattachWaitMs: 30_000,
  heapMessages: 1_000_000,
  recoveryMessages: 1_000_000,
  haJournalMessages: [0, 100_000, 1_000_000],
  haLargeKills: 3,
  timeout: 180,
};

const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export const USAGE = `node bench/run.mjs [options]
${Object.entries(DEFAULTS)
  .map(([name, value]) => `  --${kebab(name)} ${Array.isArray(value) ? value.join(',') : value}`)
  .join('\n')}
  (--messages N sets --np-messages; scenarios: ${[...DEFAULT_SCENARIOS, ...OPTIONAL_SCENARIOS].join(', ')};
   ${OPTIONAL_SCENARIOS.join(', ')} only when named. --timeout is per measurement, in seconds.)`;

export function parseOptions(argv) {
  const byFlag = new Map(Object.keys(DEFAULTS).map((name) => [`--${kebab(name)}`, name]));
  byFlag.set('--messages', 'npMessages');
  const options = { ...DEFAULTS };
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--help') throw new UsageError('');
    const name = byFlag.get(argv[i]);
    const value = argv[i + 1];
    if (name === undefined) throw new UsageError(`unknown option ${argv[i]}`);
    if (value === undefined) throw new UsageError(`${argv[i]} needs a value`);
    if (name === 'scenarios') options.scenarios = value.split(',').filter(Boolean);
    else if (Array.isArray(DEFAULTS[name])) options[name] = numberList(argv[i], value);
    else if (Number.isFinite(Number(value))) options[name] = Number(value);
    else throw new UsageError(`${argv[i]} takes a number, not ${value}`);
  }
  const known = [...DEFAULT_SCENARIOS, ...OPTIONAL_SCENARIOS];
  const unknown = options.scenarios.filter((s) => !known.includes(s));
  if (unknown.length > 0) throw new UsageError(`unknown scenario(s) ${unknown.join(', ')}`);
  return options;
}

/** A comma-separated list of whole numbers >= 0 (journal sizes). */
function numberList(flag, value) {
  const numbers = value.split(',').map(Number);
  if (value === '' || numbers.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new UsageError(`${flag} takes whole numbers >= 0 separated by commas, not ${value}`);
  }
  return numbers;
}

export class UsageError extends Error {}
