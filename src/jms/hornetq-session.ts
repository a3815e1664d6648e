import { randomUUID } from 'node:crypto';
import { HornetQException } from '../core/protocol';
import {
  abortable,
  isAbortOf,
  type AbortOptions,
  type ClientSession,
  type ReceivedMessage,
} from '../core/client';
import {
  AddressPrefix,
  HornetQQueue,
  HornetQTopic,
  addressOfDestination,
  type Destination,
  type Queue,
  type TemporaryQueue,
  type TemporaryTopic,
  type Topic,
} from './destination';
import { subscriptionQueueName } from './destination/subscription-queue-name';
import { IllegalStateException, InvalidDestinationException, JMSException } from './exceptions';
import { jmsCall, toJMSException } from './jms-error';
import { currentListenerConsumer, insideCompletionListenerOf, insideListenerOf } from './listener-context';
import {
  HornetQBytesMessage,
  HornetQMapMessage,
  HornetQMessage,
  HornetQObjectMessage,
  HornetQStreamMessage,
  HornetQTextMessage,
} from './message';
import { HornetQMessageConsumer, type ConsumerSession } from './hornetq-message-consumer';
import {
  CONNECTION_STAMP_PROPERTY,
  HornetQMessageProducer,
  type ProducerSession,
} from './hornetq-message-producer';
import { HornetQQueueBrowser } from './hornetq-queue-browser';
import { MAX_SELECTOR_DEPTH, parseSelector } from './selector';
import { parseExpression } from './selector/parser';
import { toHornetQFilter } from './selector/selector-translator';

/** JMS acknowledgement modes (javax.jms.Session constants). */
export const Session = {
  SESSION_TRANSACTED: 0,
  AUTO_ACKNOWLEDGE: 1,
  CLIENT_ACKNOWLEDGE: 2,
  DUPS_OK_ACKNOWLEDGE: 3,
} as const;
/**
 * The JMS interface name, for code written against javax.jms; as there, `Session` also holds the
 * acknowledgement-mode constants (the class is the interface's only implementation).
 */
export type Session = HornetQSession;

/** What a session needs from its connection. */
export interface SessionConnection {
  /** Identifies the connection on every message it sends (for noLocal). */
  readonly stamp: string;
  readonly clientID: string | null;
  readonly groupID: string | null;
  readonly autoGroup: boolean;
  createTemporaryQueue(): Promise<TemporaryQueue>;
  createTemporaryTopic(): Promise<TemporaryTopic>;
  /** False for a temporary destination this connection did not create. */
  ownsTemporary(address: string): boolean;
  /** True for a temporary destination this connection created and then deleted. */
  deletedTemporary(address: string): boolean;
  sessionClosed(session: HornetQSession): void;
}

/**
 * A JMS session over a core session. How it maps the acknowledgement modes (as HornetQ does):
 * a transacted session and CLIENT_ACKNOWLEDGE keep acknowledgements in a broker transaction
 * (CLIENT_ACKNOWLEDGE's message.acknowledge() commits it, recover() rolls it back); AUTO and
 * DUPS_OK acknowledge directly, DUPS_OK in batches.
 */
export class HornetQSession implements ConsumerSession, ProducerSession {
  private readonly consumers = new Set<HornetQMessageConsumer>();
  private readonly producers = new Set<HornetQMessageProducer>();
  private readonly browsers = new Set<HornetQQueueBrowser>();
  /** Consumers' subscription queues to delete when they close (non-durable topic subscriptions). */
  private readonly subscriptions = new Map<HornetQMessageConsumer, string>();
  /** Queues known to exist, so that sends do not ask the broker every time. */
  private readonly knownQueues = new Set<string>();
  /** Counts rollbacks and recovers: a listener's message delivered before one is not acknowledged. */
  private rollbacks = 0;
  private isClosed = false;

  /** @internal (HornetQConnection.createSession makes sessions) */
  constructor(
    private readonly connection: SessionConnection,
    readonly core: ClientSession,
    private readonly mode: number,
  ) {}

