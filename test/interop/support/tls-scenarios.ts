import {
  HornetQConnectionFactory,
  HornetQQueue,
  JMSException,
  Session,
  type HornetQConnection,
  type TransportConfiguration,
} from '../../../src';
import type { ServerKind, TlsAcceptorOptions } from './interop-server';
import { JavaError, JmsDriver, type ConnectOptions } from './jms-driver';
import { queueRef, RECEIVE_MS, textOf, type ScenarioContext, type ScenarioGroup } from './scenario-context';

/** The TLS acceptors every server gets, beside its plain one. */
const ACCEPTORS = {
  trusted: { name: 'tls', certificate: 'trusted', needClientAuth: false },
  untrusted: { name: 'tls-untrusted', certificate: 'untrusted', needClientAuth: false },
  otherHost: { name: 'tls-other-host', certificate: 'otherHost', needClientAuth: false },
  clientAuth: { name: 'tls-client-auth', certificate: 'trusted', needClientAuth: true },
  tls12: { name: 'tls-1.2', certificate: 'trusted', needClientAuth: false, enabledProtocols: ['TLSv1.2'] },
} as const satisfies Record<string, TlsAcceptorOptions>;

/** One JMS queue per scenario, so that no scenario sees another's leftovers. */
const QUEUES = {
  nodeOverTls: 'tlsNode',
  clientAuth: 'tlsClientAuth',
  javaOverTls: 'tlsJava',
  javaClientAuth: 'tlsJavaClientAuth',
  javaTls13: 'tlsJava13',
} as const;

type Acceptor = keyof typeof ACCEPTORS;

/**
 * What our client says when the server refuses it for want of a certificate. Under TLS 1.3 the
 * client's handshake is over before the server checks, so the refusal comes as the link closing:
 * with the TLS alert the server sent (ours: 116, Artemis: 42), or none (HornetQ 2.4.7 closes).
 */
const CLIENT_CERTIFICATE_REFUSAL: Record<ServerKind, RegExp> = {
  ours: /Failed to create session factory: Channel disconnected: .*tlsv13 alert certificate required/,
  artemis: /Failed to create session factory: Channel disconnected: .*alert bad certificate/,
  hornetq: /Failed to create session factory: Channel disconnected: tls:\/\/127\.0\.0\.1:\d+ closed/,
};

type JavaTransport = NonNullable<ConnectOptions['transport']>;

/**
 * TLS between each server and both clients: our client with a PEM trust store (and a PEM or
 * PKCS#12 client key store where the acceptor has need-client-auth), refusing a certificate it
 * cannot trust or one for another host; HornetQ 2.4.7's Java client with PKCS#12 stores, refusing
 * a certificate it cannot trust. Against our broker this is its TLS acceptor as Java sees it.
 */
