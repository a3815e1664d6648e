import { HornetQException } from '../../core/protocol';
import type { BrokerManagement, SubscriptionKind } from './broker-management';
import {
  connectionJson,
  coreMessageMap,
  jmsConsumerJson,
  jmsMessageMap,
  queueConsumerJson,
  subscriptionJson,
} from './hornetq-json-layouts';
import { MANAGEMENT_LIMITS } from './management-limits';
import type { ManagementParameter } from './management-request';
import type { MessageView, QueueSummary } from './management-views';

/** An operation's body: it reads its parameters (see Parameters) and returns the result. */
type Operation = (parameters: Parameters) => Promise<unknown>;

/** One resource: its operations by name and number of parameters, and its attributes. */
interface Resource {
  readonly operations: ReadonlyMap<string, ReadonlyMap<number, Operation>>;
  readonly attributes: ReadonlyMap<string, () => Promise<unknown>>;
}

/** Parameters that do not fit an operation's types: HornetQ then finds no such operation. */
class ParameterMismatch extends Error {}

/** The positional parameters of a request, read with the types an operation declares. */
class Parameters {
  constructor(private readonly values: readonly ManagementParameter[]) {}

  /** A String parameter (null allowed, as Java's String is). */
  string(index: number): string | null {
    const value = this.values[index];
    if (value === null || typeof value === 'string') return value;
    throw new ParameterMismatch();
  }

  requiredString(index: number): string {
    const value = this.string(index);
    if (value === null)
      throw new HornetQException('ILLEGAL_STATE', `parameter ${index + 1} must not be null`);
    return value;
  }

  /** An int or long parameter. */
  integer(index: number): number {
    const value = this.values[index];
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    throw new ParameterMismatch();
  }

  boolean(index: number): boolean {
    const value = this.values[index];
    if (typeof value === 'boolean') return value;
    throw new ParameterMismatch();
  }
}

/** Builds a resource from [name, arity, body] rows and [attribute, getter] rows. */
function resource(
  operations: ReadonlyArray<readonly [string, number, Operation]>,
  attributes: ReadonlyArray<readonly [string, () => Promise<unknown>]>,
): Resource {
  const byName = new Map<string, Map<number, Operation>>();
  for (const [name, arity, body] of operations) {
    const overloads = byName.get(name) ?? new Map<number, Operation>();
    overloads.set(arity, body);
    byName.set(name, overloads);
  }
  return { operations: byName, attributes: new Map(attributes) };
}

const JMS_QUEUE = 'jms.queue.';
const JMS_TOPIC = 'jms.topic.';
const CORE_QUEUE = 'core.queue.';
const CORE_SERVER = 'core.server';
const JMS_SERVER = 'jms.server';

/**
 * HornetQ 2.4's management resources (`jms.queue.X`, `jms.topic.X`, `core.queue.X`, `core.server`,
 * `jms.server`) with the operations and attributes served through the management address, each
 * answered in HornetQ's layout, over the broker's management service. An explicit list: nothing
 * from the wire picks a method by name.
 */
export class ManagementResources {
  constructor(private readonly service: BrokerManagement) {}

  /**
   * Runs an operation; rejects with HornetQ's texts for an unknown resource (HQ119067) or an
   * operation it does not have with that many parameters of those types (HQ119069).
   */
  async invoke(
    resourceName: string,
    operation: string,
    parameters: readonly ManagementParameter[],
  ): Promise<unknown> {
    const found = await this.resolve(resourceName);
    if (found === null) throw new Error(`HQ119067: Cannot find resource with name ${resourceName}`);
    const body =
      found.operations.get(operation)?.get(parameters.length) ??
      getterAsOperation(found, operation, parameters);
    if (body === undefined) throw noOperation(operation, parameters.length);
    try {
      return await body(new Parameters(parameters));
    } catch (error) {
      if (error instanceof ParameterMismatch) throw noOperation(operation, parameters.length);
      throw error;
    }
  }

