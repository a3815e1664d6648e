/**
 * The codes Node and OpenSSL give a client's check of the peer's certificate (X509_V_ERR_* names,
 * and Node's own for the host name). A failure with one of them is not a peer that is away: the
 * certificate or the trust store must change, which is why it gets a code of its own.
 */
const VERIFICATION_CODES: ReadonlySet<string> = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Whether `error` is this side's refusal of the peer's certificate. */
export function isTlsVerificationFailure(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && VERIFICATION_CODES.has(code);
}

/**
 * Whether the first bytes a peer sent are a TLS record (an alert or a handshake, in any version
 * from SSL 3.0 to TLS 1.3): what a TLS port answers a client that does not speak TLS, if anything.
 */
export function isTlsRecordStart(bytes: Buffer): boolean {
  const contentType = bytes[0];
  return bytes.length >= 2 && (contentType === 0x15 || contentType === 0x16) && bytes[1] === 0x03;
}
