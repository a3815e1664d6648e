import type { CoreMessage } from './core-message';
import { HornetQException } from './hornetq-exception';

/** What one chunk did to the large message being assembled. */
export type AssemblyStep =
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'complete'; readonly message: CoreMessage }
  /**
   * The last chunk of a message that cannot be taken (over the limit, or a body that does not
   * come to the size announced): nothing of its body was kept.
   */
  | {
      readonly kind: 'refused';
      readonly head: CoreMessage;
      readonly bodySize: number;
      readonly error: HornetQException;
    };

const INCOMPLETE: AssemblyStep = { kind: 'incomplete' };

/**
 * Puts a large message back together from its head and body chunks, as they arrive: the broker
 * for what a producer sends, the client for what a consumer receives. The body is bounded (the
 * receiver's max-large-message-bytes) and must come to exactly the size announced. A message that
 * cannot be taken is not an error of the stream: its chunks are dropped as they come, and the
 * last one says why, so that the receiver can answer for that message alone.
 */
export class LargeMessageAssembler {
  private head: CoreMessage | null = null;
  private chunks: Buffer[] = [];
  private received = 0;
  private expected = 0;
  private refusal: HornetQException | null = null;

  /** `limitOwner` names whose limit `maxBytes` is, for the refusal message ("the broker's"). */
  constructor(
    private readonly maxBytes: number,
    private readonly limitOwner: string,
  ) {}

  /** True between a head and its last chunk. */
  get inProgress(): boolean {
    return this.head !== null;
  }

  /** In progress and not refused: its chunks are being kept. */
  get accepting(): boolean {
    return this.head !== null && this.refusal === null;
  }

  /** Bytes of body kept so far (none once the message is refused). */
  get heldBytes(): number {
    return this.refusal === null ? this.received : 0;
  }

  /**
   * Refuses the message in progress for a reason of the receiver's (a limit shared with others):
   * what it kept goes, its later chunks are dropped as they come, and the last reports `error`.
   */
  refuse(error: HornetQException): void {
    if (!this.accepting) return;
    this.refusal = error;
    this.chunks = [];
  }

  /** Starts a message; the peer must not start one before the last ends (ILLEGAL_STATE). */
  begin(head: CoreMessage, bodySize: number): void {
    if (this.head !== null) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        'a large message started before the previous one was complete',
      );
    }
    this.head = head;
    this.expected = bodySize;
    if (bodySize > this.maxBytes) {
      this.refusal = new HornetQException(
        'LARGE_MESSAGE_ERROR_BODY',
        `large message ${head.messageId} of ${bodySize} bytes exceeds ${this.limitOwner} limit of ${this.maxBytes} bytes`,
      );
    }
  }

  /** Adds a chunk; a chunk without a head is ILLEGAL_STATE (the peer broke the protocol). */
  append(chunk: Buffer, continues: boolean): AssemblyStep {
    const head = this.head;
    if (head === null)
      throw new HornetQException('ILLEGAL_STATE', 'a large message chunk arrived without its head');
    this.received += chunk.length;
    if (this.refusal === null) this.check(head, continues);
    if (this.refusal === null) this.chunks.push(chunk);
    else this.chunks = [];
    if (continues) return INCOMPLETE;
    const step: AssemblyStep =
      this.refusal === null
        ? { kind: 'complete', message: withBody(head, Buffer.concat(this.chunks, this.received)) }
        : { kind: 'refused', head, bodySize: this.expected, error: this.refusal };
    this.abandon();
    return step;
  }

  /** Drops a message in progress (its session or consumer closed, or the session was re-created). */
  abandon(): void {
    this.head = null;
    this.chunks = [];
    this.received = 0;
    this.expected = 0;
    this.refusal = null;
  }

  private check(head: CoreMessage, continues: boolean): void {
    if (this.received > this.expected || (!continues && this.received < this.expected)) {
      this.refusal = new HornetQException(
        'LARGE_MESSAGE_ERROR_BODY',
        `large message ${head.messageId} has a body of ${continues ? 'more than ' : ''}${this.received} bytes, not the ${this.expected} bytes announced`,
      );
    }
  }
}

function withBody(head: CoreMessage, body: Buffer): CoreMessage {
  head.body = body;
  return head;
}
