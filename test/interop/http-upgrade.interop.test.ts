import net from 'node:net';
import {
  Broker,
  ClientSessionFactory,
  HornetQConnectionFactory,
  HornetQQueue,
  selectorFilterFactory,
  Session,
  type TextMessage,
} from '../../src';
import { CapturingLogger } from '../support/test-broker';
import { freePort } from './support/free-port';
import { InteropServer } from './support/interop-server';
import { makeInteropTlsFiles, type InteropTlsFiles } from './support/interop-tls-files';
import { JavaError, JmsDriver, type DestinationRef } from './support/jms-driver';
import { ourBrokerConfiguration } from './support/our-interop-broker';

/**
 * HornetQ 2.4.7's own Java client with http-upgrade-enabled against our broker's upgrade acceptor
 * (as it would reach WildFly's http-acceptor on the web port), our client on the same acceptor,
 * and what the Java client writes, read off the wire by a recording relay.
 */

const QUEUE: DestinationRef = { type: 'queue', name: 'upgrade' };
const ACCEPTOR = 'http-acceptor';
const TLS_ACCEPTOR = 'https-acceptor';
const RECEIVE_MS = 20_000;
/** Enough of the client's first bytes for the request head and the preamble after it. */
const RECORDED_BYTES = 4096;

/** A relay to `targetPort` that keeps the first bytes each client sent. */
class RecordingRelay {
  readonly firstBytes: Buffer[] = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<RecordingRelay> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const relay = new RecordingRelay(server, (server.address() as net.AddressInfo).port);
    server.on('connection', (client) => relay.relay(client, targetPort));
    return relay;
  }

  private relay(client: net.Socket, targetPort: number): void {
    const index = this.firstBytes.push(Buffer.alloc(0)) - 1;
    const target = net.connect({ host: '127.0.0.1', port: targetPort });
    for (const socket of [client, target]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        target.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      const kept = this.firstBytes[index] as Buffer;
      if (kept.length < RECORDED_BYTES) {
        this.firstBytes[index] = Buffer.concat([kept, chunk]).subarray(0, RECORDED_BYTES);
      }
    });
    client.pipe(target);
    target.pipe(client);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe("HTTP upgrade: HornetQ 2.4.7's Java client and ours, against our broker's upgrade acceptor", () => {
  let broker: Broker;
  let relay: RecordingRelay;
  let java: JmsDriver;
  let upgradePort: number;
  let tlsUpgradePort: number;
  let tlsFiles: InteropTlsFiles;
  const logger = new CapturingLogger();

  beforeAll(async () => {
    tlsFiles = makeInteropTlsFiles();
    const port = await freePort();
    upgradePort = await freePort();
    tlsUpgradePort = await freePort();
    const base = ourBrokerConfiguration(port, { queues: [QUEUE.name] });
    broker = new Broker(
      {
        ...base,
        acceptors: [
          ...(base.acceptors ?? []),
          { name: ACCEPTOR, type: 'tcp', host: '127.0.0.1', port: upgradePort, httpUpgrade: {} },
          {
            name: TLS_ACCEPTOR,
            type: 'tcp',
            host: '127.0.0.1',
            port: tlsUpgradePort,
            httpUpgrade: {},
            // TLS 1.2, as the TLS scenarios give HornetQ 2.4.7's client.
            tls: {
              keyStorePath: tlsFiles.serverKeyStores.trusted,
              keyStorePassword: tlsFiles.certs.password,
              needClientAuth: false,
              handshakeTimeout: 10_000,
              enabledProtocols: ['TLSv1.2'],
            },
          },
        ],
        logger,
      },
      selectorFilterFactory,
    );
    await broker.start();
    relay = await RecordingRelay.start(upgradePort);
    java = await JmsDriver.start();
  });

  afterAll(async () => {
    await java?.close();
    await relay?.close();
    await broker?.stop();
    tlsFiles?.remove();
  });

  test('the Java client upgrades as HornetQ 2.4 does: GET /, hornetq-remoting, its key, the endpoint; then HORNETQ', async () => {
    const connection = await java.connect({
      port: relay.port,
      transport: { 'http-upgrade-enabled': true, 'http-upgrade-endpoint': ACCEPTOR },
    });
    await java.closeConnection(connection);
    const recorded = relay.firstBytes[0] as Buffer;
    const end = recorded.indexOf('\r\n\r\n');
    expect(end).toBeGreaterThan(0);
    const lines = recorded.toString('latin1', 0, end).split('\r\n');
    expect(lines[0]).toBe('GET / HTTP/1.1');
    const headers = new Map(
      lines
        .slice(1)
        .map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
    );
    // Host without the port, as Netty 4.0.13 writes HornetQ's (ours adds the port, as RFC 9110 asks).
    expect(headers.get('host')).toBe('127.0.0.1');
    expect(headers.get('upgrade')).toBe('hornetq-remoting');
    expect(headers.get('connection')?.toLowerCase()).toBe('upgrade');
    expect(headers.get('http-upgrade-endpoint')).toBe(ACCEPTOR);
    expect(Buffer.from(headers.get('sec-hornetqremoting-key') ?? '', 'base64')).toHaveLength(16);
    expect(recorded.toString('latin1', end + 4, end + 11)).toBe('HORNETQ');
  });

  test('messages go both ways between the Java client and ours, each upgraded on the same acceptor', async () => {
    const connection = await java.connect({
      port: upgradePort,
      transport: { 'http-upgrade-enabled': true, 'http-upgrade-endpoint': ACCEPTOR },
    });
    const session = await java.createSession(connection);
    await java.send(session, QUEUE, { body: 'from java' }, { count: 20, sequenceProperty: 'seq' });

    const ours = new HornetQConnectionFactory({
      host: '127.0.0.1',
      port: upgradePort,
      'http-upgrade-enabled': true,
      'http-upgrade-endpoint': ACCEPTOR,
    });
    const node = await ours.createConnection();
    try {
      const nodeSession = await node.createSession(false, Session.AUTO_ACKNOWLEDGE);
      const queue = new HornetQQueue(QUEUE.name);
      const consumer = await nodeSession.createConsumer(queue);
      await node.start();
      const bodies: string[] = [];
      for (let i = 0; i < 20; i++) {
        const message = (await consumer.receive(RECEIVE_MS)) as TextMessage | null;
        bodies.push(`${message?.getText() ?? 'nothing'} ${message?.getIntProperty('seq') ?? -1}`);
      }
      expect(bodies).toEqual(Array.from({ length: 20 }, (_, i) => `from java ${i}`));
      await consumer.close();
      const producer = await nodeSession.createProducer(queue);
      await producer.send(nodeSession.createTextMessage('from node'));
    } finally {
      await node.close();
    }

    const javaConsumer = await java.createConsumer(session, QUEUE);
    await java.start(connection);
    expect((await java.receive(javaConsumer, RECEIVE_MS))?.body).toBe('from node');
    await java.closeConnection(connection);
  });

  test('over TLS: the Java client upgrades inside TLS, and our client reads what it sent', async () => {
    const connection = await java.connect({
      host: 'localhost',
      port: tlsUpgradePort,
      transport: {
        'ssl-enabled': true,
        'trust-store-path': tlsFiles.caTrustStore,
        'trust-store-password': tlsFiles.certs.password,
        'http-upgrade-enabled': true,
        'http-upgrade-endpoint': TLS_ACCEPTOR,
      },
    });
    const session = await java.createSession(connection);
    await java.send(session, QUEUE, { body: 'from java over TLS' });
    const ours = new HornetQConnectionFactory({
      host: 'localhost',
      port: tlsUpgradePort,
      'ssl-enabled': true,
      'trust-store-path': tlsFiles.certs.caPem,
      'http-upgrade-enabled': true,
      'http-upgrade-endpoint': TLS_ACCEPTOR,
    });
    const node = await ours.createConnection();
    try {
      const consumer = await (
        await node.createSession(false, Session.AUTO_ACKNOWLEDGE)
      ).createConsumer(new HornetQQueue(QUEUE.name));
      await node.start();
      expect(((await consumer.receive(RECEIVE_MS)) as TextMessage | null)?.getText()).toBe(
        'from java over TLS',
      );
    } finally {
      await node.close();
    }
    await java.closeConnection(connection);
  });

  test('an endpoint that is not this acceptor: the Java client cannot connect, and the broker says why', async () => {
    const refused = await java
      .connect({
        port: upgradePort,
        factory: { reconnectAttempts: 0, initialConnectAttempts: 1 },
        transport: { 'http-upgrade-enabled': true, 'http-upgrade-endpoint': 'elsewhere' },
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(JavaError);
    expect(
      logger.find(/acceptor 'http-acceptor': closing connection from .*endpoint "elsewhere"/, ['warn']),
    ).toHaveLength(1);
  });
});

/**
 * A standalone Artemis 2.40.0 takes no HTTP upgrade to core: its netty acceptor with
 * httpUpgradeEnabled binds nothing (a web container hands it the upgraded channel, as WildFly
 * does), and a plain one answers 'activemq-remoting' with 403 and drops a 'hornetq-remoting'
 * request unanswered (ProtocolHandler). So our client upgrades against WildFly or our broker, not
 * against Artemis alone; this pins down what it meets there.
 */
describe("HTTP upgrade against a standalone Artemis 2.40.0's acceptor", () => {
  let artemis: InteropServer;

  beforeAll(async () => {
    artemis = await InteropServer.start('artemis');
  });

  afterAll(async () => {
    await artemis?.stop();
  });

  test("Artemis' own spelling is answered 403 Forbidden, and the connection closed", async () => {
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port: artemis.port }, () =>
        socket.write(
          'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: activemq-remoting\r\nConnection: Upgrade\r\n' +
            'Sec-ActiveMQRemoting-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
        ),
      );
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(received));
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 403 Forbidden');
  });

  test("our client's upgrade (HornetQ's spelling) goes unanswered: it fails at its connect timeout, saying so", async () => {
    const outcome = await ClientSessionFactory.connect({
      connectors: [
        {
          host: '127.0.0.1',
          port: artemis.port,
          'http-upgrade-enabled': true,
          'connect-timeout-millis': 2_000,
        },
      ],
      reconnectAttempts: 0,
    }).then(
      async (factory) => {
        await factory.close();
        return 'connected';
      },
      (error: unknown) => String(error instanceof Error ? error.message : error),
    );
    expect(outcome).toMatch(
      /HTTP upgrade at tcp:\/\/127\.0\.0\.1:\d+ failed: no answer within the connect timeout \(2000 ms\)/,
    );
  });
});
