export type { Destination, Queue, TemporaryQueue, TemporaryTopic, Topic } from './destination';
export { addressOfDestination, destinationFromAddress } from './destination-codec';
export { AddressPrefix, HornetQDestination } from './hornetq-destination';
export { HornetQQueue } from './hornetq-queue';
export { HornetQTemporaryQueue, type TemporaryDestinationDeleter } from './hornetq-temporary-queue';
export { HornetQTemporaryTopic } from './hornetq-temporary-topic';
export { HornetQTopic } from './hornetq-topic';
