import { HornetQException } from '../../core/protocol';
import type { Logger } from '../../core/remoting';
import { invalidArgType, outOfRange } from '../../lang/argument-errors';
import type { Filter } from '../postoffice/filter';
import type { MessageReference } from '../postoffice/message-reference';
import type { PostOffice } from '../postoffice/post-office';
import type { Queue } from '../postoffice/queue';
import type { ServerConnection } from '../remoting/server-connection';
import type { ServerConsumer } from '../session/server-consumer';
import type { Durability } from '../storage/storage-manager';
import type {
  BrokerManagement,
  ListMessagesOptions,
  ManagedQueueOptions,
  SubscriptionKind,
} from './broker-management';
import { splitSubscriptionQueueName, subscriptionQueueNameOf } from './durable-subscription-name';
import { MANAGEMENT_LIMITS } from './management-limits';
import type {
  BrokerInfo,
  ConnectionView,
  ConsumerView,
  MessageView,
  QueueSummary,
  SessionView,
  SubscriptionView,
} from './management-views';
import { messageView, type MessagePlace } from './message-view';
import { QueueMessageOperations, type MessageMatch } from './queue-message-operations';

/** What the management service needs of the broker (Broker is one). */
export interface ManagedBroker {
  /** Throws ILLEGAL_STATE while the broker is not started. */
  readonly postOffice: PostOffice;
  /** Whether what a change stored is on disk yet. */
  readonly storage: Durability;
  readonly logger: Logger;
  readonly nodeId: string;
  readonly started: boolean;
  /** Epoch ms of the last start, or null. */
  readonly startedAt: number | null;
  readonly managementAddress: string;
  readonly version: string;
  serverConnections(): Iterable<ServerConnection>;
  getSessionCount(): number;
}

/** A JMS client id's session metadata key (HornetQ's JMS layer sets it). */
const CLIENT_ID_METADATA = 'jms-client-id';

/**
 * The broker's management operations (see BrokerManagement) over its post office, queues,
 * sessions and connections. Mutations are logged at info with their actor and what they did.
 */
export class BrokerManagementService implements BrokerManagement {
  constructor(
    private readonly broker: ManagedBroker,
    private readonly actor: string = 'management',
  ) {}

  as(actor: string): BrokerManagement {
    if (typeof actor !== 'string' || actor === '') throw wrongArgument('actor', 'a non-empty string', actor);
    return new BrokerManagementService(this.broker, actor);
  }

  async getBrokerInfo(): Promise<BrokerInfo> {
    const broker = this.broker;
    return {
      version: broker.version,
      nodeId: broker.nodeId,
      started: broker.started,
      startedAt: broker.startedAt,
      connectionCount: [...broker.serverConnections()].length,
      sessionCount: broker.getSessionCount(),
      queueCount: broker.started ? broker.postOffice.queueCount : 0,
      managementAddress: broker.managementAddress,
    };
  }

  async getAddressNames(): Promise<string[]> {
    const addresses = new Set<string>();
    for (const queue of this.office.eachQueue()) addresses.add(queue.address);
    return [...addresses];
  }

  async getQueueNames(): Promise<string[]> {
    return [...this.office.eachQueue()].map((queue) => queue.name);
  }

  async listQueues(): Promise<QueueSummary[]> {
    return [...this.office.eachQueue()].map((queue) => this.summary(queue));
  }

  async getQueue(name: string): Promise<QueueSummary> {
    return this.summary(this.queue(name));
  }

  async createQueue(options: ManagedQueueOptions): Promise<QueueSummary> {
    const { address, name } = options;
    checkName('name', name);
    checkName('address', address);
    const filter = options.filter ?? null;
    if (filter !== null) this.parseFilter(filter);
    const office = this.office;
    if (office.getQueue(name) !== undefined)
      throw new HornetQException('QUEUE_EXISTS', `Queue ${name} already exists`);
    const queue = office.createQueue({
      name,
      address,
      filter: filter === '' ? null : filter,
      durable: options.durable ?? true,
      temporary: false,
    });
    await this.recorded(`created queue ${name} on ${address}`, { queue: name, address });
    return this.summary(queue);
  }

