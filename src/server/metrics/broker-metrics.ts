import { Counter, Gauge, Registry } from 'prom-client';
import type { Broker, ConnectionStatistics } from '../broker';
import type { Queue } from '../postoffice/queue';
import { DefaultMetrics } from './default-metrics';
import { EventLoopDelay } from './event-loop-delay';
import { writeQueueFamilies } from './queue-families';

/**
 * Connections exposed one by one in hornetq_connection_pending_output_bytes, those with the most
 * pending first. The broker has no limit on connections of its own (the process' file descriptors
 * are what bounds them), so the series are bounded here; the total over all connections is
 * hornetq_pending_output_bytes.
 */
export const MAX_CONNECTION_SERIES = 500;

type ConnectionLabel = 'connection' | 'remote_address';

/** The started broker a scrape reads, taken once at its beginning so that every family agrees. */
interface ScrapeView {
  readonly broker: Broker;
  readonly queues: readonly Queue[];
  readonly connections: readonly ConnectionStatistics[];
}

/**
 * Everything exposed for one broker, on a prom-client Registry of its own (never prom-client's
 * global one, so that two brokers in one process do not mix or collide): the broker's families,
 * read from its live state at each scrape (counters are plain numbers kept where the events happen),
 * prom-client's default process metrics and the event loop delay. The per-queue families are
 * written after the registry's text by writeQueueFamilies (see there why).
 *
 * The broker is asked of `source` at each scrape, so one that EmbeddedJMS replaces at each start
 * is followed. A broker that is not started has no queues or connections to show: its families
 * are left out until it is, and only hornetq_broker_started 0 and the process metrics remain.
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
    this.registerQueueCount();
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
      const registered = await this.shown(this.view?.broker ?? null).metrics();
      return this.view === null ? registered : registered + writeQueueFamilies(this.view.queues);
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

  private registerQueueCount(): void {
    gauge(
      [this.brokerFamilies],
      'hornetq_queues',
      'Queues on the broker (durable, non-durable and temporary).',
      () => this.view?.queues.length ?? 0,
    );
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
  return { broker, queues: broker.postOffice.allQueues(), connections: broker.listConnections() };
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
