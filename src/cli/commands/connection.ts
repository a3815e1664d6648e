import { Command } from 'commander';
import { CliError } from '../shared/cli-error';
import { addManagementOptions, managed, withManagement, type ManagementOptions } from '../shared/management';
import { table } from '../shared/output';
import { report } from './queue-management';

/** `connection list|close`: the client connections of a broker, through its management address. */
export function connectionCommand(): Command {
  const list = addManagementOptions(
    new Command('list').description(
      'the client connections: id, client address, when it connected, client id, user (HornetQ 2.4 lists JMS connections)',
    ),
  ).action(async (options: ManagementOptions) => connectionList(options));
  const close = addManagementOptions(
    new Command('close')
      .description(
        'close a connection by its id (as `connection list` shows it), or every connection whose address contains ADDRESS',
      )
      .argument('<id|address>', 'a connection id, or an address such as 10.0.0.7'),
  ).action(async (which: string, options: ManagementOptions) => connectionClose(which, options));
  return new Command('connection').addCommand(list).addCommand(close);
}

async function connectionList(options: ManagementOptions): Promise<void> {
  await withManagement(options, async (context) => {
    const connections = await managed('list the connections', context.target, () =>
      context.management.listConnections(),
    );
    if (options.json === true) {
      for (const connection of connections) console.log(JSON.stringify(connection));
      return;
    }
    console.log(
      table(
        ['ID', 'CLIENT ADDRESS', 'CREATED', 'CLIENT ID', 'USER', 'SESSIONS'],
        connections.map((c) => [
          c.connectionId,
          c.clientAddress,
          new Date(c.creationTime).toISOString(),
          c.clientId ?? '-',
          c.user ?? '-',
          c.sessionCount ?? '-',
        ]),
      ),
    );
  });
}

/** An id the broker lists closes that connection; anything else is an address. Nothing closed is exit code 1. */
async function connectionClose(which: string, options: ManagementOptions): Promise<void> {
  await withManagement(options, async (context) => {
    const connections = await managed('list the connections', context.target, () =>
      context.management.listConnections(),
    );
    const byId = connections.some((connection) => connection.connectionId === which);
    const closed = await managed(`close connection ${which}`, context.target, () =>
      byId ? context.management.closeConnection(which) : context.management.closeConnectionsForAddress(which),
    );
    if (!closed) {
      throw new CliError(
        `no connection ${which} on the broker at ${context.target}: no id is ${which} and no client address contains it (\`hornetq connection list\` lists them)`,
      );
    }
    const sentence = byId
      ? `closed connection ${which}`
      : `closed the connections from addresses containing ${which}`;
    report(options, { closed: which, by: byId ? 'id' : 'address' }, sentence);
  });
}