  async destroyQueue(name: string, removeConsumers = false): Promise<void> {
    const queue = this.queue(name);
    if (removeConsumers) {
      for (const connection of this.connectionsConsuming(queue))
        connection.closeByManagement(`queue ${name} destroyed by ${this.actor}`);
    }
    this.office.deleteQueue(name);
    await this.recorded(`destroyed queue ${name}`, { queue: name });
  }

  async countMessages(queue: string, filter?: string | null): Promise<number> {
    const found = this.queue(queue);
    const match = this.match(filter);
    if (match === null) return found.messageCount;
    let count = 0;
    for (const { reference } of this.placed(found)) if (match(reference)) count++;
    return count;
  }

  async listMessages(queue: string, options: ListMessagesOptions = {}): Promise<MessageView[]> {
    const found = this.queue(queue);
    const limit = bounded(
      'limit',
      options.limit,
      MANAGEMENT_LIMITS.defaultListLimit,
      MANAGEMENT_LIMITS.maxListLimit,
    );
    const offset = bounded('offset', options.offset, 0, Number.MAX_SAFE_INTEGER);
    const bodyBytes = bounded(
      'bodyBytes',
      options.bodyBytes,
      MANAGEMENT_LIMITS.defaultBodyPreviewBytes,
      MANAGEMENT_LIMITS.maxBodyPreviewBytes,
    );
    const match = this.match(options.filter) ?? (() => true);
    const views: MessageView[] = [];
    let skipped = 0;
    for (const { reference, place } of this.placed(found)) {
      if (views.length >= limit) break;
      if (!match(reference)) continue;
      if (skipped < offset) skipped++;
      else views.push(messageView(reference, place, bodyBytes));
    }
    return views;
  }

  async removeMessages(queue: string, filter?: string | null): Promise<number> {
    const found = this.queue(queue);
    const removed = this.operations.remove(found, this.match(filter) ?? (() => true));
    await this.recorded(`removed ${removed} messages from ${queue}`, { queue, filter, count: removed });
    return removed;
  }

  async purge(queue: string): Promise<number> {
    return this.removeMessages(queue, null);
  }

  async removeMessage(queue: string, messageId: number): Promise<boolean> {
    const found = this.queue(queue);
    const removed = this.operations.remove(found, QueueMessageOperations.byId(checkId(messageId)), 1) > 0;
    await this.recorded(`removed message ${messageId} from ${queue}: ${removed}`, {
      queue,
      messageId,
      count: removed ? 1 : 0,
    });
    return removed;
  }

  async moveMessages(
    queue: string,
    filter: string | null | undefined,
    otherQueue: string,
    rejectDuplicates = false,
  ): Promise<number> {
    const found = this.queue(queue);
    const target = this.queue(otherQueue);
    const match = this.match(filter) ?? (() => true);
    const moved = this.operations.move(found, match, target.address, rejectDuplicates);
    await this.recorded(`moved ${moved} messages from ${queue} to ${target.address}`, {
      queue,
      filter,
      target: target.address,
      count: moved,
    });
    return moved;
  }

  async moveMessage(
    queue: string,
    messageId: number,
    otherQueue: string,
    rejectDuplicates = false,
  ): Promise<boolean> {
    const found = this.queue(queue);
    const target = this.queue(otherQueue);
    const match = QueueMessageOperations.byId(checkId(messageId));
    const moved = this.operations.move(found, match, target.address, rejectDuplicates, 1) > 0;
    await this.recorded(`moved message ${messageId} from ${queue} to ${target.address}: ${moved}`, {
      queue,
      messageId,
      target: target.address,
      count: moved ? 1 : 0,
    });
    return moved;
  }

