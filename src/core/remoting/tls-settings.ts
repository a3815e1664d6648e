import { brandError, hasBrand } from '../../lang/brand';
import { CoreErrorCode } from '../protocol/core-error-code';

/** PEM text, as a string or the bytes of a file already read (DER is accepted only for `pfx`). */
export type TlsMaterial = string | Buffer;

/**
 * TLS material for one end of a link, with HornetQ's parameter names in the messages.
 * Stores are files: PKCS#12 (`.p12`/`.pfx`, or DER content) or PEM. A Java KeyStore (JKS/JCEKS)
 * cannot be read by Node and is refused with the keytool command that converts it.
 */
export interface TlsSettings {
  /** key-store-path: this end's certificate chain and private key (PKCS#12, or PEM with both). */
  keyStorePath?: string | undefined;
  /** key-store-password: the PKCS#12 password, or the passphrase of an encrypted PEM key. */
  keyStorePassword?: string | undefined;
  /**
   * Ours (key-path): the PEM private key of a PEM key-store-path that holds only the certificate
   * chain, as `openssl req` and most CAs hand them out; key-store-password is its passphrase.
   */
  privateKeyPath?: string | undefined;
  /** trust-store-path: a PEM bundle of the CA certificates the peer's chain must lead to. */
  trustStorePath?: string | undefined;
  /** trust-store-password: accepted for HornetQ's sake; a PEM bundle needs none. */
  trustStorePassword?: string | undefined;
  /** enabled-protocols: e.g. ['TLSv1.2', 'TLSv1.3']; Node's defaults when absent. */
  enabledProtocols?: readonly string[] | undefined;
  /** enabled-cipher-suites: OpenSSL names (and TLS 1.3 names); Node's defaults when absent. */
  enabledCipherSuites?: readonly string[] | undefined;
  /** In memory, instead of trust-store-path: the PEM CA certificates the peer's chain must lead to. */
  ca?: TlsMaterial | readonly TlsMaterial[] | undefined;
  /** In memory, instead of key-store-path: this end's PEM certificate chain (with `key`). */
  cert?: TlsMaterial | undefined;
  /** In memory: the PEM private key of `cert`; keyStorePassword is its passphrase when encrypted. */
  key?: TlsMaterial | undefined;
  /** In memory, instead of key-store-path: a PKCS#12 store (DER bytes); keyStorePassword opens it. */
  pfx?: Buffer | undefined;
}

/** A TLS setting that cannot be used; the message names the parameter and file, never a password. */
export class TlsConfigurationError extends Error {
  static readonly brand: string = 'TlsConfigurationError';
  /** Never: the TLS settings (a store, a password, a protocol) must change first. */
  readonly retriable = false;
  readonly code = CoreErrorCode.TLS_CONFIGURATION;

  /**
   * @param owner whose settings they are ("acceptor 'netty'"), so that a caller can point at the
   *   element that configured them; `detail` follows it in the message.
   */
  constructor(
    readonly owner: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${owner}: ${detail}`, options);
    brandError(this, new.target);
  }

  static is(value: unknown): value is TlsConfigurationError {
    return hasBrand(value, TlsConfigurationError);
  }
}

/** Artemis' default: a peer that connects but does not finish the handshake by then is dropped. */
export const DEFAULT_TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

/** Splits a comma-separated HornetQ list ("TLSv1.2, TLSv1.3") into its non-empty items. */
export function splitTlsList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
