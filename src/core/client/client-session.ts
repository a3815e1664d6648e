import {
  HornetQException,
  PacketType,
  type Acknowledge,
  type CoreMessage,
  type Packet,
  type QueueQueryResponse,
  type BindingQueryResponse,
} from '../protocol';
import type { Channel, Logger } from '../remoting';
import type { ClientOptions } from './client-options';
import { ClientConsumer, type ConsumerSettings } from './client-consumer';
import { ClientProducer } from './client-producer';
import { SendGate } from './send-gate';

export interface SessionSettings {
  autoCommitSends: boolean;
  autoCommitAcks: boolean;
  preAcknowledge: boolean;
  ackBatchSize: number;
  username: string | null;
  password: string | null;
}

export interface QueueInfo {
  exists: boolean;
  address: string | null;
  durable: boolean;
  temporary: boolean;
  filter: string | null;
  consumerCount: number;
  messageCount: number;
}

export interface CreateQueueOptions {
  filter?: string | null;
  durable?: boolean;
  temporary?: boolean;
}

export interface CreateConsumerOptions {
  filter?: string | null;
  browseOnly?: boolean;
  /** Overrides the factory's consumerWindowSize for this consumer. */
  windowSize?: number;
}

/** What a session needs from its factory. */
export interface SessionFactoryLink {
  sessionClosed(session: ClientSession): void;
}

/**
 * A core session: one channel to the broker carrying its producers, consumers and (when not
 * auto-committing) its transaction. Calls that wait for the broker are bounded by call-timeout.
 */
export class ClientSession {
  private readonly consumers = new Map<number, ClientConsumer>();
  private readonly producers = new Set<ClientProducer>();
  private readonly gate: SendGate;
  private nextConsumerId = 0;
  private nextProducerId = 0;
  private started = false;
  private isClosed = false;
  private asyncErrorHandler: ((error: HornetQException) => void) | null = null;

  constructor(
    /** The broker's name for this session (random); a reattach presents it. */
    readonly name: string,
    /** The secret a reattach presents with the name. */
    readonly reattachToken: string,
    readonly channel: Channel,
    readonly settings: SessionSettings,
    private readonly options: ClientOptions,
    private readonly factory: SessionFactoryLink,
    private readonly logger: Logger,
  ) {
    this.gate = new SendGate(
      options.producerWindowSize,
      (address, credits) =>
        this.sendOneWay({ type: PacketType.SESS_PRODUCER_REQUEST_CREDITS, address, credits }),
      channel,
    );
    channel.setHandler((packet, commandId, size) => this.handlePacket(packet, commandId, size));
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get transacted(): boolean {
    return !this.settings.autoCommitSends || !this.settings.autoCommitAcks;
  }

  /** Called with failures the broker reports for one-way packets (a refused send, an unknown ack). */
  setAsyncErrorHandler(handler: ((error: HornetQException) => void) | null): void {
    this.asyncErrorHandler = handler;
  }

  async createQueue(address: string, queueName: string, options: CreateQueueOptions = {}): Promise<void> {
    await this.call({
      type: PacketType.CREATE_QUEUE,
      address,
      queueName,
      filter: options.filter ?? null,
      durable: options.durable ?? true,
      temporary: options.temporary ?? false,
      requiresResponse: true,
    });
  }

  async deleteQueue(queueName: string): Promise<void> {
    await this.call({ type: PacketType.DELETE_QUEUE, queueName });
  }

  async queueQuery(queueName: string): Promise<QueueInfo> {
    const response = (await this.call({ type: PacketType.SESS_QUEUEQUERY, queueName })) as QueueQueryResponse;
    return toQueueInfo(response);
  }

  async bindingQuery(address: string): Promise<{ exists: boolean; queueNames: string[] }> {
    const response = (await this.call({
      type: PacketType.SESS_BINDINGQUERY,
      address,
    })) as BindingQueryResponse;
    return { exists: response.exists, queueNames: response.queueNames };
  }

  createProducer(address: string | null = null): ClientProducer {
    this.checkOpen();
    const producer = new ClientProducer(this.nextProducerId++, address, this);
    this.producers.add(producer);
    this.sendOneWay({ type: PacketType.SESS_CREATEPRODUCER, producerId: producer.id, address });
    return producer;
  }

  async createConsumer(queueName: string, options: CreateConsumerOptions = {}): Promise<ClientConsumer> {
    this.checkOpen();
    const settings: ConsumerSettings = {
      id: this.nextConsumerId++,
      queueName,
      filter: options.filter ?? null,
      browseOnly: options.browseOnly ?? false,
      windowSize: options.windowSize ?? this.options.consumerWindowSize,
      ackBatchSize: this.settings.ackBatchSize,
      blockOnAcknowledge: this.options.blockOnAcknowledge,
    };
    const consumer = new ClientConsumer(settings, this);
    // Registered before the broker answers: deliveries may follow the answer immediately.
    this.consumers.set(settings.id, consumer);
    try {
      await this.call({
        type: PacketType.SESS_CREATECONSUMER,
        consumerId: settings.id,
        queueName,
        filter: settings.filter,
        browseOnly: settings.browseOnly,
        requiresResponse: true,
      });
    } catch (error) {
      this.consumers.delete(settings.id);
      throw error;
    }
    consumer.start();
    return consumer;
  }

  /** Starts delivery to this session's consumers. */
  start(): void {
    this.checkOpen();
    this.started = true;
    this.sendOneWay({ type: PacketType.SESS_START });
  }

  /** Stops delivery; resolves once the broker has stopped, so nothing more arrives. */
  async stop(): Promise<void> {
    this.checkOpen();
    this.started = false;
    await this.call({ type: PacketType.SESS_STOP });
  }

  async commit(): Promise<void> {
    this.checkOpen();
    await this.flushAcknowledgements();
    await this.call({ type: PacketType.SESS_COMMIT });
  }

  /**
   * Rolls back: messages acknowledged in the transaction come back (delivery count + 1). The
   * session is stopped first so that nothing is in flight, batched acknowledgements are sent (they
   * belong to the transaction), unseen buffered messages are dropped (the broker takes them back
   * with their count unchanged), then delivery resumes.
   */
  async rollback(): Promise<void> {
    this.checkOpen();
    const wasStarted = this.started;
    if (wasStarted) await this.stop();
    await this.flushAcknowledgements();
    for (const consumer of this.consumers.values()) consumer.clearBuffer();
    await this.call({ type: PacketType.SESS_ROLLBACK, considerLastMessageAsDelivered: false });
    if (wasStarted) this.start();
  }

  /** Closes consumers and producers and the session on the broker; idempotent. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    try {
      if (!this.channel.connection.closed) {
        await this.flushAcknowledgements();
        await this.call({ type: PacketType.SESS_CLOSE });
        this.channel.flushConfirmations();
      }
    } finally {
      this.closeLocally(new HornetQException('OBJECT_CLOSED', `Session ${this.name} is closed`));
    }
  }

  /** Ends the session on this side: waiting calls and sends fail with `reason`, receives get null. */
  closeLocally(reason: HornetQException): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.gate.close(reason);
    this.channel.returnBlocking(reason);
    for (const consumer of [...this.consumers.values()]) consumer.closeLocally();
    for (const producer of [...this.producers]) producer.close();
    this.channel.close();
    this.factory.sessionClosed(this);
  }