  /** Reads an attribute (`MessageCount` or `messageCount`); failures read as HornetQ's do. */
  async attribute(resourceName: string, attribute: string): Promise<unknown> {
    const found = await this.resolve(resourceName);
    const getter = found?.attributes.get(capitalized(attribute));
    if (getter === undefined) throw new Error(`Problem while retrieving attribute ${attribute}`);
    return getter();
  }

  private async resolve(name: string): Promise<Resource | null> {
    if (name === CORE_SERVER) return this.coreServer();
    if (name === JMS_SERVER) return this.jmsServer();
    if (name.startsWith(JMS_QUEUE)) return (await this.exists(name)) ? this.jmsQueue(name) : null;
    if (name.startsWith(JMS_TOPIC)) return (await this.topicExists(name)) ? this.jmsTopic(name) : null;
    if (name.startsWith(CORE_QUEUE)) {
      const queue = name.slice(CORE_QUEUE.length);
      return (await this.exists(queue)) ? this.coreQueue(queue) : null;
    }
    return null;
  }

  private async exists(queue: string): Promise<boolean> {
    return (await this.service.getQueueNames()).includes(queue);
  }

  private async topicExists(address: string): Promise<boolean> {
    return (await this.service.getAddressNames()).includes(address);
  }

  /** What JMSQueueControl and QueueControl share: counts, pause, consumers, dead letters. */
  private queueAttributes(queue: string): Array<readonly [string, () => Promise<unknown>]> {
    const summary = (): Promise<QueueSummary> => this.service.getQueue(queue);
    return [
      ['Address', async () => (await summary()).address],
      ['Temporary', async () => (await summary()).temporary],
      ['Durable', async () => (await summary()).durable],
      ['MessageCount', async () => (await summary()).messageCount],
      ['MessagesAdded', async () => (await summary()).messagesAdded],
      ['ConsumerCount', async () => (await summary()).consumerCount],
      ['DeliveringCount', async () => (await summary()).deliveringCount],
      ['ScheduledCount', async () => (await summary()).scheduledCount],
      ['DeadLetterAddress', async () => (await summary()).deadLetterAddress],
      ['ExpiryAddress', async () => (await summary()).expiryAddress],
      ['Paused', async () => (await summary()).paused],
    ];
  }

  private queueOperations(queue: string): Array<readonly [string, number, Operation]> {
    const service = this.service;
    return [
      ['countMessages', 1, async (p) => service.countMessages(queue, p.string(0))],
      ['removeMessages', 1, async (p) => service.removeMessages(queue, p.string(0))],
      [
        'sendMessagesToDeadLetterAddress',
        1,
        async (p) => service.sendMessagesToDeadLetterAddress(queue, p.string(0)),
      ],
      ['retryMessages', 0, async () => service.retryMessages(queue)],
      ['pause', 0, async () => service.pause(queue)],
      ['resume', 0, async () => service.resume(queue)],
      ['isPaused', 0, async () => service.isPaused(queue)],
      [
        'listConsumersAsJSON',
        0,
        async () => JSON.stringify((await service.listConsumers(queue)).map(queueConsumerJson)),
      ],
    ];
  }

