import { traceCommit, traceSend } from './client-tracing';
import {
  HornetQException,
  type Acknowledge,
  type CoreMessage,
  type Packet,
  type QueueQueryResponse,
  type QueueStats,
} from '../protocol';
import type { ConfirmationWaiter, Logger } from '../remoting';
import { abortable, type AbortOptions } from './abortable';
import type { ClientOptions } from './client-options';
import { ClientConsumer, type ConsumerSettings } from './client-consumer';
import { ClientProducer } from './client-producer';
import { closedSession, type SessionContext, type SessionSettings } from './session-context';

export type { QueueToRestore } from './session-restorer';
export { newSessionIdentity, type SessionIdentity, type SessionSettings } from './session-context';

/** Queues asked for per page of queueStats() (the broker may send fewer). */
const QUEUE_STATS_PAGE_SIZE = 1000;

export interface QueueInfo {
  exists: boolean;
  address: string | null;
  durable: boolean;
  temporary: boolean;
  filter: string | null;
  consumerCount: number;
  messageCount: number;
}

export interface CreateQueueOptions {
  filter?: string | null;
  durable?: boolean;
  temporary?: boolean;
}

/** A queue several consumers share: a JMS 2.0 shared subscription's. */
export interface SharedQueueOptions {
  filter?: string | null;
  /** A durable one is stored; a non-durable one is deleted by the broker with its last consumer. */
  durable: boolean;
}

export interface CreateConsumerOptions {
  filter?: string | null;
  browseOnly?: boolean;
  /** Overrides the factory's consumerWindowSize for this consumer. */
  windowSize?: number;
  /**
   * The queue is a shared one (createSharedQueue). If a broker loses it (a restart, a failover to
   * a backup that did not have it), the session re-creates it shared, so that a non-durable one
   * still goes with its last consumer.
   */
  sharedQueue?: boolean;
}

/**
 * A core session: its producers, consumers and (when not auto-committing) its transaction, on one
 * channel to the broker. The session keeps the API and what the application made; its
 * SessionContext puts every operation on the wire and carries the session through failures.
 * Calls made while the factory handles a failure wait for it first (call-failover-timeout).
 */
export class ClientSession {
  private readonly consumers = new Map<number, ClientConsumer>();
  private readonly producers = new Set<ClientProducer>();
  private nextConsumerId = 0;
  private nextProducerId = 0;
  private started = false;
  private asyncErrorHandler: ((error: HornetQException) => void) | null = null;

  /** @internal (ClientSessionFactory.createSession makes sessions) */
  constructor(
    private readonly context: SessionContext,
    readonly settings: SessionSettings,
    private readonly options: ClientOptions,
    private readonly logger: Logger,
  ) {
    const consumers = this.consumers;
    const producers = this.producers;
    const isStarted = (): boolean => this.started;
    context.carry({
      consumers,
      producers,
      get started() {
        return isStarted();
      },
      reportAsyncError: (error) => this.reportAsyncError(error),
      closeLocally: (reason) => this.closeLocally(reason),
    });
  }

  /** Which connection the session is on now, for messages: `connection 3 to tcp://host:5445`. */
  describeConnection(): string {
    return this.context.describeConnection();
  }

  /** The session's name on the broker (a UUID this client chose); kept when it is re-created. */
  get name(): string {
    return this.context.name;
  }

  /**
   * True when the broker is ours and speaks our extension (it answered CREATESESSION with its
   * trailer): producer registration, queue statistics and refused deliveries need it.
   */
  get extended(): boolean {
    return this.context.extended;
  }

  get closed(): boolean {
    return this.context.closed;
  }

  get transacted(): boolean {
    return this.context.transacted;
  }

  /** True when the broker lost the session during a transaction: the next commit rolls back. */
  get isRollbackOnly(): boolean {
    return this.context.rollbackOnly;
  }

  /**
   * Called with failures no caller waits for: those the broker reports for one-way packets (a
   * refused send, an unknown ack), and deliveries this client refused back to the broker (a large
   * message over maxLargeMessageBytes). Without a handler they are logged.
   */
  setAsyncErrorHandler(handler: ((error: HornetQException) => void) | null): void {
    this.asyncErrorHandler = handler;
  }

