import { MessageType } from '../../core/protocol/core-message';
import { MessageFormatException, MessageNotWriteableException } from '../exceptions';
import { HornetQMessage } from './hornetq-message';
import type { TextMessage } from './message';

const EMPTY = Buffer.alloc(0);
const PRESENT = 0x01;
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A TextMessage. Body encoding: empty for a null text; otherwise the byte 0x01 then the text in
 * UTF-8 (so '' and null differ). Any other first byte, or invalid UTF-8, is a corrupt body. Strings
 * travel as UTF-8, so a lone surrogate arrives as U+FFFD.
 */
export class HornetQTextMessage extends HornetQMessage implements TextMessage {
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

  override clearBody(): void {
    super.clearBody();
    this.text = null;
    this.pending = null;
  }

  override encodeBody(): Buffer {
    if (this.pending !== null) return this.pending;
    if (this.text === null) return EMPTY;
    const body = Buffer.allocUnsafe(1 + Buffer.byteLength(this.text, 'utf8'));
    body[0] = PRESENT;
    body.write(this.text, 1, 'utf8');
    return body;
  }

  protected override loadBody(body: Buffer): void {
    this.text = null;
    this.pending = body;
  }
}

function decodeText(body: Buffer): string | null {
  if (body.length === 0) return null;
  if (body[0] !== PRESENT)
    throw new MessageFormatException(`corrupt text body: unknown marker byte ${body[0]}`);
  try {
    return UTF8.decode(body.subarray(1));
  } catch (error) {
    throw new MessageFormatException('corrupt text body: invalid UTF-8', null, { cause: error });
  }
}
