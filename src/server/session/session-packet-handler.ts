import {
  HornetQException,
  packetTypeName,
  type Acknowledge,
  type CreateConsumer,
  type CreateQueue,
  type CreateSharedQueue,
  type Packet,
  type SessionSend,
  type SendContinuation,
  type SendLargeMessage,
} from '../../core/protocol';
import { PacketType } from '../../core/protocol/packet-type';
import { SEND_REFUSED_VERSION } from '../../core/protocol/packets';
import type { Logger } from '../../core/remoting';

/**
 * What a session does for its client's packets (HornetQ's ServerSession interface, as Artemis
 * splits it from ServerSessionPacketHandler). Each operation returns the answer it has to give
 * (a query's result), or nothing: whether the client hears anything is not its decision.
 */
export interface SessionOperations {
  readonly name: string;
  readonly isClosed: boolean;
  /** Created with our extension: its client is ours and may hear extension packets. */
  readonly extended: boolean;
  /** The extension version its client negotiated (0 without the extension). */
  readonly extensionVersion: number;
  send(packet: SessionSend): void;
  beginLargeMessage(packet: SendLargeMessage): void;
  continueLargeMessage(packet: SendContinuation): void;
  acknowledge(packet: Acknowledge): void;
  expire(consumerId: number, messageId: number): void;
  takeBackRefused(consumerId: number, messageId: number): void;
  receiveCredits(consumerId: number, credits: number): void;
  createConsumer(packet: CreateConsumer): Packet;
  closeConsumer(consumerId: number): void;
  forceDelivery(consumerId: number, sequence: number): void;
  createProducer(producerId: number, address: string | null): void;
  closeProducer(producerId: number): void;
  requestProducerCredits(address: string, credits: number): void;
  setMetadata(key: string, data: string): void;
  addUniqueMetadata(key: string, data: string): void;
  createQueue(packet: CreateQueue): void;
  createSharedQueue(packet: CreateSharedQueue): void;
  deleteQueue(queueName: string): void;
  queueQuery(queueName: string): Packet;
  queueStats(start: number, maxCount: number): Packet;
  bindingQuery(address: string): Packet;
  setStarted(started: boolean): void;
  commit(): void;
  rollback(considerLastMessageAsDelivered: boolean): void;
  close(failed: boolean): void;
}

/**
 * Whether a session packet gets an answer (the rest are one-way). The one place that says so: a
 * packet handled well gets its operation's answer or NULL_RESPONSE, a failed one its EXCEPTION,
 * by this rule alike, so success and failure can never disagree about what the client waits for.
 */
export function expectsResponse(packet: Packet): boolean {
  switch (packet.type) {
    case PacketType.SESS_SEND:
    case PacketType.SESS_SEND_CONTINUATION:
    case PacketType.SESS_ACKNOWLEDGE:
    case PacketType.SESS_INDIVIDUAL_ACKNOWLEDGE:
    case PacketType.CREATE_QUEUE:
    case PacketType.CREATE_SHARED_QUEUE:
    case PacketType.SESS_CREATECONSUMER:
      return packet.requiresResponse;
    case PacketType.SESS_ADD_METADATA2:
      // A client re-sends its metadata uncounted and unanswered after re-creating a session.
      return packet.requiresConfirmation;
    // Never counted, always answered (HornetQ's rule for 104); 106 is answered whatever its flag says.
    case PacketType.SESS_ADD_METADATA:
    case PacketType.SESS_UNIQUE_ADD_METADATA:
    case PacketType.DELETE_QUEUE:
    case PacketType.SESS_CONSUMER_CLOSE:
    case PacketType.SESS_QUEUEQUERY:
    case PacketType.SESS_QUEUE_STATS:
    case PacketType.SESS_BINDINGQUERY:
    case PacketType.SESS_STOP:
    case PacketType.SESS_COMMIT:
    case PacketType.SESS_ROLLBACK:
    case PacketType.SESS_CLOSE:
      return true;
    default:
      return false;
  }
}

/**
 * Our extension's requests (producer registration, queue statistics, a refused delivery): only a
 * client that negotiated the extension sends them. One that arrives on another session is refused
 * like any failure: counted and confirmed as the sender counts it, answered with an EXCEPTION
 * when it is a request (SESS_QUEUE_STATS) and only logged when it is one-way.
 */
function isExtensionRequest(packet: Packet): boolean {
  return (
    packet.type === PacketType.SESS_CREATEPRODUCER ||
    packet.type === PacketType.SESS_CLOSEPRODUCER ||
    packet.type === PacketType.SESS_QUEUE_STATS ||
    packet.type === PacketType.SESS_DELIVERY_REFUSED
  );
}

/** A packet that carries (part of) a message to send: a refusal of it is a refused send. */
function isSend(packet: Packet): boolean {
  return (
    packet.type === PacketType.SESS_SEND ||
    packet.type === PacketType.SESS_SEND_LARGE ||
    packet.type === PacketType.SESS_SEND_CONTINUATION
  );
}

/** The answer to a request that has nothing to say but that it was done (it has no fields). */
const NULL_RESPONSE: Packet = Object.freeze({ type: PacketType.NULL_RESPONSE });

/**
 * Turns a session's packets into its operations and their outcomes into answers (HornetQ's and
 * Artemis' ServerSessionPacketHandler). Answers carry no correlation id: the client matches them
 * to its requests by order, which the session's answer queue keeps.
 */
export class SessionPacketHandler {
  constructor(
    private readonly session: SessionOperations,
    private readonly logger: Logger,
  ) {}