  get closed(): boolean {
    return this.isClosed;
  }

  get connectionHandle(): object {
    return this.connection;
  }

  get connectionStamp(): string {
    return this.connection.stamp;
  }

  /** @internal (its producers' completion listeners may not close it) */
  get jmsConnection(): object {
    return this.connection;
  }

  get groupID(): string | null {
    return this.connection.groupID;
  }

  get autoGroup(): boolean {
    return this.connection.autoGroup;
  }

  // ───────────── producers, consumers, browsers ─────────────

  async createProducer(destination: Destination | null): Promise<HornetQMessageProducer> {
    this.checkOpen();
    let address: string | null = null;
    if (destination !== null && destination !== undefined) {
      address = addressOfDestination(destination);
      await this.checkDestination(address);
    }
    const producer = new HornetQMessageProducer(
      this,
      coreCall(() => this.core.createProducer(address)),
      destination ?? null,
    );
    this.producers.add(producer);
    return producer;
  }

  async createConsumer(
    destination: Destination,
    messageSelector?: string | null,
    noLocal = false,
  ): Promise<HornetQMessageConsumer> {
    this.checkOpen();
    const address = this.requireDestination(destination);
    const selector = checkedSelector(messageSelector);
    this.checkTemporaryOwner(address);
    const filter = this.coreFilter(selector, noLocal);
    if (isTopicAddress(address)) {
      const queueName = randomUUID();
      await jmsCall(() =>
        this.core.createQueue(address, queueName, { filter, durable: false, temporary: true }),
      );
      const consumer = await this.openOnNewQueue(destination, queueName, selector, noLocal);
      this.subscriptions.set(consumer, queueName);
      return consumer;
    }
    await this.requireQueue(address);
    return this.openConsumer(destination, address, filter, selector, noLocal);
  }

  async createDurableSubscriber(
    topic: Topic,
    name: string,
    messageSelector?: string | null,
    noLocal = false,
  ): Promise<HornetQMessageConsumer> {
    this.checkOpen();
    const address = this.requireDestination(topic);
    if (!address.startsWith(AddressPrefix.TOPIC)) {
      throw new InvalidDestinationException(
        `A durable subscription needs a (non-temporary) topic, not ${String(topic)}`,
      );
    }
    const selector = checkedSelector(messageSelector);
    const queueName = this.durableQueueName(name);
    const filter = this.coreFilter(selector, noLocal);
    const existing = await jmsCall(() => this.core.queueQuery(queueName));
    if (existing.exists && existing.consumerCount > 0) {
      throw new IllegalStateException(`Durable subscription ${name} already has an active subscriber`);
    }
    if (existing.exists && (existing.address !== address || existing.filter !== filter)) {
      // JMS: a different topic or selector replaces the subscription (its messages are lost).
      await jmsCall(() => this.core.deleteQueue(queueName));
    }
    if (existing.exists && existing.address === address && existing.filter === filter) {
      return this.openConsumer(topic, queueName, null, selector, noLocal);
    }
    await jmsCall(() => this.core.createQueue(address, queueName, { filter, durable: true }));
    return this.openOnNewQueue(topic, queueName, selector, noLocal);
  }

  /** JMS 2.0's name for createDurableSubscriber: an unshared durable subscription. */
  createDurableConsumer(
    topic: Topic,
    name: string,
    messageSelector?: string | null,
    noLocal = false,
  ): Promise<HornetQMessageConsumer> {
    return this.createDurableSubscriber(topic, name, messageSelector, noLocal);
  }

  /**
   * A consumer of the shared non-durable subscription `name` to `topic` (JMS 2.0): every consumer
   * of that name (and client id, if the connection has one), in any connection or process, shares
   * one queue, and the broker hands each message to one of them in turn. The subscription begins
   * with its first consumer and ends with its last. Joining it with another topic or selector
   * throws a JMSException.
   */
  createSharedConsumer(
    topic: Topic,
    name: string,
    messageSelector?: string | null,
  ): Promise<HornetQMessageConsumer> {
    return this.createSharedSubscriber(topic, name, messageSelector, false);
  }

