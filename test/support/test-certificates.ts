import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Certificates made by the test itself with openssl (EC P-256: fast to generate), in a temporary
 * directory of their own. Every file name is absolute.
 */
export interface TestCertificates {
  readonly dir: string;
  /** The CA that signed every certificate below except `untrusted*`: a PEM trust store. */
  readonly caPem: string;
  /** The CA and another one in one file: a trust store as a PEM bundle. */
  readonly caBundlePem: string;
  /** The broker's certificate for localhost and 127.0.0.1 (SANs), with its key, in one PEM file. */
  readonly serverPem: string;
  /** The same certificate and key as PKCS#12, with `password`. */
  readonly serverP12: string;
  /** The same as PEM with the key encrypted by `password`. */
  readonly serverEncryptedPem: string;
  /** For localhost and 127.0.0.1, but expired yesterday. */
  readonly expiredPem: string;
  /** Signed by the CA, but for other.example only. */
  readonly otherHostPem: string;
  /** For localhost and 127.0.0.1, signed by a CA nobody trusts. */
  readonly untrustedPem: string;
  /** A client certificate (clientAuth), signed by the CA, as PEM and as PKCS#12 with `password`. */
  readonly clientPem: string;
  readonly clientP12: string;
  /** A file that starts like a Java KeyStore (0xFEEDFEED). */
  readonly fakeJks: string;
  readonly password: string;
  /** Removes the directory. */
  remove(): void;
}

const SERVER_NAMES = 'subjectAltName=DNS:localhost,IP:127.0.0.1';

/** Makes the whole set once (a test file calls it in beforeAll and remove() in afterAll). */
export function makeTestCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hornetq-tls-'));
  const file = (name: string): string => path.join(dir, name);
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const password = 'test-store-password';
  const key = (name: string): string => {
    openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file(`${name}.key`));
    return file(`${name}.key`);
  };
  const selfSignedCa = (name: string, cn: string): void => {
    openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      key(name),
      '-subj',
      `/CN=${cn}`,
      '-days',
      '2',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-out',
      file(`${name}.crt`),
    );
  };
  /** A certificate for `cn` with `extensions`, signed by `ca`, and one PEM file with cert and key. */
  const signed = (name: string, cn: string, ca: string, extensions: string, days: string): string => {
    openssl('req', '-new', '-key', key(name), '-subj', `/CN=${cn}`, '-out', file(`${name}.csr`));
    fs.writeFileSync(file(`${name}.ext`), `${extensions}\n`);
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file(`${ca}.crt`),
      '-CAkey',
      file(`${ca}.key`),
      '-CAcreateserial',
      '-days',
      days,
      '-extfile',
      file(`${name}.ext`),
      '-out',
      file(`${name}.crt`),
    );
    const pem = file(`${name}.pem`);
    fs.writeFileSync(
      pem,
      Buffer.concat([fs.readFileSync(file(`${name}.crt`)), fs.readFileSync(file(`${name}.key`))]),
    );
    return pem;
  };
  const pkcs12 = (name: string): string => {
    openssl(
      'pkcs12',
      '-export',
      '-in',
      file(`${name}.crt`),
      '-inkey',
      file(`${name}.key`),
      '-certfile',
      file('ca.crt'),
      '-passout',
      `pass:${password}`,
      '-out',
      file(`${name}.p12`),
    );
    return file(`${name}.p12`);
  };

  selfSignedCa('ca', 'hornetq-js test CA');
  selfSignedCa('rogue-ca', 'untrusted test CA');
  const serverPem = signed('server', 'localhost', 'ca', SERVER_NAMES, '2');
  openssl(
    'pkey',
    '-in',
    file('server.key'),
    '-aes-256-cbc',
    '-passout',
    `pass:${password}`,
    '-out',
    file('server-encrypted.key'),
  );
  const serverEncryptedPem = file('server-encrypted.pem');
  fs.writeFileSync(
    serverEncryptedPem,
    Buffer.concat([fs.readFileSync(file('server.crt')), fs.readFileSync(file('server-encrypted.key'))]),
  );
  const caBundlePem = file('ca-bundle.pem');
  fs.writeFileSync(
    caBundlePem,
    Buffer.concat([fs.readFileSync(file('rogue-ca.crt')), fs.readFileSync(file('ca.crt'))]),
  );
  const fakeJks = file('keystore.jks');
  fs.writeFileSync(fakeJks, Buffer.from('feedfeed0000000200000000', 'hex'));
  return {
    dir,
    caPem: file('ca.crt'),
    caBundlePem,
    serverPem,
    serverP12: pkcs12('server'),
    serverEncryptedPem,
    expiredPem: signed('expired', 'localhost', 'ca', SERVER_NAMES, '-1'),
    otherHostPem: signed('other-host', 'other.example', 'ca', 'subjectAltName=DNS:other.example', '2'),
    untrustedPem: signed('untrusted', 'localhost', 'rogue-ca', SERVER_NAMES, '2'),
    clientPem: signed('client', 'test client', 'ca', 'extendedKeyUsage=clientAuth', '2'),
    clientP12: pkcs12('client'),
    fakeJks,
    password,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