  async sendMessagesToDeadLetterAddress(queue: string, filter?: string | null): Promise<number> {
    const found = this.queue(queue);
    const sent = this.operations.sendToDeadLetter(found, this.match(filter) ?? (() => true));
    await this.recorded(`sent ${sent} messages from ${queue} to its dead-letter address`, {
      queue,
      filter,
      count: sent,
    });
    return sent;
  }

  async sendMessageToDeadLetterAddress(queue: string, messageId: number): Promise<boolean> {
    const found = this.queue(queue);
    const sent =
      this.operations.sendToDeadLetter(found, QueueMessageOperations.byId(checkId(messageId)), 1) > 0;
    await this.recorded(`sent message ${messageId} from ${queue} to its dead-letter address: ${sent}`, {
      queue,
      messageId,
      count: sent ? 1 : 0,
    });
    return sent;
  }

  async retryMessage(queue: string, messageId: number): Promise<boolean> {
    const found = this.queue(queue);
    const retried = this.operations.retry(found, QueueMessageOperations.byId(checkId(messageId)), 1) > 0;
    await this.recorded(`retried message ${messageId} of ${queue}: ${retried}`, {
      queue,
      messageId,
      count: retried ? 1 : 0,
    });
    return retried;
  }

  async retryMessages(queue: string): Promise<number> {
    const found = this.queue(queue);
    const retried = this.operations.retry(found, () => true);
    await this.recorded(`retried ${retried} messages of ${queue} at their original addresses`, {
      queue,
      count: retried,
    });
    return retried;
  }

  async pause(queue: string): Promise<void> {
    this.queue(queue).pause();
    await this.recorded(`paused queue ${queue}`, { queue });
  }

  async resume(queue: string): Promise<void> {
    this.queue(queue).resume();
    await this.recorded(`resumed queue ${queue}`, { queue });
  }

  async isPaused(queue: string): Promise<boolean> {
    return this.queue(queue).isPaused;
  }

  async listConsumers(queue?: string): Promise<ConsumerView[]> {
    const only = queue === undefined ? null : this.queue(queue);
    const views: ConsumerView[] = [];
    for (const connection of this.broker.serverConnections()) {
      for (const session of connection.sessionList()) {
        for (const consumer of session.consumerList()) {
          if (only !== null && consumer.queue !== only) continue;
          views.push({
            id: consumer.id,
            connectionId: String(connection.remoting.id),
            sessionId: session.name,
            queueName: consumer.queue.name,
            browseOnly: consumer.browseOnly,
            creationTime: consumer.createdAt,
            filter: consumer.filter?.expression ?? null,
            deliveringCount: consumer.deliveringCount,
          });
        }
      }
    }
    return views;
  }

  async listConnections(): Promise<ConnectionView[]> {
    return [...this.broker.serverConnections()].map((connection) => {
      const sessions = connection.sessionList();
      return {
        id: String(connection.remoting.id),
        remoteAddress: connection.remoting.remoteAddress,
        user: sessions.find((session) => session.username !== null)?.username ?? null,
        clientId: firstClientId(connection),
        creationTime: connection.creationTime,
        sessionCount: sessions.length,
        consumerCount: connection.consumerCount,
        producerCount: connection.producerCount,
        deliveringCount: connection.deliveringCount,
      };
    });
  }

  async listSessions(connectionId: string): Promise<SessionView[]> {
    const connection = this.connection(connectionId);
    if (connection === undefined) return [];
    return connection.sessionList().map((session) => ({
      id: session.name,
      connectionId,
      user: session.username,
      creationTime: session.createdAt,
      consumerCount: session.consumerCount,
      producerCount: session.producerCount,
    }));
  }

  async listRemoteAddresses(ip?: string): Promise<string[]> {
    const addresses: string[] = [];
    for (const connection of this.broker.serverConnections()) {
      const remote = connection.remoting.remoteAddress;
      if (ip === undefined || remote.includes(ip)) addresses.push(remote);
    }
    return addresses;
  }

