import { Command } from 'commander';
import type { QueueStats } from '../../core/protocol';
import type { HornetQConnection } from '../../jms';
import { addConnectionOptions, connect, type ConnectionOptions } from '../shared/connection';
import { table } from '../shared/output';
import { Registry } from '../shared/registry';

interface StatOptions extends ConnectionOptions {
  json?: boolean;
}

export function queueCommand(): Command {
  const stat = new Command('stat')
    .description('every queue on the broker: messages, consumers, delivering, added, acknowledged')
    .option('--json', 'one JSON object per queue, with every counter the broker keeps');
  return new Command('queue')
    .description('look at the queues of a running broker')
    .addCommand(addConnectionOptions(stat).action(async (options: StatOptions) => queueStat(options)));
}

async function queueStat(options: StatOptions): Promise<void> {
  const registry = new Registry(options.config);
  let connection: HornetQConnection | null = null;
  try {
    ({ connection } = await connect(options, registry));
    const session = await connection.createSession(false);
    const queues = (await session.core.queueStats()).sort((a, b) => a.name.localeCompare(b.name));
    if (options.json === true) {
      for (const queue of queues) console.log(JSON.stringify(queue));
      return;
    }
    console.log(table(COLUMNS, queues.map(row)));
  } finally {
    await connection?.close();
    await registry.close();
  }
}

const COLUMNS = ['QUEUE', 'ADDRESS', 'MESSAGES', 'CONSUMERS', 'DELIVERING', 'ADDED', 'ACKNOWLEDGED'];

function row(queue: QueueStats): Array<string | number> {
  const name = queue.temporary ? `${queue.name} (temporary)` : queue.name;
  return [
    name,
    queue.address,
    queue.messageCount,
    queue.consumerCount,
    queue.deliveringCount,
    queue.messagesAdded,
    queue.messagesAcknowledged,
  ];
}
