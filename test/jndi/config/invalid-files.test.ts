import { ConfigurationException, type ServerConfiguration } from '../../../src';
import { MAX_CONFIG_BYTES } from '../../../src/jndi/xml/safe-xml-parser';
import { parseJmsConfiguration } from '../../../src/jndi/config/jms-config-parser';
import { parseServerConfiguration } from '../../../src/jndi/config/server-config-parser';

const FILE = 'hornetq-jms.xml';

/** What parsing `source` throws (a test fails if it does not throw a ConfigurationException). */
function failure(parse: () => unknown): ConfigurationException {
  try {
    parse();
  } catch (error) {
    if (error instanceof ConfigurationException) return error;
    throw error;
  }
  throw new Error('expected a ConfigurationException');
}

const jms = (source: string, server: ServerConfiguration | null = null): ConfigurationException =>
  failure(() => parseJmsConfiguration(source, FILE, { env: {}, server }));
const core = (source: string): ConfigurationException =>
  failure(() => parseServerConfiguration(source, 'hornetq-configuration.xml', { env: {} }));

/** A factory whose line 5 is `element` (any extra lines shift nothing above it). */
const factoryWith = (element: string): string => `<configuration xmlns="urn:hornetq">
  <connection-factory name="cf">
    <connectors><connector-ref connector-name="netty"/></connectors>
    <entries><entry name="cf"/></entries>
    ${element}
  </connection-factory>
</configuration>`;

const LONG = (v: string): string => `requires a valid Long value, but '${v}' cannot be parsed as a Long`;
const INT = (v: string): string =>
  `requires a valid Integer value, but '${v}' cannot be parsed as an Integer`;

/** Every value element of <connection-factory>, a value HornetQ refuses, and what it says. */
const FACTORY_CASES: Array<[string, string, string]> = [
  ['client-failure-check-period', '0', 'must be -1 or an integer from 1 to 2147483647 (actual value: 0)'],
  ['client-failure-check-period', 'soon', LONG('soon')],
  ['connection-ttl', '-2', 'must be -1 or an integer from 1 to 2147483647 (actual value: -2)'],
  // HornetQ's file took 0, which has the broker drop the connection at its next check.
  ['connection-ttl', '0', 'must be -1 or an integer from 1 to 2147483647 (actual value: 0)'],
  ['call-timeout', '-1', 'must be an integer from 0 to 2147483647 (actual value: -1)'],
  ['call-timeout', '2147483648', 'must be an integer from 0 to 2147483647 (actual value: 2147483648)'],
  ['call-failover-timeout', '0', 'must be -1 or an integer from 1 to 2147483647 (actual value: 0)'],
  ['consumer-window-size', '-2', 'must be -1 or an integer from 0 to 2147483647 (actual value: -2)'],
  ['consumer-window-size', '1.5', INT('1.5')],
  ['consumer-window-size', '2147483648', INT('2147483648')],
  ['consumer-max-rate', '0', 'must be -1 or an integer from 1 to 2147483647 (actual value: 0)'],
  ['confirmation-window-size', '0', 'must be -1 or an integer from 1 to 2147483647 (actual value: 0)'],
  ['producer-window-size', '0', 'must be -1 or an integer from 1 to 2147483647 (actual value: 0)'],
  ['producer-max-rate', '-5', 'must be -1 or an integer from 1 to 2147483647 (actual value: -5)'],
  ['cache-large-message-client', 'yes', "must be true or false (actual value: 'yes')"],
  ['min-large-message-size', '0', 'must be an integer from 1 to 2147483647 (actual value: 0)'],
  ['compress-large-messages', 'TRUE', "must be true or false (actual value: 'TRUE')"],
  ['dups-ok-batch-size', '0', 'must be an integer from 1 to 2147483647 (actual value: 0)'],
  ['transaction-batch-size', '-1', 'must be an integer from 1 to 2147483647 (actual value: -1)'],
  ['block-on-acknowledge', 'on', "must be true or false (actual value: 'on')"],
  ['block-on-non-durable-send', '2', "must be true or false (actual value: '2')"],
  ['block-on-durable-send', '', "must be true or false (actual value: '')"],
  ['auto-group', 'no', "must be true or false (actual value: 'no')"],
  ['pre-acknowledge', 'x', "must be true or false (actual value: 'x')"],
  ['retry-interval', '0', 'must be an integer from 1 to 2147483647 (actual value: 0)'],
  ['retry-interval-multiplier', '0', 'must be a number greater than 0 (actual value: 0)'],
  [
    'retry-interval-multiplier',
    'fast',
    "requires a valid Double value, but 'fast' cannot be parsed as a Double",
  ],
  ['max-retry-interval', '-1', 'must be an integer from 1 to 2147483647 (actual value: -1)'],
  ['reconnect-attempts', '-2', 'must be -1 or an integer from 0 to 2147483647 (actual value: -2)'],
  ['failover-on-initial-connection', 'maybe', "must be true or false (actual value: 'maybe')"],
  ['failover-on-server-shutdown', 'maybe', "must be true or false (actual value: 'maybe')"],
  ['connection-load-balancing-policy-class-name', ' ', "must be a non-empty string (actual value: '')"],
  ['use-global-pools', 'maybe', "must be true or false (actual value: 'maybe')"],
  ['scheduled-thread-pool-max-size', '0', 'must be -1 or an integer from 1 to 2147483647 (actual value: 0)'],
  ['thread-pool-max-size', '0', 'must be -1 or an integer from 1 to 2147483647 (actual value: 0)'],
  ['ha', 'maybe', "must be true or false (actual value: 'maybe')"],
  ['xa', 'maybe', "must be true or false (actual value: 'maybe')"],
];

