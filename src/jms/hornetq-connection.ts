import { randomUUID } from 'node:crypto';
import {
  abortable,
  ClientSessionFactory,
  FailoverEventType,
  isAbortOf,
  type AbortOptions,
  type ClientSession,
  type FailoverEvent,
  type FailoverEventListener,
  type FailoverStatistics,
  type ServerLocator,
  type SessionSettings,
  type TopologyListener,
  type TopologySnapshot,
} from '../core/client';
import { HornetQException } from '../core/protocol';
import { HornetQConnectionMetaData } from './connection-metadata';
import type { ConnectionFactoryConfig } from './connection-factory-config';
import {
  AddressPrefix,
  HornetQTemporaryQueue,
  HornetQTemporaryTopic,
  type TemporaryQueue,
  type TemporaryTopic,
} from './destination';
import { IllegalStateException, InvalidClientIDException, JMSException } from './exceptions';
import { HornetQSession, Session, type SessionConnection } from './hornetq-session';
import { jmsCall, toJMSException } from './jms-error';
import { insideCompletionListenerOf, insideListenerOf } from './listener-context';

export type ExceptionListener = (exception: JMSException) => void;
// The core client's listener type: one name for the same function in both APIs.
export type { FailoverEventListener };

export interface OpenConnectionOptions {
  /** The factory's locator: its settings, its topology, and where the next connection goes. */
  locator: ServerLocator;
  config: ConnectionFactoryConfig;
  username: string | null;
  password: string | null;
  onClose: (connection: HornetQConnection) => void;
}

/**
 * Session metadata as HornetQ's JMS client sets it. CLIENT_ID_KEY claimed with
 * addUniqueMetadata is how the broker keeps client ids unique; JMS_SESSION_KEY marks a core
 * session as a JMS client's: Artemis puts the `jms.queue.`/`jms.topic.` prefixes back on what it
 * delivers to an old client only when the session has it.
 */
const CLIENT_ID_KEY = 'jms-client-id';
const JMS_SESSION_KEY = 'jms-session';

/** HornetQ's filter of the temporary queue a temporary topic gets (HornetQSession's REJECTING_FILTER). */
export const TEMPORARY_TOPIC_FILTER = '_HQX=-1';

/** The JMS interface name, for code written against javax.jms (the class is its only implementation). */
export type Connection = HornetQConnection;

/**
 * A JMS connection: one core session factory (one broker connection, with its failover) and an
 * administrative core session that authenticates the user at once, holds the client id on the
 * broker and owns temporary destinations. Sessions are core sessions on the same connection.
 */
export class HornetQConnection implements SessionConnection {
  /** Names this connection on the messages it sends while it has no client id (HornetQ's UID). */
  private readonly uid = randomUUID();
  private readonly sessions = new Set<HornetQSession>();
  private readonly temporaries = new Set<string>();
  private readonly deletedTemporaries = new Set<string>();
  private readonly metaData = new HornetQConnectionMetaData();
  private currentClientID: string | null = null;
  private used = false;
  private started = false;
  private isClosed = false;
  private exceptionListener: ExceptionListener | null = null;
  /** Set while close() runs: told when the factory starts handling a failure. */
  private failureDetected: (() => void) | null = null;
  private failoverListener: FailoverEventListener | null = null;

  private constructor(
    private readonly factory: ClientSessionFactory,
    private readonly admin: ClientSession,
    private readonly options: OpenConnectionOptions,
  ) {
    factory.addFailureListener((error, failedOver) => this.onFailure(error, failedOver));
    factory.addFailoverListener((event) => this.onFailoverEvent(event));
    this.routeAsyncErrors(admin);
  }

  /**
   * Connects and authenticates; a configured client id is claimed at once. Aborting `signal`
   * rejects with its reason wherever it is (see HornetQConnectionFactory.createConnection), with
   * every socket and timer it made released.
   * @internal (HornetQConnectionFactory.createConnection opens connections)
   */
  static async open(
    options: OpenConnectionOptions,
    { signal }: AbortOptions = {},
  ): Promise<HornetQConnection> {
    let factory: ClientSessionFactory;
    try {
      // A preset client id places the connection with the key-sticky policy.
      factory = await options.locator.createSessionFactory({ signal, key: options.config.clientID });
    } catch (error) {
      if (isAbortOf(error, signal)) throw error;
      const cause = toJMSException(error);
      throw new JMSException(`Failed to create session factory: ${cause.message}`, cause.errorCode, {
        cause: error,
      });
    }
    try {
      const admin = await factory.createSession(credentials(options), { signal });
      const connection = new HornetQConnection(factory, admin, options);
      await abortable(connection.addSessionMetadata(admin), signal);
      const preset = options.config.clientID;
      if (preset !== null) await abortable(connection.claimClientID(preset), signal);
      return connection;
    } catch (error) {
      if (!isAbortOf(error, signal)) {
        await factory.close();
        throw toJMSException(error);
      }
      // Aborted: nothing more is waited for, the socket closes now.
      await factory.close({ signal }).catch(() => undefined);
      throw error;
    }
  }

