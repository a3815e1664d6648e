/** The JMS destination interfaces of the public contract. */

export interface Queue {
  getQueueName(): string;
  toString(): string;
}

export interface Topic {
  getTopicName(): string;
  toString(): string;
}

export interface TemporaryQueue extends Queue {
  delete(): Promise<void>;
}

export interface TemporaryTopic extends Topic {
  delete(): Promise<void>;
}

export type Destination = Queue | Topic;
