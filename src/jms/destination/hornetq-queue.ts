import type { Queue } from './destination';
import { AddressPrefix, HornetQDestination } from './hornetq-destination';

/** JMS queue `name` = core address and queue `jms.queue.<name>`. */
export class HornetQQueue extends HornetQDestination implements Queue {
  static override readonly brand: string = 'HornetQQueue';

  constructor(
    name: string,
    prefix: typeof AddressPrefix.QUEUE | typeof AddressPrefix.TEMP_QUEUE = AddressPrefix.QUEUE,
  ) {
    super(name, prefix);
  }

  get isQueue(): boolean {
    return true;
  }

  get isTemporary(): boolean {
    return false;
  }

  getQueueName(): string {
    return this.name;
  }
}
