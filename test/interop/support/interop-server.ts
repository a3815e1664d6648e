import type { Broker } from '../../../src';
import { freePort } from './free-port';
import { JavaProcess } from './java-process';
import { startOurBroker } from './our-interop-broker';

/**
 * Which server: HornetQ 2.4.7 (embedded EmbeddedJMS), Artemis 2.40.0 (its HORNETQ acceptor), or
 * ours (our Broker, in the test's process, with the destinations laid out as HornetQ's JMS server does).
 */
export type ServerKind = 'hornetq' | 'artemis' | 'ours';

export const SERVER_VERSIONS: Record<ServerKind, string> = {
  hornetq: 'HornetQ 2.4.7.Final',
  artemis: 'ActiveMQ Artemis 2.40.0',
  ours: 'our broker (hornetq-js)',
};

/** A server JVM starts in seconds; a shared 2-core machine under load may take far longer. */
const READY_TIMEOUT_MS = 120_000;

export interface ServerOptions {
  /** JMS queue names (HornetQ: core queue jms.queue.NAME; Artemis: anycast NAME). */
  queues?: readonly string[];
  /** JMS topic names. */
  topics?: readonly string[];
  /** max-size-bytes and the address-full policy of a JMS queue's address. */
  limits?: ReadonlyArray<{ queue: string; maxSizeBytes: number; policy: 'BLOCK' | 'FAIL' | 'DROP' | 'PAGE' }>;
  /** connection-ttl-override in ms. */
  connectionTtlMs?: number;
  /** Persist to this directory (NIO journal); without it nothing survives a restart. */
  dataDir?: string;
}

const MAIN_CLASS: Record<
  Exclude<ServerKind, 'ours'>,
  { module: 'hornetq' | 'artemis'; mainClass: string }
> = {
  hornetq: { module: 'hornetq', mainClass: 'interop.hornetq.HqServer' },
  artemis: { module: 'artemis', mainClass: 'interop.artemis.ArtemisServer' },
};

/**
 * A real HornetQ or Artemis server on 127.0.0.1, on a port picked here; `restart` brings up a new
 * process on the same port with the same options (a server restart, for re-creation scenarios).
 */
export class InteropServer {
  private process: JavaProcess | null = null;
  private broker: Broker | null = null;
  private node = '';
  private lastStartMs = 0;

  private constructor(
    readonly kind: ServerKind,
    readonly port: number,
    private readonly options: ServerOptions,
  ) {}

  static async start(kind: ServerKind, options: ServerOptions = {}): Promise<InteropServer> {
    const server = new InteropServer(kind, await freePort(), options);
    await server.launch();
    return server;
  }

  /** The server's node id, as its READY line and its topology answer name it. */
  get nodeId(): string {
    return this.node;
  }

  /** How long the last start took, from spawn to READY. */
  get startupMs(): number {
    return this.lastStartMs;
  }

  get label(): string {
    return `${SERVER_VERSIONS[this.kind]} on 127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    await this.halt(false);
  }

  /**
   * Stops (or, with `crash`, kills) the server and starts it again on the same port. Our broker
   * runs in the test's process and cannot be killed: a crash is a stop there.
   */
  async restart(crash = false): Promise<void> {
    await this.halt(crash);
    await this.launch();
  }

  private async halt(crash: boolean): Promise<void> {
    const running = this.process;
    const broker = this.broker;
    this.process = null;
    this.broker = null;
    if (running !== null) await (crash ? running.kill() : running.stop());
    if (broker !== null) await broker.stop();
  }

  private async launch(): Promise<void> {
    const started = Date.now();
    if (this.kind === 'ours') {
      this.broker = await startOurBroker(this.port, this.options);
      this.node = this.broker.nodeId;
    } else {
      await this.launchJava(this.kind);
    }
    this.lastStartMs = Date.now() - started;
  }

  private async launchJava(kind: Exclude<ServerKind, 'ours'>): Promise<void> {
    const { module, mainClass } = MAIN_CLASS[kind];
    const process = JavaProcess.start({ module, mainClass, args: this.arguments(), label: this.label });
    this.process = process;
    try {
      const ready = await process.waitForLine(
        (line) => line.startsWith('READY '),
        'READY line',
        READY_TIMEOUT_MS,
      );
      this.node = ready.split(' ')[2] ?? '';
    } catch (error) {
      this.process = null;
      await process.stop();
      throw error;
    }
  }

  private arguments(): string[] {
    const args = ['--port', String(this.port)];
    const { queues = [], topics = [], limits = [], connectionTtlMs, dataDir } = this.options;
    if (queues.length > 0) args.push('--queue', ...queues);
    if (topics.length > 0) args.push('--topic', ...topics);
    if (limits.length > 0)
      args.push('--limit', ...limits.map((l) => `${l.queue}:${l.maxSizeBytes}:${l.policy}`));
    if (connectionTtlMs !== undefined) args.push('--connection-ttl', String(connectionTtlMs));
    if (dataDir !== undefined) args.push('--data', dataDir);
    return args;
  }
}
