import { DEFAULT_MAX_FRAME_BYTES, DEFAULT_PRE_AUTH_MAX_FRAME_BYTES } from '../core/protocol';
import type { Logger } from '../core/remoting';
import { validateAddressSettings, type AddressSettings } from './postoffice/address-settings';
import type { AcceptorFactory } from './remoting/acceptor';
import type { StorageManager } from './storage/storage-manager';

export interface TcpAcceptorConfiguration {
  name: string;
  type: 'tcp';
  host: string;
  /** 0 picks a free port (tests); Broker.getPort tells which. */
  port: number;
}

export interface InVmAcceptorConfiguration {
  name: string;
  type: 'invm';
  serverId: number;
}

export type AcceptorConfiguration = TcpAcceptorConfiguration | InVmAcceptorConfiguration;

export interface CoreQueueConfiguration {
  name: string;
  address: string;
  filter: string | null;
  durable: boolean;
}

export interface BrokerConfiguration {
  acceptors: AcceptorConfiguration[];
  /** Address settings by match ('#', 'jms.queue.*', …), merged most specific last. */
  addressSettings: Record<string, Partial<AddressSettings>>;
  /** Queues created at start if they do not exist yet. */
  queues: CoreQueueConfiguration[];
  /** If not -1, the TTL for every connection, whatever clients ask for (ms). */
  connectionTtlOverride: number;
  /** TTL of a TCP connection until its client's first ping says otherwise (ms). */
  defaultConnectionTtl: number;
  /** How often connections are checked against their TTL and confirmations flushed (ms). */
  connectionTtlCheckInterval: number;
  maxFrameBytes: number;
  /** Ours: the largest body a large message may have; it is assembled in memory. */
  maxLargeMessageBytes: number;
  /** Frame cap until a session is authenticated: the unauthenticated surface stays small. */
  preAuthMaxFrameBytes: number;
  /** Ms between scans for expired messages; -1 turns the scan off (message-expiry-scan-period). */
  messageExpiryScanPeriod: number;
  /** Duplicate-detection ids each address remembers (id-cache-size). */
  idCacheSize: number;
  /** Keep the duplicate-id caches in storage so that they survive a restart (persist-id-cache). */
  persistIdCache: boolean;
  /** Where durable state lives; an in-memory store when absent. */
  storage?: StorageManager;
  logger?: Logger;
  /** How each of `acceptors` is made; TCP and in-VM (`defaultAcceptorFactory`) when absent. */
  acceptorFactory?: AcceptorFactory;
}

/** HornetQ's defaults where HornetQ has one. */
export const DEFAULT_BROKER_CONFIGURATION: BrokerConfiguration = {
  acceptors: [{ name: 'netty', type: 'tcp', host: 'localhost', port: 5445 }],
  addressSettings: {},
  queues: [],
  connectionTtlOverride: -1,
  defaultConnectionTtl: 60_000,
  connectionTtlCheckInterval: 2000,
  maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
  maxLargeMessageBytes: 100 * 1024 * 1024,
  preAuthMaxFrameBytes: DEFAULT_PRE_AUTH_MAX_FRAME_BYTES,
  messageExpiryScanPeriod: 30_000,
  idCacheSize: 20_000,
  persistIdCache: true,
};

/** Node fires a longer timer after 1 ms, so no period may exceed it. */
const MAX_TIMER_MS = 2_147_483_647;

/** Checks values at construction, naming the setting, the value and what is allowed. */
export function validateBrokerConfiguration(config: BrokerConfiguration): void {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const acceptor of config.acceptors) {
    if (names.has(acceptor.name)) problems.push(`acceptor name '${acceptor.name}' is used twice`);
    names.add(acceptor.name);
    if (
      acceptor.type === 'tcp' &&
      (!Number.isInteger(acceptor.port) || acceptor.port < 0 || acceptor.port > 65535)
    ) {
      problems.push(
        `acceptor '${acceptor.name}': port must be an integer in 0..65535 (actual value: ${acceptor.port})`,
      );
    }
    if (acceptor.type === 'invm' && (!Number.isInteger(acceptor.serverId) || acceptor.serverId < 0)) {
      problems.push(
        `acceptor '${acceptor.name}': server-id must be an integer >= 0 (actual value: ${acceptor.serverId})`,
      );
    }
  }
  if (!(config.connectionTtlCheckInterval > 0)) {
    problems.push(
      `connection-ttl-check-interval must be > 0 (actual value: ${config.connectionTtlCheckInterval})`,
    );
  }
  if (config.connectionTtlOverride !== -1 && !(config.connectionTtlOverride > 0)) {
    problems.push(
      `connection-ttl-override must be -1 or > 0 (actual value: ${config.connectionTtlOverride})`,
    );
  }
  if (!(Number.isSafeInteger(config.maxLargeMessageBytes) && config.maxLargeMessageBytes > 0)) {
    problems.push(
      `maxLargeMessageBytes must be an integer > 0 (actual value: ${config.maxLargeMessageBytes})`,
    );
  }
  if (!(config.preAuthMaxFrameBytes >= 1024 && config.preAuthMaxFrameBytes <= config.maxFrameBytes)) {
    problems.push(
      `preAuthMaxFrameBytes must be between 1024 and maxFrameBytes (${config.maxFrameBytes}) (actual value: ${config.preAuthMaxFrameBytes})`,
    );
  }
  problems.push(...messagingProblems(config));
  if (problems.length > 0) throw new RangeError(`invalid broker configuration: ${problems.join('; ')}`);
}

/** The expiry scan, the duplicate-id cache and every address-settings match. */
function messagingProblems(config: BrokerConfiguration): string[] {
  const problems: string[] = [];
  const period = config.messageExpiryScanPeriod;
  if (!(period === -1 || (Number.isInteger(period) && period >= 1 && period <= MAX_TIMER_MS))) {
    problems.push(
      `messageExpiryScanPeriod (message-expiry-scan-period) must be -1 (off) or an integer in 1..${MAX_TIMER_MS} ms (actual value: ${period})`,
    );
  }
  if (!(
    Number.isInteger(config.idCacheSize) &&
    config.idCacheSize >= 1 &&
    config.idCacheSize <= MAX_TIMER_MS
  )) {
    problems.push(
      `idCacheSize (id-cache-size) must be an integer in 1..${MAX_TIMER_MS} (actual value: ${config.idCacheSize})`,
    );
  }
  if (typeof config.persistIdCache !== 'boolean') {
    problems.push(
      `persistIdCache (persist-id-cache) must be true or false (actual value: ${String(config.persistIdCache)})`,
    );
  }
  for (const [match, settings] of Object.entries(config.addressSettings)) {
    try {
      validateAddressSettings(match, settings);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return problems;
}
