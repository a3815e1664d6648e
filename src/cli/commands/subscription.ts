import { Command } from 'commander';
import { addManagementOptions, managed, withManagement, type ManagementOptions } from '../shared/management';
import { table } from '../shared/output';
import { report } from './queue-management';

/** `subscription list|drop`: a topic's subscriptions, through the management address. */
export function subscriptionCommand(): Command {
  const list = addManagementOptions(
    new Command('list')
      .description("a topic's subscriptions: durable ones with their client id and name, and what each holds")
      .argument('<topic>', 'JMS name (prices), topic://prices or jms.topic.prices'),
  ).action(async (topic: string, options: ManagementOptions) => subscriptionList(topic, options));
  const drop = addManagementOptions(
    new Command('drop')
      .description('delete a durable subscription and the messages it holds (it must have no consumer)')
      .argument('<clientId>', 'the client id of the connection that subscribed')
      .argument('<name>', 'the subscription name'),
  ).action(async (clientId: string, name: string, options: ManagementOptions) =>
    subscriptionDrop(clientId, name, options),
  );
  return new Command('subscription').addCommand(list).addCommand(drop);
}

async function subscriptionList(name: string, options: ManagementOptions): Promise<void> {
  await withManagement(options, async (context) => {
    const topic = context.topicName(name);
    const subscriptions = await managed(`list the subscriptions of topic ${topic}`, context.target, () =>
      context.management.listSubscriptions(topic),
    );
    if (options.json === true) {
      for (const subscription of subscriptions) console.log(JSON.stringify(subscription));
      return;
    }
    console.log(
      table(
        ['QUEUE', 'CLIENT ID', 'NAME', 'DURABLE', 'MESSAGES', 'DELIVERING', 'CONSUMERS', 'SELECTOR'],
        subscriptions.map((s) => [
          s.queueName,
          s.clientId ?? '-',
          s.name ?? '-',
          s.durable ? 'yes' : 'no',
          s.messageCount,
          s.deliveringCount,
          s.consumerCount,
          s.selector ?? '-',
        ]),
      ),
    );
  });
}

async function subscriptionDrop(clientId: string, name: string, options: ManagementOptions): Promise<void> {
  await withManagement(options, async (context) => {
    await managed(`drop the durable subscription ${name} of client ${clientId}`, context.target, () =>
      context.management.dropDurableSubscription(clientId, name),
    );
    report(
      options,
      { clientId, name, dropped: true },
      `dropped durable subscription ${name} of client ${clientId}`,
    );
  });
}