  /** JMSQueueControl: a JMS queue, its messages named by JMSMessageID, other queues by JMS name. */
  private jmsQueue(queue: string): Resource {
    const service = this.service;
    const byMessageId = async (
      messageId: string,
      action: (filter: string) => Promise<number>,
    ): Promise<boolean> => {
      if ((await action(messageIdFilter(messageId))) !== 1)
        throw new Error(`No message found for JMSMessageID: ${messageId}`);
      return true;
    };
    const moveById = (p: Parameters, rejectDuplicates: boolean): Promise<boolean> =>
      byMessageId(p.requiredString(0), (filter) =>
        service.moveMessages(queue, filter, JMS_QUEUE + p.requiredString(1), rejectDuplicates),
      );
    const moveAll = (p: Parameters, rejectDuplicates: boolean): Promise<number> =>
      service.moveMessages(queue, p.string(0), JMS_QUEUE + p.requiredString(1), rejectDuplicates);
    return resource(
      [
        ...this.queueOperations(queue),
        [
          'listMessages',
          1,
          async (p) => withinReplyBudget((await this.browse(queue, p.string(0))).map(jmsMessageMap)),
        ],
        [
          'listMessagesAsJSON',
          1,
          async (p) =>
            JSON.stringify(withinReplyBudget((await this.browse(queue, p.string(0))).map(jmsMessageMap))),
        ],
        [
          'removeMessage',
          1,
          async (p) => byMessageId(p.requiredString(0), (f) => service.removeMessages(queue, f)),
        ],
        [
          'sendMessageToDeadLetterAddress',
          1,
          async (p) =>
            byMessageId(p.requiredString(0), (f) => service.sendMessagesToDeadLetterAddress(queue, f)),
        ],
        ['moveMessage', 2, async (p) => moveById(p, false)],
        ['moveMessage', 3, async (p) => moveById(p, p.boolean(2))],
        ['moveMessages', 2, async (p) => moveAll(p, false)],
        ['moveMessages', 3, async (p) => moveAll(p, p.boolean(2))],
        [
          'retryMessage',
          1,
          async (p) => {
            const [found] = await service.listMessages(queue, {
              filter: messageIdFilter(p.requiredString(0)),
              limit: 1,
            });
            return found !== undefined && service.retryMessage(queue, found.id);
          },
        ],
      ],
      [
        ...this.queueAttributes(queue),
        ['Name', async () => queue.slice(JMS_QUEUE.length)],
        ['Selector', async () => (await service.getQueue(queue)).filter],
      ],
    );
  }

  /** QueueControl: a core queue, its messages by broker id, other queues by core name. */
  private coreQueue(queue: string): Resource {
    const service = this.service;
    return resource(
      [
        ...this.queueOperations(queue),
        [
          'listMessages',
          1,
          async (p) => withinReplyBudget((await this.browse(queue, p.string(0))).map(coreMessageMap)),
        ],
        [
          'listMessagesAsJSON',
          1,
          async (p) =>
            JSON.stringify(withinReplyBudget((await this.browse(queue, p.string(0))).map(coreMessageMap))),
        ],
        ['removeMessage', 1, async (p) => service.removeMessage(queue, p.integer(0))],
        [
          'sendMessageToDeadLetterAddress',
          1,
          async (p) => service.sendMessageToDeadLetterAddress(queue, p.integer(0)),
        ],
        ['moveMessage', 2, async (p) => service.moveMessage(queue, p.integer(0), p.requiredString(1))],
        [
          'moveMessage',
          3,
          async (p) => service.moveMessage(queue, p.integer(0), p.requiredString(1), p.boolean(2)),
        ],
        ['moveMessages', 2, async (p) => service.moveMessages(queue, p.string(0), p.requiredString(1))],
        [
          'moveMessages',
          3,
          async (p) => service.moveMessages(queue, p.string(0), p.requiredString(1), p.boolean(2)),
        ],
        ['retryMessage', 1, async (p) => service.retryMessage(queue, p.integer(0))],
      ],
      [
        ...this.queueAttributes(queue),
        ['Name', async () => queue],
        ['Filter', async () => (await service.getQueue(queue)).filter],
      ],
    );
  }