  async closeConnection(connectionId: string): Promise<boolean> {
    const connection = this.connection(connectionId);
    if (connection === undefined) return false;
    connection.closeByManagement(`closed by ${this.actor} (management)`);
    await this.recorded(`closed connection ${connectionId}`, { connection: connectionId, count: 1 });
    return true;
  }

  async closeConnectionsForAddress(ip: string): Promise<number> {
    if (typeof ip !== 'string' || ip === '') throw wrongArgument('ip', 'a non-empty string', ip);
    const matching = [...this.broker.serverConnections()].filter(
      // HornetQ's test: the remote address contains the text, so `host` closes every connection
      // from that host and `host:port` the one connection (what its tools pass to close one).
      (connection) => connection.remoting.remoteAddress.includes(ip),
    );
    for (const connection of matching)
      connection.closeByManagement(`connections from ${ip} closed by ${this.actor} (management)`);
    await this.recorded(`closed ${matching.length} connections from ${ip}`, { ip, count: matching.length });
    return matching.length;
  }

  async listSubscriptions(topic: string, kind: SubscriptionKind = 'all'): Promise<SubscriptionView[]> {
    const queues = this.subscriptionQueues(topic).filter(
      (queue) => kind === 'all' || (kind === 'durable') === queue.durable,
    );
    return queues.map((queue) => {
      const owner = queue.durable ? splitSubscriptionQueueName(queue.name) : null;
      return {
        queueName: queue.name,
        clientId: owner?.clientId ?? null,
        name: owner?.name ?? null,
        durable: queue.durable,
        selector: queue.filter?.expression ?? null,
        messageCount: queue.messageCount,
        deliveringCount: queue.deliveringCount,
        consumerCount: queue.consumerCount,
      };
    });
  }

  async dropDurableSubscription(topic: string, clientId: string, name: string): Promise<void> {
    checkName('clientId', clientId);
    checkName('name', name);
    const queueName = subscriptionQueueNameOf(clientId, name);
    const queue = this.subscriptionQueues(topic).find((candidate) => candidate.name === queueName);
    if (queue === undefined || !queue.durable) {
      throw new HornetQException(
        'QUEUE_DOES_NOT_EXIST',
        `No subscriptions with name ${queueName} for clientID ${clientId}`,
      );
    }
    this.office.deleteQueue(queueName);
    await this.recorded(`dropped durable subscription ${queueName} of ${topic}`, { topic, queue: queueName });
  }

  /** The subscriptions' queues of a topic: bound to its address, without its marker queue. */
  private subscriptionQueues(topic: string): Queue[] {
    checkName('topic', topic);
    const queues = this.office.queuesBoundTo(topic);
    if (queues.length === 0)
      throw new HornetQException('QUEUE_DOES_NOT_EXIST', `Topic ${topic} does not exist`);
    return queues.filter((queue) => queue.name !== topic);
  }

  /**
   * The queue's messages where they are: waiting (in delivery order), scheduled (in time order),
   * then those with its consumers (in delivery order). One at a time, so that a limit bounds the walk.
   */
  private *placed(queue: Queue): Generator<{ reference: MessageReference; place: MessagePlace }> {
    for (const { reference, scheduledTime } of queue.waitingReferences()) {
      yield {
        reference,
        place:
          scheduledTime === null
            ? { state: 'waiting', scheduledTime }
            : { state: 'scheduled', scheduledTime },
      };
    }
    for (const consumer of this.consumersOf(queue)) {
      for (const reference of consumer.deliveringReferences())
        yield { reference, place: { state: 'delivering', scheduledTime: null } };
    }
  }

  private consumersOf(queue: Queue): ServerConsumer[] {
    const consumers: ServerConsumer[] = [];
    for (const connection of this.broker.serverConnections())
      for (const session of connection.sessionList())
        for (const consumer of session.consumerList()) if (consumer.queue === queue) consumers.push(consumer);
    return consumers;
  }

  private connectionsConsuming(queue: Queue): ServerConnection[] {
    return [...this.broker.serverConnections()].filter((connection) =>
      connection.sessionList().some((session) => session.consumerList().some((c) => c.queue === queue)),
    );
  }

