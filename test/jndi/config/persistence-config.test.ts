import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Broker, ClientSessionFactory, CoreMessage, EmbeddedJMS } from '../../../src';
import { brokerConfigurationOf } from '../../../src/jndi/config/broker-configuration-from-xml';
import { parseJmsConfiguration } from '../../../src/jndi/config/jms-config-parser';
import { parseServerConfiguration } from '../../../src/jndi/config/server-config-parser';
import { silentLogger } from '../../../src/core/remoting';
import { resolvedPersistence } from '../../../src/server/broker-configuration';
import { DEFAULT_PERSISTENCE_CONFIGURATION } from '../../../src/server/storage/persistence-configuration';
import { captureLogger, tempDir } from '../support';

/** hornetq-configuration.xml's persistence elements configure the broker's journal. */

const SERVER_FILE = 'hornetq-configuration.xml';
const JMS_FILE = 'hornetq-jms.xml';

function brokerConfig(body: string, env: Record<string, string> = {}, dataDirectory = '/srv/hornetq') {
  const server = parseServerConfiguration(
    `<configuration xmlns="urn:hornetq">\n<security-enabled>false</security-enabled>\n${body}\n</configuration>`,
    SERVER_FILE,
    { env },
  );
  const jms = parseJmsConfiguration('<configuration xmlns="urn:hornetq"/>', JMS_FILE, { env, server });
  return {
    server,
    config: brokerConfigurationOf(server, jms, { storage: null, dataDirectory }, silentLogger),
  };
}

test('each persistence element sets its setting; relative directories resolve against the data directory', () => {
  const { server, config } = brokerConfig(`<persistence-enabled>true</persistence-enabled>
<journal-directory>\${data.dir:../data}/journal</journal-directory>
<bindings-directory>/var/lib/hornetq/bindings</bindings-directory>
<large-messages-directory>big</large-messages-directory>
<create-journal-dir>false</create-journal-dir>
<journal-file-size>1048576</journal-file-size>
<journal-min-files>4</journal-min-files>
<journal-sync-transactional>false</journal-sync-transactional>
<journal-sync-non-transactional>false</journal-sync-non-transactional>
<journal-buffer-timeout>1000000</journal-buffer-timeout>
<journal-compact-min-files>3</journal-compact-min-files>
<journal-compact-percentage>50</journal-compact-percentage>
<skip-corrupt-records>true</skip-corrupt-records>`);
  expect(server.warnings).toEqual([]);
  expect(config).toMatchObject({
    persistenceEnabled: true,
    dataDirectory: '/srv/hornetq',
    journalFileSize: 1_048_576,
    journalMinFiles: 4,
    createJournalDir: false,
    journalSyncTransactional: false,
    journalSyncNonTransactional: false,
    journalBufferTimeout: 1_000_000,
    journalCompactMinFiles: 3,
    journalCompactPercentage: 50,
    skipCorruptRecords: true,
  });
  expect(config).not.toHaveProperty('storage');
  expect(resolvedPersistence(config)).toMatchObject({
    journalDirectory: '/srv/data/journal',
    bindingsDirectory: '/var/lib/hornetq/bindings',
    largeMessagesDirectory: '/srv/hornetq/big',
    // Absent: HornetQ's default, under the data directory.
    pagingDirectory: path.join('/srv/hornetq', DEFAULT_PERSISTENCE_CONFIGURATION.pagingDirectory),
  });
});

test('${data.dir} from the environment (as hornetq server --data-dir sets it) places the directories', () => {
  const { config } = brokerConfig('<journal-directory>${data.dir:../data}/journal</journal-directory>', {
    'data.dir': '/data/broker-1',
  });
  expect(resolvedPersistence(config).journalDirectory).toBe('/data/broker-1/journal');
});

test('without persistence elements: persistence on, HornetQ defaults', () => {
  const { config } = brokerConfig('');
  expect(config).toMatchObject({ persistenceEnabled: true, ...DEFAULT_PERSISTENCE_CONFIGURATION });
});

test('an element HornetQ has and the journal does not use is accepted with a warning saying why', () => {
  const { server } = brokerConfig('<journal-type>ASYNCIO</journal-type>');
  expect(server.warnings.map((w) => w.message)).toEqual([
    expect.stringMatching(/^<journal-type> is not used here: the journal writes through node:fs/),
  ]);
});

test("a value out of the journal's range is refused naming the setting, its element, the value and the range", () => {
  const { config } = brokerConfig('<journal-min-files>1</journal-min-files>');
  expect(() => new Broker(config)).toThrow(
    'journalMinFiles (journal-min-files) must be an integer in 2..10000 (actual value: 1)',
  );
});

test('EmbeddedJMS keeps a persistent message in the journal under its data directory, across a stop and start', async () => {
  const { dir, remove } = await tempDir();
  try {
    await fs.writeFile(
      path.join(dir, 'hornetq-configuration.xml'),
      `<configuration xmlns="urn:hornetq">
  <security-enabled>false</security-enabled>
  <journal-file-size>131072</journal-file-size>
  <acceptors><acceptor name="netty"><factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class><param key="host" value="127.0.0.1"/><param key="port" value="0"/></acceptor></acceptors>
</configuration>`,
    );
    await fs.writeFile(
      path.join(dir, 'hornetq-jms.xml'),
      '<configuration xmlns="urn:hornetq"><queue name="Orders"><entry name="/queue/Orders"/></queue></configuration>',
    );
    const logger = captureLogger();
    const first = new EmbeddedJMS({ configDir: dir, dataDirectory: dir, env: {}, logger });
    await first.start();
    expect(await fs.readdir(path.join(dir, 'data'))).toEqual(expect.arrayContaining(['bindings', 'journal']));
    const factory = await ClientSessionFactory.connect({
      connectors: [{ host: '127.0.0.1', port: first.getPort() }],
    });
    try {
      const session = await factory.createSession();
      const message = new CoreMessage();
      message.durable = true;
      await session.createProducer('jms.queue.Orders').send(message);
    } finally {
      await factory.close();
    }
    await first.stop();

    const second = new EmbeddedJMS({ configDir: dir, dataDirectory: dir, env: {}, logger });
    await second.start();
    try {
      expect(second.getQueueInfo('Orders')).toMatchObject({ durable: true, messageCount: 1 });
    } finally {
      await second.stop();
    }
  } finally {
    await remove();
  }
});
