import { BufferReader } from '../../core/protocol/buffer-reader';
import { ProtocolError } from '../../core/protocol/protocol-error';
import { MessageFormatException } from '../exceptions';

/**
 * What a body decoder does with bytes after what it read: 'refuse' them (the body is corrupt), or
 * 'ignore' them, as HornetQMapMessage does: it decodes its TypedProperties block and looks no
 * further, so whatever a Java peer's body holds after the block must not make it unreadable here.
 */
export type TrailingBytes = 'refuse' | 'ignore';

/** Runs a body decoder over the body; any problem is a MessageFormatException. */
export function decodeBody<T>(
  what: string,
  body: Buffer,
  decode: (reader: BufferReader) => T,
  trailing: TrailingBytes = 'refuse',
): T {
  try {
    const reader = new BufferReader(body);
    const result = decode(reader);
    if (trailing === 'refuse') reader.expectEnd(what);
    return result;
  } catch (error) {
    if (error instanceof ProtocolError || error instanceof RangeError) {
      throw new MessageFormatException(`corrupt ${what}: ${error.message}`, null, { cause: error });
    }
    throw error;
  }
}