  /**
   * Handles one packet (`commandId`: its number in the client's command stream, -1 when not
   * counted); returns what to answer, or null for one-way packets.
   */
  handle(packet: Packet, commandId = -1): Packet | null {
    let outcome: Packet | void;
    try {
      outcome = this.dispatch(packet);
    } catch (error) {
      return this.failureResponse(packet, commandId, error);
    }
    if (!expectsResponse(packet)) return null;
    return outcome === undefined ? NULL_RESPONSE : outcome;
  }

  /** The operation's own answer (a query's result), or nothing when it has none to give. */
  private dispatch(packet: Packet): Packet | void {
    const session = this.session;
    if (session.isClosed) throw new HornetQException('OBJECT_CLOSED', `Session ${session.name} is closed`);
    if (!session.extended && isExtensionRequest(packet)) {
      throw new HornetQException(
        'UNSUPPORTED_PACKET',
        `${packetTypeName(packet.type)} is an extension packet, and session ${session.name} was created without the extension`,
      );
    }
    switch (packet.type) {
      case PacketType.SESS_SEND:
        return session.send(packet);
      case PacketType.SESS_SEND_LARGE:
        return session.beginLargeMessage(packet);
      case PacketType.SESS_SEND_CONTINUATION:
        return session.continueLargeMessage(packet);
      case PacketType.SESS_ACKNOWLEDGE:
      case PacketType.SESS_INDIVIDUAL_ACKNOWLEDGE:
        return session.acknowledge(packet);
      case PacketType.SESS_EXPIRED:
        return session.expire(packet.consumerId, packet.messageId);
      case PacketType.SESS_DELIVERY_REFUSED:
        return session.takeBackRefused(packet.consumerId, packet.messageId);
      case PacketType.SESS_FLOWTOKEN:
        return session.receiveCredits(packet.consumerId, packet.credits);
      case PacketType.SESS_CREATECONSUMER:
        return session.createConsumer(packet);
      case PacketType.SESS_CONSUMER_CLOSE:
        return session.closeConsumer(packet.consumerId);
      case PacketType.SESS_FORCE_CONSUMER_DELIVERY:
        return session.forceDelivery(packet.consumerId, packet.sequence);
      case PacketType.SESS_CREATEPRODUCER:
        return session.createProducer(packet.producerId, packet.address);
      case PacketType.SESS_CLOSEPRODUCER:
        return session.closeProducer(packet.producerId);
      case PacketType.SESS_PRODUCER_REQUEST_CREDITS:
        return session.requestProducerCredits(packet.address, packet.credits);
      case PacketType.SESS_ADD_METADATA:
      case PacketType.SESS_ADD_METADATA2:
        return session.setMetadata(packet.key, packet.data);
      case PacketType.SESS_UNIQUE_ADD_METADATA:
        return session.addUniqueMetadata(packet.key, packet.data);
      case PacketType.CREATE_QUEUE:
        return session.createQueue(packet);
      case PacketType.CREATE_SHARED_QUEUE:
        return session.createSharedQueue(packet);
      case PacketType.DELETE_QUEUE:
        return session.deleteQueue(packet.queueName);
      case PacketType.SESS_QUEUEQUERY:
        return session.queueQuery(packet.queueName);
      case PacketType.SESS_QUEUE_STATS:
        return session.queueStats(packet.start, packet.maxCount);
      case PacketType.SESS_BINDINGQUERY:
        return session.bindingQuery(packet.address);
      case PacketType.SESS_START:
        return session.setStarted(true);
      case PacketType.SESS_STOP:
        return session.setStarted(false);
      case PacketType.SESS_COMMIT:
        return session.commit();
      case PacketType.SESS_ROLLBACK:
        return session.rollback(packet.considerLastMessageAsDelivered);
      case PacketType.SESS_CLOSE:
        return session.close(false);
      default:
        throw new HornetQException(
          'UNSUPPORTED_PACKET',
          `${packetTypeName(packet.type)} is not a session packet`,
        );
    }
  }

  /**
   * Turns a failure into the EXCEPTION answer of a request. A one-way packet has no caller to
   * answer: a HornetQ client takes every EXCEPTION as the answer to the call it waits on, so the
   * broker sends it nothing and logs the failure (as HornetQ's ServerSessionPacketHandler does);
   * a client of ours (an extended session) hears of it in SESS_ASYNC_EXCEPTION, which answers
   * nothing, and from extension version 2 on a refused send in SESS_SEND_REFUSED, which names
   * its command, so that a client waiting for that send's confirmation can fail it.
   */
  private failureResponse(packet: Packet, commandId: number, error: unknown): Packet | null {
    const name = this.session.name;
    const failure =
      error instanceof HornetQException
        ? error
        : new HornetQException('INTERNAL_ERROR', error instanceof Error ? error.message : String(error));
    if (!(error instanceof HornetQException)) {
      this.logger.error(
        { err: error, session: name },
        `internal error handling ${packetTypeName(packet.type)}`,
      );
    }
    if (expectsResponse(packet)) {
      return { type: PacketType.EXCEPTION, code: failure.code, message: failure.message };
    }
    this.logger.warn(
      { session: name, code: failure.code },
      `${packetTypeName(packet.type)} failed: ${failure.message}`,
    );
    if (!this.session.extended) return null;
    if (this.session.extensionVersion >= SEND_REFUSED_VERSION && isSend(packet) && commandId >= 0) {
      return { type: PacketType.SESS_SEND_REFUSED, commandId, code: failure.code, message: failure.message };
    }
    return { type: PacketType.SESS_ASYNC_EXCEPTION, code: failure.code, message: failure.message };
  }
}
