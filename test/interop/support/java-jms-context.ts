import {
  CALL_TIMEOUT_MS,
  type AckMode,
  type AsyncSend,
  type ConnectOptions,
  type DestinationRef,
  type JavaTyped,
  type JmsDriver,
  type OutgoingJavaMessage,
  type ReceivedJavaMessage,
  type SendOptions,
  type SentJavaMessage,
} from './jms-driver';

/**
 * A JMSContext of HornetQ 2.4.7's Java client (JMS 2.0's simplified API), driven through the JMS
 * driver: its JMSProducer (delivery delay, CompletionListener), its JMSConsumers (receive,
 * receiveBody, shared and shared durable subscriptions), transactions and unsubscribe. Each
 * method is one driver command (test/interop/java's JmsContexts), bounded as the driver's are.
 */

/** JMSContext's session modes (the same constants as Session's acknowledge modes). */
export type SessionMode = AckMode;

/** A body type receiveBody asks for: String, byte[] or Map, as Java names them. */
export type BodyType = 'String' | 'bytes' | 'Map';

export interface BodyOf {
  String: string | null;
  bytes: Buffer | null;
  Map: Record<string, JavaTyped> | null;
}

export class JavaJmsContext {
  private constructor(
    private readonly driver: JmsDriver,
    readonly handle: string,
  ) {}

  /** A context on a connection of its own (factory.createContext(sessionMode)). */
  static async create(
    driver: JmsDriver,
    options: ConnectOptions & { sessionMode?: SessionMode },
  ): Promise<JavaJmsContext> {
    const { port, host = '127.0.0.1', ...rest } = options;
    const answer = await driver.call('createContext', { host, port, ...rest });
    return new JavaJmsContext(driver, answer.context as string);
  }

  /** context.createContext(sessionMode): another context on this one's connection. */
  async createContext(sessionMode: SessionMode): Promise<JavaJmsContext> {
    const answer = await this.call('contextFrom', { sessionMode });
    return new JavaJmsContext(this.driver, answer.context as string);
  }

  /** One JMSProducer sends `message` (count times, if given); JMSProducer.send returns when the client is done with it. */
  async send(
    destination: DestinationRef,
    message: OutgoingJavaMessage,
    options: Omit<SendOptions, 'disableMessageID' | 'disableMessageTimestamp'> = {},
  ): Promise<SentJavaMessage[]> {
    return (await this.call('contextSend', { destination, message, ...options })).sent as SentJavaMessage[];
  }

  /** As send, with JMSProducer.setAsync(listener): the listener's calls come through driver.completions. */
  async sendAsync(
    destination: DestinationRef,
    message: OutgoingJavaMessage,
    options: Omit<SendOptions, 'disableMessageID' | 'disableMessageTimestamp'> = {},
  ): Promise<AsyncSend> {
    const answer = await this.call('contextSend', { destination, message, ...options, async: true });
    return { sent: answer.sent as SentJavaMessage[], listener: answer.listener as string };
  }

  async createConsumer(
    destination: DestinationRef,
    options: { selector?: string; noLocal?: boolean } = {},
  ): Promise<JavaJmsConsumer> {
    return this.consumer('contextCreateConsumer', { destination, ...options });
  }

  async createSharedConsumer(
    topic: DestinationRef,
    name: string,
    selector?: string,
  ): Promise<JavaJmsConsumer> {
    return this.consumer('contextCreateSharedConsumer', { destination: topic, name, ...optional(selector) });
  }

  async createSharedDurableConsumer(
    topic: DestinationRef,
    name: string,
    selector?: string,
  ): Promise<JavaJmsConsumer> {
    return this.consumer('contextCreateSharedDurableConsumer', {
      destination: topic,
      name,
      ...optional(selector),
    });
  }

  async unsubscribe(name: string): Promise<void> {
    await this.call('contextUnsubscribe', { name });
  }

  async commit(): Promise<void> {
    await this.call('contextCommit');
  }

  async rollback(): Promise<void> {
    await this.call('contextRollback');
  }

  /** CLIENT_ACKNOWLEDGE: acknowledges every message the context has received. */
  async acknowledge(): Promise<void> {
    await this.call('contextAcknowledge');
  }

  async close(): Promise<void> {
    await this.call('contextClose');
  }

  private async consumer(op: string, fields: Record<string, unknown>): Promise<JavaJmsConsumer> {
    const answer = await this.call(op, fields);
    return new JavaJmsConsumer(this.driver, answer.consumer as string);
  }

  private call(op: string, fields: Record<string, unknown> = {}) {
    return this.driver.call(op, { context: this.handle, ...fields });
  }
}

/** A JMSConsumer of a JavaJmsContext. */
export class JavaJmsConsumer {
  constructor(
    private readonly driver: JmsDriver,
    readonly handle: string,
  ) {}

  async receive(timeoutMs: number): Promise<ReceivedJavaMessage | null> {
    const answer = await this.call('contextReceive', { timeout: timeoutMs }, timeoutMs);
    return answer.message as ReceivedJavaMessage | null;
  }

  /** Up to `count` messages, each waited for up to `timeoutMs`; fewer when one does not come. */
  async receiveMany(count: number, timeoutMs: number): Promise<ReceivedJavaMessage[]> {
    const answer = await this.call('contextReceive', { timeout: timeoutMs, count }, count * timeoutMs);
    return answer.messages as ReceivedJavaMessage[];
  }

  /** JMSConsumer.receiveBody(type, timeout): the body, or null when nothing came in time. */
  async receiveBody<T extends BodyType>(bodyType: T, timeoutMs: number): Promise<BodyOf[T]> {
    return (await this.call('contextReceiveBody', { bodyType, timeout: timeoutMs }, timeoutMs))
      .body as BodyOf[T];
  }

  async close(): Promise<void> {
    await this.call('contextCloseConsumer');
  }

  private call(op: string, fields: Record<string, unknown> = {}, waitsMs = 0) {
    return this.driver.call(op, { consumer: this.handle, ...fields }, waitsMs + CALL_TIMEOUT_MS);
  }
}

function optional(selector: string | undefined): { selector?: string } {
  return selector === undefined ? {} : { selector };
}
