// Our broker in its own process, for the benchmarks: one TCP acceptor on 127.0.0.1 and the
// benchmark queue. Prints {"port":N} once listening; stops on SIGTERM.
import hornetq from '../dist/index.js';

const { Broker } = hornetq;
const queue = process.env.BENCH_QUEUE ?? 'jms.queue.bench';
const broker = new Broker({
  acceptors: [{ name: 'bench', type: 'tcp', host: '127.0.0.1', port: 0 }],
  queues: [{ name: queue, address: queue, filter: null, durable: true }],
});
await broker.start();
process.stdout.write(`${JSON.stringify({ port: broker.getPort() })}\n`);
process.on('SIGTERM', () => {
  broker.stop().then(() => process.exit(0));
});
