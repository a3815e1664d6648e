import diagnostics_channel from 'node:diagnostics_channel';
import type { CoreMessage } from '../protocol/core-message';
import { duplicateIdOf, stampTraceContext, traceContextOf } from '../protocol/trace-context';
import type { ReceivedMessage } from './received-message';

/**
 * The client's tracing channels (node:diagnostics_channel TracingChannel): each traced operation
 * publishes start, end, asyncStart, asyncEnd (and error, with `error` on the context) with one
 * context object; its `result` stays undefined. Nothing is built while no one subscribes: the
 * cost then is one `hasSubscribers` check per operation.
 */
export const ClientTracingChannel = {
  /** A send, from the call until the send is done as configured (written, or answered). */
  SEND: 'hornetq-js:client:send',
  /** A message handed to the application: a receive returning it, or a handler running on it. */
  RECEIVE: 'hornetq-js:client:receive',
  /** A commit of a transacted session, until the broker answered. */
  COMMIT: 'hornetq-js:client:commit',
} as const;

/**
 * The context of a send. A subscriber's `start` handler may set `traceparent` (and `tracestate`):
 * they are stamped on the message as its `traceparent` / `tracestate` properties before it is
 * encoded. A value that is not a W3C traceparent is not stamped.
 */
export interface ClientSendTrace {
  /** The address the message goes to (a JMS queue's is `jms.queue.<name>`). */
  readonly destination: string;
  /** The client-chosen id (JMSMessageID without `ID:`), null when message ids are disabled. */
  readonly messageId: string | null;
  /** The duplicate-detection id (`_HQ_DUPL_ID`; a BYTES id as hex), or null. */
  readonly duplicateId: string | null;
  readonly bodySize: number;
  readonly durable: boolean;
  traceparent?: string | undefined;
  tracestate?: string | undefined;
}

/** The context of a delivery to the application; the trace context is the message's own. */
export interface ClientReceiveTrace {
  /** The address the message was sent to. */
  readonly destination: string;
  /** The queue the consumer reads (a topic subscription's queue for a topic). */
  readonly queue: string;
  readonly messageId: string | null;
  /** The broker's id of the message. */
  readonly serverMessageId: number;
  readonly duplicateId: string | null;
  readonly bodySize: number;
  /** 1 on first delivery. */
  readonly deliveryCount: number;
  /** The message's `traceparent` property when it is a valid one; undefined from a client that does not trace. */
  readonly traceparent: string | undefined;
  readonly tracestate: string | undefined;
}

/** The context of a commit. */
export interface ClientCommitTrace {
  /** The session's name on the broker (a UUID this client chose). */
  readonly session: string;
}

const sendChannel = diagnostics_channel.tracingChannel<ClientSendTrace>(ClientTracingChannel.SEND);
const receiveChannel = diagnostics_channel.tracingChannel<ClientReceiveTrace>(ClientTracingChannel.RECEIVE);
const commitChannel = diagnostics_channel.tracingChannel<ClientCommitTrace>(ClientTracingChannel.COMMIT);

/** Runs a send, traced when anyone listens; the trace context a subscriber chose is stamped first. */
export function traceSend(message: CoreMessage, address: string, send: () => Promise<void>): Promise<void> {
  if (!sendChannel.hasSubscribers) return send();
  const context: ClientSendTrace = {
    destination: address,
    messageId: message.userId,
    duplicateId: duplicateIdOf(message),
    bodySize: message.body.length,
    durable: message.durable,
  };
  // Async, so that a failure thrown at once is a rejection too: subscribers always see asyncEnd.
  return sendChannel.tracePromise(async () => {
    stampTraceContext(message, context);
    await send();
  }, context);
}

function receiveTrace(received: ReceivedMessage, queue: string): ClientReceiveTrace {
  const { message } = received;
  return {
    destination: message.address,
    queue,
    messageId: message.userId,
    serverMessageId: message.messageId,
    duplicateId: duplicateIdOf(message),
    bodySize: message.body.length,
    deliveryCount: received.deliveryCount,
    ...traceContextOf(message),
  };
}

/** A receive's result, traced as a delivery (start to end at once) when anyone listens. */
export function traceReceived(
  received: Promise<ReceivedMessage | null>,
  queue: string,
): Promise<ReceivedMessage | null> {
  if (!receiveChannel.hasSubscribers) return received;
  // The traced function returns nothing: the context's `result` must not hand subscribers the message.
  return received.then((message) =>
    message === null
      ? null
      : receiveChannel.tracePromise(async () => undefined, receiveTrace(message, queue)).then(() => message),
  );
}

/** Runs the application's handler on a message, traced from its start to its end when anyone listens. */
export function traceHandled(
  received: ReceivedMessage,
  queue: string,
  handle: () => void | Promise<void>,
): void | Promise<void> {
  if (!receiveChannel.hasSubscribers) return handle();
  return receiveChannel.tracePromise(
    async () => {
      await handle();
    },
    receiveTrace(received, queue),
  );
}

/** Runs a commit, traced when anyone listens. */
export function traceCommit(session: string, commit: () => Promise<void>): Promise<void> {
  if (!commitChannel.hasSubscribers) return commit();
  return commitChannel.tracePromise(
    async () => {
      await commit();
    },
    { session },
  );
}
