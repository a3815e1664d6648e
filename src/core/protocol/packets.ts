import type { CoreMessage } from './core-message';
import type { ErrorCodeName } from './error-code';
import { PacketType } from './packet-type';

/**
 * Every packet the core speaks, as a discriminated union on `type`, with HornetQ 2.4's fields in
 * HornetQ 2.4's order (see packet-codec.ts for the bytes). No packet carries a correlation id, as
 * on HornetQ's wire: a response answers the oldest request still waiting on its channel.
 */

export interface Ping {
  type: typeof PacketType.PING;
  connectionTtl: number;
}
/** The broker is going away (shutdown); names the node that goes, as HornetQ does, not a reason. */
export interface Disconnect {
  type: typeof PacketType.DISCONNECT;
  nodeId: string | null;
}
/** The broker closed one consumer (HornetQ 2.4 sends it to clients of version 124 and up). */
export interface DisconnectConsumer {
  type: typeof PacketType.DISCONNECT_CONSUMER;
  consumerId: number;
}
/** Always the answer to the oldest waiting request: HornetQ's clients take it so, whatever it says. */
export interface ExceptionPacket {
  type: typeof PacketType.EXCEPTION;
  code: ErrorCodeName;
  message: string | null;
}
/**
 * Ours, extension only: a failure that answers no request (a one-way send the broker refused),
 * which HornetQ only logs. Sent only to a client that negotiated the extension; to any other the
 * broker does what HornetQ does.
 */
export interface AsyncException {
  type: typeof PacketType.SESS_ASYNC_EXCEPTION;
  code: ErrorCodeName;
  message: string | null;
}
/**
 * Ours, extension version 2: the broker refused a one-way send (SESS_SEND, or a large message's
 * last chunk), named by its command id (its place in the client's command stream on this
 * channel), so that the client can fail that very send. The broker writes it before any
 * confirmation that covers the command, so a refused send is never taken for a confirmed one.
 */
export interface SendRefused {
  type: typeof PacketType.SESS_SEND_REFUSED;
  commandId: number;
  code: ErrorCodeName;
  message: string | null;
}
export interface NullResponse {
  type: typeof PacketType.NULL_RESPONSE;
}
export interface PacketsConfirmed {
  type: typeof PacketType.PACKETS_CONFIRMED;
  commandId: number;
}

/**
 * Our extension, carried as a trailer after the last field of CREATESESSION, CREATESESSION_RESP
 * and REATTACH_SESSION: HornetQ and Artemis decode exactly their fields and ignore what follows, so
 * a real peer never notices it, and a peer that does not answer with it is not ours. The trailer
 * starts with EXTENSION_MAGIC and the extension's version.
 */
export const EXTENSION_MAGIC = 0x4e48_5131; // 'NHQ1'
/**
 * 1: the reattach secret, producer registration, queue statistics, refused deliveries,
 * SESS_ASYNC_EXCEPTION. 2: SESS_SEND_REFUSED, which names the refused send.
 */
export const EXTENSION_VERSION = 2;
/** The first extension version whose broker names a refused send (SESS_SEND_REFUSED). */
export const SEND_REFUSED_VERSION = 2;

/** What our client appends to CREATESESSION. */
export interface ClientSessionExtension {
  version: number;
  /**
   * 16 random bytes the client chose: a later reattach must present them (compared in constant
   * time), so knowing a session's name is not enough to take it over. Never logged.
   */
  reattachSecret: Buffer;
}
/** What our broker appends to CREATESESSION_RESP when the request carried the extension. */
export interface ServerSessionExtension {
  /** The extension version both ends speak (the lower of the two). */
  version: number;
}
/** What our client appends to REATTACH_SESSION for a session created with the extension. */
export interface ReattachExtension {
  reattachSecret: Buffer;
  /** The credentials the session was created with: a reattach must come from the same user. */
  username: string | null;
  password: string | null;
}

