import { Command } from 'commander';
import { toHornetQMessage, type HornetQConnection } from '../../jms';
import { HornetQQueue } from '../../jms/destination';
import { CliError } from '../shared/cli-error';
import { addConnectionOptions, connect, type ConnectionOptions } from '../shared/connection';
import { destinationUrl, onDestination, resolveDestination } from '../shared/destination';
import { integerIn } from '../shared/options';
import { messageSummary } from '../shared/message-summary';
import { Registry } from '../shared/registry';

interface BrowseOptions extends ConnectionOptions {
  count?: number;
  selector?: string;
  bodyWidth: number;
}

export function browseCommand(): Command {
  const command = new Command('browse')
    .argument('<queue>', 'registry name (e.g. /queue/ExampleQueue) or queue://NAME')
    .option('--count <n>', 'print at most n messages', integerIn(1))
    .option('--selector <expression>', 'JMS message selector, e.g. "seq < 10"')
    .option('--body-width <chars>', 'characters of each body shown', integerIn(0), 60);
  return addConnectionOptions(command).action(async (queue: string, options: BrowseOptions) =>
    browse(queue, options),
  );
}

async function browse(queueName: string, options: BrowseOptions): Promise<void> {
  const registry = new Registry(options.config);
  let connection: HornetQConnection | null = null;
  try {
    const destination = await resolveDestination(queueName, registry);
    if (!(destination instanceof HornetQQueue)) {
      throw new CliError(
        `${queueName} is a topic: only queues can be browsed (a topic keeps no messages of its own)`,
      );
    }
    const opened = await connect(options, registry);
    connection = opened.connection;
    const session = await connection.createSession(false);
    const shown = await onDestination(destination, opened.target, async () => {
      const browser = await session.createBrowser(destination, options.selector ?? null);
      let count = 0;
      for await (const message of browser.getEnumeration()) {
        console.log(`${count + 1}. ${messageSummary(toHornetQMessage(message), options.bodyWidth)}`);
        if (++count === options.count) break;
      }
      await browser.close();
      return count;
    });
    const noun = shown === 1 ? 'message' : 'messages';
    const limit = shown === options.count ? ` (--count ${options.count} reached)` : '';
    console.log(`${shown} ${noun} in ${destinationUrl(destination)}${limit}; nothing was consumed`);
  } finally {
    await connection?.close();
    await registry.close();
  }
}