  async createQueue(address: string, queueName: string, options: CreateQueueOptions = {}): Promise<void> {
    await this.context.createQueue(
      address,
      queueName,
      options.filter ?? null,
      options.durable ?? true,
      options.temporary ?? false,
    );
  }

  /**
   * Creates a queue that consumers of any session may share (CREATE_SHARED_QUEUE, HornetQ 2.4 and
   * later): nothing happens if it exists on the same address with the same filter, and the broker
   * refuses with INVALID_TRANSIENT_QUEUE_USE if it exists on another address or with another
   * filter. Unlike a temporary queue, a non-durable one belongs to no connection: it lives while it
   * has consumers.
   */
  async createSharedQueue(address: string, queueName: string, options: SharedQueueOptions): Promise<void> {
    await this.context.createSharedQueue(address, queueName, options.filter ?? null, options.durable);
  }

  async deleteQueue(queueName: string): Promise<void> {
    await this.context.deleteQueue(queueName);
  }

  async queueQuery(queueName: string): Promise<QueueInfo> {
    return toQueueInfo(await this.context.queueQuery(queueName));
  }

  /**
   * Every queue on the broker with its counters (messages, consumers, delivering, added,
   * acknowledged...), fetched a page at a time so that no answer grows with the broker. A queue
   * created or deleted meanwhile may be in the list or not; none is listed twice.
   */
  async queueStats(): Promise<QueueStats[]> {
    const byName = new Map<string, QueueStats>();
    let start = 0;
    for (;;) {
      const page = await this.context.queueStatsPage(start, QUEUE_STATS_PAGE_SIZE);
      for (const queue of page.queues) byName.set(queue.name, queue);
      start += page.queues.length;
      // An empty page that claims more would ask for the same page for ever.
      if (!page.more || page.queues.length === 0) return [...byName.values()];
    }
  }

  async bindingQuery(address: string): Promise<{ exists: boolean; queueNames: string[] }> {
    const response = await this.context.bindingQuery(address);
    return { exists: response.exists, queueNames: response.queueNames };
  }

  /**
   * Attaches key=data to the session on the broker (SESS_ADD_METADATA2, answered once the broker
   * has it); Artemis needs `jms-session` from a JMS session. A re-created session gets it again.
   */
  async addMetadata(key: string, data: string): Promise<void> {
    await this.context.addMetadata(key, data);
  }

  /**
   * Attaches key=data to the session on the broker; rejects with DUPLICATE_METADATA while another
   * session (of any client) holds the same pair. Released when the session closes.
   */
  async addUniqueMetadata(key: string, data: string): Promise<void> {
    await this.context.addUniqueMetadata(key, data);
  }

  createProducer(address: string | null = null): ClientProducer {
    this.checkOpen();
    const producer = new ClientProducer(this.nextProducerId++, address, this, this.options.producerMaxRate);
    this.producers.add(producer);
    this.context.producerCreated(producer);
    return producer;
  }

  async createConsumer(queueName: string, options: CreateConsumerOptions = {}): Promise<ClientConsumer> {
    this.checkOpen();
    const settings: ConsumerSettings = {
      id: this.nextConsumerId++,
      queueName,
      filter: options.filter ?? null,
      browseOnly: options.browseOnly ?? false,
      windowSize: options.windowSize ?? this.options.consumerWindowSize,
      ackBatchSize: this.settings.ackBatchSize,
      blockOnAcknowledge: this.options.blockOnAcknowledge,
      maxLargeMessageBytes: this.options.maxLargeMessageBytes,
      preAcknowledge: this.settings.preAcknowledge,
      maxRate: this.options.consumerMaxRate,
      sharedQueue: options.sharedQueue ?? false,
    };
    const consumer = new ClientConsumer(settings, this);
    // Registered before the broker answers: deliveries may follow the answer immediately.
    this.consumers.set(settings.id, consumer);
    let queue: QueueQueryResponse;
    try {
      queue = await this.context.createConsumer(settings.id, queueName, settings.filter, settings.browseOnly);
    } catch (error) {
      this.consumers.delete(settings.id);
      throw error;
    }
    consumer.start(toQueueInfo(queue));
    return consumer;
  }

