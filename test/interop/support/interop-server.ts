import type { Broker } from '../../../src';
import type { Permission } from '../../../src/server/security/permission';
import { freePort } from './free-port';
import type { InteropTlsFiles, ServerCertificate } from './interop-tls-files';
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
  /** A JMS queue's dead-letter queue (a JMS queue too), taking its messages after maxDeliveryAttempts deliveries. */
  deadLetters?: ReadonlyArray<{ queue: string; deadLetterQueue: string; maxDeliveryAttempts: number }>;
  /** connection-ttl-override in ms. */
  connectionTtlMs?: number;
  /** Persist to this directory (NIO journal); without it nothing survives a restart. */
  dataDir?: string;
  /** TLS acceptors beside the plain one, each on a port of its own; they need `tlsFiles`. */
  tlsAcceptors?: readonly TlsAcceptorOptions[];
  tlsFiles?: InteropTlsFiles;
  /** Security on, with these users and settings (HornetQ and ours); off without it. */
  security?: InteropSecurity;
}

/** Users (plain-text passwords) and security settings, as hornetq-users.xml and hornetq-configuration.xml give them. */
export interface InteropSecurity {
  users: ReadonlyArray<{ name: string; password: string; roles: readonly string[] }>;
  settings: ReadonlyArray<{ match: string; permissions: Partial<Record<Permission, readonly string[]>> }>;
}

/** A netty acceptor with ssl-enabled=true and a key store from the test's files. */
export interface TlsAcceptorOptions {
  name: string;
  certificate: ServerCertificate;
  /** need-client-auth: a client must present a certificate the test's CA signed. */
  needClientAuth: boolean;
  /** enabled-protocols, e.g. ['TLSv1.2']; the server's defaults when absent. */
  enabledProtocols?: readonly string[];
}

/** A TLS acceptor's files, whichever server reads them. */
export interface TlsAcceptorFiles {
  keyStorePath: string;
  keyStorePassword: string;
  /** With needClientAuth: the test's CA as PEM (ours) and as a PKCS#12 trust store (Java). */
  clientCa: { pem: string; pkcs12: string; pkcs12Password: string } | null;
}

export function tlsAcceptorFiles(
  acceptor: TlsAcceptorOptions,
  files: InteropTlsFiles | undefined,
): TlsAcceptorFiles {
  if (files === undefined)
    throw new Error(`TLS acceptor '${acceptor.name}' needs the server options' tlsFiles`);
  return {
    keyStorePath: files.serverKeyStores[acceptor.certificate],
    keyStorePassword: files.certs.password,
    clientCa: acceptor.needClientAuth
      ? { pem: files.certs.caPem, pkcs12: files.caTrustStore, pkcs12Password: files.certs.password }
      : null,
  };
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
    private readonly tlsPorts: ReadonlyMap<string, number>,
    private readonly options: ServerOptions,
  ) {}

  static async start(kind: ServerKind, options: ServerOptions = {}): Promise<InteropServer> {
    const tlsPorts = new Map<string, number>();
    for (const acceptor of options.tlsAcceptors ?? []) tlsPorts.set(acceptor.name, await freePort());
    const server = new InteropServer(kind, await freePort(), tlsPorts, options);
    await server.launch();
    return server;
  }

  /** The port of the TLS acceptor `name` (the same across restarts). */
  tlsPort(name: string): number {
    const port = this.tlsPorts.get(name);
    if (port === undefined) throw new Error(`${this.label} has no TLS acceptor '${name}'`);
    return port;
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
      this.broker = await startOurBroker(this.port, this.options, this.tlsPorts);
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
    const {
      queues = [],
      topics = [],
      limits = [],
      deadLetters = [],
      connectionTtlMs,
      dataDir,
    } = this.options;
    if (queues.length > 0) args.push('--queue', ...queues);
    if (topics.length > 0) args.push('--topic', ...topics);
    if (limits.length > 0)
      args.push('--limit', ...limits.map((l) => `${l.queue}:${l.maxSizeBytes}:${l.policy}`));
    if (deadLetters.length > 0)
      args.push(
        '--dead-letter',
        ...deadLetters.map((d) => `${d.queue}:${d.deadLetterQueue}:${d.maxDeliveryAttempts}`),
      );
    if (connectionTtlMs !== undefined) args.push('--connection-ttl', String(connectionTtlMs));
    if (dataDir !== undefined) args.push('--data', dataDir);
    const acceptors = (this.options.tlsAcceptors ?? []).map((acceptor) => this.acceptorWord(acceptor));
    if (acceptors.length > 0) args.push('--acceptor', ...acceptors);
    if (this.options.security !== undefined) args.push(...this.securityArguments(this.options.security));
    return args;
  }

  /** HqServer's --user and --security-setting words (interop.hornetq.HqSecurity). */
  private securityArguments({ users, settings }: InteropSecurity): string[] {
    if (this.kind !== 'hornetq') throw new Error(`the harness runs ${this.label} without security`);
    const userWords = users.map((user) =>
      pairsWord({ name: user.name, password: user.password, roles: user.roles.join(',') }),
    );
    const settingWords = settings.map((setting) =>
      pairsWord({
        match: setting.match,
        ...Object.fromEntries(
          Object.entries(setting.permissions).map(([name, roles]) => [name, roles.join(',')]),
        ),
      }),
    );
    return [
      ...(userWords.length > 0 ? ['--user', ...userWords] : []),
      ...(settingWords.length > 0 ? ['--security-setting', ...settingWords] : []),
    ];
  }

  /** A TLS acceptor as HqServer's and ArtemisServer's --acceptor take it (interop.common.AcceptorParams). */
  private acceptorWord(acceptor: TlsAcceptorOptions): string {
    const files = tlsAcceptorFiles(acceptor, this.options.tlsFiles);
    const params: Record<string, string> = {
      name: acceptor.name,
      port: String(this.tlsPort(acceptor.name)),
      'ssl-enabled': 'true',
      'key-store-path': files.keyStorePath,
      'key-store-password': files.keyStorePassword,
    };
    if (acceptor.enabledProtocols !== undefined)
      params['enabled-protocols'] = acceptor.enabledProtocols.join(',');
    if (files.clientCa !== null) {
      params['need-client-auth'] = 'true';
      params['trust-store-path'] = files.clientCa.pkcs12;
      params['trust-store-password'] = files.clientCa.pkcs12Password;
    }
    return pairsWord(params);
  }
}

/** name=value pairs joined by semicolons: one word of the harness's options (interop.common.Pairs). */
function pairsWord(pairs: Record<string, string>): string {
  return Object.entries(pairs)
    .map(([name, value]) => {
      if (/[;=]/.test(value)) throw new Error(`harness option ${name} cannot hold ';' or '=': ${value}`);
      return `${name}=${value}`;
    })
    .join(';');
}
