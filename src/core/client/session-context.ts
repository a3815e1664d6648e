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
  type QueueStatsResponse,
  type ReattachSession,
  type ReattachSessionResponse,
  type ReceiveContinuation,
  type ReceiveLargeMessage,
  type ReceiveMessage,
} from '../protocol';
import { MessageHeader } from '../protocol/message-header';
import { PacketType } from '../protocol/packet-type';
import type { Channel, ConfirmationWaiter, Logger, RemotingConnection } from '../remoting';
import { abortable } from './abortable';
import type { ClientOptions } from './client-options';
import type { FailoverWatch } from './held-call';
import { MessageSender } from './message-sender';
import { SendGate } from './send-gate';
import { SessionCalls } from './session-calls';
import {
  SessionRestorer,
  type QueueToRestore,
  type RestorableConsumer,
  type RestorableProducer,
} from './session-restorer';

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

/** What a session context needs from its factory for as long as the session lives. */
export interface SessionHost extends FailoverWatch {
  /** Like failoverEnded, but proceeds after call-failover-timeout (for closing). */
  whenNotFailingOver(): Promise<void>;
  temporaryQueueCreated(queue: QueueToRestore): void;
  temporaryQueueDeleted(name: string): void;
  /** The session has ended on this side. */
  closed(): void;
}

/** The connection a failover moves a session to, as the factory hands it over. */
export interface SessionLink {
  readonly connection: RemotingConnection;
  /** CREATESESSION through the connection's handshake channel, once the broker is ready for sessions. */
  openSession(
    channelId: number,
    settings: SessionSettings,
    identity: SessionIdentity,
  ): Promise<CreateSessionResponse>;
  /** REATTACH_SESSION through the connection's handshake channel. */
  reattach(request: ReattachSession): Promise<ReattachSessionResponse>;
  /** The factory's temporary queues for the first session re-created on this link; none after. */
  takeTemporaryQueues(): QueueToRestore[];
}

/** How a failover ended for one session. */
export interface FailoverOutcome {
  /** False: the session was re-created (or, closing, ended). */
  readonly reattached: boolean;
  /** Commands replayed by a reattach. */
  readonly replayed: number;
  /** Durable sends sent again after a re-creation (duplicate-id-on-durable-send). */
  readonly resent: number;
}

/** A consumer as the context sees it: where deliveries go, and what a re-creation restores. */
export interface ContextConsumer extends RestorableConsumer {
  handleDelivery(packet: ReceiveMessage, frameBytes: number): void;
  handleLargeMessage(packet: ReceiveLargeMessage, frameBytes: number): void;
  handleLargeChunk(packet: ReceiveContinuation, frameBytes: number): void;
  /** A re-creation begins: what the lost broker session had sent is gone. */
  clearAtFailover(): void;
  /** The broker closed the consumer (DISCONNECT_CONSUMER). */
  closeLocally(): void;
}

/** What the context needs from the session it carries: the state a re-creation restores. */
export interface CarriedSession {
  readonly consumers: ReadonlyMap<number, ContextConsumer>;
  readonly producers: ReadonlySet<RestorableProducer>;
  readonly started: boolean;
  /** A failure no caller waits for (a refused one-way packet). */
  reportAsyncError(error: HornetQException): void;
  /** Ends the session on this side (a close the broker finished while the link was down). */
  closeLocally(reason: HornetQException): void;
}

/**
 * The wire side of one core session (as Artemis splits ActiveMQSessionContext from
 * ClientSessionImpl): the packets of every session operation, the channel they travel on, and
 * what happens to them when the connection fails. After a failure the context first asks the
 * broker to reattach: both sides replay what the other has not confirmed and the session goes on
 * as if nothing happened. Otherwise it re-creates the session on the broker (HornetQ's path) and,
 * with duplicate-id-on-durable-send, sends again the durable sends the lost session never
 * confirmed (see recreate).
 */
