import { HornetQException } from '../../core/protocol';
import type { Permission } from './permission';
import type { Principal } from './security-manager';
import type { SecurityStore } from './security-store';

/**
 * What a session may do, decided for the user it authenticated as. The session asks before each
 * operation that needs a permission, and before any of the operation's side effects, so that a
 * refused operation changes nothing.
 */
export interface SessionGuard {
  /** The authenticated user; null when security is disabled (nobody is authenticated). */
  readonly user: string | null;
  allows(permission: Permission, address: string): boolean;
  /** Throws HornetQ's SECURITY_EXCEPTION, naming user, permission and address, when not allowed. */
  check(permission: Permission, address: string): void;
}

/** security-enabled false: every session may do everything, as in HornetQ. */
export const OPEN_GUARD: SessionGuard = Object.freeze({
  user: null,
  allows: () => true,
  check: () => undefined,
});

/**
 * The guard of an authenticated session: its principal's roles against the broker's security
 * settings as they are at each check (a redeploy replaces the store's settings, and the next
 * check uses them).
 */
export function principalGuard(principal: Principal, store: SecurityStore): SessionGuard {
  const allows = (permission: Permission, address: string): boolean =>
    store.isAllowed(principal.roles, permission, address);
  return Object.freeze({
    user: principal.user,
    allows,
    check(permission: Permission, address: string): void {
      if (!allows(permission, address)) throw permissionDenied(principal.user, permission, address);
    },
  });
}

/** HornetQ's HQ119032, with the permission as hornetq-configuration.xml names it. */
export function permissionDenied(user: string, permission: Permission, address: string): HornetQException {
  return new HornetQException(
    'SECURITY_EXCEPTION',
    `User: ${user} doesn't have permission='${permission}' on address ${address}`,
  );
}
