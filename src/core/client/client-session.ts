import { randomBytes, randomUUID } from 'node:crypto';
import {
  HornetQException,
  REATTACH_SECRET_BYTES,
  type Acknowledge,
  type BindingQueryResponse,
  type CoreMessage,
  type CreateSessionResponse,
  type Packet,
  type QueueQueryResponse,
  type QueueStats,
  type QueueStatsResponse,
  type ReattachSessionResponse,
} from '../protocol';
import { PacketType } from '../protocol/packet-type';
import type { Channel, Logger, RemotingConnection } from '../remoting';
import { abortable, type AbortOptions } from './abortable';
import type { ClientOptions } from './client-options';
import { ClientConsumer, type ConsumerSettings } from './client-consumer';
import { ClientProducer } from './client-producer';
import type { FailoverWatch } from './held-call';
import { MessageSender } from './message-sender';
import { SendGate } from './send-gate';
import { SessionCalls } from './session-calls';
import { SessionRestorer, type QueueToRestore } from './session-restorer';

export type { QueueToRestore } from './session-restorer';

/**
 * The address of the binding query that checks the answers after a reattach to a broker that is
 * not ours (see answersMatch): any address does, the answer's type is what counts.
 */
const ANSWER_CHECK_ADDRESS = 'hornetq-js.answer-check';

/**
 * How long a reattach to a broker that is not ours waits, before it replays, for the answers to
 * calls the broker may still be storing (Channel.awaitAnswersInFlight). A journal sync takes
 * milliseconds; a request lost with the link costs this wait once per reattach.
 */
const ANSWERS_IN_FLIGHT_MS = 100;

/** Queues asked for per page of queueStats() (the broker may send fewer). */
const QUEUE_STATS_PAGE_SIZE = 1000;

/**
 * Who a session is on the broker, chosen by the client when it creates the session and kept for
 * its life: a re-creation reuses both.
 */
export interface SessionIdentity {
  /** A random UUID: what a reattach presents (HornetQ's rule: reattach is by name). */
  readonly name: string;
  /** Our extension's reattach secret (16 random bytes); never logged. */
  readonly reattachSecret: Buffer;
}

/** A new session's identity: a random name and reattach secret. */
export function newSessionIdentity(): SessionIdentity {
  return { name: randomUUID(), reattachSecret: randomBytes(REATTACH_SECRET_BYTES) };
}

export interface SessionSettings {
  autoCommitSends: boolean;
  autoCommitAcks: boolean;
  preAcknowledge: boolean;
  ackBatchSize: number;
  username: string | null;
  password: string | null;
}

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

export interface CreateConsumerOptions {
  filter?: string | null;
  browseOnly?: boolean;
  /** Overrides the factory's consumerWindowSize for this consumer. */
  windowSize?: number;
}

/** What a session needs from its factory. */
export interface SessionFactoryLink extends FailoverWatch {
  sessionClosed(session: ClientSession): void;
  /** Like failoverEnded, but proceeds after call-failover-timeout (for closing). */
  whenNotFailingOver(): Promise<void>;
  openBrokerSession(
    channelId: number,
    settings: SessionSettings,
    identity: SessionIdentity,
  ): Promise<CreateSessionResponse>;
  temporaryQueueCreated(queue: QueueToRestore): void;
  temporaryQueueDeleted(name: string): void;
}

/**
 * A core session: one channel to the broker carrying its producers, consumers and (when not
 * auto-committing) its transaction. Calls that wait for the broker go through SessionCalls: a
 * call whose request is held for replay waits for a failover to decide its outcome, others are
 * bounded by call-timeout; calls made while the factory handles a failure wait for it first
 * (call-failover-timeout).
 */
