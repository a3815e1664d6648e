import { permissionDenied, type SessionGuard } from '../security/session-guard';

/**
 * The guard of a session logged in as the cluster user. Its session only proves the login of the
 * connection a backup announces itself on: it may send, consume or create nothing (HornetQ's
 * cluster user may do anything; a leaked cluster password here opens no queue).
 */
export function clusterPeerGuard(user: string): SessionGuard {
  return Object.freeze({
    user,
    allows: () => false,
    check(permission, address): void {
      throw permissionDenied(user, permission, address);
    },
  } satisfies SessionGuard);
}
