import {
  CoreMessage,
  FORCED_DELIVERY_SEQUENCE_PROPERTY,
  HornetQException,
  LargeMessageAssembler,
  PropertyKind,
  type Acknowledge,
  type CreateConsumer,
  type CreateQueue,
  type CreateSharedQueue,
  type Packet,
  type SendContinuation,
  type SendLargeMessage,
  type SessionSend,
} from '../../core/protocol';
import { PacketType } from '../../core/protocol/packet-type';
import { MAX_UNCONFIRMED_COMMANDS, type Channel, type Logger } from '../../core/remoting';
import type { PostOffice } from '../postoffice/post-office';
import type { Queue } from '../postoffice/queue';
import type { ManagementEndpoint } from '../management/management-endpoint';
import { MANAGEMENT_ADDRESS, type Permission } from '../security/permission';
import { permissionDenied, type SessionGuard } from '../security/session-guard';
import type { Durability } from '../storage/storage-manager';
import { AnswerQueue } from './answer-queue';
import { DeliveryWriter } from './delivery-writer';
import { ProducerCredits } from './producer-credits';
import { queueStatsPage } from './queue-stats-page';
import { SendAdmission } from './send-admission';
import { SessionConsumers } from './session-consumers';
import { SessionMetadata } from './session-metadata';
import { SessionPacketHandler, type SessionOperations } from './session-packet-handler';
import { ServerConsumer } from './server-consumer';
import { Transaction } from './transaction';

export interface ServerSessionOptions {
  /** The client's choice (HornetQ's clients pick a UUID): what a reattach names. */
  name: string;
  /**
   * The 16 bytes a client of ours chose at CREATESESSION (our extension): a reattach must present
   * them, compared in constant time; never logged. Null for a session created without the
   * extension (a HornetQ Java client's), which also never hears an extension packet.
   */
  reattachSecret: Buffer | null;
  /**
   * The extension version negotiated at CREATESESSION (0 without the extension; 1 when not
   * given): from 2 on, a refused one-way send is told in SESS_SEND_REFUSED, naming its command.
   */
  extensionVersion?: number;
  /** Who the session logged in as (as CREATESESSION named it when security is disabled). */
  username: string | null;
  /** What the session may do: asked before every operation that needs a permission. */
  guard: SessionGuard;
  autoCommitSends: boolean;
  autoCommitAcks: boolean;
  preAcknowledge: boolean;
  /** Bodies of this size or more go to this session's consumers in chunks (the client's setting). */
  minLargeMessageSize: number;
  /** The largest body a large message sent through this session may have. */
  maxLargeMessageBytes: number;
  /**
   * The address a message sent without one goes to (CREATESESSION's defaultAddress), null until
   * the session's first message that names an address sets it (see ServerSession.send).
   */
  defaultAddress: string | null;
  /**
   * Where messages sent to the management address go instead of being routed (null: no
   * management address, every address routes).
   */
  management?: ManagementEndpoint | null;
}

/** What a session needs from the connection that owns it. */
export interface SessionOwner {
  /** The connection's link is gone: the session waits, detached, for its client to come back. */
  readonly linkGone: boolean;
  /** Records a temporary queue so that it is deleted with the connection. */
  addTemporaryQueue(name: string): void;
  removeTemporaryQueue(name: string): void;
  /** Whether the temporary queue `name` was made on this connection (by any of its sessions). */
  ownsTemporaryQueue(name: string): boolean;
  /** Attaches a key/value that no other session may hold at the same time (a JMS client id). */
  addUniqueMetadata(session: ServerSession, key: string, data: string): void;
  /** Called once when the session has closed and released everything. */
  sessionClosed(session: ServerSession): void;
  /** The client leaves more unconfirmed on the session's channel than the broker keeps. */
  clientFellBehind(session: ServerSession, channelId: number): void;
  /** Throws when the connection may hold no more consumers. */
  checkConsumerLimit(): void;
  /** Throws when the connection may hold no more producers. */
  checkProducerLimit(): void;
  /**
   * Why `bytes` more of large-message body may not be assembled for this connection (over all its
   * sessions), or null when there is room.
   */
  largeMessageRefusal(bytes: number): HornetQException | null;
  /** The store failed: what the session handled may not be on disk, so the broker stops. */
  storageFailed(error: Error): void;
  /**
   * Stops (true) or resumes (false) reading the connection for `holder`: it is read while no
   * holder holds it.
   */
  holdReading(holder: object, hold: boolean): void;
}

