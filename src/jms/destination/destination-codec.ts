import { InvalidDestinationException } from '../exceptions';
import type { Destination } from './destination';
import { AddressPrefix, HornetQDestination } from './hornetq-destination';
import { HornetQQueue } from './hornetq-queue';
import { HornetQTemporaryQueue } from './hornetq-temporary-queue';
import { HornetQTemporaryTopic } from './hornetq-temporary-topic';
import { HornetQTopic } from './hornetq-topic';

/**
 * The destination a core address names: 'jms.queue.X' → queue X, 'jms.topic.T' → topic T,
 * 'jms.tempqueue.X' / 'jms.temptopic.T' → temporary ones (without a deleter). Throws
 * InvalidDestinationException for an address with none of these prefixes or an empty name.
 */
export function destinationFromAddress(address: string): HornetQQueue | HornetQTopic {
  // Longest prefixes first is not needed: no prefix is a prefix of another.
  if (address.startsWith(AddressPrefix.QUEUE))
    return new HornetQQueue(nameAfter(address, AddressPrefix.QUEUE));
  if (address.startsWith(AddressPrefix.TOPIC))
    return new HornetQTopic(nameAfter(address, AddressPrefix.TOPIC));
  if (address.startsWith(AddressPrefix.TEMP_QUEUE)) {
    return new HornetQTemporaryQueue(nameAfter(address, AddressPrefix.TEMP_QUEUE));
  }
  if (address.startsWith(AddressPrefix.TEMP_TOPIC)) {
    return new HornetQTemporaryTopic(nameAfter(address, AddressPrefix.TEMP_TOPIC));
  }
  throw new InvalidDestinationException(
    `Invalid address '${address}': a JMS destination's core address starts with ${AddressPrefix.QUEUE}, ${AddressPrefix.TOPIC}, ${AddressPrefix.TEMP_QUEUE} or ${AddressPrefix.TEMP_TOPIC}`,
  );
}

/**
 * The core address of a destination. Our own destinations carry it; a foreign object is accepted
 * by its contract methods (getQueueName → 'jms.queue.', getTopicName → 'jms.topic.'), so it maps
 * to an ordinary queue or topic. Anything else is an InvalidDestinationException.
 */
export function addressOfDestination(destination: Destination): string {
  if (destination instanceof HornetQDestination) return destination.address;
  const candidate = destination as unknown as Record<string, unknown> | null;
  if (typeof candidate === 'object' && candidate !== null) {
    if (typeof candidate['getQueueName'] === 'function') {
      return (
        AddressPrefix.QUEUE +
        foreignName(destination, (candidate['getQueueName'] as () => unknown).call(destination))
      );
    }
    if (typeof candidate['getTopicName'] === 'function') {
      return (
        AddressPrefix.TOPIC +
        foreignName(destination, (candidate['getTopicName'] as () => unknown).call(destination))
      );
    }
  }
  throw new InvalidDestinationException(`${String(destination)} is not a queue or a topic`);
}

function nameAfter(address: string, prefix: string): string {
  const name = address.slice(prefix.length);
  if (name.length === 0)
    throw new InvalidDestinationException(`core address '${address}' has no destination name`);
  return name;
}

function foreignName(destination: Destination, name: unknown): string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidDestinationException(`${String(destination)} has no usable name (${String(name)})`);
  }
  return name;
}
