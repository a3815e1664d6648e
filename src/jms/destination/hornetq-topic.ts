import type { Topic } from './destination';
import { AddressPrefix, HornetQDestination } from './hornetq-destination';

/** JMS topic `name` = core address `jms.topic.<name>`; each subscription is a core queue bound to it. */
export class HornetQTopic extends HornetQDestination implements Topic {
  static override readonly brand: string = 'HornetQTopic';

  constructor(
    name: string,
    prefix: typeof AddressPrefix.TOPIC | typeof AddressPrefix.TEMP_TOPIC = AddressPrefix.TOPIC,
  ) {
    super(name, prefix);
  }

  get isQueue(): boolean {
    return false;
  }

  get isTemporary(): boolean {
    return false;
  }

  getTopicName(): string {
    return this.name;
  }
}