  get clientID(): string | null {
    return this.currentClientID;
  }

  /** As HornetQ names a connection for noLocal: its client id, or its UID while it has none. */
  get stamp(): string {
    return this.currentClientID ?? this.uid;
  }

  get groupID(): string | null {
    return this.options.config.groupID;
  }

  get autoGroup(): boolean {
    return this.options.config.autoGroup;
  }

  async createSession(
    transacted: boolean,
    acknowledgeMode: number = Session.AUTO_ACKNOWLEDGE,
  ): Promise<HornetQSession> {
    this.checkOpen();
    this.used = true;
    const mode = transacted ? Session.SESSION_TRANSACTED : acknowledgeMode;
    const core = await jmsCall(() =>
      this.factory.createSession({ ...credentials(this.options), ...this.coreSettings(mode) }),
    );
    if (this.isClosed) {
      await core.close();
      throw new IllegalStateException('Connection is closed');
    }
    this.routeAsyncErrors(core);
    try {
      await this.addSessionMetadata(core);
    } catch (error) {
      await core.close();
      throw toJMSException(error);
    }
    const session = new HornetQSession(this, core, mode);
    this.sessions.add(session);
    if (this.started) session.start();
    return session;
  }

  /** Starts (or resumes) delivery to consumers. */
  async start(): Promise<void> {
    this.checkOpen();
    this.used = true;
    if (this.started) return;
    this.started = true;
    for (const session of this.sessions) session.start();
  }

  /** Stops delivery; resolves once listener calls in progress have finished. */
  async stop(): Promise<void> {
    this.checkOpen();
    if (insideListenerOf(this))
      throw new IllegalStateException('A MessageListener may not stop its own connection');
    this.used = true;
    if (!this.started) return;
    this.started = false;
    await Promise.all([...this.sessions].map((session) => session.stop()));
  }

  /**
   * Closes every session, producer and consumer; pending receives get null. Idempotent. Aborting
   * `signal` stops waiting for the broker's answers and for listener calls in progress: every
   * session ends here, the socket is closed, and the close rejects with the signal's reason once
   * it is done. The broker sees the socket close and ends the connection's sessions then (their
   * transactions roll back, unacknowledged messages return); a broker that never sees it (a dead
   * link) does so at connection-ttl.
   */
  async close({ signal }: AbortOptions = {}): Promise<void> {
    if (this.isClosed) return;
    if (insideListenerOf(this))
      throw new IllegalStateException('A MessageListener may not close its own connection');
    if (insideCompletionListenerOf(this))
      throw new IllegalStateException('A CompletionListener may not close its own connection');
    this.isClosed = true;
    // A session closes through the broker, so it waits for a failover in progress to end; one that
    // cannot end (broker gone, unlimited reconnect attempts) must not hold close() for ever.
    // Closing the factory ends the reconnect loop and releases the sessions.
    const failingOver = this.whenFailingOver();
    const sessionsClosed = Promise.allSettled([...this.sessions].map((session) => session.close({ signal })));
    await Promise.race([sessionsClosed, failingOver]);
    await this.factory.close({ signal }).catch((error: unknown) => {
      if (!isAbortOf(error, signal)) throw error;
    });
    await sessionsClosed;
    this.failureDetected = null;
    this.options.onClose(this);
    signal?.throwIfAborted();
  }

  /** `await using`: close() without a signal. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  getClientID(): string | null {
    this.checkOpen();
    return this.currentClientID;
  }

  /** Only before any other use; InvalidClientIDException while another open connection has it. */
  async setClientID(clientID: string): Promise<void> {
    this.checkOpen();
    if (this.currentClientID !== null) {
      throw new IllegalStateException(`Client ID has already been set to ${this.currentClientID}`);
    }
    if (this.used)
      throw new IllegalStateException(
        'setClientID can only be called directly after the connection is created',
      );
    if (typeof clientID !== 'string' || clientID.length === 0) {
      throw new InvalidClientIDException('Client ID must be a non-empty string');
    }
    this.used = true;
    await this.claimClientID(clientID);
  }

