import { AsyncLocalStorage } from 'node:async_hooks';

/** The consumer, session and connection whose message listener runs on the current async path. */
interface ListenerScope {
  consumer: object;
  session: object;
  connection: object;
}

const scope = new AsyncLocalStorage<ListenerScope>();

/**
 * Runs a listener so that code it calls (even after an await) can tell it runs inside a listener
 * of `session`: JMS forbids a listener to close or stop its own session or connection, which would
 * wait for the listener itself to finish.
 */
export function runInListener<T>(
  consumer: object,
  session: object,
  connection: object,
  listener: () => T,
): T {
  return scope.run({ consumer, session, connection }, listener);
}

/** The consumer whose listener is running on the current async path, if any. */
export function currentListenerConsumer(): object | null {
  return scope.getStore()?.consumer ?? null;
}

/** True when called from inside a listener of this session or connection. */
export function insideListenerOf(owner: object): boolean {
  const current = scope.getStore();
  return current !== undefined && (current.session === owner || current.connection === owner);
}

/** The producer, session and connection whose completion listener runs on the current async path. */
interface CompletionScope {
  producer: object;
  session: object;
  connection: object;
}

const completionScope = new AsyncLocalStorage<CompletionScope>();

/**
 * Runs a CompletionListener so that code it calls can tell it runs inside one: JMS 2.0 forbids it
 * to close its own producer, session or connection, or to commit or roll back its own session,
 * which would wait for the listener itself to return.
 */
export function runInCompletionListener<T>(
  producer: object,
  session: object,
  connection: object,
  listener: () => T,
): T {
  return completionScope.run({ producer, session, connection }, listener);
}

/** True when called from inside a completion listener of this producer, session or connection. */
export function insideCompletionListenerOf(owner: object): boolean {
  const current = completionScope.getStore();
  return (
    current !== undefined &&
    (current.producer === owner || current.session === owner || current.connection === owner)
  );
}
