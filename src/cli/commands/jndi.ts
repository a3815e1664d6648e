import { Command } from 'commander';
import { describeConnector } from '../../core/client';
import { HornetQConnectionFactory } from '../../jms';
import { HornetQQueue, HornetQTopic } from '../../jms/destination';
import type { InitialContext } from '../../jndi';
import { destinationUrl } from '../shared/destination';
import { table } from '../shared/output';
import { configOption, displayName, Registry } from '../shared/registry';

interface ListOptions {
  config?: string;
}

export function jndiCommand(): Command {
  const list = new Command('list')
    .description('what hornetq-jms.xml binds: each name, its class and what it points at')
    .addOption(configOption())
    .action(async (options: ListOptions) => jndiList(options));
  return new Command('jndi').addCommand(list);
}

async function jndiList(options: ListOptions): Promise<void> {
  const registry = new Registry(options.config);
  try {
    const context = await registry.load();
    const rows = context
      .list()
      .map((pair) => [displayName(pair.name), pair.className, target(context, pair.name)]);
    console.log(table(['NAME', 'CLASS', 'TARGET'], rows));
  } finally {
    await registry.close();
  }
}

function target(context: InitialContext, name: string): string {
  const object = context.lookup(name);
  if (object instanceof HornetQConnectionFactory)
    return object.getStaticConnectors().map(describeConnector).join(', ');
  if (object instanceof HornetQQueue || object instanceof HornetQTopic)
    return `${destinationUrl(object)} (address ${object.address})`;
  return '';
}
