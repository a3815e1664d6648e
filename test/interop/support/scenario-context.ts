import {
  HornetQConnectionFactory,
  Session,
  type HornetQConnection,
  type HornetQSession,
  type Message,
  type TextMessage,
} from '../../../src';
import { FaultProxy } from '../../support/fault-proxy';
import type { InteropServer, ServerKind, ServerOptions } from './interop-server';
import type { InteropTlsFiles } from './interop-tls-files';
import type { DestinationRef, JmsDriver } from './jms-driver';

/** How long a scenario waits for one message: generous, for a loaded 2-core machine. */
export const RECEIVE_MS = 20_000;
/** How long a scenario waits to be sure that a message does not come. */
export const NOTHING_MORE_MS = 500;

/**
 * What every group of server scenarios gets from describeServerScenarios: the one real server and
 * HornetQ Java JMS client driver of the file, and our client's connections to it, closed after
 * the file (as are the fault proxies it starts).
 */
export interface ScenarioContext {
  readonly kind: ServerKind;
  server(): InteropServer;
  java(): JmsDriver;
  /** The certificates and stores the server's TLS acceptors were started with. */
  tlsFiles(): InteropTlsFiles;
  /** A started connection of our client, to the server or to `port` (a proxy's). */
  nodeConnection(
    port?: number,
    configure?: (factory: HornetQConnectionFactory) => void,
  ): Promise<HornetQConnection>;
  /** A session (AUTO_ACKNOWLEDGE unless told) of our client on a new started connection to the server. */
  nodeSession(mode?: number): Promise<HornetQSession>;
  /** A connection of our client that the file closes, not yet started (to set a client id first). */
  track(connection: HornetQConnection): HornetQConnection;
  /** A started connection of HornetQ's Java client, and one AUTO_ACKNOWLEDGE session on it. */
  javaSession(): Promise<string>;
  /** A fault proxy in front of the server, closed after the file. */
  faultProxy(): Promise<FaultProxy>;
}

/** A group of scenarios and the destinations its server must have. */
export interface ScenarioGroup {
  readonly server: Pick<ServerOptions, 'queues' | 'topics' | 'limits' | 'tlsAcceptors'>;
  define(context: ScenarioContext): void;
}

export function queueRef(name: string): DestinationRef {
  return { type: 'queue', name };
}

export function topicRef(name: string): DestinationRef {
  return { type: 'topic', name };
}

/** The text of a TextMessage; fails on no message or another kind. */
export function textOf(message: Message | null): string | null {
  if (message === null) throw new Error('expected a message, got none');
  const text = message as Partial<TextMessage>;
  if (typeof text.getText !== 'function') throw new Error('expected a TextMessage');
  return text.getText();
}

/** The context of one file's scenarios; `close` ends every connection and proxy it made. */
export function createScenarioContext(
  kind: ServerKind,
  running: () => { server: InteropServer; driver: JmsDriver; tlsFiles: InteropTlsFiles },
): ScenarioContext & { close(): Promise<void> } {
  const connections: HornetQConnection[] = [];
  const proxies: FaultProxy[] = [];
  const track = (connection: HornetQConnection): HornetQConnection => {
    connections.push(connection);
    return connection;
  };
  const context: ScenarioContext & { close(): Promise<void> } = {
    kind,
    server: () => running().server,
    java: () => running().driver,
    tlsFiles: () => running().tlsFiles,
    track,
    async nodeConnection(port = running().server.port, configure) {
      const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port });
      configure?.(factory);
      const connection = track(await factory.createConnection());
      await connection.start();
      return connection;
    },
    async nodeSession(mode = Session.AUTO_ACKNOWLEDGE) {
      const connection = await context.nodeConnection();
      return connection.createSession(mode === Session.SESSION_TRANSACTED, mode);
    },
    async javaSession() {
      const java = running().driver;
      const connection = await java.connect({ port: running().server.port });
      await java.start(connection);
      return java.createSession(connection);
    },
    async faultProxy() {
      const proxy = await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: running().server.port });
      proxies.push(proxy);
      return proxy;
    },
    async close() {
      await Promise.allSettled(connections.map((connection) => connection.close()));
      await Promise.allSettled(proxies.map((proxy) => proxy.close()));
    },
  };
  return context;
}
