import type { SessionGuard } from '../security/session-guard';

/**
 * What a console user may do, from the broker's own `<security-settings>` (no role list of the
 * console's own to keep in step):
 *
 * - view (queues and their counts, connections, consumers, subscriptions): `consume` on the
 *   management address. Nothing is ever consumed from that address (management replies go to
 *   the caller's reply-to), so the permission has no other meaning there, and granting it is how
 *   an operator makes a read-only console user.
 * - manage (every change: purge, move, retry, pause, resume, delete, close, drop): `manage` on
 *   the management address, the permission HornetQ asks of a management message. It implies view.
 * - a queue's messages (headers, properties, the start of the body): view, and either `consume`
 *   on the queue's address (what a JMS QueueBrowser of the queue needs) or manage. Bodies may hold
 *   what a viewer of counts should not read.
 */
export interface ConsoleRights {
  readonly view: boolean;
  readonly manage: boolean;
}

export function rightsOf(guard: SessionGuard, managementAddress: string): ConsoleRights {
  const manage = guard.allows('manage', managementAddress);
  return { manage, view: manage || guard.allows('consume', managementAddress) };
}

/** Whether `guard` may read the messages of a queue bound to `queueAddress`. */
export function mayBrowse(guard: SessionGuard, managementAddress: string, queueAddress: string): boolean {
  const rights = rightsOf(guard, managementAddress);
  return rights.manage || (rights.view && guard.allows('consume', queueAddress));
}
