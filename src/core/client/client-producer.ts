import { HornetQException, type CoreMessage } from '../protocol';
import type { AbortOptions } from './abortable';
import type { ClientSession } from './client-session';
import { RateLimiter } from './rate-limiter';

/**
 * Sends messages to its address (or, for an anonymous producer, to the address given per send).
 * `send` resolves when the send is done as configured: a blocking send once the broker has the
 * message, a non-blocking one once it is on the connection (and in the resend buffer).
 */
export class ClientProducer {
  private isClosed = false;
  private readonly rateLimiter: RateLimiter | null;

  constructor(
    readonly id: number,
    readonly address: string | null,
    private readonly session: ClientSession,
    /** producer-max-rate: messages a second, -1 for no limit. */
    maxRate = -1,
  ) {
    this.rateLimiter = maxRate > 0 ? new RateLimiter(maxRate) : null;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * Sends `message` to `address` (the producer's own by default). Aborting `signal` rejects with
   * its reason and says nothing more about the message than where the send was:
   * - aborted already: nothing is sent;
   * - while the send waits to go (producer-max-rate, a failover, producer credits, room in the
   *   resend buffer, a large message ahead of it): it is withdrawn and never sent, and the credits
   *   asked for it stay with the producer for the sends that follow;
   * - once written (a blocking send waiting for the broker's answer, a large message whose head
   *   went): it is not withdrawn. It is in the resend buffer, replayed on a reattach, and may well
   *   arrive: the caller only stops waiting. Send with a duplicate id to retry safely.
   */
  send(
    message: CoreMessage,
    address: string | null = this.address,
    { signal }: AbortOptions = {},
  ): Promise<void> {
    if (this.isClosed)
      return Promise.reject(new HornetQException('OBJECT_CLOSED', `Producer ${this.id} is closed`));
    if (address === null) {
      return Promise.reject(
        new HornetQException('ILLEGAL_STATE', 'Address must be specified for an anonymous producer'),
      );
    }
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    return this.session.sendMessage(message, address, this.rateLimiter?.take(), signal);
  }

  /** Closes here; the broker is told without an answer to wait for, so nothing can abort it. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.rateLimiter?.close();
    this.session.producerClosed(this);
  }

  /** `await using`: close(). */
  async [Symbol.asyncDispose](): Promise<void> {
    this.close();
  }
}
