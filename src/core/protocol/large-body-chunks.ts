import { outOfRange } from '../../lang/argument-errors';

/** One piece of a large message body, as SESS_SEND_CONTINUATION / SESS_RECEIVE_CONTINUATION carry it. */
export interface BodyChunk {
  readonly chunk: Buffer;
  /** False for the last chunk. */
  readonly continues: boolean;
}

/**
 * Cuts a large message body into chunks of `chunkBytes` (the last may be shorter), views of the
 * body, not copies: how both the client (sending) and the broker (delivering) put one on the wire.
 * An empty body is one empty last chunk, so that the receiver always sees an end.
 */
export function* largeBodyChunks(body: Buffer, chunkBytes: number): IterableIterator<BodyChunk> {
  if (!(Number.isSafeInteger(chunkBytes) && chunkBytes > 0)) {
    throw outOfRange(`chunkBytes must be an integer > 0 (actual value: ${chunkBytes})`);
  }
  if (body.length === 0) {
    yield { chunk: body, continues: false };
    return;
  }
  for (let offset = 0; offset < body.length; offset += chunkBytes) {
    yield { chunk: body.subarray(offset, offset + chunkBytes), continues: offset + chunkBytes < body.length };
  }
}
