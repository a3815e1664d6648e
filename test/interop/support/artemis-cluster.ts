import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePorts } from './free-port';
import { HaServerProcess } from './ha-server-process';

export interface ClusterOptions {
  /** How many live servers (default 2). */
  nodes?: number;
  /** JMS queues on every node (anycast NAME; a HornetQ client's jms.queue.NAME). */
  queues?: readonly string[];
  topics?: readonly string[];
  connectionTtlMs?: number;
}

/** JVM starts side by side on a loaded 2-core machine, then the cluster bridges forming. */
const START_TIMEOUT_MS = 180_000;

/**
 * Live Artemis 2.40.0 servers (no backups) on 127.0.0.1, clustered over static connectors, each
 * with the HORNETQ acceptor HornetQ 2.4 clients connect to; each a process of its own, with its
 * data in a temporary directory removed by stop(). start() resolves once every node serves and
 * sees every other one in its cluster connection's topology.
 */
export class ArtemisCluster {
  private readonly servers: Array<HaServerProcess | null>;
  /** Spawn of the nodes to every node serving and seeing the whole cluster, in ms. */
  startupMs = 0;

  private constructor(
    readonly ports: readonly number[],
    private readonly dataDir: string,
    private readonly options: ClusterOptions,
  ) {
    this.servers = ports.map(() => null);
  }

  static async start(options: ClusterOptions = {}): Promise<ArtemisCluster> {
    const nodes = options.nodes ?? 2;
    if (!Number.isInteger(nodes) || nodes < 2)
      throw new Error(`a cluster needs 2 or more nodes, got ${nodes}`);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'artemis-cluster-'));
    const ports = await freePorts(nodes);
    const cluster = new ArtemisCluster(ports, dataDir, options);
    try {
      const started = Date.now();
      for (let i = 0; i < nodes; i++) cluster.spawn(i);
      await Promise.all(
        cluster.servers.map((server) =>
          server!.waitFor(
            (state) => state.role === 'live' && state.liveMembers === nodes,
            `the node serving and seeing ${nodes} members`,
            START_TIMEOUT_MS,
          ),
        ),
      );
      cluster.startupMs = Date.now() - started;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** Each node's id, as it reported it once serving, in the order of `ports`. */
  get nodeIds(): string[] {
    return this.servers.map((server) => server?.state.nodeId ?? '');
  }

  /** Node `index`'s process (null once killed). */
  node(index: number): HaServerProcess | null {
    return this.servers[index] ?? null;
  }

  /** kill -9 of node `index`; resolves once it has exited. */
  async kill(index: number): Promise<void> {
    const server = this.servers[index];
    this.servers[index] = null;
    await server?.kill();
  }

  /** Stops every node and removes the data; never throws. */
  async stop(): Promise<void> {
    const running = this.servers.filter((server): server is HaServerProcess => server !== null);
    this.servers.fill(null);
    await Promise.all(running.map((server) => server.stop()));
    await rm(this.dataDir, { recursive: true, force: true });
  }

  private spawn(index: number): void {
    const port = this.ports[index]!;
    const { queues = [], topics = [], connectionTtlMs } = this.options;
    const args = [
      '--ha',
      'cluster',
      '--port',
      String(port),
      '--peer-port',
      ...this.ports.filter((other) => other !== port).map(String),
      '--data',
      path.join(this.dataDir, `node-${index}`),
    ];
    if (queues.length > 0) args.push('--queue', ...queues);
    if (topics.length > 0) args.push('--topic', ...topics);
    if (connectionTtlMs !== undefined) args.push('--connection-ttl', String(connectionTtlMs));
    this.servers[index] = HaServerProcess.start({
      module: 'artemis',
      mainClass: 'interop.artemis.ArtemisHaServer',
      args,
      label: `Artemis 2.40.0 cluster node ${index} on 127.0.0.1:${port}`,
    });
  }
}