export interface CreateSession {
  type: typeof PacketType.CREATESESSION;
  /** Chosen by the client (a UUID), unique on the broker: what a reattach presents. */
  name: string;
  sessionChannelId: number;
  version: number;
  username: string | null;
  password: string | null;
  minLargeMessageSize: number;
  xa: boolean;
  autoCommitSends: boolean;
  autoCommitAcks: boolean;
  /** The confirmation window of the session channel; -1 disables resend buffers and reattach. */
  windowSize: number;
  preAcknowledge: boolean;
  defaultAddress: string | null;
  extension: ClientSessionExtension | null;
}
export interface CreateSessionResponse {
  type: typeof PacketType.CREATESESSION_RESP;
  serverVersion: number;
  /** Present only when both ends are ours. */
  extension: ServerSessionExtension | null;
}
export interface ReattachSession {
  type: typeof PacketType.REATTACH_SESSION;
  name: string;
  /** The client's count of session packets it has received and handled. */
  lastConfirmedCommandId: number;
  extension: ReattachExtension | null;
}
export interface ReattachSessionResponse {
  type: typeof PacketType.REATTACH_SESSION_RESP;
  lastConfirmedCommandId: number;
  reattached: boolean;
}

/** A parameter value of a TransportConfiguration, with the type HornetQ encodes it as. */
export type TransportParam =
  | { type: 'boolean'; value: boolean }
  | { type: 'int'; value: number }
  | { type: 'long'; value: number }
  | { type: 'string'; value: string };

/** How to reach a node (HornetQ's TransportConfiguration): only decoded from a clustered peer. */
export interface TransportConfiguration {
  name: string;
  factoryClassName: string;
  params: ReadonlyArray<readonly [string, TransportParam]>;
}
/** Asks for topology updates on channel 0; every HornetQ 2.4 client sends V2 after its first ping. */
export interface SubscribeTopology {
  type: typeof PacketType.SUBSCRIBE_TOPOLOGY;
  clusterConnection: boolean;
}
export interface SubscribeTopologyV2 {
  type: typeof PacketType.SUBSCRIBE_TOPOLOGY_V2;
  clusterConnection: boolean;
  clientVersion: number;
}
/**
 * One node of the topology, or its departure (`exit`). A broker that is not clustered answers a
 * subscription with one of these: its node id, no connectors, `last` true; the client then keeps
 * using the connector it has. V1 (110) has no uniqueEventId and no nodeName.
 */
export interface ClusterTopologyChange {
  type: typeof PacketType.CLUSTER_TOPOLOGY | typeof PacketType.CLUSTER_TOPOLOGY_V2;
  exit: boolean;
  nodeId: string;
  /** V2 only (0 in V1): the sender's clock in ms, which orders updates. */
  uniqueEventId: number;
  /** The rest is absent when `exit` is true. */
  live: TransportConfiguration | null;
  backup: TransportConfiguration | null;
  last: boolean;
  /** V2 only, and only if the sender wrote it (it is read when bytes remain). */
  nodeName: string | null;
}

/**
 * A server tells a peer it exists (HornetQ's NodeAnnounceMessage, 111, channel 0, never
 * answered): a backup announces itself to its live with `backup` true and its own connector in
 * `connector`; a live announces its connector and its backup's.
 */
export interface NodeAnnounce {
  type: typeof PacketType.NODE_ANNOUNCE;
  nodeId: string;
  /** The backup group name (HornetQ's nodeName), or null. */
  nodeName: string | null;
  backup: boolean;
  /** The sender's clock in ms: orders the announcements of one node. */
  currentEventId: number;
  connector: TransportConfiguration | null;
  backupConnector: TransportConfiguration | null;
}

/** What both queue-creating requests carry; on the wire in this order, `requiresResponse` last. */
interface QueueToCreate {
  address: string;
  queueName: string;
  filter: string | null;
  durable: boolean;
  requiresResponse: boolean;
}
/** Its `temporary` comes between `durable` and `requiresResponse`. */
export interface CreateQueue extends QueueToCreate {
  type: typeof PacketType.CREATE_QUEUE;
  temporary: boolean;
}
export interface DeleteQueue {
  type: typeof PacketType.DELETE_QUEUE;
  queueName: string;
}
/**
 * A queue several consumers share (JMS 2.0 shared subscriptions); no error if it exists alike.
 * Never temporary, so it has no such field.
 */
