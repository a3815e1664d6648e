import { HornetQException, type CoreMessage } from '../../core/protocol';

/**
 * Puts a large message back together from its head and body chunks, as a session receives them.
 * The body is bounded (max-large-message-bytes) and must come to exactly the size announced.
 */
export class LargeMessageAssembler {
  private head: CoreMessage | null = null;
  private chunks: Buffer[] = [];
  private received = 0;
  private expected = 0;
  /** Why the message in progress was refused: its chunks are dropped and the last one reports it. */
  private refusal: HornetQException | null = null;

  constructor(private readonly maxBytes: number) {}

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
        `large message of ${bodySize} bytes exceeds the broker's limit of ${this.maxBytes} bytes`,
      );
    }
  }

  /**
   * Adds a chunk; returns the whole message with its body after the last one, else null. A
   * refused message keeps nothing, and its last chunk throws the reason (so a blocking send hears it).
   */
  append(chunk: Buffer, continues: boolean): CoreMessage | null {
    const head = this.head;
    if (head === null)
      throw new HornetQException('ILLEGAL_STATE', 'a large message chunk arrived without its head');
    if (this.refusal !== null) {
      if (continues) return null;
      const refusal = this.refusal;
      this.abandon();
      throw refusal;
    }
    this.received += chunk.length;
    if (this.received > this.expected || (!continues && this.received !== this.expected)) {
      const announced = this.expected;
      const received = this.received;
      this.abandon();
      throw new HornetQException(
        'LARGE_MESSAGE_ERROR_BODY',
        `large message body of ${received} bytes does not match the ${announced} bytes announced`,
      );
    }
    this.chunks.push(chunk);
    if (continues) return null;
    head.body = Buffer.concat(this.chunks, this.received);
    this.abandon();
    return head;
  }

  /** Drops a message in progress (its session closed, or it was refused). */
  abandon(): void {
    this.head = null;
    this.chunks = [];
    this.received = 0;
    this.expected = 0;
    this.refusal = null;
  }
}
