import fs from 'node:fs';
import net from 'node:net';
import {
  HornetQConnectionFactory,
  JMSException,
  Session,
  type Broker,
  type ConnectionUrlOptions,
  type HornetQConnection,
  type TcpAcceptorTlsConfiguration,
  type TextMessage,
} from '../../src';
import { useTestBrokers } from '../support/test-broker';
import { makeTestCertificates, type TestCertificates } from '../support/test-certificates';

/**
 * A factory made from a connection URL, TLS material given in memory, and the codes of a TLS
 * connection that cannot be made, against our broker over loopback sockets.
 */
describe('connection URLs and TLS from code', () => {
  const env = useTestBrokers();
  let certs: TestCertificates;
  beforeAll(() => {
    certs = makeTestCertificates();
  });
  afterAll(() => certs.remove());

  const QUEUE = 'jms.queue.orders';
  const startBroker = (tls?: Partial<TcpAcceptorTlsConfiguration>): Promise<Broker> =>
    env.startBroker({
      queues: [{ name: QUEUE, address: QUEUE, filter: null, durable: true }],
      acceptors: [
        {
          name: tls === undefined ? 'tcp' : 'tls',
          type: 'tcp',
          host: '127.0.0.1',
          port: 0,
          ...(tls === undefined
            ? {}
            : {
                tls: {
                  keyStorePath: certs.serverPem,
                  needClientAuth: false,
                  handshakeTimeout: 10_000,
                  ...tls,
                },
              }),
        },
      ],
    });

  const open = async (factory: HornetQConnectionFactory): Promise<HornetQConnection> => {
    env.track(factory);
    return factory.createConnection();
  };

  let sent = 0;
  const roundTrip = async (connection: HornetQConnection): Promise<void> => {
    const text = `order ${++sent}`;
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const queue = session.createQueue('orders');
    await (await session.createProducer(queue)).send(session.createTextMessage(text));
    const consumer = await session.createConsumer(queue);
    await connection.start();
    const received = (await consumer.receive(5_000)) as TextMessage | null;
    expect(received?.getText()).toBe(text);
    // Its consumer would otherwise take a share of the next round trip's message.
    await connection.close();
  };

  /** The JMSException createConnection rejects with. */
  const refusal = async (factory: HornetQConnectionFactory): Promise<JMSException> => {
    const error = await open(factory).then(
      () => null,
      (e: unknown) => e,
    );
    if (!JMSException.is(error)) throw new Error(`expected a JMSException, got ${String(error)}`);
    return error;
  };

  test("tcp:// URL: the factory takes the URL's settings, and its connections carry messages", async () => {
    const broker = await startBroker();
    const factory = new HornetQConnectionFactory(
      `tcp://127.0.0.1:${broker.getPort()}?ha=true&reconnectAttempts=-1&confirmation-window-size=1048576&callTimeout=7000`,
    );
    expect(factory.isHA()).toBe(true);
    expect(factory.getReconnectAttempts()).toBe(-1);
    expect(factory.getStaticConnectors()).toEqual([{ host: '127.0.0.1', port: broker.getPort() }]);
    await roundTrip(await open(factory));
    // The core beneath the connection runs with them.
    const core = factory.getServerLocator().options;
    expect([core.ha, core.reconnectAttempts, core.confirmationWindowSize, core.callTimeout]).toEqual([
      true,
      -1,
      1_048_576,
      7_000,
    ]);
  });

  test("tls:// URL with Artemis' trustStorePath connects over TLS", async () => {
    const broker = await startBroker({});
    const url = `tls://localhost:${broker.getPort()}?trustStorePath=${encodeURIComponent(certs.caPem)}&confirmationWindowSize=65536`;
    const factory = new HornetQConnectionFactory(url);
    expect(factory.getStaticConnectors()[0]).toMatchObject({
      'ssl-enabled': true,
      'trust-store-path': certs.caPem,
    });
    await roundTrip(await open(factory));
    expect(factory.getServerLocator().options.confirmationWindowSize).toBe(65_536);
  });

  test('a URL that cannot be read throws at construction, naming the parameter and where it is', () => {
    const construct = (url: string): unknown => {
      try {
        return new HornetQConnectionFactory(url);
      } catch (error) {
        return error;
      }
    };
    const unknown = construct('tcp://localhost:5445?ha=true&reconectAttempts=-1') as RangeError & {
      code: string;
    };
    expect(unknown).toBeInstanceOf(RangeError);
    expect(unknown.code).toBe('ERR_INVALID_ARG_VALUE');
    expect(unknown.message).toMatch(/unknown parameter 'reconectAttempts' .*\(at position 29\)/);
    const secret = construct('tls://localhost?keyStorePassword=hunter2&ha=maybe') as Error;
    expect(secret.message).toMatch(/parameter 'ha' must be true or false/);
    expect(secret.message).not.toContain('hunter2');
  });

  test('TLS material as Buffers and strings, beside or instead of the paths', async () => {
    const broker = await startBroker({ needClientAuth: true, trustStorePath: certs.caPem });
    const url = `tls://localhost:${broker.getPort()}`;
    const ca = fs.readFileSync(certs.caPem);
    const clientPem = fs.readFileSync(certs.clientPem);
    // ca and cert+key as Buffers.
    await roundTrip(
      await open(new HornetQConnectionFactory(url, { tls: { ca, cert: clientPem, key: clientPem } })),
    );
    // ca as a string, this client's certificate as PKCS#12 bytes with its passphrase.
    const pfx = fs.readFileSync(certs.clientP12);
    await roundTrip(
      await open(
        new HornetQConnectionFactory(url, {
          tls: { ca: ca.toString('utf8'), pfx, passphrase: certs.password },
        }),
      ),
    );
    // The CA from the URL's path, this client's certificate from memory.
    const mixed = `${url}?trust-store-path=${encodeURIComponent(certs.caPem)}`;
    await roundTrip(
      await open(new HornetQConnectionFactory(mixed, { tls: { cert: clientPem, key: clientPem } })),
    );
  });

  test('a factory made from connectors (or looked up) takes in-memory material through setTlsOptions', async () => {
    const broker = await startBroker({});
    const factory = new HornetQConnectionFactory({
      host: 'localhost',
      port: broker.getPort(),
      'ssl-enabled': true,
    });
    const tls = { ca: fs.readFileSync(certs.caPem) };
    factory.setTlsOptions(tls);
    expect(factory.getTlsOptions()).toBe(tls);
    // @ts-expect-error: 'cacert' is not a TLS option; a JavaScript caller is refused at the setter.
    expect(() => factory.setTlsOptions({ cacert: 'x' })).toThrow(/tls has no option 'cacert'/);
    await roundTrip(await open(factory));
  });

  test('in-memory material that cannot be used is refused naming the option, never its content', async () => {
    const broker = await startBroker({});
    const url = `tls://localhost:${broker.getPort()}?trustStorePath=${encodeURIComponent(certs.caPem)}`;
    const ca = fs.readFileSync(certs.caPem);
    const twice = await refusal(new HornetQConnectionFactory(url, { tls: { ca } }));
    expect(twice.message).toMatch(/ca or trust-store-path, not both/);
    const secretKey = 'not-a-key-but-a-secret-value';
    const noKey = await refusal(
      new HornetQConnectionFactory(`tls://localhost:${broker.getPort()}`, {
        tls: { ca, cert: fs.readFileSync(certs.clientPem), key: secretKey },
      }),
    );
    expect(noKey.message).toMatch(/key holds no PEM private key/);
    expect(noKey.message).not.toContain(secretKey);
    const wrongPassphrase = await refusal(
      new HornetQConnectionFactory(`tls://localhost:${broker.getPort()}`, {
        tls: { ca, pfx: fs.readFileSync(certs.clientP12), passphrase: 'the-wrong-passphrase' },
      }),
    );
    expect(wrongPassphrase.message).toMatch(/pfx: wrong passphrase/);
    expect(wrongPassphrase.message).not.toContain('the-wrong-passphrase');
  });

  test('a misspelt TLS option does not compile, and is refused at run time for JavaScript callers', async () => {
    const options: ConnectionUrlOptions = {
      tls: {
        // @ts-expect-error: 'trustStore' is not a TLS option (ca is); tsc checks that this line fails.
        trustStore: 'ca.pem',
      },
    };
    const factory = new HornetQConnectionFactory('tls://localhost:1', options);
    const error = await refusal(factory);
    expect(error.message).toMatch(
      /tls has no option 'trustStore' \(the options: ca, cert, key, pfx, passphrase\)/,
    );
  });

  test.each([
    ['from a CA this client does not trust', () => certs.untrustedPem, /issuer|UNABLE_TO/i],
    ['expired', () => certs.expiredPem, /expired/i],
    ['for another host name', () => certs.otherHostPem, /altnames|ERR_TLS_CERT_ALTNAME_INVALID/i],
  ])(
    'a broker certificate %s: TLS_VERIFICATION_FAILED, the reason in the message',
    async (_, store, reason) => {
      const broker = await startBroker({ keyStorePath: store() });
      const error = await refusal(
        new HornetQConnectionFactory(
          `tls://localhost:${broker.getPort()}?initialConnectAttempts=2&retryInterval=10`,
          {
            tls: { ca: fs.readFileSync(certs.caPem) },
          },
        ),
      );
      expect(error.errorCode).toBe('TLS_VERIFICATION_FAILED');
      expect(error.code).toBe('TLS_VERIFICATION_FAILED');
      expect(error.message).toMatch(reason);
      expect(error.message).toMatch(/did not pass verification/);
    },
  );

  test('a plain client on a TLS port: TLS_REQUIRED, naming the tls:// URL to use', async () => {
    const broker = await startBroker({});
    const error = await refusal(
      new HornetQConnectionFactory(`tcp://127.0.0.1:${broker.getPort()}?callTimeout=5000`),
    );
    expect(error.errorCode).toBe('TLS_REQUIRED');
    expect(error.message).toContain(`connect with tls://127.0.0.1:${broker.getPort()}`);
  });

  test('a plain client answered with a TLS alert (as some TLS servers answer plain bytes): TLS_REQUIRED', async () => {
    // A fatal protocol_version alert record, TLS 1.2 framing, then the close.
    const alert = Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46]);
    // Read what the client sends (paused, the socket would never see the client's end, nor close).
    const alerting = net.createServer((socket) => socket.resume().end(alert));
    await new Promise<void>((resolve) => alerting.listen(0, '127.0.0.1', resolve));
    env.track({ close: () => new Promise<void>((resolve) => alerting.close(() => resolve())) });
    const port = (alerting.address() as net.AddressInfo).port;
    const error = await refusal(new HornetQConnectionFactory(`tcp://127.0.0.1:${port}?callTimeout=5000`));
    expect(error.errorCode).toBe('TLS_REQUIRED');
  });

  test('a plain port that drops the connection without a word stays NOT_CONNECTED', async () => {
    const dropping = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    env.track({ close: () => new Promise<void>((resolve) => dropping.close(() => resolve())) });
    const port = (dropping.address() as net.AddressInfo).port;
    const error = await refusal(new HornetQConnectionFactory(`tcp://127.0.0.1:${port}?callTimeout=5000`));
    expect(error.errorCode).toBe('NOT_CONNECTED');
  });
});
