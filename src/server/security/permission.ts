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