  /**
   * A consumer of the shared durable subscription `name` to `topic` (JMS 2.0): as
   * createSharedConsumer, but the subscription keeps what is published while it has no consumer,
   * until unsubscribe(name). A client id is optional. It is the same subscription as an unshared
   * durable one of the same name and client id (as on HornetQ): createDurableSubscriber is
   * refused with IllegalStateException while shared consumers are open.
   */
  createSharedDurableConsumer(
    topic: Topic,
    name: string,
    messageSelector?: string | null,
  ): Promise<HornetQMessageConsumer> {
    return this.createSharedSubscriber(topic, name, messageSelector, true);
  }

  /**
   * Deletes the durable subscription `name`, shared or not. Refused with IllegalStateException
   * while it has a consumer, in this process or any other.
   */
  async unsubscribe(name: string): Promise<void> {
    this.checkOpen();
    checkSubscriptionName(name);
    // No client id is needed: a shared durable subscription may have none (HornetQ's rule too).
    const queueName = subscriptionQueueName(true, this.connection.clientID, name);
    const existing = await jmsCall(() => this.core.queueQuery(queueName));
    if (!existing.exists)
      throw new InvalidDestinationException(`There is no durable subscription named ${name}`);
    if (existing.consumerCount > 0) {
      throw new IllegalStateException(`Cannot unsubscribe ${name} while it has an active subscriber`);
    }
    await jmsCall(() => this.core.deleteQueue(queueName));
  }

  /**
   * As HornetQ 2.4's internalCreateSharedConsumer: the topic must exist (a binding on its address),
   * then CREATE_SHARED_QUEUE, which the broker answers alike when the queue is there with the same
   * topic and selector, and refuses (INVALID_TRANSIENT_QUEUE_USE, a JMSException here) when not.
   */
  private async createSharedSubscriber(
    topic: Topic,
    name: string,
    messageSelector: string | null | undefined,
    durable: boolean,
  ): Promise<HornetQMessageConsumer> {
    this.checkOpen();
    const address = this.requireDestination(topic);
    if (!isTopicAddress(address)) {
      throw new InvalidDestinationException(`A shared subscription needs a topic, not ${String(topic)}`);
    }
    checkSubscriptionName(name);
    const selector = checkedSelector(messageSelector);
    this.checkTemporaryOwner(address);
    const bindings = await jmsCall(() => this.core.bindingQuery(address));
    if (!bindings.exists) throw new InvalidDestinationException(`Topic ${address} does not exist`);
    if (durable && address.startsWith(AddressPrefix.TEMP_TOPIC)) {
      throw new InvalidDestinationException(
        `Cannot create a durable subscription on a temporary topic (${address})`,
      );
    }
    const queueName = subscriptionQueueName(durable, this.connection.clientID, name);
    const filter = selector === null ? null : toHornetQFilter(selector);
    // A non-durable queue goes with its last consumer, and a durable one with an unsubscribe: if
    // that happened between the create and the consumer, the queue is made again, once.
    for (let attempt = 1; ; attempt++) {
      await this.createSharedQueue(address, queueName, filter, durable);
      try {
        return await this.openConsumer(topic, queueName, null, selector, false, { sharedQueue: true });
      } catch (error) {
        const vanished = HornetQException.is(error, 'QUEUE_DOES_NOT_EXIST');
        if (vanished && attempt < 2) continue;
        if (!durable && !vanished) await this.dropUnreadSharedQueue(queueName);
        throw toJMSException(error);
      }
    }
  }

  /**
   * A transient queue is deleted when its last consumer leaves, so one that never had a consumer
   * (the broker refused ours: no consume permission) would collect the topic's messages for ever.
   * It goes, unless consumers of other sessions are on it (the broker refuses that delete). A
   * durable one stays whatever happens here: it may hold another replica's messages.
   */
  private async dropUnreadSharedQueue(queueName: string): Promise<void> {
    await this.core.deleteQueue(queueName).catch(() => undefined);
  }