  private connection(connectionId: string): ServerConnection | undefined {
    if (typeof connectionId !== 'string') throw wrongArgument('connectionId', 'a string', connectionId);
    for (const connection of this.broker.serverConnections())
      if (String(connection.remoting.id) === connectionId) return connection;
    return undefined;
  }

  private summary(queue: Queue): QueueSummary {
    const settings = this.office.addressSettings.getMatch(queue.address);
    return {
      name: queue.name,
      address: queue.address,
      durable: queue.durable,
      temporary: queue.temporary,
      paused: queue.isPaused,
      messageCount: queue.messageCount,
      deliveringCount: queue.deliveringCount,
      scheduledCount: queue.scheduledCount,
      messagesAdded: queue.messagesAdded,
      messagesAcknowledged: queue.messagesAcknowledged,
      messagesExpired: queue.messagesExpired,
      messagesKilled: queue.messagesKilled,
      consumerCount: queue.consumerCount,
      filter: queue.filter?.expression ?? null,
      deadLetterAddress: settings.deadLetterAddress,
      expiryAddress: settings.expiryAddress,
    };
  }

  private get office(): PostOffice {
    return this.broker.postOffice;
  }

  /** Made per use: a restarted broker has a new post office. */
  private get operations(): QueueMessageOperations {
    return new QueueMessageOperations(this.office, this.broker.logger);
  }

  private queue(name: string): Queue {
    checkName('queue', name);
    return this.office.requireQueue(name);
  }

  /** A filter as a match; null for none (absent, null, or blank, which HornetQ takes as none). */
  private match(filter: string | null | undefined): MessageMatch | null {
    if (filter === undefined || filter === null || filter.trim() === '') return null;
    return QueueMessageOperations.matching(this.parseFilter(filter));
  }

  private parseFilter(filter: string): Filter {
    if (typeof filter !== 'string') throw wrongArgument('filter', 'a string', filter);
    if (filter.length > MANAGEMENT_LIMITS.maxFilterLength) {
      throw new HornetQException(
        'INVALID_FILTER_EXPRESSION',
        `the filter is ${filter.length} characters long; at most ${MANAGEMENT_LIMITS.maxFilterLength} are allowed`,
      );
    }
    return this.office.createFilter(filter);
  }

  /**
   * Logs a change, and settles once what it stored is on disk: the caller's answer (a reply on the
   * management address, the console's response) must not confirm a change that a crash would
   * undo. At once when it stored nothing that waits for a sync.
   */
  private async recorded(what: string, details: Record<string, unknown>): Promise<void> {
    this.broker.logger.info(
      { ...details, actor: this.actor, management: true },
      `management: ${this.actor} ${what}`,
    );
    await new Promise<void>((resolve, reject) =>
      this.broker.storage.afterSync((error) => (error === null ? resolve() : reject(error))),
    );
  }
}

function firstClientId(connection: ServerConnection): string | null {
  for (const session of connection.sessionList()) {
    const clientId = session.metadata.get(CLIENT_ID_METADATA);
    if (clientId !== undefined) return clientId;
  }
  return null;
}

function checkName(what: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '') throw wrongArgument(what, 'a non-empty string', name);
}

function checkId(messageId: unknown): number {
  if (typeof messageId !== 'number' || !Number.isSafeInteger(messageId) || messageId < 0)
    throw wrongArgument('messageId', 'a non-negative integer', messageId);
  return messageId;
}

/** An optional integer option within [0, max], `fallback` when absent. */
function bounded(what: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongArgument(what, 'an integer', value);
  if (value < 0 || value > max) throw outOfRange(`${what} must be >= 0 and <= ${max}; got ${value}`);
  return value;
}

function wrongArgument(what: string, expected: string, value: unknown): TypeError {
  const got = typeof value === 'string' ? `'${value.slice(0, 100)}'` : String(value);
  return invalidArgType(`${what} must be ${expected}; got ${got}`);
}