export class SessionContext {
  /**
   * The broker answered CREATESESSION with our extension's trailer (it is a hornetq-js broker):
   * only then are extension packets sent (producer registration, queue statistics, refused
   * deliveries) and does a reattach carry the secret. A HornetQ or Artemis broker would drop such
   * packets uncounted, and the command counts of both sides would drift apart.
   */
  private isExtended: boolean;
  private readonly gate: SendGate;
  private readonly calls: SessionCalls;
  private readonly sender: MessageSender;
  private readonly restorer: SessionRestorer;
  private session: CarriedSession | null = null;
  private isClosed = false;
  /** The close request went: a failover must not bring the session back. */
  private closing = false;
  /** Sent or received anything since the last commit or rollback (transacted sessions). */
  private workDone = false;
  /** Set when the broker lost the session while a transaction had work: commit must fail. */
  private lostTransaction = false;

  constructor(
    private identity: SessionIdentity,
    created: CreateSessionResponse,
    private readonly channel: Channel,
    private readonly settings: SessionSettings,
    private readonly options: ClientOptions,
    private readonly host: SessionHost,
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
    this.calls = new SessionCalls(channel, options, host);
    this.sender = new MessageSender(
      {
        get failingOver() {
          return host.failingOver;
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

  /** Binds the session this context carries (once, when the session is made). */
  carry(session: CarriedSession): void {
    this.session = session;
  }

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

  /** The broker lost the session during a transaction with work: the next commit rolls back. */
  get rollbackOnly(): boolean {
    return this.lostTransaction;
  }

  get resendBufferBytes(): number {
    return this.channel.resendBufferBytes;
  }

  get resendBufferPeakBytes(): number {
    return this.channel.resendBufferPeakBytes;
  }

  /** Which connection the session is on now, for messages: `connection 3 to tcp://host:5445`. */
  describeConnection(): string {
    const connection = this.channel.connection;
    return `connection ${connection.id} to ${connection.remoteAddress}`;
  }

  /**
   * Waits out a failover in progress (rejecting unsent after call-failover-timeout), then checks
   * the session is still open.
   */
  async ready(): Promise<void> {
    await this.host.failoverEnded();
    this.checkOpen();
  }

  // ---- the session's operations, as packets ----

  async createQueue(
    address: string,
    queueName: string,
    filter: string | null,
    durable: boolean,
    temporary: boolean,
  ): Promise<void> {
    await this.call({
      type: PacketType.CREATE_QUEUE,
      address,
      queueName,
      filter,
      durable,
      temporary,
      requiresResponse: true,
    });
    if (temporary) this.host.temporaryQueueCreated({ address, name: queueName, filter, temporary });
  }

  async createSharedQueue(
    address: string,
    queueName: string,
    filter: string | null,
    durable: boolean,
  ): Promise<void> {
    await this.call({
      type: PacketType.CREATE_SHARED_QUEUE,
      address,
      queueName,
      filter,
      durable,
      requiresResponse: true,
    });
  }

  async deleteQueue(queueName: string): Promise<void> {
    await this.call({ type: PacketType.DELETE_QUEUE, queueName });
    this.host.temporaryQueueDeleted(queueName);
  }

  async queueQuery(queueName: string): Promise<QueueQueryResponse> {
    return (await this.call({ type: PacketType.SESS_QUEUEQUERY, queueName })) as QueueQueryResponse;
  }

  /** One page of queue statistics (our extension). */
  async queueStatsPage(start: number, maxCount: number): Promise<QueueStatsResponse> {
    if (!this.isExtended) {
      throw new HornetQException(
        'UNSUPPORTED_PACKET',
        `Queue statistics need a hornetq-js broker; the broker at ${this.channel.connection.remoteAddress} is not one (a HornetQ or Artemis broker offers them over JMX)`,
      );
    }
    return (await this.call({ type: PacketType.SESS_QUEUE_STATS, start, maxCount })) as QueueStatsResponse;
  }

  async bindingQuery(address: string): Promise<BindingQueryResponse> {
    return (await this.call({ type: PacketType.SESS_BINDINGQUERY, address })) as BindingQueryResponse;
  }

  async addMetadata(key: string, data: string): Promise<void> {
    await this.call({ type: PacketType.SESS_ADD_METADATA2, key, data, requiresConfirmation: true });
    this.restorer.metadataAdded(key, data);
  }

  async addUniqueMetadata(key: string, data: string): Promise<void> {
    await this.call({ type: PacketType.SESS_UNIQUE_ADD_METADATA, key, data, requiresConfirmation: true });
    this.restorer.uniqueMetadataAdded(key, data);
  }

  /** A producer was made: a broker of ours registers it, and its window is asked for now. */
  producerCreated(producer: RestorableProducer): void {
    if (this.isExtended) {
      this.sendOneWay({
        type: PacketType.SESS_CREATEPRODUCER,
        producerId: producer.id,
        address: producer.address,
      });
    }
    if (producer.address !== null) this.gate.requestInitialCredits(producer.address);
  }

  producerClosed(producerId: number): void {
    if (this.isExtended) this.sendOneWay({ type: PacketType.SESS_CLOSEPRODUCER, producerId });
  }

  async createConsumer(
    consumerId: number,
    queueName: string,
    filter: string | null,
    browseOnly: boolean,
  ): Promise<QueueQueryResponse> {
    return (await this.call({
      type: PacketType.SESS_CREATECONSUMER,
      consumerId,
      queueName,
      filter,
      browseOnly,
      requiresResponse: true,
    })) as QueueQueryResponse;
  }

  /**
   * Asks the broker to close a consumer once no failover is in progress, unless the session or
   * its link is gone by then; an abort of `signal` stops waiting (see ClientConsumer.close).
   */
  async closeConsumer(consumerId: number, signal?: AbortSignal): Promise<void> {
    await abortable(this.host.whenNotFailingOver(), signal);
    if (this.isClosed || this.channel.connection.closed) return;
    await abortable(this.call({ type: PacketType.SESS_CONSUMER_CLOSE, consumerId }), signal);
  }

  start(): void {
    this.sendOneWay({ type: PacketType.SESS_START });
  }

  async stop(): Promise<void> {
    await this.call({ type: PacketType.SESS_STOP });
  }

  async commit(): Promise<void> {
    await this.call({ type: PacketType.SESS_COMMIT });
    this.workDone = false;
  }

  async rollback(considerLastMessageAsDelivered: boolean): Promise<void> {
    await this.call({ type: PacketType.SESS_ROLLBACK, considerLastMessageAsDelivered });
    this.lostTransaction = false;
    this.workDone = false;
  }

  /** See ClientSession.sendMessage. */
  sendMessage(
    message: CoreMessage,
    address: string,
    pacing?: Promise<void>,
    signal?: AbortSignal,
    confirmation?: ConfirmationWaiter,
  ): Promise<void> {
    if (this.isClosed) return Promise.reject(closedSession(this.name));
    if (confirmation !== undefined && this.channel.confirmationWindowSize < 0) {
      // HornetQ completes such a send at once, unacknowledged (its warning 212053): refused here.
      return Promise.reject(
        new HornetQException(
          'ILLEGAL_STATE',
          `A send with confirm: true needs a confirmation-window-size (confirmationWindowSize), not -1; session ${this.name} has -1, so the broker confirms nothing`,
        ),
      );
    }
    return this.sender.send(message, address, pacing, signal, confirmation);
  }

  sendAcknowledgement(packet: Acknowledge): Promise<void> {
    if (packet.requiresResponse) return this.call(packet).then(() => undefined);
    this.sendOneWay(packet);
    return SENT;
  }

  sendOneWay(packet: Packet): void {
    if (!this.isClosed) this.channel.send(packet);
  }

  /**
   * Asks the broker to close the session, once no failover is in progress, unless there is
   * nothing to ask by then (closed here already, link gone, or `signal` aborted). `beforeClose`
   * runs first (the session's batched acknowledgements belong to the session it closes).
   */
  async closeOnBroker(signal: AbortSignal | undefined, beforeClose: () => Promise<void>): Promise<void> {
    await this.host.whenNotFailingOver();
    if (this.isClosed || this.channel.connection.closed || signal?.aborted === true) return;
    await beforeClose();
    this.closing = true;
    await this.ready();
    // Confirmed before the close, never after: the broker drops the channel when it handles
    // the close, while deliveries it sent before keep arriving here.
    this.channel.endConfirmations();
    await this.calls.callWithinTimeout({ type: PacketType.SESS_CLOSE });
  }

  /** True once the close request is under way: a failure then ends the session. */
  get closeRequested(): boolean {
    return this.closing;
  }

  /** Ends the wire side: waiting calls and sends fail with `reason`; the factory is told. */
  end(reason: HornetQException): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.gate.close(reason);
    this.channel.returnBlocking(reason);
    this.channel.close(reason);
    this.host.closed();
  }

  // ---- failover, driven by the factory ----

  /** The connection failed: hold every write until the session is reattached or re-created. */
  beginFailover(): void {
    this.channel.hold();
  }

  /**
   * Moves the session onto the link's connection. First a reattach: if the broker still has the
   * session, it replays what we have not confirmed and we replay what it has not, and the session
   * goes on as if nothing happened. Otherwise the session is re-created on the broker.
   */
  async failOver(link: SessionLink): Promise<FailoverOutcome> {
    const broken = this.channel.numberingBroken;
    // Whatever the broker answers on a broken numbering fits no call: none may take it. A send
    // the re-creation will send again keeps its caller waiting, for the answer to the resend.
    if (broken !== null) {
      const released = unblockedByBrokenNumbering(broken);
      if (this.resendsDurableSends()) this.channel.setAsideCalls(isStampedDurableSend, released);
      else this.channel.returnBlocking(released);
    }
    this.channel.transferTo(link.connection);
    if (this.channel.confirmationWindowSize >= 0) {
      const response = await link.reattach({
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
      });
      if (response.reattached) {
        // A broker not ours may still be storing (and will answer) commands beyond its answer.
        if (broken === null && !this.isExtended)
          await this.channel.awaitAnswersInFlight(ANSWERS_IN_FLIGHT_MS);
        const replayed =
          broken === null ? this.channel.replay(response.lastConfirmedCommandId, !this.isExtended) : null;
        if (replayed !== null && (await this.answersMatch(replayed)))
          return { reattached: true, replayed, resent: 0 };
        // The broker's count of our commands is not ours: going on would drop frames it never
        // had and hand answers to the wrong calls. It still has the session: re-created beside it.
        if (!this.closing) return { reattached: false, replayed: 0, resent: await this.recreate(link, true) };
        // Closing anyway: the broker's session is closed, and what it still sends is dropped.
        link.connection.write(this.channel.id, { type: PacketType.SESS_CLOSE });
        link.connection.retireChannel(this.channel.id);
      }
    }
    if (this.closing) {
      // The broker closed the session (its answer was lost) or lost it: re-creating it would leave
      // a session nobody closes. The close in progress is done.
      this.carried().closeLocally(closedSession(this.name));
      return { reattached: false, replayed: 0, resent: 0 };
    }
    return { reattached: false, replayed: 0, resent: await this.recreate(link) };
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
   * With duplicate-id-on-durable-send (and sends not transacted), the durable sends the lost
   * session never confirmed nor answered are not dropped: they go again, in their order, after
   * the restored state and before any new send, and a blocking send waiting for one gets the
   * answer to its resend. Each carries a duplicate id, so a broker that had stored it (the same
   * broker restarted, a backup sharing or replicating its journal) drops the second copy.
   *
   * `beside`: the broker still has the session, under a numbering of our commands that is not
   * ours. It is closed (its answer, and whatever else it still sends, come on its channel id,
   * which the connection then drops), and the new one gets a new name and a new channel id, as
   * Artemis' client names every re-created session anew.
   */
  private async recreate(link: SessionLink, beside = false): Promise<number> {
    const session = this.carried();
    for (const consumer of session.consumers.values()) consumer.clearAtFailover();
    if (beside) {
      link.connection.write(this.channel.id, { type: PacketType.SESS_CLOSE });
      this.channel.renumber(link.connection.generateChannelId());
      this.identity = newSessionIdentity();
    }
    const created = await link.openSession(this.channel.id, this.settings, this.identity);
    this.sender.sessionRecreated();
    this.isExtended = created.extension !== null;
    const held = this.channel.reset(
      new HornetQException(
        'UNBLOCKED',
        'Connection failure detected. Unblocking a blocking call that will never get a response: ' +
          'the broker lost the session, so whether it applied the call is not known',
      ),
      this.resendsDurableSends() ? isStampedDurableSend : undefined,
      new HornetQException(
        'UNBLOCKED',
        'Connection failure detected. The broker lost the session before it confirmed this send, so whether it has the message is not known: send it again with a duplicate id to be safe (duplicate-id-on-durable-send does so for durable sends)',
      ),
    );
    let resent: number;
    try {
      // Every producer asks for its address's credits again (HornetQ's client does, on a reset), so
      // that its first send after the re-creation need not wait for them.
      await this.restorer.restore(
        link.takeTemporaryQueues(),
        session.consumers,
        session.producers,
        this.isExtended,
      );
    } finally {
      // Even when the restore fails (the link again): held, they go with the next reattach's replay.
      resent = this.channel.resendHeld(held);
    }
    // Only a session whose sends are transacted is rolled back (DESIGN.md's contract; HornetQ
    // also marks a session that only batches acknowledgements, JMS CLIENT_ACKNOWLEDGE): what
    // such a session lost is acknowledgements, and their messages come back marked redelivered,
    // which is all the application needs to know. Failing its next acknowledge() too would make
    // it see each message twice.
    if (!this.settings.autoCommitSends && this.workDone) this.lostTransaction = true;
    if (session.started) this.sendOneWay({ type: PacketType.SESS_START });
    return resent;
  }

  /** Inside a transaction nothing is sent again: the transaction is rolled back as a whole. */
  private resendsDurableSends(): boolean {
    return this.options.duplicateIdOnDurableSend && this.settings.autoCommitSends;
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
    const session = this.carried();
    switch (packet.type) {
      case PacketType.SESS_RECEIVE_MSG:
        this.noteWork();
        session.consumers.get(packet.consumerId)?.handleDelivery(packet, size);
        break;
      case PacketType.SESS_RECEIVE_LARGE_MSG:
        this.noteWork();
        session.consumers.get(packet.consumerId)?.handleLargeMessage(packet, size);
        break;
      case PacketType.SESS_RECEIVE_CONTINUATION:
        session.consumers.get(packet.consumerId)?.handleLargeChunk(packet, size);
        break;
      case PacketType.DISCONNECT_CONSUMER:
        // The broker closed the consumer (its queue went, or an administrator closed it): it ends
        // here too, and asking the broker to close it again would only earn an error.
        session.consumers.get(packet.consumerId)?.closeLocally();
        break;
      case PacketType.SESS_PRODUCER_CREDITS:
        this.gate.receiveCredits(packet.address, packet.credits);
        break;
      case PacketType.SESS_PRODUCER_FAIL_CREDITS:
        this.gate.receiveFailCredits(packet.address, packet.credits);
        break;
      case PacketType.SESS_ASYNC_EXCEPTION:
        // Ours: a one-way packet the broker refused (a HornetQ broker only logs such failures).
        session.reportAsyncError(new HornetQException(packet.code, packet.message ?? packet.code));
        break;
      case PacketType.SESS_SEND_REFUSED: {
        // Ours (version 2): the refused send's caller hears it, if it waits for its confirmation.
        const refusal = new HornetQException(packet.code, packet.message ?? packet.code);
        if (!this.channel.refuseCommand(packet.commandId, refusal)) session.reportAsyncError(refusal);
        break;
      }
      default:
        this.logger.warn(
          { type: packet.type },
          `unexpected packet ${packet.type} on session ${this.name}; ignored`,
        );
    }
    this.channel.confirm(commandId, size);
  }

  private carried(): CarriedSession {
    if (this.session === null) throw new Error(`session context ${this.name} carries no session`);
    return this.session;
  }

  private checkOpen(): void {
    if (this.isClosed) throw closedSession(this.name);
  }
}

/** A durable send carrying a duplicate id: safe to send again to a broker that may have it. */
function isStampedDurableSend(packet: Packet): boolean {
  return (
    packet.type === PacketType.SESS_SEND &&
    packet.message.durable &&
    packet.message.properties.has(MessageHeader.DUPLICATE_DETECTION_ID)
  );
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

export function closedSession(name: string): HornetQException {
  return new HornetQException('OBJECT_CLOSED', `Session ${name} is closed`);
}
