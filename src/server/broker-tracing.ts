import diagnostics_channel from 'node:diagnostics_channel';
import type { CoreMessage } from '../core/protocol/core-message';
import { duplicateIdOf, traceContextOf } from '../core/protocol/trace-context';

/**
 * The broker's tracing channels (node:diagnostics_channel TracingChannel). Both operations are
 * synchronous, so each publishes start and end (and error) around it. Nothing is built while no
 * one subscribes. The trace context is the one the message carries (its `traceparent` and
 * `tracestate` properties, as the client stamped them).
 */
export const BrokerTracingChannel = {
  /** A message routed to its queues (stored first when durable): at a send, or at the commit holding it. */
  ROUTE: 'hornetq-js:server:route',
  /** A message handed to a consumer: its delivery written to the consumer's connection. */
  DELIVER: 'hornetq-js:server:deliver',
} as const;

/** What both broker contexts say about the message. */
export interface BrokerMessageTrace {
  /** The address the message was sent to. */
  readonly destination: string;
  /** The client-chosen id (JMSMessageID without `ID:`), or null. */
  readonly messageId: string | null;
  /** The broker's id of the message. */
  readonly serverMessageId: number;
  readonly duplicateId: string | null;
  readonly bodySize: number;
  readonly durable: boolean;
  readonly traceparent: string | undefined;
  readonly tracestate: string | undefined;
}

export interface BrokerRouteTrace extends BrokerMessageTrace {
  /** The queues it goes to. */
  readonly queues: readonly string[];
}

export interface BrokerDeliverTrace extends BrokerMessageTrace {
  readonly queue: string;
  /** The consumer's id within its session. */
  readonly consumerId: number;
  /** 1 on first delivery. */
  readonly deliveryCount: number;
}

const routeChannel = diagnostics_channel.tracingChannel<BrokerRouteTrace>(BrokerTracingChannel.ROUTE);
const deliverChannel = diagnostics_channel.tracingChannel<BrokerDeliverTrace>(BrokerTracingChannel.DELIVER);

function messageTrace(message: CoreMessage): BrokerMessageTrace {
  return {
    destination: message.address,
    messageId: message.userId,
    serverMessageId: message.messageId,
    duplicateId: duplicateIdOf(message),
    bodySize: message.body.length,
    durable: message.durable,
    ...traceContextOf(message),
  };
}

/** Runs a route, traced when anyone listens; the context's `result` is how many queues took it. */
export function traceRoute(
  message: CoreMessage,
  queues: () => readonly string[],
  route: () => number,
): number {
  if (!routeChannel.hasSubscribers) return route();
  return routeChannel.traceSync(route, { ...messageTrace(message), queues: queues() });
}

/**
 * Runs a delivery, traced when anyone listens. Positional arguments, so that an untraced delivery
 * (every one, usually) allocates nothing here but the closure.
 */
export function traceDeliver<T>(
  message: CoreMessage,
  queue: string,
  consumerId: number,
  deliveryCount: number,
  deliver: () => T,
): T {
  if (!deliverChannel.hasSubscribers) return deliver();
  // Kept out of the context's `result`: what a delivery returns is the session's business (frames).
  let delivered: T | undefined;
  deliverChannel.traceSync(
    () => {
      delivered = deliver();
    },
    { ...messageTrace(message), queue, consumerId, deliveryCount },
  );
  return delivered as T;
}