describe('hornetq-jms.xml: a bad value for every validated element', () => {
  test.each(FACTORY_CASES)('<%s>%s</…>', (element, value, message) => {
    const error = jms(factoryWith(`<${element}>${value}</${element}>`));
    expect(error.problems).toEqual([{ file: FILE, line: 5, element, message: `<${element}> ${message}` }]);
    expect(error.message).toBe(`${FILE}:5: <${element}> ${message}`);
    expect([error.file, error.line, error.element]).toEqual([FILE, 5, element]);
  });

  test('the contract example reads as documented', () => {
    expect(jms(factoryWith('<confirmation-window-size>0</confirmation-window-size>')).message).toBe(
      'hornetq-jms.xml:5: <confirmation-window-size> must be -1 or an integer from 1 to 2147483647 (actual value: 0)',
    );
  });

  test('a value element holding elements, a bad signature, a queue without entries', () => {
    expect(jms(factoryWith('<call-timeout><x/></call-timeout>')).problems[0]).toMatchObject({
      line: 5,
      element: 'call-timeout',
      message: '<call-timeout> holds a value, not elements (found <x>)',
    });
    const signature = jms(factoryWith('').replace('name="cf"', 'name="cf" signature="both"'));
    expect(signature.problems[0]).toMatchObject({
      line: 2,
      message:
        '<connection-factory> Invalid signature both parsing Connection Factory (expected generic, queue or topic)',
    });
    const queue = jms(
      '<configuration xmlns="urn:hornetq">\n  <queue name="q"><durable>false</durable></queue>\n</configuration>',
    );
    expect(queue.problems).toEqual([
      { file: FILE, line: 2, element: 'queue', message: '<queue> needs at least one <entry>' },
    ]);
  });

  test('an invalid selector and a queue sequence out of order', () => {
    const error = jms(`<configuration xmlns="urn:hornetq">
  <queue name="q">
    <entry name="a"/>
    <selector string="color = "/>
    <durable>true</durable>
    <entry name="b"/>
  </queue>
</configuration>`);
    expect(error.problems.map((p) => [p.line, p.element])).toEqual([
      [6, 'entry'],
      [4, 'selector'],
    ]);
    expect(error.problems[0]?.message).toBe(
      '<entry> must come before <durable> in <queue> (order: entry, selector, durable)',
    );
    expect(error.problems[1]?.message).toMatch(/^<selector> is not a valid selector: /);
  });
});

