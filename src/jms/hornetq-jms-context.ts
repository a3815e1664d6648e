import type { AbortOptions } from '../core/client';
import type { HornetQConnectionMetaData } from './connection-metadata';
import {
  HornetQQueue,
  HornetQTopic,
  type Destination,
  type Queue,
  type TemporaryQueue,
  type TemporaryTopic,
  type Topic,
} from './destination';
import { IllegalStateRuntimeException, JMSRuntimeException } from './exceptions';
import type { ExceptionListener, HornetQConnection } from './hornetq-connection';
import { HornetQJMSConsumer } from './hornetq-jms-consumer';
import { HornetQJMSProducer, type ProducerContext } from './hornetq-jms-producer';
import type { HornetQMessageConsumer } from './hornetq-message-consumer';
import type { HornetQMessageProducer } from './hornetq-message-producer';
import type { HornetQQueueBrowser } from './hornetq-queue-browser';
import { Session, type HornetQSession } from './hornetq-session';
import { runtimeCall, runtimeCallSync } from './jms-runtime-error';
import { insideCompletionListenerOf, insideListenerOf } from './listener-context';
import {
  HornetQBytesMessage,
  HornetQMapMessage,
  HornetQMessage,
  HornetQObjectMessage,
  HornetQStreamMessage,
  HornetQTextMessage,
} from './message';
import type { SharedConnection } from './shared-connection';

/** JMS 2.0's JMSContext constants: the session modes, the same numbers as Session's. */
export const JMSContext = Session;
/** The JMS 2.0 interface name for a context: `import type { JMSContext } from 'hornetq-js/client'`. */
export type JMSContext = HornetQJMSContext;

/** Throws JMSRuntimeException for anything but the four JMS session modes (HornetQ's rule). */
export function checkSessionMode(mode: number): void {
  if (mode === 0 || mode === 1 || mode === 2 || mode === 3) return;
  throw new JMSRuntimeException(
    `Invalid session mode ${String(mode)}: expected 0 (SESSION_TRANSACTED), 1 (AUTO_ACKNOWLEDGE), 2 (CLIENT_ACKNOWLEDGE) or 3 (DUPS_OK_ACKNOWLEDGE)`,
  );
}

/**
 * JMS 2.0's JMSContext, as HornetQ 2.4's HornetQJMSContext: a connection and one session in one
 * object, with the checked JMSException family turned into JMSRuntimeException and its subclasses.
 *
 * - The session is made at the first call that needs it, so `setClientID` still works on a fresh
 *   context; creating messages and destinations needs none.
 * - Creating a consumer or browser starts the connection unless `setAutoStart(false)`.
 * - `createContext(mode)` makes another context on the same connection; the connection closes
 *   when the last context sharing it closes.
 * - What touches the broker returns a promise; waits take an AbortSignal (`{ signal }`), and an
 *   aborted call rejects with the signal's reason, as everywhere in this API. `await using`
 *   closes the context.
 * - Closing or stopping a context from a MessageListener of its connection throws
 *   IllegalStateRuntimeException (the listener would wait for itself), as in HornetQ.
 */
export class HornetQJMSContext implements ProducerContext {
  private session: Promise<HornetQSession> | null = null;
  /** The anonymous producers JMSProducers send through (see producer()). */
  private readonly producers = new Map<string, Promise<HornetQMessageProducer>>();
  private autoStart = true;
  private isClosed = false;

  /** @internal (HornetQConnectionFactory.createContext and createContext make contexts) */
  constructor(
    private readonly connection: HornetQConnection,
    private readonly shared: SharedConnection,
    private readonly sessionMode: number,
  ) {}

  /** Another context on this context's connection, with a session of its own in `sessionMode`. */
  createContext(sessionMode: number): HornetQJMSContext {
    this.checkOpen();
    checkSessionMode(sessionMode);
    this.shared.hold();
    return new HornetQJMSContext(this.connection, this.shared, sessionMode);
  }

  // ───────────── the connection ─────────────

  getClientID(): string | null {
    this.checkOpen();
    return runtimeCallSync(() => this.connection.getClientID());
  }

  /** Only before the connection is used (InvalidClientIDRuntimeException if another has it). */
  async setClientID(clientID: string): Promise<void> {
    this.checkOpen();
    await runtimeCall(() => this.connection.setClientID(clientID));
  }

