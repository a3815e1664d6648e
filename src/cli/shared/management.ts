import { Command, Option } from 'commander';
import type { ClientSession } from '../../core/client/client-session';
import type { HornetQConnection } from '../../jms';
import { toHornetQFilter } from '../../jms/selector/selector-translator';
import { parseSelector } from '../../jms';
import {
  ManagementClient,
  ManagementError,
  managementDialect,
  type ManagementDialectName,
} from '../../management';
import { CliError } from './cli-error';
import { addConnectionOptions, connect, type ConnectionOptions } from './connection';
import { integerIn } from './options';
import { coreQueueName } from './queue-names';
import { Registry } from './registry';

/** The options of every command that works through the management address. */
export interface ManagementOptions extends ConnectionOptions {
  dialect: ManagementDialectName;
  timeout: number;
  json?: boolean;
}

/** What a management command works with: the client, and the broker it reached (for messages). */
export interface ManagementContext {
  readonly management: ManagementClient;
  /** The session the client sends on, for what management does not give (a browser for message bodies). */
  readonly session: ClientSession;
  readonly target: string;
  /** A queue as the user wrote it (`orders`, `queue://orders`, `jms.queue.orders`) as this server names it. */
  queueName(name: string): string;
  /** A topic as the user wrote it (`prices`, `topic://prices`, `jms.topic.prices`): its JMS name, which both families' management takes. */
  topicName(name: string): string;
  /** A JMS selector as this server's management filters take it. */
  filter(selector: string | undefined): string | null;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** The connection options, plus --dialect, --timeout and (when `json`) --json. */
export function addManagementOptions(command: Command, json = true): Command {
  addConnectionOptions(command)
    .addOption(
      new Option(
        '--dialect <server>',
        'the management names of the server: hornetq (HornetQ 2.4 and this broker) or artemis (ActiveMQ Artemis)',
      )
        .choices(['hornetq', 'artemis'])
        .default('hornetq'),
    )
    .option(
      '--timeout <ms>',
      'how long to wait for each answer of the broker',
      integerIn(1),
      DEFAULT_TIMEOUT_MS,
    );
  if (json) command.option('--json', 'one JSON object per line, for scripts (jq)');
  return command;
}

/** Runs `work` with a management client on a fresh connection, and closes both whatever happens. */
export async function withManagement<T>(
  options: ManagementOptions,
  work: (context: ManagementContext) => Promise<T>,
): Promise<T> {
  const registry = new Registry(options.config);
  let connection: HornetQConnection | null = null;
  try {
    const connected = await connect(options, registry);
    connection = connected.connection;
    const session = await connection.createSession(false);
    const dialect = managementDialect(options.dialect);
    const management = new ManagementClient(session.core, { dialect, timeoutMs: options.timeout });
    try {
      return await work({
        management,
        session: session.core,
        target: connected.target,
        queueName: (name) =>
          dialect.name === 'artemis' ? withoutPrefix(name, 'queue') : coreQueueName(name),
        topicName: (name) => withoutPrefix(name, 'topic'),
        filter: (selector) => filterOf(selector, dialect.name),
      });
    } finally {
      await management.close();
    }
  } finally {
    await connection?.close();
    await registry.close();
  }
}

/** What the broker refused, or did not answer, as one line naming the broker and its words. */
export async function managed<T>(what: string, target: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!ManagementError.is(error)) throw error;
    throw new CliError(`the broker at ${target} could not ${what}: ${error.message}`, 1, { cause: error });
  }
}

/** `orders` for `orders`, `queue://orders` and `jms.queue.orders` (Artemis names a HornetQ client's JMS queue so). */
function withoutPrefix(name: string, kind: 'queue' | 'topic'): string {
  const url = new RegExp(`^${kind}://(.+)$`).exec(name);
  if (url?.[1] !== undefined) return url[1];
  return name.startsWith(`jms.${kind}.`) ? name.slice(`jms.${kind}.`.length) : name;
}

/**
 * A JMS selector in the terms of the server's core filters: HornetQ's identifiers (HQPriority),
 * or Artemis' (AMQPriority) where its management reads them. The Artemis renaming is textual: a
 * string literal that spells `HQPriority` is renamed too (a selector that compares a property with
 * that very text is not worth a second parser). A bad selector is the user's mistake.
 */
function filterOf(selector: string | undefined, dialect: ManagementDialectName): string | null {
  if (selector === undefined) return null;
  try {
    parseSelector(selector);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`--filter '${selector}' is not a valid JMS selector: ${message}`, 1, { cause: error });
  }
  const filter = toHornetQFilter(selector);
  return dialect === 'artemis'
    ? filter.replace(/\bHQ(Priority|Timestamp|UserID|Expiration|Durable)\b/g, 'AMQ$1')
    : filter;
}
