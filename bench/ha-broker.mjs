// One broker of the ha-failover benchmark's shared-store pair, in a process of its own so that the
// driver (bench/ha-failover.mjs) can kill -9 it: HA_ROLE=live or backup on the data directory
// BENCH_DATA_DIR (both members on the same one), listening on HA_PORT, with a cluster connection
// whose connector is its own port and, for a backup, a static connector to HA_PEER_PORT (its live),
// so that the backup announces itself to the live and the live passes {live, backup} to its
// clients. The broker keeps its HA timings at their defaults (lock poll 200 ms, 500 ms before a
// backup that got the lock loads): what a user gets.
// Prints JSON lines stamped with Date.now() (the driver's clock: same machine):
//   {state, at}                       at each change of status (waiting, started, ...)
//   {load_ms, loaded_messages, at}    when the store has been loaded (the broker's own figure)
import hornetq from '../dist/index.js';

const { Broker } = hornetq;

const role = requiredEnv('HA_ROLE');
if (role !== 'live' && role !== 'backup')
  throw new Error(`HA_ROLE must be live or backup (actual value: ${role})`);
const port = Number(requiredEnv('HA_PORT'));
const peerPort = Number(requiredEnv('HA_PEER_PORT'));
const dataDirectory = requiredEnv('BENCH_DATA_DIR');
const queues = requiredEnv('HA_QUEUES').split(',');
/** The broker's "loaded N durable queues and M messages (B bytes) in T ms" line. */
const LOADED = /loaded \d+ durable queues and (\d+) messages \(\d+ bytes\) in (\d+) ms/;

const print = (line) => process.stdout.write(`${JSON.stringify({ ...line, at: Date.now() })}\n`);

/** Our logger: warnings and errors to stderr, and the load figure as a JSON line. */
const logger = {
  debug: () => undefined,
  info: (object, message = '') => {
    const loaded = LOADED.exec(message);
    if (loaded !== null) print({ load_ms: Number(loaded[2]), loaded_messages: Number(loaded[1]) });
  },
  warn: (object, message = '') => process.stderr.write(`ha-broker ${port}: ${message}\n`),
  error: (object, message = '') => process.stderr.write(`ha-broker ${port}: ERROR ${message}\n`),
  child: () => logger,
};

const broker = new Broker({
  securityEnabled: false,
  persistenceEnabled: true,
  dataDirectory,
  backup: role === 'backup',
  acceptors: [{ name: 'netty', type: 'tcp', host: '127.0.0.1', port }],
  queues: queues.map((name) => ({ name, address: name, filter: null, durable: true })),
  cluster: {
    connection: {
      name: 'pair',
      connector: { name: 'netty', host: '127.0.0.1', port },
      staticConnectors: role === 'backup' ? [{ name: 'live', host: '127.0.0.1', port: peerPort }] : [],
      retryInterval: 100,
      maxRetryInterval: 500,
    },
    user: 'bench-cluster',
    // A fixed password for a benchmark on loopback, known to both members of the pair.
    password: 'bench-cluster-password',
  },
  logger,
});
broker.onStateChange((state) => print({ state }));
await broker.start();

// The driver ends a member with SIGKILL (the measurement) or SIGTERM (the end of a journal size).
process.on('SIGTERM', () => {
  broker.stop().finally(() => process.exit(0));
});

function requiredEnv(name) {
  const value = process.env[name];
  if (value === undefined || value === '')
    throw new Error(`${name} must be set (bench/ha-failover.mjs sets it)`);
  return value;
}
