import { BufferWriter } from '../../core/protocol/buffer-writer';
import { MessageType } from '../../core/protocol/core-message';
import { MessageFormatException, MessageNotWriteableException } from '../exceptions';
import { decodeBody } from './body-codec';
import type { BodyType } from './body-type';
import { HornetQMessage } from './hornetq-message';
import type { TextMessage } from './message';

/**
 * A TextMessage. Body encoding, HornetQ's (HornetQTextMessage): the text as a nullable
 * SimpleString, i.e. byte 0 for a null text, else byte 1, an int byte length and the UTF-16 units
 * little-endian; so '' and null differ and any JavaScript string (a lone surrogate too) survives.
 * An empty body (a core client's text message without one) reads as null; anything else that is
 * not exactly one nullable SimpleString is a corrupt body.
 */
export class HornetQTextMessage extends HornetQMessage implements TextMessage {
  static override readonly brand: string = 'HornetQTextMessage';
  private text: string | null = null;
  /** A received body not yet decoded. */
  private pending: Buffer | null = null;

  constructor(text: string | null = null) {
    super();
    this.setText(text);
  }

  protected override coreType(): number {
    return MessageType.TEXT;
  }

  getText(): string | null {
    if (this.pending !== null) {
      this.text = decodeText(this.pending);
      this.pending = null;
    }
    return this.text;
  }

  setText(text: string | null): void {
    if (this.bodyReadOnly)
      throw new MessageNotWriteableException('the body of a received message is read-only');
    if (text !== null && typeof text !== 'string') {
      throw new MessageFormatException(`the text must be a string or null, got ${typeof text}`);
    }
    this.text = text;
    this.pending = null;
  }

  /** A text is a String (and an Object); a null text is no body, assignable to anything. */
  protected override bodyAssignableTo(type: BodyType): boolean {
    return this.getText() === null || type === String || type === Object;
  }

  protected override bodyValue(): unknown {
    return this.getText();
  }

  protected override kindName(): string {
    return 'TextMessage';
  }

  override clearBody(): void {
    super.clearBody();
    this.text = null;
    this.pending = null;
  }

  override encodeBody(): Buffer {
    if (this.pending !== null) return this.pending;
    const writer = new BufferWriter(this.text === null ? 1 : 5 + 2 * this.text.length);
    writer.writeNullableSimpleString(this.text);
    return writer.toBuffer();
  }

  protected override loadBody(body: Buffer): void {
    this.text = null;
    this.pending = body;
  }
}

function decodeText(body: Buffer): string | null {
  if (body.length === 0) return null;
  return decodeBody('text body', body, (reader) => reader.readNullableSimpleString());
}
