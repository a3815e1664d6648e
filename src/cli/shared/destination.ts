import { InvalidDestinationException } from '../../jms';
import { HornetQQueue, HornetQTopic } from '../../jms/destination';
import { CliError } from './cli-error';
import type { Registry } from './registry';

export const DEFAULT_DESTINATION = '/queue/ExampleQueue';

export const DESTINATION_HELP =
  'registry name from hornetq-jms.xml (e.g. /queue/ExampleQueue), or queue://NAME or topic://NAME';

/** `queue://X` and `topic://X` name a JMS destination directly; anything else is a registry name. */
export async function resolveDestination(
  spec: string,
  registry: Registry,
): Promise<HornetQQueue | HornetQTopic> {
  const direct = /^(queue|topic):\/\/(.*)$/.exec(spec);
  if (direct === null) return registry.destination(spec);
  const [, kind, name] = direct;
  if (name === undefined || name === '')
    throw new CliError(`'${spec}' names no ${kind}: write ${kind}://NAME`);
  return kind === 'queue' ? new HornetQQueue(name) : new HornetQTopic(name);
}

/** 'queue://orders' or 'topic://prices'. */
export function destinationUrl(destination: HornetQQueue | HornetQTopic): string {
  return `${destination.isQueue ? 'queue' : 'topic'}://${destination.name}`;
}

/** Runs what opens a producer, consumer or browser; a queue the broker lacks becomes one line saying so. */
export async function onDestination<T>(
  destination: HornetQQueue | HornetQTopic,
  target: string,
  open: () => Promise<T>,
): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (!InvalidDestinationException.is(error)) throw error;
    throw new CliError(`${destinationUrl(destination)} does not exist on the broker at ${target}`, 1, {
      cause: error,
    });
  }
}
