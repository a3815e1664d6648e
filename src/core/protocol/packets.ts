import type { CoreMessage } from './core-message';
import type { ErrorCodeName } from './error-code';
import { PacketType } from './packet-type';

/**
 * Every packet the core speaks, as a discriminated union on `type`. Responses carry
 * `correlationId`: on a session channel it is the command id of the request it answers (both
 * sides count commands, so requests need not carry it); on channel 1 the request carries it.
 */

export interface Ping {
  type: typeof PacketType.PING;
  connectionTtl: number;
}
export interface Disconnect {
  type: typeof PacketType.DISCONNECT;
  reason: string | null;
}
export interface ExceptionPacket {
  type: typeof PacketType.EXCEPTION;
  /** -1 when the exception answers no request (an asynchronous failure). */
  correlationId: number;
  code: ErrorCodeName;
  message: string | null;
}
export interface NullResponse {
  type: typeof PacketType.NULL_RESPONSE;
  correlationId: number;
}
export interface PacketsConfirmed {
  type: typeof PacketType.PACKETS_CONFIRMED;
  commandId: number;
}

export interface CreateSession {
  type: typeof PacketType.CREATESESSION;
  correlationId: number;
  /** A label the client chooses; the broker names the session itself (see the response). */
  name: string;
  sessionChannelId: number;
  version: number;
  username: string | null;
  password: string | null;
  minLargeMessageSize: number;
  xa: boolean;
  autoCommitSends: boolean;
  autoCommitAcks: boolean;
  preAcknowledge: boolean;
  /** The confirmation window of the session channel; -1 disables resend buffers and reattach. */
  windowSize: number;
  defaultAddress: string | null;
}
export interface CreateSessionResponse {
  type: typeof PacketType.CREATESESSION_RESP;
  correlationId: number;
  serverVersion: number;
  /** Broker-generated, random: the name a later reattach presents. */
  sessionName: string;
  /** Broker-generated secret that a reattach must present with the name. Never logged. */
  reattachToken: string;
}
export interface ReattachSession {
  type: typeof PacketType.REATTACH_SESSION;
  correlationId: number;
  sessionName: string;
  reattachToken: string;
  /** The credentials the session was created with: a reattach must come from the same user. */
  username: string | null;
  password: string | null;
  /** The client's count of session packets it has received and handled. */
  lastConfirmedCommandId: number;
}
export interface ReattachSessionResponse {
  type: typeof PacketType.REATTACH_SESSION_RESP;
  correlationId: number;
  lastConfirmedCommandId: number;
  reattached: boolean;
}

export interface CreateQueue {
  type: typeof PacketType.CREATE_QUEUE;
  address: string;
  queueName: string;
  filter: string | null;
  durable: boolean;
  temporary: boolean;
  requiresResponse: boolean;
}
export interface DeleteQueue {
  type: typeof PacketType.DELETE_QUEUE;
  queueName: string;
}

export interface CreateConsumer {
  type: typeof PacketType.SESS_CREATECONSUMER;
  consumerId: number;
  queueName: string;
  filter: string | null;
  browseOnly: boolean;
  requiresResponse: boolean;
}
export interface Acknowledge {
  type: typeof PacketType.SESS_ACKNOWLEDGE | typeof PacketType.SESS_INDIVIDUAL_ACKNOWLEDGE;
  consumerId: number;
  messageId: number;
  requiresResponse: boolean;
}
/** The client found a delivered message expired before the application saw it. */
export interface MessageExpired {
  type: typeof PacketType.SESS_EXPIRED;
  consumerId: number;
  messageId: number;
}
/**
 * The client cannot take a message delivered to it (a large message over its
 * max-large-message-bytes, or one whose body did not come to the size announced): the broker
 * takes it back as a failed delivery, so it is redelivered and, after max-delivery-attempts,
 * goes to the dead-letter address. Ours; HornetQ streams large messages to disk instead.
 */
export interface DeliveryRefused {
  type: typeof PacketType.SESS_DELIVERY_REFUSED;
  consumerId: number;
  messageId: number;
}
export interface Commit {
  type: typeof PacketType.SESS_COMMIT;
}
/**
 * Rolls back the transaction, and returns every message delivered and not acknowledged to its
 * queue. The oldest unacknowledged message of each consumer in `seenConsumerIds` was handed to the
 * application (a listener that threw, a recover): it keeps its delivery count, so it comes back
 * marked redelivered; the others were never seen and come back as they were.
 */
