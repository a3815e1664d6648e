import type { TransportConfiguration } from '../../core/protocol';

/** See BrokerTopology's upAfterDownMs. */
export const DEFAULT_UP_AFTER_DOWN_MS = 500;

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
  /** Members whose "up" waits after a removal's "down" (see removeBackup), by node id. */
  private readonly deferredUps = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly clock: () => number = Date.now,
    /**
     * How long the "up" that follows a backup's removal waits after its "down". HornetQ's Java
     * client applies each topology message on a thread pool, in no set order: an up sent right
     * after the down may be applied first, and the down, older, is then ignored, leaving the
     * backup in place. 0 sends both at once (for clients that apply them in order).
     */
    private readonly upAfterDownMs = DEFAULT_UP_AFTER_DOWN_MS,
  ) {}

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
   * down, then (upAfterDownMs later) up again without the backup, with a newer event id than the
   * removal. A subscriber that comes meanwhile gets the member without the backup at once.
   */
  removeBackup(nodeId: string, connector: TransportConfiguration): BrokerTopologyMember | null {
    const current = this.members.get(nodeId);
    if (current?.backup !== connector) return null;
    this.cancelDeferredUp(nodeId);
    const downAt = this.nextEventId();
    for (const subscriber of [...this.subscribers]) subscriber.memberDown(nodeId, downAt);
    const member = Object.freeze({ ...current, backup: null, uniqueEventId: this.nextEventId() });
    if (this.upAfterDownMs === 0) return this.put(member);
    this.members.set(nodeId, member);
    const timer = setTimeout(() => {
      this.deferredUps.delete(nodeId);
      if (this.members.get(nodeId) === member) this.tell(member);
    }, this.upAfterDownMs);
    // A broker's stop does not wait for it: nobody is left to tell.
    timer.unref();
    this.deferredUps.set(nodeId, timer);
    return member;
  }

  /** Drops the "up"s still waiting (the broker stops: its subscribers are gone). */
  close(): void {
    for (const nodeId of [...this.deferredUps.keys()]) this.cancelDeferredUp(nodeId);
  }

  private cancelDeferredUp(nodeId: string): void {
    const timer = this.deferredUps.get(nodeId);
    if (timer !== undefined) clearTimeout(timer);
    this.deferredUps.delete(nodeId);
  }

  private put(member: BrokerTopologyMember): BrokerTopologyMember {
    const frozen = Object.freeze(member);
    // A newer state of the node supersedes an "up" still waiting for it.
    this.cancelDeferredUp(frozen.nodeId);
    this.members.set(frozen.nodeId, frozen);
    this.tell(frozen);
    return frozen;
  }

  private tell(frozen: BrokerTopologyMember): void {
    // `last` belongs to a subscription's burst; a later change is sent alone with it false, as HornetQ does.
    for (const subscriber of [...this.subscribers]) subscriber.memberUp(frozen, false);
  }

  private nextEventId(): number {
    this.lastEventId = Math.max(this.clock(), this.lastEventId + 1);
    return this.lastEventId;
  }
}
