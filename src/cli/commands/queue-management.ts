import { Command } from 'commander';
import type { ClientSession } from '../../core/client/client-session';
import { fromCoreMessage } from '../../jms/message/from-core-message';
import type { ManagementValue, QueueMessageInfo } from '../../management';
import { integerIn } from '../shared/options';
import { addManagementOptions, managed, withManagement, type ManagementOptions } from '../shared/management';
import { bodyOf } from '../shared/message-summary';
import { table } from '../shared/output';

/**
 * `queue browse|move|retry|pause|resume`: the queue operations that go through the broker's
 * management address (HornetQ 2.4's, this broker's, or Artemis' with --dialect artemis).
 */

interface BrowseOptions extends ManagementOptions {
  limit: number;
  filter?: string;
  bodyWidth: number;
}

interface FilterOptions extends ManagementOptions {
  filter?: string;
}

const DEFAULT_BROWSE_LIMIT = 50;
const NAME_HELP = 'JMS name (orders), queue://orders, or the name the broker lists (jms.queue.orders)';

export function queueManagementCommands(): Command[] {
  const browse = addManagementOptions(
    new Command('browse')
      .description("a queue's messages without consuming them: headers, properties and the start of the body")
      .argument('<queue>', NAME_HELP)
      .option(
        '--limit <n>',
        `at most n messages (default ${DEFAULT_BROWSE_LIMIT})`,
        integerIn(1),
        DEFAULT_BROWSE_LIMIT,
      )
      .option('--filter <selector>', 'only the messages this JMS selector accepts, e.g. "region = \'EU\'"')
      .option('--body-width <chars>', 'characters of each body shown', integerIn(0), 40),
  ).action(async (queue: string, options: BrowseOptions) => queueBrowse(queue, options));
  const move = addManagementOptions(
    new Command('move')
      .description("move a queue's messages (those --filter accepts) to another queue")
      .argument('<from>', NAME_HELP)
      .argument('<to>', 'the queue they go to (its address receives them)')
      .option('--filter <selector>', 'only the messages this JMS selector accepts'),
  ).action(async (from: string, to: string, options: FilterOptions) => queueMove(from, to, options));
  const retry = addManagementOptions(
    new Command('retry')
      .description('send the messages of a dead-letter (or expiry) queue back to the queues they came from')
      .argument('<dlq>', NAME_HELP),
  ).action(async (queue: string, options: ManagementOptions) => queueRetry(queue, options));
  const pause = addManagementOptions(
    new Command('pause')
      .description('stop delivering from a queue to its consumers (messages still arrive) until resumed')
      .argument('<queue>', NAME_HELP),
  ).action(async (queue: string, options: ManagementOptions) => queuePause(queue, true, options));
  const resume = addManagementOptions(
    new Command('resume').description('deliver from a paused queue again').argument('<queue>', NAME_HELP),
  ).action(async (queue: string, options: ManagementOptions) => queuePause(queue, false, options));
  return [browse, move, retry, pause, resume];
}

/**
 * The management listing gives headers and properties; the body comes from a browser on the same
 * queue (the listing has none), matched by message id. A message consumed between the two shows
 * without a body.
 */
async function queueBrowse(name: string, options: BrowseOptions): Promise<void> {
  await withManagement(options, async (context) => {
    const queue = context.queueName(name);
    const filter = context.filter(options.filter);
    const messages = await managed(`list the messages of queue ${queue}`, context.target, () =>
      context.management.listMessages(queue, { filter, limit: options.limit }),
    );
    const bodies = await bodiesOf(context.session, queue, filter, messages, options.bodyWidth);
    if (options.json === true) {
      for (const message of messages)
        console.log(JSON.stringify({ ...message, body: bodies.get(message.messageId) ?? null }));
      return;
    }
    console.log(
      table(
        ['ID', 'PRIORITY', 'DURABLE', 'TIMESTAMP', 'PROPERTIES', 'BODY'],
        messages.map((message) => [
          message.messageId,
          message.priority,
          message.durable ? 'yes' : 'no',
          message.timestamp === 0 ? '-' : new Date(message.timestamp).toISOString(),
          propertiesOf(message.properties),
          bodies.get(message.messageId) ?? '(gone)',
        ]),
      ),
    );
    const noun = messages.length === 1 ? 'message' : 'messages';
    const limit = messages.length === options.limit ? ` (--limit ${options.limit} reached)` : '';
    console.log(`${messages.length} ${noun} in queue ${queue}${limit}; nothing was consumed`);
  });
}

