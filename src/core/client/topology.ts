import type { TransportConfiguration as AnnouncedTransport } from '../protocol/packets';
import { DEFAULT_HOST, DEFAULT_PORT, type TransportConfiguration } from './connector';

/** A value of a connector parameter, as announced (HornetQ sends booleans, ints, longs and strings). */
export type TopologyParamValue = string | number | boolean;

/**
 * One way to reach a node, read from what the broker announced (or, when a broker that is not
 * clustered announces nothing, from the connector this client used). Kept as data: the Java
 * factory class name a broker sends is shown, never acted on.
 */
export interface TopologyEndpoint {
  /** 'announced' from the broker's topology; 'connector' when the broker named none (HornetQ's rule). */
  readonly origin: 'announced' | 'connector';
  /** The connector's name in the broker's configuration (null for our own connector). */
  readonly name: string | null;
  /** The Java class the broker named; data only. */
  readonly factoryClassName: string | null;
  /** As HornetQ's netty connector reads its params: localhost and 5445 when absent. */
  readonly host: string;
  readonly port: number;
  readonly sslEnabled: boolean;
  readonly httpUpgradeEnabled: boolean;
  readonly httpUpgradeEndpoint: string | null;
  /** An in-VM connector's server id, else null. */
  readonly serverId: number | null;
  /** Every parameter as announced, except secrets (a key naming a password is left out). */
  readonly params: Readonly<Record<string, TopologyParamValue>>;
}

/** One node of the cluster: its live server and, when it has one, its backup. */
export interface TopologyMember {
  readonly nodeId: string;
  /** The node's name as CLUSTER_TOPOLOGY_V2 carries it (HornetQ's backup group name), or null. */
  readonly nodeName: string | null;
  readonly live: TopologyEndpoint | null;
  readonly backup: TopologyEndpoint | null;
  /** The announcing server's clock (ms) at the change this member reflects: orders updates. */
  readonly uniqueEventId: number;
}

/** What the client knows of the cluster at one moment; members are in the order first seen. */
export interface TopologySnapshot {
  readonly members: readonly TopologyMember[];
}

/** A member came or changed (MEMBER_UP), or left (MEMBER_DOWN, with what was known of it). */
export type TopologyEvent =
  | { readonly type: 'MEMBER_UP'; readonly member: TopologyMember }
  | { readonly type: 'MEMBER_DOWN'; readonly member: TopologyMember; readonly uniqueEventId: number };

export type TopologyListener = (event: TopologyEvent) => void;

/** What one topology message says about one node, before it is merged. */
export interface MemberUpdate {
  nodeId: string;
  uniqueEventId: number;
  nodeName: string | null;
  live: TopologyEndpoint | null;
  backup: TopologyEndpoint | null;
}

export interface TopologyLimits {
  /** A peer cannot make the client hold more members than this: later newcomers are ignored. */
  maxMembers: number;
  /** Removed nodes remembered; the oldest removal is forgotten first. */
  maxTombstones: number;
}

/** Far beyond any HornetQ or Artemis cluster; only a broken or hostile peer gets there. */
export const DEFAULT_TOPOLOGY_LIMITS: TopologyLimits = { maxMembers: 1024, maxTombstones: 1024 };

/**
 * The cluster as the broker announces it, merged by HornetQ 2.4's rules (its client's Topology):
 * - a node not known is added;
 * - an update with a newer event id replaces what is known, except that a live or backup it does
 *   not name is kept (a backup-only or live-only update completes the member);
 * - an update with an older or equal event id only fills a backup that is not known yet (HornetQ:
 *   better to know a backup that may be gone than none);
 * - a removal older than the member's event id is ignored; otherwise the member goes and a
 *   tombstone keeps the removal's event id, so that an "up" older than it, arriving late, is ignored.
 *   Event id 0 passes a tombstone, as in HornetQ (a sender that has no clock).
 * Unlike HornetQ, an update that changes nothing raises no event (a broker re-announces every
 * member to each new connection), and a removal of a node never seen still leaves a tombstone.
 */
export class Topology {
  private readonly known = new Map<string, TopologyMember>();
  private readonly tombstones = new Map<string, number>();

  constructor(private readonly limits: TopologyLimits = DEFAULT_TOPOLOGY_LIMITS) {}

  snapshot(): TopologySnapshot {
    return Object.freeze({ members: Object.freeze([...this.known.values()]) });
  }

  /** True when the member table is full (a newcomer would be ignored). */
  get full(): boolean {
    return this.known.size >= this.limits.maxMembers;
  }

  member(nodeId: string): TopologyMember | null {
    return this.known.get(nodeId) ?? null;
  }

  /** The event id the node is known by: of its member, else of its tombstone; null if never seen. */
  lastEventIdOf(nodeId: string): number | null {
    return this.known.get(nodeId)?.uniqueEventId ?? this.tombstones.get(nodeId) ?? null;
  }

