import type { JsonFields, JsonObject } from './json-fields';

/** A consumer of a queue (listConsumersAsJSON: the same fields in HornetQ 2.4 and Artemis). */
export interface ConsumerInfo {
  readonly consumerId: number;
  readonly connectionId: string;
  readonly sessionId: string;
  /** A browser: it sees the messages without taking them. */
  readonly browseOnly: boolean;
  /** Epoch ms. */
  readonly creationTime: number;
}

export function toConsumerInfo(fields: JsonFields, map: JsonObject): ConsumerInfo {
  return {
    consumerId: fields.number(map, 'consumerID'),
    connectionId: fields.text(map, 'connectionID'),
    sessionId: fields.text(map, 'sessionID'),
    browseOnly: fields.boolean(map, 'browseOnly'),
    creationTime: fields.number(map, 'creationTime'),
  };
}
