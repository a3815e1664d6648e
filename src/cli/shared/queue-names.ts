import type { QueueStats } from '../../core/protocol';

/** HornetQ's JMS layer keeps a JMS queue X in the core queue (and address) jms.queue.X. */
const JMS_QUEUE_PREFIX = 'jms.queue.';
const JMS_TEMP_QUEUE_PREFIX = 'jms.tempqueue.';
const JMS_TOPIC_PREFIX = 'jms.topic.';

/**
 * The core queue a user means: a core name as it is (`jms.queue.X`, or any name the broker lists),
 * `queue://X`, or a JMS queue name as hornetq-jms.xml writes it (`X`, i.e. `jms.queue.X`).
 */
export function coreQueueName(name: string, known: ReadonlySet<string> = new Set()): string {
  const direct = /^queue:\/\/(.+)$/.exec(name);
  if (direct?.[1] !== undefined) return `${JMS_QUEUE_PREFIX}${direct[1]}`;
  if (known.has(name) || name.startsWith('jms.')) return name;
  return `${JMS_QUEUE_PREFIX}${name}`;
}

/** The name a JMS application uses for a core queue: `X` for jms.queue.X, a topic subscription as such. */
export function jmsNameOf(queue: Pick<QueueStats, 'name' | 'address'>): string {
  if (queue.name.startsWith(JMS_QUEUE_PREFIX)) return queue.name.slice(JMS_QUEUE_PREFIX.length);
  if (queue.name.startsWith(JMS_TEMP_QUEUE_PREFIX)) return queue.name.slice(JMS_TEMP_QUEUE_PREFIX.length);
  if (queue.address.startsWith(JMS_TOPIC_PREFIX)) {
    const topic = queue.address.slice(JMS_TOPIC_PREFIX.length);
    // The queue named after its topic is the marker HornetQ's JMS server deploys with it (it takes no message).
    return queue.name === queue.address ? `topic ${topic} (its marker)` : `subscription of topic ${topic}`;
  }
  // A plain core queue has no JMS name.
  return '-';
}
