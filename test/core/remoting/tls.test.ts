import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import {
  isTlsRecordStart,
  loadTls,
  TcpTransport,
  TlsConfigurationError,
  type TlsSettings,
} from '../../../src/core/remoting';
import { makeTestCertificates, type TestCertificates } from '../../support/test-certificates';

describe('TLS stores and the TLS transport', () => {
  let certs: TestCertificates;
  beforeAll(() => {
    certs = makeTestCertificates();
  });
  afterAll(() => certs.remove());

  const problem = (settings: TlsSettings): string => {
    try {
      loadTls(settings, "acceptor 'a'");
    } catch (error) {
      expect(error).toBeInstanceOf(TlsConfigurationError);
      expect((error as TlsConfigurationError).owner).toBe("acceptor 'a'");
      return (error as Error).message;
    }
    throw new Error('loadTls accepted the settings');
  };
  const copy = (from: string, name: string): string => {
    const to = path.join(certs.dir, name);
    fs.copyFileSync(from, to);
    return to;
  };

  test('PKCS#12 (by name or by content), PEM with both parts, an encrypted PEM key: each makes a context', () => {
    expect(
      loadTls({ keyStorePath: certs.serverP12, keyStorePassword: certs.password }, 'x').options.pfx,
    ).toBeInstanceOf(Buffer);
    const unnamed = copy(certs.serverP12, 'server-store.bin');
    expect(
      loadTls({ keyStorePath: unnamed, keyStorePassword: certs.password }, 'x').options.pfx,
    ).toBeInstanceOf(Buffer);
    const pem = loadTls({ keyStorePath: certs.serverPem, trustStorePath: certs.caBundlePem }, 'x').options;
    expect(pem.cert).toBeInstanceOf(Buffer);
    expect(pem.key).toBe(pem.cert);
    expect(pem.ca).toBeInstanceOf(Buffer);
    expect(
      loadTls({ keyStorePath: certs.serverEncryptedPem, keyStorePassword: certs.password }, 'x').context,
    ).toBeDefined();
  });

  test('key-path: a PEM certificate with its key in a file of its own; refused without a PEM certificate or key', () => {
    const crt = path.join(certs.dir, 'client.crt');
    const key = path.join(certs.dir, 'client.key');
    const options = loadTls({ keyStorePath: crt, privateKeyPath: key }, 'x').options;
    expect(options.cert).toEqual(fs.readFileSync(crt));
    expect(options.key).toEqual(fs.readFileSync(key));
    expect(problem({ keyStorePath: crt, privateKeyPath: crt })).toBe(
      `acceptor 'a': key-path '${crt}' holds no PEM private key`,
    );
    expect(problem({ keyStorePath: certs.clientP12, privateKeyPath: key })).toBe(
      `acceptor 'a': key-path is for a PEM certificate chain, and key-store-path '${certs.clientP12}' holds none (a PKCS#12 store carries its key itself)`,
    );
    expect(problem({ privateKeyPath: key })).toBe(
      "acceptor 'a': key-path needs key-store-path: the certificate the key belongs to",
    );
  });

  test('in memory: ca, cert and key, or pfx make a context; two sources for one part, or a half, are refused', () => {
    const ca = fs.readFileSync(certs.caPem);
    const pem = fs.readFileSync(certs.clientPem);
    const pfx = fs.readFileSync(certs.clientP12);
    const fromMemory = loadTls({ ca: [ca, ca.toString('utf8')], cert: pem, key: pem.toString('utf8') }, 'x');
    expect(fromMemory.options.ca).toEqual([ca, ca.toString('utf8')]);
    expect(loadTls({ pfx, keyStorePassword: certs.password }, 'x').options.pfx).toBe(pfx);
    expect(problem({ ca, trustStorePath: certs.caPem })).toMatch(/ca or trust-store-path, not both/);
    expect(problem({ cert: pem, key: pem, keyStorePath: certs.clientPem })).toMatch(
      /cert and key, or pfx, or key-store-path, not two of them/,
    );
    expect(problem({ pfx, cert: pem })).toMatch(/pfx carries its certificate and key/);
    expect(problem({ cert: pem })).toMatch(/cert needs key/);
    expect(problem({ key: pem })).toMatch(/key needs cert/);
    expect(problem({ ca: [] })).toMatch(/ca is an empty list/);
    expect(problem({ ca: [ca, 'no certificate here'] })).toMatch(/ca\[1\] holds no PEM certificate/);
    expect(problem({ pfx: pem })).toMatch(/pfx must be the bytes of a PKCS#12 store/);
    const wrong = problem({ pfx, keyStorePassword: 'wrong-passphrase-7' });
    expect(wrong).toMatch(/pfx: wrong passphrase/);
    expect(wrong).not.toContain('wrong-passphrase-7');
  });

  test('the first bytes of a TLS record (alert, handshake) are told from anything else', () => {
    expect(isTlsRecordStart(Buffer.from([0x15, 0x03, 0x03]))).toBe(true);
    expect(isTlsRecordStart(Buffer.from([0x16, 0x03, 0x01]))).toBe(true);
    expect(isTlsRecordStart(Buffer.from('HTTP'))).toBe(false);
    expect(isTlsRecordStart(Buffer.from([0x15]))).toBe(false);
    expect(isTlsRecordStart(Buffer.alloc(0))).toBe(false);
  });

  test('a Java keystore as trust store is refused, saying to give a PEM bundle', () => {
    expect(problem({ trustStorePath: certs.fakeJks })).toBe(
      `acceptor 'a': trust-store-path '${certs.fakeJks}' is a Java JKS keystore, which Node cannot read; give a PEM bundle of the CA certificates instead, exported with: keytool -exportcert -rfc -keystore ${certs.fakeJks} -alias <alias> -file ${path.join(certs.dir, 'keystore.pem')}`,
    );
  });

  test('a Java keystore (JKS, JCEKS) is refused with the keytool command, even when named .p12', () => {
    expect(problem({ keyStorePath: certs.fakeJks })).toBe(
      `acceptor 'a': key-store-path '${certs.fakeJks}' is a Java JKS keystore, which Node cannot read; convert it to PKCS#12 with: keytool -importkeystore -srckeystore ${certs.fakeJks} -destkeystore ${path.join(certs.dir, 'keystore.p12')} -deststoretype PKCS12`,
    );
    const jceks = path.join(certs.dir, 'store.p12');
    fs.writeFileSync(jceks, Buffer.from('cececece00000002', 'hex'));
    expect(problem({ trustStorePath: jceks })).toMatch(
      /^acceptor 'a': trust-store-path '.*store\.p12' is a Java JCEKS keystore/,
    );
  });

  test('missing, unreadable-as-anything and half stores are said with parameter and file', () => {
    expect(problem({ keyStorePath: '/nonexistent/k.p12' })).toBe(
      "acceptor 'a': key-store-path '/nonexistent/k.p12' does not exist",
    );
    const text = path.join(certs.dir, 'notes.txt');
    fs.writeFileSync(text, 'just some text');
    expect(problem({ keyStorePath: text })).toBe(
      `acceptor 'a': key-store-path '${text}' is neither PKCS#12 nor PEM (nor a Java keystore)`,
    );
    expect(problem({ keyStorePath: certs.caPem })).toMatch(
      /is PEM but does not hold both a certificate chain and a private key/,
    );
    expect(problem({ trustStorePath: certs.serverP12 })).toMatch(
      /trust-store-path '.*server\.p12' is PKCS#12; .*openssl pkcs12 -in .*server\.p12 -nokeys -out .*server\.pem$/,
    );
    expect(problem({ trustStorePath: text })).toMatch(/neither PKCS#12 nor PEM/);
  });

  test('a wrong password never appears in the message', () => {
    const message = problem({ keyStorePath: certs.serverP12, keyStorePassword: 'hunter2-wrong' });
    expect(message).toBe(
      `acceptor 'a': key-store-path '${certs.serverP12}': wrong key-store-password (or none given for an encrypted store)`,
    );
    expect(problem({ keyStorePath: certs.serverEncryptedPem })).toMatch(/wrong key-store-password/);
  });

  test('enabled-protocols becomes a version range; a gap or an unknown name is refused', () => {
    expect(loadTls({ enabledProtocols: ['TLSv1.3', 'TLSv1.2'] }, 'x').options).toMatchObject({
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.3',
    });
    expect(problem({ enabledProtocols: ['TLSv1.1', 'TLSv1.3'] })).toMatch(/must be a contiguous range/);
    expect(problem({ enabledProtocols: ['SSLv3'] })).toMatch(
      /'SSLv3' is not one of TLSv1, TLSv1.1, TLSv1.2, TLSv1.3/,
    );
  });

  test('enabled-cipher-suites go to OpenSSL; names it has none of are refused', () => {
    expect(loadTls({ enabledCipherSuites: ['ECDHE-ECDSA-AES128-GCM-SHA256'] }, 'x').options.ciphers).toBe(
      'ECDHE-ECDSA-AES128-GCM-SHA256',
    );
    expect(problem({ enabledCipherSuites: ['NO-SUCH-CIPHER'] })).toMatch(
      /enabled-cipher-suites 'NO-SUCH-CIPHER': .*OpenSSL names/,
    );
  });

  test('connectTls: a peer that never answers the handshake is given up after the timeout', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const context = tls.createSecureContext({});
      await expect(
        TcpTransport.connectTls('127.0.0.1', port, 200, { context, verifyHost: true }),
      ).rejects.toThrow(`TLS connection to 127.0.0.1:${port} failed: no TLS handshake within 200 ms`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