export interface Rollback {
  type: typeof PacketType.SESS_ROLLBACK;
  seenConsumerIds: number[];
}
export interface QueueQuery {
  type: typeof PacketType.SESS_QUEUEQUERY;
  queueName: string;
}
export interface QueueQueryResponse {
  type: typeof PacketType.SESS_QUEUEQUERY_RESP;
  correlationId: number;
  exists: boolean;
  address: string | null;
  durable: boolean;
  temporary: boolean;
  filter: string | null;
  consumerCount: number;
  messageCount: number;
}
/**
 * Ours, for management: the broker's queues with their counters (HornetQ does this over JMX), a
 * page at a time: from index `start` in creation order, at most `maxCount` (the broker may send
 * fewer, and says whether more follow).
 */
export interface QueueStatsQuery {
  type: typeof PacketType.SESS_QUEUE_STATS;
  start: number;
  maxCount: number;
}
/** One queue as the broker counts it; the counters are since the queue was created or loaded. */
export interface QueueStats {
  name: string;
  address: string;
  filter: string | null;
  durable: boolean;
  temporary: boolean;
  consumerCount: number;
  /** Waiting, scheduled and delivering messages. */
  messageCount: number;
  /** Delivered to a consumer and not yet acknowledged. */
  deliveringCount: number;
  /** Waiting for their scheduled delivery time or redelivery delay. */
  scheduledCount: number;
  messagesAdded: number;
  messagesAcknowledged: number;
  messagesExpired: number;
  /** Given up on after max-delivery-attempts. */
  messagesKilled: number;
}
export interface QueueStatsResponse {
  type: typeof PacketType.SESS_QUEUE_STATS_RESP;
  correlationId: number;
  queues: QueueStats[];
  /** More queues follow this page: ask again from start + queues.length. */
  more: boolean;
}
export interface BindingQuery {
  type: typeof PacketType.SESS_BINDINGQUERY;
  address: string;
}
export interface BindingQueryResponse {
  type: typeof PacketType.SESS_BINDINGQUERY_RESP;
  correlationId: number;
  exists: boolean;
  queueNames: string[];
}
export interface SessionStart {
  type: typeof PacketType.SESS_START;
}
export interface SessionStop {
  type: typeof PacketType.SESS_STOP;
}
export interface SessionClose {
  type: typeof PacketType.SESS_CLOSE;
}
export interface ConsumerFlowCredit {
  type: typeof PacketType.SESS_FLOWTOKEN;
  consumerId: number;
  credits: number;
}
export interface SessionSend {
  type: typeof PacketType.SESS_SEND;
  message: CoreMessage;
  requiresResponse: boolean;
}
/**
 * The head of a large message: its headers and properties (the body is empty here) and the body's
 * size; the body follows in SESS_SEND_CONTINUATION chunks, so no frame need hold it whole.
 */
