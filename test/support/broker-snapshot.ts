import type { Broker } from '../../src';

/** What "nothing changed on the broker" compares: every queue, its binding and its counters. */
export interface QueueState {
  readonly name: string;
  readonly address: string;
  readonly durable: boolean;
  readonly temporary: boolean;
  readonly messageCount: number;
  readonly consumerCount: number;
  readonly messagesAdded: number;
  readonly messagesAcknowledged: number;
}

/** The broker's queues, by name: compare a snapshot taken before an operation with one after. */
export function queueStates(broker: Broker): QueueState[] {
  return broker
    .listQueues()
    .map((queue) => ({
      name: queue.name,
      address: queue.address,
      durable: queue.durable,
      temporary: queue.temporary,
      messageCount: queue.messageCount,
      consumerCount: queue.consumerCount,
      messagesAdded: queue.messagesAdded,
      messagesAcknowledged: queue.messagesAcknowledged,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Messages routed to any queue since the broker started. */
export function messagesRouted(broker: Broker): number {
  return broker.listQueues().reduce((sum, queue) => sum + queue.messagesAdded, 0);
}
