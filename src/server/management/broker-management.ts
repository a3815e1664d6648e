import type {
  BrokerInfo,
  ConnectionView,
  ConsumerView,
  MessageView,
  QueueSummary,
  SessionView,
  SubscriptionView,
} from './management-views';

/** What listMessages shows, bounded so that browsing a huge queue cannot exhaust the broker. */
export interface ListMessagesOptions {
  /** A JMS selector over the messages; absent, null or '' = every message. */
  filter?: string | null;
  /** At most this many messages (default MANAGEMENT_LIMITS.defaultListLimit, at most maxListLimit). */
  limit?: number;
  /** Skip this many matching messages first (paging; default 0). */
  offset?: number;
  /** Body bytes shown per message (default defaultBodyPreviewBytes, at most maxBodyPreviewBytes). */
  bodyBytes?: number;
}

/** A queue created through management. */
export interface ManagedQueueOptions {
  /** The address it binds to (`jms.queue.orders` for a JMS queue). */
  address: string;
  /** Its name (a JMS queue's name is its address). */
  name: string;
  /** A JMS selector, or null/absent. */
  filter?: string | null;
  /** Default true. */
  durable?: boolean;
}

/** Which subscriptions of a topic to list. */
export type SubscriptionKind = 'all' | 'durable' | 'non-durable';

/**
 * The broker's management operations (HornetQ's QueueControl, TopicControl, JMSServerControl and
 * HornetQServerControl, by the names operators know), over core names. Callers check permissions
 * (the management address checks `manage`): this service trusts its caller. Every mutation is
 * logged with the actor of `as()`.
 *
 * Failures reject with HornetQException: QUEUE_DOES_NOT_EXIST for an unknown queue or topic,
 * INVALID_FILTER_EXPRESSION for a bad selector, QUEUE_EXISTS, ILLEGAL_STATE (destroying a queue
 * with consumers, a broker not started). A malformed argument (a negative limit, a non-integer
 * id) rejects with a TypeError or RangeError naming it.
 *
 * Message operations see the messages held in memory (waiting, scheduled, delivering); messages
 * paged to disk are counted in messageCount but not browsed, moved or removed until read back.
 */
export interface BrokerManagement {
  /** The same service, logging its mutations as done by `actor` (a user name, "http:alice"...). */
  as(actor: string): BrokerManagement;

  getBrokerInfo(): Promise<BrokerInfo>;
  getAddressNames(): Promise<string[]>;
  getQueueNames(): Promise<string[]>;
  listQueues(): Promise<QueueSummary[]>;
  getQueue(name: string): Promise<QueueSummary>;
  createQueue(options: ManagedQueueOptions): Promise<QueueSummary>;
  /** Fails with ILLEGAL_STATE while it has consumers unless `removeConsumers` (they are closed). */
  destroyQueue(name: string, removeConsumers?: boolean): Promise<void>;

  countMessages(queue: string, filter?: string | null): Promise<number>;
  listMessages(queue: string, options?: ListMessagesOptions): Promise<MessageView[]>;
  /** Removes the matching messages that are not being delivered; returns how many. */
  removeMessages(queue: string, filter?: string | null): Promise<number>;
  /** removeMessages with no filter: every message not being delivered. */
  purge(queue: string): Promise<number>;
  /** False when no such message waits in the queue. */
  removeMessage(queue: string, messageId: number): Promise<boolean>;
  /**
   * Moves the matching waiting messages to `otherQueue`'s address (as HornetQ does). With
   * `rejectDuplicates`, a message whose duplicate id the target address has seen is dropped.
   */
  moveMessages(
    queue: string,
    filter: string | null | undefined,
    otherQueue: string,
    rejectDuplicates?: boolean,
  ): Promise<number>;
  moveMessage(
    queue: string,
    messageId: number,
    otherQueue: string,
    rejectDuplicates?: boolean,
  ): Promise<boolean>;
  /** Sends the matching waiting messages to the queue's dead-letter address (dropped if it has none). */
  sendMessagesToDeadLetterAddress(queue: string, filter?: string | null): Promise<number>;
  sendMessageToDeadLetterAddress(queue: string, messageId: number): Promise<boolean>;
  /**
   * Sends a dead-lettered (or expired) message back to where it came from, its `_HQ_ORIG_ADDRESS`;
   * false when no such message waits or it has no original address.
   */
  retryMessage(queue: string, messageId: number): Promise<boolean>;
  /** retryMessage for every waiting message that has an original address; returns how many. */
  retryMessages(queue: string): Promise<number>;

  pause(queue: string): Promise<void>;
  resume(queue: string): Promise<void>;
  isPaused(queue: string): Promise<boolean>;

  /** The consumers of one queue, or of every queue. */
  listConsumers(queue?: string): Promise<ConsumerView[]>;
  listConnections(): Promise<ConnectionView[]>;
  listSessions(connectionId: string): Promise<SessionView[]>;
  /** The clients' addresses (ConnectionView.remoteAddress), all or those whose host is `ip`. */
  listRemoteAddresses(ip?: string): Promise<string[]>;
  /** Closes one connection (its client is told, as by a broker shutdown); false if there is none. */
  closeConnection(connectionId: string): Promise<boolean>;
  /** Closes every connection from host `ip`; returns how many. */
  closeConnectionsForAddress(ip: string): Promise<number>;

  /** The subscriptions of a topic, by its address (`jms.topic.news`). */
  listSubscriptions(topic: string, kind?: SubscriptionKind): Promise<SubscriptionView[]>;
  /** Deletes the durable subscription `clientId`.`name` of `topic`, with its messages. */
  dropDurableSubscription(topic: string, clientId: string, name: string): Promise<void>;
}
