import type { Broker } from '../broker';
import type { Queue } from '../postoffice/queue';
import { ExpositionWriter, formatLabels } from './exposition-writer';

/**
 * Connections exposed one by one in hornetq_connection_pending_output_bytes, those with the most
 * pending first. The broker has no limit on connections of its own (the process' file descriptors
 * are what bounds them), so the series are bounded here; the total over all connections is
 * hornetq_pending_output_bytes.
 */
export const MAX_CONNECTION_SERIES = 500;

const JMS_QUEUE_PREFIX = 'jms.queue.';
const JMS_TEMP_QUEUE_PREFIX = 'jms.tempqueue.';
const JMS_TOPIC_PREFIX = 'jms.topic.';

/**
 * The JMS destination a core queue serves: `X` for jms.queue.X (and a temporary queue), the topic
 * for a subscription of jms.topic.T; '' (no JMS name, which Prometheus reads as absent) otherwise.
 */
export function jmsNameOf(queue: { readonly name: string; readonly address: string }): string {
  if (queue.name.startsWith(JMS_QUEUE_PREFIX)) return queue.name.slice(JMS_QUEUE_PREFIX.length);
  if (queue.name.startsWith(JMS_TEMP_QUEUE_PREFIX)) return queue.name.slice(JMS_TEMP_QUEUE_PREFIX.length);
  if (queue.address.startsWith(JMS_TOPIC_PREFIX)) return queue.address.slice(JMS_TOPIC_PREFIX.length);
  return '';
}

interface QueueFamily {
  name: string;
  type: 'counter' | 'gauge';
  help: string;
  value: (queue: Queue) => number;
}

const QUEUE_FAMILIES: readonly QueueFamily[] = [
  {
    name: 'hornetq_queue_messages',
    type: 'gauge',
    help: 'Messages in the queue: waiting, scheduled, paged, and delivered but not yet acknowledged.',
    value: (queue) => queue.messageCount,
  },
  {
    name: 'hornetq_queue_delivering_messages',
    type: 'gauge',
    help: 'Messages delivered to consumers (in flight or in their buffers) and not yet acknowledged.',
    value: (queue) => queue.deliveringCount,
  },
  {
    name: 'hornetq_queue_scheduled_messages',
    type: 'gauge',
    help: 'Messages waiting for their scheduled delivery time or redelivery delay.',
    value: (queue) => queue.scheduledCount,
  },
  {
    name: 'hornetq_queue_consumers',
    type: 'gauge',
    help: 'Consumers (and browsers) on the queue.',
    value: (queue) => queue.consumerCount,
  },
  {
    name: 'hornetq_queue_messages_added_total',
    type: 'counter',
    help: 'Messages added to the queue since the broker started.',
    value: (queue) => queue.messagesAdded,
  },
  {
    name: 'hornetq_queue_messages_acknowledged_total',
    type: 'counter',
    help: 'Messages acknowledged by consumers (or replaced in a last-value queue) since the broker started.',
    value: (queue) => queue.messagesAcknowledged,
  },
  {
    name: 'hornetq_queue_messages_expired_total',
    type: 'counter',
    help: 'Messages that expired in the queue since the broker started.',
    value: (queue) => queue.messagesExpired,
  },
  {
    name: 'hornetq_queue_messages_killed_total',
    type: 'counter',
    help: 'Messages given up on after max-delivery-attempts (sent to the dead-letter address or dropped) since the broker started.',
    value: (queue) => queue.messagesKilled,
  },
];

/**
 * Everything the broker exposes, read from its live state at the moment of the scrape (counters
 * are plain numbers kept where the events happen). A broker that is not started has no queues or
 * connections to show: only hornetq_broker_started 0 and the process metrics.
 */
export function writeBrokerMetrics(broker: Broker | null, writer = new ExpositionWriter()): ExpositionWriter {
  const started = broker?.started === true;
  writer.single(
    'hornetq_broker_started',
    'gauge',
    'Whether the broker is started (1) or not (0: starting, stopping or stopped).',
    started ? 1 : 0,
  );
  if (broker !== null && started) {
    writeQueues(broker, writer);
    writeConnections(broker, writer);
    writeJournal(broker, writer);
  }
  writeProcess(writer);
  return writer;
}

/** One pass makes each queue's labels; each family then walks the queues again (the format groups by family). */
function writeQueues(broker: Broker, writer: ExpositionWriter): void {
  const queues = broker.postOffice.allQueues();
  const labels = queues.map((queue) =>
    formatLabels({ queue: queue.name, address: queue.address, jms_name: jmsNameOf(queue) }),
  );
  writer.single(
    'hornetq_queues',
    'gauge',
    'Queues on the broker (durable, non-durable and temporary).',
    queues.length,
  );
  for (const family of QUEUE_FAMILIES) {
    writer.family(family.name, family.type, family.help);
    for (let i = 0; i < queues.length; i++) writer.sample(family.value(queues[i] as Queue), labels[i]);
  }
}

function writeConnections(broker: Broker, writer: ExpositionWriter): void {
  writer.single(
    'hornetq_connections',
    'gauge',
    'Client connections open on the broker.',
    broker.getConnectionCount(),
  );
  writer.single(
    'hornetq_sessions',
    'gauge',
    'Sessions on the broker, including detached ones waiting for their client to reattach.',
    broker.getSessionCount(),
  );
  writer.single(
    'hornetq_session_reattaches_total',
    'counter',
    'Sessions a client reattached to a new connection after a connection failure.',
    broker.reattachCount,
  );
  writer.single(
    'hornetq_failed_logins_total',
    'counter',
    'Logins refused for an unknown user or a wrong password.',
    broker.security.failedLogins,
  );
  const connections = broker.listConnections();
  let total = 0;
  for (const connection of connections) total += connection.pendingOutputBytes;
  writer.single(
    'hornetq_pending_output_bytes',
    'gauge',
    'Bytes the broker has written to all its connections that their clients have not taken yet.',
    total,
  );
  const shown =
    connections.length <= MAX_CONNECTION_SERIES
      ? connections
      : [...connections]
          .sort((a, b) => b.pendingOutputBytes - a.pendingOutputBytes)
          .slice(0, MAX_CONNECTION_SERIES);
  writer.family(
    'hornetq_connection_pending_output_bytes',
    'gauge',
    `Bytes written to a connection that its client has not taken yet (queued by the broker and in the socket's buffer); the ${MAX_CONNECTION_SERIES} connections with the most when there are more.`,
  );
  for (const connection of shown) {
    writer.sample(
      connection.pendingOutputBytes,
      formatLabels({ connection: String(connection.id), remote_address: connection.remoteAddress }),
    );
  }
}

function writeJournal(broker: Broker, writer: ExpositionWriter): void {
  const syncs = broker.journalSyncs;
  if (syncs === null) return;
  writer.family(
    'hornetq_journal_sync_seconds',
    'histogram',
    'Time each group commit of a journal spent in fdatasync.',
  );
  writer.histogram(syncs.bindings.snapshot(), { journal: 'bindings' });
  writer.histogram(syncs.messages.snapshot(), { journal: 'messages' });
}

function writeProcess(writer: ExpositionWriter): void {
  writer.single(
    'process_resident_memory_bytes',
    'gauge',
    'Resident memory size in bytes.',
    process.memoryUsage.rss(),
  );
  const cpu = process.cpuUsage();
  writer.single(
    'process_cpu_seconds_total',
    'counter',
    'User and system CPU time spent, in seconds.',
    (cpu.user + cpu.system) / 1e6,
  );
}
