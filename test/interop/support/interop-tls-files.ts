import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { makeTestCertificates, type TestCertificates } from '../../support/test-certificates';

/** Which of the test's server certificates an acceptor presents. */
export type ServerCertificate = 'trusted' | 'untrusted' | 'otherHost';

/**
 * The test certificates (test/support/test-certificates.ts) and what the Java side needs beside
 * them: every server certificate as a PKCS#12 key store (every server, ours too, reads those), and
 * the test CA as a PKCS#12 trust store. Java's PKCS#12 reader only trusts a certificate that
 * carries Oracle's trusted-key-usage attribute, which keytool writes and openssl 3.0 cannot.
 */
export interface InteropTlsFiles {
  readonly certs: TestCertificates;
  /** Certificate and key as PKCS#12, with `certs.password`. */
  readonly serverKeyStores: Readonly<Record<ServerCertificate, string>>;
  /** The CA that signed the trusted certificates, as a PKCS#12 trust store with `certs.password`. */
  readonly caTrustStore: string;
  remove(): void;
}

/** A certificate and key PEM file as PKCS#12 with `password`, beside it. */
function pkcs12Of(pem: string, password: string): string {
  const p12 = pem.replace(/\.pem$/, '.p12');
  execFileSync('openssl', ['pkcs12', '-export', '-in', pem, '-passout', `pass:${password}`, '-out', p12], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return p12;
}

function javaTrustStore(caPem: string, dir: string, password: string): string {
  const store = path.join(dir, 'ca-trust.p12');
  execFileSync(
    'keytool',
    [
      '-importcert',
      '-noprompt',
      '-storetype',
      'PKCS12',
      '-keystore',
      store,
      '-storepass',
      password,
      '-alias',
      'test-ca',
      '-file',
      caPem,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return store;
}

/** Makes every file once, in a directory of its own (a test file's beforeAll; remove() in afterAll). */
export function makeInteropTlsFiles(): InteropTlsFiles {
  const certs = makeTestCertificates();
  try {
    return {
      certs,
      serverKeyStores: {
        trusted: certs.serverP12,
        untrusted: pkcs12Of(certs.untrustedPem, certs.password),
        otherHost: pkcs12Of(certs.otherHostPem, certs.password),
      },
      caTrustStore: javaTrustStore(certs.caPem, certs.dir, certs.password),
      remove: () => certs.remove(),
    };
  } catch (error) {
    certs.remove();
    throw error;
  }
}
