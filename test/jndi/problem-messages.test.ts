import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ConfigurationException, EmbeddedJMS, type ConfigurationProblem } from '../../src';
import { BindingRegistry } from '../../src/jndi/binding-registry';
import { formatProblem } from '../../src/jndi/configuration-exception';
import { loadJmsConfiguration, parseJmsConfiguration } from '../../src/jndi/config/jms-config-parser';
import {
  loadServerConfiguration,
  parseServerConfiguration,
} from '../../src/jndi/config/server-config-parser';
import { JmsDeployment } from '../../src/jndi/jms-deployment';
import { captureLogger } from './support';

const EXAMPLES = path.resolve(__dirname, '../fixtures/hornetq-examples');
/** HornetQ's examples run under Maven, which gives them build.directory (unset, it is an error here). */
const MAVEN_ENV = { 'build.directory': 'target' };

function thrown(run: () => unknown): ConfigurationException {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigurationException) return error;
    throw error;
  }
  throw new Error('expected a ConfigurationException');
}

/** A problem shown alone says where: a message about an element starts with it, and says it once. */
function expectSaysWhere(problem: ConfigurationProblem): void {
  if (problem.element === null) return;
  const tag = `<${problem.element}> `;
  expect(problem.message.startsWith(tag)).toBe(true);
  expect(formatProblem(problem)).not.toContain(`${tag}${tag}`);
}

const JMS_ERRORS = `<configuration xmlns="urn:hornetq">
  <connection-factory name="cf" signature="both" bogus="1">
    <connectors><connector-ref connector-name="netty"/><connector-ref/></connectors>
    <entries><entry name="cf"/><entry name="/cf"/></entries>
    <confirmation-window-size>0</confirmation-window-size>
    <call-timeout>2147483648</call-timeout>
    <call-timeout>1</call-timeout>
    <ha>perhaps</ha>
    <retry-interval><x/></retry-interval>
  </connection-factory>
  <connection-factory name="none"/>
  <queue name="q"><durable>true</durable><entry name="q"/><selector string="a ="/></queue>
  <queue name="q"><entry name="q2"/></queue>
  <topic name="t"/>
  <jmx-domain>x</jmx-domain>
  <destination/>
</configuration>`;

const SERVER_ERRORS = `<configuration xmlns="urn:hornetq">
  <id-cache-size>0</id-cache-size>
  <journal-type>AIO</journal-type>
  <connectors>
    <connector name="c"><factory-class>org.apache.Netty</factory-class></connector>
    <connector name="d"><factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class>
      <param key="port" value="70000"/><param key="prot" value="1"/></connector>
    <connector name="d"><factory-class>org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class></connector>
  </connectors>
  <acceptors></acceptors>
  <address-settings>
    <address-setting match="#"><max-size-bytes>-2</max-size-bytes></address-setting>
    <address-setting match="#"/>
  </address-settings>
  <security-settings>
    <security-setting match="#"><permission type="fly" roles="guest"/></security-setting>
  </security-settings>
  <queues><queue name="q"><filter string="x ="/></queue></queues>
  <discovery-groups><discovery-group/></discovery-groups>
  <ha-policy/>
</configuration>`;

describe('each configuration problem names its element in its message', () => {
  test('the example of the issue', () => {
    const error = thrown(() => parseJmsConfiguration(JMS_ERRORS, 'hornetq-jms.xml', { env: {} }));
    expect(error.problems).toContainEqual({
      file: 'hornetq-jms.xml',
      line: 5,
      element: 'confirmation-window-size',
      message: '<confirmation-window-size> must be -1 or an integer from 1 to 2147483647 (actual value: 0)',
    });
    expect(error.message.split('\n')).toContain(
      'hornetq-jms.xml:5: <confirmation-window-size> must be -1 or an integer from 1 to 2147483647 (actual value: 0)',
    );
  });

  test('every error in a hornetq-jms.xml with many', () => {
    const error = thrown(() => parseJmsConfiguration(JMS_ERRORS, 'hornetq-jms.xml', { env: {} }));
    expect(error.problems.length).toBeGreaterThanOrEqual(15);
    expect(error.problems.filter((p) => p.element === null)).toEqual([]);
    error.problems.forEach(expectSaysWhere);
  });

  test('every error in a hornetq-configuration.xml with many', () => {
    const error = thrown(() =>
      parseServerConfiguration(SERVER_ERRORS, 'hornetq-configuration.xml', { env: {} }),
    );
    expect(error.problems.length).toBeGreaterThan(12);
    expect(error.problems.filter((p) => p.element === null)).toEqual([]);
    error.problems.forEach(expectSaysWhere);
  });

  test('every warning about HornetQ example files, both kinds', async () => {
    const files = (await fs.readdir(EXAMPLES)).filter((name) => name.endsWith('.xml'));
    const warnings: ConfigurationProblem[] = [];
    for (const name of files) {
      const file = path.join(EXAMPLES, name);
      const config = name.endsWith('-hornetq-jms.xml')
        ? await loadJmsConfiguration(file, { env: MAVEN_ENV })
        : await loadServerConfiguration(file, { env: MAVEN_ENV });
      warnings.push(...config.warnings);
    }
    // 40 at the last count: fewer than before since ha, shared-store and cluster-connections work.
    expect(warnings.filter((w) => w.element !== null).length).toBeGreaterThan(30);
    warnings.forEach(expectSaysWhere);
    expect(warnings.map((w) => w.message)).toContain(
      '<xa> XA is not implemented: the factory is bound as a non-XA HornetQConnectionFactory',
    );
  });

  test('an entry that cannot be bound, and an acceptor whose key store is missing', async () => {
    const registry = new BindingRegistry();
    registry.bind('queue/taken', 'someone else');
    const config = parseJmsConfiguration(
      '<configuration xmlns="urn:hornetq">\n  <queue name="q"><entry name="queue/taken"/></queue>\n</configuration>',
      'hornetq-jms.xml',
      { env: {} },
    );
    const bind = thrown(() => new JmsDeployment(registry, 'hornetq-jms.xml').apply(config));
    expect(bind.problems).toEqual([
      {
        file: 'hornetq-jms.xml',
        line: 2,
        element: 'entry',
        message: '<entry> queue/taken cannot be bound for queue:q: queue/taken is already bound',
      },
    ]);
    const jms = new EmbeddedJMS({
      jmsConfig: path.join(EXAMPLES, 'ssl-enabled-hornetq-jms.xml'),
      serverConfig: path.join(EXAMPLES, 'ssl-enabled-hornetq-configuration.xml'),
      // The example's users are not among the fixtures: the key store is what this is about.
      securityEnabled: false,
      env: MAVEN_ENV,
      logger: captureLogger(),
    });
    const tls = await jms.start().then(
      () => null,
      (error: unknown) => error,
    );
    expect(tls).toBeInstanceOf(ConfigurationException);
    const [refusal] = (tls as ConfigurationException).problems;
    expect(refusal?.element).toBe('acceptor');
    // HornetQ's example names a JKS store beside its own tree: not here, and said at the <acceptor>.
    expect(refusal?.line).toBe(29);
    expect(refusal?.message).toMatch(
      /^<acceptor> acceptor 'netty-ssl-acceptor': key-store-path '.*hornetq\/server0\/hornetq\.example\.keystore' does not exist$/,
    );
  });
});
