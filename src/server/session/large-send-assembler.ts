import { HornetQException, type CoreMessage } from '../../core/protocol';

/** What one chunk did to the large message a producer is sending. */
export type LargeSendStep =
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'complete'; readonly message: CoreMessage }
  /** The last chunk of a message the broker does not take: nothing of its body was kept. */
  | { readonly kind: 'refused'; readonly error: HornetQException };

const INCOMPLETE: LargeSendStep = { kind: 'incomplete' };

/**
 * Puts a producer's large message back together on the broker. HornetQ's producers announce no
 * size in the head (SESS_SEND_LARGE): the last chunk says how large the body was. So the limit
 * (max-large-message-bytes) is enforced as the chunks arrive, never past it in memory, and the
 * size the last chunk states must be what came. A message that cannot be taken is not an error
 * of the stream: its chunks are dropped as they come, and the last one says why, so that the
 * session answers for that message alone.
 */
export class LargeSendAssembler {
  private head: CoreMessage | null = null;
  private chunks: Buffer[] = [];
  private received = 0;
  private refusal: HornetQException | null = null;

  constructor(private readonly maxBytes: number) {}

  /** In progress and not refused: its chunks are being kept. */
  get accepting(): boolean {
    return this.head !== null && this.refusal === null;
  }

  /** Bytes of body kept so far (none once the message is refused). */
  get heldBytes(): number {
    return this.refusal === null ? this.received : 0;
  }

  /** Refuses the message in progress for a reason of the broker's (a limit shared with others). */
  refuse(error: HornetQException): void {
    if (!this.accepting) return;
    this.refusal = error;
    this.chunks = [];
  }

  /** Starts a message; one may not start before the last ends (ILLEGAL_STATE). */
  begin(head: CoreMessage): void {
    if (this.head !== null) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        'a large message started before the previous one was complete',
      );
    }
    this.head = head;
  }

  /**
   * Adds a chunk; `messageBodySize` is what the last chunk (`continues` false) says the whole body
   * came to. A chunk without a head is ILLEGAL_STATE (the client broke the protocol).
   */
  append(chunk: Buffer, continues: boolean, messageBodySize: number): LargeSendStep {
    const head = this.head;
    if (head === null)
      throw new HornetQException('ILLEGAL_STATE', 'a large message chunk arrived without its head');
    this.received += chunk.length;
    if (this.refusal === null && this.received > this.maxBytes) {
      this.refusal = new HornetQException(
        'LARGE_MESSAGE_ERROR_BODY',
        `large message of more than ${this.maxBytes} bytes exceeds the broker's limit of ${this.maxBytes} bytes (maxLargeMessageBytes)`,
      );
    }
    if (this.refusal === null && !continues && messageBodySize !== this.received) {
      this.refusal = new HornetQException(
        'LARGE_MESSAGE_ERROR_BODY',
        `large message has a body of ${this.received} bytes, not the ${messageBodySize} bytes its last chunk states`,
      );
    }
    if (this.refusal === null) this.chunks.push(chunk);
    else this.chunks = [];
    if (continues) return INCOMPLETE;
    const step: LargeSendStep =
      this.refusal === null
        ? { kind: 'complete', message: withBody(head, Buffer.concat(this.chunks, this.received)) }
        : { kind: 'refused', error: this.refusal };
    this.abandon();
    return step;
  }

  /** Drops a message in progress (its session closed). */
  abandon(): void {
    this.head = null;
    this.chunks = [];
    this.received = 0;
    this.refusal = null;
  }
}

function withBody(head: CoreMessage, body: Buffer): CoreMessage {
  head.body = body;
  return head;
}