  // ---- used by producers and consumers ----

  async sendMessage(message: CoreMessage, address: string): Promise<void> {
    this.checkOpen();
    message.address = address;
    const wait = this.gate.acquire(address, message.encodedSize());
    if (wait !== undefined) await wait;
    const blocking = message.durable ? this.options.blockOnDurableSend : this.options.blockOnNonDurableSend;
    const packet: Packet = { type: PacketType.SESS_SEND, message, requiresResponse: blocking };
    if (blocking) await this.channel.sendBlocking(packet);
    else this.channel.send(packet);
  }

  sendAcknowledgement(packet: Acknowledge): Promise<void> {
    if (packet.requiresResponse) return this.call(packet).then(() => undefined);
    this.sendOneWay(packet);
    return Promise.resolve();
  }

  sendOneWay(packet: Packet): void {
    if (!this.isClosed) this.channel.send(packet);
  }

  async closeConsumerOnBroker(consumerId: number): Promise<void> {
    if (!this.isClosed && !this.channel.connection.closed) {
      await this.call({ type: PacketType.SESS_CONSUMER_CLOSE, consumerId });
    }
  }

  consumerClosed(consumer: ClientConsumer): void {
    this.consumers.delete(consumer.id);
  }

  producerClosed(producer: ClientProducer): void {
    if (this.producers.delete(producer))
      this.sendOneWay({ type: PacketType.SESS_CLOSEPRODUCER, producerId: producer.id });
  }

  reportHandlerError(consumer: ClientConsumer, error: unknown): void {
    this.logger.warn(
      { err: error, consumer: consumer.id },
      'a message handler threw; the message is not redelivered',
    );
  }

  private async flushAcknowledgements(): Promise<void> {
    for (const consumer of this.consumers.values()) await consumer.flushAcknowledgements();
  }

  private call(packet: Packet): Promise<Packet> {
    if (this.isClosed)
      return Promise.reject(new HornetQException('OBJECT_CLOSED', `Session ${this.name} is closed`));
    return this.channel.sendBlocking(packet, this.options.callTimeout);
  }

  private handlePacket(packet: Packet, commandId: number, size: number): void {
    switch (packet.type) {
      case PacketType.SESS_RECEIVE_MSG:
        this.consumers.get(packet.consumerId)?.handleDelivery(packet, size);
        break;
      case PacketType.SESS_FORCED_DELIVERY_EMPTY:
        this.consumers.get(packet.consumerId)?.handleForcedDeliveryEmpty(packet.sequence);
        break;
      case PacketType.SESS_PRODUCER_CREDITS:
        this.gate.receiveCredits(packet.address, packet.credits);
        break;
      case PacketType.SESS_PRODUCER_FAIL_CREDITS:
        this.gate.receiveFailCredits(packet.address, packet.credits);
        break;
      case PacketType.EXCEPTION:
        this.reportAsyncError(new HornetQException(packet.code, packet.message ?? packet.code));
        break;
      default:
        this.logger.warn(
          { type: packet.type },
          `unexpected packet ${packet.type} on session ${this.name}; ignored`,
        );
    }
    this.channel.confirm(commandId, size);
  }

  private reportAsyncError(error: HornetQException): void {
    if (this.asyncErrorHandler !== null) this.asyncErrorHandler(error);
    else this.logger.warn({ code: error.code }, `the broker reported: ${error.message}`);
  }

  private checkOpen(): void {
    if (this.isClosed) throw new HornetQException('OBJECT_CLOSED', `Session ${this.name} is closed`);
  }
}

function toQueueInfo(response: QueueQueryResponse): QueueInfo {
  return {
    exists: response.exists,
    address: response.address,
    durable: response.durable,
    temporary: response.temporary,
    filter: response.filter,
    consumerCount: response.consumerCount,
    messageCount: response.messageCount,
  };
}
