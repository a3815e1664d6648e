import { splitSubscriptionQueueName } from './durable-subscription-name';
import type {
  ConnectionView,
  ConsumerView,
  MessageView,
  PropertyView,
  SubscriptionView,
} from './management-views';

/**
 * The JSON objects HornetQ 2.4's management operations answer with, built from our views: the same
 * keys and value types, so that a Java tool reading HornetQ's answers reads ours. HornetQ's JSON
 * leaves a key out when its value is null (org.json's put), and so do these.
 */

/** A JSON object with no prototype: a property named `__proto__` is an ordinary key in it. */
type JsonObject = Record<string, unknown>;

function jsonObject(): JsonObject {
  return Object.create(null) as JsonObject;
}

function putUnlessNull(object: JsonObject, key: string, value: unknown): void {
  if (value !== null && value !== undefined) object[key] = value;
}

const TYPE_NUMBERS: Readonly<Record<MessageView['type'], number>> = {
  default: 0,
  object: 2,
  text: 3,
  bytes: 4,
  map: 5,
  stream: 6,
};

/** A message as core QueueControl.listMessages shows it (MessageImpl.toMap). */
export function coreMessageMap(message: MessageView): JsonObject {
  const map = jsonObject();
  map.messageID = message.id;
  putUnlessNull(map, 'userID', message.userId === null ? null : `ID:${message.userId}`);
  map.address = message.address;
  map.type = TYPE_NUMBERS[message.type];
  map.durable = message.durable;
  map.expiration = message.expiration;
  map.timestamp = message.timestamp;
  map.priority = message.priority;
  putProperties(map, message.properties);
  return map;
}

/** A message as JMSQueueControl.listMessages shows it (HornetQMessage.coreMaptoJMSMap). */
export function jmsMessageMap(message: MessageView): JsonObject {
  const map = jsonObject();
  map.JMSPriority = message.priority;
  map.JMSTimestamp = message.timestamp;
  map.JMSExpiration = message.expiration;
  map.JMSDeliveryMode = message.durable ? 'PERSISTENT' : 'NON_PERSISTENT';
  map.messageID = message.id;
  putUnlessNull(map, 'JMSMessageID', message.userId === null ? null : `ID:${message.userId}`);
  map.address = message.address;
  putProperties(map, message.properties);
  return map;
}

/** Property values as Java's JSON writes them: a byte[] as an array of signed bytes. */
function putProperties(map: JsonObject, properties: readonly PropertyView[]): void {
  for (const property of properties) {
    if (property.type === 'bytes' && typeof property.value === 'string') {
      map[property.name] = [...Buffer.from(property.value, 'base64')].map((byte) => (byte << 24) >> 24);
    } else if (property.type === 'long' && typeof property.value === 'string') {
      map[property.name] = Number(property.value);
    } else {
      putUnlessNull(map, property.name, property.value);
    }
  }
}

/** A consumer as QueueControl.listConsumersAsJSON shows it. */
export function queueConsumerJson(consumer: ConsumerView): JsonObject {
  const object = jsonObject();
  object.consumerID = consumer.id;
  object.connectionID = consumer.connectionId;
  object.sessionID = consumer.sessionId;
  object.browseOnly = consumer.browseOnly;
  object.creationTime = consumer.creationTime;
  return object;
}

/**
 * A consumer as JMSServerControl.listConsumersAsJSON shows it: null for one on a queue that is no
 * JMS destination (HornetQ leaves those out). `queueFilter` is its queue's filter.
 */
export function jmsConsumerJson(
  consumer: ConsumerView,
  address: string,
  queueFilter: string | null,
): JsonObject | null {
  const destination = jmsDestinationOf(address);
  if (destination === null) return null;
  const object = queueConsumerJson(consumer);
  object.queueName = consumer.queueName;
  putUnlessNull(object, 'filter', queueFilter);
  object.destinationName = destination.name;
  object.destinationType = destination.type;
  object.durable = destination.type === 'topic' && splitSubscriptionQueueName(consumer.queueName) !== null;
  return object;
}

/** A connection as JMSServerControl.listConnectionsAsJSON shows it. */
export function connectionJson(connection: ConnectionView): JsonObject {
  const object = jsonObject();
  object.connectionID = connection.id;
  object.clientAddress = connection.remoteAddress;
  object.creationTime = connection.creationTime;
  putUnlessNull(object, 'clientID', connection.clientId);
  putUnlessNull(object, 'principal', connection.user);
  return object;
}

/** A subscription as TopicControl.listAllSubscriptionsAsJSON shows it, with its consumers. */
export function subscriptionJson(
  subscription: SubscriptionView,
  consumers: readonly ConsumerView[],
): JsonObject {
  const object = jsonObject();
  object.queueName = subscription.queueName;
  putUnlessNull(object, 'clientID', subscription.clientId);
  putUnlessNull(object, 'selector', subscription.selector);
  putUnlessNull(object, 'name', subscription.name);
  object.durable = subscription.durable;
  object.messageCount = subscription.messageCount;
  object.deliveringCount = subscription.deliveringCount;
  object.consumers = consumers.map(queueConsumerJson);
  return object;
}

const JMS_PREFIXES: ReadonlyArray<[string, string]> = [
  ['jms.queue.', 'queue'],
  ['jms.topic.', 'topic'],
  ['jms.tempqueue.', 'tempqueue'],
  ['jms.temptopic.', 'temptopic'],
];

/** The JMS destination an address is (HornetQ's determineJMSDestination), or null. */
export function jmsDestinationOf(address: string): { name: string; type: string } | null {
  for (const [prefix, type] of JMS_PREFIXES)
    if (address.startsWith(prefix)) return { name: address.slice(prefix.length), type };
  return null;
}