  getExceptionListener(): ExceptionListener | null {
    this.checkOpen();
    return this.exceptionListener;
  }

  /**
   * The listener hears, asynchronously, of each connection failure (FAILOVER or DISCONNECT) and
   * of each failure no call waits for, under HornetQ's code name: a delivery refused back to the
   * broker (LARGE_MESSAGE_ERROR_BODY), a non-blocking send the broker refused (ADDRESS_FULL...).
   */
  setExceptionListener(listener: ExceptionListener | null): void {
    this.checkOpen();
    this.exceptionListener = listener;
    this.routeAsyncErrors(this.admin);
    for (const session of this.sessions) this.routeAsyncErrors(session.core);
  }

  getFailoverListener(): FailoverEventListener | null {
    this.checkOpen();
    return this.failoverListener;
  }

  setFailoverListener(listener: FailoverEventListener | null): void {
    this.checkOpen();
    this.failoverListener = listener;
  }

  getMetaData(): HornetQConnectionMetaData {
    this.checkOpen();
    this.used = true;
    return this.metaData;
  }

  getStatistics(): FailoverStatistics {
    return this.factory.getStatistics();
  }

  /**
   * The cluster as the broker announced it: each node's live server and backup (see
   * ClientSessionFactory.topology). A snapshot; listeners hear of every later change.
   */
  topology(): TopologySnapshot {
    this.checkOpen();
    return this.factory.topology();
  }

  /** Told when a cluster member comes or changes (MEMBER_UP) and when one leaves (MEMBER_DOWN). */
  addTopologyListener(listener: TopologyListener): void {
    this.checkOpen();
    this.factory.addTopologyListener(listener);
  }

  removeTopologyListener(listener: TopologyListener): void {
    this.factory.removeTopologyListener(listener);
  }

  // ───────────── for sessions ─────────────

  async createTemporaryQueue(): Promise<TemporaryQueue> {
    this.checkOpen();
    const name = randomUUID();
    const address = AddressPrefix.TEMP_QUEUE + name;
    await jmsCall(() => this.admin.createQueue(address, address, { durable: false, temporary: true }));
    this.temporaries.add(address);
    return new HornetQTemporaryQueue(name, () => this.deleteTemporaryQueue(address));
  }

  /**
   * As HornetQ does, the topic's address gets a temporary queue of its own that selects nothing
   * (TEMPORARY_TOPIC_FILTER): the address then exists for every producer, a Java one included,
   * which refuses to send to an address without bindings.
   */
  async createTemporaryTopic(): Promise<TemporaryTopic> {
    this.checkOpen();
    const name = randomUUID();
    const address = AddressPrefix.TEMP_TOPIC + name;
    await jmsCall(() =>
      this.admin.createQueue(address, address, {
        filter: TEMPORARY_TOPIC_FILTER,
        durable: false,
        temporary: true,
      }),
    );
    this.temporaries.add(address);
    return new HornetQTemporaryTopic(name, () => this.deleteTemporaryTopic(address));
  }

  ownsTemporary(address: string): boolean {
    return this.temporaries.has(address);
  }

  deletedTemporary(address: string): boolean {
    return this.deletedTemporaries.has(address);
  }

  sessionClosed(session: HornetQSession): void {
    this.sessions.delete(session);
  }

  private async deleteTemporaryQueue(address: string): Promise<void> {
    this.checkOpen();
    const queue = await jmsCall(() => this.admin.queueQuery(address));
    if (queue.consumerCount > 0) {
      throw new IllegalStateException(`Cannot delete temporary queue ${address}: it has consumers`);
    }
    if (queue.exists) await jmsCall(() => this.admin.deleteQueue(address));
    this.forgetTemporary(address);
  }

  private async deleteTemporaryTopic(address: string): Promise<void> {
    this.checkOpen();
    const bindings = await jmsCall(() => this.admin.bindingQuery(address));
    // Its own queue is named after the address; any other is a subscriber's.
    if (bindings.queueNames.some((queue) => queue !== address)) {
      throw new IllegalStateException(`Cannot delete temporary topic ${address}: it has subscribers`);
    }
    if (bindings.queueNames.includes(address)) await jmsCall(() => this.admin.deleteQueue(address));
    this.forgetTemporary(address);
  }

