import net from 'node:net';
import {
  ClientSessionFactory,
  type Broker,
  type TcpAcceptorConfiguration,
  type TransportConfiguration,
} from '../../src';
import { FrameDecoder, PacketType, decodeFrame, encodePacket, type Frame } from '../../src/core/protocol';
import { upgradeAcceptKey } from '../../src/core/remoting/http-upgrade';
import { createSessionPacket, HORNETQ_PREAMBLE } from '../support/raw-client';
import { CapturingLogger, sequenced, seqOf, useTestBrokers, waitFor } from '../support/test-broker';
import { makeTestCertificates, type TestCertificates } from '../support/test-certificates';

const HOST = '127.0.0.1';
const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

/**
 * Our client and our broker over HTTP upgrade connectors (http-upgrade-enabled), as WildFly and
 * EAP 7 expose messaging on their web port: the client upgrades, then both speak core on the socket.
 */
describe('HTTP upgrade between our client and our broker', () => {
  const env = useTestBrokers();
  let certs: TestCertificates;
  beforeAll(() => {
    certs = makeTestCertificates();
  });
  afterAll(() => certs.remove());

  const upgradeBroker = (
    acceptor: Partial<TcpAcceptorConfiguration> = {},
    logger = new CapturingLogger(),
  ): Promise<Broker> =>
    env.startBroker({
      logger,
      acceptors: [{ name: 'web', type: 'tcp', host: HOST, port: 0, httpUpgrade: {}, ...acceptor }],
    });

  const connect = async (
    broker: Broker,
    connector: TransportConfiguration = {},
  ): Promise<ClientSessionFactory> =>
    env.track(
      await ClientSessionFactory.connect({
        connectors: [{ host: HOST, port: broker.getPort(), 'http-upgrade-enabled': true, ...connector }],
        callTimeout: 5_000,
        reconnectAttempts: 0,
      }),
    );

  const failureOf = (promise: Promise<unknown>): Promise<string> =>
    promise.then(
      () => 'connected',
      (error: unknown) => String(error instanceof Error ? error.message : error),
    );

  let queues = 0;
  const roundTrip = async (factory: ClientSessionFactory): Promise<void> => {
    const session = await factory.createSession();
    const queue = `upgrade.q${++queues}`;
    await session.createQueue(queue, queue, { durable: false });
    await session.createProducer(queue).send(sequenced(7));
    const consumer = await session.createConsumer(queue);
    session.start();
    const received = await consumer.receive(5_000);
    expect(received === null ? null : seqOf(received)).toBe(7);
    await received?.acknowledge();
    await session.close();
  };

  test('the client upgrades, then a message goes through on the same socket', async () => {
    await roundTrip(await connect(await upgradeBroker()));
  });

  test('over TLS: the upgrade inside TLS, then core', async () => {
    const broker = await upgradeBroker({
      tls: { keyStorePath: certs.serverPem, needClientAuth: false, handshakeTimeout: 10_000 },
    });
    await roundTrip(
      await connect(broker, { host: 'localhost', 'ssl-enabled': true, 'trust-store-path': certs.caPem }),
    );
  });

  test("the endpoint named is the acceptor's: its own name is taken, another refused with 404", async () => {
    const logger = new CapturingLogger();
    const broker = await upgradeBroker({}, logger);
    await roundTrip(await connect(broker, { 'http-upgrade-endpoint': 'web' }));
    const refused = await failureOf(connect(broker, { 'http-upgrade-endpoint': 'other' }));
    expect(refused).toContain(`tcp://${HOST}:${broker.getPort()}`);
    expect(refused).toContain(
      `HTTP upgrade at tcp://${HOST}:${broker.getPort()} (http-upgrade-endpoint 'other') failed: it refused the HTTP upgrade to hornetq-remoting: "HTTP/1.1 404 Not Found"`,
    );
    await waitFor(
      () => logger.find(/closing connection from .*endpoint "other"/, ['warn']).length === 1,
      'the log line',
    );
  });

  test("Artemis' names, as WildFly announces its http-connector in a topology (httpUpgradeEnabled as text too), upgrade as well", async () => {
    const broker = await upgradeBroker();
    for (const enabled of [true, 'true']) {
      await roundTrip(
        await connect(broker, {
          'http-upgrade-enabled': false,
          httpUpgradeEnabled: enabled,
          httpUpgradeEndpoint: 'web',
        }),
      );
    }
  });

  test('a client without http-upgrade-enabled is refused at once, and the broker says why', async () => {
    const logger = new CapturingLogger();
    const broker = await upgradeBroker({}, logger);
    const refused = await failureOf(
      connect(broker, { 'http-upgrade-enabled': false }).then((f) => f.createSession()),
    );
    expect(refused).not.toBe('connected');
    await waitFor(
      () =>
        logger.find(/acceptor 'web': closing connection from .*where an HTTP head was expected/, ['warn'])
          .length === 1,
      'the log line',
    );
  });

  test('an upgrading client against a plain acceptor: no 101, and the broker closes as for any bad input', async () => {
    const logger = new CapturingLogger();
    const broker = await env.startBroker({
      logger,
      acceptors: [{ name: 'plain', type: 'tcp', host: HOST, port: 0 }],
    });
    expect(await failureOf(connect(broker))).toMatch(
      /HTTP upgrade at .* failed: it closed the connection without answering/,
    );
    await waitFor(() => logger.find(/closing connection \d+ from /, ['warn']).length === 1, 'the log line');
  });

  /** Writes `request` raw; resolves with the answer's head, what followed it, and whether the broker closed. */
  function exchange(
    port: number,
    request: string | Buffer,
  ): Promise<{ head: string; rest: Buffer; closed: boolean }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: HOST, port }, () => socket.write(request));
      let gathered = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        gathered = Buffer.concat([gathered, chunk]);
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        const end = gathered.indexOf('\r\n\r\n');
        if (end === -1) reject(new Error(`closed after ${JSON.stringify(gathered.toString('latin1'))}`));
        else
          resolve({
            head: gathered.toString('latin1', 0, end),
            rest: gathered.subarray(end + 4),
            closed: true,
          });
      });
      env.track({ close: () => socket.destroy() });
    });
  }

  const request = (lines: string[]): string => `${lines.join('\r\n')}\r\n\r\n`;
  const good = [
    'GET / HTTP/1.1',
    `Host: ${HOST}`,
    'Upgrade: hornetq-remoting',
    'Connection: Upgrade',
    `Sec-HornetQRemoting-Key: ${KEY}`,
  ];
  const without = (prefix: string): string[] => good.filter((line) => !line.startsWith(prefix));

  test.each([
    [
      'POST',
      request(['POST / HTTP/1.1', ...good.slice(1)]),
      '405 Method Not Allowed',
      /is a GET, not "POST"/,
    ],
    ['HTTP/1.0', request(['GET / HTTP/1.0', ...good.slice(1)]), '400 Bad Request', /needs HTTP\/1.1/],
    ['no Upgrade', request(without('Upgrade')), '426 Upgrade Required', /without Upgrade/],
    [
      'websocket',
      request([...without('Upgrade'), 'Upgrade: websocket']),
      '426 Upgrade Required',
      /"websocket" is neither/,
    ],
    [
      'no Connection: Upgrade',
      request(without('Connection')),
      '400 Bad Request',
      /without Connection: Upgrade/,
    ],
    ['no key', request(without('Sec-')), '400 Bad Request', /without Sec-HornetQRemoting-Key/],
    ['a body', request([...good, 'Content-Length: 5']), '400 Bad Request', /with a body/],
    ['a malformed header', request([...good, 'no colon here']), '400 Bad Request', /malformed header line/],
    [
      'endless headers',
      `${good.join('\r\n')}\r\nX: ${'x'.repeat(9000)}`,
      '431 Request Header Fields Too Large',
      /beyond 8192 bytes/,
    ],
    [
      'core frames',
      Buffer.concat([HORNETQ_PREAMBLE, encodePacket(1, createSessionPacket())]),
      '400 Bad Request',
      /byte 0x00/,
    ],
  ])('%s: answered with an HTTP error, closed, and logged', async (_what, bytes, status, reason) => {
    const logger = new CapturingLogger();
    const broker = await upgradeBroker({}, logger);
    const answer = await exchange(broker.getPort(), bytes);
    expect(answer.head.split('\r\n')[0]).toBe(`HTTP/1.1 ${status}`);
    expect(answer.closed).toBe(true);
    await waitFor(() => logger.find(reason, ['warn']).length === 1, 'the log line');
    expect(logger.find(/acceptor 'web': closing connection from 127\.0\.0\.1:\d+: /, ['warn'])).toHaveLength(
      1,
    );
  });

  test('a request that does not come whole in time: 408, closed', async () => {
    const logger = new CapturingLogger();
    const broker = await upgradeBroker({ httpUpgrade: { timeoutMs: 300 } }, logger);
    const answer = await exchange(broker.getPort(), 'GET / HTTP/1.1\r\n');
    expect(answer.head.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(logger.find(/no whole HTTP upgrade request within 300 ms/, ['warn'])).toHaveLength(1);
  });

  test('a client that resets mid-request costs only its socket: the next one upgrades', async () => {
    const broker = await upgradeBroker();
    await new Promise<void>((resolve) => {
      const socket = net.connect({ host: HOST, port: broker.getPort() }, () => {
        // The reset after the broker has read the start: its next read fails with ECONNRESET.
        socket.write('GET / HTTP/1.1\r\nUpgrade: hornetq-', () =>
          setTimeout(() => {
            socket.resetAndDestroy();
            resolve();
          }, 50),
        );
      });
      socket.on('error', () => undefined);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await roundTrip(await connect(broker));
  });

  test("a connector's http-upgrade-enabled must be a boolean: 'true' as text is refused, naming it", async () => {
    const broker = await upgradeBroker();
    // As a JavaScript caller (or a JSON file) may write it.
    const connector = {
      host: HOST,
      port: broker.getPort(),
      'http-upgrade-enabled': 'true',
    } as unknown as TransportConfiguration;
    expect(await failureOf(ClientSessionFactory.connect({ connectors: [connector] }))).toContain(
      `connector tcp://${HOST}:${broker.getPort()}: http-upgrade-enabled must be true or false (actual value: "true")`,
    );
  });

  test("Artemis' spelling (activemq-remoting) is taken too, and core pipelined after the request is read", async () => {
    const broker = await upgradeBroker();
    const frames: Frame[] = [];
    const decoder = new FrameDecoder(1024 * 1024);
    let head = '';
    let gathered = Buffer.alloc(0);
    const socket = net.connect({ host: HOST, port: broker.getPort() }, () =>
      socket.write(
        Buffer.concat([
          Buffer.from(
            request([
              'GET / HTTP/1.1',
              `Host: ${HOST}`,
              'Upgrade: activemq-remoting',
              'Connection: keep-alive, Upgrade',
              `Sec-ActiveMQRemoting-Key: ${KEY}`,
              'httpUpgradeEndpoint: web',
            ]),
          ),
          HORNETQ_PREAMBLE,
          encodePacket(1, createSessionPacket()),
        ]),
      ),
    );
    env.track({ close: () => socket.destroy() });
    socket.on('data', (chunk: Buffer) => {
      if (head !== '') {
        decoder.feed(chunk, (frame) => frames.push(decodeFrame(frame)));
        return;
      }
      gathered = Buffer.concat([gathered, chunk]);
      const end = gathered.indexOf('\r\n\r\n');
      if (end === -1) return;
      head = gathered.toString('latin1', 0, end);
      decoder.feed(gathered.subarray(end + 4), (frame) => frames.push(decodeFrame(frame)));
    });
    await waitFor(
      () => frames.some((frame) => frame.packet.type === PacketType.CREATESESSION_RESP),
      'the session',
    );
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 101 Switching Protocols');
    expect(lines).toContain('Upgrade: activemq-remoting');
    expect(lines).toContain(`Sec-ActiveMQRemoting-Accept: ${upgradeAcceptKey(KEY)}`);
  });
});