describe('hornetq-jms.xml: structure', () => {
  test('a misspelt element gets the name it most likely meant instead of the whole list', () => {
    const error = jms(factoryWith('<confirmation-window-sze>5</confirmation-window-sze>'));
    expect(error.message).toBe(
      'hornetq-jms.xml:5: <confirmation-window-sze> is not allowed in <connection-factory>: did you mean <confirmation-window-size>?',
    );
    // A short name suggests only for a one-letter slip; a different word still lists every name.
    expect(jms('<configuration xmlns="urn:hornetq">\n  <topc name="t"/>\n</configuration>').message).toBe(
      'hornetq-jms.xml:2: <topc> is not allowed in <configuration>: did you mean <topic>?',
    );
    expect(jms('<configuration xmlns="urn:hornetq">\n  <tpc name="t"/>\n</configuration>').message).toMatch(
      /<tpc> is not allowed in <configuration> \(expected one of: /,
    );
  });

  test('a misspelt attribute gets the name it most likely meant; another word lists them all', () => {
    const misspelt = jms(factoryWith('<ha>true</ha>').replace('connector-name=', 'conector-name='));
    expect(misspelt.problems[0]?.message).toBe(
      "<connector-ref> has an unknown attribute 'conector-name': did you mean 'connector-name'?",
    );
    // One mistake, one problem: not also "requires the attribute 'connector-name'".
    expect(misspelt.message).toBe(
      "hornetq-jms.xml:3: <connector-ref> has an unknown attribute 'conector-name': did you mean 'connector-name'?",
    );
    expect(
      jms('<configuration xmlns="urn:hornetq">\n  <queue nme="q"/>\n</configuration>').problems[0]?.message,
    ).toBe("<queue> has an unknown attribute 'nme': did you mean 'name'?");
    expect(
      jms('<configuration xmlns="urn:hornetq">\n  <queue label="q"/>\n</configuration>').problems[0]?.message,
    ).toBe("<queue> has an unknown attribute 'label' (expected: name)");
    // A name already there is not suggested again.
    expect(
      jms('<configuration xmlns="urn:hornetq">\n  <queue name="q" nme="q"/>\n</configuration>').problems[0]
        ?.message,
    ).toBe("<queue> has an unknown attribute 'nme' (expected: name)");
    expect(jms('<configuration xmln="urn:hornetq">\n</configuration>').problems[0]?.message).toBe(
      "<configuration> has an unknown attribute 'xmln': did you mean 'xmlns'?",
    );
    const server = core(`<configuration xmlns="urn:hornetq">
  <security-settings>
    <security-setting match="#"><permission type="send" role="user"/></security-setting>
  </security-settings>
</configuration>`);
    expect(server.message).toMatch(
      /^hornetq-configuration\.xml:3: <permission> has an unknown attribute 'role': did you mean 'roles'\?$/m,
    );
  });

  test('an unknown element is an error naming it, its line and what was expected', () => {
    const error = jms(factoryWith('<confirmation-window>5</confirmation-window>'));
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ line: 5, element: 'confirmation-window' });
    expect(error.problems[0]?.message).toMatch(
      /^<confirmation-window> is not allowed in <connection-factory> \(expected one of: connectors, discovery-group-ref, entries, client-failure-check-period, /,
    );
    const root = jms('<configuration xmlns="urn:hornetq">\n\n  <destination name="x"/>\n</configuration>');
    expect(root.message).toBe(
      'hornetq-jms.xml:3: <destination> is not allowed in <configuration> (expected one of: jmx-domain, connection-factory, queue, topic)',
    );
  });

  test('a wrong nesting: <entry> directly in <connection-factory>, <connector-ref> in <entries>', () => {
    const error = jms(`<configuration xmlns="urn:hornetq">
  <connection-factory name="cf">
    <connectors><connector-ref connector-name="netty"/></connectors>
    <entry name="cf"/>
    <entries><connector-ref connector-name="netty"/></entries>
  </connection-factory>
</configuration>`);
    expect(error.problems.map((p) => [p.line, p.element])).toEqual([
      [4, 'entry'],
      [5, 'connector-ref'],
      [5, 'entries'],
    ]);
    expect(error.problems[0]?.message).toMatch(
      /^<entry> is not allowed in <connection-factory> \(expected one of: connectors, /,
    );
    expect(error.problems[1]?.message).toBe(
      '<connector-ref> is not allowed in <entries> (expected one of: entry)',
    );
    expect(error.problems[2]?.message).toBe('<entries> needs at least one <entry> in <entries>');
  });

  test('the order of hornetq-jms.xsd: factories before queues and topics', () => {
    const error = jms(`<configuration xmlns="urn:hornetq">
  <queue name="q"><entry name="q"/></queue>
  <connection-factory name="cf">
    <connectors><connector-ref connector-name="netty"/></connectors>
  </connection-factory>
</configuration>`);
    expect(error.problems).toEqual([
      {
        file: FILE,
        line: 3,
        element: 'connection-factory',
        message:
          '<connection-factory> must come before every <queue> and <topic> (found after <queue> at line 2)',
      },
    ]);
  });

  test('a missing connector, a missing discovery group, a factory with neither', () => {
    const server = parseServerConfiguration(
      `<configuration xmlns="urn:hornetq"><security-enabled>false</security-enabled><connectors>
  <connector name="netty"><factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class></connector>
</connectors></configuration>`,
      'hornetq-configuration.xml',
    );
    const error = jms(
      `<configuration xmlns="urn:hornetq">
  <connection-factory name="a">
    <connectors><connector-ref connector-name="netty"/><connector-ref connector-name="nety"/></connectors>
  </connection-factory>
  <connection-factory name="b">
    <discovery-group-ref discovery-group-name="dg"/>
  </connection-factory>
  <connection-factory name="c"/>
</configuration>`,
      server,
    );
    expect(error.problems.map((p) => [p.line, p.element, p.message])).toEqual([
      [
        3,
        'connector-ref',
        "<connector-ref> Connector 'nety' not found on the main configuration file (hornetq-configuration.xml)",
      ],
      [6, 'discovery-group-ref', "<discovery-group-ref> Discovery Group 'dg' does not exist on main config"],
      [
        8,
        'connection-factory',
        '<connection-factory> has neither <connectors> nor <discovery-group-ref> (No Connector name configured on create ConnectionFactory)',
      ],
    ]);
  });

  test('a name bound twice in one file', () => {
    const error = jms(`<configuration xmlns="urn:hornetq">
  <queue name="a"><entry name="/queue/x"/></queue>
  <topic name="b"><entry name="queue/x"/></topic>
</configuration>`);
    expect(error.problems).toEqual([
      {
        file: FILE,
        line: 3,
        element: 'entry',
        message: '<entry> queue/x already has an object bound (by <queue name="a"> at line 2)',
      },
    ]);
  });

  test('several errors are reported at once, in file order', () => {
    const error = jms(`<configuration xmlns="urn:hornetq">
  <connection-factory name="cf">
    <connectors><connector-ref connector-name="netty"/></connectors>
    <call-timeout>-5</call-timeout>
    <ha>perhaps</ha>
    <retry-interval>0</retry-interval>
  </connection-factory>
  <queue name="q"><entry name="q"/><durable>sometimes</durable></queue>
  <bogus/>
</configuration>`);
    expect(error.problems.map((p) => [p.line, p.element])).toEqual([
      [9, 'bogus'],
      [4, 'call-timeout'],
      [5, 'ha'],
      [6, 'retry-interval'],
      [8, 'durable'],
    ]);
    expect(error.message.split('\n')).toHaveLength(5);
  });
});

describe('safe parsing', () => {
  test('malformed XML names the line', () => {
    const error = jms(
      '<configuration xmlns="urn:hornetq">\n  <queue name="q">\n    <entry name="q">\n  </queue>\n</configuration>',
    );
    expect(error.problems).toHaveLength(1);
    expect(error.line).toBe(4);
    expect(error.message).toMatch(/^hornetq-jms\.xml:4: malformed XML: Expected closing tag 'entry'/);
    expect(
      jms('<configuration xmlns="urn:hornetq"><queue name="q" name="r"/></configuration>').message,
    ).toMatch(/malformed XML: Attribute 'name' is repeated/);
    expect(jms('').message).toMatch(/malformed XML/);
    expect(jms('<configuration xmlns="urn:hornetq"/><configuration/>').message).toMatch(/malformed XML/);
  });

  test('a DOCTYPE is refused (no DTD, no external entity) and says where', () => {
    const xxe = `<?xml version="1.0"?>
<!DOCTYPE configuration [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<configuration xmlns="urn:hornetq"><queue name="&xxe;"><entry name="q"/></queue></configuration>`;
    expect(jms(xxe).message).toBe(
      'hornetq-jms.xml:2: a DOCTYPE is not allowed in a configuration file (no DTDs, no entity declarations)',
    );
    expect(
      jms('<!-- <!DOCTYPE in a comment is harmless -->\n<!doctype configuration>\n<configuration/>').line,
    ).toBe(2);
  });

  test('an entity declaration or an undeclared entity is refused; character references are decoded', () => {
    expect(jms('<configuration xmlns="urn:hornetq">\n<!ENTITY lol "lol">\n</configuration>').message).toBe(
      'hornetq-jms.xml:2: an entity declaration is not allowed in a configuration file',
    );
    const error = jms(
      '<configuration xmlns="urn:hornetq">\n  <queue name="a&lol;b"><entry name="q"/></queue>\n</configuration>',
    );
    expect(error.problems[0]).toMatchObject({
      line: 2,
      element: 'queue',
      message:
        '<queue> unknown entity &lol;: only &lt; &gt; &amp; &quot; &apos; and character references are allowed',
    });
    const ok = parseJmsConfiguration(
      '<configuration xmlns="urn:hornetq"><queue name="a&#35;b&#x2a;&amp;&lt;"><entry name="q"/></queue></configuration>',
      FILE,
    );
    expect(ok.queues[0]?.name).toBe('a#b*&<');
  });

  test('element and attribute names never reach object prototypes', () => {
    const error = jms(`<configuration xmlns="urn:hornetq">
  <__proto__ polluted="yes"><constructor prototype="1"/></__proto__>
  <queue name="q" __proto__="x" constructor="y"><entry name="q"/></queue>
  <connection-factory name="cf"><prototype/></connection-factory>
</configuration>`);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(
      error.problems.map((p) => [p.line, p.element, p.message.slice(`<${p.element}> `.length).slice(0, 22)]),
    ).toEqual([
      [2, '__proto__', 'is not allowed in <con'],
      [4, 'connection-factory', 'must come before every'],
      [4, 'prototype', 'is not allowed in <con'],
      [4, 'connection-factory', 'has neither <connector'],
      [3, 'queue', 'has an unknown attribu'],
      [3, 'queue', 'has an unknown attribu'],
    ]);
    expect(error.problems[4]?.message).toBe("<queue> has an unknown attribute '__proto__' (expected: name)");
    expect(error.problems[5]?.message).toBe(
      "<queue> has an unknown attribute 'constructor' (expected: name)",
    );
    const addressSettings = parseServerConfiguration(
      `<configuration xmlns="urn:hornetq"><security-enabled>false</security-enabled><address-settings>
  <address-setting match="__proto__"><max-delivery-attempts>3</max-delivery-attempts></address-setting>
</address-settings></configuration>`,
      'hornetq-configuration.xml',
    ).addressSettings;
    expect(addressSettings.get('__proto__')).toEqual({ maxDeliveryAttempts: 3 });
    expect(({} as Record<string, unknown>)['maxDeliveryAttempts']).toBeUndefined();
  });

  test('size and nesting depth are bounded', () => {
    const big = `<configuration xmlns="urn:hornetq"><!--${'x'.repeat(MAX_CONFIG_BYTES)}--></configuration>`;
    expect(jms(big).message).toBe(`hornetq-jms.xml: the file is larger than ${MAX_CONFIG_BYTES} bytes`);
    const deep = `<configuration xmlns="urn:hornetq">\n${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}\n</configuration>`;
    expect(jms(deep).message).toBe('hornetq-jms.xml:2: elements are nested deeper than 32 levels');
  });

  test('the root must be <configuration> in urn:hornetq', () => {
    expect(jms('<deployment/>').message).toBe(
      'hornetq-jms.xml:1: <deployment> is not a HornetQ configuration file: its root element must be <configuration>',
    );
    expect(jms('<configuration xmlns="urn:other"/>').message).toBe(
      'hornetq-jms.xml:1: <configuration> must be in namespace urn:hornetq (actual: urn:other)',
    );
  });
});

const coreWith = (element: string): string => `<configuration xmlns="urn:hornetq">
  <security-enabled>false</security-enabled>
  ${element}
</configuration>`;

/** Values hornetq-configuration.xml refuses: top-level elements, address settings, transports, security. */
const SERVER_CASES: Array<[string, string, number, string, string]> = [
  [
    '<connection-ttl-override>0</connection-ttl-override>',
    'connection-ttl-override',
    3,
    'must be -1 or greater than 0 (actual value: 0)',
    '',
  ],
  [
    '<message-expiry-scan-period>0</message-expiry-scan-period>',
    'message-expiry-scan-period',
    3,
    'must be -1 or greater than 0 (actual value: 0)',
    '',
  ],
  ['<id-cache-size>0</id-cache-size>', 'id-cache-size', 3, 'must be greater than 0 (actual value: 0)', ''],
  [
    '<persist-id-cache>always</persist-id-cache>',
    'persist-id-cache',
    3,
    "must be true or false (actual value: 'always')",
    '',
  ],
  [
    '<persistence-enabled>1x</persistence-enabled>',
    'persistence-enabled',
    3,
    "must be true or false (actual value: '1x')",
    '',
  ],
  [
    '<journal-type>AIO</journal-type>',
    'journal-type',
    3,
    "must be one of ASYNCIO, NIO (actual value: 'AIO')",
    '',
  ],
  [
    '<journal-min-files>0</journal-min-files>',
    'journal-min-files',
    3,
    'must be greater than 0 (actual value: 0)',
    '',
  ],
  [
    '<journal-file-size>big</journal-file-size>',
    'journal-file-size',
    3,
    "requires a valid Long value, but 'big' cannot be parsed as a Long",
    '',
  ],
  [
    '<journal-compact-percentage>101</journal-compact-percentage>',
    'journal-compact-percentage',
    3,
    'must be between 0 and 100 (actual value: 101)',
    '',
  ],
  ['<journal-directory></journal-directory>', 'journal-directory', 3, 'must not be empty', ''],
  [
    '<thread-pool-max-size>0</thread-pool-max-size>',
    'thread-pool-max-size',
    3,
    'must be -1 or greater than 0 (actual value: 0)',
    '',
  ],
  [
    '<message-expiry-thread-priority>11</message-expiry-thread-priority>',
    'message-expiry-thread-priority',
    3,
    'must be between 1 and 10 (actual value: 11)',
    '',
  ],
  [
    '<address-settings>\n<address-setting match="#"><max-size-bytes>-2</max-size-bytes></address-setting></address-settings>',
    'max-size-bytes',
    4,
    'must be -1 or greater than or equal to 0 (actual value: -2)',
    '',
  ],
  [
    '<address-settings>\n<address-setting match="#"><max-size-bytes-reject-threshold>-2</max-size-bytes-reject-threshold></address-setting></address-settings>',
    'max-size-bytes-reject-threshold',
    4,
    'must be -1 or greater than or equal to 0 (actual value: -2)',
    '',
  ],
  [
    '<address-settings>\n<address-setting match="#"><address-full-policy>SPILL</address-full-policy></address-setting></address-settings>',
    'address-full-policy',
    4,
    "must be one of PAGE, DROP, BLOCK, FAIL (actual value: 'SPILL')",
    '',
  ],
  [
    '<address-settings>\n<address-setting match="#"><redelivery-delay-multiplier>0</redelivery-delay-multiplier></address-setting></address-settings>',
    'redelivery-delay-multiplier',
    4,
    'must be greater than 0 (actual value: 0)',
    '',
  ],
  [
    '<address-settings>\n<address-setting match="#"><max-delivery-attempts>-2</max-delivery-attempts></address-setting></address-settings>',
    'max-delivery-attempts',
    4,
    'must be -1 or greater than or equal to 0 (actual value: -2)',
    '',
  ],
  [
    '<address-settings>\n<address-setting match="#"><dead-letter-address> </dead-letter-address></address-setting></address-settings>',
    'dead-letter-address',
    4,
    'must not be empty',
    '',
  ],
  [
    '<address-settings>\n<address-setting match="#"><last-value-queue>x</last-value-queue></address-setting></address-settings>',
    'last-value-queue',
    4,
    "must be true or false (actual value: 'x')",
    '',
  ],
  [
    '<address-settings>\n<address-setting><redelivery-delay>1</redelivery-delay></address-setting></address-settings>',
    'address-setting',
    4,
    "requires the attribute 'match'",
    '',
  ],
  [
    '<acceptors>\n<acceptor><factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class>\n<param key="port" value="70000"/></acceptor></acceptors>',
    'param',
    5,
    "key 'port' must be between 0 and 65535 (actual value: 70000)",
    '',
  ],
  [
    '<acceptors>\n<acceptor><factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class>\n<param key="prot" value="1"/></acceptor></acceptors>',
    'param',
    5,
    'The following keys are invalid for configuring an acceptor: prot',
    '',
  ],
  [
    '<connectors>\n<connector name="c"><factory-class>org.apache.Netty</factory-class></connector></connectors>',
    'factory-class',
    4,
    "'org.apache.Netty' is not a connector factory",
    'prefix',
  ],
  [
    '<connectors>\n<connector name="c"><factory-class>org.hornetq.core.remoting.impl.invm.InVMConnectorFactory</factory-class>\n<param key="server-id" value="-1"/></connector></connectors>',
    'param',
    5,
    "key 'server-id' must be greater than or equal to 0 (actual value: -1)",
    '',
  ],
  ['<acceptors>\n</acceptors>', 'acceptors', 3, 'needs at least one <acceptor>', ''],
  [
    '<queues>\n<queue name="q"><filter string="x ="/><address>a</address></queue></queues>',
    'filter',
    4,
    'is not a valid filter',
    'prefix',
  ],
  [
    '<queues>\n<queue name="q"><durable>true</durable></queue></queues>',
    'queue',
    4,
    'requires an <address>',
    '',
  ],
  [
    '<security-settings>\n<security-setting match="#"><permission type="fly" roles="guest"/></security-setting></security-settings>',
    'permission',
    4,
    "unknown permission type 'fly'",
    'prefix',
  ],
  [
    '<security-settings>\n<security-setting match="#"><permission type="send"/></security-setting></security-settings>',
    'permission',
    4,
    "requires the attribute 'roles'",
    '',
  ],
  [
    '<security-enabled>sometimes</security-enabled>',
    'security-enabled',
    3,
    'may appear only once in <configuration> (first at line 2)',
    '',
  ],
  ['<ha-policy/>', 'ha-policy', 3, 'is not allowed in <configuration>', 'prefix'],
];

describe('hornetq-configuration.xml: a bad value for every validated element', () => {
  test.each(SERVER_CASES)('%s', (element, name, line, message, match) => {
    const error = core(coreWith(element));
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ file: 'hornetq-configuration.xml', line, element: name });
    if (match === 'prefix') expect(error.problems[0]?.message.startsWith(`<${name}> ${message}`)).toBe(true);
    else expect(error.problems[0]?.message).toBe(`<${name}> ${message}`);
  });
});
