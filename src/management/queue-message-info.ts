import type { ManagementValue } from './management-codec';
import type { ManagementDialect } from './management-dialect';
import type { JsonFields, JsonObject } from './json-fields';

/** A message waiting in a queue, as the server's listMessages shows it: headers and properties, no body. */
export interface QueueMessageInfo {
  /** The server's id of the message (what moveMessage and retryMessage take). */
  readonly messageId: number;
  /** The JMSMessageID (`ID:` and a UUID), or null when the producer sent none. */
  readonly userId: string | null;
  readonly address: string;
  readonly durable: boolean;
  readonly priority: number;
  /** Epoch ms. */
  readonly timestamp: number;
  /** Epoch ms after which it expires; 0 for never. */
  readonly expiration: number;
  /** The core body type (3 text, 4 bytes, ...); null where the server does not say (Artemis). */
  readonly type: number | null;
  /** Where a dead-lettered or expired copy came from (HornetQ's _HQ_ORIG_*, Artemis' _AMQ_ORIG_*). */
  readonly originalAddress: string | null;
  readonly originalQueue: string | null;
  /** The application's and the server's properties, as the server listed them. */
  readonly properties: Readonly<Record<string, ManagementValue>>;
}

/** The header fields of a listed message (HornetQ's MessageImpl.toMap, Artemis' Message.toMap): the rest are properties. */
const HEADER_FIELDS = new Set([
  'messageID',
  'userID',
  'address',
  'type',
  'durable',
  'expiration',
  'timestamp',
  'priority',
  'largeMessage',
  'persistentSize',
  'redelivered',
]);

export function toQueueMessageInfo(
  dialect: ManagementDialect,
  fields: JsonFields,
  map: JsonObject,
): QueueMessageInfo {
  const properties: Record<string, ManagementValue> = {};
  for (const [key, value] of Object.entries(map)) if (!HEADER_FIELDS.has(key)) properties[key] = value;
  return {
    messageId: fields.number(map, 'messageID'),
    userId: fields.optionalText(map, 'userID'),
    address: fields.text(map, 'address'),
    durable: fields.boolean(map, 'durable'),
    priority: fields.number(map, 'priority'),
    timestamp: fields.number(map, 'timestamp'),
    expiration: fields.number(map, 'expiration'),
    type: fields.optionalNumber(map, 'type'),
    originalAddress: fields.optionalText(map, dialect.originalAddressProperty),
    originalQueue: fields.optionalText(map, dialect.originalQueueProperty),
    properties,
  };
}