/** The start of each listed message's body, by message id, from a browse-only consumer. */
async function bodiesOf(
  session: ClientSession,
  queue: string,
  filter: string | null,
  messages: readonly QueueMessageInfo[],
  width: number,
): Promise<Map<number, string>> {
  const wanted = new Set(messages.map((message) => message.messageId));
  const bodies = new Map<number, string>();
  if (wanted.size === 0) return bodies;
  const browser = await session.createConsumer(queue, { filter, browseOnly: true });
  try {
    for (
      let received = await browser.receiveImmediate();
      received !== null;
      received = await browser.receiveImmediate()
    ) {
      const id = received.message.messageId;
      if (wanted.has(id))
        bodies.set(id, bodyOf(fromCoreMessage(received.message, received.deliveryCount), width));
      if (bodies.size === wanted.size) break;
    }
  } finally {
    await browser.close();
  }
  return bodies;
}

function propertiesOf(properties: Readonly<Record<string, ManagementValue>>): string {
  const entries = Object.keys(properties)
    .sort()
    .map((key) => `${key}=${JSON.stringify(properties[key])}`);
  return entries.length === 0 ? '-' : entries.join(' ');
}

async function queueMove(from: string, to: string, options: FilterOptions): Promise<void> {
  await withManagement(options, async (context) => {
    const [source, target] = [context.queueName(from), context.queueName(to)];
    const filter = context.filter(options.filter);
    const moved = await managed(`move messages from queue ${source} to ${target}`, context.target, () =>
      context.management.moveMessages(source, target, { filter }),
    );
    report(
      options,
      { queue: source, target, moved },
      `moved ${count(moved)} from queue ${source} to queue ${target}`,
    );
  });
}

async function queueRetry(name: string, options: ManagementOptions): Promise<void> {
  await withManagement(options, async (context) => {
    const queue = context.queueName(name);
    const retried = await managed(`retry the messages of queue ${queue}`, context.target, () =>
      context.management.retryMessages(queue),
    );
    const left = await managed(`count the messages of queue ${queue}`, context.target, () =>
      context.management.countMessages(queue),
    );
    const rest = left === 0 ? '' : ` (${count(left)} left: they name no original queue)`;
    report(
      options,
      { queue, retried, left },
      `sent ${count(retried)} from queue ${queue} back to their original queues${rest}`,
    );
  });
}

async function queuePause(name: string, pause: boolean, options: ManagementOptions): Promise<void> {
  await withManagement(options, async (context) => {
    const queue = context.queueName(name);
    const verb = pause ? 'pause' : 'resume';
    await managed(`${verb} queue ${queue}`, context.target, () =>
      pause ? context.management.pause(queue) : context.management.resume(queue),
    );
    const paused = await managed(`read whether queue ${queue} is paused`, context.target, () =>
      context.management.isPaused(queue),
    );
    report(options, { queue, paused }, `${pause ? 'paused' : 'resumed'} queue ${queue}`);
  });
}

function count(n: number): string {
  return `${n} ${n === 1 ? 'message' : 'messages'}`;
}

/** The result as one JSON line with --json, as a sentence otherwise. */
export function report(options: { json?: boolean }, result: object, sentence: string): void {
  console.log(options.json === true ? JSON.stringify(result) : sentence);
}
