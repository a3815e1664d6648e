import type { JsonFields, JsonObject } from './json-fields';

/** A subscription of a topic: the queue that holds its copies of the topic's messages. */
export interface SubscriptionInfo {
  readonly queueName: string;
  /** A durable subscription's client id and name; null for a non-durable one. */
  readonly clientId: string | null;
  readonly name: string | null;
  readonly durable: boolean;
  /** The subscription's JMS selector as the server keeps it (a core filter), or null. */
  readonly selector: string | null;
  readonly messageCount: number;
  readonly deliveringCount: number;
  readonly consumerCount: number;
}

/** HornetQ 2.4's TopicControl.listAllSubscriptionsAsJSON item (JMSTopicControlImpl). */
export function fromHornetQSubscription(fields: JsonFields, map: JsonObject): SubscriptionInfo {
  const consumers = map['consumers'];
  return {
    queueName: fields.text(map, 'queueName'),
    clientId: fields.optionalText(map, 'clientID'),
    name: fields.optionalText(map, 'name'),
    durable: fields.boolean(map, 'durable'),
    selector: fields.optionalText(map, 'selector'),
    messageCount: fields.number(map, 'messageCount'),
    deliveringCount: fields.number(map, 'deliveringCount'),
    consumerCount: Array.isArray(consumers) ? consumers.length : 0,
  };
}

/**
 * A row of Artemis' listQueues for a topic's address. Artemis has no topic resource: its
 * subscriptions are the queues of the address, and a durable one's name is HornetQ's
 * `clientID.name` (a HornetQ client names it), which gives the client id and name back.
 */
export function fromArtemisQueueRow(fields: JsonFields, row: JsonObject): SubscriptionInfo {
  const queueName = fields.text(row, 'name');
  const durable = fields.boolean(row, 'durable');
  const owner = durable ? durableSubscriptionOf(queueName) : null;
  return {
    queueName,
    clientId: owner?.clientId ?? null,
    name: owner?.name ?? null,
    durable,
    selector: fields.optionalText(row, 'filter'),
    messageCount: fields.number(row, 'messageCount'),
    deliveringCount: fields.number(row, 'deliveringCount'),
    consumerCount: fields.number(row, 'consumerCount'),
  };
}

/**
 * The client id and name in a durable subscription's queue name, read as HornetQDestination.
 * decomposeQueueNameForDurableSubscription reads it (`\` escapes the next character, one
 * unescaped `.` separates the two); null for a name that is not two such parts.
 */
export function durableSubscriptionOf(queueName: string): { clientId: string; name: string } | null {
  const parts = [''];
  for (let i = 0; i < queueName.length; i++) {
    let c = queueName.charAt(i);
    if (c === '.') {
      parts.push('');
      if (parts.length > 2) return null;
      continue;
    }
    if (c === '\\') {
      if (i + 1 >= queueName.length) return null;
      c = queueName.charAt(++i);
    }
    parts[parts.length - 1] += c;
  }
  return parts.length === 2 ? { clientId: parts[0]!, name: parts[1]! } : null;
}
