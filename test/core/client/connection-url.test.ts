import {
  CONNECTION_URL_PARAMS,
  maskConnectionUrl,
  parseConnectionUrl,
} from '../../../src/core/client/connection-url';

/** The error parseConnectionUrl throws for `url`, as its message. */
function refusal(url: string): string {
  try {
    parseConnectionUrl(url);
  } catch (error) {
    expect((error as { code?: string }).code).toBe('ERR_INVALID_ARG_VALUE');
    return (error as Error).message;
  }
  throw new Error(`${url} was accepted`);
}

describe('parseConnectionUrl: address', () => {
  test('tcp://host:port is a plain connector; the port defaults to 5445', () => {
    expect(parseConnectionUrl('tcp://broker.example:6000')).toEqual({
      connector: { host: 'broker.example', port: 6000 },
      settings: {},
    });
    expect(parseConnectionUrl('tcp://localhost').connector).toEqual({ host: 'localhost', port: 5445 });
  });

  test('tls:// turns TLS on; an IPv6 address goes in brackets', () => {
    expect(parseConnectionUrl('tls://[::1]:5446').connector).toEqual({
      host: '::1',
      port: 5446,
      'ssl-enabled': true,
    });
    expect(parseConnectionUrl('TLS://[::1]').connector).toEqual({
      host: '::1',
      port: 5445,
      'ssl-enabled': true,
    });
  });

  test.each([
    ['localhost:5445', 'no scheme: write tcp://localhost:5445 or tls://localhost:5445 (at position 0)'],
    ['http://localhost:5445', "scheme 'http' is not tcp or tls (at position 0)"],
    ['tcp://:5445', 'no host: write tcp://host:port (at position 6)'],
    ['tcp://localhost:99999', "port '99999' is not a number from 1 to 65535 (at position 16)"],
    ['tcp://localhost:0', "port '0' is not a number from 1 to 65535 (at position 16)"],
    ['tcp://localhost:abc', "port 'abc' is not a number from 1 to 65535 (at position 16)"],
    [
      'tcp://localhost:5445/queue',
      'nothing may follow host:port but a ?query (no path, no #fragment) (at position 20)',
    ],
    [
      'tcp://localhost#x',
      'nothing may follow host:port but a ?query (no path, no #fragment) (at position 15)',
    ],
    ['tcp://[::1:5445', "an IPv6 address in [ ] has no ']' (at position 6)"],
    ['tcp://[::1]5445', "expected ':port' after ']' (at position 11)"],
  ])('%s is refused: %s', (url, problem) => {
    expect(refusal(url)).toBe(`connection URL ${url}: ${problem}`);
  });

  test('credentials in the URL are refused without repeating the password', () => {
    const message = refusal('tcp://bob:s3cret@localhost:5445');
    expect(message).toBe(
      'connection URL tcp://bob:***@localhost:5445: credentials do not go in the URL (give the user and password to createConnection) (at position 6)',
    );
  });
});

