import { Counter, Gauge, Registry } from 'prom-client';
import type { Broker, ConnectionStatistics } from '../broker';
import type { Queue } from '../postoffice/queue';
import { DefaultMetrics } from './default-metrics';
import { EventLoopDelay } from './event-loop-delay';

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

type QueueLabel = 'queue' | 'address' | 'jms_name';
const QUEUE_LABELS: readonly QueueLabel[] = ['queue', 'address', 'jms_name'];
type ConnectionLabel = 'connection' | 'remote_address';

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

/** A queue and its labels, made once per scrape and shared by the queue families. */
interface LabelledQueue {
  readonly queue: Queue;
  readonly labels: Readonly<Record<QueueLabel, string>>;
}

/** The started broker a scrape reads, taken once at its beginning so that every family agrees. */
interface ScrapeView {
  readonly broker: Broker;
  readonly queues: readonly LabelledQueue[];
  readonly connections: readonly ConnectionStatistics[];
}

/**
 * Everything exposed for one broker, on a prom-client Registry of its own (never prom-client's
 * global one, so that two brokers in one process do not mix or collide): the broker's families,
 * read from its live state at each scrape (counters are plain numbers kept where the events happen),
 * prom-client's default process metrics and the event loop delay.
 *
 * The broker is asked of `source` at each scrape, so one that EmbeddedJMS replaces at each start
 * is followed. A broker that is not started has no queues or connections to show: its families
 * leave the registry until it is, and only hornetq_broker_started 0 and the process metrics remain.
 * close() ends the event loop monitor and the GC observer; nothing else runs between scrapes.
 */
export class BrokerMetrics {
  /** What every scrape shows: whether the broker is started, the process, the event loop. */
  private readonly registry = new Registry();
  /** The broker's own families, shown (merged in) only while a started broker is scraped. */
  private readonly brokerFamilies = new Registry();
  private readonly started: Gauge;
  private readonly defaults: DefaultMetrics;
  private readonly eventLoop: EventLoopDelay;
  private view: ScrapeView | null = null;
  private closed = false;

  constructor(private readonly source: () => Broker | null) {
    this.started = new Gauge({
      name: 'hornetq_broker_started',
      help: 'Whether the broker is started (1) or not (0: starting, stopping or stopped).',
      registers: [this.registry],
    });
    this.registerQueueFamilies();
    this.registerConnectionFamilies();
    this.registerOutputFamilies();
    this.defaults = new DefaultMetrics(this.registry);
    this.eventLoop = new EventLoopDelay(this.registry);
  }

  /** The Prometheus text exposition of the broker as it is now. */
  async scrape(): Promise<string> {
    if (this.closed) throw new Error('these broker metrics are closed');
    const broker = this.source();
    this.view = broker?.started === true ? viewOf(broker) : null;
    this.started.set(this.view === null ? 0 : 1);
    this.eventLoop.sample();
    try {
      return await this.shown(this.view?.broker ?? null).metrics();
    } finally {
      this.view = null;
    }
  }

  /** Ends what runs in the background (the event loop monitor, the GC observer) and empties the registry. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.eventLoop.stop();
    this.defaults.release();
    this.registry.clear();
    this.brokerFamilies.clear();
  }

  /** The registry a scrape reads: a merged one (made per scrape, cheap: it copies references) while started. */
  private shown(broker: Broker | null): Registry {
    if (broker === null) return this.registry;
    const shown = Registry.merge([this.registry, this.brokerFamilies]);
    // Each broker has its own histogram, observed by its journal; absent without one.
    if (broker.journalSyncs !== null) shown.registerMetric(broker.journalSyncs);
    return shown;
  }

  private registerQueueFamilies(): void {
    const registers = [this.brokerFamilies];
    const queues = (): readonly LabelledQueue[] => this.view?.queues ?? [];
    new Gauge({
      name: 'hornetq_queues',
      help: 'Queues on the broker (durable, non-durable and temporary).',
      registers,
      collect() {
        this.set(queues().length);
      },
    });
    for (const family of QUEUE_FAMILIES) {
      const config = { name: family.name, help: family.help, labelNames: QUEUE_LABELS, registers };
      if (family.type === 'gauge') {
        new Gauge<QueueLabel>({
          ...config,
          collect() {
            this.reset();
            for (const { queue, labels } of queues()) this.set(labels, family.value(queue));
          },
        });
        continue;
      }
      new Counter<QueueLabel>({
        ...config,
        collect() {
          this.reset();
          for (const { queue, labels } of queues()) this.inc(labels, family.value(queue));
        },
      });
    }
  }

  private registerConnectionFamilies(): void {
    const registers = [this.brokerFamilies];
    const read = (value: (broker: Broker) => number) => (): number =>
      this.view === null ? 0 : value(this.view.broker);
    gauge(
      registers,
      'hornetq_connections',
      'Client connections open on the broker.',
      read((b) => b.getConnectionCount()),
    );
    gauge(
      registers,
      'hornetq_sessions',
      'Sessions on the broker, including detached ones waiting for their client to reattach.',
      read((b) => b.getSessionCount()),
    );
    counter(
      registers,
      'hornetq_session_reattaches_total',
      'Sessions a client reattached to a new connection after a connection failure.',
      read((b) => b.reattachCount),
    );
    counter(
      registers,
      'hornetq_failed_logins_total',
      'Logins refused for an unknown user or a wrong password.',
      read((b) => b.security.failedLogins),
    );
  }

  private registerOutputFamilies(): void {
    const registers = [this.brokerFamilies];
    const connections = (): readonly ConnectionStatistics[] => this.view?.connections ?? [];
    gauge(
      registers,
      'hornetq_pending_output_bytes',
      'Bytes the broker has written to all its connections that their clients have not taken yet.',
      () => connections().reduce((sum, connection) => sum + connection.pendingOutputBytes, 0),
    );
    new Gauge<ConnectionLabel>({
      name: 'hornetq_connection_pending_output_bytes',
      help: `Bytes written to a connection that its client has not taken yet (queued by the broker and in the socket's buffer); the ${MAX_CONNECTION_SERIES} connections with the most when there are more.`,
      labelNames: ['connection', 'remote_address'],
      registers,
      collect() {
        this.reset();
        for (const connection of mostPending(connections())) {
          this.set(
            { connection: String(connection.id), remote_address: connection.remoteAddress },
            connection.pendingOutputBytes,
          );
        }
      },
    });
  }
}

function viewOf(broker: Broker): ScrapeView {
  const queues = broker.postOffice.allQueues().map((queue) => ({
    queue,
    labels: { queue: queue.name, address: queue.address, jms_name: jmsNameOf(queue) },
  }));
  return { broker, queues, connections: broker.listConnections() };
}

/** At most MAX_CONNECTION_SERIES connections, those with the most pending output. */
function mostPending(connections: readonly ConnectionStatistics[]): readonly ConnectionStatistics[] {
  if (connections.length <= MAX_CONNECTION_SERIES) return connections;
  return [...connections]
    .sort((a, b) => b.pendingOutputBytes - a.pendingOutputBytes)
    .slice(0, MAX_CONNECTION_SERIES);
}

/** An unlabelled gauge, set from `read` at each scrape. */
function gauge(registers: Registry[], name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers,
    collect() {
      this.set(read());
    },
  });
}

/** An unlabelled counter, set to the count `read` gives at each scrape. */
function counter(registers: Registry[], name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers,
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}
