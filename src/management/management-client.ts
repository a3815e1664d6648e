import type { AbortOptions } from '../core/client/abortable';
import type { ClientSession } from '../core/client/client-session';
import { subscriptionQueueName } from '../jms/destination/subscription-queue-name';
import { toConnectionInfo, type ConnectionInfo } from './connection-info';
import { toConsumerInfo, type ConsumerInfo } from './consumer-info';
import { JsonFields } from './json-fields';
import { describeRequest, type ManagementRequest, type ManagementValue } from './management-codec';
import { managementDialect, type ManagementDialect, type ManagementDialectName } from './management-dialect';
import { ManagementError, ManagementErrorCode } from './management-error';
import { ManagementRequestor } from './management-requestor';
import { toQueueMessageInfo, type QueueMessageInfo } from './queue-message-info';
import { fromArtemisQueueRow, fromHornetQSubscription, type SubscriptionInfo } from './subscription-info';

export interface ManagementClientOptions {
  /** Which server family's names to use: 'hornetq' (HornetQ 2.4 and our broker, the default) or 'artemis'. */
  dialect?: ManagementDialectName | ManagementDialect;
  /** How long a request waits for its answer (default 10 000 ms). */
  timeoutMs?: number;
}

export const DEFAULT_MANAGEMENT_TIMEOUT_MS = 10_000;

/** Options of the operations that take a filter: a core filter in the server's syntax; none means every message. */
export interface MessageFilterOptions extends AbortOptions {
  filter?: string | null;
}

export interface ListQueueMessagesOptions extends MessageFilterOptions {
  /** At most this many (the first ones in the queue). */
  limit?: number;
}

export interface CreateManagedQueueOptions extends AbortOptions {
  filter?: string | null;
  /** Default true. */
  durable?: boolean;
}

/** A queue's counters, read as attributes. */
export interface QueueCounters {
  /** Everything in the queue: ready, scheduled and being delivered. */
  readonly messageCount: number;
  readonly consumerCount: number;
  /** Messages added since the queue was created. */
  readonly messagesAdded: number;
  /** Delivered to a consumer and not yet acknowledged. */
  readonly deliveringCount: number;
  /** Waiting for their delivery time. */
  readonly scheduledCount: number;
}

/**
 * Operating a broker from code, through its management address: HornetQ 2.4's, our broker's or
 * (with the 'artemis' dialect) ActiveMQ Artemis'. The client sends requests on `session`, which it
 * starts, and takes the answers on a temporary queue of its own; closing the client deletes that
 * queue and leaves the session to its owner. The user needs the `manage` permission on the
 * management address. Queues are named as the server names them (`jms.queue.orders` on HornetQ,
 * `orders` on Artemis); a failed operation rejects with a ManagementError carrying the server's text.
 */
export class ManagementClient {
  readonly dialect: ManagementDialect;
  private readonly requestor: ManagementRequestor;