  /**
   * HornetQ's client ignores QUEUE_EXISTS for a durable shared queue. HornetQ 2.4, Artemis and our
   * broker never answer it there (a mismatch is INVALID_TRANSIENT_QUEUE_USE), but a broker that
   * did could mean a mismatched queue: unlike HornetQ's client, this one then looks before
   * consuming from it.
   */
  private async createSharedQueue(
    address: string,
    queueName: string,
    filter: string | null,
    durable: boolean,
  ): Promise<void> {
    try {
      await this.core.createSharedQueue(address, queueName, { filter, durable });
    } catch (error) {
      if (!(durable && HornetQException.is(error, 'QUEUE_EXISTS'))) throw toJMSException(error);
      const existing = await jmsCall(() => this.core.queueQuery(queueName));
      if (existing.exists && (existing.address !== address || existing.filter !== filter)) {
        throw new JMSException(
          `Queue ${queueName} already exists on another subscription (address ${String(existing.address)}, filter ${existing.filter ?? 'none'})`,
          'INVALID_TRANSIENT_QUEUE_USE',
          { cause: error },
        );
      }
    }
  }

  async createBrowser(queue: Queue, messageSelector?: string | null): Promise<HornetQQueueBrowser> {
    this.checkOpen();
    const address = this.requireDestination(queue);
    if (isTopicAddress(address))
      throw new InvalidDestinationException(`Cannot browse a topic: ${String(queue)}`);
    const selector = checkedSelector(messageSelector);
    await this.requireQueue(address);
    const browser = new HornetQQueueBrowser(this.core, queue, address, selector, (b) =>
      this.browsers.delete(b),
    );
    this.browsers.add(browser);
    return browser;
  }

  // ───────────── destinations and messages ─────────────

  createQueue(queueName: string): Queue {
    this.checkOpen();
    return new HornetQQueue(queueName);
  }

  createTopic(topicName: string): Topic {
    this.checkOpen();
    return new HornetQTopic(topicName);
  }

  createTemporaryQueue(): Promise<TemporaryQueue> {
    this.checkOpen();
    return this.connection.createTemporaryQueue();
  }

  createTemporaryTopic(): Promise<TemporaryTopic> {
    this.checkOpen();
    return this.connection.createTemporaryTopic();
  }

  createMessage(): HornetQMessage {
    this.checkOpen();
    return new HornetQMessage();
  }

  createTextMessage(text: string | null = null): HornetQTextMessage {
    this.checkOpen();
    return new HornetQTextMessage(text);
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
    return new HornetQObjectMessage(object);
  }

  // ───────────── transactions and acknowledgement ─────────────

  getTransacted(): boolean {
    this.checkOpen();
    return this.mode === Session.SESSION_TRANSACTED;
  }

  getAcknowledgeMode(): number {
    this.checkOpen();
    return this.mode;
  }

  async commit(): Promise<void> {
    this.checkOpen();
    this.checkNotInCompletionListener('commit');
    if (this.mode !== Session.SESSION_TRANSACTED)
      throw new IllegalStateException('Session is not transacted');
    await jmsCall(() => this.core.commit());
  }

  async rollback(): Promise<void> {
    this.checkOpen();
    this.checkNotInCompletionListener('roll back');
    if (this.mode !== Session.SESSION_TRANSACTED)
      throw new IllegalStateException('Session is not transacted');
    this.rollbacks++;
    await jmsCall(() => this.core.rollback());
  }

  /**
   * Redelivers every message consumed and not acknowledged, oldest first, marked redelivered.
   * Called from a listener, the message being handled is one of them.
   */
  async recover(): Promise<void> {
    this.checkOpen();
    if (this.mode === Session.SESSION_TRANSACTED)
      throw new IllegalStateException('Cannot recover a transacted session');
    // A CLIENT_ACKNOWLEDGE listener's message is already in the session's transaction (see
    // onMessage); an AUTO or DUPS_OK listener's message is its consumer's oldest unacknowledged one.
    const current = this.acknowledgesFirst ? null : currentListenerConsumer();
    const seen = [...this.consumers]
      .filter((consumer) => consumer === current)
      .map((consumer) => consumer.core);
    this.rollbacks++;
    await jmsCall(() => this.core.rollback(seen));
  }