/**
 * Answers a session may hold waiting for syncs before its connection stops being read: what a
 * client sends while the disk is slow is bounded, not kept without limit. As many as the channel
 * handles between two confirmations.
 */
export const MAX_HELD_ANSWERS = MAX_UNCONFIRMED_COMMANDS;

/**
 * A client session on the broker: one channel, its consumers and producers, and its transaction
 * when transacted. Packets are handled in the order they arrive; each is confirmed once handled
 * and what it stored is on disk, then answered, so a confirmation always means "done" (the
 * AnswerQueue keeps confirmations and answers in packet order while syncs are pending). Deciding whether a send is taken
 * (SendAdmission), writing deliveries (DeliveryWriter) and answering producer credit requests
 * (ProducerCredits) are separate jobs, each behind the narrow view of the session it needs; the
 * consumers and the started state they follow are kept by SessionConsumers.
 */
export class ServerSession implements SessionOperations {
  readonly name: string;
  readonly reattachSecret: Buffer | null;
  readonly extensionVersion: number;
  readonly username: string | null;
  /** Epoch ms; management shows it. */
  readonly createdAt = Date.now();
  private readonly guard: SessionGuard;
  /** What the client attached with SESS_ADD_METADATA(2) (the JMS layer's `jms-session`, ...). */
  readonly metadata = new SessionMetadata();
  private readonly consumers: SessionConsumers<ServerConsumer>;
  private readonly producers = new Map<number, string | null>();
  private readonly transaction: Transaction | null;
  private readonly autoCommitSends: boolean;
  private readonly autoCommitAcks: boolean;
  /** HornetQ's pre-acknowledge: a message counts as acknowledged as soon as it is delivered. */
  private readonly preAcknowledge: boolean;
  private readonly largeMessages: LargeMessageAssembler;
  private readonly admission: SendAdmission;
  private readonly deliveries: DeliveryWriter;
  private confirmationFlushQueued = false;
  private readonly producerCredits: ProducerCredits;
  private readonly answers: AnswerQueue;
  /** Which operation a packet asks for, and what its client hears back. */
  private readonly handler: SessionPacketHandler;
  /** Reading the connection is held until the held answers have gone out (see MAX_HELD_ANSWERS). */
  private holdingReads = false;
  private closed = false;
  private defaultAddress: string | null;
  private readonly management: ManagementEndpoint | null;

  constructor(
    readonly channel: Channel,
    options: ServerSessionOptions,
    private readonly postOffice: PostOffice,
    /** The connection the session lives on; a reattach moves it to the new one. */
    public owner: SessionOwner,
    private readonly logger: Logger,
    /** Only what it takes to hold an answer until the packet's records are on disk. */
    durability: Durability,
  ) {
    this.name = options.name;
    this.defaultAddress = options.defaultAddress;
    this.management = options.management ?? null;
    this.reattachSecret = options.reattachSecret;
    this.extensionVersion = options.reattachSecret === null ? 0 : (options.extensionVersion ?? 1);
    this.username = options.username;
    this.guard = options.guard;
    this.consumers = new SessionConsumers(options.name);
    this.preAcknowledge = options.preAcknowledge;
    this.autoCommitAcks = options.autoCommitAcks;
    // The frame cap is read when needed: a reattach moves the channel to another connection.
    const maxFrameBytes = (): number => channel.connection.maxFrameBytes;
    this.admission = new SendAdmission(postOffice, maxFrameBytes);
    this.deliveries = new DeliveryWriter(
      {
        send: (packet) => {
          const frame = channel.encode(packet);
          channel.send(packet, frame);
          return frame.length;
        },
        maxFrameBytes,
      },
      options.minLargeMessageSize,
    );
    this.producerCredits = new ProducerCredits(postOffice, (packet) => channel.send(packet));
    this.largeMessages = new LargeMessageAssembler(options.maxLargeMessageBytes, "the broker's");
    this.transaction = options.autoCommitSends && options.autoCommitAcks ? null : new Transaction();
    this.autoCommitSends = options.autoCommitSends;
    // The owner at the time of the failure: a reattach moves the session to another connection.
    this.answers = new AnswerQueue(durability, (error) => this.owner.storageFailed(error));
    this.handler = new SessionPacketHandler(this, logger);
    channel.setHandler((packet, commandId, size) => this.handlePacket(packet, commandId, size));
  }

