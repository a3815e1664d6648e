import type { AbortOptions } from '../core/client';
import type { HornetQMessageConsumer, MessageListener } from './hornetq-message-consumer';
import { runtimeCall, runtimeCallSync, toJMSRuntimeException } from './jms-runtime-error';
import type { BodyOf, BodyType, Message } from './message';

/** The JMS 2.0 interface name for a context's consumer. */
export type JMSConsumer = HornetQJMSConsumer;

/**
 * JMS 2.0's JMSConsumer, as HornetQ's HornetQJMSConsumer: a context's consumer, whose failures
 * are JMSRuntimeException and its subclasses. receive, receiveBody and close take an AbortSignal
 * (`{ signal }`: an abort rejects with its reason and consumes nothing); `for await` yields
 * messages until the consumer, its context or its connection closes.
 */
export class HornetQJMSConsumer implements AsyncIterable<Message> {
  /** @internal (HornetQJMSContext makes consumers) */
  constructor(private readonly consumer: HornetQMessageConsumer) {}

  /** No timeout (or 0): waits until a message arrives or the consumer closes (then null). */
  async receive(timeoutMs = 0, { signal }: AbortOptions = {}): Promise<Message | null> {
    return runtimeCall(() => this.consumer.receive(timeoutMs, { signal }), signal);
  }

  async receiveNoWait(): Promise<Message | null> {
    return runtimeCall(() => this.consumer.receiveNoWait());
  }

  /**
   * The next message's body as `type` (`receiveBody(String)`, `receiveBody(Buffer)`,
   * `receiveBody(Map)`, `receiveBody(Object)`; see BodyType), null on timeout or close. A body of
   * another type throws MessageFormatRuntimeException and the message is not lost, unlike in
   * HornetQ 2.4: AUTO and DUPS_OK deliver it again (marked redelivered), CLIENT_ACKNOWLEDGE and a
   * transacted context keep it in the unacknowledged work (HornetQMessageConsumer.receiveBody).
   */
  async receiveBody<T extends BodyType>(
    type: T,
    timeoutMs = 0,
    { signal }: AbortOptions = {},
  ): Promise<BodyOf<T> | null> {
    return runtimeCall(() => this.consumer.receiveBody(type, timeoutMs, { signal }), signal);
  }

  async receiveBodyNoWait<T extends BodyType>(type: T): Promise<BodyOf<T> | null> {
    return runtimeCall(() => this.consumer.receiveBodyNoWait(type));
  }

  getMessageListener(): MessageListener | null {
    return runtimeCallSync(() => this.consumer.getMessageListener());
  }

  /** Messages then go to the listener one at a time, never to receive(). */
  setMessageListener(listener: MessageListener | null): void {
    runtimeCallSync(() => this.consumer.setMessageListener(listener));
  }

  getMessageSelector(): string | null {
    return runtimeCallSync(() => this.consumer.getMessageSelector());
  }

  /** Idempotent; a waiting receive gets null. `signal` as for HornetQMessageConsumer.close. */
  async close({ signal }: AbortOptions = {}): Promise<void> {
    await runtimeCall(() => this.consumer.close({ signal }), signal);
  }

  /** `await using`: close() without a signal. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Message> {
    const messages = this.consumer[Symbol.asyncIterator]();
    try {
      for (;;) {
        let next: IteratorResult<Message>;
        try {
          next = await messages.next();
        } catch (error) {
          throw toJMSRuntimeException(error);
        }
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      await messages.return?.();
    }
  }
}