  constructor(
    private readonly session: ClientSession,
    options: ManagementClientOptions = {},
  ) {
    const { dialect = 'hornetq', timeoutMs = DEFAULT_MANAGEMENT_TIMEOUT_MS } = options;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new RangeError(`ManagementClient timeoutMs must be a positive number of ms, got ${timeoutMs}`);
    }
    this.dialect = typeof dialect === 'string' ? managementDialect(dialect) : dialect;
    this.requestor = new ManagementRequestor(session, this.dialect, timeoutMs);
  }

  /** Any operation of any resource, by HornetQ's or Artemis' names: its result as the server gave it. */
  invoke(
    resource: string,
    operation: string,
    parameters: readonly ManagementValue[] = [],
    options: AbortOptions = {},
  ): Promise<ManagementValue> {
    return this.requestor.request({ resource, operation, parameters }, options);
  }

  /** An attribute of a resource (`MessageCount` of `core.queue.jms.queue.orders`). */
  attribute(resource: string, name: string, options: AbortOptions = {}): Promise<ManagementValue> {
    return this.requestor.request({ resource, attribute: name }, options);
  }

  async countMessages(queue: string, options: MessageFilterOptions = {}): Promise<number> {
    return this.numberOf(this.queueOperation(queue, 'countMessages', [options.filter ?? null]), options);
  }

  /** The messages in a queue, headers and properties (the management listing carries no body). */
  async listMessages(queue: string, options: ListQueueMessagesOptions = {}): Promise<QueueMessageInfo[]> {
    const request = this.queueOperation(queue, 'listMessagesAsJSON', [options.filter ?? null]);
    const fields = new JsonFields(describeRequest(request));
    const maps = fields.objects(fields.parse(await this.requestor.request(request, options)));
    const listed = options.limit === undefined ? maps : maps.slice(0, options.limit);
    return listed.map((map) => toQueueMessageInfo(this.dialect, fields, map));
  }

  /** Removes the messages the filter matches (every one without a filter); how many it removed. */
  async removeMessages(queue: string, options: MessageFilterOptions = {}): Promise<number> {
    return this.numberOf(this.queueOperation(queue, 'removeMessages', [options.filter ?? null]), options);
  }

  /** Moves the matching messages to `target` (a queue: they go to its address); how many moved. */
  async moveMessages(queue: string, target: string, options: MessageFilterOptions = {}): Promise<number> {
    return this.numberOf(
      this.queueOperation(queue, 'moveMessages', [options.filter ?? null, target]),
      options,
    );
  }

  /** Sends the matching messages to the queue's dead-letter address; how many went. */
  async sendMessagesToDeadLetterAddress(queue: string, options: MessageFilterOptions = {}): Promise<number> {
    const request = this.queueOperation(queue, 'sendMessagesToDeadLetterAddress', [options.filter ?? null]);
    return this.numberOf(request, options);
  }

  /**
   * Sends every dead-lettered (or expired) message of `queue` back to the queue it came from; how
   * many went. HornetQ 2.4 has no such operation, and Artemis' own (retryMessages) sends to the
   * original address, which for a message dead-lettered from a HornetQ client's queue is
   * `jms.queue.X`: an address Artemis keeps no queue on (its acceptor strips that prefix only from
   * what clients send), where the message is lost. So on both the client moves each original
   * queue's messages back to that queue (moveMessages with a filter on the original-queue
   * property), or to the original address's queue for a copy that names no queue. A topic
   * subscription's message goes back to the topic's address, so to each of its subscriptions.
   */
  async retryMessages(queue: string, options: AbortOptions = {}): Promise<number> {
    let retried = 0;
    for (const [target, filter] of await this.retryTargets(
      await this.listMessages(queue, options),
      options,
    )) {
      retried += await this.moveMessages(queue, target, { ...options, filter });
    }
    return retried;
  }

  /** Sends one dead-lettered message back to its queue (see retryMessages); false when the queue has no such message. */
  async retryMessage(queue: string, messageId: number, options: AbortOptions = {}): Promise<boolean> {
    const message = (await this.listMessages(queue, options)).find((m) => m.messageId === messageId);
    if (message === undefined) return false;
    const target = await this.originalQueueOf(message);
    if (target === null) {
      throw new ManagementError(
        ManagementErrorCode.OPERATION_FAILED,
        `${this.dialect.queueResource(queue)} retryMessage`,
        `message ${messageId} says nothing of where it came from (no ${this.dialect.originalQueueProperty} or ${this.dialect.originalAddressProperty}, or no queue is bound there)`,
      );
    }
    return this.booleanOf(this.queueOperation(queue, 'moveMessage', [messageId, target]), options);
  }

  /** Stops delivery from the queue to its consumers; messages still arrive. */
  async pause(queue: string, options: AbortOptions = {}): Promise<void> {
    await this.requestor.request(this.queueOperation(queue, 'pause', []), options);
  }

  async resume(queue: string, options: AbortOptions = {}): Promise<void> {
    await this.requestor.request(this.queueOperation(queue, 'resume', []), options);
  }

  async isPaused(queue: string, options: AbortOptions = {}): Promise<boolean> {
    return this.booleanOf({ resource: this.dialect.queueResource(queue), attribute: 'Paused' }, options);
  }

  async listConsumers(queue: string, options: AbortOptions = {}): Promise<ConsumerInfo[]> {
    const request = this.queueOperation(queue, 'listConsumersAsJSON', []);
    const fields = new JsonFields(describeRequest(request));
    const maps = fields.objects(fields.parse(await this.requestor.request(request, options)));
    return maps.map((map) => toConsumerInfo(fields, map));
  }

  async queueCounters(queue: string, options: AbortOptions = {}): Promise<QueueCounters> {
    const read = (attribute: string): Promise<number> =>
      this.numberOf({ resource: this.dialect.queueResource(queue), attribute }, options);
    return {
      messageCount: await read('MessageCount'),
      consumerCount: await read('ConsumerCount'),
      messagesAdded: await read('MessagesAdded'),
      deliveringCount: await read('DeliveringCount'),
      scheduledCount: await read('ScheduledCount'),
    };
  }

  /** The client connections (HornetQ 2.4 lists its JMS clients' connections; Artemis every one). */
  async listConnections(options: AbortOptions = {}): Promise<ConnectionInfo[]> {
    const resource = this.dialect.name === 'artemis' ? this.dialect.serverResource : 'jms.server';
    const request = { resource, operation: 'listConnectionsAsJSON', parameters: [] };
    const fields = new JsonFields(describeRequest(request));
    const maps = fields.objects(fields.parse(await this.requestor.request(request, options)));
    return maps.map((map) => toConnectionInfo(fields, map));
  }

  /**
   * Closes one connection by its id; false when there is none. Artemis has closeConnectionWithID;
   * HornetQ 2.4 closes connections only by address (every one whose remote address contains the
   * text), so there the client first asks for closeConnectionWithID (a server that has it, as
   * Artemis' name, answers), and otherwise closes by the connection's own `host:port`, refusing
   * when that would close another connection too.
   */
  async closeConnection(connectionId: string, options: AbortOptions = {}): Promise<boolean> {
    const server = this.dialect.serverResource;
    const byId = { resource: server, operation: 'closeConnectionWithID', parameters: [connectionId] };
    if (this.dialect.name === 'artemis') return this.booleanOf(byId, options);
    const connection = (await this.listConnections(options)).find((c) => c.connectionId === connectionId);
    if (connection === undefined) return false;
    try {
      return await this.booleanOf(byId, options);
    } catch (error) {
      // HornetQ 2.4: "No operation closeConnectionWithID with 1 parameter(s)".
      if (!ManagementError.is(error) || error.code !== ManagementErrorCode.OPERATION_FAILED) throw error;
    }
    const request = { resource: server, operation: 'listRemoteAddresses', parameters: [] };
    const fields = new JsonFields(describeRequest(request));
    const addresses = await this.requestor.request(request, options);
    const matching = (Array.isArray(addresses) ? addresses : []).filter(
      (address) => typeof address === 'string' && address.includes(connection.clientAddress),
    );
    if (matching.length > 1) {
      throw fields.bad(
        `cannot close connection ${connectionId} alone: HornetQ closes by address, and '${connection.clientAddress}' is part of ${matching.length} connections' addresses`,
      );
    }
    if (await this.closeConnectionsForAddress(connection.clientAddress, options)) return true;
    // Listed a moment ago, yet its own address closed nothing: the server matches addresses
    // otherwise than HornetQ 2.4 (by host alone, say), and "no such connection" would be wrong.
    throw new ManagementError(
      ManagementErrorCode.OPERATION_FAILED,
      `${server} closeConnectionsForAddress`,
      `connection ${connectionId} is listed at '${connection.clientAddress}', but the server closed no connection for that address, and has no closeConnectionWithID`,
    );
  }

  /** Closes every connection whose remote address contains `ipAddress`; false when none does. */
  async closeConnectionsForAddress(ipAddress: string, options: AbortOptions = {}): Promise<boolean> {
    const request = {
      resource: this.dialect.serverResource,
      operation: 'closeConnectionsForAddress',
      parameters: [ipAddress],
    };
    return this.booleanOf(request, options);
  }

  /**
   * The subscriptions of a topic: on HornetQ its JMS name (`prices`, resource jms.topic.prices),
   * on Artemis its address (`prices`), whose queues are its subscriptions.
   */
  async listSubscriptions(topic: string, options: AbortOptions = {}): Promise<SubscriptionInfo[]> {
    if (this.dialect.name === 'artemis') {
      const query = JSON.stringify({ field: 'address', operation: 'EQUALS', value: topic });
      const request = {
        resource: this.dialect.serverResource,
        operation: 'listQueues',
        parameters: [query, -1, -1],
      };
      const fields = new JsonFields(describeRequest(request));
      const page = fields.object(fields.parse(await this.requestor.request(request, options)));
      return fields.objects(page['data'] ?? null).map((row) => fromArtemisQueueRow(fields, row));
    }
    const request = {
      resource: `jms.topic.${topic}`,
      operation: 'listAllSubscriptionsAsJSON',
      parameters: [],
    };
    const fields = new JsonFields(describeRequest(request));
    const maps = fields.objects(fields.parse(await this.requestor.request(request, options)));
    return maps.map((map) => fromHornetQSubscription(fields, map));
  }

  /**
   * Deletes a durable subscription and the messages it holds: its queue, named as HornetQ's JMS
   * client names it (`clientId.name`), on HornetQ and Artemis alike. It must have no consumer.
   */
  async dropDurableSubscription(clientId: string, name: string, options: AbortOptions = {}): Promise<void> {
    await this.destroyQueue(subscriptionQueueName(true, clientId, name), options);
  }

  /** Creates a queue on `address` (on Artemis an anycast one). */
  async createQueue(address: string, name: string, options: CreateManagedQueueOptions = {}): Promise<void> {
    const parameters: ManagementValue[] = [address, name, options.filter ?? null, options.durable ?? true];
    if (this.dialect.name === 'artemis') parameters.push('ANYCAST');
    await this.invoke(this.dialect.serverResource, 'createQueue', parameters, options);
  }

  /** Deletes a queue and its messages. */
  async destroyQueue(name: string, options: AbortOptions = {}): Promise<void> {
    await this.invoke(this.dialect.serverResource, 'destroyQueue', [name], options);
  }

  /** Deletes the reply queue; the session stays open. */
  close(): Promise<void> {
    return this.requestor.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private queueOperation(queue: string, operation: string, parameters: ManagementValue[]): ManagementRequest {
    return { resource: this.dialect.queueResource(queue), operation, parameters };
  }

  private async numberOf(request: ManagementRequest, options: AbortOptions): Promise<number> {
    const result = await this.requestor.request(request, options);
    if (typeof result !== 'number')
      throw new JsonFields(describeRequest(request)).bad(
        `the result is not a number: ${JSON.stringify(result)}`,
      );
    return result;
  }

  private async booleanOf(request: ManagementRequest, options: AbortOptions): Promise<boolean> {
    const result = await this.requestor.request(request, options);
    if (typeof result !== 'boolean')
      throw new JsonFields(describeRequest(request)).bad(
        `the result is not a boolean: ${JSON.stringify(result)}`,
      );
    return result;
  }

  /** For each queue the messages go back to, the filter that picks its messages (HornetQ's retry). */
  private async retryTargets(
    messages: readonly QueueMessageInfo[],
    options: AbortOptions,
  ): Promise<Map<string, string>> {
    const { originalQueueProperty: queueProperty, originalAddressProperty: addressProperty } = this.dialect;
    const targets = new Map<string, string>();
    for (const message of messages) {
      options.signal?.throwIfAborted();
      if (message.originalQueue !== null) {
        targets.set(message.originalQueue, `${queueProperty} = ${literal(message.originalQueue)}`);
      } else if (message.originalAddress !== null) {
        const target = await this.originalQueueOf(message);
        if (target !== null && !targets.has(target)) {
          targets.set(
            target,
            `${addressProperty} = ${literal(message.originalAddress)} AND ${queueProperty} IS NULL`,
          );
        }
      }
    }
    return targets;
  }

  /** The queue a dead-lettered copy goes back to: its original queue, or one bound to its original address. */
  private async originalQueueOf(message: QueueMessageInfo): Promise<string | null> {
    if (message.originalQueue !== null) return message.originalQueue;
    if (message.originalAddress === null) return null;
    const binding = await this.session.bindingQuery(message.originalAddress);
    return binding.queueNames[0] ?? null;
  }
}

/** A string literal of a filter: quotes doubled, as SQL-92 (and HornetQ's filter grammar) writes them. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