describe('parseConnectionUrl: parameters', () => {
  test("Artemis' spelling: TLS stores, HA and reconnection", () => {
    const parsed = parseConnectionUrl(
      'tcp://h:5446?sslEnabled=true&trustStorePath=/etc/ca.pem&trustStorePassword=x&keyStorePath=/etc/me.p12' +
        '&keyStorePassword=y&keyPath=/etc/me.key&enabledProtocols=TLSv1.2,TLSv1.3&enabledCipherSuites=ECDHE-RSA-AES128-GCM-SHA256' +
        '&verifyHost=false&httpUpgradeEnabled=true&httpUpgradeEndpoint=acceptor&connectTimeoutMillis=1500' +
        '&ha=true&reconnectAttempts=-1&connectionTTL=30000',
    );
    expect(parsed).toEqual({
      connector: {
        host: 'h',
        port: 5446,
        'ssl-enabled': true,
        'trust-store-path': '/etc/ca.pem',
        'trust-store-password': 'x',
        'key-store-path': '/etc/me.p12',
        'key-store-password': 'y',
        'key-path': '/etc/me.key',
        'enabled-protocols': 'TLSv1.2,TLSv1.3',
        'enabled-cipher-suites': 'ECDHE-RSA-AES128-GCM-SHA256',
        'verify-host': false,
        'http-upgrade-enabled': true,
        'http-upgrade-endpoint': 'acceptor',
        'connect-timeout-millis': 1500,
      },
      settings: { ha: true, reconnectAttempts: -1, connectionTTL: 30000 },
    });
  });

  test("HornetQ's names: the connector's params and hornetq-jms.xml's elements", () => {
    const parsed = parseConnectionUrl(
      'tcp://h?ssl-enabled=true&trust-store-path=%2Ftmp%2Fca%20bundle.pem&verify-host=true&connect-timeout-millis=10' +
        '&reconnect-attempts=5&retry-interval=100&retry-interval-multiplier=1.5&max-retry-interval=4000&retry-jitter=0.2' +
        '&initial-connect-attempts=3&failover-on-initial-connection=true&connection-ttl=-1&client-failure-check-period=1000' +
        '&call-timeout=5000&call-failover-timeout=-1&confirmation-window-size=1048576&consumer-window-size=0' +
        '&consumer-max-rate=-1&producer-window-size=65536&producer-max-rate=100&min-large-message-size=2048' +
        '&block-on-acknowledge=true&block-on-durable-send=false&block-on-non-durable-send=true&pre-acknowledge=false' +
        '&duplicate-id-on-durable-send=true&ha=false',
    );
    expect(parsed.connector).toEqual({
      host: 'h',
      port: 5445,
      'ssl-enabled': true,
      'trust-store-path': '/tmp/ca bundle.pem',
      'verify-host': true,
      'connect-timeout-millis': 10,
    });
    expect(parsed.settings).toEqual({
      reconnectAttempts: 5,
      retryInterval: 100,
      retryIntervalMultiplier: 1.5,
      maxRetryInterval: 4000,
      retryJitter: 0.2,
      initialConnectAttempts: 3,
      failoverOnInitialConnection: true,
      connectionTTL: -1,
      clientFailureCheckPeriod: 1000,
      callTimeout: 5000,
      callFailoverTimeout: -1,
      confirmationWindowSize: 1048576,
      consumerWindowSize: 0,
      consumerMaxRate: -1,
      producerWindowSize: 65536,
      producerMaxRate: 100,
      minLargeMessageSize: 2048,
      blockOnAcknowledge: true,
      blockOnDurableSend: false,
      blockOnNonDurableSend: true,
      preAcknowledge: false,
      duplicateIdOnDurableSend: true,
      ha: false,
    });
  });

  test('every parameter name the parser lists is accepted with a value of its kind', () => {
    const values = ['true', '1', 'text'];
    for (const name of CONNECTION_URL_PARAMS) {
      const accepted = values.some((value) => {
        try {
          parseConnectionUrl(`tcp://h?${name}=${value}`);
          return true;
        } catch {
          return false;
        }
      });
      expect([name, accepted]).toEqual([name, true]);
    }
  });

  test('connectionTtl is a third spelling of the TTL', () => {
    expect(parseConnectionUrl('tcp://h?connectionTtl=5000').settings).toEqual({ connectionTTL: 5000 });
  });

  test.each([
    ['tcp://h:1?bogus=1', "unknown parameter 'bogus' (known: "],
    ['tcp://h:1?ha=yes', "parameter 'ha' must be true or false, not 'yes' (at position 10)"],
    ['tcp://h:1?ha=true&ha=false', "parameter 'ha' sets what 'ha' already set (at position 18)"],
    [
      'tcp://h:1?sslEnabled=true&ssl-enabled=true',
      "parameter 'ssl-enabled' sets what 'sslEnabled' already set (at position 26)",
    ],
    [
      'tcp://h:1?reconnectAttempts',
      "parameter 'reconnectAttempts' has no value (write reconnectAttempts=VALUE) (at position 10)",
    ],
    [
      'tcp://h:1?reconnectAttempts=x',
      "parameter 'reconnectAttempts' must be an integer, not 'x' (at position 10)",
    ],
    [
      'tcp://h:1?reconnectAttempts=-2',
      "parameter 'reconnectAttempts': reconnectAttempts must be -1 or an integer from 0 to 2147483647 (actual value: -2) (at position 10)",
    ],
    [
      'tcp://h:1?connectionTTL=0',
      "parameter 'connectionTTL': connectionTTL must be -1 or an integer from 1 to 2147483647 (actual value: 0) (at position 10)",
    ],
    [
      'tcp://h:1?retryIntervalMultiplier=fast',
      "parameter 'retryIntervalMultiplier' must be a number, not 'fast'",
    ],
    [
      'tcp://h:1?connectTimeoutMillis=0',
      "parameter 'connectTimeoutMillis': connect-timeout-millis must be 1..2147483647 (actual value: 0) (at position 10)",
    ],
    ['tcp://h:1?trustStorePath=', "parameter 'trustStorePath' is empty (at position 10)"],
    ['tcp://h:1?trustStorePath=%zz', "'%zz' is not valid percent-encoding (at position 10)"],
    [
      'tls://h:1?sslEnabled=false',
      'tls:// with ssl-enabled false: use tcp:// for a plain connection (at position 0)',
    ],
  ])('%s is refused: %s', (url, problem) => {
    expect(refusal(url)).toContain(problem);
  });

  test('a bad password value is not repeated, and the URL in the error is masked', () => {
    const message = refusal('tcp://h:1?keyStorePassword=hunter2&bogus=1');
    expect(message).toContain('connection URL tcp://h:1?keyStorePassword=***&bogus=1: unknown parameter');
    expect(message).not.toContain('hunter2');
  });
});

describe('maskConnectionUrl', () => {
  test('hides every password, in either spelling, and keeps the rest', () => {
    expect(
      maskConnectionUrl(
        'tls://h:1?trustStorePath=/ca.pem&trustStorePassword=a&key-store-password=b&keyStorePassword=c%26d&ha=true',
      ),
    ).toBe(
      'tls://h:1?trustStorePath=/ca.pem&trustStorePassword=***&key-store-password=***&keyStorePassword=***&ha=true',
    );
    expect(maskConnectionUrl('tcp://u:p@h:1')).toBe('tcp://u:***@h:1');
    expect(maskConnectionUrl('tcp://h:1?ha=true')).toBe('tcp://h:1?ha=true');
  });
});