  private forgetTemporary(address: string): void {
    this.temporaries.delete(address);
    this.deletedTemporaries.add(address);
  }

  private async claimClientID(clientID: string): Promise<void> {
    try {
      await this.admin.addUniqueMetadata(CLIENT_ID_KEY, clientID);
    } catch (error) {
      if (HornetQException.is(error, 'DUPLICATE_METADATA')) {
        throw new InvalidClientIDException(
          `Client ID ${clientID} is already in use by another connection`,
          'DUPLICATE_METADATA',
          {
            cause: error,
          },
        );
      }
      throw toJMSException(error);
    }
    this.currentClientID = clientID;
    // As HornetQ, the session that holds the id says so in its session metadata too.
    await jmsCall(() => this.addSessionMetadata(this.admin));
  }

  /** What HornetQ's JMS client tells the broker about each of its core sessions. */
  private async addSessionMetadata(core: ClientSession): Promise<void> {
    await core.addMetadata(JMS_SESSION_KEY, '');
    if (this.currentClientID !== null) await core.addMetadata(CLIENT_ID_KEY, this.currentClientID);
  }

  /** Core settings for an acknowledgement mode (HornetQ's mapping). */
  private coreSettings(mode: number): Partial<SessionSettings> {
    const { transactionBatchSize, dupsOKBatchSize } = this.options.config;
    switch (mode) {
      case Session.SESSION_TRANSACTED:
        return { autoCommitSends: false, autoCommitAcks: false, ackBatchSize: transactionBatchSize };
      case Session.CLIENT_ACKNOWLEDGE:
        return { autoCommitSends: true, autoCommitAcks: false, ackBatchSize: transactionBatchSize };
      case Session.AUTO_ACKNOWLEDGE:
        return { autoCommitSends: true, autoCommitAcks: true, ackBatchSize: 0 };
      case Session.DUPS_OK_ACKNOWLEDGE:
        return { autoCommitSends: true, autoCommitAcks: true, ackBatchSize: dupsOKBatchSize };
      default:
        throw new JMSException(
          `Invalid acknowledge mode ${mode}: expected 1 (AUTO), 2 (CLIENT) or 3 (DUPS_OK)`,
        );
    }
  }

  /** The ExceptionListener hears of every failure once, asynchronously: FAILOVER or DISCONNECT. */
  private onFailure(error: HornetQException, failedOver: boolean): void {
    this.tellExceptionListener(
      new JMSException(error.message, failedOver ? 'FAILOVER' : 'DISCONNECT', { cause: error }),
    );
  }

  /**
   * While an ExceptionListener is set, a core session's failures that no call waits for (a
   * one-way packet the broker refused, a delivery this client refused back) go to it; without one
   * the core session logs them, as it always did.
   */
  private routeAsyncErrors(core: ClientSession): void {
    core.setAsyncErrorHandler(this.exceptionListener === null ? null : (error) => this.onAsyncError(error));
  }

  /**
   * JMS 1.1 has no other asynchronous channel, so the listener hears these too, each once, under
   * the core's error code (never FAILOVER or DISCONNECT: the connection did not fail).
   */
  private onAsyncError(error: HornetQException): void {
    this.tellExceptionListener(toJMSException(error));
  }

  /** Called from the core's packet handling: the listener runs later, on its own turn. */
  private tellExceptionListener(exception: JMSException): void {
    const listener = this.exceptionListener;
    if (this.isClosed || listener === null) return;
    setImmediate(() => listener(exception));
  }

  /** Resolves once the factory is handling a failure (at once if it already is). */
  private whenFailingOver(): Promise<void> {
    if (this.factory.failingOver) return Promise.resolve();
    return new Promise<void>((resolve) => (this.failureDetected = resolve));
  }

  private onFailoverEvent(event: FailoverEvent): void {
    if (event.type === FailoverEventType.FAILURE_DETECTED) this.failureDetected?.();
    const listener = this.failoverListener;
    if (this.isClosed || listener === null) return;
    setImmediate(() => listener(event));
    if (event.type === FailoverEventType.FAILOVER_FAILED) this.started = false;
  }

  private checkOpen(): void {
    if (this.isClosed) throw new IllegalStateException('Connection is closed');
  }
}

function credentials(options: OpenConnectionOptions): Partial<SessionSettings> {
  return { username: options.username, password: options.password };
}