  delivered(_consumer: HornetQMessageConsumer, _received: ReceivedMessage, message: HornetQMessage): void {
    message.setAcknowledger(() => this.acknowledgeConsumed());
  }

  /** The application has the message: acknowledge it as the mode says (batched where allowed). */
  async consumed(_consumer: HornetQMessageConsumer, received: ReceivedMessage): Promise<void> {
    if (this.isClosed) return;
    await jmsCall(() => received.acknowledge());
  }

  /**
   * receiveBody could not give the body (JMS 2.0): in AUTO and DUPS_OK the message is taken back
   * unacknowledged, as for a listener that threw, so it comes again at once marked redelivered;
   * in CLIENT_ACKNOWLEDGE and a transacted session it joins the session's unacknowledged work, as
   * the specification says, for the next acknowledge/commit or recover/rollback to settle.
   */
  async refused(consumer: HornetQMessageConsumer, received: ReceivedMessage): Promise<void> {
    if (this.isClosed || consumer.closed) return;
    if (this.acknowledgesFirst) {
      await this.consumed(consumer, received);
      return;
    }
    this.rollbacks++;
    await jmsCall(() => this.core.rollback([consumer.core]));
  }

  /**
   * Runs a listener as HornetQ's JMSMessageListenerWrapper does. A transacted or CLIENT_ACKNOWLEDGE
   * session acknowledges the message into its transaction first, so that a commit or acknowledge()
   * inside the listener covers it, and a listener that throws simply gets the next message (JMS 1.1
   * §4.5.2). AUTO and DUPS_OK acknowledge after the listener returns normally, unless a rollback
   * or recover (which took the message back) ran meanwhile or the consumer was closed; a message
   * whose listener threw is delivered again at once, marked redelivered.
   */
  async onMessage(
    consumer: HornetQMessageConsumer,
    received: ReceivedMessage,
    listener: () => void | Promise<void>,
  ): Promise<void> {
    if (this.isClosed || consumer.closed) return;
    if (this.acknowledgesFirst) await this.consumed(consumer, received);
    const rollbacks = this.rollbacks;
    try {
      await listener();
    } catch {
      if (!this.acknowledgesFirst && !this.isClosed && !consumer.closed) {
        this.rollbacks++;
        await jmsCall(() => this.core.rollback([consumer.core]));
      }
      return;
    }
    if (this.acknowledgesFirst || this.rollbacks !== rollbacks || consumer.closed) return;
    await this.consumed(consumer, received);
  }

  private get acknowledgesFirst(): boolean {
    return this.mode === Session.SESSION_TRANSACTED || this.mode === Session.CLIENT_ACKNOWLEDGE;
  }

  /** A non-durable subscription's queue goes with its consumer; after an abort it is not waited for. */
  async consumerClosed(consumer: HornetQMessageConsumer, signal?: AbortSignal): Promise<void> {
    this.consumers.delete(consumer);
    const subscription = this.subscriptions.get(consumer);
    if (subscription === undefined) return;
    this.subscriptions.delete(consumer);
    if (this.core.closed || signal?.aborted === true) return;
    await abortable(this.core.deleteQueue(subscription), signal).catch(() => undefined);
  }

  producerClosed(producer: HornetQMessageProducer): void {
    this.producers.delete(producer);
  }

