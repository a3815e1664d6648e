import { promises as fs } from 'node:fs';
import path from 'node:path';
import { HornetQConnectionFactory, InitialContext } from '../../src';
import { captureLogger, JMS_HEAD, tempDir } from './support';

/**
 * InitialContext.load's logger: the configuration's warnings go to it (and nowhere without one:
 * see test/jms/logger-option.test.ts, which checks stderr in a child process), and the factories
 * it binds log their connections' warnings to the same logger.
 */

let dir: string;
let remove: () => Promise<void>;

beforeEach(async () => {
  ({ dir, remove } = await tempDir());
  await fs.writeFile(
    path.join(dir, 'hornetq-configuration.xml'),
    '<configuration xmlns="urn:hornetq"><jmx-management-enabled>true</jmx-management-enabled>' +
      '<connectors><connector name="netty"><factory-class>' +
      'org.hornetq.core.remoting.impl.netty.NettyConnectorFactory</factory-class></connector></connectors>' +
      '</configuration>',
  );
  await fs.writeFile(
    path.join(dir, 'hornetq-jms.xml'),
    `${JMS_HEAD}<connection-factory name="CF"><connectors><connector-ref connector-name="netty"/></connectors>` +
      '<entries><entry name="/CF"/></entries></connection-factory></configuration>',
  );
});
afterEach(() => remove());

test("the configuration's warnings go to the logger given", async () => {
  const logger = captureLogger();
  const context = await InitialContext.load({ configDir: dir, env: {}, logger });
  await context.close();
  expect(logger.warnings).toEqual([expect.stringContaining('jmx-management-enabled')]);
});

test('a factory the context binds logs to the same logger', async () => {
  const logger = captureLogger();
  await using context = await InitialContext.load({ configDir: dir, env: {}, logger });
  expect(context.lookup('/CF', HornetQConnectionFactory).getLogger()).toBe(logger);
});

test('a logger without the level methods is refused, naming what it lacks', async () => {
  const half = { warn: () => undefined, error: () => undefined };
  await expect(InitialContext.load({ configDir: dir, env: {}, logger: half as never })).rejects.toThrow(
    /InitialContext\.load: logger lacks the method\(s\) debug, info, child/,
  );
});
