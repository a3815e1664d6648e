/**
 * How a server family names management things. HornetQ 2.4 (and our broker, which answers as it
 * does) and ActiveMQ Artemis take the same kind of request, a message to the management address
 * with a resource, an operation or attribute and JSON parameters, but spell every part of it
 * differently: the address, the property names (`_HQ_` and `_AMQ_`) and the resource names.
 */
export type ManagementDialectName = 'hornetq' | 'artemis';

export interface ManagementDialect {
  readonly name: ManagementDialectName;
  /** Where requests go (HornetQ's `<management-address>`, Artemis' `management-address`). */
  readonly managementAddress: string;
  /** The request's and answer's property names (ManagementHelper.HDR_*). */
  readonly resourceProperty: string;
  readonly operationProperty: string;
  readonly attributeProperty: string;
  readonly succeededProperty: string;
  /**
   * What a dead-lettered or expired copy says about where it came from, as the server's
   * management listing shows it (Artemis renames HornetQ's properties only for HornetQ clients'
   * deliveries, not in its JSON).
   */
  readonly originalQueueProperty: string;
  readonly originalAddressProperty: string;
  /** The resource of a queue, by the server's own queue name. */
  queueResource(queue: string): string;
  /** The resource of an address. */
  addressResource(address: string): string;
  /** The resource with the server-wide operations: queues, connections. */
  readonly serverResource: string;
}

/** HornetQ 2.4's names (ResourceNames, ManagementHelper), which our broker answers too. */
export const HORNETQ_DIALECT: ManagementDialect = Object.freeze({
  name: 'hornetq',
  managementAddress: 'jms.queue.hornetq.management',
  resourceProperty: '_HQ_ResourceName',
  operationProperty: '_HQ_OperationName',
  attributeProperty: '_HQ_Attribute',
  succeededProperty: '_HQ_OperationSucceeded',
  originalQueueProperty: '_HQ_ORIG_QUEUE',
  originalAddressProperty: '_HQ_ORIG_ADDRESS',
  queueResource: (queue: string) => `core.queue.${queue}`,
  addressResource: (address: string) => `core.address.${address}`,
  serverResource: 'core.server',
});

/** ActiveMQ Artemis 2.x's names (its ResourceNames and ManagementHelper). */
export const ARTEMIS_DIALECT: ManagementDialect = Object.freeze({
  name: 'artemis',
  managementAddress: 'activemq.management',
  resourceProperty: '_AMQ_ResourceName',
  operationProperty: '_AMQ_OperationName',
  attributeProperty: '_AMQ_Attribute',
  succeededProperty: '_AMQ_OperationSucceeded',
  originalQueueProperty: '_AMQ_ORIG_QUEUE',
  originalAddressProperty: '_AMQ_ORIG_ADDRESS',
  queueResource: (queue: string) => `queue.${queue}`,
  addressResource: (address: string) => `address.${address}`,
  serverResource: 'broker',
});

const DIALECTS: Readonly<Record<ManagementDialectName, ManagementDialect>> = {
  hornetq: HORNETQ_DIALECT,
  artemis: ARTEMIS_DIALECT,
};

/** The dialect named `name`; anything else is a RangeError that lists the names there are. */
export function managementDialect(name: string): ManagementDialect {
  const dialect = Object.hasOwn(DIALECTS, name) ? DIALECTS[name as ManagementDialectName] : undefined;
  if (dialect === undefined) {
    throw new RangeError(`management dialect '${name}' is not one of: ${Object.keys(DIALECTS).join(', ')}`);
  }
  return dialect;
}
