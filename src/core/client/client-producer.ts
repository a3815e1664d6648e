import { HornetQException, type CoreMessage } from '../protocol';
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

  send(message: CoreMessage, address: string | null = this.address): Promise<void> {
    if (this.isClosed)
      return Promise.reject(new HornetQException('OBJECT_CLOSED', `Producer ${this.id} is closed`));
    if (address === null) {
      return Promise.reject(
        new HornetQException('ILLEGAL_STATE', 'Address must be specified for an anonymous producer'),
      );
    }
    return this.session.sendMessage(message, address, this.rateLimiter?.take());
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.rateLimiter?.close();
    this.session.producerClosed(this);
  }
}