export class ClientSession {
  /**
   * The broker answered CREATESESSION with our extension's trailer (it is a hornetq-js broker):
   * only then are extension packets sent (producer registration, queue statistics, refused
   * deliveries) and does a reattach carry the secret. A HornetQ or Artemis broker would drop such
   * packets uncounted, and the command counts of both sides would drift apart.
   */
  private isExtended: boolean;
  private readonly consumers = new Map<number, ClientConsumer>();
  private readonly producers = new Set<ClientProducer>();
  private readonly gate: SendGate;
  private readonly calls: SessionCalls;
  private readonly sender: MessageSender;
  private readonly restorer: SessionRestorer;
  private nextConsumerId = 0;
  private nextProducerId = 0;
  private started = false;
  private isClosed = false;
  /** close() has asked the broker to close the session: a failover must not bring it back. */
  private closing = false;
  /** Sent or received anything since the last commit or rollback (transacted sessions). */
  private workDone = false;
  /** Set when the broker lost the session while a transaction had work: commit must fail. */
  private rollbackOnly = false;
  private asyncErrorHandler: ((error: HornetQException) => void) | null = null;

  /** @internal (ClientSessionFactory.createSession makes sessions) */
  constructor(
    private identity: SessionIdentity,
    created: CreateSessionResponse,
    /** @internal (the wire channel of the session) */
    readonly channel: Channel,
    readonly settings: SessionSettings,
    private readonly options: ClientOptions,
    private readonly factory: SessionFactoryLink,
    private readonly logger: Logger,
  ) {
    this.isExtended = created.extension !== null;
    this.gate = new SendGate(
      options.producerWindowSize,
      (address, credits) =>
        this.sendOneWay({ type: PacketType.SESS_PRODUCER_REQUEST_CREDITS, address, credits }),
      channel,
      options.callTimeout,
    );
    this.calls = new SessionCalls(channel, options, factory);
    this.sender = new MessageSender(
      {
        get failingOver() {
          return factory.failingOver;
        },
        ready: () => this.ready(),
        workDone: () => this.noteWork(),
      },
      channel,
      this.calls,
      this.gate,
      options,
    );
    this.restorer = new SessionRestorer(this.calls, (packet) => this.sendOneWay(packet), this.gate);
    channel.setHandler((packet, commandId, size) => this.handlePacket(packet, commandId, size));
  }

  /** Which connection the session is on now, for messages: `connection 3 to tcp://host:5445`. @internal */
  describeConnection(): string {
    const connection = this.channel.connection;
    return `connection ${connection.id} to ${connection.remoteAddress}`;
  }

  /** The session's name on the broker (a UUID this client chose); kept when it is re-created. */
  get name(): string {
    return this.identity.name;
  }