  /** Starts delivery to this session's consumers. */
  start(): void {
    this.checkOpen();
    this.started = true;
    this.context.start();
    for (const consumer of this.consumers.values()) consumer.resume();
  }

  /**
   * Stops delivery; resolves once the broker has stopped, so nothing more arrives. Messages the
   * consumers already buffered stay there until start: neither receive nor a handler gets them.
   */
  async stop(): Promise<void> {
    this.checkOpen();
    this.started = false;
    for (const consumer of this.consumers.values()) consumer.pause();
    await this.context.stop();
  }

  /**
   * Commits. After the broker lost the session during this transaction the work is gone: the
   * session rolls back and throws TRANSACTION_ROLLED_BACK. A commit cut off by such a failure
   * may or may not have happened: TRANSACTION_OUTCOME_UNKNOWN (retry with duplicate ids). A
   * commit whose answer is late waits for the failover to decide (SessionCalls): reattached, it
   * completes; no decision in time, CALL_OUTCOME_UNKNOWN.
   */
  commit(): Promise<void> {
    return traceCommit(this.name, () => this.commitNow());
  }

  private async commitNow(): Promise<void> {
    await this.context.ready();
    if (this.context.rollbackOnly) {
      await this.rollback();
      throw new HornetQException(
        'TRANSACTION_ROLLED_BACK',
        'The transaction was rolled back on failover to a backup server',
      );
    }
    await this.flushAcknowledgements();
    try {
      await this.context.commit();
    } catch (error) {
      if (HornetQException.is(error, 'CALL_OUTCOME_UNKNOWN')) {
        // No failover decided in time: the session is still being failed over (or gone), so there
        // is nothing to roll back yet; the transaction's fate is what the broker made of it.
        throw new HornetQException('TRANSACTION_OUTCOME_UNKNOWN', error.message, { cause: error });
      }
      if (!HornetQException.is(error, 'UNBLOCKED')) throw error;
      await this.rollback().catch(() => undefined);
      throw new HornetQException(
        'TRANSACTION_OUTCOME_UNKNOWN',
        'The transaction was rolled back on failover however commit may have been successful',
        { cause: error },
      );
    }
  }

  /**
   * Rolls back: messages acknowledged in the transaction come back (delivery count + 1). The
   * session is stopped first so that nothing is in flight, batched acknowledgements are sent (they
   * belong to the transaction), unseen buffered messages are dropped (the broker takes them back
   * with their count unchanged), then delivery resumes. On a session that is not transacted this
   * is JMS recover: every unacknowledged message comes back. `seen` names consumers whose oldest
   * unacknowledged message the application has had (it comes back marked redelivered).
   *
   * How `seen` maps onto HornetQ's wire: RollbackMessage has one boolean,
   * considerLastMessageAsDelivered, and with it the broker counts the oldest unacknowledged
   * message of EVERY consumer of the session as delivered (acknowledged in the transaction that it
   * then rolls back, so its delivery count is kept). HornetQ's own client sends it true for
   * recover and for a listener that threw in an auto-acknowledge session, and messages that a
   * transacted session has seen are acknowledged into the transaction before the rollback. So a
   * non-empty `seen` sends true, an empty one false: our JMS layer names at most the consumer
   * whose listener is running, and every other consumer's oldest message is then marked
   * redelivered too, as with HornetQ's client (redelivered may over-report, never under-report).
   */
  async rollback(seen: readonly ClientConsumer[] = []): Promise<void> {
    await this.context.ready();
    const wasStarted = this.started;
    if (wasStarted) await this.stop();
    await this.flushAcknowledgements();
    for (const consumer of this.consumers.values()) consumer.clearBuffer();
    await this.context.rollback(seen.length > 0);
    if (wasStarted) this.start();
  }