  /** TopicControl: a topic's subscriptions. */
  private jmsTopic(address: string): Resource {
    const service = this.service;
    const subscriptions = async (kind: SubscriptionKind): Promise<string> => {
      const consumers = await service.listConsumers();
      const listed = await service.listSubscriptions(address, kind);
      return JSON.stringify(
        listed.map((s) =>
          subscriptionJson(
            s,
            consumers.filter((c) => c.queueName === s.queueName),
          ),
        ),
      );
    };
    const sum = async (kind: SubscriptionKind, field: 'messageCount' | 'deliveringCount'): Promise<number> =>
      (await service.listSubscriptions(address, kind)).reduce((total, s) => total + s[field], 0);
    const count = async (kind: SubscriptionKind): Promise<number> =>
      (await service.listSubscriptions(address, kind)).length;
    return resource(
      [
        ['listAllSubscriptionsAsJSON', 0, async () => subscriptions('all')],
        ['listDurableSubscriptionsAsJSON', 0, async () => subscriptions('durable')],
        ['listNonDurableSubscriptionsAsJSON', 0, async () => subscriptions('non-durable')],
        [
          'dropDurableSubscription',
          2,
          async (p) => service.dropDurableSubscription(address, p.requiredString(0), p.requiredString(1)),
        ],
      ],
      [
        ['Name', async () => address.slice(JMS_TOPIC.length)],
        ['Address', async () => address],
        ['Temporary', async () => false],
        ['MessageCount', async () => sum('all', 'messageCount')],
        ['DeliveringCount', async () => sum('all', 'deliveringCount')],
        ['DurableMessageCount', async () => sum('durable', 'messageCount')],
        ['NonDurableMessageCount', async () => sum('non-durable', 'messageCount')],
        ['SubscriptionCount', async () => count('all')],
        ['DurableSubscriptionCount', async () => count('durable')],
        ['NonDurableSubscriptionCount', async () => count('non-durable')],
      ],
    );
  }

  /** What JMSServerControl and HornetQServerControl share: connections and remote addresses. */
  private connectionOperations(): Array<readonly [string, number, Operation]> {
    const service = this.service;
    return [
      ['listRemoteAddresses', 0, async () => service.listRemoteAddresses()],
      ['listRemoteAddresses', 1, async (p) => service.listRemoteAddresses(p.requiredString(0))],
      [
        'closeConnectionsForAddress',
        1,
        async (p) => (await service.closeConnectionsForAddress(p.requiredString(0))) > 0,
      ],
      ['listConnectionIDs', 0, async () => (await service.listConnections()).map((c) => c.id)],
      ['listSessions', 1, async (p) => (await service.listSessions(p.requiredString(0))).map((s) => s.id)],
    ];
  }

