import { freePort } from './free-port';
import { JavaProcess } from './java-process';

/** Which real server: HornetQ 2.4.7 (embedded EmbeddedJMS) or Artemis 2.40.0 (its HORNETQ acceptor). */
export type ServerKind = 'hornetq' | 'artemis';

export const SERVER_VERSIONS: Record<ServerKind, string> = {
  hornetq: 'HornetQ 2.4.7.Final',
  artemis: 'ActiveMQ Artemis 2.40.0',
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

const MAIN_CLASS: Record<ServerKind, { module: 'hornetq' | 'artemis'; mainClass: string }> = {
  hornetq: { module: 'hornetq', mainClass: 'interop.hornetq.HqServer' },
  artemis: { module: 'artemis', mainClass: 'interop.artemis.ArtemisServer' },
};

/**
 * A real HornetQ or Artemis server on 127.0.0.1, on a port picked here; `restart` brings up a new
 * process on the same port with the same options (a server restart, for re-creation scenarios).
 */
export class InteropServer {
  private process: JavaProcess | null = null;
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
    const running = this.process;
    this.process = null;
    if (running !== null) await running.stop();
  }

  /** Stops (or, with `crash`, kills) the server and starts it again on the same port. */
  async restart(crash = false): Promise<void> {
    const running = this.process;
    this.process = null;
    if (running !== null) await (crash ? running.kill() : running.stop());
    await this.launch();
  }

  private async launch(): Promise<void> {
    const started = Date.now();
    const { module, mainClass } = MAIN_CLASS[this.kind];
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
    this.lastStartMs = Date.now() - started;
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