  /**
   * Closes consumers and producers and the session on the broker; idempotent. Aborting `signal`
   * stops waiting (for a failover to end, for the broker's answer) and ends the session here at
   * once: waiting calls fail, receives get null, and the close rejects with the signal's reason.
   * Nothing is sent once the signal has aborted; the broker ends the session on the close request
   * if it went, else when the connection closes or its TTL runs out.
   */
  async close({ signal }: AbortOptions = {}): Promise<void> {
    if (this.closed) return;
    try {
      if (signal?.aborted !== true) {
        await abortable(
          this.context.closeOnBroker(signal, () => this.flushAcknowledgements()),
          signal,
        );
      }
    } catch (error) {
      // A close cut off by a failure is still a close: the broker forgets the session either way
      // (it closed it, or it reaps it with the old connection). HornetQ's close never throws.
      if (!this.context.closeRequested && signal?.aborted !== true) throw error;
      this.logger.debug({ err: error, session: this.name }, 'the close request got no answer');
    } finally {
      this.closeLocally(closedSession(this.name));
    }
    signal?.throwIfAborted();
  }

  /** `await using`: close() without a signal. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Ends the session on this side: waiting calls and sends fail with `reason`, receives get null. */
  closeLocally(reason: HornetQException): void {
    if (this.closed) return;
    this.context.end(reason);
    for (const consumer of [...this.consumers.values()]) consumer.closeLocally();
    for (const producer of [...this.producers]) producer.close();
  }

  // ---- used by producers and consumers ----

  /**
   * Sends a message. It is encoded at once, so the caller may change or reuse the message object
   * as soon as this returns; it goes on the wire after every send made before it. See
   * ClientProducer.send for what aborting `signal` does.
   */
  sendMessage(
    message: CoreMessage,
    address: string,
    pacing?: Promise<void>,
    signal?: AbortSignal,
    confirmation?: ConfirmationWaiter,
  ): Promise<void> {
    return traceSend(message, address, () =>
      this.context.sendMessage(message, address, pacing, signal, confirmation),
    );
  }

  /** @internal (its consumers acknowledge through it) */
  sendAcknowledgement(packet: Acknowledge): Promise<void> {
    return this.context.sendAcknowledgement(packet);
  }

  /** @internal (its producers and consumers write through it) */
  sendOneWay(packet: Packet): void {
    this.context.sendOneWay(packet);
  }

  /** Asks the broker to close a consumer; an abort of `signal` stops waiting (see ClientConsumer.close). */
  async closeConsumerOnBroker(consumerId: number, signal?: AbortSignal): Promise<void> {
    await this.context.closeConsumer(consumerId, signal);
  }

  consumerClosed(consumer: ClientConsumer): void {
    this.consumers.delete(consumer.id);
  }

  producerClosed(producer: ClientProducer): void {
    if (this.producers.delete(producer)) this.context.producerClosed(producer.id);
  }

  /** A consumer gave a delivery it could not take back to the broker: the application hears why. */
  reportRefusedDelivery(error: HornetQException): void {
    this.reportAsyncError(error);
  }

  reportHandlerError(consumer: ClientConsumer, error: unknown): void {
    this.logger.warn(
      { err: error, consumer: consumer.id },
      'a message handler threw; the message is not redelivered',
    );
  }

  private async flushAcknowledgements(): Promise<void> {
    for (const consumer of this.consumers.values()) await consumer.flushAcknowledgements();
  }

  private reportAsyncError(error: HornetQException): void {
    if (this.asyncErrorHandler !== null) this.asyncErrorHandler(error);
    else this.logger.warn({ code: error.code }, `the broker reported: ${error.message}`);
  }

  private checkOpen(): void {
    if (this.closed) throw closedSession(this.name);
  }
}

function toQueueInfo(response: QueueQueryResponse): QueueInfo {
  return {
    exists: response.exists,
    address: response.address,
    durable: response.durable,
    temporary: response.temporary,
    filter: response.filter,
    consumerCount: response.consumerCount,
    messageCount: response.messageCount,
  };
}
