import { useTestBrokers } from '../../support/test-broker';
import { lines, runCli, useCli } from '../support';

/**
 * `hornetq queue stat` against a broker whose statistics no longer fit one frame: the answer comes
 * in pages, so the command lists every queue instead of failing for everyone.
 */
describe('hornetq queue stat with 100 000 queues', () => {
  useCli();
  const brokers = useTestBrokers();

  test('lists every queue', async () => {
    const broker = await brokers.startBroker({ maxQueues: 200_000 });
    const padding = 'p'.repeat(60);
    for (let i = 0; i < 100_000; i++) {
      const name = `jms.queue.${padding}-${i}`;
      broker.postOffice.createQueue({ name, address: name, filter: null, durable: false, temporary: false });
    }

    const result = await runCli(
      ['queue', 'stat', '--host', '127.0.0.1', '--port', String(broker.getPort())],
      60_000,
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [header, ...rows] = lines(result.stdout);
    expect(header).toMatch(/^QUEUE\s+JMS NAME\s+ADDRESS\s+MESSAGES/);
    expect(rows).toHaveLength(100_000);
    expect(rows.filter((row) => row.startsWith(`jms.queue.${padding}-99999 `))).toHaveLength(1);
  }, 120_000);
});
