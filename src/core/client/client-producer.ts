import { HornetQException, type CoreMessage } from '../protocol';
import type { ConfirmationWaiter } from '../remoting';
import { abortable, type AbortOptions } from './abortable';
import type { ClientSession } from './client-session';
import { RateLimiter } from './rate-limiter';

/** What a send may be told besides its message and address. */
export interface ProducerSendOptions extends AbortOptions {
  /**
   * Resolve once the broker has confirmed this very send (PACKETS_CONFIRMED covering its
   * command: it has the message, stored when durable), reject when it refused it. The send goes
   * one-way, so many can be in flight; block-on-*-send do not apply. Needs a
   * confirmation-window-size other than -1.
   */
  confirm?: boolean;
}

/**
 * A send whose fate the broker will tell: `written` resolves once it is on the connection (and in
 * the resend buffer), or rejects as a send does; `confirmed` settles only after `written`
 * resolved: it resolves on the broker's confirmation and rejects on its refusal, or when the
 * send's fate can no longer be known (the session was re-created without sending it again, or
 * closed): then the error's code is UNBLOCKED or OBJECT_CLOSED, and sending again is safe with a
 * duplicate id.
 */
export interface ConfirmedSend {
  readonly written: Promise<void>;
  readonly confirmed: Promise<void>;
}

/**
 * Sends messages to its address (or, for an anonymous producer, to the address given per send).
 * `send` resolves when the send is done as configured: a blocking send once the broker has the
 * message, a non-blocking one once it is on the connection (and in the resend buffer), a
 * confirmed one (`confirm: true`) once the broker confirmed it.
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
   *   arrive: the caller only stops waiting. Send with a duplicate id to retry safely. A
   *   confirmed send (`confirm: true`) waiting for its confirmation is such a send.
   */
  send(
    message: CoreMessage,
    address: string | null = this.address,
    { signal, confirm = false }: ProducerSendOptions = {},
  ): Promise<void> {
    if (!confirm) {
      const refused = this.refusal(address, signal);
      if (refused !== null) return refused;
      return this.session.sendMessage(message, address as string, this.rateLimiter?.take(), signal);
    }
    const { written, confirmed } = this.sendConfirmed(message, address, { signal });
    return written.then(() => abortable(confirmed, signal));
  }

  /**
   * Sends as `send` with `confirm: true` does, telling apart when the send is written and when
   * the broker confirmed it (for the JMS CompletionListener, whose send returns once written).
   */
  sendConfirmed(
    message: CoreMessage,
    address: string | null = this.address,
    { signal }: AbortOptions = {},
  ): ConfirmedSend {
    let confirmation: ConfirmationWaiter = { resolve: ignore, reject: ignore };
    const confirmed = new Promise<void>((resolve, reject) => {
      confirmation = { resolve, reject };
    });
    const written =
      this.refusal(address, signal) ??
      this.session.sendMessage(message, address as string, this.rateLimiter?.take(), signal, confirmation);
    return { written, confirmed };
  }

  /** Why a send cannot start at all, as a rejected promise; null when it can. */
  private refusal(address: string | null, signal: AbortSignal | undefined): Promise<never> | null {
    if (this.isClosed)
      return Promise.reject(new HornetQException('OBJECT_CLOSED', `Producer ${this.id} is closed`));
    if (address === null) {
      return Promise.reject(
        new HornetQException('ILLEGAL_STATE', 'Address must be specified for an anonymous producer'),
      );
    }
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    return null;
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

function ignore(): void {}
