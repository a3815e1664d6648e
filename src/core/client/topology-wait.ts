import { HornetQException } from '../protocol';

/**
 * The wait for a new connection's first CLUSTER_TOPOLOGY(_V2), the broker's answer to the
 * SUBSCRIBE_TOPOLOGY_V2 every HornetQ 2.4 client sends after its first ping. HornetQ's locator
 * creates no session before it has that answer (a broker that is not clustered sends one with its
 * own node id); neither do we. Bounded by call-timeout; a connection failure ends it at once.
 */
export class TopologyWait {
  private timer: NodeJS.Timeout | null = null;
  private settle: ((error: HornetQException | null) => void) | null;
  /** Resolves once the topology came; rejects when it did not within the bound or the link failed. */
  readonly received: Promise<void>;
  private nodeIdReceived: string | null = null;

  constructor(brokerAddress: string, timeoutMs: number) {
    let settle!: (error: HornetQException | null) => void;
    this.received = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === null ? resolve() : reject(error));
    });
    this.settle = settle;
    // Nobody may be waiting yet (the factory asks when it creates its first session).
    this.received.catch(() => undefined);
    this.timer = setTimeout(
      () =>
        this.finish(
          new HornetQException(
            'CONNECTION_TIMEDOUT',
            `Timed out after ${timeoutMs} ms waiting for the cluster topology from ${brokerAddress}: ` +
              'the broker did not answer SUBSCRIBE_TOPOLOGY_V2 with CLUSTER_TOPOLOGY (is it a HornetQ 2.4 compatible broker?)',
          ),
        ),
      timeoutMs,
    );
  }

  /** The node id the broker named in its first topology packet; null until it came. */
  get nodeId(): string | null {
    return this.nodeIdReceived;
  }

  /** A topology packet arrived: the first ends the wait, later ones change nothing. */
  topologyReceived(nodeId: string): void {
    if (this.settle === null) return;
    this.nodeIdReceived = nodeId;
    this.finish(null);
  }

  /** The connection failed first: the topology will never come on it. */
  connectionFailed(error: HornetQException): void {
    this.finish(error);
  }

  private finish(error: HornetQException | null): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const settle = this.settle;
    this.settle = null;
    settle?.(error);
  }
}