  /** Merges one update; the event to tell listeners, or null when nothing visible changed. */
  update(update: MemberUpdate): TopologyEvent | null {
    const removedAt = this.tombstones.get(update.nodeId);
    if (removedAt !== undefined && update.uniqueEventId !== 0 && update.uniqueEventId < removedAt)
      return null;
    const current = this.known.get(update.nodeId);
    if (current === undefined) return this.add(update);
    if (update.uniqueEventId > current.uniqueEventId) {
      return this.replace(current, {
        nodeId: update.nodeId,
        nodeName: update.nodeName ?? current.nodeName,
        live: update.live ?? current.live,
        backup: update.backup ?? current.backup,
        uniqueEventId: update.uniqueEventId,
      });
    }
    if (current.backup === null && update.backup !== null) {
      return this.replace(current, { ...current, backup: update.backup });
    }
    return null;
  }

  /** A node left at `uniqueEventId`; the event to tell listeners, or null when it was not known. */
  remove(nodeId: string, uniqueEventId: number): TopologyEvent | null {
    const current = this.known.get(nodeId);
    if (current !== undefined && current.uniqueEventId > uniqueEventId) return null; // a down older than its up
    this.remember(nodeId, uniqueEventId);
    if (current === undefined) return null;
    this.known.delete(nodeId);
    return { type: 'MEMBER_DOWN', member: current, uniqueEventId };
  }

  private add(update: MemberUpdate): TopologyEvent | null {
    if (this.known.size >= this.limits.maxMembers) return null;
    const member: TopologyMember = Object.freeze({ ...update });
    this.known.set(update.nodeId, member);
    return { type: 'MEMBER_UP', member };
  }

  private replace(current: TopologyMember, next: TopologyMember): TopologyEvent | null {
    const member = Object.freeze({ ...next });
    this.known.set(member.nodeId, member);
    return sameReach(current, member) ? null : { type: 'MEMBER_UP', member };
  }

  private remember(nodeId: string, uniqueEventId: number): void {
    const previous = this.tombstones.get(nodeId);
    this.tombstones.delete(nodeId); // re-inserted last: the newest removal is forgotten last
    this.tombstones.set(nodeId, Math.max(previous ?? uniqueEventId, uniqueEventId));
    if (this.tombstones.size > this.limits.maxTombstones) {
      const oldest = this.tombstones.keys().next().value as string;
      this.tombstones.delete(oldest);
    }
  }
}

/** Same name and endpoints: a re-announcement, not a change worth an event. */
function sameReach(a: TopologyMember, b: TopologyMember): boolean {
  return a.nodeName === b.nodeName && sameEndpoint(a.live, b.live) && sameEndpoint(a.backup, b.backup);
}

function sameEndpoint(a: TopologyEndpoint | null, b: TopologyEndpoint | null): boolean {
  if (a === null || b === null) return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

const HOST = 'host';
const PORT = 'port';
const SSL_ENABLED = 'ssl-enabled';
const HTTP_UPGRADE_ENABLED = 'http-upgrade-enabled';
const HTTP_UPGRADE_ENDPOINT = 'http-upgrade-endpoint';
const SERVER_ID = 'server-id';

/**
 * An announced TransportConfiguration as data. Values may come as strings or numbers ("5445" or
 * 5445, "true" or true: HornetQ and Artemis read either); one that does not parse falls back to
 * the default rather than becoming something else.
 */
export function endpointFromAnnounced(announced: AnnouncedTransport): TopologyEndpoint {
  const params: Record<string, TopologyParamValue> = {};
  for (const [key, param] of announced.params) {
    if (!isSecret(key)) params[key] = param.value;
  }
  return endpoint('announced', announced.name, announced.factoryClassName, params);
}

/** The connector this client used, for a member a broker announced with no connectors. */
export function endpointFromConnector(connector: TransportConfiguration): TopologyEndpoint {
  const params: Record<string, TopologyParamValue> = {};
  for (const [key, value] of Object.entries(connector)) {
    if (value !== undefined && !isSecret(key)) params[key] = value;
  }
  return endpoint('connector', null, null, params);
}

function endpoint(
  origin: TopologyEndpoint['origin'],
  name: string | null,
  factoryClassName: string | null,
  params: Record<string, TopologyParamValue>,
): TopologyEndpoint {
  return Object.freeze({
    origin,
    name,
    factoryClassName,
    host: typeof params[HOST] === 'string' && params[HOST] !== '' ? params[HOST] : DEFAULT_HOST,
    port: portOf(params[PORT]) ?? DEFAULT_PORT,
    sslEnabled: booleanOf(params[SSL_ENABLED]),
    httpUpgradeEnabled: booleanOf(params[HTTP_UPGRADE_ENABLED]),
    httpUpgradeEndpoint:
      typeof params[HTTP_UPGRADE_ENDPOINT] === 'string' ? params[HTTP_UPGRADE_ENDPOINT] : null,
    serverId: integerOf(params[SERVER_ID]),
    params: Object.freeze(params),
  });
}

/** HornetQ leaves out of its logs any key naming a password (HORNETQ-1281); we do not keep them. */
function isSecret(key: string): boolean {
  return key.toLowerCase().includes('password');
}

function integerOf(value: TopologyParamValue | undefined): number | null {
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
}

function portOf(value: TopologyParamValue | undefined): number | null {
  const port = integerOf(value);
  return port !== null && port > 0 && port <= 65_535 ? port : null;
}

function booleanOf(value: TopologyParamValue | undefined): boolean {
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}