export interface SendLargeMessage {
  type: typeof PacketType.SESS_SEND_LARGE;
  message: CoreMessage;
  bodySize: number;
}
/** One chunk of a large message's body; the last has `continues` false (and may want an answer). */
export interface SendContinuation {
  type: typeof PacketType.SESS_SEND_CONTINUATION;
  chunk: Buffer;
  continues: boolean;
  requiresResponse: boolean;
}
/** The head of a large message delivered to a consumer; chunks follow in RECEIVE_CONTINUATION. */
export interface ReceiveLargeMessage {
  type: typeof PacketType.SESS_RECEIVE_LARGE_MSG;
  consumerId: number;
  deliveryCount: number;
  message: CoreMessage;
  bodySize: number;
}
export interface ReceiveContinuation {
  type: typeof PacketType.SESS_RECEIVE_CONTINUATION;
  consumerId: number;
  chunk: Buffer;
  continues: boolean;
}
export interface ConsumerClose {
  type: typeof PacketType.SESS_CONSUMER_CLOSE;
  consumerId: number;
}
export interface ReceiveMessage {
  type: typeof PacketType.SESS_RECEIVE_MSG;
  consumerId: number;
  deliveryCount: number;
  message: CoreMessage;
}
export interface ForceConsumerDelivery {
  type: typeof PacketType.SESS_FORCE_CONSUMER_DELIVERY;
  consumerId: number;
  sequence: number;
}
/** The answer to a forced delivery when the queue had nothing for the consumer. */
export interface ForcedDeliveryEmpty {
  type: typeof PacketType.SESS_FORCED_DELIVERY_EMPTY;
  consumerId: number;
  sequence: number;
}
export interface ProducerRequestCredits {
  type: typeof PacketType.SESS_PRODUCER_REQUEST_CREDITS;
  address: string;
  credits: number;
}
export interface ProducerCredits {
  type: typeof PacketType.SESS_PRODUCER_CREDITS | typeof PacketType.SESS_PRODUCER_FAIL_CREDITS;
  address: string;
  credits: number;
}
/**
 * Attaches a key/value to the session on the broker, refused (DUPLICATE_METADATA) while another
 * session holds the same pair: how a JMS client id is kept unique among open connections.
 */
export interface UniqueAddMetadata {
  type: typeof PacketType.SESS_UNIQUE_ADD_METADATA;
  key: string;
  data: string;
}
export interface CreateProducer {
  type: typeof PacketType.SESS_CREATEPRODUCER;
  producerId: number;
  address: string | null;
}
export interface CloseProducer {
  type: typeof PacketType.SESS_CLOSEPRODUCER;
  producerId: number;
}

export type Packet =
  | Ping
  | Disconnect
  | ExceptionPacket
  | NullResponse
  | PacketsConfirmed
  | CreateSession
  | CreateSessionResponse
  | ReattachSession
  | ReattachSessionResponse
  | CreateQueue
  | DeleteQueue
  | CreateConsumer
  | Acknowledge
  | MessageExpired
  | DeliveryRefused
  | Commit
  | Rollback
  | QueueQuery
  | QueueQueryResponse
  | QueueStatsQuery
  | QueueStatsResponse
  | BindingQuery
  | BindingQueryResponse
  | SessionStart
  | SessionStop
  | SessionClose
  | ConsumerFlowCredit
  | SessionSend
  | SendLargeMessage
  | SendContinuation
  | ReceiveLargeMessage
  | ReceiveContinuation
  | ConsumerClose
  | ReceiveMessage
  | ForceConsumerDelivery
  | ForcedDeliveryEmpty
  | ProducerRequestCredits
  | ProducerCredits
  | UniqueAddMetadata
  | CreateProducer
  | CloseProducer;

/** A packet that answers a request and settles the caller waiting for it. */
export type ResponsePacket =
  | ExceptionPacket
  | NullResponse
  | CreateSessionResponse
  | ReattachSessionResponse
  | QueueQueryResponse
  | QueueStatsResponse
  | BindingQueryResponse;

const RESPONSE_TYPES: ReadonlySet<number> = new Set([
  PacketType.NULL_RESPONSE,
  PacketType.CREATESESSION_RESP,
  PacketType.REATTACH_SESSION_RESP,
  PacketType.SESS_QUEUEQUERY_RESP,
  PacketType.SESS_QUEUE_STATS_RESP,
  PacketType.SESS_BINDINGQUERY_RESP,
]);

export function isResponse(packet: Packet): packet is ResponsePacket {
  return (
    RESPONSE_TYPES.has(packet.type) || (packet.type === PacketType.EXCEPTION && packet.correlationId >= 0)
  );
}

/**
 * Packets that are never counted, cached or confirmed on either side (HornetQ's list): the
 * control packets and the session handshake on channel 1.
 */
const UNCONFIRMED_TYPES: ReadonlySet<number> = new Set([
  PacketType.PING,
  PacketType.DISCONNECT,
  PacketType.PACKETS_CONFIRMED,
  PacketType.CREATESESSION,
  PacketType.CREATESESSION_RESP,
  PacketType.REATTACH_SESSION,
  PacketType.REATTACH_SESSION_RESP,
]);

export function requiresConfirmation(type: number): boolean {
  return !UNCONFIRMED_TYPES.has(type);
}
