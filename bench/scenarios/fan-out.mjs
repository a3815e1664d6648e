// fan-out: one producer sends non-persistent messages to a topic (HornetQ core: the address
// jms.topic.bench, with one queue per subscription bound to it, created by the broker's
// configuration) that has `subscribers` subscribers. The subscribers run in ONE consumer process,
// each on its own connection, session and consumer (10 processes would need 10 Node runtimes on
// 2 cores). Every subscriber counts its own arrivals; `messages` and `msgs_per_s` are deliveries
// in total, `per_subscriber_msgs_per_s` each subscriber's own rate.
import { measureThroughput } from '../lib/throughput.mjs';

const TOPIC = 'jms.topic.bench';

export default {
  name: 'fan-out',
  repeated: true,
  async run(options) {
    const queues = Array.from({ length: options.subscribers }, (_, i) => `${TOPIC}.subscriber-${i}`);
    return [
      await measureThroughput({
        peer: 'ours',
        scenario: 'fan-out',
        server: 'broker.mjs',
        target: 'ours',
        messages: options.fanoutMessages,
        size: options.size,
        timeoutMs: options.timeout * 1000,
        subscribers: options.subscribers,
        brokerEnv: { BENCH_TOPIC: TOPIC, BENCH_SUBSCRIBERS: String(options.subscribers) },
        producerEnv: { BENCH_ADDRESS: TOPIC },
        consumerEnv: { BENCH_QUEUES: queues.join(',') },
        extra: { mode: 'np', confirmation_window: -1, subscriber_processes: 1 },
      }),
    ];
  },
};