  /** True when the broker is ours and speaks the extension (see isExtended). */
  get extended(): boolean {
    return this.isExtended;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get transacted(): boolean {
    return !this.settings.autoCommitSends || !this.settings.autoCommitAcks;
  }

  /** True when the broker lost the session during a transaction: the next commit rolls back. */
  get isRollbackOnly(): boolean {
    return this.rollbackOnly;
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
    const filter = options.filter ?? null;
    const temporary = options.temporary ?? false;
    await this.call({
      type: PacketType.CREATE_QUEUE,
      address,
      queueName,
      filter,
      durable: options.durable ?? true,
      temporary,
      requiresResponse: true,
    });
    if (temporary) this.factory.temporaryQueueCreated({ address, name: queueName, filter, temporary });
  }

  async deleteQueue(queueName: string): Promise<void> {
    await this.call({ type: PacketType.DELETE_QUEUE, queueName });
    this.factory.temporaryQueueDeleted(queueName);
  }

  async queueQuery(queueName: string): Promise<QueueInfo> {
    const response = (await this.call({ type: PacketType.SESS_QUEUEQUERY, queueName })) as QueueQueryResponse;
    return toQueueInfo(response);
  }

  /**
   * Every queue on the broker with its counters (messages, consumers, delivering, added,
   * acknowledged...), fetched a page at a time so that no answer grows with the broker. A queue
   * created or deleted meanwhile may be in the list or not; none is listed twice.
   */
  async queueStats(): Promise<QueueStats[]> {
    if (!this.isExtended) {
      throw new HornetQException(
        'UNSUPPORTED_PACKET',
        `Queue statistics need a hornetq-js broker; the broker at ${this.channel.connection.remoteAddress} is not one (a HornetQ or Artemis broker offers them over JMX)`,
      );
    }
    const byName = new Map<string, QueueStats>();
    let start = 0;
    for (;;) {
      const page = (await this.call({
        type: PacketType.SESS_QUEUE_STATS,
        start,
        maxCount: QUEUE_STATS_PAGE_SIZE,
      })) as QueueStatsResponse;
      for (const queue of page.queues) byName.set(queue.name, queue);
      start += page.queues.length;
      // An empty page that claims more would ask for the same page for ever.
      if (!page.more || page.queues.length === 0) return [...byName.values()];
    }
  }

  async bindingQuery(address: string): Promise<{ exists: boolean; queueNames: string[] }> {
    const response = (await this.call({
      type: PacketType.SESS_BINDINGQUERY,
      address,
    })) as BindingQueryResponse;
    return { exists: response.exists, queueNames: response.queueNames };
  }

  /**
   * Attaches key=data to the session on the broker (SESS_ADD_METADATA2, answered once the broker
   * has it); Artemis needs `jms-session` from a JMS session. A re-created session gets it again.
   */
  async addMetadata(key: string, data: string): Promise<void> {
    await this.call({ type: PacketType.SESS_ADD_METADATA2, key, data, requiresConfirmation: true });
    this.restorer.metadataAdded(key, data);
  }

  /**
   * Attaches key=data to the session on the broker; rejects with DUPLICATE_METADATA while another
   * session (of any client) holds the same pair. Released when the session closes.
   */
  async addUniqueMetadata(key: string, data: string): Promise<void> {
    await this.call({ type: PacketType.SESS_UNIQUE_ADD_METADATA, key, data, requiresConfirmation: true });
    this.restorer.uniqueMetadataAdded(key, data);
  }

  createProducer(address: string | null = null): ClientProducer {
    this.checkOpen();
    const producer = new ClientProducer(this.nextProducerId++, address, this, this.options.producerMaxRate);
    this.producers.add(producer);
    if (this.isExtended) {
      this.sendOneWay({ type: PacketType.SESS_CREATEPRODUCER, producerId: producer.id, address });
    }
    if (address !== null) this.gate.requestInitialCredits(address);
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
    };
    const consumer = new ClientConsumer(settings, this);
    // Registered before the broker answers: deliveries may follow the answer immediately.
    this.consumers.set(settings.id, consumer);
    let queue: QueueQueryResponse;
    try {
      queue = (await this.call({
        type: PacketType.SESS_CREATECONSUMER,
        consumerId: settings.id,
        queueName,
        filter: settings.filter,
        browseOnly: settings.browseOnly,
        requiresResponse: true,
      })) as QueueQueryResponse;
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
    this.sendOneWay({ type: PacketType.SESS_START });
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
    await this.call({ type: PacketType.SESS_STOP });
  }

  /**
   * Commits. After the broker lost the session during this transaction the work is gone: the
   * session rolls back and throws TRANSACTION_ROLLED_BACK. A commit cut off by such a failure
   * may or may not have happened: TRANSACTION_OUTCOME_UNKNOWN (retry with duplicate ids). A
   * commit whose answer is late waits for the failover to decide (SessionCalls): reattached, it
   * completes; no decision in time, CALL_OUTCOME_UNKNOWN.
   */
  async commit(): Promise<void> {
    await this.ready();
    if (this.rollbackOnly) {
      await this.rollback();
      throw new HornetQException(
        'TRANSACTION_ROLLED_BACK',
        'The transaction was rolled back on failover to a backup server',
      );
    }
    await this.flushAcknowledgements();
    try {
      await this.call({ type: PacketType.SESS_COMMIT });
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
    this.workDone = false;
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
    await this.ready();
    const wasStarted = this.started;
    if (wasStarted) await this.stop();
    await this.flushAcknowledgements();
    for (const consumer of this.consumers.values()) consumer.clearBuffer();
    await this.call({ type: PacketType.SESS_ROLLBACK, considerLastMessageAsDelivered: seen.length > 0 });
    this.rollbackOnly = false;
    this.workDone = false;
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
    if (this.isClosed) return;
    try {
      if (signal?.aborted !== true) await abortable(this.closeOnBroker(signal), signal);
    } catch (error) {
      // A close cut off by a failure is still a close: the broker forgets the session either way
      // (it closed it, or it reaps it with the old connection). HornetQ's close never throws.
      if (!this.closing && signal?.aborted !== true) throw error;
      this.logger.debug({ err: error, session: this.name }, 'the close request got no answer');
    } finally {
      this.closeLocally(new HornetQException('OBJECT_CLOSED', `Session ${this.name} is closed`));
    }
    signal?.throwIfAborted();
  }

  /** `await using`: close() without a signal. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async closeOnBroker(signal: AbortSignal | undefined): Promise<void> {
    await this.factory.whenNotFailingOver();
    if (this.isClosed || this.channel.connection.closed || signal?.aborted === true) return;
    await this.flushAcknowledgements();
    this.closing = true;
    await this.ready();
    // Confirmed before the close, never after: the broker drops the channel when it handles
    // the close, while deliveries it sent before keep arriving here.
    this.channel.endConfirmations();
    await this.calls.callWithinTimeout({ type: PacketType.SESS_CLOSE });
  }

  /** Ends the session on this side: waiting calls and sends fail with `reason`, receives get null. */
  closeLocally(reason: HornetQException): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.gate.close(reason);
    this.channel.returnBlocking(reason);
    for (const consumer of [...this.consumers.values()]) consumer.closeLocally();
    for (const producer of [...this.producers]) producer.close();
    this.channel.close();
    this.factory.sessionClosed(this);
  }

  // ---- failover, driven by the factory ----

  /** The connection failed: hold every write until the session is reattached or re-created. */
  beginFailover(): void {
    this.channel.hold();
  }

  /**
   * Moves the session onto a new connection. First a reattach: if the broker still has the
   * session, it replays what we have not confirmed and we replay what it has not, and the session
   * goes on as if nothing happened. Otherwise the session is re-created on the broker.
   * @internal (the factory drives failover)
   */
  async handleFailover(
    connection: RemotingConnection,
    handshake: Channel,
    takeTemporaryQueues: () => QueueToRestore[],
  ): Promise<{ reattached: boolean; replayed: number }> {
    const broken = this.channel.numberingBroken;
    // Whatever the broker answers on a broken numbering fits no call: none may take it.
    if (broken !== null) this.channel.returnBlocking(unblockedByBrokenNumbering(broken));
    this.channel.transferTo(connection);
    if (this.channel.confirmationWindowSize >= 0) {
      const response = (await handshake.sendBlocking({
        type: PacketType.REATTACH_SESSION,
        name: this.identity.name,
        lastConfirmedCommandId: this.channel.lastConfirmedCommandId,
        // The secret and credentials only to a broker that proved it is ours: to any other they
        // mean nothing (it ignores the trailer), and the password would go for no reason.
        extension: this.isExtended
          ? {
              reattachSecret: this.identity.reattachSecret,
              username: this.settings.username,
              password: this.settings.password,
            }
          : null,
      })) as ReattachSessionResponse;
      if (response.reattached) {
        // A broker not ours may still be storing (and will answer) commands beyond its answer.
        if (broken === null && !this.isExtended)
          await this.channel.awaitAnswersInFlight(ANSWERS_IN_FLIGHT_MS);
        const replayed =
          broken === null ? this.channel.replay(response.lastConfirmedCommandId, !this.isExtended) : null;
        if (replayed !== null && (await this.answersMatch(replayed))) return { reattached: true, replayed };
        // The broker's count of our commands is not ours: going on would drop frames it never
        // had and hand answers to the wrong calls. It still has the session: re-created beside it.
        if (!this.closing) {
          await this.recreate(takeTemporaryQueues(), true);
          return { reattached: false, replayed: 0 };
        }
        // Closing anyway: the broker's session is closed, and what it still sends is dropped.
        connection.write(this.channel.id, { type: PacketType.SESS_CLOSE });
        connection.retireChannel(this.channel.id);
      }
    }
    if (this.closing) {
      // The broker closed the session (its answer was lost) or lost it: re-creating it would leave
      // a session nobody closes. The close in progress is done.
      this.closeLocally(new HornetQException('OBJECT_CLOSED', `Session ${this.name} is closed`));
      return { reattached: false, replayed: 0 };
    }
    await this.recreate(takeTemporaryQueues());
    return { reattached: false, replayed: 0 };
  }

  /**
   * After a replay to a broker that is not ours: checks that every call waiting got exactly one
   * answer. HornetQ and Artemis answer a reattach with the last command they confirmed, and they
   * confirm a command only once it is stored, so a command they were still storing is replayed
   * and executed twice: two answers for one call, which would settle every later call with the
   * answer of the one before it, and a count of our commands one higher than ours. A binding
   * query goes last (its answer's type tells it apart; a waiting call of the same kind is owed
   * its own first) and the channel matches the answers that came before it
   * (Channel.countAnswersUpTo). False when they did not match:
   * the numbering is broken. A failure of the link meanwhile fails this attempt; the answers
   * that came stay held, and the next attempt's check matches them with the rest.
   */
  private async answersMatch(replayed: number): Promise<boolean> {
    if (this.isExtended) return true;
    // A check cut off by a failure has answers held: only the next check settles them.
    if (!this.channel.answersHeld && (replayed === 0 || this.channel.outstandingCalls === 0)) return true;
    const connection = this.channel.connection;
    // Failed already (during the wait for answers in flight): its listeners have been called.
    if (connection.closed) throw new HornetQException('DISCONNECTED', 'the link failed during the reattach');
    let onFailure: (error: HornetQException) => void = () => undefined;
    const failed = new Promise<never>((_, reject) => {
      onFailure = reject;
    });
    connection.addFailureListener(onFailure);
    try {
      const extras = await Promise.race([
        this.channel.countAnswersUpTo(
          { type: PacketType.SESS_BINDINGQUERY, address: ANSWER_CHECK_ADDRESS },
          (answer) => answer.type === PacketType.SESS_BINDINGQUERY_RESP,
          this.options.callTimeout,
        ),
        failed,
      ]);
      return extras === 0;
    } catch (error) {
      this.channel.cancelAnswerCount(error as Error);
      throw error;
    } finally {
      connection.removeFailureListener(onFailure);
    }
  }

  /**
   * HornetQ's re-creation: a new broker session on the same channel id, both command streams
   * restarted, calls in flight released with UNBLOCKED, then what the lost session had (see
   * SessionRestorer) and the started state. Everything is sent through the channel, so it is
   * counted like any other command.
   *
   * `beside`: the broker still has the session, under a numbering of our commands that is not
   * ours. It is closed (its answer, and whatever else it still sends, come on its channel id,
   * which the connection then drops), and the new one gets a new name and a new channel id, as
   * Artemis' client names every re-created session anew.
   */
  private async recreate(temporaryQueues: QueueToRestore[], beside = false): Promise<void> {
    for (const consumer of this.consumers.values()) consumer.clearAtFailover();
    if (beside) {
      const connection = this.channel.connection;
      connection.write(this.channel.id, { type: PacketType.SESS_CLOSE });
      this.channel.renumber(connection.generateChannelId());
      this.identity = newSessionIdentity();
    }
    const created = await this.factory.openBrokerSession(this.channel.id, this.settings, this.identity);
    this.sender.sessionRecreated();
    this.isExtended = created.extension !== null;
    this.channel.reset(
      new HornetQException(
        'UNBLOCKED',
        'Connection failure detected. Unblocking a blocking call that will never get a response: ' +
          'the broker lost the session, so whether it applied the call is not known',
      ),
    );
    // Every producer asks for its address's credits again (HornetQ's client does, on a reset), so
    // that its first send after the re-creation need not wait for them.
    await this.restorer.restore(temporaryQueues, this.consumers, this.producers, this.isExtended);
    // Only a session whose sends are transacted is rolled back (DESIGN.md's contract; HornetQ
    // also marks a session that only batches acknowledgements, JMS CLIENT_ACKNOWLEDGE): what
    // such a session lost is acknowledgements, and their messages come back marked redelivered,
    // which is all the application needs to know. Failing its next acknowledge() too would make
    // it see each message twice.
    if (!this.settings.autoCommitSends && this.workDone) this.rollbackOnly = true;
    if (this.started) this.sendOneWay({ type: PacketType.SESS_START });
    this.restorer.resendMetadata();
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
  ): Promise<void> {
    if (this.isClosed) return Promise.reject(closedSession(this.name));
    return this.sender.send(message, address, pacing, signal);
  }

  /** @internal (its consumers acknowledge through it) */
  sendAcknowledgement(packet: Acknowledge): Promise<void> {
    if (packet.requiresResponse) return this.call(packet).then(() => undefined);
    this.sendOneWay(packet);
    return SENT;
  }

  /** @internal (its producers and consumers write through it) */
  sendOneWay(packet: Packet): void {
    if (!this.isClosed) this.channel.send(packet);
  }

  /** Asks the broker to close a consumer; an abort of `signal` stops waiting (see ClientConsumer.close). */
  async closeConsumerOnBroker(consumerId: number, signal?: AbortSignal): Promise<void> {
    await abortable(this.factory.whenNotFailingOver(), signal);
    if (!this.isClosed && !this.channel.connection.closed) {
      await abortable(this.call({ type: PacketType.SESS_CONSUMER_CLOSE, consumerId }), signal);
    }
  }

  consumerClosed(consumer: ClientConsumer): void {
    this.consumers.delete(consumer.id);
  }

  producerClosed(producer: ClientProducer): void {
    if (this.producers.delete(producer) && this.isExtended)
      this.sendOneWay({ type: PacketType.SESS_CLOSEPRODUCER, producerId: producer.id });
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

  /**
   * Waits out a failover in progress (rejecting unsent after call-failover-timeout), then checks
   * the session is still open.
   */
  private async ready(): Promise<void> {
    await this.factory.failoverEnded();
    this.checkOpen();
  }

  private async call(packet: Packet): Promise<Packet> {
    await this.ready();
    return this.calls.call(packet);
  }

  /** Sent or received something: work of the transaction, when the session is transacted. */
  private noteWork(): void {
    if (this.transacted) this.workDone = true;
  }

  private handlePacket(packet: Packet, commandId: number, size: number): void {
    switch (packet.type) {
      case PacketType.SESS_RECEIVE_MSG:
        this.noteWork();
        this.consumers.get(packet.consumerId)?.handleDelivery(packet, size);
        break;
      case PacketType.SESS_RECEIVE_LARGE_MSG:
        this.noteWork();
        this.consumers.get(packet.consumerId)?.handleLargeMessage(packet, size);
        break;
      case PacketType.SESS_RECEIVE_CONTINUATION:
        this.consumers.get(packet.consumerId)?.handleLargeChunk(packet, size);
        break;
      case PacketType.DISCONNECT_CONSUMER:
        // The broker closed the consumer (its queue went, or an administrator closed it): it ends
        // here too, and asking the broker to close it again would only earn an error.
        this.consumers.get(packet.consumerId)?.closeLocally();
        break;
      case PacketType.SESS_PRODUCER_CREDITS:
        this.gate.receiveCredits(packet.address, packet.credits);
        break;
      case PacketType.SESS_PRODUCER_FAIL_CREDITS:
        this.gate.receiveFailCredits(packet.address, packet.credits);
        break;
      case PacketType.SESS_ASYNC_EXCEPTION:
        // Ours: a one-way packet the broker refused (a HornetQ broker only logs such failures).
        this.reportAsyncError(new HornetQException(packet.code, packet.message ?? packet.code));
        break;
      default:
        this.logger.warn(
          { type: packet.type },
          `unexpected packet ${packet.type} on session ${this.name}; ignored`,
        );
    }
    this.channel.confirm(commandId, size);
  }

  private reportAsyncError(error: HornetQException): void {
    if (this.asyncErrorHandler !== null) this.asyncErrorHandler(error);
    else this.logger.warn({ code: error.code }, `the broker reported: ${error.message}`);
  }

  private checkOpen(): void {
    if (this.isClosed) throw closedSession(this.name);
  }
}

/** Calls waiting when the numbering broke: the broker's answers cannot be matched to them. */
function unblockedByBrokenNumbering(cause: HornetQException): HornetQException {
  return new HornetQException(
    'UNBLOCKED',
    'Unblocking a blocking call whose answer cannot be matched: the broker counts the commands of the session differently from this client, so whether it applied the call is not known; the session is re-created',
    { cause },
  );
}

/** What every one-way call resolves with. */
const SENT: Promise<void> = Promise.resolve();

function closedSession(name: string): HornetQException {
  return new HornetQException('OBJECT_CLOSED', `Session ${name} is closed`);
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
