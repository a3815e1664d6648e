import { HornetQException, type Packet } from '../protocol';
import { PacketType } from '../protocol/packet-type';
import type { SendGate } from './send-gate';
import type { SessionCalls } from './session-calls';

/** A queue to re-create on a broker that lost it (temporary queues, non-durable subscriptions). */
export interface QueueToRestore {
  address: string;
  name: string;
  filter: string | null;
  /** Temporary queues come back temporary; a non-durable subscription comes back as it was. */
  temporary: boolean;
  /**
   * A shared non-durable subscription's queue comes back shared (CREATE_SHARED_QUEUE): transient,
   * so that it still goes with its last consumer, and belonging to no connection.
   */
  shared?: boolean;
}

/** A consumer as a re-creation sees it. */
export interface RestorableConsumer {
  /** The queue it reads, when the broker may have lost it with the session. */
  queueToRestore(): QueueToRestore | null;
  /** Creates it again (same id, fresh credits) on the new broker session. */
  recreate(): void;
}

export interface RestorableProducer {
  readonly id: number;
  readonly address: string | null;
}

/**
 * Tells a re-created broker session what the lost one had: its plain metadata, the queues that may
 * have gone with it, the session's unique metadata, its consumers and its producers (who ask for
 * their credits again; the caller passes none to a broker without our extension). The blocking
 * calls are bounded by call-timeout, since they run inside the failover.
 *
 * Metadata goes before any consumer: Artemis decides whether a consumer's deliveries carry the
 * jms.queue./jms.topic. prefix a HornetQ 2.4 client expects from the `jms-session` metadata the
 * session has when the consumer is created (HornetQ's client re-sends metadata last, and its
 * re-created consumers on Artemis get unprefixed addresses).
 */
export class SessionRestorer {
  /** Unique metadata the broker holds for the session (a JMS client id): claimed again, answered. */
  private readonly uniqueMetadata = new Map<string, string>();
  /** Plain metadata the broker holds for the session (ADD_METADATA2). */
  private readonly metadata = new Map<string, string>();

  constructor(
    private readonly calls: Pick<SessionCalls, 'callWithinTimeout'>,
    private readonly sendOneWay: (packet: Packet) => void,
    private readonly gate: Pick<SendGate, 'resetCredits' | 'requestInitialCredits'>,
  ) {}

  /** The broker accepted unique key=data for the session: a re-created session claims it again. */
  uniqueMetadataAdded(key: string, data: string): void {
    this.uniqueMetadata.set(key, data);
  }

  /** The broker accepted key=data for the session: a re-created session gets it again. */
  metadataAdded(key: string, data: string): void {
    this.metadata.set(key, data);
  }

  /**
   * Sends the plain metadata to the re-created session as HornetQ's client does after a failover:
   * SESS_ADD_METADATA2 with requiresConfirmation false, which neither side counts and the broker
   * does not answer.
   */
  private resendMetadata(): void {
    for (const [key, data] of this.metadata) {
      this.sendOneWay({ type: PacketType.SESS_ADD_METADATA2, key, data, requiresConfirmation: false });
    }
  }

  /** Run once the new broker session exists and the channel's counts have restarted. */
  async restore(
    temporaryQueues: readonly QueueToRestore[],
    consumers: ReadonlyMap<number, RestorableConsumer>,
    producers: ReadonlySet<RestorableProducer>,
    /** Whether the broker keeps producers (our extension's SESS_CREATEPRODUCER). */
    announceProducers: boolean,
  ): Promise<void> {
    this.resendMetadata();
    const queues = [...temporaryQueues];
    for (const consumer of consumers.values()) {
      const restore = consumer.queueToRestore();
      if (restore !== null) queues.push(restore);
    }
    for (const queue of queues) await this.restoreQueue(queue);
    for (const [key, data] of this.uniqueMetadata) {
      await this.calls.callWithinTimeout({
        type: PacketType.SESS_UNIQUE_ADD_METADATA,
        key,
        data,
        requiresConfirmation: true,
      });
    }
    for (const consumer of consumers.values()) consumer.recreate();
    for (const producer of announceProducers ? producers : []) {
      this.sendOneWay({
        type: PacketType.SESS_CREATEPRODUCER,
        producerId: producer.id,
        address: producer.address,
      });
    }
    this.gate.resetCredits();
    for (const producer of producers) {
      if (producer.address !== null) this.gate.requestInitialCredits(producer.address);
    }
  }

  private async restoreQueue(queue: QueueToRestore): Promise<void> {
    if (queue.shared === true) {
      // Answered alike when another client of the subscription has re-created it already.
      await this.calls.callWithinTimeout({
        type: PacketType.CREATE_SHARED_QUEUE,
        address: queue.address,
        queueName: queue.name,
        filter: queue.filter,
        durable: false,
        requiresResponse: true,
      });
      return;
    }
    try {
      await this.calls.callWithinTimeout({
        type: PacketType.CREATE_QUEUE,
        address: queue.address,
        queueName: queue.name,
        filter: queue.filter,
        durable: false,
        temporary: queue.temporary,
        requiresResponse: true,
      });
    } catch (error) {
      if (!HornetQException.is(error, 'QUEUE_EXISTS')) throw error;
    }
  }
}