  /** Rejects a send to a queue that does not exist, or to a temporary destination since deleted. */
  async checkDestination(address: string): Promise<void> {
    if (this.connection.deletedTemporary(address)) {
      throw new InvalidDestinationException(`Temporary destination ${address} has been deleted`);
    }
    if (isTopicAddress(address) || this.knownQueues.has(address)) return;
    // Whether anything is bound to the address, as HornetQ's JMS producer asks: a queue query
    // would not find another connection's temporary queue (a reply-to), which the broker hides.
    const bindings = await jmsCall(() => this.core.bindingQuery(address));
    if (!bindings.exists) throw new InvalidDestinationException(`Queue ${address} does not exist`);
    this.knownQueues.add(address);
  }

  // ───────────── lifecycle ─────────────

  start(): void {
    if (!this.isClosed) coreCall(() => this.core.start());
  }

  /** Stops delivery and waits for listener calls in progress to finish. */
  async stop(): Promise<void> {
    if (this.isClosed) return;
    await jmsCall(() => this.core.stop());
    await Promise.all([...this.consumers].map((consumer) => consumer.idle()));
  }

  /**
   * Closes the session: a transaction rolls back, unacknowledged messages return to their queues,
   * waiting receives get null. Idempotent; a listener of this session may not close it. Aborting
   * `signal` stops waiting (for listener calls in progress, for the broker's answers): the
   * session, its consumers and producers are closed here at once, and the close rejects with the
   * signal's reason. The broker ends the session on the close request if it went, else when the
   * connection closes or at connection-ttl (then the transaction rolls back and the messages
   * return all the same).
   */
  async close({ signal }: AbortOptions = {}): Promise<void> {
    if (this.isClosed) return;
    if (insideListenerOf(this))
      throw new IllegalStateException('A MessageListener may not close its own session');
    this.checkNotInCompletionListener('close');
    this.isClosed = true;
    const producers = [...this.producers];
    for (const producer of producers) producer.closeLocally();
    for (const browser of this.browsers) browser.closeLocally();
    const consumers = [...this.consumers];
    try {
      // JMS 1.1 §4.4.1: close waits for listener calls in progress.
      await abortable(Promise.all(consumers.map((consumer) => consumer.idle())), signal).catch(
        (error: unknown) => {
          if (!isAbortOf(error, signal)) throw error;
        },
      );
      // JMS 2.0: close waits for the sends with a CompletionListener and for their listeners.
      await abortable(Promise.all(producers.map((producer) => producer.completionsDone())), signal).catch(
        (error: unknown) => {
          if (!isAbortOf(error, signal)) throw error;
        },
      );
      // Each consumer closes on the broker first, so its batched acknowledgements reach the
      // session's transaction: messages the application had come back marked redelivered when the
      // session rolls back; closing consumers only here would drop those acknowledgements.
      await Promise.allSettled(consumers.map((consumer) => consumer.close({ signal })));
      await this.core.close({ signal });
    } finally {
      for (const consumer of consumers) consumer.closeLocally();
      this.connection.sessionClosed(this);
    }
  }

  /** `await using`: close() without a signal. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * What a received message's acknowledge() does: in CLIENT_ACKNOWLEDGE, acknowledges everything
   * the session has consumed; in other modes nothing. JMSContext.acknowledge() calls it directly.
   */
  async acknowledgeConsumed(): Promise<void> {
    this.checkOpen();
    if (this.mode === Session.CLIENT_ACKNOWLEDGE) await jmsCall(() => this.core.commit());
  }

  /**
   * Opens the consumer of a subscription queue this call has just created. If the broker refuses
   * the consumer (no consume permission on the topic), the queue goes too, as far as the user may
   * delete it: a refused subscribe leaves no subscription behind to collect messages nobody reads.
   */
  private async openOnNewQueue(
    destination: Destination,
    queueName: string,
    selector: string | null,
    noLocal: boolean,
  ): Promise<HornetQMessageConsumer> {
    try {
      return await this.openConsumer(destination, queueName, null, selector, noLocal);
    } catch (error) {
      await this.core.deleteQueue(queueName).catch(() => undefined);
      throw error;
    }
  }

