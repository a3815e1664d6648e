import { connectorForEndpoint, sameServer } from '../../../src/core/client/announced-connector';
import type { TransportConfiguration } from '../../../src/core/client/connector';
import { endpointFromAnnounced } from '../../../src/core/client/topology';
import type { TransportParam } from '../../../src/core/protocol/packets';

/** An announced connector as the codec decodes it: params with HornetQ's value types. */
function announced(
  params: Array<[string, TransportParam]>,
  factoryClassName = 'org.hornetq.core.remoting.impl.netty.NettyConnectorFactory',
) {
  return endpointFromAnnounced({ name: 'netty', factoryClassName, params });
}

const s = (value: string): TransportParam => ({ type: 'string', value });
const i = (value: number): TransportParam => ({ type: 'int', value });
const b = (value: boolean): TransportParam => ({ type: 'boolean', value });

/** Our own connector: its TLS material and connect timeout are what an announced server is dialled with. */
const OWN: TransportConfiguration = {
  host: 'configured.example',
  port: 5446,
  'ssl-enabled': true,
  'trust-store-path': '/etc/ca.pem',
  'key-store-path': '/etc/client.p12',
  'key-store-password': 'secret',
  'enabled-protocols': 'TLSv1.2,TLSv1.3',
  'verify-host': false,
  'connect-timeout-millis': 1500,
};
const OWN_TLS = {
  'ssl-enabled': true,
  'trust-store-path': '/etc/ca.pem',
  'key-store-path': '/etc/client.p12',
  'key-store-password': 'secret',
  'enabled-protocols': 'TLSv1.2,TLSv1.3',
  'verify-host': false,
};

const CASES: Array<[string, Array<[string, TransportParam]>, TransportConfiguration]> = [
  [
    'host and int port',
    [
      ['host', s('live.example')],
      ['port', i(5445)],
    ],
    { host: 'live.example', port: 5445, 'connect-timeout-millis': 1500 },
  ],
  [
    'a port written as a string',
    [
      ['host', s('live.example')],
      ['port', s(' 61616 ')],
    ],
    { host: 'live.example', port: 61616, 'connect-timeout-millis': 1500 },
  ],
  [
    'no host or port: HornetQ netty defaults',
    [],
    { host: 'localhost', port: 5445, 'connect-timeout-millis': 1500 },
  ],
  [
    'a port out of range falls back to the default',
    [
      ['host', s('h')],
      ['port', i(70_000)],
    ],
    { host: 'h', port: 5445, 'connect-timeout-millis': 1500 },
  ],
  [
    'ssl-enabled true: TLS with our own stores, protocols and host check',
    [
      ['host', s('tls.example')],
      ['port', i(5500)],
      ['ssl-enabled', b(true)],
    ],
    { host: 'tls.example', port: 5500, 'connect-timeout-millis': 1500, ...OWN_TLS },
  ],
  [
    "ssl-enabled as the string 'true', and the announced stores ignored",
    [
      ['host', s('tls.example')],
      ['ssl-enabled', s('TRUE')],
      ['trust-store-path', s('/their/ca.pem')],
      ['key-store-path', s('/their/key.p12')],
    ],
    { host: 'tls.example', port: 5445, 'connect-timeout-millis': 1500, ...OWN_TLS },
  ],
  [
    'ssl-enabled false: plain TCP, no TLS keys',
    [
      ['host', s('plain.example')],
      ['ssl-enabled', b(false)],
    ],
    { host: 'plain.example', port: 5445, 'connect-timeout-millis': 1500 },
  ],
  [
    'HTTP upgrade with its endpoint',
    [
      ['host', s('wildfly.example')],
      ['port', i(8080)],
      ['http-upgrade-enabled', b(true)],
      ['http-upgrade-endpoint', s('http-acceptor')],
    ],
    {
      host: 'wildfly.example',
      port: 8080,
      'connect-timeout-millis': 1500,
      'http-upgrade-enabled': true,
      'http-upgrade-endpoint': 'http-acceptor',
    },
  ],
  [
    "Artemis' extra properties, prefixed with $.EP.",
    [
      ['$.EP.host', s('artemis.example')],
      ['$.EP.port', s('61617')],
      ['$.EP.sslEnabled', b(true)],
      ['$.EP.http-upgrade-enabled', s('true')],
    ],
    {
      host: 'artemis.example',
      port: 61617,
      'connect-timeout-millis': 1500,
      ...OWN_TLS,
      'http-upgrade-enabled': true,
    },
  ],
  [
    "Artemis' camel-case keys",
    [
      ['host', s('artemis.example')],
      ['port', i(61616)],
      ['sslEnabled', s('true')],
      ['httpUpgradeEnabled', b(true)],
      ['httpUpgradeEndpoint', s('acceptor')],
    ],
    {
      host: 'artemis.example',
      port: 61616,
      'connect-timeout-millis': 1500,
      ...OWN_TLS,
      'http-upgrade-enabled': true,
      'http-upgrade-endpoint': 'acceptor',
    },
  ],
  [
    'the plain key wins over the prefixed one',
    [
      ['host', s('plain.example')],
      ['$.EP.host', s('prefixed.example')],
    ],
    { host: 'plain.example', port: 5445, 'connect-timeout-millis': 1500 },
  ],
  ['an in-VM connector stays in-VM', [['server-id', s('3')]], { 'server-id': 3 }],
];

describe('an announced server as a connector', () => {
  it.each(CASES)('%s', (_name, params, expected) => {
    expect(connectorForEndpoint(announced(params), OWN)).toEqual(expected);
  });

  it('is never chosen by the Java factory class it names', () => {
    const params: Array<[string, TransportParam]> = [
      ['host', s('h')],
      ['port', i(1)],
    ];
    const artemis = announced(
      params,
      'org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory',
    );
    const anything = announced(params, 'com.example.Evil');
    expect(connectorForEndpoint(artemis, OWN)).toEqual(connectorForEndpoint(anything, OWN));
  });

  it('takes no TLS material from a connector without TLS', () => {
    const own = { host: 'a', port: 1 };
    expect(connectorForEndpoint(announced([['ssl-enabled', b(true)]]), own)).toEqual({
      host: 'localhost',
      port: 5445,
      'ssl-enabled': true,
    });
  });
});

describe('sameServer (HornetQ’s equivalence of netty connectors)', () => {
  it.each<[TransportConfiguration, TransportConfiguration, boolean]>([
    [{ host: 'h', port: 1 }, { host: 'h', port: 1, 'ssl-enabled': true }, true],
    [{}, { host: 'localhost', port: 5445 }, true],
    [{ host: 'h', port: 1 }, { host: 'h', port: 2 }, false],
    [{ host: '127.0.0.1', port: 1 }, { host: 'localhost', port: 1 }, false],
    [{ 'server-id': 0 }, { 'server-id': 0 }, true],
    [{ 'server-id': 0 }, { host: 'localhost', port: 5445 }, false],
  ])('%j and %j: %s', (a, b2, same) => {
    expect(sameServer(a, b2)).toBe(same);
  });
});