  getMetaData(): HornetQConnectionMetaData {
    this.checkOpen();
    return runtimeCallSync(() => this.connection.getMetaData());
  }

  getExceptionListener(): ExceptionListener | null {
    this.checkOpen();
    return runtimeCallSync(() => this.connection.getExceptionListener());
  }

  setExceptionListener(listener: ExceptionListener | null): void {
    this.checkOpen();
    runtimeCallSync(() => this.connection.setExceptionListener(listener));
  }

  async start(): Promise<void> {
    this.checkOpen();
    await runtimeCall(() => this.connection.start());
  }

  /** Stops delivery on the shared connection; not from one of its MessageListeners. */
  async stop(): Promise<void> {
    this.checkOpen();
    await runtimeCall(() => this.connection.stop());
  }

  setAutoStart(autoStart: boolean): void {
    this.autoStart = autoStart;
  }

  getAutoStart(): boolean {
    return this.autoStart;
  }

  /**
   * Closes the session (a transaction rolls back, unacknowledged messages return) and lets go of
   * the connection, which closes with the last context sharing it. Idempotent. `signal` as for
   * HornetQSession.close: aborting it stops waiting for the broker, everything is closed here
   * all the same, and the close rejects with its reason.
   */
  async close({ signal }: AbortOptions = {}): Promise<void> {
    if (this.isClosed) return;
    if (insideListenerOf(this.connection)) {
      throw new IllegalStateRuntimeException('A MessageListener may not close its own context');
    }
    if (insideCompletionListenerOf(this.connection)) {
      throw new IllegalStateRuntimeException('A CompletionListener may not close its own context');
    }
    this.isClosed = true;
    const session = await this.session?.catch(() => null);
    try {
      if (session !== null && session !== undefined)
        await runtimeCall(() => session.close({ signal }), signal);
    } finally {
      await runtimeCall(() => this.shared.release({ signal }), signal);
    }
  }

  /** `await using`: close() without a signal. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ───────────── messages and destinations (no session needed) ─────────────

  createMessage(): HornetQMessage {
    this.checkOpen();
    return new HornetQMessage();
  }

  createTextMessage(text: string | null = null): HornetQTextMessage {
    this.checkOpen();
    return runtimeCallSync(() => new HornetQTextMessage(text));
  }

  createBytesMessage(): HornetQBytesMessage {
    this.checkOpen();
    return new HornetQBytesMessage();
  }

  createMapMessage(): HornetQMapMessage {
    this.checkOpen();
    return new HornetQMapMessage();
  }

  createStreamMessage(): HornetQStreamMessage {
    this.checkOpen();
    return new HornetQStreamMessage();
  }

  createObjectMessage(object?: unknown): HornetQObjectMessage {
    this.checkOpen();
    return runtimeCallSync(() => new HornetQObjectMessage(object));
  }

  createQueue(queueName: string): Queue {
    this.checkOpen();
    return runtimeCallSync(() => new HornetQQueue(queueName));
  }

  createTopic(topicName: string): Topic {
    this.checkOpen();
    return runtimeCallSync(() => new HornetQTopic(topicName));
  }

  async createTemporaryQueue(): Promise<TemporaryQueue> {
    return this.withSession((session) => session.createTemporaryQueue());
  }

  async createTemporaryTopic(): Promise<TemporaryTopic> {
    return this.withSession((session) => session.createTemporaryTopic());
  }

  // ───────────── producers, consumers, browsers ─────────────

  /** A JMSProducer: cheap, made per use if you like; it has nothing to close. */
  createProducer(): HornetQJMSProducer {
    this.checkOpen();
    return new HornetQJMSProducer(this);
  }

  async createConsumer(
    destination: Destination,
    messageSelector?: string | null,
    noLocal = false,
  ): Promise<HornetQJMSConsumer> {
    return this.consumerOf((session) => session.createConsumer(destination, messageSelector, noLocal));
  }

  /** An unshared durable subscription (JMS 1.1's durable subscriber); needs a client id. */
  async createDurableConsumer(
    topic: Topic,
    name: string,
    messageSelector?: string | null,
    noLocal = false,
  ): Promise<HornetQJMSConsumer> {
    return this.consumerOf((session) => session.createDurableConsumer(topic, name, messageSelector, noLocal));
  }