  private async openConsumer(
    destination: Destination,
    queueName: string,
    filter: string | null,
    selector: string | null,
    noLocal: boolean,
    { sharedQueue = false }: { sharedQueue?: boolean } = {},
  ): Promise<HornetQMessageConsumer> {
    const core = await jmsCall(() => this.core.createConsumer(queueName, { filter, sharedQueue }));
    const consumer = new HornetQMessageConsumer(this, core, destination, selector, noLocal);
    this.consumers.add(consumer);
    return consumer;
  }

  /**
   * The core filter for a consumer: the selector translated to HornetQ's identifiers (as HornetQ's
   * JMS client sends it), with noLocal's "not sent by this connection" ANDed on (a queue
   * consumer's too, as HornetQ does; JMS leaves noLocal on a queue to the provider). As in
   * HornetQ, a message without the connection property (from a core client) does not pass it.
   * Unlike HornetQ, a selector that is a disjunction is put in parentheses first (HornetQ's
   * `a OR b AND …` lets local messages matching `a` through), and only the selector is translated
   * (HornetQ would also rewrite a client id of PERSISTENT inside the connection test).
   */
  private coreFilter(selector: string | null, noLocal: boolean): string | null {
    const translated = selector === null ? null : toHornetQFilter(selector);
    if (!noLocal) return translated;
    const notLocal = `${CONNECTION_STAMP_PROPERTY}<>${quoted(this.connection.stamp)}`;
    if (selector === null || translated === null) return notLocal;
    const disjunction = parseExpression(selector, MAX_SELECTOR_DEPTH)?.kind === 'or';
    return `${disjunction ? `(${translated})` : translated} AND ${notLocal}`;
  }

  /** An unshared durable subscription's queue, which needs a client id: clientID.name. */
  private durableQueueName(name: string): string {
    const clientID = this.connection.clientID;
    if (clientID === null) {
      throw new IllegalStateException('Cannot use a durable subscription - the client ID has not been set');
    }
    checkSubscriptionName(name);
    return subscriptionQueueName(true, clientID, name);
  }

  private requireDestination(destination: Destination | null | undefined): string {
    if (destination === null || destination === undefined)
      throw new InvalidDestinationException('Destination must not be null');
    return addressOfDestination(destination);
  }

  private async requireQueue(address: string): Promise<void> {
    const queue = await jmsCall(() => this.core.queueQuery(address));
    if (!queue.exists) throw new InvalidDestinationException(`Queue ${address} does not exist`);
  }

  private checkTemporaryOwner(address: string): void {
    const temporary =
      address.startsWith(AddressPrefix.TEMP_QUEUE) || address.startsWith(AddressPrefix.TEMP_TOPIC);
    if (temporary && !this.connection.ownsTemporary(address)) {
      throw new JMSException(
        `Cannot consume from temporary destination ${address}: it belongs to another connection`,
      );
    }
  }

  /** JMS 2.0: a completion listener would wait for itself. */
  private checkNotInCompletionListener(operation: string): void {
    if (insideCompletionListenerOf(this))
      throw new IllegalStateException(`A CompletionListener may not ${operation} its own session`);
  }

  private checkOpen(): void {
    if (this.isClosed) throw new IllegalStateException('Session is closed');
  }
}

/**
 * A synchronous call into the core, its failure rethrown as the JMS exception for it: a session
 * the core closed after a connection failure throws IllegalStateException, not a core error.
 */
function coreCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw toJMSException(error);
  }
}

function isTopicAddress(address: string): boolean {
  return address.startsWith(AddressPrefix.TOPIC) || address.startsWith(AddressPrefix.TEMP_TOPIC);
}

/** A selector checked now (InvalidSelectorException with the position), or null for none. */
function checkedSelector(selector: string | null | undefined): string | null {
  if (selector === null || selector === undefined || selector.trim() === '') return null;
  parseSelector(selector);
  return selector;
}

/** A selector string literal: quotes doubled (a client id with a quote must not end the literal). */
function quoted(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function checkSubscriptionName(name: string): void {
  if (typeof name !== 'string' || name.length === 0) {
    throw new JMSException('A subscription needs a non-empty name');
  }
}
