import type { TlsMaterial } from '../remoting';

/**
 * TLS material a client holds in memory (from a secret store or an environment variable, say)
 * rather than in files, for every TLS connector it dials, the servers a cluster announces among
 * them. Beside a connector's paths: `ca` replaces trust-store-path, `cert` and `key` (or `pfx`)
 * key-store-path, and giving both for the same part is refused. Node's option names, typed, so a
 * misspelt key does not compile; none of the values is ever logged or put in a message.
 */
export interface ClientTlsOptions {
  /** The PEM CA certificates the broker's chain must lead to (one bundle, or several). */
  ca?: TlsMaterial | readonly TlsMaterial[] | undefined;
  /** This client's PEM certificate chain, for a broker with need-client-auth; with `key`. */
  cert?: TlsMaterial | undefined;
  /** The PEM private key of `cert`. */
  key?: TlsMaterial | undefined;
  /** This client's certificate and key as a PKCS#12 store (its bytes), instead of cert and key. */
  pfx?: Buffer | undefined;
  /** The passphrase of an encrypted `key` or of `pfx` (the connector's key-store-password when absent). */
  passphrase?: string | undefined;
}

const KEYS: ReadonlyArray<keyof ClientTlsOptions> = ['ca', 'cert', 'key', 'pfx', 'passphrase'];

/**
 * What is wrong with `tls` for a caller the types did not check (JavaScript, JSON): a key that is
 * not one of them. The values are checked where they are read, at the first TLS connect.
 */
export function clientTlsProblems(tls: unknown): string[] {
  if (tls === undefined) return [];
  if (typeof tls !== 'object' || tls === null || Array.isArray(tls)) {
    return [`tls must be an object with ${KEYS.join(', ')} (actual: ${tls === null ? 'null' : typeof tls})`];
  }
  return Object.keys(tls)
    .filter((key) => !(KEYS as readonly string[]).includes(key))
    .map((key) => `tls has no option '${key}' (the options: ${KEYS.join(', ')})`);
}
