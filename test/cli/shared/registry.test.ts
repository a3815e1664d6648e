import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Registry } from '../../../src/cli/shared/registry';
import { ConfigurationException } from '../../../src/jndi';
import { freePort, useCli, writeConfig } from '../support';

/**
 * The registry one command uses: hornetq-jms.xml (and hornetq-configuration.xml) are read once,
 * however many names the command looks up and factories it builds.
 */
describe('Registry', () => {
  useCli();
  let registry: Registry | null = null;
  afterEach(async () => {
    await registry?.close();
    registry = null;
  });

  test('reads the files once per command: every lookup after the first uses that reading', async () => {
    const port = await freePort();
    const dir = await writeConfig(port, ['orders']);
    registry = new Registry(dir);
    expect((await registry.destination('/queue/orders')).name).toBe('orders');

    // The files change (here: break) on disk while the command runs; the command is not affected.
    for (const name of ['hornetq-jms.xml', 'hornetq-configuration.xml']) {
      await fs.writeFile(path.join(dir, name), '<not-xml');
    }
    expect((await registry.destination('/queue/ExampleQueue')).name).toBe('ExampleQueue');
    const template = await registry.connectionFactory('/ConnectionFactory');
    expect(template.getStaticConnectors()).toEqual([expect.objectContaining({ host: '127.0.0.1', port })]);
    const factory = await registry.connectionFactoryWith('/ConnectionFactory', [
      { host: '127.0.0.1', port: port + 1 },
    ]);
    expect(factory.getStaticConnectors()).toEqual([{ host: '127.0.0.1', port: port + 1 }]);
    // The definition's settings, as the file said when it was read.
    expect(factory.getConfirmationWindowSize()).toBe(1_048_576);
    expect(factory.getReconnectAttempts()).toBe(-1);
    expect(factory.getRetryInterval()).toBe(1000);

    // The next command reads them again.
    await expect(new Registry(dir).list()).rejects.toBeInstanceOf(ConfigurationException);
  });
});
