import type { TransportConfiguration } from '../../core/protocol';

/** One node as the broker announces it: its live server and, when one has announced, its backup. */
export interface BrokerTopologyMember {
  readonly nodeId: string;
  /** HornetQ's backup group name (CLUSTER_TOPOLOGY_V2's nodeName), or null. */
  readonly nodeName: string | null;
  readonly live: TransportConfiguration | null;
  readonly backup: TransportConfiguration | null;
  /** This broker's clock (ms) at the change the member reflects: a client orders updates by it. */
  readonly uniqueEventId: number;
}

/** A subscriber of the topology (a client connection that sent SUBSCRIBE_TOPOLOGY(_V2)). */
export interface TopologySubscriber {
  /** A member came or changed; `last` ends the burst that answers a subscription (false later). */
  memberUp(member: BrokerTopologyMember, last: boolean): void;
  /** A node left (HornetQ's nodeDown: an `exit` message). */
  memberDown(nodeId: string, uniqueEventId: number): void;
}

/**
 * The cluster as this broker knows it (HornetQ's Topology on the server side of a cluster
 * connection), and who is told of its changes. Event ids come from the broker's clock and only
 * grow, so that a client, which keeps the member with the newest id, never drops a change made
 * in the same millisecond as the one before.
 */
export class BrokerTopology {
  private readonly members = new Map<string, BrokerTopologyMember>();
  private readonly subscribers = new Set<TopologySubscriber>();
  private lastEventId = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /** Every member, in the order first seen. */
  snapshot(): BrokerTopologyMember[] {
    return [...this.members.values()];
  }

  member(nodeId: string): BrokerTopologyMember | null {
    return this.members.get(nodeId) ?? null;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /**
   * Adds a subscriber and sends it every member, the last one marked `last` (HornetQ's client
   * waits for it). Returns what removes it.
   */
  subscribe(subscriber: TopologySubscriber): () => void {
    this.subscribers.add(subscriber);
    const members = this.snapshot();
    members.forEach((member, index) => subscriber.memberUp(member, index === members.length - 1));
    return () => this.subscribers.delete(subscriber);
  }

  /**
   * This broker serves `nodeId` as live through `connector` (at start, or when a backup takes
   * over): its member is replaced, keeping a backup already known, and every subscriber is told.
   */
  publishLive(
    nodeId: string,
    nodeName: string | null,
    connector: TransportConfiguration,
  ): BrokerTopologyMember {
    const current = this.members.get(nodeId);
    return this.put({
      nodeId,
      nodeName: nodeName ?? current?.nodeName ?? null,
      live: connector,
      backup: current?.backup ?? null,
      uniqueEventId: this.nextEventId(),
    });
  }

  /**
   * A backup of `nodeId` announced itself (HornetQ's updateBackup): merged into the member of its
   * node id. Null, changing nothing, when no live of that node is known: a backup backs up a live.
   */
  addBackup(nodeId: string, connector: TransportConfiguration): BrokerTopologyMember | null {
    const current = this.members.get(nodeId);
    if (current === undefined) return null;
    return this.put({ ...current, backup: connector, uniqueEventId: this.nextEventId() });
  }

  /**
   * The backup of `nodeId` that announced `connector` is gone (its connection closed). A client
   * keeps a backup that an update leaves out (HornetQ's merge rule), so the node is first told
   * down, then up again without the backup, with a newer event id than the removal.
   */
  removeBackup(nodeId: string, connector: TransportConfiguration): BrokerTopologyMember | null {
    const current = this.members.get(nodeId);
    if (current?.backup !== connector) return null;
    const downAt = this.nextEventId();
    for (const subscriber of [...this.subscribers]) subscriber.memberDown(nodeId, downAt);
    return this.put({ ...current, backup: null, uniqueEventId: this.nextEventId() });
  }

  private put(member: BrokerTopologyMember): BrokerTopologyMember {
    const frozen = Object.freeze(member);
    this.members.set(frozen.nodeId, frozen);
    // `last` belongs to a subscription's burst; a later change is sent alone with it false, as HornetQ does.
    for (const subscriber of [...this.subscribers]) subscriber.memberUp(frozen, false);
    return frozen;
  }

  private nextEventId(): number {
    this.lastEventId = Math.max(this.clock(), this.lastEventId + 1);
    return this.lastEventId;
  }
}
