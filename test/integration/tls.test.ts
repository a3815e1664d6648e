import net from 'node:net';
import {
  ClientSessionFactory,
  type Broker,
  type TcpAcceptorTlsConfiguration,
  type TransportConfiguration,
} from '../../src';
import { CapturingLogger, sequenced, seqOf, useTestBrokers, waitFor } from '../support/test-broker';
import { makeTestCertificates, type TestCertificates } from '../support/test-certificates';

/** Our client to our broker over TLS, with certificates made for this file. */
describe('TLS between our client and our broker', () => {
  const env = useTestBrokers();
  let certs: TestCertificates;
  beforeAll(() => {
    certs = makeTestCertificates();
  });
  afterAll(() => certs.remove());

  const tlsBroker = (
    tls: Partial<TcpAcceptorTlsConfiguration> = {},
    logger = new CapturingLogger(),
  ): Promise<Broker> => env.startBroker({ logger }, { tls: { keyStorePath: certs.serverPem, ...tls } });

  const connectTls = async (
    broker: Broker,
    connector: TransportConfiguration = {},
  ): Promise<ClientSessionFactory> => {
    const factory = await ClientSessionFactory.connect({
      connectors: [
        {
          host: 'localhost',
          port: broker.getPort(),
          'ssl-enabled': true,
          'trust-store-path': certs.caPem,
          ...connector,
        },
      ],
      callTimeout: 5_000,
    });
    return env.track(factory);
  };

  let queues = 0;
  const roundTrip = async (factory: ClientSessionFactory): Promise<void> => {
    const session = await factory.createSession();
    const queue = `tls.q${++queues}`;
    await session.createQueue(queue, queue, { durable: false });
    await session.createProducer(queue).send(sequenced(7));
    const consumer = await session.createConsumer(queue);
    session.start();
    const received = await consumer.receive(5_000);
    expect(received === null ? null : seqOf(received)).toBe(7);
    await received?.acknowledge();
    await session.close();
  };

  const refusal = async (broker: Broker, connector: TransportConfiguration): Promise<string> => {
    const error = await connectTls(broker, connector).then(
      async (factory) => {
        // TLS 1.3: the client's handshake may end before the broker refuses its certificate.
        await factory.createSession();
        return null;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    return String((error as Error).message);
  };

  test('a good certificate (PEM) connects, and a message goes through', async () => {
    await roundTrip(await connectTls(await tlsBroker()));
  });

  test('a PKCS#12 key store with its password, and a PEM bundle as trust store, work', async () => {
    const broker = await tlsBroker({ keyStorePath: certs.serverP12, keyStorePassword: certs.password });
    await roundTrip(await connectTls(broker, { 'trust-store-path': certs.caBundlePem }));
  });

  test('enabled protocols: a broker on TLS 1.2 only and a client on TLS 1.3 only do not agree', async () => {
    const broker = await tlsBroker({ enabledProtocols: ['TLSv1.2'] });
    await roundTrip(await connectTls(broker, { 'enabled-protocols': 'TLSv1.2,TLSv1.3' }));
    expect(await refusal(broker, { 'enabled-protocols': 'TLSv1.3' })).toMatch(
      /TLS connection to localhost:\d+ failed: .*protocol/i,
    );
  });

  test('a plain TCP client gets nowhere with a TLS acceptor', async () => {
    const broker = await tlsBroker();
    await expect(
      ClientSessionFactory.connect({
        connectors: [{ host: '127.0.0.1', port: broker.getPort() }],
        callTimeout: 2_000,
      }).then(async (factory) => {
        env.track(factory);
        await factory.createSession();
      }),
    ).rejects.toThrow();
  });

  test('a certificate from an unknown CA is refused', async () => {
    const broker = await tlsBroker({ keyStorePath: certs.untrustedPem });
    expect(await refusal(broker, {})).toMatch(/unable to (get|verify).*issuer|self.signed|UNABLE_TO/i);
  });

  test('an expired certificate is refused', async () => {
    const broker = await tlsBroker({ keyStorePath: certs.expiredPem });
    expect(await refusal(broker, {})).toMatch(/expired/i);
  });

  test('a certificate for another host name is refused, and accepted with verify-host false', async () => {
    const broker = await tlsBroker({ keyStorePath: certs.otherHostPem });
    expect(await refusal(broker, {})).toMatch(/altnames|ERR_TLS_CERT_ALTNAME_INVALID/i);
    expect(await refusal(broker, { host: '127.0.0.1' })).toMatch(/altnames|ERR_TLS_CERT_ALTNAME_INVALID/i);
    await roundTrip(await connectTls(broker, { 'verify-host': false }));
  });

  test('verify-host false never skips the chain check', async () => {
    const broker = await tlsBroker({ keyStorePath: certs.untrustedPem });
    expect(await refusal(broker, { 'verify-host': false })).toMatch(/issuer|UNABLE_TO/i);
  });

  test('need-client-auth: no certificate is refused and logged; a certificate from the CA works', async () => {
    const logger = new CapturingLogger();
    const broker = await tlsBroker({ needClientAuth: true, trustStorePath: certs.caPem }, logger);
    // The broker's alert, said as what to do about it (TLS 1.3 sends it after the handshake).
    expect(await refusal(broker, {})).toMatch(/requires a certificate of this side \(need-client-auth\)/);
    await waitFor(
      () => logger.find(/TLS handshake with 127\.0\.0\.1:\d+ failed/, ['warn']).length > 0,
      'the refusal logged',
    );
    expect(await refusal(broker, { 'key-store-path': certs.untrustedPem })).toMatch(
      /certificate|closed|socket|alert/i,
    );
    await roundTrip(await connectTls(broker, { 'key-store-path': certs.clientPem }));
    await roundTrip(
      await connectTls(broker, { 'key-store-path': certs.clientP12, 'key-store-password': certs.password }),
    );
  });

  test('a connection that never starts its handshake is closed after handshakeTimeout, and only it', async () => {
    const logger = new CapturingLogger();
    const broker = await tlsBroker({ handshakeTimeout: 300 }, logger);
    const silent = net.connect({ host: '127.0.0.1', port: broker.getPort() }).on('error', () => undefined);
    env.track({ close: () => silent.destroy() });
    await new Promise<void>((resolve) => silent.once('close', () => resolve()));
    await waitFor(() => logger.find(/TLS handshake .* failed/, ['warn']).length > 0, 'the timeout logged');
    await roundTrip(await connectTls(broker));
  });

  test('a bad store fails the broker start naming acceptor, parameter and file, never the password', async () => {
    const start = (tls: Partial<TcpAcceptorTlsConfiguration>): Promise<string> =>
      tlsBroker(tls).then(
        () => 'started',
        (error: unknown) => String((error as Error).message),
      );
    const jks = await start({ keyStorePath: certs.fakeJks });
    expect(jks).toContain(`acceptor 'tls': key-store-path '${certs.fakeJks}' is a Java JKS keystore`);
    expect(jks).toContain(`keytool -importkeystore -srckeystore ${certs.fakeJks} -destkeystore`);
    const wrong = await start({ keyStorePath: certs.serverP12, keyStorePassword: 'not-the-password' });
    expect(wrong).toMatch(/key-store-path '.*server\.p12': wrong key-store-password/);
    expect(wrong).not.toContain('not-the-password');
    expect(await start({ keyStorePath: certs.serverEncryptedPem, keyStorePassword: 'nope' })).toMatch(
      /server-encrypted\.pem': wrong key-store-password/,
    );
    expect(await start({ keyStorePath: `${certs.dir}/missing.p12` })).toMatch(
      /key-store-path '.*missing\.p12' does not exist/,
    );
  });

  test("the client's stores are checked at connect, with the same messages", async () => {
    const broker = await tlsBroker();
    expect(await refusal(broker, { 'trust-store-path': certs.fakeJks })).toMatch(
      /trust-store-path '.*keystore\.jks' is a Java JKS keystore.*give a PEM bundle of the CA certificates instead, exported with: keytool -exportcert -rfc/,
    );
    const wrong = await refusal(broker, {
      'key-store-path': certs.clientP12,
      'key-store-password': 'wrong-one',
    });
    expect(wrong).toMatch(
      /connector tls:\/\/localhost:\d+: key-store-path '.*client\.p12': wrong key-store-password/,
    );
    expect(wrong).not.toContain('wrong-one');
  });

  test("TLS keys of the wrong type are refused before connecting, a password's value unsaid", async () => {
    // As from JSON or JavaScript: the types would not let TypeScript callers write it.
    const connector = JSON.parse(
      '{"host":"localhost","port":1,"ssl-enabled":true,"verify-host":"false","key-store-password":1234}',
    ) as TransportConfiguration;
    const error = await ClientSessionFactory.connect({ connectors: [connector] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toBe(
      'invalid client options: connector tls://localhost:1: verify-host must be true or false (actual value: "false"); connector tls://localhost:1: key-store-password must be a string (actual value: a number)',
    );
  });
});
