import type { JsonFields, JsonObject } from './json-fields';

/**
 * A client connection to the server. HornetQ 2.4's JMS server lists the connections of JMS
 * clients, with their client id and user; Artemis lists every connection, with its session count.
 * What a server does not say is null.
 */
export interface ConnectionInfo {
  readonly connectionId: string;
  /** The client's address as the server sees it: `/127.0.0.1:54321` (Java) or `127.0.0.1:54321`. */
  readonly clientAddress: string;
  /** Epoch ms. */
  readonly creationTime: number;
  readonly clientId: string | null;
  /** The user it logged in as (HornetQ's `principal`). */
  readonly user: string | null;
  readonly sessionCount: number | null;
}

export function toConnectionInfo(fields: JsonFields, map: JsonObject): ConnectionInfo {
  return {
    connectionId: fields.text(map, 'connectionID'),
    clientAddress: fields.text(map, 'clientAddress'),
    creationTime: fields.number(map, 'creationTime'),
    clientId: fields.optionalText(map, 'clientID'),
    user: fields.optionalText(map, 'principal'),
    sessionCount: fields.optionalNumber(map, 'sessionCount'),
  };
}