  /**
   * A consumer of the shared non-durable subscription `name` on `topic` (HornetQSession's): each
   * message goes to one of its consumers, on any connection; it ends with its last consumer.
   */
  async createSharedConsumer(
    topic: Topic,
    name: string,
    messageSelector?: string | null,
  ): Promise<HornetQJMSConsumer> {
    return this.consumerOf((session) => session.createSharedConsumer(topic, name, messageSelector));
  }

  /** As createSharedConsumer, but the subscription keeps messages until unsubscribe(name). */
  async createSharedDurableConsumer(
    topic: Topic,
    name: string,
    messageSelector?: string | null,
  ): Promise<HornetQJMSConsumer> {
    return this.consumerOf((session) => session.createSharedDurableConsumer(topic, name, messageSelector));
  }

  /** Deletes a durable subscription (shared or not) that has no active consumer. */
  async unsubscribe(name: string): Promise<void> {
    await this.withSession((session) => session.unsubscribe(name));
  }

  async createBrowser(queue: Queue, messageSelector?: string | null): Promise<HornetQQueueBrowser> {
    const browser = await this.withSession((session) => session.createBrowser(queue, messageSelector));
    await this.startIfAuto();
    return browser;
  }

  // ───────────── transactions and acknowledgement ─────────────

  getTransacted(): boolean {
    this.checkOpen();
    return this.sessionMode === Session.SESSION_TRANSACTED;
  }

  getSessionMode(): number {
    return this.sessionMode;
  }

  async commit(): Promise<void> {
    await this.withSession((session) => session.commit());
  }

  async rollback(): Promise<void> {
    await this.withSession((session) => session.rollback());
  }

  async recover(): Promise<void> {
    await this.withSession((session) => session.recover());
  }

  /** CLIENT_ACKNOWLEDGE: acknowledges every message this context has consumed; else nothing. */
  async acknowledge(): Promise<void> {
    this.checkOpen();
    if (this.session === null) return;
    await this.withSession((session) => session.acknowledgeConsumed());
  }

  // ───────────── for JMSProducer ─────────────

  checkOpen(): void {
    if (this.isClosed) throw new IllegalStateRuntimeException('Context is closed');
  }

  /**
   * An anonymous producer of the context's session with these two settings. JMS 2.0 has no
   * JMSProducer.close, so JMSProducers (made per send, often) must not each hold a producer of
   * their own: they share the context's, one per combination of the two settings that belong to
   * a producer rather than to a send, so that two JMSProducers never change each other's.
   */
  producer(disableMessageID: boolean, disableMessageTimestamp: boolean): Promise<HornetQMessageProducer> {
    const key = `${disableMessageID}/${disableMessageTimestamp}`;
    let producer = this.producers.get(key);
    if (producer === undefined) {
      producer = this.withSession(async (session) => {
        const made = await session.createProducer(null);
        made.setDisableMessageID(disableMessageID);
        made.setDisableMessageTimestamp(disableMessageTimestamp);
        return made;
      });
      producer.catch(() => this.producers.delete(key));
      this.producers.set(key, producer);
    }
    return producer;
  }

  // ───────────── internals ─────────────

  private async consumerOf(
    create: (session: HornetQSession) => Promise<HornetQMessageConsumer>,
  ): Promise<HornetQJMSConsumer> {
    const consumer = await this.withSession(create);
    await this.startIfAuto();
    return new HornetQJMSConsumer(consumer);
  }

  private async startIfAuto(): Promise<void> {
    if (this.autoStart) await this.start();
  }

  /** Runs a call on the session (made now if this is the first), its failure made unchecked. */
  private async withSession<T>(call: (session: HornetQSession) => Promise<T>): Promise<T> {
    this.checkOpen();
    return runtimeCall(async () => call(await this.sessionNow()));
  }

  /** The session, made at the first need; a failed attempt is not kept, so the next call tries again. */
  private sessionNow(): Promise<HornetQSession> {
    if (this.session === null) {
      const transacted = this.sessionMode === Session.SESSION_TRANSACTED;
      const made = this.connection.createSession(transacted, this.sessionMode);
      made.catch(() => {
        if (this.session === made) this.session = null;
      });
      this.session = made;
    }
    return this.session;
  }
}
