import type { CoreMessage } from './core-message';
import { MessageHeader } from './message-header';
import { PropertyKind, type TypedValue } from './typed-properties';

/**
 * W3C Trace Context carried as two STRING properties of a message, under the header names the
 * standard gives them (`traceparent`, `tracestate`): valid JMS property names, so a Java JMS
 * client reads them as string properties too, and a message from a client that does not trace
 * simply has neither.
 */
export const TraceProperty = {
  TRACEPARENT: 'traceparent',
  TRACESTATE: 'tracestate',
} as const;

/** A message's trace context, as far as it carries one. */
export interface MessageTraceContext {
  traceparent: string | undefined;
  tracestate: string | undefined;
}

// version 00: 2 hex, 32 hex trace id (not all zero), 16 hex parent id (not all zero), 2 hex flags.
const TRACEPARENT = /^[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;
/** The standard's limit: 32 list members of at most 256 characters each, with commas. */
const MAX_TRACESTATE_CHARS = 32 * 257;

/** True for a W3C traceparent this package carries (the standard's form; version ff is invalid). */
export function isTraceparent(value: unknown): value is string {
  return typeof value === 'string' && TRACEPARENT.test(value) && !value.startsWith('ff');
}

function isTracestate(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TRACESTATE_CHARS;
}

function stringOf(value: TypedValue | undefined): string | undefined {
  return value?.kind === PropertyKind.STRING ? value.value : undefined;
}

/**
 * The trace context a message carries. Whatever came off the wire is checked: a malformed
 * traceparent counts as none (the standard's rule), and tracestate only counts beside a valid one.
 */
export function traceContextOf(message: CoreMessage): MessageTraceContext {
  const traceparent = stringOf(message.properties.get(TraceProperty.TRACEPARENT));
  if (!isTraceparent(traceparent)) return { traceparent: undefined, tracestate: undefined };
  const tracestate = stringOf(message.properties.get(TraceProperty.TRACESTATE));
  return { traceparent, tracestate: isTracestate(tracestate) ? tracestate : undefined };
}

/**
 * Stamps a trace context on a message about to be sent; a traceparent that is not one is not
 * stamped (a subscriber's mistake must not put junk on the wire), and neither is its tracestate.
 */
export function stampTraceContext(message: CoreMessage, context: Partial<MessageTraceContext>): void {
  if (!isTraceparent(context.traceparent)) return;
  message.properties.set(TraceProperty.TRACEPARENT, {
    kind: PropertyKind.STRING,
    value: context.traceparent,
  });
  if (isTracestate(context.tracestate))
    message.properties.set(TraceProperty.TRACESTATE, {
      kind: PropertyKind.STRING,
      value: context.tracestate,
    });
  else message.properties.delete(TraceProperty.TRACESTATE);
}

/** The duplicate-detection id as text (a BYTES id as hex), or null: for trace contexts and logs. */
export function duplicateIdOf(message: CoreMessage): string | null {
  const value = message.properties.get(MessageHeader.DUPLICATE_DETECTION_ID);
  if (value === undefined) return null;
  if (value.kind === PropertyKind.STRING) return value.value;
  if (value.kind === PropertyKind.BYTES) return value.value.toString('hex');
  return null;
}
