import type { JMSException } from './exceptions';
import type { Message } from './message';

/**
 * JMS 2.0's CompletionListener: told once the broker has confirmed a send
 * (`producer.send(message, listener)`), or that it failed. Exactly one of its methods is called
 * per send, after the send's promise resolved. From inside it, closing its own producer, session
 * or connection, and committing or rolling back its own session, throw IllegalStateException:
 * those wait for the listener itself.
 */
export interface CompletionListener {
  /** The broker has the message (stored, when it is persistent). */
  onCompletion(message: Message): void;
  /**
   * The broker refused the message (JMSSecurityException: no send permission;
   * ResourceAllocationException: its address is full and refuses sends), or its fate cannot be
   * known (the session was re-created or closed first: an IllegalStateException or a
   * JMSException with code UNBLOCKED; sending again with a duplicate id is safe).
   */
  onException(message: Message, error: JMSException): void;
}

/** True when `value` can serve as a CompletionListener (it has both methods). */
export function isCompletionListener(value: unknown): value is CompletionListener {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as CompletionListener).onCompletion === 'function' &&
    typeof (value as CompletionListener).onException === 'function'
  );
}