export interface CreateSharedQueue extends QueueToCreate {
  type: typeof PacketType.CREATE_SHARED_QUEUE;
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
 * Rolls back the transaction (its acknowledgements come back with their delivery counts kept, so
 * marked redelivered) and returns every message delivered and not acknowledged to its queue with
 * its delivery count decremented (never seen). With `considerLastMessageAsDelivered`, each
 * consumer's oldest unacknowledged message counts as seen instead (HornetQ's rule, for a
 * listener that threw or a recover).
 */
export interface Rollback {
  type: typeof PacketType.SESS_ROLLBACK;
  considerLastMessageAsDelivered: boolean;
}
export interface QueueQuery {
  type: typeof PacketType.SESS_QUEUEQUERY;
  queueName: string;
}
export interface QueueQueryResponse {
  type: typeof PacketType.SESS_QUEUEQUERY_RESP;
  exists: boolean;
  durable: boolean;
  temporary: boolean;
  consumerCount: number;
  messageCount: number;
  filter: string | null;
  address: string | null;
  name: string | null;
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
 * The head of a large message: its headers and properties only (HornetQ sends no body and no
 * size here); the body follows in SESS_SEND_CONTINUATION chunks, so no frame need hold it whole.
 */
export interface SendLargeMessage {
  type: typeof PacketType.SESS_SEND_LARGE;
  message: CoreMessage;
}
/**
 * One chunk of a large message's body; the last has `continues` false, carries the whole body's
 * size (-1 in the others, where it is not on the wire) and may want an answer.
 */
export interface SendContinuation {
  type: typeof PacketType.SESS_SEND_CONTINUATION;
  chunk: Buffer;
  continues: boolean;
  messageBodySize: number;
  requiresResponse: boolean;
}
/** The head of a large message delivered to a consumer; chunks follow in RECEIVE_CONTINUATION. */
export interface ReceiveLargeMessage {
  type: typeof PacketType.SESS_RECEIVE_LARGE_MSG;
  consumerId: number;
  deliveryCount: number;
  largeMessageSize: number;
  message: CoreMessage;
}
export interface ReceiveContinuation {
  type: typeof PacketType.SESS_RECEIVE_CONTINUATION;
  chunk: Buffer;
  continues: boolean;
  consumerId: number;
}
export interface ConsumerClose {
  type: typeof PacketType.SESS_CONSUMER_CLOSE;
  consumerId: number;
}
/** A delivery: the message, then (after it on the wire) its consumer and delivery count. */
export interface ReceiveMessage {
  type: typeof PacketType.SESS_RECEIVE_MSG;
  message: CoreMessage;
  consumerId: number;
  /** 0 only on the forced-delivery marker message (see FORCED_DELIVERY_SEQUENCE_PROPERTY). */
  deliveryCount: number;
}
/**
 * Delivers what the queue has for the consumer, then a marker message (deliveryCount 0, the
 * LONG property FORCED_DELIVERY_SEQUENCE_PROPERTY = `sequence`, no credits charged): the client
 * then knows nothing more was waiting. How a receive with a timeout or receiveNoWait ends.
 */
export interface ForceConsumerDelivery {
  type: typeof PacketType.SESS_FORCE_CONSUMER_DELIVERY;
  consumerId: number;
  sequence: number;
}
/** HornetQ's name of the marker message's property (ClientConsumerImpl.FORCED_DELIVERY_MESSAGE). */
export const FORCED_DELIVERY_SEQUENCE_PROPERTY = '_hornetq.forced.delivery.seq';
export interface ProducerRequestCredits {
  type: typeof PacketType.SESS_PRODUCER_REQUEST_CREDITS;
  credits: number;
  address: string;
}
export interface ProducerCredits {
  type: typeof PacketType.SESS_PRODUCER_CREDITS | typeof PacketType.SESS_PRODUCER_FAIL_CREDITS;
  credits: number;
  address: string;
}
/** Session metadata, never counted and always answered (HornetQ 2.4 clients send V2 instead). */
export interface AddMetadata {
  type: typeof PacketType.SESS_ADD_METADATA;
  key: string;
  data: string;
}
/**
 * Session metadata; counted and answered only when `requiresConfirmation` is true (a client
 * re-sends its metadata uncounted after re-creating a session). Artemis needs `jms-session`.
 */
export interface AddMetadata2 {
  type: typeof PacketType.SESS_ADD_METADATA2;
  key: string;
  data: string;
  requiresConfirmation: boolean;
}
/**
 * Attaches a key/value to the session on the broker, refused (DUPLICATE_METADATA) while another
 * session holds the same pair: how a JMS client id is kept unique among open connections.
 */
export interface UniqueAddMetadata {
  type: typeof PacketType.SESS_UNIQUE_ADD_METADATA;
  key: string;
  data: string;
  requiresConfirmation: boolean;
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
  | DisconnectConsumer
  | ExceptionPacket
  | AsyncException
  | SendRefused
  | NullResponse
  | PacketsConfirmed
  | CreateSession
  | CreateSessionResponse
  | ReattachSession
  | ReattachSessionResponse
  | SubscribeTopology
  | SubscribeTopologyV2
  | ClusterTopologyChange
  | NodeAnnounce
  | CreateQueue
  | DeleteQueue
  | CreateSharedQueue
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
  | ProducerRequestCredits
  | ProducerCredits
  | AddMetadata
  | AddMetadata2
  | UniqueAddMetadata
  | CreateProducer
  | CloseProducer;

/** A packet that answers a request and settles the oldest caller waiting on its channel. */
export type ResponsePacket =
  | ExceptionPacket
  | NullResponse
  | CreateSessionResponse
  | ReattachSessionResponse
  | QueueQueryResponse
  | QueueStatsResponse
  | BindingQueryResponse;

const RESPONSE_TYPES: ReadonlySet<number> = new Set([
  PacketType.EXCEPTION,
  PacketType.NULL_RESPONSE,
  PacketType.CREATESESSION_RESP,
  PacketType.REATTACH_SESSION_RESP,
  PacketType.SESS_QUEUEQUERY_RESP,
  PacketType.SESS_QUEUE_STATS_RESP,
  PacketType.SESS_BINDINGQUERY_RESP,
]);

/** HornetQ's isResponse(): every EXCEPTION is one, so a broker never sends one unasked. */
export function isResponse(packet: Packet): packet is ResponsePacket {
  return RESPONSE_TYPES.has(packet.type);
}

/**
 * Packets that are never counted, cached or confirmed on either side (HornetQ's list): the
 * control packets, the session handshake on channel 1, and session metadata (always for 104).
 */
const UNCONFIRMED_TYPES: ReadonlySet<number> = new Set([
  PacketType.PING,
  PacketType.DISCONNECT,
  PacketType.PACKETS_CONFIRMED,
  PacketType.CREATESESSION,
  PacketType.CREATESESSION_RESP,
  PacketType.REATTACH_SESSION,
  PacketType.REATTACH_SESSION_RESP,
  PacketType.SESS_ADD_METADATA,
]);

/**
 * Whether this packet is numbered in its sender's command stream, held for replay and confirmed
 * (HornetQ's isRequiresConfirmations): decided per packet, since SESS_ADD_METADATA2 says so itself.
 */
export function requiresConfirmation(packet: Packet): boolean {
  if (packet.type === PacketType.SESS_ADD_METADATA2 || packet.type === PacketType.SESS_UNIQUE_ADD_METADATA) {
    return packet.requiresConfirmation;
  }
  return !UNCONFIRMED_TYPES.has(packet.type);
}
