import { randomUUID } from 'node:crypto';
import type { ClientConsumer } from '../core/client/client-consumer';
import type { ClientProducer } from '../core/client/client-producer';
import type { ClientSession } from '../core/client/client-session';
import type { ManagementDialect } from './management-dialect';
import {
  decodeManagementReply,
  describeRequest,
  encodeManagementRequest,
  type ManagementRequest,
  type ManagementValue,
} from './management-codec';
import { ManagementError, ManagementErrorCode } from './management-error';

/** The temporary queue answers come back on, and the consumer that takes them. */
interface ReplyChannel {
  readonly queue: string;
  readonly consumer: ClientConsumer;
  readonly producer: ClientProducer;
}

/**
 * Request and answer over the management address, one request at a time. The servers copy
 * nothing of the request into the answer that would tell answers apart (HornetQ 2.4 copies no
 * correlation id), so a request waits for the one before it; and after a request that gave up
 * (timeout, abort) the reply queue is dropped and a new one made, so that its late answer cannot
 * be taken for the next request's.
 */
export class ManagementRequestor {
  private channel: Promise<ReplyChannel> | null = null;
  private queueTail: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly session: ClientSession,
    private readonly dialect: ManagementDialect,
    private readonly timeoutMs: number,
  ) {}

  /** The result of `request`, or a ManagementError (the server's text when it failed it). */
  request(
    request: ManagementRequest,
    options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined } = {},
  ): Promise<ManagementValue> {
    const turn = this.queueTail.then(() =>
      this.send(request, options.timeoutMs ?? this.timeoutMs, options.signal),
    );
    this.queueTail = turn.catch(() => undefined);
    return turn;
  }

  /** Drops the reply queue; requests made after this reject. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queueTail;
    await this.dropChannel();
  }

  private async send(
    request: ManagementRequest,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<ManagementValue> {
    signal?.throwIfAborted();
    if (this.closed) throw new Error(`${describeRequest(request)}: the management client is closed`);
    const channel = await this.openChannel();
    const message = encodeManagementRequest(this.dialect, request, channel.queue);
    await channel.producer.send(message, this.dialect.managementAddress, { signal });
    let answer;
    try {
      answer = await channel.consumer.receive(timeoutMs, { signal });
    } catch (error) {
      await this.dropChannel();
      throw error;
    }
    if (answer === null) {
      await this.dropChannel();
      throw new ManagementError(
        ManagementErrorCode.TIMEOUT,
        describeRequest(request),
        `no answer from ${this.dialect.managementAddress} within ${timeoutMs} ms (does the server speak the ${this.dialect.name} management dialect, with management on?)`,
      );
    }
    await answer.acknowledge();
    return decodeManagementReply(this.dialect, request, answer.message);
  }

  private openChannel(): Promise<ReplyChannel> {
    this.channel ??= this.createChannel();
    const channel = this.channel;
    // A failed creation is not kept: the next request tries again.
    channel.catch(() => {
      if (this.channel === channel) this.channel = null;
    });
    return channel;
  }

  private async createChannel(): Promise<ReplyChannel> {
    const queue = `hornetq-js.management.reply.${randomUUID()}`;
    await this.session.createQueue(queue, queue, { temporary: true, durable: false });
    const consumer = await this.session.createConsumer(queue);
    this.session.start();
    return { queue, consumer, producer: this.session.createProducer(this.dialect.managementAddress) };
  }

  /** Closes the reply consumer and deletes its queue, as far as the session still can. */
  private async dropChannel(): Promise<void> {
    const opened = this.channel;
    this.channel = null;
    if (opened === null) return;
    const channel = await opened.catch(() => null);
    if (channel === null || this.session.closed) return;
    channel.producer.close();
    await channel.consumer.close().catch(() => undefined);
    await this.session.deleteQueue(channel.queue).catch(() => undefined);
  }
}
