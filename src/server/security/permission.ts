/** HornetQ 2.4's permission types (CheckType), each granted to roles per match in <security-settings>. */
export const PERMISSIONS = Object.freeze([
  'createDurableQueue',
  'deleteDurableQueue',
  'createNonDurableQueue',
  'deleteNonDurableQueue',
  'send',
  'consume',
  'manage',
] as const);

export type Permission = (typeof PERMISSIONS)[number];

/**
 * HornetQ's management address (management-address's default): a management operation, such as
 * listing the queues, needs `manage` on it, as a management message sent there does in HornetQ.
 */
export const MANAGEMENT_ADDRESS = 'jms.queue.hornetq.management';