export const tlsScenarios: ScenarioGroup = {
  server: { queues: Object.values(QUEUES), tlsAcceptors: Object.values(ACCEPTORS) },
  define(context: ScenarioContext): void {
    const files = () => context.tlsFiles();

    /** Our client's connector to `acceptor` by host name, trusting the test CA alone (a PEM file). */
    const nodeConnector = (
      acceptor: Acceptor,
      more: TransportConfiguration = {},
    ): TransportConfiguration => ({
      host: 'localhost',
      port: context.server().tlsPort(ACCEPTORS[acceptor].name),
      'ssl-enabled': true,
      'trust-store-path': files().certs.caPem,
      ...more,
    });

    const nodeConnect = async (connector: TransportConfiguration): Promise<HornetQConnection> => {
      const connection = context.track(await new HornetQConnectionFactory(connector).createConnection());
      await connection.start();
      return connection;
    };

    /** What our client's createConnection fails with (it must fail). */
    const nodeRefusal = async (connector: TransportConfiguration): Promise<Error> => {
      const outcome = await new HornetQConnectionFactory(connector).createConnection().then(
        (connection) => {
          context.track(connection);
          return null;
        },
        (error: unknown) => error,
      );
      if (!(outcome instanceof Error))
        throw new Error(`our client connected to ${connector.host}:${connector.port}`);
      return outcome;
    };

    /** A message through `queue` on our client's connection: sent, then received, over the same TLS link. */
    const nodeRoundTrip = async (
      connection: HornetQConnection,
      queue: string,
      text: string,
    ): Promise<void> => {
      const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
      await (await session.createProducer(new HornetQQueue(queue))).send(session.createTextMessage(text));
      const consumer = await session.createConsumer(new HornetQQueue(queue));
      expect(textOf(await consumer.receive(RECEIVE_MS))).toBe(text);
      await session.close();
    };

    /** The Java client's connector params to `acceptor`, trusting the test CA (a PKCS#12 trust store). */
    const javaTransport = (more: JavaTransport = {}): JavaTransport => ({
      'ssl-enabled': true,
      'trust-store-path': files().caTrustStore,
      'trust-store-password': files().certs.password,
      ...more,
    });

    const javaConnect = (acceptor: Acceptor, transport: JavaTransport): Promise<string> =>
      context.java().connect({
        host: 'localhost',
        port: context.server().tlsPort(ACCEPTORS[acceptor].name),
        transport,
      });

    /** What the Java client's createConnection fails with (it must fail). */
    const javaRefusal = async (acceptor: Acceptor, transport: JavaTransport): Promise<JavaError> => {
      const outcome = await javaConnect(acceptor, transport).then(
        () => null,
        (error: unknown) => error,
      );
      if (!(outcome instanceof JavaError))
        throw new Error(`the Java client connected to ${acceptor}: ${String(outcome)}`);
      return outcome;
    };

    /** HornetQ 2.4.7's createConnection when no connection came up: the same whatever went wrong. */
    const expectNotConnected = (error: JavaError): void => {
      expect(error.javaClass).toBe('javax.jms.JMSException');
      expect(error.info.cause?.class).toBe('org.hornetq.api.core.HornetQNotConnectedException');
    };

    /**
     * HornetQ 2.4.7's Java client speaks TLS through Netty 4.0.13, which predates TLS 1.3. Under
     * Java 17 its TLS 1.3 handshake with an OpenSSL server (ours, Node's) fails: Java's client
     * answers the ServerHello at once with a compatibility-mode change_cipher_spec, and Netty
     * 4.0.13 mishandles the rest of the server's flight when it came in the same read, as
     * OpenSSL sends it ("SSLException: Tag mismatch", or a handshake timeout; Java's own SSLSocket
     * and -Djdk.tls.client.useCompatibilityMode=false both work). And a TLS 1.3 handshake that a
     * JDK server refuses fails only at Netty's 10 s handshake timeout (or, refused a client
     * certificate, at the 30 s call timeout). So the Java client's scenarios run on TLS 1.2, asked
     * by the acceptor (enabled-protocols, as a broker serving such clients would) or by the client;
     * one, against our broker, runs TLS 1.3 with the compatibility mode off.
     */
    const TLS_1_2: JavaTransport = { 'enabled-protocols': 'TLSv1.2' };
    const COMPATIBILITY_MODE = 'jdk.tls.client.useCompatibilityMode';

    describe('TLS', () => {
      test('our client over TLS, trusting the test CA through a PEM bundle, sends and receives', async () => {
        const bundle = { 'trust-store-path': files().certs.caBundlePem };
        await nodeRoundTrip(
          await nodeConnect(nodeConnector('trusted', bundle)),
          QUEUES.nodeOverTls,
          'over TLS',
        );
        // The IP address is in the certificate too: verify-host checks it against the IP SANs.
        await nodeRoundTrip(
          await nodeConnect(nodeConnector('trusted', { ...bundle, host: '127.0.0.1' })),
          QUEUES.nodeOverTls,
          'over TLS by IP',
        );
      });

      test('our client refuses a certificate from a CA it does not trust, saying why', async () => {
        const error = await nodeRefusal(nodeConnector('untrusted'));
        expect(error).toBeInstanceOf(JMSException);
        expect((error as JMSException).errorCode).toBe('TLS_VERIFICATION_FAILED');
        expect(error.message).toMatch(
          /TLS connection to localhost:\d+ failed: unable to verify the first certificate \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/,
        );
      });

      test('our client refuses a certificate for another host while verify-host is on (the default)', async () => {
        const error = await nodeRefusal(nodeConnector('otherHost'));
        expect(error).toBeInstanceOf(JMSException);
        expect((error as JMSException).errorCode).toBe('TLS_VERIFICATION_FAILED');
        expect(error.message).toMatch(
          /TLS connection to localhost:\d+ failed: .*localhost.* is not in the cert's altnames: DNS:other\.example \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
        );
        // Only the host name was wrong: the chain leads to the CA, so without verify-host it connects.
        await nodeConnect(nodeConnector('otherHost', { 'verify-host': false }));
      });

      test('our client in plain TCP on a TLS port is told TLS_REQUIRED, not a vanished broker', async () => {
        const port = context.server().tlsPort(ACCEPTORS.trusted.name);
        const error = await nodeRefusal({ host: '127.0.0.1', port });
        expect(error).toBeInstanceOf(JMSException);
        expect((error as JMSException).errorCode).toBe('TLS_REQUIRED');
        expect(error.message).toContain(`connect with tls://127.0.0.1:${port}`);
      });

      test('need-client-auth: our client without a certificate is refused; with a PKCS#12 or PEM key store it works', async () => {
        const error = await nodeRefusal(nodeConnector('clientAuth'));
        expect(error).toBeInstanceOf(JMSException);
        expect(error.message).toMatch(CLIENT_CERTIFICATE_REFUSAL[context.kind]);
        const p12 = await nodeConnect(
          nodeConnector('clientAuth', {
            'key-store-path': files().certs.clientP12,
            'key-store-password': files().certs.password,
          }),
        );
        await nodeRoundTrip(p12, QUEUES.clientAuth, 'client certificate from PKCS#12');
        const pem = await nodeConnect(
          nodeConnector('clientAuth', { 'key-store-path': files().certs.clientPem }),
        );
        await nodeRoundTrip(pem, QUEUES.clientAuth, 'client certificate from PEM');
      });

      test('the Java client with a PKCS#12 trust store, to an acceptor on TLS 1.2, and our client over TLS: each gets what the other sent', async () => {
        const java = context.java();
        const connection = await javaConnect('tls12', javaTransport());
        await java.start(connection);
        const session = await java.createSession(connection);
        await java.send(session, queueRef(QUEUES.javaOverTls), {
          class: 'TextMessage',
          body: 'from Java over TLS',
        });
        const ours = await nodeConnect(nodeConnector('tls12'));
        const nodeSession = await ours.createSession(false, Session.AUTO_ACKNOWLEDGE);
        const consumer = await nodeSession.createConsumer(new HornetQQueue(QUEUES.javaOverTls));
        expect(textOf(await consumer.receive(RECEIVE_MS))).toBe('from Java over TLS');
        // Closed first, or its buffer would take the answer too.
        await consumer.close();
        const producer = await nodeSession.createProducer(new HornetQQueue(QUEUES.javaOverTls));
        await producer.send(nodeSession.createTextMessage('from us over TLS'));
        const javaConsumer = await java.createConsumer(session, queueRef(QUEUES.javaOverTls));
        expect((await java.receive(javaConsumer, RECEIVE_MS))?.body).toBe('from us over TLS');
        await java.closeConnection(connection);
      });

      test('the Java client refuses a certificate from a CA it does not trust', async () => {
        // The same client settings reach the trusted acceptor: only the certificate is refused.
        await context.java().closeConnection(await javaConnect('trusted', javaTransport(TLS_1_2)));
        expectNotConnected(await javaRefusal('untrusted', javaTransport(TLS_1_2)));
      });

      test('need-client-auth: the Java client without a key store is refused; with a PKCS#12 one it works', async () => {
        const java = context.java();
        expectNotConnected(await javaRefusal('clientAuth', javaTransport(TLS_1_2)));
        const connection = await javaConnect(
          'clientAuth',
          javaTransport({
            ...TLS_1_2,
            'key-store-path': files().certs.clientP12,
            'key-store-password': files().certs.password,
          }),
        );
        await java.start(connection);
        const session = await java.createSession(connection);
        await java.send(session, queueRef(QUEUES.javaClientAuth), {
          class: 'TextMessage',
          body: 'Java with a certificate',
        });
        const consumer = await java.createConsumer(session, queueRef(QUEUES.javaClientAuth));
        expect((await java.receive(consumer, RECEIVE_MS))?.body).toBe('Java with a certificate');
        await java.closeConnection(connection);
      });

      // Against our broker only: the TLS 1.3 workaround is for OpenSSL servers, and the
      // trust-store-provider is the Java client's own affair (here its refusal costs no timeout).
      if (context.kind === 'ours') {
        test("the Java client on TLS 1.3 to our broker, with Java's TLS 1.3 compatibility mode off", async () => {
          const java = await JmsDriver.start({ [COMPATIBILITY_MODE]: 'false' });
          try {
            const connection = await java.connect({
              host: 'localhost',
              port: context.server().tlsPort(ACCEPTORS.trusted.name),
              transport: javaTransport({ 'enabled-protocols': 'TLSv1.3' }),
            });
            await java.start(connection);
            const session = await java.createSession(connection);
            await java.send(session, queueRef(QUEUES.javaTls13), { class: 'TextMessage', body: 'TLS 1.3' });
            const consumer = await java.createConsumer(session, queueRef(QUEUES.javaTls13));
            expect((await java.receive(consumer, RECEIVE_MS))?.body).toBe('TLS 1.3');
          } finally {
            await java.close();
          }
        });

        test('HornetQ 2.4.7 reads no trust store file unless trust-store-provider is JKS (the default): PKCS12 trusts nothing', async () => {
          const pkcs12Provider = javaTransport({ ...TLS_1_2, 'trust-store-provider': 'PKCS12' });
          expectNotConnected(await javaRefusal('trusted', pkcs12Provider));
        });
      }
    });
  },
};
