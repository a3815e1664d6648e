/**
 * A frame or packet that breaks the wire format. The connection that sent it is closed; the
 * message says what was wrong so the log line explains why.
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
}
