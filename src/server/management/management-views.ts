/**
 * What the broker's management service answers: plain, JSON-ready records (no Buffer, no bigint,
 * no Map), so the management address, the HTTP API and the CLI can serialise them as they are.
 * Names are core names throughout: a JMS queue `orders` is the queue `jms.queue.orders`, a JMS
 * topic `news` the address `jms.topic.news`.
 */

/** One queue's state and counters. */
export interface QueueSummary {
  /** The core queue name (`jms.queue.orders`, `jms.topic.news` subscriptions' `client.sub`). */
  name: string;
  /** The address it is bound to. */
  address: string;
  durable: boolean;
  temporary: boolean;
  /** Paused: it keeps receiving messages but delivers none to its consumers until resumed. */
  paused: boolean;
  /** Everything in the queue: waiting, scheduled, delivering and paged. */
  messageCount: number;
  /** Delivered to a consumer and not yet acknowledged. */
  deliveringCount: number;
  /** Waiting for their scheduled delivery time or a redelivery delay. */
  scheduledCount: number;
  /** Since the broker started (or the queue was created). */
  messagesAdded: number;
  messagesAcknowledged: number;
  messagesExpired: number;
  /** Given up on after max-delivery-attempts (sent to the dead-letter address or dropped). */
  messagesKilled: number;
  consumerCount: number;
  /** The queue's own filter (a JMS selector), or null. */
  filter: string | null;
  /** Where its messages go after max-delivery-attempts (address settings), or null. */
  deadLetterAddress: string | null;
  /** Where its expired messages go (address settings), or null. */
  expiryAddress: string | null;
}

/** The type of a message property, HornetQ's names for them. */
export type PropertyTypeName =
  'null' | 'boolean' | 'byte' | 'short' | 'int' | 'long' | 'float' | 'double' | 'string' | 'char' | 'bytes';

/**
 * One message property with its declared type. `value` is JSON-ready: a `long` outside the
 * safe-integer range is its decimal string, `bytes` are base64.
 */
export interface PropertyView {
  name: string;
  type: PropertyTypeName;
  value: string | number | boolean | null;
}

/** The message types (HornetQ's Message.*_TYPE). */
export type MessageTypeName = 'default' | 'object' | 'text' | 'bytes' | 'map' | 'stream';

/** The start of a message's body, bounded (see ListMessagesOptions.bodyBytes). */
export interface BodyView {
  /** The body's whole size in bytes (as stored: a text body counts its encoding). */
  size: number;
  /** A text message's text (its start), else null. */
  text: string | null;
  /** The start of the body's bytes, base64 (for every type, text included). */
  base64: string;
  /** True when `text`/`base64` show only the start of the body. */
  truncated: boolean;
}

/** One message in a queue, as browsing shows it (the message stays where it is). */
export interface MessageView {
  /** The broker's message id (what removeMessage, moveMessage and retryMessage take). */
  id: number;
  /** The client's id (JMSMessageID is `ID:` + this), or null. */
  userId: string | null;
  address: string;
  type: MessageTypeName;
  durable: boolean;
  /** 0 … 9. */
  priority: number;
  /** Epoch ms. */
  timestamp: number;
  /** Epoch ms; 0 = never. */
  expiration: number;
  /** Times delivered and not acknowledged. */
  deliveryCount: number;
  /** Where it is in the queue: waiting, scheduled (with its time), or with a consumer. */
  state: 'waiting' | 'scheduled' | 'delivering';
  /** Epoch ms of a scheduled message's delivery, else null. */
  scheduledTime: number | null;
  properties: PropertyView[];
  body: BodyView;
}

/** One consumer on a queue. */
export interface ConsumerView {
  /** The consumer's id within its session. */
  id: number;
  connectionId: string;
  /** The session's name. */
  sessionId: string;
  queueName: string;
  browseOnly: boolean;
  /** Epoch ms. */
  creationTime: number;
  /** The consumer's filter (JMS selector), or null. */
  filter: string | null;
  /** Messages it holds, delivered and not acknowledged. */
  deliveringCount: number;
}

/** One session of a connection. */
export interface SessionView {
  /** The session's name. */
  id: string;
  connectionId: string;
  user: string | null;
  /** Epoch ms. */
  creationTime: number;
  consumerCount: number;
  producerCount: number;
}

/** One client connection. */
export interface ConnectionView {
  id: string;
  /** The client's address as its transport names it (`tcp://127.0.0.1:50123`). */
  remoteAddress: string;
  /** The user its sessions logged in as (null: none, security disabled). */
  user: string | null;
  /** The JMS client id its sessions carry (session metadata `jms-client-id`), or null. */
  clientId: string | null;
  /** Epoch ms. */
  creationTime: number;
  sessionCount: number;
  consumerCount: number;
  producerCount: number;
  deliveringCount: number;
}

/** A topic subscription: a queue bound to the topic's address. */
export interface SubscriptionView {
  /** The subscription's queue. */
  queueName: string;
  /** A durable subscription's client id, else null. */
  clientId: string | null;
  /** A durable subscription's name, else null. */
  name: string | null;
  durable: boolean;
  /** The subscription's selector, or null. */
  selector: string | null;
  messageCount: number;
  deliveringCount: number;
  consumerCount: number;
}

/** The broker as a whole. */
export interface BrokerInfo {
  version: string;
  nodeId: string;
  started: boolean;
  /** Epoch ms when it last started, or null. */
  startedAt: number | null;
  connectionCount: number;
  sessionCount: number;
  queueCount: number;
  managementAddress: string;
}
