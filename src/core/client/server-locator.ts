import { HornetQException } from '../protocol';
import type { AbortOptions } from './abortable';
import { connectorForEndpoint, sameServer } from './announced-connector';
import { resolveClientOptions, type ClientOptions } from './client-options';
import { ClientSessionFactory } from './client-session-factory';
import { describeConnector, type TransportConfiguration } from './connector';
import { CONNECT_FAILURE_CODES, connectFailureCode } from './retry-schedule';
import { loadBalancingPolicy, type LoadBalancingPolicy, type RandomSource } from './load-balancing-policy';
import {
  endpointFromConnector,
  Topology,
  type TopologyEvent,
  type TopologyMember,
  type TopologySnapshot,
} from './topology';

export interface LocatorConnectOptions extends AbortOptions {
  /** What the new connection is known by (a JMS client id): the key-sticky policy places it by this. */
  key?: string | null;
}

/** A server a new connection may go to, with the backup the topology names for it. */
interface Candidate {
  live: TransportConfiguration;
  backup: TransportConfiguration | null;
}

/**
 * One set of client settings and the cluster topology shared by every factory it creates
 * (HornetQ's ServerLocator, Artemis' ServerLocatorConfig): what one factory's broker announces,
 * the next factory uses. Each new factory goes to a live server of the topology chosen by the
 * load-balancing policy once a topology is known (before that, to a static connector chosen the
 * same way); a server that cannot be reached is passed over for the next, then the static
 * connectors the topology does not name (as Artemis does), and after one pass over all of them the
 * creation fails.
 */
export class ServerLocator {
  readonly options: ClientOptions;
  private readonly cluster = new Topology();
  private readonly policy: LoadBalancingPolicy;

  /** `random`: the policies' random source (round robin's start, random picks), for tests. */
  constructor(options: Partial<ClientOptions> = {}, { random }: { random?: RandomSource | undefined } = {}) {
    this.options = resolveClientOptions(options);
    this.policy = loadBalancingPolicy(this.options.connectionLoadBalancingPolicyClassName, random);
  }

  /** The cluster as every factory of this locator has heard it (see ClientSessionFactory.topology). */
  topology(): TopologySnapshot {
    return this.cluster.snapshot();
  }

  /**
   * Tells the locator of a node as a broker would announce it: for a live/backup pair whose
   * brokers announce no topology (a broker of ours, which is not clustered), and for tests. The
   * connectors are dialled as given. A later announcement by a broker merges over it by HornetQ's
   * rules (a newer event id replaces it, keeping a backup the broker does not name).
   */
  announce(
    nodeId: string,
    servers: { live: TransportConfiguration | null; backup?: TransportConfiguration | null },
    uniqueEventId = Date.now(),
  ): TopologyEvent | null {
    const backup = servers.backup ?? null;
    return this.cluster.update({
      nodeId,
      uniqueEventId,
      nodeName: null,
      live: servers.live === null ? null : endpointFromConnector(servers.live),
      backup: backup === null ? null : endpointFromConnector(backup),
    });
  }

  /**
   * Connects a new factory to the server the policy picks, the next one if it cannot be reached,
   * each with initial-connect-attempts rounds (and, with `ha` and failover-on-initial-connection,
   * its backup after it in every round). Rejects with NOT_CONNECTED after one pass over all (or
   * with TLS_VERIFICATION_FAILED or TLS_REQUIRED when that was every server's answer).
   */
  async createSessionFactory({
    signal,
    key = null,
  }: LocatorConnectOptions = {}): Promise<ClientSessionFactory> {
    signal?.throwIfAborted();
    const picked = this.candidates();
    const first = this.policy.select(picked.length, key);
    const candidates = [...picked.slice(first), ...picked.slice(0, first), ...this.staticFallback(picked)];
    const failures: string[] = [];
    const codes = new Set<string>();
    let lastError: unknown = null;
    for (const { live, backup } of candidates) {
      const useBackup = this.options.ha && this.options.failoverOnInitialConnection && backup !== null;
      try {
        return await ClientSessionFactory.dial(
          this.options,
          useBackup ? [live, backup] : [live],
          this.cluster,
          signal,
        );
      } catch (error) {
        if (!HornetQException.is(error) || !CONNECT_FAILURE_CODES.has(error.code)) throw error;
        lastError = error;
        failures.push(error.message);
        codes.add(error.code);
      }
    }
    if (candidates.length === 1) throw lastError;
    // One cause everywhere (every certificate refused, say) keeps its code.
    throw new HornetQException(
      codes.size === 1 ? connectFailureCode(lastError) : 'NOT_CONNECTED',
      `Cannot connect to any of ${candidates.length} servers: ${failures.join('; ')}`,
      { cause: lastError },
    );
  }

  /** The topology's live servers by node id once a topology is known, else the static connectors. */
  private candidates(): Candidate[] {
    const own = this.options.connectors[0] as TransportConfiguration;
    const members = this.cluster
      .snapshot()
      .members.filter(
        (member): member is TopologyMember & { live: NonNullable<TopologyMember['live']> } =>
          member.live !== null,
      )
      .sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
    if (members.length === 0) return this.options.connectors.map((live) => ({ live, backup: null }));
    return members.map((member) => ({
      live: connectorForEndpoint(member.live, own),
      backup: member.backup === null ? null : connectorForEndpoint(member.backup, own),
    }));
  }

  /**
   * Artemis' rule (useTopologyForLoadBalancing): when no live server of the topology answers, the
   * static connectors not among them are tried too, so that a topology naming only a crashed
   * broker does not hide the others the application configured.
   */
  private staticFallback(picked: readonly Candidate[]): Candidate[] {
    return this.options.connectors
      .filter((connector) => !picked.some((candidate) => sameServer(candidate.live, connector)))
      .map((live) => ({ live, backup: null }));
  }

  /** For messages: the servers a new connection would choose from now. */
  describeCandidates(): string[] {
    return this.candidates().map((candidate) => describeConnector(candidate.live));
  }
}