  /** JMSServerControl: JMS queues by name, connections, consumers, sessions. */
  private jmsServer(): Resource {
    const service = this.service;
    const createQueue = async (name: string, selector: string | null, durable: boolean): Promise<boolean> => {
      const queue = JMS_QUEUE + name;
      if (await this.exists(queue)) return false;
      await service.createQueue({ address: queue, name: queue, filter: selector, durable });
      return true;
    };
    const destroyQueue = async (name: string, removeConsumers: boolean): Promise<boolean> => {
      await service.destroyQueue(JMS_QUEUE + name, removeConsumers);
      return true;
    };
    const jmsNames = async (prefix: string): Promise<string[]> =>
      (await service.getQueueNames()).filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length));
    return resource(
      [
        ...this.connectionOperations(),
        ['createQueue', 1, async (p) => createQueue(p.requiredString(0), null, true)],
        ['createQueue', 2, async (p) => createQueue(p.requiredString(0), null, true)],
        ['createQueue', 3, async (p) => createQueue(p.requiredString(0), p.string(2), true)],
        ['createQueue', 4, async (p) => createQueue(p.requiredString(0), p.string(2), p.boolean(3))],
        ['destroyQueue', 1, async (p) => destroyQueue(p.requiredString(0), false)],
        ['destroyQueue', 2, async (p) => destroyQueue(p.requiredString(0), p.boolean(1))],
        [
          'listConnectionsAsJSON',
          0,
          async () => JSON.stringify((await service.listConnections()).map(connectionJson)),
        ],
        ['listConsumersAsJSON', 1, async (p) => this.jmsConsumersJson(p.requiredString(0))],
        ['listAllConsumersAsJSON', 0, async () => this.jmsConsumersJson(null)],
        [
          'listSessionsAsJSON',
          1,
          async (p) =>
            JSON.stringify(
              (await service.listSessions(p.requiredString(0))).map((s) => ({
                sessionID: s.id,
                creationTime: s.creationTime,
              })),
            ),
        ],
      ],
      [
        ['QueueNames', async () => jmsNames(JMS_QUEUE)],
        ['TopicNames', async () => jmsNames(JMS_TOPIC)],
        ['Started', async () => (await service.getBrokerInfo()).started],
        ['Version', async () => (await service.getBrokerInfo()).version],
      ],
    );
  }

  /** HornetQServerControl: core queues and connections. */
  private coreServer(): Resource {
    const service = this.service;
    const createQueue = async (
      address: string,
      name: string,
      filter: string | null,
      durable: boolean,
    ): Promise<null> => {
      await service.createQueue({ address, name, filter, durable });
      return null;
    };
    return resource(
      [
        ...this.connectionOperations(),
        ['createQueue', 2, async (p) => createQueue(p.requiredString(0), p.requiredString(1), null, true)],
        [
          'createQueue',
          3,
          async (p) => createQueue(p.requiredString(0), p.requiredString(1), null, p.boolean(2)),
        ],
        [
          'createQueue',
          4,
          async (p) => createQueue(p.requiredString(0), p.requiredString(1), p.string(2), p.boolean(3)),
        ],
        [
          'destroyQueue',
          1,
          async (p) => {
            await service.destroyQueue(p.requiredString(0));
            return null;
          },
        ],
      ],
      [
        ['QueueNames', async () => service.getQueueNames()],
        ['AddressNames', async () => service.getAddressNames()],
        ['Started', async () => (await service.getBrokerInfo()).started],
        ['Version', async () => (await service.getBrokerInfo()).version],
        ['ConnectionCount', async () => (await service.getBrokerInfo()).connectionCount],
        ['ManagementAddress', async () => (await service.getBrokerInfo()).managementAddress],
      ],
    );
  }

  private async jmsConsumersJson(connectionId: string | null): Promise<string> {
    const queues = new Map((await this.service.listQueues()).map((q) => [q.name, q]));
    const consumers = (await this.service.listConsumers()).filter(
      (c) => connectionId === null || c.connectionId === connectionId,
    );
    const objects = consumers.flatMap((consumer) => {
      const queue = queues.get(consumer.queueName);
      const object = queue === undefined ? null : jmsConsumerJson(consumer, queue.address, queue.filter);
      return object === null ? [] : [object];
    });
    return JSON.stringify(objects);
  }

  /** What a listMessages request shows: at most MANAGEMENT_LIMITS.maxListLimit messages, no bodies. */
  private browse(queue: string, filter: string | null): Promise<MessageView[]> {
    return this.service.listMessages(queue, { filter, limit: MANAGEMENT_LIMITS.maxListLimit, bodyBytes: 0 });
  }
}

/** `getMessageCount` / `isPaused` with no parameters: the attribute, as HornetQ's getters are operations too. */
function getterAsOperation(
  found: Resource,
  operation: string,
  parameters: readonly unknown[],
): Operation | undefined {
  if (parameters.length !== 0) return undefined;
  const name = /^(?:get|is)(.+)$/.exec(operation)?.[1];
  const getter = name === undefined ? undefined : found.attributes.get(name);
  return getter === undefined ? undefined : async () => getter();
}

/**
 * The leading messages whose JSON fits in MANAGEMENT_LIMITS.maxReplyChars (a reply quotes a JSON
 * text once more, so the budget is counted on the serialised objects with room to spare).
 */
function withinReplyBudget<T>(maps: readonly T[]): T[] {
  const kept: T[] = [];
  let chars = 2;
  for (const map of maps) {
    chars += JSON.stringify(map).length + 1;
    if (chars > MANAGEMENT_LIMITS.maxReplyChars / 2) break;
    kept.push(map);
  }
  return kept;
}

function noOperation(operation: string, count: number): Error {
  return new Error(`HQ119069: no operation ${operation}/${count}`);
}

function capitalized(attribute: string): string {
  return attribute.charAt(0).toUpperCase() + attribute.slice(1);
}

/** A filter for one JMSMessageID (`ID:` and a UUID); anything else can match no message. */
function messageIdFilter(messageId: string): string {
  if (!/^ID:[0-9A-Za-z-]{1,64}$/.test(messageId)) return 'FALSE';
  return `JMSMessageID = '${messageId}'`;
}