  get consumerCount(): number {
    return this.consumers.size;
  }

  /** The session's consumers and browsers (management lists them). */
  consumerList(): ServerConsumer[] {
    return [...this.consumers.values()];
  }

  /** Messages delivered to the session's consumers and not yet acknowledged. */
  get deliveringCount(): number {
    return this.consumers.deliveringCount;
  }

  get producerCount(): number {
    return this.producers.size;
  }

  /** Bytes of the large message being assembled (sent to the broker in chunks, not yet whole). */
  get largeMessageBytes(): number {
    return this.largeMessages.heldBytes;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Created with our extension: its client is ours and may hear extension packets. */
  get extended(): boolean {
    return this.reattachSecret !== null;
  }

  /** A session whose channel keeps a resend buffer can outlive its connection and be reattached. */
  get supportsReattach(): boolean {
    return this.channel.confirmationWindowSize >= 0;
  }

  /** Handled packets whose confirmation and answer wait for a sync (or behind one that does). */
  get pendingAnswers(): number {
    return this.answers.size;
  }

  /**
   * Calls `done` once every packet handled so far is confirmed and answered (see
   * AnswerQueue.whenAnswered): a reattach reports the last confirmed command only then.
   */
  whenAnswered(done: (error: Error | null) => void): void {
    this.answers.whenAnswered(done);
  }

  private handlePacket(packet: Packet, commandId: number, size: number): void {
    const mark = this.answers.mark();
    const response = this.handler.handle(packet, commandId);
    const closing = this.closed;
    this.answers.settle(mark, () => this.answer(commandId, size, response, closing));
    if (this.answers.size >= MAX_HELD_ANSWERS && !this.holdingReads) this.holdReads();
  }

  /** Nothing more is read from the connection until every held answer has gone out. */
  private holdReads(): void {
    this.holdingReads = true;
    this.owner.holdReading(this, true);
    // The owner at the time of the release: a reattach (which waits for this too) moves the session.
    this.answers.whenAnswered(() => {
      this.holdingReads = false;
      this.owner.holdReading(this, false);
    });
  }

  /** Confirms a handled packet and sends its answer; after the close answer, the session goes. */
  private answer(commandId: number, size: number, response: Packet | null, closing: boolean): void {
    // Closed meanwhile (its client vanished): nobody is left to answer.
    if (this.channel.closed) return;
    // A refusal goes out before any confirmation that covers its command: a client waiting for
    // the send's confirmation must hear of the refusal first, or it would take the send as done.
    const refusal = response?.type === PacketType.SESS_SEND_REFUSED;
    if (refusal) this.channel.send(response);
    this.channel.confirm(commandId, size);
    this.flushConfirmationsSoon();
    if (response !== null && !refusal) this.channel.send(response);
    if (closing) this.release();
  }

  /**
   * Confirms what this turn handled once the turn is over (a socket read, a journal sync), not only
   * every confirmation-window-size bytes. A peer that sends without waiting for answers (a Java
   * producer's asynchronous durable sends) otherwise gets nothing back for a window, and on
   * loopback its kernel then waits for a delayed ACK (about 40 ms) after every socket buffer of
   * sends: HornetQ's Java client asks for 32 KiB buffers, one loopback segment. A confirmation
   * costs one small frame per turn, and frees the peer's resend buffer sooner.
   */
  private flushConfirmationsSoon(): void {
    if (this.confirmationFlushQueued) return;
    this.confirmationFlushQueued = true;
    queueMicrotask(() => {
      this.confirmationFlushQueued = false;
      if (!this.channel.closed) this.channel.flushConfirmations();
    });
  }

  /** A message sent whole; the session's default address fills in a missing one. */
  send({ message }: SessionSend): void {
    this.addressMessage(message);
    this.route(message);
  }

  /** The head of a large message: its body follows in chunks. */
  beginLargeMessage(packet: SendLargeMessage): void {
    // HornetQ's producers announce no size in the head: the last chunk states it.
    this.largeMessages.begin(packet.message, null);
    // Refused at once, so that no body is assembled; its last chunk is answered with the refusal.
    if (!this.guard.allows('send', packet.message.address)) {
      this.largeMessages.refuse(this.refuseSend(packet.message.address));
    }
  }

  /** A chunk of a large message's body; the last one routes the whole message. */
  continueLargeMessage(packet: SendContinuation): void {
    this.makeRoomFor(packet.chunk.length);
    const step = this.largeMessages.append(packet.chunk, packet.continues, packet.messageBodySize);
    if (step.kind === 'refused') throw step.error;
    // HornetQ sends a whole large message as it was addressed: it neither takes nor sets the
    // session's default address (its client always names the address of a large message).
    if (step.kind === 'complete') this.route(step.message);
  }

  /** The client dropped an expired message it was delivered. */
  expire(consumerId: number, messageId: number): void {
    const reference = this.consumers.require(consumerId).acknowledgeOne(messageId);
    reference.queue.expireDelivering(reference, Date.now());
  }

  receiveCredits(consumerId: number, credits: number): void {
    this.consumers.require(consumerId).receiveCredits(credits);
  }

  closeProducer(producerId: number): void {
    this.producers.delete(producerId);
  }

  requestProducerCredits(address: string, credits: number): void {
    this.producerCredits.request(address, credits);
  }

  setMetadata(key: string, data: string): void {
    this.metadata.set(key, data);
  }

  /**
   * Refused with nothing claimed (no room for the key, or another session holds the pair).
   */
  addUniqueMetadata(key: string, data: string): void {
    this.metadata.checkRoomFor(key);
    this.owner.addUniqueMetadata(this, key, data);
    this.metadata.set(key, data);
  }

  /** Listing the queues is management, as HornetQ's listQueues through its management address. */
  queueStats(start: number, maxCount: number): Packet {
    this.guard.check('manage', this.management?.address ?? MANAGEMENT_ADDRESS);
    return {
      type: PacketType.SESS_QUEUE_STATS_RESP,
      ...queueStatsPage(this.visibleQueues(), start, maxCount),
    };
  }

  bindingQuery(address: string): Packet {
    const queues = this.postOffice.queuesBoundTo(address);
    // The management address has no queue, yet a send there goes somewhere (HornetQ's HORNETQ-29).
    if (address === this.management?.address)
      return { type: PacketType.SESS_BINDINGQUERY_RESP, exists: true, queueNames: [] };
    return {
      type: PacketType.SESS_BINDINGQUERY_RESP,
      // Whether a send there goes anywhere (HornetQ's JMS producer asks before its first send,
      // a reply to another connection's temporary queue included); only the names are hidden.
      exists: queues.length > 0,
      queueNames: queues.filter((queue) => this.isVisible(queue)).map((queue) => queue.name),
    };
  }

  setStarted(started: boolean): void {
    this.consumers.setStarted(started);
  }

  commit(): void {
    this.requireTransaction().commit(this.postOffice);
  }

  private route(message: CoreMessage): void {
    if (this.management !== null && message.address === this.management.address) {
      this.manage(message, this.management);
      return;
    }
    if (!this.guard.allows('send', message.address)) throw this.refuseSend(message.address);
    const route = this.admission.admit(message);
    if (route === null) return;
    if (this.autoCommitSends) this.postOffice.send(route);
    else this.requireTransaction().addSend(this.postOffice, route);
  }

  /**
   * A management request (HornetQ's handleManagementMessage): it needs `manage` on the management
   * address (not `send`), and is answered at once, in a transaction or not; the request itself is
   * not routed anywhere.
   */
  private manage(message: CoreMessage, management: ManagementEndpoint): void {
    if (!this.guard.allows('manage', message.address)) {
      const refusal = this.denied('manage', message.address);
      if (!this.autoCommitSends) this.requireTransaction().markRollbackOnly(refusal);
      throw refusal;
    }
    management.handle(message, this.username);
  }

  /**
   * HornetQ's Java client names a session's first address once: a later message to the same
   * address travels with a null address (ClientSessionImpl.setAddress), and HornetQ's server sends
   * it to the session's default address, set by CREATESESSION or by the first message that named
   * one. Without this, every message after a Java producer's first would route nowhere.
   */
  private addressMessage(message: CoreMessage): void {
    if (message.address !== '') this.defaultAddress ??= message.address;
    else if (this.defaultAddress !== null) message.address = this.defaultAddress;
  }

  acknowledge(packet: Acknowledge): void {
    const consumer = this.consumers.require(packet.consumerId);
    const references =
      packet.type === PacketType.SESS_ACKNOWLEDGE
        ? consumer.acknowledgeUpTo(packet.messageId)
        : [consumer.acknowledgeOne(packet.messageId)];
    if (this.autoCommitAcks) for (const reference of references) reference.queue.acknowledge(reference);
    else this.requireTransaction().addAcknowledgements(references);
  }

  createConsumer(packet: CreateConsumer): Packet {
    if (this.consumers.has(packet.consumerId)) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `Consumer ${packet.consumerId} already exists in this session`,
      );
    }
    this.owner.checkConsumerLimit();
    const queue = this.postOffice.requireQueue(packet.queueName);
    // Browsing needs consume too (HornetQ 2.4 has no browse permission).
    this.guard.check('consume', queue.address);
    this.checkTemporaryOwner(queue, 'consume from it');
    const filter =
      packet.filter === null || packet.filter === '' ? null : this.postOffice.createFilter(packet.filter);
    const consumer = new ServerConsumer(
      packet.consumerId,
      queue,
      filter,
      packet.browseOnly,
      {
        deliver: (id, ref, count) => this.deliveries.deliver(id, ref.message, count),
        deliverMarker: (id, sequence, priority) =>
          this.sendForcedDeliveryMarker(id, queue.name, sequence, priority),
        failed: (failed, error) => this.consumerFailed(failed, error),
      },
      this.preAcknowledge,
      // The connection's client is not taking what was written: other consumers get the messages.
      () => this.channel.connection.congested,
    );
    this.consumers.add(consumer);
    return this.queueQuery(packet.queueName);
  }

  /**
   * The client could not take a delivery: it goes back as a failed one (redelivery delay, then
   * the dead-letter address after max-delivery-attempts), as if the application had rolled it back.
   */
  takeBackRefused(consumerId: number, messageId: number): void {
    const reference = this.consumers.require(consumerId).acknowledgeOne(messageId);
    this.logger.warn(
      { session: this.name, consumer: consumerId, messageId, deliveryCount: reference.deliveryCount },
      `the client refused message ${messageId} (too large for it, or its body was incomplete)`,
    );
    this.postOffice.cancel([reference]);
  }

  /**
   * A delivery to one of this session's consumers threw (a fault of the broker's, not of what
   * was sent: sends that could not be delivered are refused). The consumer already takes nothing
   * more; the session closes, returning what its consumers hold (the failed delivery among them),
   * and its connection fails, so that the client re-creates its session instead of reattaching
   * to the broken one. Later, not now: the queue is in the middle of a delivery pass.
   */
  private consumerFailed(consumer: ServerConsumer, error: unknown): void {
    const connection = this.channel.connection;
    const reason = `delivery to consumer ${consumer.id} on queue ${consumer.queue.name} failed: ${
      error instanceof Error ? error.message : String(error)
    }`;
    this.logger.error(
      { err: error, session: this.name },
      `closing session ${this.name} and connection ${connection.id}: ${reason}`,
    );
    process.nextTick(() => {
      try {
        this.close(true);
      } catch (closeError) {
        this.logger.error({ err: closeError, session: this.name }, `closing session ${this.name} failed`);
      }
      connection.fail(new HornetQException('INTERNAL_ERROR', reason, { cause: error }));
    });
  }

  /**
   * Delivers what the queue has for the consumer now, then HornetQ's marker message, which tells
   * the client that nothing more was waiting (how receive with a timeout and receiveNoWait end).
   * The marker is no answer: the request is one-way, and it costs the consumer no credits.
   */
  forceDelivery(consumerId: number, sequence: number): void {
    this.consumers.require(consumerId).forceDelivery(sequence);
  }

  /**
   * HornetQ's forced-delivery marker: a delivery of a message of its own (a fresh id, the queue's
   * name as its address, the sequence in `_hornetq.forced.delivery.seq`) with delivery count 0,
   * which the client recognises and drops.
   */
  private sendForcedDeliveryMarker(
    consumerId: number,
    queueName: string,
    sequence: number,
    priority: number,
  ): void {
    const marker = new CoreMessage();
    marker.priority = priority;
    marker.messageId = this.postOffice.generateMessageId();
    marker.address = queueName;
    marker.timestamp = Date.now();
    marker.properties.set(FORCED_DELIVERY_SEQUENCE_PROPERTY, { kind: PropertyKind.LONG, value: sequence });
    this.channel.send({ type: PacketType.SESS_RECEIVE_MSG, message: marker, consumerId, deliveryCount: 0 });
  }

  closeConsumer(consumerId: number): void {
    this.postOffice.cancel([], this.consumers.close(consumerId));
  }

  createQueue(packet: CreateQueue): void {
    this.guard.check(creationPermission(packet.durable && !packet.temporary), packet.address);
    this.checkTemporaryAddress(packet.address);
    this.postOffice.createQueue({
      name: packet.queueName,
      address: packet.address,
      filter: packet.filter,
      durable: packet.durable && !packet.temporary,
      temporary: packet.temporary,
    });
    if (packet.temporary) this.owner.addTemporaryQueue(packet.queueName);
  }

  /**
   * A queue several consumers share (JMS 2.0 shared subscriptions): created if absent, taken as it
   * is if it exists with the same address and filter (HornetQ's rule). A non-durable one is
   * transient, as on HornetQ 2.4: it goes with its last consumer. A queue of that name on another
   * address or with another filter is refused as HornetQ 2.4 refuses it, with
   * INVALID_TRANSIENT_QUEUE_USE and not QUEUE_EXISTS: HornetQ's JMS client ignores QUEUE_EXISTS
   * for a shared durable subscription and would then consume from the mismatched queue.
   */
  createSharedQueue(packet: CreateSharedQueue): void {
    // HornetQ asks createNonDurableQueue for a durable one too: the permission of what is made here.
    this.guard.check(creationPermission(packet.durable), packet.address);
    this.checkTemporaryAddress(packet.address);
    const existing = this.postOffice.getQueue(packet.queueName);
    if (existing === undefined) {
      const definition = { name: packet.queueName, address: packet.address, filter: packet.filter };
      if (packet.durable) this.postOffice.createQueue({ ...definition, durable: true, temporary: false });
      else this.postOffice.createTransientQueue(definition);
      return;
    }
    if (existing.address !== packet.address) {
      throw new HornetQException(
        'INVALID_TRANSIENT_QUEUE_USE',
        `Queue ${packet.queueName} already exists on another subscription (address ${existing.address}, not ${packet.address})`,
      );
    }
    const filter = packet.filter === '' ? null : packet.filter;
    const existingFilter = existing.filter?.expression ?? null;
    if (existingFilter !== filter) {
      throw new HornetQException(
        'INVALID_TRANSIENT_QUEUE_USE',
        `Queue ${packet.queueName} has a different filter than requested (${existingFilter ?? 'none'}, not ${filter ?? 'none'})`,
      );
    }
  }

  /**
   * Deletes a queue (an unsubscribe, a temporary queue's delete) with the permission its kind
   * needs, on its address; another connection's temporary queue only with `manage` as well.
   */
  deleteQueue(queueName: string): void {
    const queue = this.postOffice.getQueue(queueName);
    if (queue !== undefined) {
      this.guard.check(queue.durable ? 'deleteDurableQueue' : 'deleteNonDurableQueue', queue.address);
      this.checkTemporaryOwner(queue, 'delete it');
    }
    this.postOffice.deleteQueue(queueName);
    this.owner.removeTemporaryQueue(queueName);
  }

  /**
   * A temporary queue belongs to the connection that made it (JMS: only it may consume from it; a
   * request/reply client's replies are in it): any other connection is refused unless it may
   * `manage` the queue's address. HornetQ left this to its JMS client; the broker enforces it here.
   */
  private checkTemporaryOwner(queue: Queue, action: string): void {
    if (!queue.temporary || this.owner.ownsTemporaryQueue(queue.name)) return;
    if (this.guard.allows('manage', queue.address)) return;
    throw new HornetQException(
      'SECURITY_EXCEPTION',
      `temporary queue ${queue.name} belongs to another connection: only the connection that created it may ${action}`,
    );
  }

  /**
   * The address of a JMS temporary queue or topic (a temporary queue named after its address, as
   * JMS makes them) belongs to that queue's connection too: another queue bound there would get a
   * copy of every reply sent to it, which is consuming them by another way. Only the owner, or
   * who may manage the address, binds a queue there. Deployed destinations already have a queue
   * of their address's name, so no temporary queue can claim their addresses.
   */
  private checkTemporaryAddress(address: string): void {
    const destination = this.postOffice.getQueue(address);
    if (destination !== undefined && destination.address === address) {
      this.checkTemporaryOwner(destination, 'bind a queue to its address');
    }
  }

  /** The queues a listing shows. */
  private *visibleQueues(): Generator<Queue> {
    for (const queue of this.postOffice.eachQueue()) {
      if (this.isVisible(queue)) yield queue;
    }
  }

  /**
   * Whether this connection may see `queue` in listings and queries: another connection's
   * temporary queue (a JMS temporary queue, or the queue of a non-durable subscription) only with
   * `manage` on its address.
   */
  private isVisible(queue: Queue): boolean {
    return (
      !queue.temporary ||
      this.owner.ownsTemporaryQueue(queue.name) ||
      this.guard.allows('manage', queue.address)
    );
  }

  /**
   * The refusal of a send to `address` for want of the send permission. In a transaction it
   * marks the transaction rollback-only, as HornetQ does: the client may not hear of a one-way
   * send's refusal before it commits, and its commit must not deliver the rest without it.
   */
  private refuseSend(address: string): HornetQException {
    const refusal = this.denied('send', address);
    if (!this.autoCommitSends) this.requireTransaction().markRollbackOnly(refusal);
    return refusal;
  }

  private denied(permission: Permission, address: string): HornetQException {
    return permissionDenied(this.guard.user ?? '(none)', permission, address);
  }

  /** HornetQ answers the management address as a durable queue of its own (HORNETQ-29). */
  private managementQueueAnswer(address: string): Packet {
    return {
      type: PacketType.SESS_QUEUEQUERY_RESP,
      exists: true,
      durable: true,
      temporary: false,
      consumerCount: -1,
      messageCount: -1,
      filter: null,
      address,
      name: address,
    };
  }

  /** What the client may know of `queueName`: another connection's temporary queue is answered as none. */
  queueQuery(queueName: string): Packet {
    if (queueName === this.management?.address && this.postOffice.getQueue(queueName) === undefined)
      return this.managementQueueAnswer(queueName);
    const found = this.postOffice.getQueue(queueName);
    const queue = found !== undefined && this.isVisible(found) ? found : undefined;
    return {
      type: PacketType.SESS_QUEUEQUERY_RESP,
      exists: queue !== undefined,
      durable: queue?.durable ?? false,
      temporary: queue?.temporary ?? false,
      consumerCount: queue?.consumerCount ?? 0,
      messageCount: queue?.messageCount ?? 0,
      filter: queue?.filter?.expression ?? null,
      address: queue?.address ?? null,
      name: queue?.name ?? null,
    };
  }

  /**
   * A large message is kept in memory until its last chunk: one that would take its connection
   * past what the broker assembles for one is refused (its chunks dropped, its last answered).
   */
  private makeRoomFor(chunkBytes: number): void {
    if (!this.largeMessages.accepting) return;
    const refusal = this.owner.largeMessageRefusal(chunkBytes);
    if (refusal !== null) this.largeMessages.refuse(refusal);
  }

  /** Refused (the client hears of it asynchronously) when the connection holds its limit. */
  createProducer(producerId: number, address: string | null): void {
    if (address !== null) this.postOffice.checkName('address', address);
    if (!this.producers.has(producerId)) this.owner.checkProducerLimit();
    this.producers.set(producerId, address);
  }

  /** The connection drained (or the session moved to another): consumers may take messages again. */
  resumeDelivery(): void {
    this.consumers.promptDelivery();
  }

  /**
   * Rolls back (a non-transacted session too: that is how JMS recover works), with HornetQ's
   * semantics (ServerSessionImpl.rollback, ServerConsumerImpl.cancelRefs): acknowledged messages
   * go back as failed deliveries (redelivery delay, dead-letter address after
   * max-delivery-attempts), keeping their delivery counts; with `considerLastMessageAsDelivered`
   * so does the oldest unacknowledged message of each consumer (the one a listener was handed);
   * every other unacknowledged one (buffered, unseen) goes back with its delivery count undone.
   * The client stops the session first, so nothing is in flight.
   */
  rollback(considerLastMessageAsDelivered: boolean): void {
    const delivered = this.transaction?.rollback(this.postOffice) ?? [];
    const taken = this.consumers.takeBack(() => (considerLastMessageAsDelivered ? 1 : 0));
    this.postOffice.cancel([...delivered, ...taken.seen], taken.unseen);
  }

  /**
   * Closes the session: its transaction rolls back and unacknowledged messages return to their
   * queues. `failed` (the client vanished) keeps their delivery counts, since the client may have
   * seen them.
   */
  close(failed: boolean): void {
    if (this.closed) return;
    this.closed = true;
    // First: returning messages to their queues may make room, and a closed session grants nothing.
    this.producerCredits.close();
    this.largeMessages.abandon();
    const delivered = this.transaction?.rollback(this.postOffice) ?? [];
    const taken = this.consumers.closeAll(failed);
    this.producers.clear();
    this.postOffice.cancel([...delivered, ...taken.seen], taken.unseen);
    if (failed) this.release();
  }

  /** After the close answer has gone out: the channel and the session's registration go too. */
  private release(): void {
    this.channel.flushConfirmations();
    this.channel.close();
    this.owner.sessionClosed(this);
  }

  private requireTransaction(): Transaction {
    if (this.transaction === null) {
      throw new HornetQException('ILLEGAL_STATE', `Session ${this.name} is not transacted`);
    }
    return this.transaction;
  }
}

/** What creating a queue needs: durable ones and the others are granted apart. */
function creationPermission(durable: boolean): Permission {
  return durable ? 'createDurableQueue' : 'createNonDurableQueue';
}
