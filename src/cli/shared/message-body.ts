import { BufferReader, readTypedValue, TypedProperties, type TypedValue } from '../../core/protocol';
import {
  HornetQBytesMessage,
  HornetQMapMessage,
  HornetQObjectMessage,
  HornetQStreamMessage,
  HornetQTextMessage,
  type HornetQMessage,
} from '../../jms';

/** The kinds of body that are decoded (a bytes or object body is shown as it came). */
export type DecodedKind = 'text' | 'map' | 'stream';

/**
 * A received message's body, decoded once for whichever way the CLI shows it (messageJson,
 * messageSummary). A body that does not decode is `unreadable`, with the reason: a corrupt body
 * is one message's problem, and the commands show that message's headers and go on.
 */
export type MessageBody =
  | { readonly kind: 'text'; readonly text: string | null }
  | { readonly kind: 'bytes'; readonly bytes: Buffer }
  /** In the order the body holds them. */
  | { readonly kind: 'map'; readonly entries: ReadonlyArray<readonly [string, TypedValue]> }
  | { readonly kind: 'stream'; readonly fields: readonly TypedValue[] }
  /**
   * A Java client's object is Java serialization, ours JSON: the bytes as they came either way,
   * and ours decoded only when asked (the JSON line shows the bytes alone).
   */
  | { readonly kind: 'object'; readonly bytes: Buffer; readonly readObject: () => unknown }
  | { readonly kind: 'none' }
  | { readonly kind: 'unreadable'; readonly of: DecodedKind; readonly reason: string };

export function readBody(message: HornetQMessage): MessageBody {
  const body = message.getCoreMessage().body;
  if (message instanceof HornetQTextMessage)
    return decoded('text', () => ({ kind: 'text', text: message.getText() }));
  if (message instanceof HornetQBytesMessage) return { kind: 'bytes', bytes: body };
  if (message instanceof HornetQMapMessage) {
    // As HornetQ's MapMessage reads it: the properties block, and nothing after it.
    return decoded('map', () => ({
      kind: 'map',
      entries: [...TypedProperties.decode(new BufferReader(body)).entries()],
    }));
  }
  if (message instanceof HornetQStreamMessage)
    return decoded('stream', () => ({ kind: 'stream', fields: streamFields(body) }));
  if (message instanceof HornetQObjectMessage)
    return { kind: 'object', bytes: body, readObject: () => message.getObject() };
  return { kind: 'none' };
}

/** What `decode` gives, or why it could not. */
function decoded(of: DecodedKind, decode: () => MessageBody): MessageBody {
  try {
    return decode();
  } catch (error) {
    return { kind: 'unreadable', of, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** The fields in the order they were written. */
function streamFields(body: Buffer): TypedValue[] {
  const fields: TypedValue[] = [];
  const reader = new BufferReader(body);
  while (reader.remaining > 0) fields.push(readTypedValue(reader, 'stream'));
  return fields;
}
