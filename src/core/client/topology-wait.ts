import { HornetQException } from '../protocol';

/**
 * The wait for a new connection's first CLUSTER_TOPOLOGY(_V2), the broker's answer to the
 * SUBSCRIBE_TOPOLOGY_V2 every HornetQ 2.4 client sends after its first ping. HornetQ's locator
 * creates no session before it has that answer (a broker that is not clustered sends one with its
 * own node id); neither do we. Bounded by call-timeout; a connection failure ends it at once. A
 * topology that comes after the bound still makes the connection ready for the sessions asked
 * from then on: a broker that was slow once does not leave a healthy connection useless.
 */
export class TopologyWait {
  private timer: NodeJS.Timeout | null = null;
  private settle: ((error: HornetQException | null) => void) | null;
  private outcome: Promise<void>;
  private timedOut = false;

  constructor(brokerAddress: string, timeoutMs: number) {
    let settle!: (error: HornetQException | null) => void;
    this.outcome = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === null ? resolve() : reject(error));
    });
    this.settle = settle;
    // Nobody may be waiting yet (the factory asks when it creates its first session).
    this.outcome.catch(() => undefined);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.finish(
        new HornetQException(
          'CONNECTION_TIMEDOUT',
          `Timed out after ${timeoutMs} ms waiting for the cluster topology from ${brokerAddress}: ` +
            'the broker did not answer SUBSCRIBE_TOPOLOGY_V2 with CLUSTER_TOPOLOGY (is it a HornetQ 2.4 compatible broker?)',
        ),
      );
    }, timeoutMs);
  }

  /** Resolves once the topology came; rejects when it did not within the bound or the link failed. */
  get received(): Promise<void> {
    return this.outcome;
  }

  /** A topology packet arrived: the first ends the wait (or the failure of a wait timed out). */
  topologyReceived(): void {
    if (this.timedOut) {
      this.timedOut = false;
      this.outcome = Promise.resolve();
    }
    this.finish(null);
  }

  /** The connection failed first: the topology will never come on it. */
  connectionFailed(error: HornetQException): void {
    this.timedOut = false;
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
