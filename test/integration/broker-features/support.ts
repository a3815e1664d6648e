import {
  CoreMessage,
  MessageHeader,
  PropertyKind,
  type Broker,
  type ClientConsumer,
  type ClientSession,
  type ClientSessionFactory,
  type ReceivedMessage,
  type TypedValue,
} from '../../../src';
import { waitFor } from '../../support/test-broker';

/** Durable core queues, each bound to the address of the same name (how JMS queues look). */
export function queues(
  ...names: string[]
): Array<{ name: string; address: string; filter: null; durable: true }> {
  return names.map((name) => ({ name, address: name, filter: null, durable: true }));
}

export interface MessageOptions {
  /** Durable by default, so that sends block until the broker has them (deterministic tests). */
  durable?: boolean;
  priority?: number;
  expiration?: number;
  scheduledAt?: number;
  duplicateId?: string;
  group?: string;
  lastValue?: string;
}

/** A message whose body is `body`, with the broker headers `options` asks for. */
export function text(body: string, options: MessageOptions = {}): CoreMessage {
  const message = new CoreMessage();
  message.body = Buffer.from(body);
  message.durable = options.durable ?? true;
  if (options.priority !== undefined) message.priority = options.priority;
  if (options.expiration !== undefined) message.expiration = options.expiration;
  const set = (name: string, value: TypedValue): void => message.properties.set(name, value);
  if (options.scheduledAt !== undefined)
    set(MessageHeader.SCHEDULED_DELIVERY_TIME, { kind: PropertyKind.LONG, value: options.scheduledAt });
  if (options.duplicateId !== undefined)
    set(MessageHeader.DUPLICATE_DETECTION_ID, { kind: PropertyKind.STRING, value: options.duplicateId });
  if (options.group !== undefined)
    set(MessageHeader.GROUP_ID, { kind: PropertyKind.STRING, value: options.group });
  if (options.lastValue !== undefined)
    set(MessageHeader.LAST_VALUE_NAME, { kind: PropertyKind.STRING, value: options.lastValue });
  return message;
}

export function bodyOf(received: ReceivedMessage): string {
  return received.message.body.toString();
}

/** A property's value (whatever its type), or undefined. */
export function propertyOf(received: ReceivedMessage, name: string): unknown {
  return received.message.properties.get(name)?.value;
}

export function transacted(factory: ClientSessionFactory): Promise<ClientSession> {
  return factory.createSession({ autoCommitSends: false, autoCommitAcks: false });
}

/** Receives and acknowledges until nothing comes for `quietMs`; returns the bodies in order. */
export async function drainBodies(consumer: ClientConsumer, quietMs = 300): Promise<string[]> {
  const bodies: string[] = [];
  for (;;) {
    const message = await consumer.receive(quietMs);
    if (message === null) return bodies;
    bodies.push(bodyOf(message));
    await message.acknowledge();
  }
}

/** The management view of one queue (fails when there is no such queue). */
export function queueStats(broker: Broker, name: string): ReturnType<Broker['listQueues']>[number] {
  const stats = broker.listQueues().find((queue) => queue.name === name);
  if (stats === undefined) throw new Error(`no queue ${name} on the broker`);
  return stats;
}

/** Waits until the broker's view of a queue satisfies `check`. */
export async function waitForQueue(
  broker: Broker,
  name: string,
  check: (stats: ReturnType<Broker['listQueues']>[number]) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  await waitFor(() => check(queueStats(broker, name)), `${name}: ${what}`, timeoutMs);
}
