import type { CoreMessage } from '../protocol';
import type { ClientConsumer } from './client-consumer';

/** A message as a consumer hands it out: the message, its delivery count, and how to acknowledge it. */
export class ReceivedMessage {
  constructor(
    readonly message: CoreMessage,
    /** 1 on first delivery; more after a rollback or a failure returned it to the queue. */
    readonly deliveryCount: number,
    /** The bytes of the frames that delivered it: what it counted against the consumer's window. */
    readonly size: number,
    readonly consumer: ClientConsumer,
    /**
     * The credits still to return when the application takes it (or it is dropped): its frames,
     * unless they earned them as they arrived (a large message's, see ClientConsumer).
     */
    readonly creditsOwed: number = size,
  ) {}

  get redelivered(): boolean {
    return this.deliveryCount > 1;
  }

  /** Acknowledges this message and every earlier one from the same consumer. */
  acknowledge(): Promise<void> {
    return this.consumer.acknowledge(this);
  }

  /** Acknowledges this message alone. */
  individualAcknowledge(): Promise<void> {
    return this.consumer.individualAcknowledge(this);
  }
}
