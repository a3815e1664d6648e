import type { CoreMessage } from './core-message';
import { HornetQException } from './hornetq-exception';

/** What one chunk did to the large message being assembled. */
export type AssemblyStep =
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'complete'; readonly message: CoreMessage }
  /**
   * The last chunk of a message that cannot be taken (over the limit, or a body that does not
   * come to its size): nothing of its body was kept. `bodySize`: the size announced or stated.
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
 * receiver's max-large-message-bytes), never past it in memory, and must come to exactly its
 * size: the one the head announced (a delivery, RECEIVE_LARGE_MSG) or, when the head announces
 * none, the one the last chunk states (HornetQ's producers: SEND_LARGE has no size, the last
 * SEND_CONTINUATION has). A message that cannot be taken is not an error of the stream: its
 * chunks are dropped as they come, and the last one says why, so that the receiver can answer
 * for that message alone.
 */
export class LargeMessageAssembler {
  private head: CoreMessage | null = null;
  private chunks: Buffer[] = [];
  private received = 0;
  /** The size the head announced; null when the last chunk states it. */
  private announced: number | null = null;
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

  /**
   * Starts a message whose head announces a body of `announcedSize` bytes, or null when its last
   * chunk will state the size instead; the peer must not start one before the last ends
   * (ILLEGAL_STATE).
   */
  begin(head: CoreMessage, announcedSize: number | null): void {
    if (this.head !== null) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        'a large message started before the previous one was complete',
      );
    }
    this.head = head;
    this.announced = announcedSize;
    if (announcedSize !== null && announcedSize > this.maxBytes) {
      this.refusal = this.overLimit(head, `of ${announcedSize} bytes`);
    }
  }

  /**
   * Adds a chunk; `statedSize` is what the last chunk (`continues` false) says the whole body came
   * to, for a message whose head announced none. A chunk without a head is ILLEGAL_STATE (the
   * peer broke the protocol).
   */
  append(chunk: Buffer, continues: boolean, statedSize: number | null = null): AssemblyStep {
    const head = this.head;
    if (head === null)
      throw new HornetQException('ILLEGAL_STATE', 'a large message chunk arrived without its head');
    this.received += chunk.length;
    const size = this.announced ?? statedSize;
    if (this.refusal === null) this.refusal = this.check(head, continues, size);
    if (this.refusal === null) this.chunks.push(chunk);
    else this.chunks = [];
    if (continues) return INCOMPLETE;
    const step: AssemblyStep =
      this.refusal === null
        ? { kind: 'complete', message: withBody(head, Buffer.concat(this.chunks, this.received)) }
        : { kind: 'refused', head, bodySize: size ?? this.received, error: this.refusal };
    this.abandon();
    return step;
  }

  /** Drops a message in progress (its session or consumer closed, or the session was re-created). */
  abandon(): void {
    this.head = null;
    this.chunks = [];
    this.received = 0;
    this.announced = null;
    this.refusal = null;
  }

  /** Why the body so far cannot be taken (`size`: what it must come to, once known), or null. */
  private check(head: CoreMessage, continues: boolean, size: number | null): HornetQException | null {
    const announced = this.announced;
    if (announced !== null && this.received > announced) {
      return this.wrongSize(head, `more than ${this.received}`, `${announced} bytes announced`);
    }
    if (this.received > this.maxBytes) return this.overLimit(head, `of more than ${this.maxBytes} bytes`);
    if (continues || size === this.received) return null;
    const expected =
      announced !== null ? `${announced} bytes announced` : `${size} bytes its last chunk states`;
    return this.wrongSize(head, `${this.received}`, expected);
  }

  private overLimit(head: CoreMessage, size: string): HornetQException {
    return new HornetQException(
      'LARGE_MESSAGE_ERROR_BODY',
      `large message ${head.messageId} ${size} exceeds ${this.limitOwner} limit of ${this.maxBytes} bytes`,
    );
  }

  private wrongSize(head: CoreMessage, received: string, expected: string): HornetQException {
    return new HornetQException(
      'LARGE_MESSAGE_ERROR_BODY',
      `large message ${head.messageId} has a body of ${received} bytes, not the ${expected}`,
    );
  }
}

function withBody(head: CoreMessage, body: Buffer): CoreMessage {
  head.body = body;
  return head;
}
